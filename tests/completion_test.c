// SPDX-License-Identifier: GPL-2.0
/* Completions: counting, complete_all, timeouts, interruptible waits, FIFO. */
#include <kernel.h>
#include <completion.h>
#include "helpers.h"

static void complete_before_wait(struct kunit *test)
{
	DECLARE_COMPLETION(c);

	KUNIT_EXPECT_FALSE(test, completion_done(&c));
	complete(&c);
	KUNIT_EXPECT_TRUE(test, completion_done(&c));
	wait_for_completion(&c);	/* must not sleep */
	KUNIT_EXPECT_FALSE(test, completion_done(&c));
}

static void complete_counts(struct kunit *test)
{
	struct completion c;

	init_completion(&c);
	complete(&c);
	complete(&c);
	complete(&c);
	KUNIT_EXPECT_TRUE(test, try_wait_for_completion(&c));
	KUNIT_EXPECT_TRUE(test, try_wait_for_completion(&c));
	KUNIT_EXPECT_TRUE(test, try_wait_for_completion(&c));
	KUNIT_EXPECT_FALSE(test, try_wait_for_completion(&c));
	complete(&c);
	reinit_completion(&c);
	KUNIT_EXPECT_FALSE(test, try_wait_for_completion(&c));
}

struct waiter_arg {
	struct completion *c;
	volatile int *woken;
	int id;
	int *order;
	volatile int *next;
};

static int waiter(void *data)
{
	struct waiter_arg *a = data;

	wait_for_completion(a->c);
	if (a->order)
		a->order[__atomic_fetch_add(a->next, 1, __ATOMIC_SEQ_CST)] = a->id;
	__atomic_fetch_add(a->woken, 1, __ATOMIC_SEQ_CST);
	return 0;
}

static void complete_all_wakes_all(struct kunit *test)
{
	DECLARE_COMPLETION(c);
	struct waiter_arg args[8];
	volatile int woken = 0;
	struct workers w;
	int n = 8;

	for (int i = 0; i < n; i++)
		args[i] = (struct waiter_arg){ .c = &c, .woken = &woken };
	KUNIT_ASSERT_EQ(test, workers_start(&w, n, waiter, args,
					    sizeof(args[0]), false, "cw"), n);
	for (int i = 0; i < n; i++)
		KUNIT_ASSERT_TRUE(test, wait_for_sleep(w.task[i],
						TASK_UNINTERRUPTIBLE, 60));
	KUNIT_EXPECT_EQ(test, woken, 0);
	complete_all(&c);
	workers_join(&w);
	KUNIT_EXPECT_EQ(test, woken, n);
	/* Done for good: later waits return at once. */
	wait_for_completion(&c);
	KUNIT_EXPECT_TRUE(test, completion_done(&c));
}

static void complete_releases_one_in_fifo_order(struct kunit *test)
{
	DECLARE_COMPLETION(c);
	struct waiter_arg args[4];
	struct task_struct *t[4];
	volatile int woken = 0, next = 0;
	int order[4] = { -1, -1, -1, -1 };

	/* Start them one by one, so that they queue in a known order. */
	for (int i = 0; i < 4; i++) {
		args[i] = (struct waiter_arg){ .c = &c, .woken = &woken,
			.id = i, .order = order, .next = &next };
		t[i] = kthread_run(waiter, &args[i], "cfifo%d", i);
		KUNIT_ASSERT_NOT_NULL(test, t[i]);
		KUNIT_ASSERT_TRUE(test, wait_for_sleep(t[i],
					TASK_UNINTERRUPTIBLE, 60));
	}
	for (int i = 0; i < 4; i++) {
		complete(&c);
		KUNIT_EXPECT_TRUE(test, wait_for_count(&woken, i + 1, 60));
		msleep(20);
		KUNIT_EXPECT_EQ(test, woken, i + 1);	/* exactly one more */
	}
	for (int i = 0; i < 4; i++) {
		kthread_join(t[i]);
		KUNIT_EXPECT_EQ(test, order[i], i);
	}
}

static void timeouts(struct kunit *test)
{
	DECLARE_COMPLETION(c);
	unsigned long start = jiffies;

	KUNIT_EXPECT_EQ(test, wait_for_completion_timeout(&c, 5), 0);
	KUNIT_EXPECT_GE(test, jiffies - start, 5);
	complete(&c);
	KUNIT_EXPECT_GT(test, wait_for_completion_timeout(&c, 5), 0);
	KUNIT_EXPECT_EQ(test, wait_for_completion_interruptible_timeout(&c, 3),
			0);
}

struct intr_arg {
	struct completion c;
	long result;
	bool timeout;
};

static int intr_waiter(void *data)
{
	struct intr_arg *a = data;

	if (a->timeout)
		a->result = wait_for_completion_interruptible_timeout(&a->c,
								 100 * HZ);
	else
		a->result = wait_for_completion_interruptible(&a->c);
	return 0;
}

static void interruptible_wait(struct kunit *test)
{
	struct intr_arg a[2];

	for (int i = 0; i < 2; i++) {
		struct task_struct *t;

		init_completion(&a[i].c);
		a[i].result = 1;
		a[i].timeout = i;
		t = kthread_run(intr_waiter, &a[i], "cintr");
		KUNIT_ASSERT_NOT_NULL(test, t);
		KUNIT_ASSERT_TRUE(test, wait_for_sleep(t, TASK_INTERRUPTIBLE,
						       60));
		send_sig(SIGINT, t, 0);
		kthread_join(t);
		KUNIT_EXPECT_EQ(test, a[i].result, -ERESTARTSYS);
		/* the completion was not consumed */
		KUNIT_EXPECT_FALSE(test, completion_done(&a[i].c));
	}
}

static struct kunit_case completion_cases[] = {
	KUNIT_CASE(complete_before_wait),
	KUNIT_CASE(complete_counts),
	KUNIT_CASE(complete_all_wakes_all),
	KUNIT_CASE(complete_releases_one_in_fifo_order),
	KUNIT_CASE(timeouts),
	KUNIT_CASE(interruptible_wait),
	{}
};

static struct kunit_suite completion_suite = {
	.name = "completion",
	.test_cases = completion_cases,
};
kunit_test_suite(completion_suite);
