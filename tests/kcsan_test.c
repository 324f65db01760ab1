// SPDX-License-Identifier: GPL-2.0
/*
 * The data-race detector (CONFIG_KCSAN): two tasks on two CPUs touching
 * one plain counter are reported, naming both functions; the same
 * counter under a spinlock, a mutex, with atomics, inside data_race() or
 * in a __no_kcsan function is not; nor is a contended mutex's wait list,
 * watched as exclusive to its wait_lock. With the interrupt watcher, a
 * task and a timer callback on one CPU touching one counter are
 * reported too.
 *
 * A race is caught only when a sampled access is watched while the other
 * CPU touches the counter, so the provoking cases try for a bounded
 * number of increments (RACE_TRIES watches' worth, a generous bound) and
 * end at the first report. The quiet cases make QUIET_TRIES watches'
 * worth of increments for each of two racers, shared among all of
 * theirs: the provoking case is caught many times over in that number
 * (docs/kcsan.md has the figures).
 */
#include <kernel.h>
#include <atomic.h>
#include <kcsan.h>
#include <mutex.h>
#include <printk.h>
#include <spinlock.h>
#include <timer.h>
#include "helpers.h"

#define RACE_TRIES	2000
#define QUIET_TRIES	200
/*
 * The quiet cases run two racers per CPU, so that a lock is contended
 * by more than two tasks and a mutex's waiters queue behind each other.
 */
#define MAX_RACERS	8
/*
 * The wait list's case: lock holds of HOLD_US, at most WAIT_ROUNDS per
 * racer (lab 3's wrong solutions were caught within 318, in 16 boots), the
 * stall raised to WAIT_STALL_US: a woken waiter takes longer than the
 * default stall to come back and touch the list.
 */
#define HOLD_US		50
/* Calls per racer on an exclusive range, where every access is watched. */
#define EXCLUSIVE_TRIES	100000
#define WAIT_ROUNDS	500
#define WAIT_STALL_US	200
/* Calls per racer of lab 1's atomics: an add, a compare-exchange, an increment. */
#define ATOMIC_OPS_TRIES	5000

struct racer {
	void (*step)(void);
	unsigned long limit;	/* increments at most */
	unsigned long done;
};

static unsigned int counter;
static atomic_t atomic_counter;
/* Lab 1's three atomics at work on one range the detector watches whole. */
static struct {
	atomic_t sum;
	atomic_t slot;
} lab_atomics;
static DEFINE_SPINLOCK(counter_lock);
static DEFINE_MUTEX(counter_mutex);
static bool stop;

static noinline void plain_increment(void)
{
	counter++;
}

static noinline void racy_store(void)
{
	counter = counter + 2;
}

static noinline void racy_load(void)
{
	/* the load is the point; the asm keeps it */
	unsigned int v = counter;

	asm volatile("" : : "r" (v));
}

/* Marked both ways: never a data race, but a race on an exclusive range. */
static noinline void marked_store(void)
{
	WRITE_ONCE(counter, 1);
}

static noinline void marked_load(void)
{
	unsigned int v = READ_ONCE(counter);

	asm volatile("" : : "r" (v));
}

/*
 * The assertions, as the locking code makes them: the counter's writers
 * are serialised by counter_lock, its readers are not; locked_only is
 * touched under counter_lock alone. The asserting steps stand alone,
 * with no access of their own, so that a report is the assertion's.
 */
static unsigned int locked_only;

static noinline void writer_asserted(void)
{
	ASSERT_EXCLUSIVE_WRITER(counter);
}

static noinline void access_asserted(void)
{
	ASSERT_EXCLUSIVE_ACCESS(counter);
}

static noinline void asserting_locked_increment(void)
{
	spin_lock(&counter_lock);
	ASSERT_EXCLUSIVE_WRITER(counter);
	ASSERT_EXCLUSIVE_ACCESS(locked_only);
	/* marked: the readers are lockless */
	WRITE_ONCE(counter, counter + 1);
	locked_only++;
	spin_unlock(&counter_lock);
}

static noinline void spinlocked_increment(void)
{
	spin_lock(&counter_lock);
	counter++;
	spin_unlock(&counter_lock);
}

static noinline void mutex_increment(void)
{
	mutex_lock(&counter_mutex);
	counter++;
	mutex_unlock(&counter_mutex);
}

/*
 * Held for a while, so that the other racers queue, sleep and are woken:
 * nearly every pass runs the slowpath, and touches the wait list.
 */
static noinline void mutex_held_increment(void)
{
	mutex_lock(&counter_mutex);
	counter++;
	udelay(HOLD_US);
	mutex_unlock(&counter_mutex);
	/* let the waiter we woke take it: the next lock is contended */
	yield();
}

static noinline void atomic_increment(void)
{
	atomic_inc(&atomic_counter);
	__atomic_fetch_add(&counter, 1, __ATOMIC_RELAXED);
}

/*
 * Adds 3 to lab_atomics.sum: once by add_return, once by a compare-exchange
 * that starts from the value add_return saw (no separate load: only the
 * atomics touch the range), and swaps that value into the slot; then once
 * by atomic_inc(), x86's own instruction, which a student may rewrite too.
 */
static noinline void lab_atomic_ops(void)
{
	int seen = atomic_add_return(1, &lab_atomics.sum);
	int old;

	while ((old = atomic_cmpxchg(&lab_atomics.sum, seen, seen + 1)) != seen)
		seen = old;
	atomic_xchg(&lab_atomics.slot, seen);
	atomic_inc(&lab_atomics.sum);
}

/* The task's side of the race with an interrupt: the counter, plainly. */
static noinline void task_increment(void)
{
	counter++;
}

/* The interrupt's side: a timer callback, on the boot CPU's tick. */
static noinline void tick_increment(struct timer_list *t)
{
	counter++;
	if (!READ_ONCE(stop))
		mod_timer(t, jiffies + 1);
}

static noinline void marked_increment(void)
{
	/* a statistic that may lose counts: the test says it may */
	data_race(counter++);
}

/* Kept out of the detector altogether: its accesses are not even seen. */
static noinline __no_kcsan void unchecked_increment(void)
{
	counter++;
}

static int race(void *arg)
{
	struct racer *r = arg;

	while (r->done < r->limit && !READ_ONCE(stop)) {
		r->step();
		WRITE_ONCE(r->done, r->done + 1);
	}
	return 0;
}

static bool racers_done(struct racer *r, int n)
{
	for (int i = 0; i < n; i++)
		if (READ_ONCE(r[i].done) < r[i].limit)
			return false;
	return true;
}

/*
 * A case that changes the detector's settings before run_racers() skips
 * first, so that a one-CPU boot does not keep them for its later suites.
 */
static void need_two_cpus(struct kunit *test)
{
	if (num_online_cpus() < 2)
		kunit_skip(test, "a race needs two CPUs");
}

/*
 * Runs n racers, bound to the CPUs in turn: the even ones call step_a,
 * the odd ones step_b, each up to limit times, until done or
 * (until_race) a race is seen. Returns the races seen.
 */
static unsigned long run_racers(struct kunit *test, void (*step_a)(void),
				void (*step_b)(void), int n, unsigned long limit,
				bool until_race)
{
	static struct racer r[MAX_RACERS];
	unsigned long seen = READ_ONCE(kcsan_races_seen);
	struct workers w;

	need_two_cpus(test);
	counter = 0;
	WRITE_ONCE(stop, false);
	for (int i = 0; i < n; i++)
		r[i] = (struct racer){ .step = i & 1 ? step_b : step_a,
				       .limit = limit };
	KUNIT_ASSERT_EQ(test, workers_start(&w, n, race, r, sizeof(r[0]),
					    true, "racer"), n);
	while (until_race && READ_ONCE(kcsan_races_seen) == seen &&
	       !racers_done(r, n))
		schedule_timeout_uninterruptible(1);
	if (until_race)
		WRITE_ONCE(stop, true);
	KUNIT_EXPECT_EQ(test, workers_join(&w), 0);
	kunit_info(test, "%d racers, %lu and %lu calls by the first two, "
		   "kcsan.skip=%u kcsan.udelay=%u", n, r[0].done, r[1].done,
		   kcsan_skip, kcsan_udelay);
	return READ_ONCE(kcsan_races_seen) - seen;
}

/* Increments per racer for n watches' worth of its accesses. */
static unsigned long tries(unsigned int n)
{
	return (unsigned long)n * kcsan_skip;
}

static void plain_counter_is_reported(struct kunit *test)
{
	unsigned long pos = printk_log_pos();

	kunit_expect_reports(test);
	KUNIT_EXPECT_GT(test, run_racers(test, plain_increment,
					 plain_increment, 2, tries(RACE_TRIES),
					 true), 0);
	/*
	 * Both sides named, or "race at unknown origin": a write that came
	 * after the other CPU's look for watchpoints and before its store,
	 * seen by the value check (riscv, 2 CPUs, once in make test).
	 */
	KUNIT_EXPECT_TRUE(test, printk_log_find(pos,
		"BUG: KCSAN: data-race in plain_increment"));
}

static void report_names_both_functions(struct kunit *test)
{
	unsigned long pos = printk_log_pos();

	kunit_expect_reports(test);
	KUNIT_EXPECT_GT(test, run_racers(test, racy_store, racy_load, 2,
					 tries(RACE_TRIES), true), 0);
	KUNIT_EXPECT_TRUE(test, printk_log_find(pos,
		"BUG: KCSAN: data-race in racy_load / racy_store"));
	KUNIT_EXPECT_TRUE(test, printk_log_find(pos, "write to 0x"));
	KUNIT_EXPECT_TRUE(test, printk_log_find(pos, "read to 0x"));
}

/* The same two marked accesses, on a range said to be exclusive. */
static void exclusive_range_reports_marked_accesses(struct kunit *test)
{
	unsigned long pos = printk_log_pos();

	need_two_cpus(test);
	kunit_expect_reports(test);
	kcsan_exclusive_begin(&counter, sizeof(counter));
	KUNIT_EXPECT_GT(test, run_racers(test, marked_store, marked_load, 2,
					 EXCLUSIVE_TRIES, true), 0);
	kcsan_exclusive_end();
	KUNIT_EXPECT_TRUE(test, printk_log_find(pos,
		"BUG: KCSAN: assert: race in marked_load / marked_store"));
}

/*
 * asserter and other on two CPUs until the first report: asserter's
 * assertion must be the one broken, with its title and access line.
 */
static void expect_assert_broken(struct kunit *test, void (*asserter)(void),
				 void (*other)(void), const char *title,
				 const char *access)
{
	unsigned long pos = printk_log_pos();

	need_two_cpus(test);
	kunit_expect_reports(test);
	KUNIT_EXPECT_GT(test, run_racers(test, asserter, other, 2,
					 tries(RACE_TRIES), true), 0);
	KUNIT_EXPECT_TRUE(test, printk_log_find(pos, title));
	KUNIT_EXPECT_TRUE(test, printk_log_find(pos, access));
}

/* Another CPU's WRITE_ONCE breaks the writer's assertion. */
static void assert_writer_sees_marked_write(struct kunit *test)
{
	expect_assert_broken(test, writer_asserted, marked_store,
		"BUG: KCSAN: assert: race in marked_store / writer_asserted",
		"assert no writes to 0x");
}

/* Even another CPU's READ_ONCE breaks ASSERT_EXCLUSIVE_ACCESS(). */
static void assert_access_sees_marked_read(struct kunit *test)
{
	expect_assert_broken(test, access_asserted, marked_load,
		"BUG: KCSAN: assert: race in access_asserted / marked_load",
		"assert no accesses to 0x");
}

static int quiet_racers(void)
{
	return min(2 * (int)num_online_cpus(), MAX_RACERS);
}

/*
 * Calls per racer of a quiet case: QUIET_TRIES watches' worth for two
 * racers, shared among all of them.
 */
static unsigned long quiet_limit(void)
{
	return 2 * tries(QUIET_TRIES) / quiet_racers();
}

/* Not one report, and the count adds up: the lock really excluded. */
static void expect_quiet(struct kunit *test, void (*step)(void))
{
	int n = quiet_racers();
	unsigned long limit = quiet_limit();

	KUNIT_EXPECT_EQ(test, run_racers(test, step, step, n, limit, false), 0);
	KUNIT_EXPECT_EQ(test, counter, n * limit);
}

/*
 * Both assertions hold under counter_lock while lockless readers
 * READ_ONCE the counter: the writer's allows readers, and nobody
 * touches locked_only outside the lock. Half the racers write.
 */
static void asserts_hold_under_the_lock(struct kunit *test)
{
	int n = quiet_racers();
	unsigned long limit = quiet_limit();

	locked_only = 0;
	KUNIT_EXPECT_EQ(test, run_racers(test, asserting_locked_increment,
					 marked_load, n, limit, false), 0);
	KUNIT_EXPECT_EQ(test, counter, n / 2 * limit);
	KUNIT_EXPECT_EQ(test, locked_only, n / 2 * limit);
}

static void spinlock_is_not_a_race(struct kunit *test)
{
	expect_quiet(test, spinlocked_increment);
}

static void mutex_is_not_a_race(struct kunit *test)
{
	expect_quiet(test, mutex_increment);
}

/*
 * The mutex's own slowpath: its wait list is touched under wait_lock
 * only, so no two CPUs touch its head at once, even to look. Every
 * access to the head is watched (kcsan_exclusive_begin()): lab 3's wrong
 * solutions that queue, dequeue, unlock or reset the count outside
 * wait_lock are reported, at the first race.
 */
static void mutex_wait_list_is_not_a_race(struct kunit *test)
{
	unsigned int stall = kcsan_udelay;
	int n = min(3 * (int)num_online_cpus(), MAX_RACERS);

	need_two_cpus(test);
	WRITE_ONCE(kcsan_udelay, max(stall, (unsigned int)WAIT_STALL_US));
	kcsan_exclusive_begin(&counter_mutex.wait_list,
			      sizeof(counter_mutex.wait_list));
	KUNIT_EXPECT_EQ(test, run_racers(test, mutex_held_increment,
					 mutex_held_increment, n, WAIT_ROUNDS,
					 true), 0);
	kcsan_exclusive_end();
	WRITE_ONCE(kcsan_udelay, stall);
	KUNIT_EXPECT_EQ(test, counter, n * WAIT_ROUNDS);
}

static void atomics_are_not_a_race(struct kunit *test)
{
	atomic_set(&atomic_counter, 0);
	expect_quiet(test, atomic_increment);
	KUNIT_EXPECT_EQ(test, atomic_read(&atomic_counter),
			quiet_racers() * (int)quiet_limit());
}

/*
 * Lab 1: an atomic is one access no other CPU comes between. The
 * instructions (lock xadd, ldrex/strex) are not seen by the detector, but
 * a load and a store written in C are, even on a volatile counter, when
 * the range is said to be exclusive: every access to it is then watched,
 * and another CPU's access during the stall is reported. The skeleton's C
 * versions are caught at their first overlap, the count tells as well.
 */
static void atomic_ops_are_one_access(struct kunit *test)
{
	int n = quiet_racers();

	need_two_cpus(test);
	atomic_set(&lab_atomics.sum, 0);
	kcsan_exclusive_begin(&lab_atomics, sizeof(lab_atomics));
	KUNIT_EXPECT_EQ(test, run_racers(test, lab_atomic_ops, lab_atomic_ops,
					 n, ATOMIC_OPS_TRIES, true), 0);
	kcsan_exclusive_end();
	KUNIT_EXPECT_EQ(test, atomic_read(&lab_atomics.sum),
			3 * n * ATOMIC_OPS_TRIES);
}

/*
 * A task and an interrupt handler on one CPU: a racer bound to CPU 0,
 * whose tick runs the timers, increments the counter while a timer
 * callback does so every tick. A task's stall keeps interrupts on with
 * the interrupt watcher, so a tick in it hits the watchpoint; without,
 * one CPU never sees its own handler.
 */
static void interrupt_race_is_reported(struct kunit *test)
{
	unsigned long seen = READ_ONCE(kcsan_races_seen);
	unsigned long pos = printk_log_pos();
	struct racer r = { .step = task_increment, .limit = tries(RACE_TRIES) };
	struct timer_list tick;
	struct workers w;

#ifndef CONFIG_KCSAN_INTERRUPT_WATCHER
	kunit_skip(test, "one CPU sees its own interrupts only with "
		   "CONFIG_KCSAN_INTERRUPT_WATCHER=y");
#endif
	kunit_expect_reports(test);
	counter = 0;
	WRITE_ONCE(stop, false);
	timer_setup(&tick, tick_increment, 0);
	mod_timer(&tick, jiffies + 1);
	KUNIT_ASSERT_EQ(test, workers_start(&w, 1, race, &r, sizeof(r), true,
					    "racer"), 1);
	while (READ_ONCE(kcsan_races_seen) == seen && !racers_done(&r, 1))
		schedule_timeout_uninterruptible(1);
	WRITE_ONCE(stop, true);
	KUNIT_EXPECT_EQ(test, workers_join(&w), 0);
	del_timer_sync(&tick);
	kunit_info(test, "%lu calls, kcsan.skip=%u kcsan.udelay=%u", r.done,
		   kcsan_skip, kcsan_udelay);
	KUNIT_EXPECT_GT(test, READ_ONCE(kcsan_races_seen) - seen, 0);
	KUNIT_EXPECT_TRUE(test, printk_log_find(pos,
		"BUG: KCSAN: data-race in task_increment / tick_increment"));
	KUNIT_EXPECT_TRUE(test, printk_log_find(pos, "by interrupt on cpu 0"));
}

/*
 * An __atomic builtin runs at the order its code asked for, no stronger:
 * under KCSAN each is a call into the runtime, which once made every one
 * seq_cst and so hid, on ARM and RISC-V, what a weaker order allows.
 * Interrupts are off, so that no handler's atomic comes between.
 */
static void atomics_keep_their_order(struct kunit *test)
{
	static unsigned int flag;
	unsigned int expected = 1, cpu;
	unsigned long flags;
	int ran[4];

	local_irq_save(flags);
	cpu = smp_processor_id();
	__atomic_store_n(&flag, 1, __ATOMIC_RELEASE);
	ran[0] = kcsan_atomic_order[cpu];
	(void)__atomic_load_n(&flag, __ATOMIC_ACQUIRE);
	ran[1] = kcsan_atomic_order[cpu];
	__atomic_fetch_add(&flag, 1, __ATOMIC_RELAXED);
	ran[2] = kcsan_atomic_order[cpu];
	__atomic_compare_exchange_n(&flag, &expected, 3, false,
				    __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE);
	ran[3] = kcsan_atomic_order[cpu];
	local_irq_restore(flags);
	KUNIT_EXPECT_EQ(test, ran[0], __ATOMIC_RELEASE);
	KUNIT_EXPECT_EQ(test, ran[1], __ATOMIC_ACQUIRE);
	KUNIT_EXPECT_EQ(test, ran[2], __ATOMIC_RELAXED);
	KUNIT_EXPECT_EQ(test, ran[3], __ATOMIC_ACQ_REL);
}

static void data_race_is_not_reported(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, run_racers(test, marked_increment,
					 marked_increment, quiet_racers(),
					 quiet_limit(), false), 0);
}

static void no_kcsan_function_is_not_reported(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, run_racers(test, unchecked_increment,
					 unchecked_increment, quiet_racers(),
					 quiet_limit(), false), 0);
}

static struct kunit_case kcsan_cases[] = {
	KUNIT_CASE(plain_counter_is_reported),
	KUNIT_CASE(report_names_both_functions),
	KUNIT_CASE(exclusive_range_reports_marked_accesses),
	KUNIT_CASE(assert_writer_sees_marked_write),
	KUNIT_CASE(assert_access_sees_marked_read),
	KUNIT_CASE(asserts_hold_under_the_lock),
	KUNIT_CASE(spinlock_is_not_a_race),
	KUNIT_CASE(mutex_is_not_a_race),
	KUNIT_CASE(mutex_wait_list_is_not_a_race),
	KUNIT_CASE(atomics_are_not_a_race),
	KUNIT_CASE(atomic_ops_are_one_access),
	KUNIT_CASE(interrupt_race_is_reported),
	KUNIT_CASE(atomics_keep_their_order),
	KUNIT_CASE(data_race_is_not_reported),
	KUNIT_CASE(no_kcsan_function_is_not_reported),
	{}
};

static struct kunit_suite kcsan_suite = {
	.name = "kcsan",
	.test_cases = kcsan_cases,
};
kunit_test_suite(kcsan_suite);
