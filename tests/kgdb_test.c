// SPDX-License-Identifier: GPL-2.0
/*
 * Cases the gdb check drives through the stub (kgdb.py, booted with
 * kgdbwait), each skipped at once without it. The check sets a case's
 * variable to CHECK_HERE before the tests start, and RELEASE to end it.
 *
 * cpu0_irqs_off: CPU 0 stuck with interrupts off, the very deadlock one
 * most wants to look at. At SPIN a thread bound to CPU 0 spins with
 * interrupts off; gdb breaks in (another CPU's tick takes the break) and
 * lists that thread.
 *
 * reports_at_once: booted with kgdb.on_bug=1, every CPU warns at the same
 * moment once the check says GO (= SPIN); gdb must see one stop for
 * each report, none lost to the CPU that held the stub first.
 *
 * watched_by_gdb: a variable written on CPU 0, then on CPU 1, read, and
 * written after a call, while gdb watches it (watch, rwatch, hbreak,
 * awatch): each stop must name the writer's thread and the old and new
 * value. The check sets its watchpoints while CPU 0 or 1 is parked.
 * Then a function CPU 1 calls 40 times, storing its argument, while CPU 0
 * holds the stub's port again and again, as a tick does: gdb's hbreak
 * on it and then its watch on the store must stop at each, none lost.
 *
 * spinners_while_stopped: gdb stops the kernel at a call made with a
 * spinlock held on CPU 0 while CPU 1 spins on that lock, first with
 * interrupts on (the stop parks it), then off (it misses the stop and
 * spins on through it). gdb keeps the kernel stopped for longer than
 * the lowered lockup limit: the stop is gdb's time, not a lockup, and
 * must not be reported as one. CPU 0 keeps the lock a moment after the
 * stop, so that the spinner's clock is looked at once the stop is over.
 * A third round parks CPU 1 only after it has seen the stop begin: its
 * next look at kgdb_stopped_since(), after the stop, must report one.
 *
 * unmask_stepped: CPU 0, with a tick waiting behind its masked
 * interrupts, turns them back on at kgdb_test_unmask_at, where gdb steps
 * that one instruction (cpsie i, csrs sstatus, sti): the tick must not
 * run inside the stepi (jiffies, which CPU 0's tick counts, stays).
 *
 * busy_until_released: the kernel keeps running, taking a mutex on every
 * CPU, until the check has sent its last break. A break must find the
 * kernel running; were the run to end meanwhile, nobody would answer
 * it, however well the stub works.
 */
#include <kernel.h>
#include <errno.h>
#include <irqflags.h>
#include <kgdb.h>
#include <mutex.h>
#include <sched.h>
#include <smp.h>
#include <spinlock.h>
#include "helpers.h"

enum { CHECK_HERE = 1, SPIN, RELEASE };

#define ASK_WAIT_SECS	300	/* for the check to ask: its rounds come first */
#define SPIN_LIMIT_NS	(300 * NSEC_PER_SEC)	/* a check that never lets go */

volatile int kgdb_test_spin;	/* written by the gdb check through the stub */

static int spin_irqs_off(void *unused)
{
	u64 end = ktime_get_ns() + SPIN_LIMIT_NS;
	unsigned long flags;

	local_irq_save(flags);
	printk("kgdb_test: CPU %u spins with interrupts off\n",
	       smp_processor_id());
	while (READ_ONCE(kgdb_test_spin) < RELEASE && ktime_get_ns() < end)
		cpu_relax();
	local_irq_restore(flags);
	return READ_ONCE(kgdb_test_spin) < RELEASE ? -ETIMEDOUT : 0;
}

static void cpu0_irqs_off(struct kunit *test)
{
	struct task_struct *t;

	if (!READ_ONCE(kgdb_test_spin))
		kunit_skip(test, "for the gdb check, which sets kgdb_test_spin at kgdbwait");
	KUNIT_ASSERT_TRUE(test, num_online_cpus() >= 2);
	KUNIT_ASSERT_TRUE(test, wait_for_host(&kgdb_test_spin, SPIN,
					       ASK_WAIT_SECS));
	t = kthread_create(spin_irqs_off, NULL, "kgdb-spin");
	KUNIT_ASSERT_NOT_NULL(test, t);
	kthread_bind(t, 0);
	wake_up_process(t);
	KUNIT_EXPECT_EQ(test, kthread_join(t), 0);
}

volatile int kgdb_test_reports;	/* written by the gdb check through the stub */

struct reporters {
	atomic_t ready;		/* reporters at the starting line */
	unsigned int n;
};

/*
 * With interrupts off, the first stop's IPI cannot park a reporter
 * half-way through its report: each traps at its report's end while
 * that stop holds the stub, the moment a stop could be lost.
 */
static int report_now(void *arg)
{
	struct reporters *r = arg;
	unsigned long flags;

	atomic_inc(&r->ready);
	while (atomic_read(&r->ready) < (int)r->n)
		cpu_relax();
	local_irq_save(flags);
	WARN_ON(1);	/* the report gdb must stop at */
	local_irq_restore(flags);
	return 0;
}

static void reports_at_once(struct kunit *test)
{
	static struct reporters r;
	struct task_struct *t[NR_CPUS];
	unsigned int cpu, i;

	if (!READ_ONCE(kgdb_test_reports))
		kunit_skip(test, "for the gdb check, which sets kgdb_test_reports at kgdbwait");
	KUNIT_ASSERT_TRUE(test, wait_for_host(&kgdb_test_reports, SPIN,
					       ASK_WAIT_SECS));
	kunit_expect_reports(test);
	atomic_set(&r.ready, 0);
	r.n = 0;
	for (cpu = 0; cpu < NR_CPUS; cpu++) {
		if (!cpu_online(cpu))
			continue;
		t[r.n] = kthread_create(report_now, &r, "kgdb-warn/%u", cpu);
		KUNIT_ASSERT_NOT_NULL(test, t[r.n]);	/* none woken yet */
		kthread_bind(t[r.n++], cpu);
	}
	for (i = 0; i < r.n; i++)
		wake_up_process(t[i]);
	for (i = 0; i < r.n; i++)
		KUNIT_EXPECT_EQ(test, kthread_join(t[i]), 0);
}

volatile int kgdb_test_watch;	/* written by the gdb check through the stub */
int kgdb_test_watched = 41;	/* what gdb watches: 42, 43, then 44 */

/* Where gdb's hbreak goes: a call the compiler keeps. */
noinline void kgdb_test_watch_here(int value)
{
	WRITE_ONCE(kgdb_test_watched, value);
}

static int write_watched(void *value)
{
	WRITE_ONCE(kgdb_test_watched, (int)(long)value);
	return 0;
}

/* Read it, then the call gdb's hbreak stops, which writes one more. */
static int read_then_write(void *unused)
{
	kgdb_test_watch_here(READ_ONCE(kgdb_test_watched) + 1);
	return 0;
}

static int run_on_cpu(unsigned int cpu, int (*fn)(void *), void *arg)
{
	struct task_struct *t = kthread_create(fn, arg, "kgdb-watch/%u", cpu);

	if (!t)
		return -ENOMEM;
	kthread_bind(t, cpu);
	wake_up_process(t);
	return kthread_join(t);
}

/*
 * Where gdb's last breakpoint of the case goes: it must stop at every
 * call, in order, while CPU 0 holds the stub's port over and over as
 * its tick does when it looks for a break from gdb.
 */
#define POLLED_HITS	40

noinline void kgdb_test_polled_hit(int n)
{
	WRITE_ONCE(kgdb_test_watched, n);
}

static int poll_port(void *stop)
{
	unsigned long flags;

	while (!READ_ONCE(*(bool *)stop)) {
		local_irq_save(flags);	/* as at a tick; the IPI gets in between */
		kgdb_poll_break();
		local_irq_restore(flags);
	}
	return 0;
}

static int hit_polled(void *unused)
{
	int n;

	for (n = 1; n <= POLLED_HITS; n++)
		kgdb_test_polled_hit(n);
	return 0;
}

static int hits_while_port_polled(void)
{
	bool stop = false;
	struct task_struct *poller;
	int err;

	poller = kthread_create(poll_port, &stop, "kgdb-poll/0");
	if (!poller)
		return -ENOMEM;
	kthread_bind(poller, 0);
	wake_up_process(poller);
	err = run_on_cpu(1, hit_polled, NULL);
	WRITE_ONCE(stop, true);
	return kthread_join(poller) ?: err;
}

static void watched_by_gdb(struct kunit *test)
{
	if (!READ_ONCE(kgdb_test_watch))
		kunit_skip(test, "for the gdb check, which sets kgdb_test_watch at kgdbwait");
	KUNIT_ASSERT_TRUE(test, num_online_cpus() >= 2);
	KUNIT_EXPECT_EQ(test, run_on_cpu(0, write_watched, (void *)42L), 0);
	KUNIT_EXPECT_EQ(test, run_on_cpu(1, write_watched, (void *)43L), 0);
	KUNIT_EXPECT_EQ(test, run_on_cpu(1, read_then_write, NULL), 0);
	KUNIT_EXPECT_EQ(test, READ_ONCE(kgdb_test_watched), 44);
	KUNIT_EXPECT_EQ(test, hits_while_port_polled(), 0);
	KUNIT_EXPECT_EQ(test, READ_ONCE(kgdb_test_watched), POLLED_HITS);
}

volatile int kgdb_test_spinners;	/* written by the gdb check through the stub */

#ifdef CONFIG_DEBUG_SPINLOCK
/* How CPU 1's task goes through the holder's stop: gdb shows the name. */
enum kgdb_test_spinner {
	SPINNER_PARKED,		/* spins with interrupts on: the IPI parks it */
	SPINNER_MISSES_STOP,	/* spins with interrupts off */
	SPINNER_PARKS_LATE,	/* sees the stop begin, then parks */
	SPINNER_ROUNDS
};
enum kgdb_test_spinner kgdb_test_stopped_round;	/* the holder's last stop */

/*
 * Half gdb's stop (STOP_HELD_SECS in kgdb.py), and far over the hold
 * without one: under TCG on a loaded host a 100 ms mdelay() was seen to
 * take 320 ms, and one over 500 ms.
 */
#define STOPPED_LOCKUP_NS	(1500 * NSEC_PER_MSEC)
#define SPINNER_IN_LOOP_MS	20	/* for it to reach its spin */
/*
 * After the stop, as code stopped anywhere in a critical section goes
 * on: the spinner comes back from the park while the lock is still held.
 */
#define HELD_AFTER_STOP_MS	50
/* For the owner to count the stop and send its IPIs (it waits up to 1 s). */
#define STOP_UNDER_WAY_MS	50

struct stopped_holder {
	spinlock_t lock;
	enum kgdb_test_spinner how;
	volatile bool holding;
	volatile bool spinning;
	volatile bool taken;	/* the spinner got the lock after the stop */
	bool end_seen;		/* SPINNER_PARKS_LATE: the stop's end counted */
};

/* Where gdb's breakpoint goes, with the lock held: a call the compiler keeps. */
noinline void kgdb_test_holder_stops(enum kgdb_test_spinner how)
{
	WRITE_ONCE(kgdb_test_stopped_round, how);
}

static int hold_through_stop(void *arg)
{
	struct stopped_holder *h = arg;

	spin_lock(&h->lock);
	WRITE_ONCE(h->holding, true);
	while (!READ_ONCE(h->spinning))
		cpu_relax();
	mdelay(SPINNER_IN_LOOP_MS);
	kgdb_test_holder_stops(h->how);
	mdelay(HELD_AFTER_STOP_MS);
	spin_unlock(&h->lock);
	return 0;
}

/* The spinner: on CPU 1 once the holder has the lock. */
static void reach_spin(struct stopped_holder *h)
{
	while (!READ_ONCE(h->holding))
		cpu_relax();
	WRITE_ONCE(h->spinning, true);
}

static int spin_through_stop(void *arg)
{
	struct stopped_holder *h = arg;

	reach_spin(h);
	spin_lock(&h->lock);
	h->taken = true;
	spin_unlock(&h->lock);
	return 0;
}

static int spin_irqs_off_through_stop(void *arg)
{
	struct stopped_holder *h = arg;
	unsigned long flags;

	reach_spin(h);
	spin_lock_irqsave(&h->lock, flags);
	h->taken = true;
	spin_unlock_irqrestore(&h->lock, flags);
	return 0;
}

/*
 * What a spinner with interrupts on does when the stop's IPI comes just
 * after its look at kgdb_stopped_since() (on a loaded host, often): it
 * has seen the stop begin, and is parked before its next look. That look,
 * once the stop is over, must still report a stop, or the spinner's
 * clock runs from before the park (a lockup reported by CI at 2 CPUs).
 */
/* Until gdb stops the kernel, or a check that never does is given up. */
static bool wait_for_stop(void)
{
	u64 end = ktime_get_ns() + SPIN_LIMIT_NS;

	while (!kgdb_stopped()) {
		if (ktime_get_ns() > end)
			return false;
		cpu_relax();
	}
	return true;
}

static int park_late_through_stop(void *arg)
{
	struct stopped_holder *h = arg;
	unsigned long stops = 0;
	unsigned long flags;
	bool stopped;

	local_irq_save(flags);
	kgdb_stopped_since(&stops);
	reach_spin(h);
	stopped = wait_for_stop();
	if (stopped) {
		mdelay(STOP_UNDER_WAY_MS);
		kgdb_stopped_since(&stops);
	}
	local_irq_restore(flags);	/* the IPI: parked until gdb continues */
	while (kgdb_stopped())
		cpu_relax();
	h->end_seen = stopped && kgdb_stopped_since(&stops);
	spin_lock(&h->lock);
	h->taken = true;
	spin_unlock(&h->lock);
	return 0;
}

static void spinners_while_stopped(struct kunit *test)
{
	static int (*const spinners[SPINNER_ROUNDS])(void *) = {
		[SPINNER_PARKED] = spin_through_stop,
		[SPINNER_MISSES_STOP] = spin_irqs_off_through_stop,
		[SPINNER_PARKS_LATE] = park_late_through_stop,
	};
	static struct stopped_holder h;
	unsigned long before = spin_debug_stats.lockup;
	u64 saved = spin_lockup_ns;
	enum kgdb_test_spinner how;

	if (!READ_ONCE(kgdb_test_spinners))
		kunit_skip(test, "for the gdb check, which sets kgdb_test_spinners at kgdbwait");
	KUNIT_ASSERT_TRUE(test, num_online_cpus() >= 2);
	spin_lockup_ns = STOPPED_LOCKUP_NS;
	for (how = 0; how < SPINNER_ROUNDS; how++) {
		memset(&h, 0, sizeof(h));
		spin_lock_init(&h.lock);
		h.how = how;
		KUNIT_EXPECT_EQ(test, run_pair(hold_through_stop, spinners[how],
					       &h, "kgdb-lockup"), 0);
		KUNIT_EXPECT_TRUE(test, h.taken);
	}
	/* The last round's: its look after the stop reported one. */
	KUNIT_EXPECT_TRUE(test, h.end_seen);
	spin_lockup_ns = saved;
	KUNIT_EXPECT_EQ(test, spin_debug_stats.lockup, before);
}
#else
static void spinners_while_stopped(struct kunit *test)
{
	kunit_skip(test, "needs CONFIG_DEBUG_SPINLOCK");
}
#endif

volatile int kgdb_test_unmask;	/* written by the gdb check through the stub */

/* Over a tick at HZ=100: one waits when interrupts come back. */
#define TICK_PENDING_MS	30

/* The label marks the unmasking instruction, where gdb's breakpoint goes. */
static noinline __attribute__((noclone)) void unmask_at_label(void)
{
	asm volatile(".globl kgdb_test_unmask_at\nkgdb_test_unmask_at:" ::: "memory");
	arch_local_irq_enable();
}

static int unmask_with_tick_pending(void *unused)
{
	unsigned long flags;

	local_irq_save(flags);
	mdelay(TICK_PENDING_MS);
	unmask_at_label();
	local_irq_restore(flags);
	return 0;
}

static void unmask_stepped(struct kunit *test)
{
	if (!READ_ONCE(kgdb_test_unmask))
		kunit_skip(test, "for the gdb check, which sets kgdb_test_unmask at kgdbwait");
	KUNIT_EXPECT_EQ(test, run_driver(unmask_with_tick_pending, NULL), 0);
}

#define BUSY_LIMIT_SECS	600	/* a check that never lets go */
#define BUSY_HOLD_US	50

volatile int kgdb_test_busy;	/* written by the gdb check through the stub */

struct busy {
	struct mutex lock;
	volatile bool stop;
	int inside;		/* lockers between lock and unlock */
	int overlaps;		/* times two were in there at once */
	unsigned long rounds;
};

static int busy_locker(void *arg)
{
	struct busy *b = arg;

	while (!READ_ONCE(b->stop)) {
		mutex_lock(&b->lock);
		if (b->inside++)
			b->overlaps++;
		udelay(BUSY_HOLD_US);
		b->inside--;
		b->rounds++;
		mutex_unlock(&b->lock);
		if (b->rounds % 64 == 0)
			msleep(1);	/* let the idle task and the ticks in */
	}
	return 0;
}

static void busy_until_released(struct kunit *test)
{
	static struct busy b;
	struct task_struct *t[NR_CPUS];
	unsigned int cpu, n = 0;
	bool released;

	if (!READ_ONCE(kgdb_test_busy))
		kunit_skip(test, "for the gdb check, which sets kgdb_test_busy at kgdbwait");
	memset(&b, 0, sizeof(b));
	mutex_init(&b.lock);
	for (cpu = 0; cpu < NR_CPUS; cpu++) {
		if (!cpu_online(cpu))
			continue;
		t[n] = kthread_create(busy_locker, &b, "kgdb-busy/%u", cpu);
		KUNIT_EXPECT_NOT_NULL(test, t[n]);
		if (!t[n])
			break;	/* the ones started still stop */
		kthread_bind(t[n], cpu);
		wake_up_process(t[n++]);
	}
	printk("kgdb_test: busy on %u CPUs until the gdb check releases them\n", n);
	released = wait_for_host(&kgdb_test_busy, RELEASE, BUSY_LIMIT_SECS);
	b.stop = true;
	while (n--)
		KUNIT_EXPECT_EQ(test, kthread_join(t[n]), 0);
	KUNIT_EXPECT_TRUE(test, released);
	KUNIT_EXPECT_EQ(test, b.overlaps, 0);
	KUNIT_EXPECT_GT(test, b.rounds, 0UL);
}

static struct kunit_case kgdb_cases[] = {
	KUNIT_CASE_SLOW(reports_at_once, ASK_WAIT_SECS + 60),
	KUNIT_CASE_SLOW(cpu0_irqs_off, ASK_WAIT_SECS + 300),
	KUNIT_CASE(watched_by_gdb),
	KUNIT_CASE(spinners_while_stopped),
	KUNIT_CASE(unmask_stepped),
	KUNIT_CASE_SLOW(busy_until_released, BUSY_LIMIT_SECS + 60),
	{}
};

static struct kunit_suite kgdb_suite = {
	.name = "kgdb",
	.test_cases = kgdb_cases,
};
kunit_test_suite(kgdb_suite);
