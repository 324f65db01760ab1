// SPDX-License-Identifier: GPL-2.0
/*
 * Spinlocks: mutual exclusion under contention from every CPU, the irq
 * forms, and (with CONFIG_DEBUG_SPINLOCK) the misuse reports.
 */
#include <kernel.h>
#include <spinlock.h>
#include <printk.h>
#include "helpers.h"

/*
 * The run ends after TOTAL_LOOPS acquisitions or RUN_MSECS, whichever comes
 * first (stress= multiplies both): a ticket lock hands over in FIFO order,
 * so with 8 emulated CPUs on a 2-core host nearly every handover waits for
 * the host to schedule the next ticket's vCPU, and a fixed count would
 * take a minute.
 */
#define TOTAL_LOOPS	40000
#define RUN_MSECS	1000

static DEFINE_SPINLOCK(test_lock);
static unsigned long counter;		/* plain: only the lock protects it */
static volatile int inside;
static volatile int overlaps;

struct contender {
	int loops;		/* at most this many acquisitions */
	bool irq;		/* use the irqsave form */
	unsigned long deadline;	/* jiffies */
	unsigned long done;	/* acquisitions made, counted outside the lock */
};

static void contend_once(bool irq)
{
	unsigned long flags = 0;

	if (irq)
		spin_lock_irqsave(&test_lock, flags);
	else
		spin_lock(&test_lock);
	if (inside)
		overlaps++;
	inside = 1;
	counter = counter + 1;
	inside = 0;
	if (irq)
		spin_unlock_irqrestore(&test_lock, flags);
	else
		spin_unlock(&test_lock);
}

static int contend(void *arg)
{
	struct contender *c = arg;

	/* at least once each, so that every worker really contends */
	do {
		contend_once(c->irq);
		c->done++;
	} while (c->done < (unsigned long)c->loops &&
		 time_before(jiffies, c->deadline));
	return 0;
}

static void mutual_exclusion(struct kunit *test)
{
	static struct contender c[MAX_WORKERS];
	struct workers w;
	int n = min(num_online_cpus() * 2, MAX_WORKERS);
	unsigned long deadline = jiffies +
		msecs_to_jiffies(RUN_MSECS * stress_factor);
	unsigned long sum = 0;

	counter = 0;
	overlaps = 0;
	for (int i = 0; i < n; i++) {
		c[i] = (struct contender) {
			.loops = TOTAL_LOOPS * stress_factor / n,
			.irq = i & 1,
			.deadline = deadline,
		};
	}
	KUNIT_ASSERT_EQ(test, workers_start(&w, n, contend, c, sizeof(c[0]),
					    true, "spin"), n);
	workers_join(&w);
	for (int i = 0; i < n; i++)
		sum += c[i].done;
	kunit_info(test, "%lu acquisitions by %d workers", sum, n);
	KUNIT_EXPECT_EQ(test, counter, sum);
	KUNIT_EXPECT_EQ(test, overlaps, 0);
}

static void trylock_and_state(struct kunit *test)
{
	spinlock_t l;

	spin_lock_init(&l);
	KUNIT_EXPECT_TRUE(test, spin_trylock(&l));
	/* a UP lock has state only in the debug build */
#if defined(CONFIG_SMP) || defined(CONFIG_DEBUG_SPINLOCK)
	KUNIT_EXPECT_TRUE(test, spin_is_locked(&l));
	KUNIT_EXPECT_FALSE(test, spin_trylock(&l));
#endif
	KUNIT_EXPECT_NE(test, preempt_count(), 0);
	spin_unlock(&l);
	KUNIT_EXPECT_FALSE(test, spin_is_locked(&l));
	KUNIT_EXPECT_EQ(test, preempt_count(), 0);
}

static void irq_forms(struct kunit *test)
{
	unsigned long flags;

	spin_lock_irq(&test_lock);
	KUNIT_EXPECT_TRUE(test, irqs_disabled());
	spin_unlock_irq(&test_lock);
	KUNIT_EXPECT_FALSE(test, irqs_disabled());

	local_irq_disable();
	spin_lock_irqsave(&test_lock, flags);
	spin_unlock_irqrestore(&test_lock, flags);
	/* restore must not turn interrupts on that were off before */
	KUNIT_EXPECT_TRUE(test, irqs_disabled());
	local_irq_enable();
}

#ifdef CONFIG_DEBUG_SPINLOCK
static void debug_recursion_reported(struct kunit *test)
{
	unsigned long before = spin_debug_stats.recursion;
	unsigned long pos = printk_log_pos();
	DEFINE_SPINLOCK(l);

	kunit_expect_reports(test);
	spin_lock(&l);
	spin_lock(&l);		/* reported, not taken */
	spin_unlock(&l);
	KUNIT_EXPECT_EQ(test, spin_debug_stats.recursion, before + 1);
	KUNIT_EXPECT_TRUE(test, printk_log_find(pos, "BUG: spinlock recursion"));
	KUNIT_EXPECT_FALSE(test, spin_is_locked(&l));
	KUNIT_EXPECT_EQ(test, preempt_count(), 0);
}

static void debug_bad_unlock_reported(struct kunit *test)
{
	unsigned long before = spin_debug_stats.bad_unlock;
	unsigned long pos = printk_log_pos();
	DEFINE_SPINLOCK(l);

	kunit_expect_reports(test);
	spin_unlock(&l);	/* never locked */
	KUNIT_EXPECT_EQ(test, spin_debug_stats.bad_unlock, before + 1);
	KUNIT_EXPECT_TRUE(test, printk_log_find(pos, "already unlocked"));
	KUNIT_EXPECT_EQ(test, preempt_count(), 0);
}

static DEFINE_SPINLOCK(held_long);
static volatile int holding;

static int hold_for_300ms(void *unused)
{
	spin_lock(&held_long);
	holding = 1;
	mdelay(300);		/* interrupts stay on: the IPI can get in */
	spin_unlock(&held_long);
	return 0;
}

/* Spinning past the limit is reported, with the owner CPU's backtrace. */
static void debug_lockup_reported(struct kunit *test)
{
	unsigned long before = spin_debug_stats.lockup;
	unsigned long pos = printk_log_pos();
	u64 saved = spin_lockup_ns;
	struct task_struct *t;

	kunit_expect_reports(test);
	if (num_online_cpus() < 2)
		kunit_skip(test, "needs two CPUs");
	holding = 0;
	t = kthread_create(hold_for_300ms, NULL, "holder");
	KUNIT_ASSERT_NOT_NULL(test, t);
	kthread_bind(t, 1);
	wake_up_process(t);
	while (!holding)
		msleep_poll(1);
	spin_lockup_ns = 50 * NSEC_PER_MSEC;
	spin_lock(&held_long);		/* spins until the holder is done */
	spin_unlock(&held_long);
	spin_lockup_ns = saved;
	kthread_join(t);
	KUNIT_EXPECT_EQ(test, spin_debug_stats.lockup, before + 1);
	KUNIT_EXPECT_TRUE(test, printk_log_find(pos, "lockup suspected"));
	/* the owner CPU prints its own backtrace, in its IPI handler */
	for (int i = 0; i < 100 && !printk_log_find(pos, "Backtrace of CPU 1");
	     i++)
		msleep(10);
	KUNIT_EXPECT_TRUE(test, printk_log_find(pos, "Backtrace of CPU 1"));
}

static void debug_clean_use_not_reported(struct kunit *test)
{
	struct spin_debug_stats before = spin_debug_stats;
	DEFINE_SPINLOCK(l);

	for (int i = 0; i < 100; i++) {
		spin_lock(&l);
		spin_unlock(&l);
	}
	KUNIT_EXPECT_EQ(test, spin_debug_stats.recursion, before.recursion);
	KUNIT_EXPECT_EQ(test, spin_debug_stats.bad_unlock, before.bad_unlock);
	KUNIT_EXPECT_EQ(test, spin_debug_stats.bad_magic, before.bad_magic);
}
#else
static void debug_recursion_reported(struct kunit *test)
{
	kunit_skip(test, "needs CONFIG_DEBUG_SPINLOCK");
}

static void debug_bad_unlock_reported(struct kunit *test)
{
	kunit_skip(test, "needs CONFIG_DEBUG_SPINLOCK");
}

static void debug_clean_use_not_reported(struct kunit *test)
{
	kunit_skip(test, "needs CONFIG_DEBUG_SPINLOCK");
}

static void debug_lockup_reported(struct kunit *test)
{
	kunit_skip(test, "needs CONFIG_DEBUG_SPINLOCK");
}
#endif

static struct kunit_case spinlock_cases[] = {
	KUNIT_CASE(mutual_exclusion),
	KUNIT_CASE(trylock_and_state),
	KUNIT_CASE(irq_forms),
	KUNIT_CASE(debug_recursion_reported),
	KUNIT_CASE(debug_bad_unlock_reported),
	KUNIT_CASE(debug_lockup_reported),
	KUNIT_CASE(debug_clean_use_not_reported),
	{}
};

static struct kunit_suite spinlock_suite = {
	.name = "spinlock",
	.test_cases = spinlock_cases,
};
kunit_test_suite(spinlock_suite);
