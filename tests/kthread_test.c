// SPDX-License-Identifier: GPL-2.0
/* Kernel threads: create, bind, stop, exit codes, reaping with no leak. */
#include <kernel.h>
#include <kthread.h>
#include <mm.h>
#include "helpers.h"

static int until_stopped(void *data)
{
	int loops = 0;

	while (!kthread_should_stop()) {
		loops++;
		msleep_poll(1);
	}
	return 100 + (loops > 0);
}

static void stop_returns_result(struct kunit *test)
{
	struct task_struct *t = kthread_run(until_stopped, NULL, "stopme");

	KUNIT_ASSERT_NOT_NULL(test, t);
	msleep(20);
	KUNIT_EXPECT_EQ(test, kthread_stop(t), 101);
}

static int exits_early(void *data)
{
	do_exit(42);
}

static void do_exit_code_collected(struct kunit *test)
{
	struct task_struct *t = kthread_run(exits_early, NULL, "exiter");

	KUNIT_ASSERT_NOT_NULL(test, t);
	/* Told once it is off its CPU for good: a zombie until reaped. */
	wait_for_completion(&t->exited);
	KUNIT_EXPECT_EQ(test, task_state_char(t), 'Z');
	KUNIT_EXPECT_EQ(test, kthread_join(t), 42);
}

static int nothing(void *data)
{
	*(int *)data = smp_processor_id();
	return 0;
}

static int count_tasks(void)
{
	struct task_struct *p;
	unsigned long flags;
	int n = 0;

	spin_lock_irqsave(&task_list_lock, flags);
	list_for_each_entry(p, &task_list, tasks)
		n++;
	spin_unlock_irqrestore(&task_list_lock, flags);
	return n;
}

static void reaped_with_no_leak(struct kunit *test)
{
	int where[NR_CPUS];
	unsigned long pages;
	int tasks;

	/* Warm up kmalloc's slabs so that the count below is stable. */
	kthread_join(kthread_run(nothing, &where[0], "warm"));
	pages = nr_free_pages();
	tasks = count_tasks();
	for (int round = 0; round < 20; round++) {
		struct workers w;
		int n = num_online_cpus();

		KUNIT_ASSERT_EQ(test, workers_start(&w, n, nothing, where,
					sizeof(int), true, "leak"), n);
		workers_join(&w);
		for (int i = 0; i < n; i++)
			KUNIT_EXPECT_EQ(test, where[i], i);
	}
	KUNIT_EXPECT_EQ(test, count_tasks(), tasks);
	KUNIT_EXPECT_EQ(test, nr_free_pages(), pages);
}

static struct kunit_case kthread_cases[] = {
	KUNIT_CASE(stop_returns_result),
	KUNIT_CASE(do_exit_code_collected),
	KUNIT_CASE(reaped_with_no_leak),
	{}
};

static struct kunit_suite kthread_suite = {
	.name = "kthread",
	.test_cases = kthread_cases,
};
kunit_test_suite(kthread_suite);
