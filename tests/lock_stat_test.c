// SPDX-License-Identifier: GPL-2.0
/*
 * Lock statistics (CONFIG_LOCK_STAT): the counts of one class after a
 * known history. Each case takes locks of classes of its own, made to
 * wait a known number of times: a waiter task asks for a lock this task
 * holds, and the lock is let go only once the waiter waits (asleep, or
 * counted as contending). Then contentions is exactly that number, every
 * acquisition is counted, min <= max <= total for both times, and the
 * contention point is the waiter's own call site.
 */
#include <kernel.h>
#include <string.h>
#include <mutex.h>
#include <semaphore.h>
#include <rtmutex.h>
#include <completion.h>
#include <kallsyms.h>
#include <timer.h>
#include "helpers.h"

#define ROUNDS		5
#define WAIT_SECS	10

static DEFINE_MUTEX(stat_mutex);
static DEFINE_SEMAPHORE(stat_sem);
static DEFINE_RT_MUTEX(stat_rt);
static DEFINE_SPINLOCK(stat_spin);
static DECLARE_COMPLETION(stat_done);

static struct lock_class_stats read_stats(struct kunit *test,
					  struct lockdep_map *map,
					  unsigned int subclass)
{
	struct lock_class_stats st;

	KUNIT_EXPECT_TRUE(test, lock_stat_read(map, subclass, &st));
	return st;
}

/* min <= max <= total over nr samples, min non-zero if any were. */
static void check_times(struct kunit *test, const struct lock_time *t,
			unsigned long nr)
{
	KUNIT_EXPECT_EQ(test, t->nr, nr);
	KUNIT_EXPECT_LE(test, t->min, t->max);
	KUNIT_EXPECT_LE(test, t->max, t->total);
	if (nr)
		KUNIT_EXPECT_GT(test, t->min, 0ULL);
}

/* The one contention point is inside fn, and waited n times. */
static void check_point(struct kunit *test, const struct lock_class_stats *st,
			const char *fn, unsigned long n)
{
	const char *name = kallsyms_lookup(st->contention_ip[0], NULL, NULL);

	KUNIT_EXPECT_NOT_NULL(test, name);
	if (name)
		KUNIT_EXPECT_STREQ(test, name, fn);
	KUNIT_EXPECT_EQ(test, st->contention_point[0], n);
	KUNIT_EXPECT_EQ(test, st->contention_ip[1], 0UL);
}

static void uncontended_counts_acquisitions(struct kunit *test)
{
	struct lock_class_stats st;

	lock_stat_clear();
	for (int i = 0; i < ROUNDS; i++) {
		mutex_lock(&stat_mutex);
		mutex_unlock(&stat_mutex);
	}
	KUNIT_ASSERT_TRUE(test, mutex_trylock(&stat_mutex));
	mutex_unlock(&stat_mutex);
	st = read_stats(test, &stat_mutex.dep_map, 0);
	KUNIT_EXPECT_EQ(test, st.acquisitions, ROUNDS + 1UL);
	check_times(test, &st.waittime, 0);
	check_times(test, &st.holdtime, ROUNDS + 1);
	KUNIT_EXPECT_EQ(test, st.contention_ip[0], 0UL);
}

static noinline int mutex_waiter(void *unused)
{
	mutex_lock(&stat_mutex);
	mutex_unlock(&stat_mutex);
	return 0;
}

static noinline int rt_waiter(void *unused)
{
	rt_mutex_lock(&stat_rt);
	rt_mutex_unlock(&stat_rt);
	return 0;
}

static noinline int sem_waiter(void *unused)
{
	down(&stat_sem);
	up(&stat_sem);
	return 0;
}

/* Each round: we hold it, waiter sleeps waiting for it, we let it go. */
static void make_wait(struct kunit *test, int (*waiter)(void *),
		      void (*lock)(void), void (*unlock)(void))
{
	for (int i = 0; i < ROUNDS; i++) {
		struct task_struct *t;

		lock();
		t = kthread_run(waiter, NULL, "statwait");
		KUNIT_ASSERT_NOT_NULL(test, t);
		KUNIT_EXPECT_TRUE(test, wait_for_sleep(t, TASK_UNINTERRUPTIBLE,
						       WAIT_SECS));
		unlock();
		kthread_join(t);
	}
}

static void take_mutex(void)
{
	mutex_lock(&stat_mutex);
}

static void drop_mutex(void)
{
	mutex_unlock(&stat_mutex);
}

static void take_rt(void)
{
	rt_mutex_lock(&stat_rt);
}

static void drop_rt(void)
{
	rt_mutex_unlock(&stat_rt);
}

static void take_sem(void)
{
	down(&stat_sem);
}

static void drop_sem(void)
{
	up(&stat_sem);
}

/* ROUNDS waits: ROUNDS contentions of 2 * ROUNDS acquisitions. */
static void check_contended(struct kunit *test, struct lockdep_map *map,
			    const char *waiter)
{
	struct lock_class_stats st = read_stats(test, map, 0);

	KUNIT_EXPECT_EQ(test, st.waittime.nr, (unsigned long)ROUNDS);
	KUNIT_EXPECT_EQ(test, st.acquisitions, 2UL * ROUNDS);
	check_times(test, &st.waittime, ROUNDS);
	check_times(test, &st.holdtime, 2 * ROUNDS);
	check_point(test, &st, waiter, ROUNDS);
}

static void mutex_contentions(struct kunit *test)
{
	lock_stat_clear();
	make_wait(test, mutex_waiter, take_mutex, drop_mutex);
	check_contended(test, &stat_mutex.dep_map, "mutex_waiter");
}

static void rt_mutex_contentions(struct kunit *test)
{
	lock_stat_clear();
	make_wait(test, rt_waiter, take_rt, drop_rt);
	check_contended(test, &stat_rt.dep_map, "rt_waiter");
}

static void semaphore_contentions(struct kunit *test)
{
	lock_stat_clear();
	make_wait(test, sem_waiter, take_sem, drop_sem);
	check_contended(test, &stat_sem.dep_map, "sem_waiter");
}

static noinline int completion_waiter(void *unused)
{
	wait_for_completion(&stat_done);
	return 0;
}

static void complete_done(void)
{
	complete(&stat_done);
}

static void nothing(void)
{
}

/* A wait for a completion is counted under its class "(wait)". */
static void completion_waits(struct kunit *test)
{
	struct lock_class_stats st;

	lock_stat_clear();
	make_wait(test, completion_waiter, nothing, complete_done);
	st = read_stats(test, &stat_done.wait.lock.dep_map,
			LOCKSTAT_WAIT_SUBCLASS);
	KUNIT_EXPECT_EQ(test, st.acquisitions, (unsigned long)ROUNDS);
	check_times(test, &st.waittime, ROUNDS);
	check_point(test, &st, "completion_waiter", ROUNDS);
}

static volatile int spin_rounds_started, spin_rounds_done;

/* Spins on stat_spin once per round, from another CPU. */
static noinline int spin_waiter(void *unused)
{
	for (int i = 0; i < ROUNDS; i++) {
		while (READ_ONCE(spin_rounds_started) <= i)
			cpu_relax();
		spin_lock(&stat_spin);
		spin_unlock(&stat_spin);
		WRITE_ONCE(spin_rounds_done, i + 1);
	}
	return 0;
}

/* Until the waiter's round-th contention is counted, or secs passed. */
static bool wait_for_contention(unsigned long round, unsigned int secs)
{
	u64 end = ktime_get_ns() + (u64)secs * NSEC_PER_SEC;
	struct lock_class_stats st;

	do {
		lock_stat_read(&stat_spin.dep_map, 0, &st);
		if (st.contention_point[0] >= round)
			return true;
		cpu_relax();
	} while (ktime_get_ns() < end);
	return false;
}

/*
 * Holds stat_spin once per round, from a CPU other than the waiter's,
 * until the waiter is counted as spinning on it: seconds would be a bug.
 */
static int spin_holder(void *unused)
{
	bool waited = true;

	for (int i = 1; i <= ROUNDS && waited; i++) {
		spin_lock(&stat_spin);
		WRITE_ONCE(spin_rounds_started, i);
		waited = wait_for_contention(i, 5);
		spin_unlock(&stat_spin);
		/* Or we could take it again first: a spinlock is not fair. */
		waited = waited && wait_for_count(&spin_rounds_done, i,
						  WAIT_SECS);
	}
	/* Lets the waiter through its remaining rounds after a failure. */
	WRITE_ONCE(spin_rounds_started, ROUNDS);
	return !waited;
}

static void spinlock_contentions(struct kunit *test)
{
	if (num_online_cpus() < 2)
		kunit_skip(test, "needs two CPUs");
	lock_stat_clear();
	spin_rounds_started = 0;
	spin_rounds_done = 0;
	KUNIT_ASSERT_EQ(test, run_pair(spin_holder, spin_waiter, NULL,
				       "statspin"), 0);
	check_contended(test, &stat_spin.dep_map, "spin_waiter");
}

static void clear_forgets(struct kunit *test)
{
	struct lock_class_stats st;

	mutex_lock(&stat_mutex);
	mutex_unlock(&stat_mutex);
	lock_stat_clear();
	st = read_stats(test, &stat_mutex.dep_map, 0);
	KUNIT_EXPECT_EQ(test, st.acquisitions, 0UL);
	KUNIT_EXPECT_EQ(test, st.holdtime.nr, 0UL);
	KUNIT_EXPECT_EQ(test, st.holdtime.total, 0ULL);
}

/*
 * Read while counted: a task on CPU 0 reads a class while a timer
 * callback, on CPU 0's tick, counts waits of TORN_WAIT_NS and a little
 * (its clock runs on between the two reads), each past 2^32 ns. A row
 * read whole has as many waits as acquisitions and a total of nr waits;
 * a tick between the reader's loads of one row makes it count a wait
 * its total lacks, or the reverse, and a 64-bit total read half before
 * and half after an add (two loads on a 32-bit CPU) is 2^32 ns off.
 */
#define TORN_TICKS	200
#define TORN_WAIT_NS	0x180000000ULL
#define TORN_SLACK_NS	0x40000000ULL	/* a vCPU the host stops for 1 s */

static DECLARE_COMPLETION(torn_done);
static int torn_ticks_left;
static unsigned long torn_reads, torn_bad;

static void count_long_wait(struct timer_list *t)
{
	lock_waited(&torn_done.wait.lock.dep_map,
		    lock_stat_clock() - TORN_WAIT_NS, _THIS_IP_);
	if (--torn_ticks_left > 0)
		mod_timer(t, jiffies + 1);
}

static bool stats_are_whole(const struct lock_class_stats *st)
{
	u64 nr = st->waittime.nr;

	return st->acquisitions == st->waittime.nr &&
	       st->waittime.total >= nr * TORN_WAIT_NS &&
	       st->waittime.total <= nr * (TORN_WAIT_NS + TORN_SLACK_NS);
}

static int read_long_waits(void *unused)
{
	struct lock_class_stats st;

	while (READ_ONCE(torn_ticks_left) > 0) {
		if (!lock_stat_read(&torn_done.wait.lock.dep_map,
				    LOCKSTAT_WAIT_SUBCLASS, &st))
			continue;
		torn_reads++;
		if (!stats_are_whole(&st))
			torn_bad++;
	}
	return 0;
}

static void read_while_counted_is_whole(struct kunit *test)
{
	struct lock_class_stats st;
	struct timer_list tick;
	struct workers w;

	lock_stat_clear();
	torn_reads = torn_bad = 0;
	torn_ticks_left = TORN_TICKS;
	timer_setup(&tick, count_long_wait, 0);
	mod_timer(&tick, jiffies + 1);
	KUNIT_ASSERT_EQ(test, workers_start(&w, 1, read_long_waits, NULL, 0,
					    true, "statread"), 1);
	KUNIT_EXPECT_EQ(test, workers_join(&w), 0);
	del_timer_sync(&tick);
	kunit_info(test, "%lu reads, %lu not whole", torn_reads, torn_bad);
	st = read_stats(test, &torn_done.wait.lock.dep_map,
			LOCKSTAT_WAIT_SUBCLASS);
	KUNIT_EXPECT_EQ(test, st.waittime.nr, (unsigned long)TORN_TICKS);
	KUNIT_EXPECT_TRUE(test, stats_are_whole(&st));
	KUNIT_EXPECT_EQ(test, torn_bad, 0UL);
}

static struct kunit_case lock_stat_cases[] = {
	KUNIT_CASE(uncontended_counts_acquisitions),
	KUNIT_CASE(mutex_contentions),
	KUNIT_CASE(rt_mutex_contentions),
	KUNIT_CASE(semaphore_contentions),
	KUNIT_CASE(completion_waits),
	KUNIT_CASE(spinlock_contentions),
	KUNIT_CASE(clear_forgets),
	KUNIT_CASE(read_while_counted_is_whole),
	{}
};

static struct kunit_suite lock_stat_suite = {
	.name = "lock_stat",
	.test_cases = lock_stat_cases,
};

kunit_test_suites(&lock_stat_suite);
