// SPDX-License-Identifier: GPL-2.0
/*
 * The memory and string functions of <string.h>.
 *
 * The kernel is built with -ffreestanding, so there is no C library under
 * it: these are the only copies of memcpy() and friends, and the compiler
 * itself emits calls to memcpy(), memset(), memmove() and memcmp() for
 * structure copies and initialisers. They aim to be short and obviously
 * correct first; only the bulk memory functions move a word at a time, since
 * they are the ones that run on whole pages and stacks.
 *
 * This file must be built with -ffreestanding or -fno-builtin, as the kernel
 * is: without them GCC may recognise the byte loop in memset() as a memset
 * and compile it into a call to memset(), that is, to itself.
 */
#include <string.h>

/*
 * A machine word that may alias any other type, so that copying memory a
 * word at a time stays correct even when the kernel is built with strict
 * aliasing.
 */
typedef unsigned long __attribute__((__may_alias__)) word_t;

#define WORD_SIZE	sizeof(word_t)

static inline bool word_aligned(const void *p)
{
	return ((uintptr_t)p & (WORD_SIZE - 1)) == 0;
}

void *memset(void *s, int c, size_t n)
{
	unsigned char *p = s;
	unsigned char byte = (unsigned char)c;

	if (n >= WORD_SIZE && word_aligned(p)) {
		/* The byte repeated in every position of a word. */
		word_t pattern = (word_t)-1 / 0xff * byte;

		for (; n >= WORD_SIZE; n -= WORD_SIZE, p += WORD_SIZE)
			*(word_t *)p = pattern;
	}
	while (n--)
		*p++ = byte;
	return s;
}

void *memcpy(void *dst, const void *src, size_t n)
{
	unsigned char *d = dst;
	const unsigned char *s = src;

	if (word_aligned(d) && word_aligned(s)) {
		for (; n >= WORD_SIZE; n -= WORD_SIZE) {
			*(word_t *)d = *(const word_t *)s;
			d += WORD_SIZE;
			s += WORD_SIZE;
		}
	}
	while (n--)
		*d++ = *s++;
	return dst;
}

/*
 * Copies from the end down when dst lies inside the source area, so that
 * no byte is overwritten before it has been read.
 */
void *memmove(void *dst, const void *src, size_t n)
{
	unsigned char *d = dst;
	const unsigned char *s = src;

	if ((uintptr_t)d - (uintptr_t)s >= n)
		return memcpy(dst, src, n);

	d += n;
	s += n;
	while (n--)
		*--d = *--s;
	return dst;
}

/* Bytes compare as unsigned char, as the C standard says. */
int memcmp(const void *a, const void *b, size_t n)
{
	const unsigned char *p = a, *q = b;

	for (; n; n--, p++, q++) {
		if (*p != *q)
			return *p < *q ? -1 : 1;
	}
	return 0;
}

size_t strlen(const char *s)
{
	const char *p = s;

	while (*p)
		p++;
	return p - s;
}

/* Like strlen(), but never reads past s[max - 1]. */
size_t strnlen(const char *s, size_t max)
{
	size_t len = 0;

	while (len < max && s[len])
		len++;
	return len;
}

int strcmp(const char *a, const char *b)
{
	return strncmp(a, b, (size_t)-1);
}

int strncmp(const char *a, const char *b, size_t n)
{
	const unsigned char *p = (const unsigned char *)a;
	const unsigned char *q = (const unsigned char *)b;

	for (; n; n--, p++, q++) {
		if (*p != *q)
			return *p < *q ? -1 : 1;
		if (!*p)
			break;
	}
	return 0;
}

char *strcpy(char *dst, const char *src)
{
	char *d = dst;

	while ((*d++ = *src++))
		;
	return dst;
}

/*
 * Copies as much of src as fits, always terminating dst when size > 0.
 * Returns strlen(src), so that a result >= size tells the caller the copy
 * was cut short.
 */
size_t strlcpy(char *dst, const char *src, size_t size)
{
	size_t len = strlen(src);

	if (size) {
		size_t n = len < size ? len : size - 1;

		memcpy(dst, src, n);
		dst[n] = '\0';
	}
	return len;
}

/* The terminating NUL counts as part of the string: strchr(s, 0) finds it. */
char *strchr(const char *s, int c)
{
	char ch = (char)c;

	for (;; s++) {
		if (*s == ch)
			return (char *)s;
		if (!*s)
			return NULL;
	}
}

char *strrchr(const char *s, int c)
{
	char ch = (char)c;
	const char *last = NULL;

	for (;; s++) {
		if (*s == ch)
			last = s;
		if (!*s)
			return (char *)last;
	}
}

/* An empty needle is found at the start of any haystack. */
char *strstr(const char *haystack, const char *needle)
{
	size_t len = strlen(needle);

	for (; *haystack; haystack++) {
		if (!strncmp(haystack, needle, len))
			return (char *)haystack;
	}
	return len ? NULL : (char *)haystack;
}

/*
 * Matching is greedy with one saved retry point: on a mismatch after a '*',
 * let that star swallow one more character and try again. Going back to the
 * latest star is enough, because anything an earlier star could absorb the
 * latest one can absorb as well; so this runs in O(len(pattern) * len(str))
 * time without recursion.
 */
bool glob_match(const char *pattern, const char *str)
{
	const char *star = NULL;	/* just after the latest '*' */
	const char *retry = NULL;	/* where str resumes for that star */

	while (*str) {
		if (*pattern == '*') {
			star = ++pattern;
			retry = str;
		} else if (*pattern == '?' || *pattern == *str) {
			pattern++;
			str++;
		} else if (star) {
			pattern = star;
			str = ++retry;
		} else {
			return false;
		}
	}
	/* The string is used up: only stars may be left in the pattern. */
	while (*pattern == '*')
		pattern++;
	return *pattern == '\0';
}
