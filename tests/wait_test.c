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
	 * The signal stays pending, but the sleep runs its full length: timed
	 * by the tick, it cannot be shorter than 100 ms less one tick (HZ=100)
	 * on the clock, however late the host runs us.
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

/* ---- finish_wait() against a waker that is still unlinking the entry ---- */

static DECLARE_WAIT_QUEUE_HEAD(unlink_wq);

struct half_unlink {
	struct wait_queue_entry *entry;	/* published by the waiter */
	volatile int ready, go, calling, returned;
};

static int half_unlink_waiter(void *data)
{
	struct half_unlink *h = data;
	DEFINE_WAIT(w);

	prepare_to_wait(&unlink_wq, &w, TASK_UNINTERRUPTIBLE);
	__set_current_state(TASK_RUNNING);
	h->entry = &w;
	__atomic_store_n(&h->ready, 1, __ATOMIC_SEQ_CST);
	while (!READ_ONCE(h->go))
		cpu_relax();
	WRITE_ONCE(h->calling, 1);
	finish_wait(&unlink_wq, &w);
	WRITE_ONCE(h->returned, 1);
	return 0;
}

/*
 * The test plays a waker that woke the waiter and, under the queue's
 * lock, is half way through unlinking its entry: next already points back
 * at the entry, prev not yet (the order the old autoremove_wake_function
 * wrote them in). Seeing only next, the waiter would think it was off the
 * queue and return, and the waker's last store would land in a stack frame
 * that is no longer the entry. finish_wait() must not return until the
 * waker is done with the entry.
 */
static void finish_wait_waits_for_the_waker(struct kunit *test)
{
	struct half_unlink h = {};
	struct task_struct *t;
	struct list_head *e;
	unsigned long flags;
	int early = 0;

	if (num_online_cpus() < 2)
		kunit_skip(test, "needs a second CPU for the waiter");
	t = kthread_run(half_unlink_waiter, &h, "half-unlink");
	KUNIT_ASSERT_NOT_NULL(test, t);
	KUNIT_ASSERT_TRUE(test, wait_for_count(&h.ready, 1, 60));
	e = &h.entry->entry;

	spin_lock_irqsave(&unlink_wq.lock, flags);
	__list_del(e->prev, e->next);
	WRITE_ONCE(e->next, e);
	WRITE_ONCE(h.go, 1);
	while (!READ_ONCE(h.calling))
		cpu_relax();
	/* Give the waiter plenty of time to (wrongly) get out. */
	for (int ms = 0; ms < 200 && !early; ms++) {
		mdelay(1);
		early = READ_ONCE(h.returned);
	}
	WRITE_ONCE(e->prev, e);
	spin_unlock_irqrestore(&unlink_wq.lock, flags);

	kthread_join(t);
	KUNIT_EXPECT_EQ(test, early, 0);
	KUNIT_EXPECT_EQ(test, h.returned, 1);
}

/* ---- stress: short waits on stack entries, the frame reused at once ---- */

#define FRAME_WORDS	128
#define FRAME_POISON	0x5a5aa5a5UL

static DECLARE_WAIT_QUEUE_HEAD(stress_wq);
static volatile int stress_ticket;
static volatile int stress_done;
static volatile int stress_corrupted;

/* The wait_queue_entry lives in this frame, and dies with it. */
static noinline void one_short_wait(void)
{
	int seen = READ_ONCE(stress_ticket);

	wait_event(stress_wq, READ_ONCE(stress_ticket) != seen);
}

/*
 * Called right after one_short_wait() returns, so this frame covers the
 * one the entry was in. A waker still writing the entry shows up as a
 * changed word.
 */
static noinline void reuse_frame(void)
{
	volatile unsigned long frame[FRAME_WORDS];
	int i;

	for (i = 0; i < FRAME_WORDS; i++)
		frame[i] = FRAME_POISON;
	for (i = 0; i < 50; i++)
		cpu_relax();
	for (i = 0; i < FRAME_WORDS; i++)
		if (frame[i] != FRAME_POISON) {
			__atomic_add_fetch(&stress_corrupted, 1,
					   __ATOMIC_SEQ_CST);
			break;
		}
}

/* Short waits in all, split over the waiters (stress= multiplies them). */
#define SHORT_WAITS_TOTAL	1000
static int short_waits_each;

static int short_waiter(void *unused)
{
	for (int i = 0; i < short_waits_each; i++) {
		one_short_wait();
		reuse_frame();
	}
	__atomic_add_fetch(&stress_done, 1, __ATOMIC_SEQ_CST);
	return 0;
}

static int stress_waker(void *data)
{
	int n = *(int *)data;

	for (unsigned long i = 0; READ_ONCE(stress_done) < n; i++) {
		__atomic_add_fetch(&stress_ticket, 1, __ATOMIC_SEQ_CST);
		wake_up_all(&stress_wq);
		if (!(i % 8))
			yield();
	}
	return 0;
}

static void short_waits_leave_the_frame_alone(struct kunit *test)
{
	int n = 2 * num_online_cpus();
	struct task_struct *waker;
	struct workers w;

	stress_done = 0;
	stress_corrupted = 0;
	short_waits_each = SHORT_WAITS_TOTAL * stress_factor / n;
	KUNIT_ASSERT_EQ(test, workers_start(&w, n, short_waiter, NULL, 0, true,
					    "short-wait"), n);
	waker = kthread_run(stress_waker, &n, "waker");
	KUNIT_ASSERT_NOT_NULL(test, waker);
	KUNIT_EXPECT_EQ(test, workers_join(&w), 0);
	kthread_join(waker);
	KUNIT_EXPECT_EQ(test, stress_corrupted, 0);
	KUNIT_EXPECT_FALSE(test, waitqueue_active(&stress_wq));
}

/*
 * A waker that comes between the waiter's test of its condition and its
 * sleep. The condition plays that waker itself, the first time the loop
 * of wait_event_timeout() tests it (the macro tests once before the
 * loop). The loop must test only once the task is on the queue with its
 * sleeping state set: then the wakeup finds it. In the other order the
 * wakeup finds nobody and the task sleeps until the timeout, a lost
 * wakeup (what the assertions check is where the task was, not the time).
 */
static int window_tests;
static bool window_queued, window_state_set;

static bool cond_with_waker_in_window(void)
{
	if (++window_tests == 2) {
		window_queued = waitqueue_active(&wq);
		window_state_set = current->state != TASK_RUNNING;
		WRITE_ONCE(cond, 1);
		wake_up(&wq);
		return false;
	}
	return READ_ONCE(cond);
}

static void wakeup_between_test_and_sleep(struct kunit *test)
{
	cond = 0;
	window_tests = 0;
	window_queued = window_state_set = false;
	KUNIT_EXPECT_GT(test, wait_event_timeout(wq, cond_with_waker_in_window(),
						 HZ), 0);
	KUNIT_EXPECT_GE(test, window_tests, 3);
	KUNIT_EXPECT_TRUE(test, window_queued);
	KUNIT_EXPECT_TRUE(test, window_state_set);
	KUNIT_EXPECT_FALSE(test, waitqueue_active(&wq));
}

static struct kunit_case wait_cases[] = {
	KUNIT_CASE(wait_event_sleeps_until_condition),
	KUNIT_CASE(wait_event_timeout_results),
	KUNIT_CASE(exclusive_wakeups),
	KUNIT_CASE(signal_interrupts_interruptible),
	KUNIT_CASE(signal_leaves_uninterruptible_alone),
	KUNIT_CASE(flush_clears_pending),
	KUNIT_CASE(finish_wait_waits_for_the_waker),
	KUNIT_CASE(short_waits_leave_the_frame_alone),
	KUNIT_CASE(wakeup_between_test_and_sleep),
	{}
};

static struct kunit_suite wait_suite = {
	.name = "wait",
	.test_cases = wait_cases,
};
kunit_test_suite(wait_suite);
