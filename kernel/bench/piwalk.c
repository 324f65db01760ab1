// SPDX-License-Identifier: GPL-2.0
/*
 * bench=piwalk: how long the rt-mutex's chain walk keeps interrupts off.
 *
 * rt_mutex_lock() of a held lock follows the chain of owners twice under
 * pi_lock with interrupts off before it sleeps: the deadlock check, then
 * the boost, which changes every priority on the way. The chain may be
 * max_lock_depth + 1 = 1025 owners long. docs/scheduler.md says why
 * MutexOS accepts that; this measures what it costs.
 *
 * A chain of N tasks (FIFO PW_LINK_PRIO): task k owns lock k and waits
 * for lock k + 1, the last one owns lock N - 1 and sleeps. The driver
 * (FIFO PW_DRIVER_PRIO) wakes a blocker (FIFO PW_BLOCKER_PRIO) bound to
 * its CPU; the blocker preempts it, notes the time and blocks on lock 0,
 * walking and boosting all N owners; the driver runs again once the
 * blocker has switched out, and notes the time. The difference is the
 * walk with interrupts off, plus one rt_mutex_lock() call and one
 * context switch, which the one-owner chain measures alone.
 */
#include <kernel.h>
#include <sched.h>
#include <kthread.h>
#include <time.h>
#include <timer.h>
#include <mm.h>
#include <sort.h>
#include <completion.h>
#include <rtmutex.h>
#include <bench.h>

#define PW_LINK_PRIO		10
#define PW_DRIVER_PRIO		80
#define PW_BLOCKER_PRIO		90
#define PW_ROUNDS		5
#define PW_WAIT_SECS		10
#define PW_CPU			0	/* the driver's and the blocker's */

/* The chain lengths measured: one owner, then up to the longest allowed. */
static const unsigned int pw_lengths[] = { 1, 16, 128, 1025 };

struct piwalk;

struct pw_link {
	struct piwalk *pw;
	struct task_struct *task;
	struct rt_mutex lock;		/* owned by task */
};

struct piwalk {
	unsigned int n;
	struct pw_link *links;
	struct completion took;		/* a link owns its lock */
	struct completion release;	/* the last link may unlock */
	struct task_struct *blocker;
	u64 t0;				/* when the blocker called the lock */
};

static int link_fn(void *arg)
{
	struct pw_link *l = arg;
	struct piwalk *pw = l->pw;

	rt_mutex_lock(&l->lock);
	complete(&pw->took);
	if (l + 1 < pw->links + pw->n) {
		rt_mutex_lock(&l[1].lock);
		rt_mutex_unlock(&l[1].lock);
	} else {
		wait_for_completion(&pw->release);
	}
	rt_mutex_unlock(&l->lock);
	return 0;
}

static int blocker_fn(void *arg)
{
	struct piwalk *pw = arg;

	WRITE_ONCE(pw->t0, ktime_get_ns());
	rt_mutex_lock(&pw->links[0].lock);
	rt_mutex_unlock(&pw->links[0].lock);
	return 0;
}

/* Every link but the last is asleep in rt_mutex_lock() of the next. */
static bool chain_formed(struct piwalk *pw)
{
	for (unsigned int k = 0; k + 1 < pw->n; k++)
		if (!rt_mutex_blocked_on(pw->links[k].task))
			return false;
	return true;
}

static bool wait_chain_formed(struct piwalk *pw)
{
	unsigned long end = jiffies + PW_WAIT_SECS * HZ;

	while (!chain_formed(pw))
		if (time_after(jiffies, end))
			return false;
		else
			msleep(1);
	return true;
}

/* The links from the last one down, each owning its lock before the next. */
static int make_chain(struct piwalk *pw)
{
	for (unsigned int k = pw->n; k-- > 0;) {
		struct pw_link *l = &pw->links[k];

		l->pw = pw;
		rt_mutex_init(&l->lock);
		l->task = kthread_create_sched(link_fn, l, SCHED_FIFO,
					       PW_LINK_PRIO, -1, "piwalk");
		if (!l->task)
			return -ENOMEM;
		wake_up_process(l->task);
		wait_for_completion(&pw->took);
	}
	return wait_chain_formed(pw) ? 0 : -ETIMEDOUT;
}

/* Unwinds the chain from its end and reaps every task made. */
static void end_chain(struct piwalk *pw)
{
	complete(&pw->release);
	if (pw->blocker)
		kthread_join(pw->blocker);
	for (unsigned int k = pw->n; k-- > 0;)
		if (pw->links[k].task)
			kthread_join(pw->links[k].task);
}

/* One walk through n owners: its time in ns, or a negative errno. */
static s64 walk_once(unsigned int n)
{
	struct piwalk *pw = kzalloc(sizeof(*pw));
	s64 ret = -ENOMEM;

	if (!pw)
		return ret;
	pw->n = n;
	init_completion(&pw->took);
	init_completion(&pw->release);
	pw->links = kzalloc(n * sizeof(*pw->links));
	if (!pw->links)
		goto out;
	ret = make_chain(pw);
	if (ret)
		goto end;
	ret = -ENOMEM;
	pw->blocker = kthread_create_sched(blocker_fn, pw, SCHED_FIFO,
					   PW_BLOCKER_PRIO, PW_CPU,
					   "piwalk-blocker");
	if (!pw->blocker)
		goto end;
	wake_up_process(pw->blocker);	/* preempts us until it sleeps */
	ret = ktime_get_ns() - READ_ONCE(pw->t0);
	if (!rt_mutex_blocked_on(pw->blocker))
		ret = -EINVAL;		/* we ran before it blocked */
end:
	end_chain(pw);
out:
	kfree(pw->links);
	kfree(pw);
	return ret;
}

static int cmp_s64(const void *a, const void *b)
{
	s64 x = *(const s64 *)a, y = *(const s64 *)b;

	return x < y ? -1 : x > y;
}

/* The driver, bound to one CPU: PW_ROUNDS walks of each length. */
static int driver_fn(void *arg)
{
	struct piwalk_result *r = arg;

	for (size_t i = 0; i < ARRAY_SIZE(pw_lengths); i++) {
		s64 ns[PW_ROUNDS];

		for (int k = 0; k < PW_ROUNDS; k++) {
			ns[k] = walk_once(pw_lengths[i]);
			if (ns[k] < 0)
				return ns[k];
		}
		sort(ns, PW_ROUNDS, sizeof(ns[0]), cmp_s64, NULL);
		r->length[i] = pw_lengths[i];
		r->min_ns[i] = ns[0];
		r->median_ns[i] = ns[PW_ROUNDS / 2];
		r->max_ns[i] = ns[PW_ROUNDS - 1];
	}
	return 0;
}

int piwalk_run(struct piwalk_result *r)
{
	struct task_struct *driver;

	_Static_assert(ARRAY_SIZE(pw_lengths) == PIWALK_LENGTHS,
		       "a result for each length");
	driver = kthread_create_sched(driver_fn, r, SCHED_FIFO, PW_DRIVER_PRIO,
				      PW_CPU, "piwalk-driver");
	if (!driver)
		return -ENOMEM;
	wake_up_process(driver);
	return kthread_join(driver);
}

void piwalk_report(const struct piwalk_result *r)
{
	unsigned int last = PIWALK_LENGTHS - 1;
	u64 extra = r->median_ns[last] - min(r->median_ns[last], r->median_ns[0]);

	for (unsigned int i = 0; i < PIWALK_LENGTHS; i++)
		printk("bench: piwalk owners=%u rounds=%u min_ns=%llu "
		       "median_ns=%llu max_ns=%llu\n", r->length[i], PW_ROUNDS,
		       r->min_ns[i], r->median_ns[i], r->max_ns[i]);
	printk("bench: piwalk-owner owners=%u ns_per_owner=%llu\n",
	       r->length[last], extra / (r->length[last] - r->length[0]));
}
