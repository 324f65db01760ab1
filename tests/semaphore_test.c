// SPDX-License-Identifier: GPL-2.0
/* The legacy semaphore: counting with initial counts 1, 3 and 0. */
#include <kernel.h>
#include <semaphore.h>
#include "helpers.h"

/*
 * Each worker's rounds: a sleep inside costs a tick or two, and with count
 * 1 the sleeps of all workers add up, so a few of them per worker suffice.
 */
#define SEM_LOOPS	100
#define SLEEP_EVERY	25

struct sem_arg {
	struct semaphore *sem;
	volatile int *inside;
	volatile int *max_inside;
	volatile int *done;
	int loops;
};

static int sem_worker(void *data)
{
	struct sem_arg *a = data;

	for (int i = 0; i < a->loops; i++) {
		int now;

		down(a->sem);
		now = __atomic_add_fetch(a->inside, 1, __ATOMIC_SEQ_CST);
		for (;;) {	/* record the highest concurrency seen */
			int m = *a->max_inside;

			if (now <= m || __atomic_compare_exchange_n(a->max_inside,
					(int *)&m, now, false, __ATOMIC_SEQ_CST,
					__ATOMIC_SEQ_CST))
				break;
		}
		/* now and then sleep inside, so that waiters pile up */
		if (i % SLEEP_EVERY == 0)
			msleep(1);
		__atomic_sub_fetch(a->inside, 1, __ATOMIC_SEQ_CST);
		up(a->sem);
	}
	__atomic_add_fetch(a->done, 1, __ATOMIC_SEQ_CST);
	return 0;
}

/* n workers on a semaphore of count: never more than count inside. */
static void run_counting(struct kunit *test, int count)
{
	struct semaphore sem;
	volatile int inside = 0, max_inside = 0, done = 0;
	struct sem_arg args[32];
	struct workers w;
	int n = num_online_cpus() * 2 + 4;

	sema_init(&sem, count);
	for (int i = 0; i < n; i++)
		args[i] = (struct sem_arg){ &sem, &inside, &max_inside, &done,
					    SEM_LOOPS };
	KUNIT_ASSERT_EQ(test, workers_start(&w, n, sem_worker, args,
					    sizeof(args[0]), false, "sem"), n);
	if (!wait_for_count(&done, n, 600)) {
		KUNIT_FAIL(test, "lost wakeup: %d of %d done", done, n);
		return;
	}
	workers_join(&w);
	KUNIT_EXPECT_LE(test, max_inside, count);
	KUNIT_EXPECT_GE(test, max_inside, 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&sem.count), count);
}

static void counting_one(struct kunit *test)
{
	run_counting(test, 1);
}

static void counting_three(struct kunit *test)
{
	run_counting(test, 3);
}

static void trylock_counts(struct kunit *test)
{
	struct semaphore s;

	sema_init(&s, 3);
	KUNIT_EXPECT_EQ(test, down_trylock(&s), 0);
	KUNIT_EXPECT_EQ(test, down_trylock(&s), 0);
	KUNIT_EXPECT_EQ(test, down_trylock(&s), 0);
	KUNIT_EXPECT_EQ(test, down_trylock(&s), 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&s.count), 0);
	up(&s);
	KUNIT_EXPECT_EQ(test, down_trylock(&s), 0);
	up(&s);
	up(&s);
	up(&s);
	KUNIT_EXPECT_EQ(test, atomic_read(&s.count), 3);
}

static volatile int zero_passed;

static int zero_waiter(void *data)
{
	down(data);
	zero_passed = 1;
	return 0;
}

/* Count 0: an event semaphore; down() waits for the first up(). */
static void count_zero_waits_for_up(struct kunit *test)
{
	struct semaphore s;
	struct task_struct *t;

	sema_init(&s, 0);
	zero_passed = 0;
	KUNIT_EXPECT_EQ(test, down_trylock(&s), 1);
	t = kthread_run(zero_waiter, &s, "semzero");
	KUNIT_ASSERT_NOT_NULL(test, t);
	KUNIT_ASSERT_TRUE(test, wait_for_sleep(t, TASK_UNINTERRUPTIBLE, 60));
	KUNIT_EXPECT_EQ(test, zero_passed, 0);
	up(&s);
	kthread_join(t);
	KUNIT_EXPECT_EQ(test, zero_passed, 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&s.count), 0);
}

static volatile int intr_ret = 1;

static int intr_down(void *data)
{
	intr_ret = down_interruptible(data);
	return 0;
}

static void interruptible_down(struct kunit *test)
{
	struct semaphore s;
	struct task_struct *t;

	sema_init(&s, 0);
	intr_ret = 1;
	t = kthread_run(intr_down, &s, "semintr");
	KUNIT_ASSERT_NOT_NULL(test, t);
	KUNIT_ASSERT_TRUE(test, wait_for_sleep(t, TASK_INTERRUPTIBLE, 60));
	send_sig(SIGINT, t, 0);
	kthread_join(t);
	KUNIT_EXPECT_EQ(test, intr_ret, -EINTR);
	/* The interrupted down gave its decrement back. */
	KUNIT_EXPECT_EQ(test, atomic_read(&s.count), 0);
	up(&s);
	KUNIT_EXPECT_EQ(test, down_trylock(&s), 0);
}

static struct kunit_case semaphore_cases[] = {
	KUNIT_CASE(counting_one),
	KUNIT_CASE(counting_three),
	KUNIT_CASE(trylock_counts),
	KUNIT_CASE(count_zero_waits_for_up),
	KUNIT_CASE(interruptible_down),
	{}
};

static struct kunit_suite semaphore_suite = {
	.name = "semaphore",
	.test_cases = semaphore_cases,
};
kunit_test_suite(semaphore_suite);
