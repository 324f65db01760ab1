// SPDX-License-Identifier: GPL-2.0
/*
 * Tests for lib/string.c: the memory functions at unaligned offsets and
 * lengths that cross word boundaries (their word-at-a-time paths), overlap
 * in memmove(), unsigned byte comparison, the return conventions of
 * strlcpy(), strchr() and strstr(), and glob_match() with backtracking.
 */
#include <kunit/test.h>
#include <kernel.h>
#include <string.h>

#define BUF_LEN		64

/* A recognisable, position-dependent byte, so misplaced copies show. */
static unsigned char pattern_byte(size_t i)
{
	return (unsigned char)(i * 7 + 1);
}

static void fill_pattern(unsigned char *buf, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++)
		buf[i] = pattern_byte(i);
}

static void string_memset_test(struct kunit *test)
{
	unsigned char buf[BUF_LEN];
	size_t i;

	fill_pattern(buf, sizeof(buf));
	/* Odd start and length: a head, whole words, and a tail. */
	KUNIT_EXPECT_PTR_EQ(test, memset(buf + 3, 0x1ab, 37), buf + 3);
	for (i = 0; i < sizeof(buf); i++) {
		if (i >= 3 && i < 40)
			KUNIT_EXPECT_EQ(test, buf[i], 0xab);
		else
			KUNIT_EXPECT_EQ(test, buf[i], pattern_byte(i));
	}

	memset(buf, 0, 0);
	KUNIT_EXPECT_EQ(test, buf[0], pattern_byte(0));
}

static void string_memcpy_test(struct kunit *test)
{
	unsigned char src[BUF_LEN], dst[BUF_LEN];
	size_t i, off;

	fill_pattern(src, sizeof(src));
	/* Same and different alignments of source and destination. */
	for (off = 0; off < 4; off++) {
		memset(dst, 0xee, sizeof(dst));
		KUNIT_EXPECT_PTR_EQ(test, memcpy(dst + off, src + 1, 41),
				    dst + off);
		for (i = 0; i < sizeof(dst); i++) {
			if (i >= off && i < off + 41)
				KUNIT_EXPECT_EQ(test, dst[i],
						pattern_byte(i - off + 1));
			else
				KUNIT_EXPECT_EQ(test, dst[i], 0xee);
		}
	}
}

/* dst after src inside it: a forward copy would read bytes it overwrote. */
static void string_memmove_forward_overlap_test(struct kunit *test)
{
	unsigned char buf[BUF_LEN];
	size_t i;

	fill_pattern(buf, sizeof(buf));
	KUNIT_EXPECT_PTR_EQ(test, memmove(buf + 5, buf + 2, 30), buf + 5);
	for (i = 0; i < sizeof(buf); i++) {
		if (i >= 5 && i < 35)
			KUNIT_EXPECT_EQ(test, buf[i], pattern_byte(i - 3));
		else
			KUNIT_EXPECT_EQ(test, buf[i], pattern_byte(i));
	}
}

static void string_memmove_backward_overlap_test(struct kunit *test)
{
	unsigned char buf[BUF_LEN];
	size_t i;

	fill_pattern(buf, sizeof(buf));
	KUNIT_EXPECT_PTR_EQ(test, memmove(buf + 1, buf + 9, 40), buf + 1);
	for (i = 0; i < sizeof(buf); i++) {
		if (i >= 1 && i < 41)
			KUNIT_EXPECT_EQ(test, buf[i], pattern_byte(i + 8));
		else
			KUNIT_EXPECT_EQ(test, buf[i], pattern_byte(i));
	}
}

static void string_memcmp_test(struct kunit *test)
{
	const unsigned char a[] = { 1, 2, 3, 0x80 };
	const unsigned char b[] = { 1, 2, 3, 0x01 };

	KUNIT_EXPECT_EQ(test, memcmp(a, b, 3), 0);
	/* Bytes compare unsigned: 0x80 is above 0x01. */
	KUNIT_EXPECT_GT(test, memcmp(a, b, 4), 0);
	KUNIT_EXPECT_LT(test, memcmp(b, a, 4), 0);
	KUNIT_EXPECT_EQ(test, memcmp(a, b, 0), 0);
}

static void string_strlen_test(struct kunit *test)
{
	/* Not terminated: strnlen must stop at max without reading on. */
	const char unterminated[4] = { 'w', 'x', 'y', 'z' };

	KUNIT_EXPECT_EQ(test, strlen(""), 0);
	KUNIT_EXPECT_EQ(test, strlen("mutex"), 5);
	KUNIT_EXPECT_EQ(test, strnlen("mutex", 3), 3);
	KUNIT_EXPECT_EQ(test, strnlen("mutex", 10), 5);
	KUNIT_EXPECT_EQ(test, strnlen("mutex", 0), 0);
	KUNIT_EXPECT_EQ(test, strnlen(unterminated, sizeof(unterminated)), 4);
}

static void string_strcmp_test(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, strcmp("lock", "lock"), 0);
	KUNIT_EXPECT_LT(test, strcmp("abc", "abd"), 0);
	KUNIT_EXPECT_GT(test, strcmp("abd", "abc"), 0);
	/* A prefix sorts before the longer string. */
	KUNIT_EXPECT_LT(test, strcmp("ab", "abc"), 0);
	KUNIT_EXPECT_GT(test, strcmp("abc", "ab"), 0);
	/* Characters compare as unsigned char, whatever char's sign. */
	KUNIT_EXPECT_GT(test, strcmp("\x80", "\x01"), 0);
	KUNIT_EXPECT_LT(test, strcmp("", "a"), 0);
}

static void string_strncmp_test(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, strncmp("abcX", "abcY", 3), 0);
	KUNIT_EXPECT_LT(test, strncmp("abcX", "abcY", 4), 0);
	KUNIT_EXPECT_EQ(test, strncmp("x", "y", 0), 0);
	/* Equal strings stop at their NUL, however large n is. */
	KUNIT_EXPECT_EQ(test, strncmp("ab", "ab", 100), 0);
	KUNIT_EXPECT_GT(test, strncmp("abc", "ab", 100), 0);
}

static void string_strcpy_test(struct kunit *test)
{
	char buf[16];

	memset(buf, 'Q', sizeof(buf));
	KUNIT_EXPECT_PTR_EQ(test, strcpy(buf, "spin"), buf);
	KUNIT_EXPECT_STREQ(test, buf, "spin");
	/* The terminator is copied, and nothing after it. */
	KUNIT_EXPECT_EQ(test, buf[4], '\0');
	KUNIT_EXPECT_EQ(test, buf[5], 'Q');
}

static void string_strlcpy_test(struct kunit *test)
{
	char buf[8];

	memset(buf, 'Q', sizeof(buf));
	KUNIT_EXPECT_EQ(test, strlcpy(buf, "abc", sizeof(buf)), 3);
	KUNIT_EXPECT_STREQ(test, buf, "abc");

	/* Cut short: still terminated, and the return says it did not fit. */
	KUNIT_EXPECT_EQ(test, strlcpy(buf, "semaphore", 4), 9);
	KUNIT_EXPECT_STREQ(test, buf, "sem");

	KUNIT_EXPECT_EQ(test, strlcpy(buf, "xyz", 1), 3);
	KUNIT_EXPECT_STREQ(test, buf, "");

	/* Size 0: dst is not touched at all. */
	memset(buf, 'Q', sizeof(buf));
	KUNIT_EXPECT_EQ(test, strlcpy(buf, "xyz", 0), 3);
	KUNIT_EXPECT_EQ(test, buf[0], 'Q');
}

static void string_strchr_test(struct kunit *test)
{
	const char *s = "a_lock_held";

	KUNIT_EXPECT_PTR_EQ(test, strchr(s, 'l'), s + 2);
	KUNIT_EXPECT_PTR_EQ(test, strchr(s, 'a'), s);
	KUNIT_EXPECT_NULL(test, strchr(s, 'z'));
	/* The terminator is part of the string. */
	KUNIT_EXPECT_PTR_EQ(test, strchr(s, '\0'), s + 11);
	/* c is converted to char first. */
	KUNIT_EXPECT_PTR_EQ(test, strchr(s, 'k' + 256), s + 5);
}

static void string_strrchr_test(struct kunit *test)
{
	const char *s = "a_lock_held";

	KUNIT_EXPECT_PTR_EQ(test, strrchr(s, 'l'), s + 9);
	KUNIT_EXPECT_PTR_EQ(test, strrchr(s, '_'), s + 6);
	KUNIT_EXPECT_PTR_EQ(test, strrchr(s, 'a'), s);
	KUNIT_EXPECT_NULL(test, strrchr(s, 'z'));
	KUNIT_EXPECT_PTR_EQ(test, strrchr(s, '\0'), s + 11);
}

static void string_strstr_test(struct kunit *test)
{
	const char *s = "mutex_lock_interruptible";
	const char *h = "aaab", *empty = "";

	KUNIT_EXPECT_PTR_EQ(test, strstr(s, "lock"), s + 6);
	KUNIT_EXPECT_PTR_EQ(test, strstr(s, "mutex"), s);
	KUNIT_EXPECT_PTR_EQ(test, strstr(s, "ible"), s + 20);
	KUNIT_EXPECT_NULL(test, strstr(s, "unlock"));
	KUNIT_EXPECT_NULL(test, strstr("ab", "abc"));
	/* A partial match must not hide the real one starting inside it. */
	KUNIT_EXPECT_PTR_EQ(test, strstr(h, "aab"), h + 1);
	/* An empty needle is found at the start. */
	KUNIT_EXPECT_PTR_EQ(test, strstr(s, ""), s);
	KUNIT_EXPECT_PTR_EQ(test, strstr(empty, ""), empty);
}

static void string_glob_match_test(struct kunit *test)
{
	KUNIT_EXPECT_TRUE(test, glob_match("mutex.*", "mutex.lock_unlock"));
	KUNIT_EXPECT_FALSE(test, glob_match("mutex.*", "sem.down"));
	KUNIT_EXPECT_TRUE(test, glob_match("*.lock", "mutex.lock"));
	KUNIT_EXPECT_FALSE(test, glob_match("*.lock", "mutex.locks"));
	KUNIT_EXPECT_TRUE(test, glob_match("*", ""));
	KUNIT_EXPECT_TRUE(test, glob_match("*", "anything"));
	KUNIT_EXPECT_TRUE(test, glob_match("", ""));
	KUNIT_EXPECT_FALSE(test, glob_match("", "a"));
	KUNIT_EXPECT_TRUE(test, glob_match("a?c", "abc"));
	KUNIT_EXPECT_FALSE(test, glob_match("a?c", "ac"));
	KUNIT_EXPECT_FALSE(test, glob_match("??", "a"));
	KUNIT_EXPECT_TRUE(test, glob_match("a*b*c", "aXbYc"));
	KUNIT_EXPECT_TRUE(test, glob_match("a*b*c", "abc"));
	KUNIT_EXPECT_FALSE(test, glob_match("a*b*c", "acb"));
	/* Needs the star to give characters back after a false start. */
	KUNIT_EXPECT_TRUE(test, glob_match("*ab", "aab"));
	KUNIT_EXPECT_TRUE(test, glob_match("*a?c", "abaxc"));
	KUNIT_EXPECT_TRUE(test, glob_match("abc**", "abc"));
	KUNIT_EXPECT_FALSE(test, glob_match("abc", "abd"));
	KUNIT_EXPECT_FALSE(test, glob_match("abc", "ab"));
}

static struct kunit_case string_cases[] = {
	KUNIT_CASE(string_memset_test),
	KUNIT_CASE(string_memcpy_test),
	KUNIT_CASE(string_memmove_forward_overlap_test),
	KUNIT_CASE(string_memmove_backward_overlap_test),
	KUNIT_CASE(string_memcmp_test),
	KUNIT_CASE(string_strlen_test),
	KUNIT_CASE(string_strcmp_test),
	KUNIT_CASE(string_strncmp_test),
	KUNIT_CASE(string_strcpy_test),
	KUNIT_CASE(string_strlcpy_test),
	KUNIT_CASE(string_strchr_test),
	KUNIT_CASE(string_strrchr_test),
	KUNIT_CASE(string_strstr_test),
	KUNIT_CASE(string_glob_match_test),
	{}
};

static struct kunit_suite string_suite = {
	.name = "string",
	.test_cases = string_cases,
};

kunit_test_suite(string_suite);
