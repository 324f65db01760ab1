// SPDX-License-Identifier: GPL-2.0
/*
 * Tests for lib/vsnprintf.c: the output of every conversion, flag and
 * length modifier against strings worked out by hand, the corner values of
 * each integer type, truncation and the return values of the snprintf and
 * scnprintf families, %p and its symbol extensions, and simple_strtoul().
 */
#include <kunit/test.h>
#include <kernel.h>
#include <kallsyms.h>
#include <string.h>

#define OUT_LEN		128

/*
 * Formats into a buffer pre-filled with 'X' (so a missing terminator shows
 * up as trailing X's) and checks both the text and the returned length.
 */
#define EXPECT_FMT(test, want, fmt, ...) do {				\
	char __buf[OUT_LEN];						\
	int __len;							\
									\
	memset(__buf, 'X', sizeof(__buf) - 1);				\
	__buf[sizeof(__buf) - 1] = '\0';				\
	__len = snprintf(__buf, sizeof(__buf), fmt, ##__VA_ARGS__);	\
	KUNIT_EXPECT_STREQ(test, __buf, want);				\
	KUNIT_EXPECT_EQ(test, __len, (int)strlen(want));		\
} while (0)

static void vsnprintf_decimal_test(struct kunit *test)
{
	EXPECT_FMT(test, "0", "%d", 0);
	EXPECT_FMT(test, "42", "%d", 42);
	EXPECT_FMT(test, "-42", "%i", -42);
	EXPECT_FMT(test, "-2147483648", "%d", -2147483647 - 1);
	EXPECT_FMT(test, "2147483647", "%d", 2147483647);
	EXPECT_FMT(test, "4294967295", "%u", 4294967295u);
	EXPECT_FMT(test, "a1b-2c", "a%db%dc", 1, -2);
}

static void vsnprintf_hex_octal_test(struct kunit *test)
{
	EXPECT_FMT(test, "beef", "%x", 0xbeefu);
	EXPECT_FMT(test, "BEEF", "%X", 0xbeefu);
	EXPECT_FMT(test, "0xbeef", "%#x", 0xbeefu);
	EXPECT_FMT(test, "0XBEEF", "%#X", 0xbeefu);
	/* C prints no prefix before a zero. */
	EXPECT_FMT(test, "0", "%#x", 0u);
	EXPECT_FMT(test, "ffffffff", "%x", 0xffffffffu);
	EXPECT_FMT(test, "10", "%o", 8u);
	EXPECT_FMT(test, "010", "%#o", 8u);
	EXPECT_FMT(test, "0", "%#o", 0u);
	EXPECT_FMT(test, "37777777777", "%o", 0xffffffffu);
}

static void vsnprintf_length_modifier_test(struct kunit *test)
{
	/* Promoted arguments are narrowed back to the named type. */
	EXPECT_FMT(test, "-1", "%hhd", 255);
	EXPECT_FMT(test, "0", "%hhu", 256);
	EXPECT_FMT(test, "-128", "%hhd", 128);
	EXPECT_FMT(test, "-1", "%hd", 65535);
	EXPECT_FMT(test, "0", "%hu", 65536);
	EXPECT_FMT(test, "ffff", "%hx", 0x1ffff);
	EXPECT_FMT(test, "-1", "%ld", -1L);
	EXPECT_FMT(test, "4294967295", "%lu", 4294967295ul);
	EXPECT_FMT(test, "-9223372036854775808", "%lld",
		   -9223372036854775807LL - 1);
	EXPECT_FMT(test, "9223372036854775807", "%lld",
		   9223372036854775807LL);
	EXPECT_FMT(test, "18446744073709551615", "%llu",
		   18446744073709551615ULL);
	EXPECT_FMT(test, "ffffffffffffffff", "%llx", 18446744073709551615ULL);
	EXPECT_FMT(test, "1777777777777777777777", "%llo",
		   18446744073709551615ULL);
	EXPECT_FMT(test, "123456789012345", "%lld", 123456789012345LL);
	EXPECT_FMT(test, "1234", "%zu", (size_t)1234);
	EXPECT_FMT(test, "-5", "%zd", (ptrdiff_t)-5);
	EXPECT_FMT(test, "4d2", "%zx", (size_t)1234);
	EXPECT_FMT(test, "-7", "%td", (ptrdiff_t)-7);
	/* A 64-bit argument must not shift the ones after it. */
	EXPECT_FMT(test, "1 2 3", "%d %lld %d", 1, 2LL, 3);
}

static void vsnprintf_flags_width_test(struct kunit *test)
{
	EXPECT_FMT(test, "   42|", "%5d|", 42);
	EXPECT_FMT(test, "42   |", "%-5d|", 42);
	EXPECT_FMT(test, "-3   |", "%-5d|", -3);
	EXPECT_FMT(test, "  -42|", "%5d|", -42);
	/* Zeros go between the sign and the digits. */
	EXPECT_FMT(test, "-0042", "%05d", -42);
	EXPECT_FMT(test, "00042", "%05d", 42);
	EXPECT_FMT(test, "+42", "%+d", 42);
	EXPECT_FMT(test, "-42", "%+d", -42);
	EXPECT_FMT(test, "+0", "%+d", 0);
	EXPECT_FMT(test, " 42", "% d", 42);
	EXPECT_FMT(test, "-42", "% d", -42);
	EXPECT_FMT(test, "+0042", "%+05d", 42);
	EXPECT_FMT(test, "0x0000beef", "%#010x", 0xbeefu);
	EXPECT_FMT(test, "    0xbeef", "%#10x", 0xbeefu);
	/* A width smaller than the value never cuts it. */
	EXPECT_FMT(test, "12345", "%2d", 12345);
	EXPECT_FMT(test, "-2147483648", "%3d", -2147483647 - 1);
}

static void vsnprintf_precision_test(struct kunit *test)
{
	EXPECT_FMT(test, "00042", "%.5d", 42);
	EXPECT_FMT(test, "-00042", "%.5d", -42);
	EXPECT_FMT(test, "  -00042|", "%8.5d|", -42);
	EXPECT_FMT(test, "0000beef", "%.8x", 0xbeefu);
	EXPECT_FMT(test, "42", "%.1d", 42);
	/* Precision 0 and value 0: no digits at all. */
	EXPECT_FMT(test, "", "%.0d", 0);
	EXPECT_FMT(test, "[]", "[%.0u]", 0u);
	EXPECT_FMT(test, "", "%.0x", 0u);
	EXPECT_FMT(test, "     |", "%5.0d|", 0);
	/* ... except that '#' in octal still wants its leading zero. */
	EXPECT_FMT(test, "0", "%#.0o", 0u);
	EXPECT_FMT(test, "7", "%.0d", 7);
}

/*
 * With a precision the '0' flag is ignored, as C says. GCC warns about
 * such a format when it can see it, so it is passed through a variable.
 */
static void vsnprintf_zero_flag_with_precision_test(struct kunit *test)
{
	const char *fmt = "%08.3d|";

	EXPECT_FMT(test, "     007|", fmt, 7);
	EXPECT_FMT(test, "    -007|", fmt, -7);
}

static void vsnprintf_star_test(struct kunit *test)
{
	EXPECT_FMT(test, "   42|", "%*d|", 5, 42);
	/* A negative width from '*' means left-justified. */
	EXPECT_FMT(test, "42   |", "%*d|", -5, 42);
	EXPECT_FMT(test, "007", "%.*d", 3, 7);
	/* A negative precision from '*' counts as none. */
	EXPECT_FMT(test, "7", "%.*d", -3, 7);
	EXPECT_FMT(test, "abcdef", "%.*s", -1, "abcdef");
	EXPECT_FMT(test, "  007", "%*.*d", 5, 3, 7);
	EXPECT_FMT(test, "ab|", "%.*s|", 2, "abcdef");
}

static void vsnprintf_string_char_test(struct kunit *test)
{
	/* Not terminated: the precision alone bounds what is read. */
	static const char unterminated[3] = { 'a', 'b', 'c' };
	/* volatile: GCC would refuse a NULL it can see going to %s. */
	const char *volatile null_str = NULL;

	EXPECT_FMT(test, "mutex", "%s", "mutex");
	EXPECT_FMT(test, "", "%s", "");
	EXPECT_FMT(test, "   ab|", "%5s|", "ab");
	EXPECT_FMT(test, "ab   |", "%-5s|", "ab");
	EXPECT_FMT(test, "abcdef", "%3s", "abcdef");
	EXPECT_FMT(test, "ab", "%.2s", "abcdef");
	EXPECT_FMT(test, "   ab|", "%5.2s|", "abcdef");
	EXPECT_FMT(test, "", "%.0s", "abc");
	EXPECT_FMT(test, "abc", "%.3s", unterminated);
	EXPECT_FMT(test, "(null)", "%s", null_str);
	EXPECT_FMT(test, "  (null)|", "%8s|", null_str);
	EXPECT_FMT(test, "x", "%c", 'x');
	EXPECT_FMT(test, "  x|", "%3c|", 'x');
	EXPECT_FMT(test, "x  |", "%-3c|", 'x');
	EXPECT_FMT(test, "100%", "100%%");
	EXPECT_FMT(test, "%d", "%%d");
}

static void vsnprintf_pointer_test(struct kunit *test)
{
	const char *full = sizeof(void *) == 4 ? "0xc0101234"
					       : "0x00000000c0101234";
	const char *null = sizeof(void *) == 4 ? "0x00000000"
					       : "0x0000000000000000";
	char padded[48];
	void *p = (void *)(uintptr_t)0xc0101234;

	EXPECT_FMT(test, full, "%p", p);
	EXPECT_FMT(test, null, "%p", NULL);
	/* Letters naming no extension are eaten: the plain pointer. */
	EXPECT_FMT(test, full, "%pK", p);

	/* Width pads the whole "0x..." like a string. */
	KUNIT_ASSERT_LT(test, (int)strlen(full), 24);
	memset(padded, ' ', 24 - strlen(full));
	strcpy(padded + 24 - strlen(full), full);
	strcpy(padded + 24, "|");
	EXPECT_FMT(test, padded, "%24p|", p);
}

/* An address far below any kernel image, on each of the arches. */
#define NOT_KERNEL_ADDR		0x10UL

static void vsnprintf_symbol_outside_kernel_test(struct kunit *test)
{
	char buf[OUT_LEN], want[OUT_LEN];
	char *end;

	KUNIT_ASSERT_NULL(test, kallsyms_lookup(NOT_KERNEL_ADDR, NULL, NULL));

	/* %pS: nothing but the address, in hex with its 0x. */
	snprintf(buf, sizeof(buf), "%pS", (void *)NOT_KERNEL_ADDR);
	KUNIT_EXPECT_EQ(test, buf[0], '0');
	KUNIT_EXPECT_EQ(test, buf[1], 'x');
	KUNIT_EXPECT_EQ(test, simple_strtoul(buf, &end, 16), NOT_KERNEL_ADDR);
	KUNIT_EXPECT_EQ(test, *end, '\0');

	/* %ps falls back to plain %p. */
	snprintf(want, sizeof(want), "%p", (void *)NOT_KERNEL_ADDR);
	EXPECT_FMT(test, want, "%ps", (void *)NOT_KERNEL_ADDR);
}

static void vsnprintf_symbol_in_kernel_test(struct kunit *test)
{
	/* Inside the function, not at its start: a nonzero offset. */
	unsigned long addr = (unsigned long)&snprintf + 4;
	char buf[OUT_LEN], want[OUT_LEN];
	unsigned long size, offset;
	const char *name;

	name = kallsyms_lookup(addr, &size, &offset);
	if (!name)
		kunit_skip(test, "no symbol table in this image");

	KUNIT_EXPECT_STREQ(test, name, "snprintf");
	/* %ps is the name alone, %pS whatever sprint_symbol() makes of it. */
	EXPECT_FMT(test, name, "%ps", (void *)addr);
	sprint_symbol(want, sizeof(want), addr);
	EXPECT_FMT(test, want, "%pS", (void *)addr);
	snprintf(buf, sizeof(buf), "%pS", (void *)addr);
	KUNIT_EXPECT_EQ(test, strncmp(buf, "snprintf+0x", 11), 0);
}

static void vsnprintf_truncation_test(struct kunit *test)
{
	char buf[8];

	memset(buf, 'X', sizeof(buf));
	KUNIT_EXPECT_EQ(test, snprintf(buf, 4, "%d", 123456), 6);
	KUNIT_EXPECT_STREQ(test, buf, "123");
	KUNIT_EXPECT_EQ(test, buf[4], 'X');

	/* Cut inside the padding. */
	memset(buf, 'X', sizeof(buf));
	KUNIT_EXPECT_EQ(test, snprintf(buf, 5, "%8d", 1), 8);
	KUNIT_EXPECT_STREQ(test, buf, "    ");

	/* Exactly fitting, and one short. */
	KUNIT_EXPECT_EQ(test, snprintf(buf, 4, "abc"), 3);
	KUNIT_EXPECT_STREQ(test, buf, "abc");
	KUNIT_EXPECT_EQ(test, snprintf(buf, 3, "abc"), 3);
	KUNIT_EXPECT_STREQ(test, buf, "ab");

	/* Size 1: only the terminator. */
	memset(buf, 'X', sizeof(buf));
	KUNIT_EXPECT_EQ(test, snprintf(buf, 1, "%s", "lock"), 4);
	KUNIT_EXPECT_EQ(test, buf[0], '\0');
	KUNIT_EXPECT_EQ(test, buf[1], 'X');

	/* Size 0: nothing written, the length still counted. */
	memset(buf, 'X', sizeof(buf));
	KUNIT_EXPECT_EQ(test, snprintf(buf, 0, "%d", -12345), 6);
	KUNIT_EXPECT_EQ(test, buf[0], 'X');
	KUNIT_EXPECT_EQ(test, snprintf(NULL, 0, "%s-%d", "cpu", 3), 5);
}

static void vsnprintf_scnprintf_test(struct kunit *test)
{
	char buf[8];

	KUNIT_EXPECT_EQ(test, scnprintf(buf, sizeof(buf), "%d", 42), 2);
	KUNIT_EXPECT_STREQ(test, buf, "42");
	/* What was stored, not what would have been. */
	KUNIT_EXPECT_EQ(test, scnprintf(buf, 4, "%d", 123456), 3);
	KUNIT_EXPECT_STREQ(test, buf, "123");
	KUNIT_EXPECT_EQ(test, scnprintf(buf, sizeof(buf), "%s", "12345678"),
			7);
	KUNIT_EXPECT_EQ(test, scnprintf(buf, 1, "%d", 9), 0);
	KUNIT_EXPECT_EQ(test, buf[0], '\0');
	KUNIT_EXPECT_EQ(test, scnprintf(buf, 0, "%d", 9), 0);
}

/* The va_list entry points, as printk() and friends call them. */
static int __printf(3, 4) call_vsnprintf(char *buf, size_t size,
					 const char *fmt, ...)
{
	va_list args;
	int len;

	va_start(args, fmt);
	len = vsnprintf(buf, size, fmt, args);
	va_end(args);
	return len;
}

static int __printf(3, 4) call_vscnprintf(char *buf, size_t size,
					  const char *fmt, ...)
{
	va_list args;
	int len;

	va_start(args, fmt);
	len = vscnprintf(buf, size, fmt, args);
	va_end(args);
	return len;
}

static void vsnprintf_va_list_test(struct kunit *test)
{
	char buf[16];

	KUNIT_EXPECT_EQ(test, call_vsnprintf(buf, sizeof(buf), "%s=%lld",
					     "val", -5LL), 6);
	KUNIT_EXPECT_STREQ(test, buf, "val=-5");
	KUNIT_EXPECT_EQ(test, call_vsnprintf(buf, 4, "%s=%d", "val", 5), 5);
	KUNIT_EXPECT_STREQ(test, buf, "val");
	KUNIT_EXPECT_EQ(test, call_vscnprintf(buf, 4, "%s=%d", "val", 5), 3);
	KUNIT_EXPECT_EQ(test, call_vscnprintf(buf, 0, "%s=%d", "val", 5), 0);
}

static void vsnprintf_strtoul_test(struct kunit *test)
{
	const char *s;
	char *end;

	/* Base 0 picks the base from the prefix. */
	KUNIT_EXPECT_EQ(test, simple_strtoul("0x1f", &end, 0), 31);
	KUNIT_EXPECT_EQ(test, *end, '\0');
	KUNIT_EXPECT_EQ(test, simple_strtoul("0X1F", NULL, 0), 31);
	KUNIT_EXPECT_EQ(test, simple_strtoul("017", NULL, 0), 15);
	KUNIT_EXPECT_EQ(test, simple_strtoul("19", NULL, 0), 19);
	KUNIT_EXPECT_EQ(test, simple_strtoul("0", NULL, 0), 0);
	KUNIT_EXPECT_EQ(test, simple_strtoul("ff", NULL, 16), 255);
	KUNIT_EXPECT_EQ(test, simple_strtoul("0xFF", NULL, 16), 255);
	KUNIT_EXPECT_EQ(test, simple_strtoul("z", NULL, 36), 35);
	KUNIT_EXPECT_EQ(test, simple_strtoul("0x10", NULL, 10), 0);
	KUNIT_EXPECT_EQ(test, simple_strtoul("4294967295", NULL, 10),
			4294967295ul);

	/* end points at the first character that is not a digit. */
	s = "123abc";
	KUNIT_EXPECT_EQ(test, simple_strtoul(s, &end, 10), 123);
	KUNIT_EXPECT_PTR_EQ(test, end, s + 3);
	s = "018";
	KUNIT_EXPECT_EQ(test, simple_strtoul(s, &end, 0), 1);
	KUNIT_EXPECT_PTR_EQ(test, end, s + 2);
	/* "0x" without a hex digit after it is a 0 followed by an x. */
	s = "0xg";
	KUNIT_EXPECT_EQ(test, simple_strtoul(s, &end, 0), 0);
	KUNIT_EXPECT_PTR_EQ(test, end, s + 1);
	s = "";
	KUNIT_EXPECT_EQ(test, simple_strtoul(s, &end, 0), 0);
	KUNIT_EXPECT_PTR_EQ(test, end, s);
}

static struct kunit_case vsnprintf_cases[] = {
	KUNIT_CASE(vsnprintf_decimal_test),
	KUNIT_CASE(vsnprintf_hex_octal_test),
	KUNIT_CASE(vsnprintf_length_modifier_test),
	KUNIT_CASE(vsnprintf_flags_width_test),
	KUNIT_CASE(vsnprintf_precision_test),
	KUNIT_CASE(vsnprintf_zero_flag_with_precision_test),
	KUNIT_CASE(vsnprintf_star_test),
	KUNIT_CASE(vsnprintf_string_char_test),
	KUNIT_CASE(vsnprintf_pointer_test),
	KUNIT_CASE(vsnprintf_symbol_outside_kernel_test),
	KUNIT_CASE(vsnprintf_symbol_in_kernel_test),
	KUNIT_CASE(vsnprintf_truncation_test),
	KUNIT_CASE(vsnprintf_scnprintf_test),
	KUNIT_CASE(vsnprintf_va_list_test),
	KUNIT_CASE(vsnprintf_strtoul_test),
	{}
};

static struct kunit_suite vsnprintf_suite = {
	.name = "vsnprintf",
	.test_cases = vsnprintf_cases,
};

kunit_test_suite(vsnprintf_suite);
