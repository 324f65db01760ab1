// SPDX-License-Identifier: GPL-2.0
/*
 * The mutex counter's states as the 2006 mutex patches define them: 1
 * unlocked, 0 locked with nobody waiting, negative locked with possible
 * waiters. The fastpaths rely on them: an unlock that finds 0 needs no
 * slowpath, so a new owner that leaves -1 behind with nobody waiting
 * costs every later unlock the slowpath.
 */
#include <kernel.h>
#include <mutex.h>
#include <sched.h>
#include "helpers.h"

static DEFINE_MUTEX(states_lock);
static int count_seen_by_new_owner;

static void uncontended(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, atomic_read(&states_lock.count), 1);
	mutex_lock(&states_lock);
	KUNIT_EXPECT_EQ(test, atomic_read(&states_lock.count), 0);
	mutex_unlock(&states_lock);
	KUNIT_EXPECT_EQ(test, atomic_read(&states_lock.count), 1);
}

static int new_owner(void *unused)
{
	mutex_lock(&states_lock);
	count_seen_by_new_owner = atomic_read(&states_lock.count);
	mutex_unlock(&states_lock);
	return 0;
}

/* A waiter marks the count; the last waiter to get the lock clears it. */
static void handoff_to_the_last_waiter(struct kunit *test)
{
	struct task_struct *t;

	count_seen_by_new_owner = 2;
	mutex_lock(&states_lock);
	t = kthread_run(new_owner, NULL, "states");
	KUNIT_ASSERT_NOT_NULL(test, t);
	KUNIT_ASSERT_TRUE(test, wait_for_sleep(t, TASK_UNINTERRUPTIBLE, 60));
	KUNIT_EXPECT_EQ(test, atomic_read(&states_lock.count), -1);
	mutex_unlock(&states_lock);
	kthread_join(t);
	KUNIT_EXPECT_EQ(test, count_seen_by_new_owner, 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&states_lock.count), 1);
}

static struct kunit_case mutex_states_cases[] = {
	KUNIT_CASE(uncontended),
	KUNIT_CASE(handoff_to_the_last_waiter),
	{}
};

static struct kunit_suite mutex_states_suite = {
	.name = "mutex_states",
	.test_cases = mutex_states_cases,
};
kunit_test_suite(mutex_states_suite);
