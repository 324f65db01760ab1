// SPDX-License-Identifier: GPL-2.0
/*
 * Several suites registered by one kunit_test_suites() call. The call puts
 * one array of pointers in the .kunit_suites section; on x86_64 the ABI
 * would align an array of two or more pointers to 16 bytes, and the gap
 * in front of it would read as a NULL suite. Every slot of the section
 * must be a suite, and these three must sit there side by side, in order.
 */
#include <kernel.h>
#include <kunit/test.h>

extern struct kunit_suite *__kunit_suites_start[], *__kunit_suites_end[];

static struct kunit_suite multi_a, multi_b, multi_c;

static void every_slot_is_a_suite(struct kunit *test)
{
	struct kunit_suite **sp;

	for (sp = __kunit_suites_start; sp < __kunit_suites_end; sp++)
		KUNIT_EXPECT_NOT_NULL(test, *sp);
}

static void registered_side_by_side(struct kunit *test)
{
	struct kunit_suite **sp;
	int found = 0;

	for (sp = __kunit_suites_start; sp + 2 < __kunit_suites_end; sp++) {
		if (sp[0] != &multi_a)
			continue;
		found++;
		KUNIT_EXPECT_PTR_EQ(test, sp[1], &multi_b);
		KUNIT_EXPECT_PTR_EQ(test, sp[2], &multi_c);
	}
	KUNIT_EXPECT_EQ(test, found, 1);
}

/* A case that passes: what matters is that the runner gets to it. */
static void runs(struct kunit *test)
{
	KUNIT_EXPECT_TRUE(test, true);
}

static struct kunit_case multi_a_cases[] = {
	KUNIT_CASE(every_slot_is_a_suite),
	{}
};

static struct kunit_case multi_b_cases[] = {
	KUNIT_CASE(registered_side_by_side),
	{}
};

static struct kunit_case multi_c_cases[] = {
	KUNIT_CASE(runs),
	{}
};

static struct kunit_suite multi_a = {
	.name = "kunit_multi_a",
	.test_cases = multi_a_cases,
};

static struct kunit_suite multi_b = {
	.name = "kunit_multi_b",
	.test_cases = multi_b_cases,
};

static struct kunit_suite multi_c = {
	.name = "kunit_multi_c",
	.test_cases = multi_c_cases,
};

kunit_test_suites(&multi_a, &multi_b, &multi_c);
