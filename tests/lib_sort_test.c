// SPDX-License-Identifier: GPL-2.0
/*
 * Tests for lib/sort.c. Each case sorts an input whose sorted form is known
 * exactly, so one comparison checks both that the output is ordered and
 * that it is a permutation of the input: nothing lost, nothing duplicated.
 */
#include <kunit/test.h>
#include <kernel.h>
#include <sort.h>

#define NR_INTS		101	/* prime, so i * 37 % NR_INTS permutes 0..100 */

/* Calls seen by the callbacks, to check what sort() did and did not do. */
static unsigned int nr_cmp_calls;
static unsigned int nr_swap_calls;

static int cmp_int(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;

	nr_cmp_calls++;
	return (x > y) - (x < y);
}

static int cmp_int_descending(const void *a, const void *b)
{
	return cmp_int(b, a);
}

/* Expects a[i] == first + i * step for all n elements. */
static void expect_sequence(struct kunit *test, const int *a, int n,
			    int first, int step)
{
	int i;

	for (i = 0; i < n; i++)
		KUNIT_EXPECT_EQ(test, a[i], first + i * step);
}

static void sort_shuffled_test(struct kunit *test)
{
	int a[NR_INTS];
	int i;

	for (i = 0; i < NR_INTS; i++)
		a[i] = i * 37 % NR_INTS;
	sort(a, NR_INTS, sizeof(int), cmp_int, NULL);
	expect_sequence(test, a, NR_INTS, 0, 1);
}

static void sort_already_sorted_test(struct kunit *test)
{
	int a[NR_INTS];
	int i;

	for (i = 0; i < NR_INTS; i++)
		a[i] = i - 50;
	sort(a, NR_INTS, sizeof(int), cmp_int, NULL);
	expect_sequence(test, a, NR_INTS, -50, 1);
}

static void sort_reversed_test(struct kunit *test)
{
	int a[NR_INTS];
	int i;

	for (i = 0; i < NR_INTS; i++)
		a[i] = NR_INTS - 1 - i;
	sort(a, NR_INTS, sizeof(int), cmp_int, NULL);
	expect_sequence(test, a, NR_INTS, 0, 1);
}

static void sort_descending_cmp_test(struct kunit *test)
{
	int a[NR_INTS];
	int i;

	for (i = 0; i < NR_INTS; i++)
		a[i] = i * 37 % NR_INTS;
	sort(a, NR_INTS, sizeof(int), cmp_int_descending, NULL);
	expect_sequence(test, a, NR_INTS, NR_INTS - 1, -1);
}

static void sort_duplicates_test(struct kunit *test)
{
	int a[] = { 3, 1, 3, 0, 1, 3, 0, -2, 3, 1 };
	const int want[] = { -2, 0, 0, 1, 1, 1, 3, 3, 3, 3 };
	unsigned int i;

	sort(a, ARRAY_SIZE(a), sizeof(int), cmp_int, NULL);
	for (i = 0; i < ARRAY_SIZE(a); i++)
		KUNIT_EXPECT_EQ(test, a[i], want[i]);
}

static void sort_all_equal_test(struct kunit *test)
{
	int a[17];
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(a); i++)
		a[i] = 7;
	sort(a, ARRAY_SIZE(a), sizeof(int), cmp_int, NULL);
	for (i = 0; i < ARRAY_SIZE(a); i++)
		KUNIT_EXPECT_EQ(test, a[i], 7);
}

/* Nothing to order: sort() must neither compare nor touch anything. */
static void sort_zero_and_one_test(struct kunit *test)
{
	int a[2] = { 5, 4 };

	nr_cmp_calls = 0;
	sort(a, 0, sizeof(int), cmp_int, NULL);
	KUNIT_EXPECT_EQ(test, a[0], 5);
	KUNIT_EXPECT_EQ(test, a[1], 4);

	sort(a, 1, sizeof(int), cmp_int, NULL);
	KUNIT_EXPECT_EQ(test, a[0], 5);
	KUNIT_EXPECT_EQ(test, a[1], 4);
	KUNIT_EXPECT_EQ(test, nr_cmp_calls, 0);

	sort(a, 2, sizeof(int), cmp_int, NULL);
	KUNIT_EXPECT_EQ(test, a[0], 4);
	KUNIT_EXPECT_EQ(test, a[1], 5);
}

/* An element type with a payload, to see that elements move whole. */
struct keyed {
	int key;
	int payload;
};

static int cmp_keyed(const void *a, const void *b)
{
	const struct keyed *x = a, *y = b;

	return (x->key > y->key) - (x->key < y->key);
}

static void swap_keyed(void *a, void *b, int size)
{
	struct keyed tmp = *(struct keyed *)a;

	(void)size;
	*(struct keyed *)a = *(struct keyed *)b;
	*(struct keyed *)b = tmp;
	nr_swap_calls++;
}

static void sort_custom_swap_test(struct kunit *test)
{
	struct keyed a[NR_INTS];
	int i;

	for (i = 0; i < NR_INTS; i++) {
		a[i].key = NR_INTS - 1 - i;
		a[i].payload = a[i].key * 10 + 1;
	}
	nr_swap_calls = 0;
	sort(a, NR_INTS, sizeof(a[0]), cmp_keyed, swap_keyed);

	/* The reversed input cannot be sorted without swapping. */
	KUNIT_EXPECT_GT(test, nr_swap_calls, 0);
	for (i = 0; i < NR_INTS; i++) {
		KUNIT_EXPECT_EQ(test, a[i].key, i);
		KUNIT_EXPECT_EQ(test, a[i].payload, i * 10 + 1);
	}
}

/* Three-byte elements: the generic swap must not assume a word size. */
struct triple {
	u8 b[3];
};

static int cmp_triple(const void *a, const void *b)
{
	return memcmp(a, b, sizeof(struct triple));
}

static void sort_odd_size_test(struct kunit *test)
{
	struct triple a[] = {
		{ { 2, 0, 9 } }, { { 0, 5, 5 } }, { { 2, 0, 1 } },
		{ { 1, 7, 7 } }, { { 0, 5, 4 } },
	};
	const struct triple want[] = {
		{ { 0, 5, 4 } }, { { 0, 5, 5 } }, { { 1, 7, 7 } },
		{ { 2, 0, 1 } }, { { 2, 0, 9 } },
	};

	sort(a, ARRAY_SIZE(a), sizeof(a[0]), cmp_triple, NULL);
	KUNIT_EXPECT_EQ(test, memcmp(a, want, sizeof(want)), 0);
}

static struct kunit_case sort_cases[] = {
	KUNIT_CASE(sort_shuffled_test),
	KUNIT_CASE(sort_already_sorted_test),
	KUNIT_CASE(sort_reversed_test),
	KUNIT_CASE(sort_descending_cmp_test),
	KUNIT_CASE(sort_duplicates_test),
	KUNIT_CASE(sort_all_equal_test),
	KUNIT_CASE(sort_zero_and_one_test),
	KUNIT_CASE(sort_custom_swap_test),
	KUNIT_CASE(sort_odd_size_test),
	{}
};

static struct kunit_suite sort_suite = {
	.name = "sort",
	.test_cases = sort_cases,
};

kunit_test_suite(sort_suite);
