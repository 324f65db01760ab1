// SPDX-License-Identifier: GPL-2.0
/* atomic_t: each operation's result and return value, and under contention. */
#include <kernel.h>
#include <atomic.h>
#include "helpers.h"

static void arithmetic(struct kunit *test)
{
	atomic_t v = ATOMIC_INIT(5);

	atomic_add(3, &v);
	KUNIT_EXPECT_EQ(test, atomic_read(&v), 8);
	atomic_sub(10, &v);
	KUNIT_EXPECT_EQ(test, atomic_read(&v), -2);
	atomic_inc(&v);
	KUNIT_EXPECT_EQ(test, atomic_read(&v), -1);
	atomic_dec(&v);
	KUNIT_EXPECT_EQ(test, atomic_read(&v), -2);
	atomic_set(&v, 100);
	KUNIT_EXPECT_EQ(test, atomic_read(&v), 100);
}

/*
 * The read-modify-write atomics, out of line: an emulator rarely shows the
 * race of a version without the CPU's atomic instruction, so make grade
 * (lab 1) reads these functions' instructions in the kernel image.
 */
/* Not static: GCC may clone a static one under another name. */
noinline int atomic_test_add_return(int i, atomic_t *v)
{
	return atomic_add_return(i, v);
}

noinline int atomic_test_xchg(atomic_t *v, int new)
{
	return atomic_xchg(v, new);
}

noinline int atomic_test_cmpxchg(atomic_t *v, int old, int new)
{
	return atomic_cmpxchg(v, old, new);
}

/* atomic_inc() is x86's own locked incl, not atomic_add_return()'s. */
noinline void atomic_test_inc(atomic_t *v)
{
	atomic_inc(v);
}

static void return_values(struct kunit *test)
{
	atomic_t v = ATOMIC_INIT(0);

	KUNIT_EXPECT_EQ(test, atomic_test_add_return(7, &v), 7);
	KUNIT_EXPECT_EQ(test, atomic_sub_return(2, &v), 5);
	KUNIT_EXPECT_EQ(test, atomic_inc_return(&v), 6);
	KUNIT_EXPECT_EQ(test, atomic_dec_return(&v), 5);
	atomic_set(&v, 1);
	KUNIT_EXPECT_TRUE(test, atomic_dec_and_test(&v));
	KUNIT_EXPECT_FALSE(test, atomic_dec_and_test(&v));	/* now -1 */
	KUNIT_EXPECT_TRUE(test, atomic_inc_and_test(&v));	/* back to 0 */
	KUNIT_EXPECT_FALSE(test, atomic_inc_and_test(&v));
	KUNIT_EXPECT_TRUE(test, atomic_add_negative(-5, &v));	/* -4 */
	KUNIT_EXPECT_FALSE(test, atomic_add_negative(4, &v));	/* 0 */
	KUNIT_EXPECT_EQ(test, atomic_read(&v), 0);
}

static void exchange(struct kunit *test)
{
	atomic_t v = ATOMIC_INIT(1);

	KUNIT_EXPECT_EQ(test, atomic_test_xchg(&v, -1), 1);
	KUNIT_EXPECT_EQ(test, atomic_xchg(&v, 0), -1);
	KUNIT_EXPECT_EQ(test, atomic_read(&v), 0);
	/* cmpxchg returns the old value whether or not it stored. */
	KUNIT_EXPECT_EQ(test, atomic_test_cmpxchg(&v, 0, 9), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&v), 9);
	KUNIT_EXPECT_EQ(test, atomic_cmpxchg(&v, 0, 3), 9);
	KUNIT_EXPECT_EQ(test, atomic_read(&v), 9);
	KUNIT_EXPECT_TRUE(test, atomic_add_unless(&v, 2, 5));
	KUNIT_EXPECT_EQ(test, atomic_read(&v), 11);
	KUNIT_EXPECT_FALSE(test, atomic_add_unless(&v, 2, 11));
	KUNIT_EXPECT_EQ(test, atomic_read(&v), 11);
}

#define CONTENDED_TOTAL 80000
static int contended_loops;
static atomic_t shared = ATOMIC_INIT(0);
static atomic_t xchg_tokens = ATOMIC_INIT(0);

static int hammer(void *unused)
{
	for (int i = 0; i < contended_loops; i++) {
		atomic_inc(&shared);
		atomic_add_return(2, &shared);
		atomic_sub(2, &shared);
		/* cmpxchg loop increment: must not lose an update either */
		for (;;) {
			int old = atomic_read(&xchg_tokens);

			if (atomic_cmpxchg(&xchg_tokens, old, old + 1) == old)
				break;
		}
	}
	return 0;
}

static void contended(struct kunit *test)
{
	struct workers w;
	int n = num_online_cpus() * 2;

	contended_loops = CONTENDED_TOTAL / n;
	atomic_set(&shared, 0);
	atomic_set(&xchg_tokens, 0);
	KUNIT_ASSERT_EQ(test, workers_start(&w, n, hammer, NULL, 0, true,
					    "atomic"), n);
	workers_join(&w);
	KUNIT_EXPECT_EQ(test, atomic_read(&shared), n * contended_loops);
	KUNIT_EXPECT_EQ(test, atomic_read(&xchg_tokens), n * contended_loops);
}

static struct kunit_case atomic_cases[] = {
	KUNIT_CASE(arithmetic),
	KUNIT_CASE(return_values),
	KUNIT_CASE(exchange),
	KUNIT_CASE(contended),
	{}
};

static struct kunit_suite atomic_suite = {
	.name = "atomic",
	.test_cases = atomic_cases,
};
kunit_test_suite(atomic_suite);
