// SPDX-License-Identifier: GPL-2.0
/* Wait queues, wait_event*, and signals interrupting sleeps. */
#include <kernel.h>
#include <sched.h>
#include <wait.h>
#include "helpers.h"

static DECLARE_WAIT_QUEUE_HEAD(wq);
static volatile int cond;
static volatile int woken;

static int event_waiter(void *unused)
{
	wait_event(wq, READ_ONCE(cond));
	__atomic_add_fetch(&woken, 1, __ATOMIC_SEQ_CST);
	return 0;
}

static void wait_event_sleeps_until_condition(struct kunit *test)
{
	struct task_struct *t;

	cond = 0;
	woken = 0;
	t = kthread_run(event_waiter, NULL, "wev");
	KUNIT_ASSERT_NOT_NULL(test, t);
	KUNIT_ASSERT_TRUE(test, wait_for_sleep(t, TASK_UNINTERRUPTIBLE, 60));
	wake_up(&wq);		/* condition still false: sleeps again */
	msleep(20);
	KUNIT_EXPECT_EQ(test, woken, 0);
	WRITE_ONCE(cond, 1);
	wake_up(&wq);
	kthread_join(t);
	KUNIT_EXPECT_EQ(test, woken, 1);
}

static void wait_event_timeout_results(struct kunit *test)
{
	cond = 0;
	KUNIT_EXPECT_EQ(test, wait_event_timeout(wq, READ_ONCE(cond), 3), 0);
	cond = 1;
	KUNIT_EXPECT_GT(test, wait_event_timeout(wq, READ_ONCE(cond), 3), 0);
	KUNIT_EXPECT_EQ(test, wait_event_timeout(wq, READ_ONCE(cond), 0), 1);
}

static int exclusive_waiter(void *unused)
{
	DEFINE_WAIT(w);

	for (;;) {
		prepare_to_wait_exclusive(&wq, &w, TASK_UNINTERRUPTIBLE);
		if (READ_ONCE(cond))
			break;
		schedule();
		if (READ_ONCE(cond))
			break;
	}
	finish_wait(&wq, &w);
	__atomic_add_fetch(&woken, 1, __ATOMIC_SEQ_CST);
	return 0;
}

/* wake_up() wakes one exclusive waiter; wake_up_all() all of them. */
static void exclusive_wakeups(struct kunit *test)
{
	struct workers w;

	cond = 0;
	woken = 0;
	KUNIT_ASSERT_EQ(test, workers_start(&w, 3, exclusive_waiter, NULL, 0,
					    false, "wex"), 3);
	for (int i = 0; i < 3; i++)
		KUNIT_ASSERT_TRUE(test, wait_for_sleep(w.task[i],
						TASK_UNINTERRUPTIBLE, 60));
	WRITE_ONCE(cond, 1);
	wake_up(&wq);
	KUNIT_EXPECT_TRUE(test, wait_for_count(&woken, 1, 60));
	msleep(30);
	KUNIT_EXPECT_EQ(test, woken, 1);
	wake_up_all(&wq);
	workers_join(&w);
	KUNIT_EXPECT_EQ(test, woken, 3);
}

static volatile long intr_result;

static int interruptible_waiter(void *unused)
{
	intr_result = wait_event_interruptible(wq, READ_ONCE(cond));
	return 0;
}

static void signal_interrupts_interruptible(struct kunit *test)
{
	struct task_struct *t;

	cond = 0;
	intr_result = 1;
	t = kthread_run(interruptible_waiter, NULL, "wint");
	KUNIT_ASSERT_NOT_NULL(test, t);
	KUNIT_ASSERT_TRUE(test, wait_for_sleep(t, TASK_INTERRUPTIBLE, 60));
	send_sig(SIGINT, t, 0);
	kthread_join(t);
	KUNIT_EXPECT_EQ(test, intr_result, -ERESTARTSYS);
}

static volatile u64 slept_ns;

static int uninterruptible_sleeper(void *unused)
{
	u64 t = ktime_get_ns();

	msleep(100);
	slept_ns = ktime_get_ns() - t;
	return signal_pending(current);
}

static void signal_leaves_uninterruptible_alone(struct kunit *test)
{
	struct task_struct *t;

	t = kthread_run(uninterruptible_sleeper, NULL, "wunint");
	KUNIT_ASSERT_NOT_NULL(test, t);
	KUNIT_ASSERT_TRUE(test, wait_for_sleep(t, TASK_UNINTERRUPTIBLE, 60));
	send_sig(SIGINT, t, 0);
	/*
	 * The signal stays pending, but the sleep runs its full length. The
	 * sleep is timed by the tick and measured by the clock, two
	 * separately calibrated clocks: allow a few percent between them.
	 */
	KUNIT_EXPECT_EQ(test, kthread_join(t), 1);
	KUNIT_EXPECT_GE(test, slept_ns, 90 * NSEC_PER_MSEC);
}

static void flush_clears_pending(struct kunit *test)
{
	send_sig(SIGUSR1, current, 0);
	KUNIT_EXPECT_TRUE(test, signal_pending(current));
	flush_signals(current);
	KUNIT_EXPECT_FALSE(test, signal_pending(current));
	KUNIT_EXPECT_EQ(test, send_sig(0, current, 0), -EINVAL);
}

static struct kunit_case wait_cases[] = {
	KUNIT_CASE(wait_event_sleeps_until_condition),
	KUNIT_CASE(wait_event_timeout_results),
	KUNIT_CASE(exclusive_wakeups),
	KUNIT_CASE(signal_interrupts_interruptible),
	KUNIT_CASE(signal_leaves_uninterruptible_alone),
	KUNIT_CASE(flush_clears_pending),
	{}
};

static struct kunit_suite wait_suite = {
	.name = "wait",
	.test_cases = wait_cases,
};
kunit_test_suite(wait_suite);
