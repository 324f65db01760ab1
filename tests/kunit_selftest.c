// SPDX-License-Identifier: GPL-2.0
/*
 * The test framework checked by itself. Suite "kunit" passes: every check
 * macro passes when it should and evaluates its operands once, and a case
 * sees what the suite's hooks set up. A failing case cannot be checked from
 * inside a passing one, so the failure paths are in "selftest_fail"
 * (CONFIG_KUNIT_SELFTEST_FAIL), whose every case must be reported failed:
 * the host runner's own check boots it one case at a time.
 */
#include <kernel.h>
#include <string.h>
#include <sched.h>
#include <printk.h>
#include <mm.h>
#include <mutex.h>
#include <kthread.h>
#include <kunit/test.h>

#define PRIV_MAGIC	0x7e57c0deUL

static int evaluations;
static bool suite_init_ran;

static long once(long v)
{
	evaluations++;
	return v;
}

static const void *once_ptr(const void *p)
{
	evaluations++;
	return p;
}

static const char *once_str(const char *s)
{
	evaluations++;
	return s;
}

static void expect_macros_pass(struct kunit *test)
{
	int x;

	evaluations = 0;
	KUNIT_EXPECT_EQ(test, once(3), once(3));
	KUNIT_EXPECT_NE(test, once(3), once(4));
	KUNIT_EXPECT_LT(test, once(-1), once(1));
	KUNIT_EXPECT_LE(test, once(2), once(2));
	KUNIT_EXPECT_GT(test, once(5), once(4));
	KUNIT_EXPECT_GE(test, once(4), once(4));
	KUNIT_EXPECT_TRUE(test, once(7));
	KUNIT_EXPECT_FALSE(test, once(0));
	KUNIT_EXPECT_NULL(test, once_ptr(NULL));
	KUNIT_EXPECT_NOT_NULL(test, once_ptr(&x));
	KUNIT_EXPECT_PTR_EQ(test, once_ptr(&x), once_ptr(&x));
	KUNIT_EXPECT_PTR_NE(test, once_ptr(&x), once_ptr(&x + 1));
	KUNIT_EXPECT_STREQ(test, once_str("mutex"), once_str("mutex"));
	KUNIT_EXPECT_STRNEQ(test, once_str("mutex"), once_str("semaphore"));
	KUNIT_EXPECT_EQ(test, evaluations, 24);
	/* 64-bit operands are compared whole, not truncated */
	KUNIT_EXPECT_NE(test, 0x100000001LL, 1);
	KUNIT_EXPECT_EQ(test, test->status, KUNIT_SUCCESS);
	KUNIT_EXPECT_EQ(test, test->failures, 0);
}

static void assert_macros_pass(struct kunit *test)
{
	int x;

	evaluations = 0;
	KUNIT_ASSERT_EQ(test, once(3), once(3));
	KUNIT_ASSERT_NE(test, once(3), once(4));
	KUNIT_ASSERT_LT(test, once(-1), once(1));
	KUNIT_ASSERT_LE(test, once(2), once(2));
	KUNIT_ASSERT_GT(test, once(5), once(4));
	KUNIT_ASSERT_GE(test, once(4), once(4));
	KUNIT_ASSERT_TRUE(test, once(7));
	KUNIT_ASSERT_FALSE(test, once(0));
	KUNIT_ASSERT_NULL(test, once_ptr(NULL));
	KUNIT_ASSERT_NOT_NULL(test, once_ptr(&x));
	KUNIT_ASSERT_PTR_EQ(test, once_ptr(&x), once_ptr(&x));
	KUNIT_ASSERT_PTR_NE(test, once_ptr(&x), once_ptr(&x + 1));
	KUNIT_ASSERT_STREQ(test, once_str("mutex"), once_str("mutex"));
	KUNIT_ASSERT_STRNEQ(test, once_str("mutex"), once_str("semaphore"));
	/* Reached only if no passing assertion ended the case. */
	KUNIT_EXPECT_EQ(test, evaluations, 24);
	KUNIT_EXPECT_EQ(test, test->status, KUNIT_SUCCESS);
}

static void priv_set_by_init(struct kunit *test)
{
	unsigned long *priv = test->priv;

	KUNIT_ASSERT_NOT_NULL(test, priv);
	KUNIT_EXPECT_EQ(test, *priv, PRIV_MAGIC);
}

static void suite_init_seen(struct kunit *test)
{
	KUNIT_EXPECT_TRUE(test, suite_init_ran);
}

static void runs_in_own_thread(struct kunit *test)
{
	KUNIT_EXPECT_PTR_EQ(test, current->kunit, test);
	KUNIT_EXPECT_EQ(test, strncmp(current->comm, "kunit/", 6), 0);
	KUNIT_EXPECT_STREQ(test, test->name, "runs_in_own_thread");
	KUNIT_EXPECT_FALSE(test, current->idle);
}

static void info_is_a_diagnostic(struct kunit *test)
{
	unsigned long pos = printk_log_pos();

	kunit_info(test, "kunit_info says %d\n", 42);
	KUNIT_EXPECT_TRUE(test, printk_log_find(pos,
						"    # kunit_info says 42\n"));
}

/*
 * A diagnostic as long as the longest expectation's (an operand's text,
 * macros expanded, twice, then the values) is printed whole, over lines
 * that end in a backslash where it goes on; the values end it.
 */
static void long_diagnostic_is_whole(struct kunit *test)
{
	unsigned long pos = printk_log_pos();

	kunit_info(test, "%01400d, but value == 12345\n", 0);
	KUNIT_EXPECT_TRUE(test, printk_log_find(pos, "0000\\\n    # 0000"));
	KUNIT_EXPECT_TRUE(test, printk_log_find(pos, "0, but value == 12345\n"));
}

/* One too long for any buffer says so, never ends unmarked. */
static void cut_diagnostic_says_so(struct kunit *test)
{
	unsigned long pos = printk_log_pos();

	kunit_info(test, "%04000d, but value == 12345", 0);
	KUNIT_EXPECT_TRUE(test, printk_log_find(pos, "more characters cut]\n"));
	KUNIT_EXPECT_FALSE(test, printk_log_find(pos, "value == 12345"));
}

/* Each case gets its own priv, which exit checks and frees. */
static int selftest_init(struct kunit *test)
{
	unsigned long *priv = kmalloc(sizeof(*priv));

	if (!priv)
		return -ENOMEM;
	*priv = PRIV_MAGIC;
	test->priv = priv;
	return 0;
}

static void selftest_exit(struct kunit *test)
{
	unsigned long *priv = test->priv;

	KUNIT_EXPECT_EQ(test, *priv, PRIV_MAGIC);
	kfree(priv);
}

static int selftest_suite_init(struct kunit_suite *suite)
{
	suite_init_ran = true;
	return 0;
}

static void selftest_suite_exit(struct kunit_suite *suite)
{
	suite_init_ran = false;
}

static struct kunit_case kunit_cases[] = {
	KUNIT_CASE(expect_macros_pass),
	KUNIT_CASE(assert_macros_pass),
	KUNIT_CASE(priv_set_by_init),
	KUNIT_CASE(suite_init_seen),
	KUNIT_CASE(runs_in_own_thread),
	KUNIT_CASE(info_is_a_diagnostic),
	KUNIT_CASE(long_diagnostic_is_whole),
	KUNIT_CASE(cut_diagnostic_says_so),
	{}
};

static struct kunit_suite kunit_selftest_suite = {
	.name = "kunit",
	.test_cases = kunit_cases,
	.init = selftest_init,
	.exit = selftest_exit,
	.suite_init = selftest_suite_init,
	.suite_exit = selftest_suite_exit,
};
kunit_test_suite(kunit_selftest_suite);

#ifdef CONFIG_KUNIT_SELFTEST_FAIL
static void expect_fail(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, 1 + 1, 3);
}

static void assert_fail(struct kunit *test)
{
	KUNIT_ASSERT_TRUE(test, 1 + 1 == 3);
	KUNIT_FAIL(test, "the case went on after a failed assertion");
}

/*
 * The classic bug: a store through NULL. Page 0 is unmapped on every arch,
 * so the report names address 0. Nothing else makes the case fail: if
 * page 0 were mapped again, the runner's check would see this case pass.
 * The empty asm hides the NULL from gcc, which would otherwise replace
 * the store by a trap instruction.
 */
static void fault(struct kunit *test)
{
	int *p = NULL;

	asm volatile("" : "+r" (p));
	*(volatile int *)p = 1;
}

static void hang(struct kunit *test)
{
	for (;;)
		msleep(1000);
}

/*
 * Sleeps for good with no timer armed: the runner gives up on it as
 * stuck at once, long before its limit (the runner's check boots it with
 * a shorter limit for the whole boot than for the case).
 */
static void stuck(struct kunit *test)
{
	for (;;) {
		set_current_state(TASK_UNINTERRUPTIBLE);
		schedule();
	}
}

/*
 * Times out while it expects reports; the case after it must not start
 * with reports still expected, or a real bug there would pass as
 * provoked. The runner's check boots the two together.
 */
static void hang_expecting_reports(struct kunit *test)
{
	kunit_expect_reports(test);
	hang(test);
}

static void nothing_expected_after(struct kunit *test)
{
	int expected = READ_ONCE(reports_expected);

	KUNIT_EXPECT_EQ(test, expected, 0);
}

static DEFINE_MUTEX(deadlock_a);
static DEFINE_MUTEX(deadlock_b);
static volatile int deadlock_holders;

/* Takes first, waits until the other task holds its own, takes second. */
static void lock_crosswise(struct mutex *first, struct mutex *second)
{
	mutex_lock(first);
	__atomic_add_fetch(&deadlock_holders, 1, __ATOMIC_SEQ_CST);
	while (READ_ONCE(deadlock_holders) < 2)
		msleep(1);
	mutex_lock(second);
}

static int deadlock_ab(void *unused)
{
	lock_crosswise(&deadlock_a, &deadlock_b);
	return 0;
}

static int deadlock_ba(void *unused)
{
	lock_crosswise(&deadlock_b, &deadlock_a);
	return 0;
}

/*
 * Stuck with tasks of its own: an AB-BA deadlock that no build reports
 * (the native build has no detector) and the case joining one of them.
 * The verdict must show both tasks, and the case after it must not run
 * on the two mutexes they hold for good.
 */
static void stuck_deadlock(struct kunit *test)
{
	struct task_struct *ab = kthread_run(deadlock_ab, NULL, "deadlock/ab");
	struct task_struct *ba = kthread_run(deadlock_ba, NULL, "deadlock/ba");

	KUNIT_ASSERT_NOT_NULL(test, ab);
	KUNIT_ASSERT_NOT_NULL(test, ba);
	kthread_join(ab);
	kthread_join(ba);
}

/* Would pass: only the runner's refusal to run it can fail it. */
static void after_stuck(struct kunit *test)
{
	mutex_lock(&deadlock_a);
	mutex_unlock(&deadlock_a);
}

static void panic_in_case(struct kunit *test)
{
	panic("selftest panic");
}

static struct kunit_case selftest_fail_cases[] = {
	KUNIT_CASE(expect_fail),
	KUNIT_CASE(assert_fail),
	KUNIT_CASE(fault),
	KUNIT_CASE_SLOW(hang, 3),
	KUNIT_CASE_SLOW(stuck, 3600),
	KUNIT_CASE_SLOW(hang_expecting_reports, 3),
	KUNIT_CASE(nothing_expected_after),
	KUNIT_CASE_SLOW(stuck_deadlock, 3600),
	KUNIT_CASE_SLOW(after_stuck, 3600),
	{ .run_case = panic_in_case, .name = "panic" },
	{}
};

static struct kunit_suite selftest_fail_suite = {
	.name = "selftest_fail",
	.test_cases = selftest_fail_cases,
};
kunit_test_suite(selftest_fail_suite);
#endif
