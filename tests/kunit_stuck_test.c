// SPDX-License-Identifier: GPL-2.0
/*
 * The runner's stuck check, checked where it could go wrong: machines that
 * stay quiet for longer than the check watches (every task asleep, the
 * case polling on a deferrable timer), yet still move on. A timer that is
 * not deferrable, a task asleep on one, tasks that arm a timer and fall
 * asleep a tick at a time, and a long chain of wakeups must each keep the
 * case from being called stuck. Every case passes on a correct kernel;
 * make check-runner and make check-stuck boot the suite
 * (CONFIG_KUNIT_STUCK_CHECK). The other side, a case stuck for good, is
 * selftest_fail's.
 */
#include <kernel.h>
#include <mutex.h>
#include <sched.h>
#include <timer.h>
#include <completion.h>
#include "helpers.h"

/* Thrice as long as the runner watches before it calls a machine stuck. */
#define QUIET_TICKS	(3 * KUNIT_STUCK_LOOKS * KUNIT_STUCK_POLL)
#define CHAIN_LEN	25

static volatile int count;

static void raise_count(struct timer_list *t)
{
	WRITE_ONCE(count, 1);
}

/* Only a timer that is not deferrable is armed: it will end the quiet. */
static void timer_ends_quiet(struct kunit *test)
{
	struct timer_list t;

	WRITE_ONCE(count, 0);
	timer_setup(&t, raise_count, 0);
	mod_timer(&t, jiffies + QUIET_TICKS);
	KUNIT_EXPECT_TRUE(test, wait_for_count(&count, 1, 60));
	del_timer_sync(&t);
}

static int sleep_then_raise(void *unused)
{
	msleep(jiffies_to_msecs(QUIET_TICKS));
	WRITE_ONCE(count, 1);
	return 0;
}

/* The task that will raise the count sleeps on a timer of its own. */
static void sleeper_ends_quiet(struct kunit *test)
{
	struct task_struct *t;

	WRITE_ONCE(count, 0);
	t = kthread_run(sleep_then_raise, NULL, "stuck/sleeper");
	KUNIT_ASSERT_NOT_NULL(test, t);
	KUNIT_EXPECT_TRUE(test, wait_for_count(&count, 1, 60));
	kthread_join(t);
}

static int nap_until(void *end)
{
	while (time_before(jiffies, *(unsigned long *)end))
		msleep(1);
	return 0;
}

/*
 * A task per CPU and the case itself wake, arm a new timer and fall asleep
 * again every other tick, as wait_for_sleep() does. A check that looked
 * at the timers and at the tasks one after the other could see no timer
 * (one was just woken) and then every task asleep (it armed the next one
 * and slept in between), and call a busy machine stuck.
 */
static void napping_tasks_not_stuck(struct kunit *test)
{
	unsigned long end = jiffies + QUIET_TICKS;
	struct workers w;

	workers_start(&w, num_online_cpus(), nap_until, &end, 0, true,
		      "stuck/nap");
	nap_until(&end);
	KUNIT_EXPECT_EQ(test, workers_join(&w), 0);
}

struct chain_link {
	struct mutex *own, *next;	/* next NULL: the last link */
	struct completion go, release;
	volatile int *holding, *unwound;
};

static struct mutex chain_locks[CHAIN_LEN];
static struct chain_link links[CHAIN_LEN];
static struct task_struct *chain_tasks[CHAIN_LEN];
/* A class per link: the validator must not see one class nest in itself. */
static char link_names[CHAIN_LEN][8];
static volatile int holding, unwound;

static int chain_link_fn(void *data)
{
	struct chain_link *l = data;

	mutex_lock(l->own);
	__atomic_add_fetch(l->holding, 1, __ATOMIC_SEQ_CST);
	wait_for_completion(&l->go);
	if (l->next) {
		mutex_lock(l->next);
		mutex_unlock(l->next);
	} else {
		wait_for_completion(&l->release);
	}
	mutex_unlock(l->own);
	__atomic_add_fetch(l->unwound, 1, __ATOMIC_SEQ_CST);
	return 0;
}

/*
 * Task i holds lock i and waits for lock i+1; the last one waits for a
 * completion. Released, the chain unwinds one wakeup at a time while the
 * case polls on a deferrable timer: never all asleep with work to do.
 */
static void chain_unwinds(struct kunit *test)
{
	int i;

	holding = 0;
	unwound = 0;
	for (i = 0; i < CHAIN_LEN; i++) {
		snprintf(link_names[i], sizeof(link_names[i]), "link%d", i);
		__mutex_init(&chain_locks[i], link_names[i], link_names[i]);
		links[i] = (struct chain_link){
			.own = &chain_locks[i],
			.next = i + 1 < CHAIN_LEN ? &chain_locks[i + 1] : NULL,
			.holding = &holding,
			.unwound = &unwound,
		};
		init_completion(&links[i].go);
		init_completion(&links[i].release);
		chain_tasks[i] = kthread_run(chain_link_fn, &links[i],
					     "stuck/chain%d", i);
		KUNIT_ASSERT_NOT_NULL(test, chain_tasks[i]);
	}
	KUNIT_ASSERT_TRUE(test, wait_for_count(&holding, CHAIN_LEN, 60));
	for (i = 0; i + 1 < CHAIN_LEN; i++) {
		complete(&links[i].go);
		KUNIT_ASSERT_TRUE(test, wait_for_sleep(chain_tasks[i],
						       TASK_UNINTERRUPTIBLE, 60));
	}
	complete(&links[CHAIN_LEN - 1].go);
	complete(&links[CHAIN_LEN - 1].release);
	KUNIT_EXPECT_TRUE(test, wait_for_count(&unwound, CHAIN_LEN, 60));
	for (i = 0; i < CHAIN_LEN; i++)
		kthread_join(chain_tasks[i]);
}

static struct kunit_case stuck_check_cases[] = {
	KUNIT_CASE(timer_ends_quiet),
	KUNIT_CASE(sleeper_ends_quiet),
	KUNIT_CASE(napping_tasks_not_stuck),
	KUNIT_CASE(chain_unwinds),
	{}
};

static struct kunit_suite stuck_check_suite = {
	.name = "stuck_check",
	.test_cases = stuck_check_cases,
};
kunit_test_suite(stuck_check_suite);
