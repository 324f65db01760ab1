// SPDX-License-Identifier: GPL-2.0
/*
 * The lost-wakeup window of wait_event_interruptible_timeout(), an
 * instructor-only check of lab 2 (the lab generator leaves this file out
 * of the student trees; see docs/labs/instructor.md). The waker strikes
 * where it does in wait.wakeup_between_test_and_sleep, here in the
 * interruptible state.
 */
#include <kernel.h>
#include <sched.h>
#include <wait.h>
#include <time.h>
#include <kunit/test.h>

static DECLARE_WAIT_QUEUE_HEAD(window_wq);
static volatile int window_cond;
static int tests_made;
static bool queued_at_test, sleeping_at_test;

static bool cond_with_waker(void)
{
	if (++tests_made == 2) {
		queued_at_test = waitqueue_active(&window_wq);
		sleeping_at_test = current->state == TASK_INTERRUPTIBLE;
		WRITE_ONCE(window_cond, 1);
		wake_up(&window_wq);
		return false;
	}
	return READ_ONCE(window_cond);
}

static void interruptible_wakeup_in_window(struct kunit *test)
{
	window_cond = 0;
	tests_made = 0;
	KUNIT_EXPECT_GT(test, wait_event_interruptible_timeout(window_wq,
				cond_with_waker(), HZ), 0);
	KUNIT_EXPECT_TRUE(test, queued_at_test);
	KUNIT_EXPECT_TRUE(test, sleeping_at_test);
}

static struct kunit_case wait_window_cases[] = {
	KUNIT_CASE(interruptible_wakeup_in_window),
	{}
};

static struct kunit_suite wait_window_suite = {
	.name = "wait_window",
	.test_cases = wait_window_cases,
};
kunit_test_suite(wait_window_suite);
