// SPDX-License-Identifier: GPL-2.0
/*
 * demo: lock scenarios to provoke from the console, each in tasks of its
 * own, so that the shell stays usable while they last.
 *
 *   chain N	N tasks in a cycle: task i holds mutex i and waits for
 *		mutex i + 1 (mod N). aa is a chain of 1 (a task that locks
 *		its own mutex again), abba a chain of 2. The debug build
 *		reports the deadlock as the last task closes the cycle. The
 *		tasks stay deadlocked, for ps, locks and SysRq d to show,
 *		until "demo stop": they wait interruptibly, and a signal
 *		makes each give up and release what it holds.
 *   interrupt	a timer callback, in hard interrupt context, takes a
 *		mutex, which the mutex rules forbid: the debug build refuses
 *		and reports it, the others let it happen.
 *   starve	a waiter against a task that takes the lock again at once
 *		after each release: an unlock wakes the waiter but does not
 *		hand it the lock, so it competes again, and keeps losing.
 *   inversion	the Mars Pathfinder scenario (include/inversion.h), once
 *		on the plain mutex and once on the rt-mutex: how long the
 *		high task waited for the low one's lock each time.
 *   race	two tasks on two CPUs increment one counter, first with no
 *		lock (increments are lost; the race detector, CONFIG_KCSAN,
 *		reports the data race), then under a spinlock (the sum is
 *		right, and nothing is reported).
 *   ww		the AB-BA pair three ways: on plain mutexes, deadlocked
 *		(the debug build detects it; a signal then ends it); one
 *		order then the other, one after the other, which the
 *		validator (CONFIG_PROVE_LOCKING) proves could deadlock; and
 *		on ww_mutexes, where both finish by backing off.
 *
 * A report that a demo provokes is framed as expected, as a test case's
 * is (report_mark_start()): it was asked for.
 */
#include <kernel.h>
#include <string.h>
#include <kthread.h>
#include <mutex.h>
#include <kcsan.h>
#include <atomic.h>
#include <smp.h>
#include <spinlock.h>
#include <lockdep.h>
#include <mm.h>
#include <time.h>
#include <timer.h>
#include <inversion.h>
#include <ww_mutex.h>
#include "shell.h"

#define CHAIN_MAX	16
/* How long a demo task may take to get where it should: only a hang
 * takes longer. */
#define SETUP_SECS	30
#define STARVE_SECS	3

/*
 * Each link is a class of its own for the lock-order validator, so that
 * a chain is reported as the cycle it is, not as recursion in one class.
 */
static const char *const link_keys[CHAIN_MAX] = {
	LOCKDEP_KEY(demo.A), LOCKDEP_KEY(demo.B), LOCKDEP_KEY(demo.C),
	LOCKDEP_KEY(demo.D), LOCKDEP_KEY(demo.E), LOCKDEP_KEY(demo.F),
	LOCKDEP_KEY(demo.G), LOCKDEP_KEY(demo.H), LOCKDEP_KEY(demo.I),
	LOCKDEP_KEY(demo.J), LOCKDEP_KEY(demo.K), LOCKDEP_KEY(demo.L),
	LOCKDEP_KEY(demo.M), LOCKDEP_KEY(demo.N), LOCKDEP_KEY(demo.O),
	LOCKDEP_KEY(demo.P),
};

static const char *const link_names[CHAIN_MAX] = {
	"demo.A", "demo.B", "demo.C", "demo.D", "demo.E", "demo.F",
	"demo.G", "demo.H", "demo.I", "demo.J", "demo.K", "demo.L",
	"demo.M", "demo.N", "demo.O", "demo.P",
};

struct chain;

struct chain_link {
	struct mutex lock;
	struct completion go;		/* now wait for the next mutex */
	struct task_struct *task;
	struct chain *chain;
	int index;
};

struct chain {
	struct list_head node;		/* on live_chains */
	int n;
	atomic_t holding;		/* tasks holding their own mutex */
	struct chain_link links[CHAIN_MAX];
};

/* Only the shell's task starts and stops chains: no lock needed. */
static LIST_HEAD(live_chains);

static int chain_task(void *data)
{
	struct chain_link *l = data;
	struct chain *c = l->chain;
	struct mutex *next = &c->links[(l->index + 1) % c->n].lock;

	mutex_lock(&l->lock);
	atomic_inc(&c->holding);
	wait_for_completion(&l->go);
	/* Never granted while the cycle stands: a signal ends the wait. */
	if (!mutex_lock_interruptible(next))
		mutex_unlock(next);
	mutex_unlock(&l->lock);
	return 0;
}

/*
 * Polls cond(arg) every 10 ms for SETUP_SECS at most; false when it never
 * came true or Ctrl-C came first.
 */
static bool wait_until(bool (*cond)(void *arg), void *arg)
{
	for (int i = 0; i < SETUP_SECS * 100; i++) {
		if (cond(arg))
			return true;
		if (msleep_interruptible(10))
			return false;
	}
	return cond(arg);
}

static bool all_holding(void *arg)
{
	struct chain *c = arg;

	return atomic_read(&c->holding) == c->n;
}

/* Asleep for good in its mutex wait, the only interruptible one. */
static bool blocked(void *arg)
{
	struct task_struct *p = arg;

	return READ_ONCE(p->state) == TASK_INTERRUPTIBLE &&
	       !READ_ONCE(p->on_rq);
}

/*
 * A signal to every task, then every go: a task that had not got its go
 * yet takes it now, and its interruptible wait gives up at once.
 */
static void chain_stop(struct chain *c)
{
	for (int i = 0; i < c->n; i++)
		if (c->links[i].task)
			send_sig(SIGINT, c->links[i].task, 0);
	for (int i = 0; i < c->n; i++)
		complete(&c->links[i].go);
	for (int i = 0; i < c->n; i++)
		if (c->links[i].task)
			kthread_join(c->links[i].task);
	list_del(&c->node);
	kfree(c);
}

static bool chain_spawn(struct chain *c)
{
	for (int i = 0; i < c->n; i++) {
		struct chain_link *l = &c->links[i];

		l->chain = c;
		l->index = i;
		__mutex_init(&l->lock, link_names[i], link_keys[i]);
		init_completion(&l->go);
	}
	for (int i = 0; i < c->n; i++) {
		c->links[i].task = kthread_run(chain_task, &c->links[i],
					       "demo-%c", 'A' + i);
		if (!c->links[i].task)
			return false;
	}
	return wait_until(all_holding, c);
}

/* Let the tasks block one by one; the last one closes the cycle. */
static bool chain_close(struct chain *c)
{
	bool ok = true;

	WRITE_ONCE(reports_expected, 1);
	for (int i = 0; i < c->n && ok; i++) {
		complete(&c->links[i].go);
		ok = wait_until(blocked, c->links[i].task);
	}
	WRITE_ONCE(reports_expected, 0);
	return ok;
}

static void chain_explain(struct chain *c)
{
	char last = 'A' + c->n - 1;

	if (c->n == 1)
		printk("demo: 1 task deadlocked: demo-A holds demo.A and waits "
		       "to take it again.\n");
	else
		printk("demo: %d tasks deadlocked: each of demo-A..demo-%c "
		       "holds its mutex (demo.A..demo.%c) and waits for the "
		       "next one's, demo-%c for demo.A.\n", c->n, last, last,
		       last);
#ifdef CONFIG_DEBUG_MUTEXES
	printk("demo: ps, locks and SysRq d show it; 'demo stop' ends it.\n");
#else
	printk("demo: no report: only the debug build (MUTEX=debug) detects "
	       "deadlocks and tracks owners. ps shows the tasks asleep; "
	       "'demo stop' ends it.\n");
#endif
}

static void chain_start(int n)
{
	struct chain *c = kzalloc(sizeof(*c));

	if (!c) {
		printk("demo: out of memory\n");
		return;
	}
	c->n = n;
	list_add(&c->node, &live_chains);
	if (!chain_spawn(c) || !chain_close(c)) {
		printk("demo: interrupted or stuck while starting: "
		       "ending it\n");
		chain_stop(c);
		return;
	}
	chain_explain(c);
}

static void demo_stop(void)
{
	int chains = 0;

	while (!list_empty(&live_chains)) {
		chain_stop(list_first_entry(&live_chains, struct chain, node));
		chains++;
	}
	printk("demo: %d deadlock%s ended\n", chains, chains == 1 ? "" : "s");
}

/* ---- a mutex in interrupt context ---- */

static DEFINE_MUTEX(irq_demo_lock);
static struct timer_list irq_demo_timer;
static DECLARE_COMPLETION(irq_demo_done);
static int irq_demo_taken;

static void irq_demo_fn(struct timer_list *t)
{
	irq_demo_taken = mutex_trylock(&irq_demo_lock);
	if (irq_demo_taken)
		mutex_unlock(&irq_demo_lock);
	complete(&irq_demo_done);
}

static void demo_interrupt(void)
{
	reinit_completion(&irq_demo_done);
	timer_setup(&irq_demo_timer, irq_demo_fn, 0);
	WRITE_ONCE(reports_expected, 1);
	mod_timer(&irq_demo_timer, jiffies + 1);
	if (wait_for_completion_interruptible(&irq_demo_done)) {
		del_timer_sync(&irq_demo_timer);
		WRITE_ONCE(reports_expected, 0);
		return;
	}
	WRITE_ONCE(reports_expected, 0);
	if (irq_demo_taken)
		printk("demo: a timer interrupt took and released a mutex, "
		       "and nothing stopped it: only the debug build "
		       "(MUTEX=debug) checks the context.\n");
	else
		printk("demo: the debug build refused the mutex in interrupt "
		       "context (the report above).\n");
}

/* ---- a waiter starved by a task that retakes the lock at once ---- */

struct starve {
	struct mutex lock;
	bool stop;
	unsigned long hog_rounds;	/* the hog's lock/unlock pairs */
	unsigned long blocked;		/* the waiter's sleeps in mutex_lock */
	unsigned long rounds_waited;	/* hog rounds while it waited */
	u64 waited_ns;
	struct completion got_it;
};

static int starve_hog(void *data)
{
	struct starve *s = data;

	while (!READ_ONCE(s->stop)) {
		mutex_lock(&s->lock);
		WRITE_ONCE(s->hog_rounds, s->hog_rounds + 1);
		udelay(50);	/* the critical section */
		mutex_unlock(&s->lock);
		/* and straight back in: no gap for the woken waiter */
	}
	return 0;
}

static int starve_waiter(void *data)
{
	struct starve *s = data;
	unsigned long switches, rounds;
	u64 start;

	msleep(20);		/* let the hog get going */
	switches = current->nvcsw;
	rounds = READ_ONCE(s->hog_rounds);
	start = ktime_get_ns();
	mutex_lock(&s->lock);
	s->waited_ns = ktime_get_ns() - start;
	s->rounds_waited = READ_ONCE(s->hog_rounds) - rounds;
	/* Each voluntary switch in mutex_lock() was one sleep there. */
	s->blocked = current->nvcsw - switches;
	mutex_unlock(&s->lock);
	complete(&s->got_it);
	return 0;
}

static void starve_explain(struct starve *s, bool in_time)
{
	printk("demo: the waiter blocked %lu times and waited %llu ms, while "
	       "the hog took the lock %lu times.\n", s->blocked,
	       s->waited_ns / NSEC_PER_MSEC, s->rounds_waited);
	if (!in_time)
		printk("demo: it got the lock only when the hog stopped, after "
		       "%d s.\n", STARVE_SECS);
	printk("demo: an unlock wakes the first waiter but does not hand it "
	       "the lock: it must win it again, against a task that never "
	       "lets go for long.\n");
}

static void demo_starve(void)
{
	struct starve *s = kzalloc(sizeof(*s));
	struct task_struct *hog, *waiter;
	long left;

	if (!s) {
		printk("demo: out of memory\n");
		return;
	}
	mutex_init(&s->lock);
	init_completion(&s->got_it);
	hog = kthread_run(starve_hog, s, "demo-hog");
	waiter = hog ? kthread_run(starve_waiter, s, "demo-waiter") : NULL;
	left = waiter ? wait_for_completion_interruptible_timeout(&s->got_it,
						STARVE_SECS * HZ) : -ENOMEM;
	WRITE_ONCE(s->stop, true);
	if (hog)
		kthread_join(hog);
	if (waiter)
		kthread_join(waiter);
	if (left == -ENOMEM)
		printk("demo: out of memory\n");
	else if (left >= 0)
		starve_explain(s, left > 0);
	kfree(s);
}

/* ---- two CPUs, one counter: without a lock, then with one ---- */

#define RACE_INCREMENTS	1000000

struct race_demo {
	unsigned long counter;	/* plain: only the lock may protect it */
	bool locked;
	bool stop;
	atomic_t finished;	/* tasks done */
	atomic_t attempted;	/* increments the tasks made, lost or not */
	spinlock_t lock;
};

/* A function of its own, so that the report names it. */
static noinline void race_demo_increment(struct race_demo *r)
{
	r->counter++;
}

static int race_demo_task(void *data)
{
	struct race_demo *r = data;

	long i;

	for (i = 0; i < RACE_INCREMENTS && !READ_ONCE(r->stop); i++) {
		if (r->locked)
			spin_lock(&r->lock);
		race_demo_increment(r);
		if (r->locked)
			spin_unlock(&r->lock);
	}
	atomic_add(i, &r->attempted);
	atomic_inc(&r->finished);
	return 0;
}

#ifdef CONFIG_KCSAN
static unsigned long races_seen(void)
{
	return READ_ONCE(kcsan_races_seen);
}
#else
static unsigned long races_seen(void)
{
	return 0;
}
#endif

/*
 * One round: a task bound to each of CPU 0 and 1, RACE_INCREMENTS each.
 * Without the lock it ends at the first race reported, to keep the
 * report alone on screen.
 * Returns the races seen, or -1 if the tasks could not start.
 */
static long race_round(struct race_demo *r, bool locked)
{
	unsigned long seen = races_seen();
	struct task_struct *t[2];
	int started = 0;

	r->counter = 0;
	r->locked = locked;
	r->stop = false;
	atomic_set(&r->finished, 0);
	atomic_set(&r->attempted, 0);
	for (; started < 2; started++) {
		t[started] = kthread_create(race_demo_task, r, "demo-race/%d",
					    started);
		if (!t[started])
			break;
		kthread_bind(t[started], started);
	}
	for (int i = 0; i < started; i++)
		wake_up_process(t[i]);
	while (started == 2 && atomic_read(&r->finished) < 2 &&
	       (locked || races_seen() == seen))
		msleep(10);
	WRITE_ONCE(r->stop, true);
	for (int i = 0; i < started; i++)
		kthread_join(t[i]);
	return started == 2 ? (long)(races_seen() - seen) : -1;
}

/*
 * The race detector ends the unlocked round early, so the counter is
 * read against the increments made, not against 2 * RACE_INCREMENTS.
 */
static void race_explain(struct race_demo *r, bool locked, long races)
{
	unsigned long attempted = atomic_read(&r->attempted);

	printk("demo: %s: %lu increments made, the counter reached %lu: "
	       "%lu lost%s; %ld data race%s seen.\n",
	       locked ? "with the spinlock" : "without a lock", attempted,
	       r->counter, attempted - r->counter,
	       locked || attempted == 2 * RACE_INCREMENTS ? "" :
	       " (stopped at the first race seen)", races,
	       races == 1 ? "" : "s");
}

static void demo_race(void)
{
	struct race_demo *r = kzalloc(sizeof(*r));
	long races;

	if (num_online_cpus() < 2 || !r) {
		printk("demo: %s\n", r ? "a race needs two CPUs" :
		       "out of memory");
		kfree(r);
		return;
	}
	spin_lock_init(&r->lock);
	WRITE_ONCE(reports_expected, 1);
	races = race_round(r, false);
	WRITE_ONCE(reports_expected, 0);
	if (races >= 0) {
		race_explain(r, false, races);
		races = race_round(r, true);
	}
	if (races >= 0)
		race_explain(r, true, races);
	else
		printk("demo: could not start the tasks\n");
#ifndef CONFIG_KCSAN
	printk("demo: only the race detector's build (CONF=\"CONFIG_KCSAN=y\") "
	       "reports the race itself.\n");
#endif
	kfree(r);
}

/* ---- priority inversion: the mutex, then the rt-mutex ---- */

/* The medium tasks' work: half a second, to stand out from the rest. */
#define INVERSION_MEDIUM_TICKS	(HZ / 2)

static void demo_inversion(void)
{
	static const char *const lock_name[] = { "mutex", "rt-mutex" };
	struct inversion_result r;
	bool high_first[2];	/* high got the lock before the medium task ended */

	printk("demo: low (FIFO 10) holds the lock, high (FIFO 30) waits for "
	       "it, a medium task (FIFO 20) per CPU runs %u ms.\n",
	       jiffies_to_msecs(INVERSION_MEDIUM_TICKS));
	for (int rt = 0; rt <= 1; rt++) {
		int ret = inversion_run(rt, INVERSION_MEDIUM_TICKS, &r);

		if (ret) {
			printk("demo: the %s run failed (%d)\n", lock_name[rt],
			       ret);
			return;
		}
		high_first[rt] = r.order[INV_HIGH_LOCKED] < r.order[INV_MEDIUM_DONE];
		printk("demo: %-8s: high waited %llu ms, and got the lock %s "
		       "the medium task on low's CPU ended\n", lock_name[rt],
		       r.high_wait_ns / NSEC_PER_MSEC,
		       high_first[rt] ? "before" : "after");
	}
	/* Say only what this run showed: lab 10's stub lends nothing. */
	if (!high_first[0])
		printk("demo: the mutex left low below the medium task.\n");
	printk(high_first[1] ?
	       "demo: the rt-mutex lent low high's priority until it unlocked.\n" :
	       "demo: the rt-mutex did not lend low high's priority: high "
	       "waited for the medium task as on the mutex.\n");
}

/* ---- AB-BA three ways: detected, proven, avoided ---- */

#ifdef CONFIG_DEBUG_MUTEXES
static unsigned long detector_reports(void)
{
	return mutex_debug_reports[MUTEX_BUG_CIRCULAR];
}
#else
static unsigned long detector_reports(void)
{
	return 0;
}
#endif

/*
 * The second round's classes, fresh at each run: the validator reports
 * a dependency once, and a demo run again should show it again.
 */
static const char order_keys[2][24] = {
	"demo.X (demo ww)", "demo.Y (demo ww)",
};

#ifdef CONFIG_PROVE_LOCKING
static unsigned long validator_reports(void)
{
	return lockdep_reports[LOCKDEP_BUG_CIRCULAR];
}

static void forget_order(void)
{
	lockdep_reset_keys(order_keys, sizeof(order_keys));
}
#else
static unsigned long validator_reports(void)
{
	return 0;
}

static void forget_order(void)
{
}
#endif

static void say_detected(unsigned long detected)
{
#ifdef CONFIG_DEBUG_MUTEXES
	printk("demo:   the deadlock detector reported %lu deadlock%s.\n",
	       detected, detected == 1 ? "" : "s");
#else
	printk("demo:   no deadlock report: only the debug build "
	       "(MUTEX=debug) detects deadlocks.\n");
#endif
}

static void say_reports(unsigned long detected, unsigned long proven)
{
	say_detected(detected);
#ifdef CONFIG_PROVE_LOCKING
	printk("demo:   the validator reported %lu possible circular "
	       "locking dependenc%s.\n", proven, proven == 1 ? "y" : "ies");
#else
	printk("demo:   no validator report: only the validator's build "
	       "(MUTEX=debug CONF=\"CONFIG_PROVE_LOCKING=y\") proves it.\n");
#endif
}

/* Round 1: the chain of two, deadlocked, then ended by a signal. */
static bool ww_demo_deadlock(void)
{
	unsigned long detected = detector_reports();
	unsigned long proven = validator_reports();
	struct chain *c = kzalloc(sizeof(*c));
	bool ok;

	if (!c) {
		printk("demo: out of memory\n");
		return false;
	}
	c->n = 2;
	list_add(&c->node, &live_chains);
	ok = chain_spawn(c) && chain_close(c);
	if (ok)
		printk("demo: 1. mutexes: demo-A holds demo.A and waits for "
		       "demo.B, demo-B holds demo.B and waits for demo.A: "
		       "both asleep, deadlocked.\n");
	else
		printk("demo: 1. mutexes: interrupted or stuck while "
		       "starting.\n");
	say_reports(detector_reports() - detected,
		    validator_reports() - proven);
	chain_stop(c);
	if (ok)
		printk("demo:   a signal to each ended their waits: both "
		       "gave up.\n");
	return ok;
}

struct order_task {
	struct mutex *first, *second;
};

static int order_fn(void *data)
{
	struct order_task *o = data;

	mutex_lock(o->first);
	mutex_lock(o->second);
	mutex_unlock(o->second);
	mutex_unlock(o->first);
	return 0;
}

/* Runs one task taking first then second, to its end. */
static bool order_run(struct mutex *first, struct mutex *second,
		      const char *name)
{
	struct order_task o = { first, second };
	struct task_struct *t = kthread_run(order_fn, &o, name);

	if (!t)
		return false;
	kthread_join(t);
	return true;
}

/* Round 2: A then B, and later B then A: no deadlock, a proof of one. */
static bool ww_demo_order(void)
{
	static struct mutex x, y;
	unsigned long detected = detector_reports();
	unsigned long proven;
	bool ok;

	forget_order();
	__mutex_init(&x, "demo.X", order_keys[0]);
	__mutex_init(&y, "demo.Y", order_keys[1]);
	proven = validator_reports();
	WRITE_ONCE(reports_expected, 1);
	ok = order_run(&x, &y, "demo-A") && order_run(&y, &x, "demo-B");
	WRITE_ONCE(reports_expected, 0);
	if (!ok) {
		printk("demo: 2. could not start the tasks\n");
		return false;
	}
	printk("demo: 2. mutexes, one task at a time: demo-A took demo.X "
	       "then demo.Y, then demo-B took demo.Y then demo.X: no "
	       "deadlock, both finished.\n");
	say_reports(detector_reports() - detected,
		    validator_reports() - proven);
	return true;
}

static DEFINE_WD_CLASS(demo_wait_die);
static DEFINE_WW_CLASS(demo_wound_wait);

struct ww_demo {
	struct ww_class *ww_class;
	struct ww_mutex locks[2];
	atomic_t holding;	/* tasks holding their first lock */
	atomic_t finished;
	struct ww_demo_task {
		struct ww_demo *w;
		struct ww_mutex *order[2];
		int backoffs;
	} task[2];
};

static bool ww_holding(struct ww_demo *w, int n)
{
	return atomic_read(&w->holding) >= n;
}

static bool one_holding(void *arg)
{
	return ww_holding(arg, 1);
}

static bool both_finished(void *arg)
{
	struct ww_demo *w = arg;

	return atomic_read(&w->finished) == 2;
}

/*
 * Takes its first lock, waits until the other task holds its own, then
 * both with the back-off loop: the AB-BA pair every time.
 */
static int ww_demo_fn(void *data)
{
	struct ww_demo_task *t = data;
	struct ww_demo *w = t->w;
	struct ww_acquire_ctx ctx;

	ww_acquire_init(&ctx, w->ww_class);
	ww_mutex_lock(t->order[0], &ctx);
	atomic_inc(&w->holding);
	while (!ww_holding(w, 2))
		msleep(1);
	t->backoffs = ww_lock_all(t->order, 2, &ctx);
	ww_acquire_done(&ctx);
	ww_mutex_unlock(t->order[1]);
	ww_mutex_unlock(t->order[0]);
	ww_acquire_fini(&ctx);
	atomic_inc(&w->finished);
	return 0;
}

/*
 * demo-A starts first, so its context is the older one. Tasks that do
 * not finish are left, with their memory: a ww_mutex bug, not a demo's.
 */
static bool ww_demo_pair(struct ww_demo *w)
{
	struct task_struct *t[2] = { NULL, NULL };

	for (int i = 0; i < 2; i++) {
		w->task[i].w = w;
		w->task[i].order[0] = &w->locks[i];
		w->task[i].order[1] = &w->locks[1 - i];
	}
	t[0] = kthread_run(ww_demo_fn, &w->task[0], "demo-A");
	if (t[0] && wait_until(one_holding, w))
		t[1] = kthread_run(ww_demo_fn, &w->task[1], "demo-B");
	if (!t[1] || !wait_until(both_finished, w))
		return false;
	kthread_join(t[0]);
	kthread_join(t[1]);
	return true;
}

/* Round 3, once per algorithm: both tasks finish, by backing off. */
static bool ww_demo_avoid(struct ww_class *ww_class, const char *algorithm)
{
	unsigned long detected = detector_reports();
	struct ww_demo *w = kzalloc(sizeof(*w));

	if (!w) {
		printk("demo: out of memory\n");
		return false;
	}
	w->ww_class = ww_class;
	ww_mutex_init(&w->locks[0], ww_class);
	ww_mutex_init(&w->locks[1], ww_class);
	if (!ww_demo_pair(w)) {
		printk("demo: 3. ww_mutex (%s): the tasks did not finish "
		       "within %d s, or Ctrl-C came.\n", algorithm,
		       SETUP_SECS);
		return false;
	}
	printk("demo: 3. ww_mutex (%s): demo-A holds A and wants B, demo-B "
	       "holds B and wants A: both finished; demo-A (older) backed "
	       "off %d time%s, demo-B (younger) %d time%s.\n", algorithm,
	       w->task[0].backoffs, w->task[0].backoffs == 1 ? "" : "s",
	       w->task[1].backoffs, w->task[1].backoffs == 1 ? "" : "s");
	say_detected(detector_reports() - detected);
	kfree(w);
	return true;
}

static void demo_ww(void)
{
	if (ww_demo_deadlock() && ww_demo_order() &&
	    ww_demo_avoid(&demo_wait_die, "wait-die"))
		ww_demo_avoid(&demo_wound_wait, "wound-wait");
}

static void demo_usage(void)
{
	printk("usage: demo aa | abba | chain N (1..%d) | interrupt | starve "
	       "| inversion | race | ww | stop\n", CHAIN_MAX);
}

void shell_demo(int argc, char **argv)
{
	const char *what = argc > 1 ? argv[1] : "";
	unsigned long n;
	char *end;

	if (argc == 2 && !strcmp(what, "aa")) {
		chain_start(1);
	} else if (argc == 2 && !strcmp(what, "abba")) {
		chain_start(2);
	} else if (argc == 3 && !strcmp(what, "chain")) {
		n = simple_strtoul(argv[2], &end, 10);
		if (*end || n < 1 || n > CHAIN_MAX)
			demo_usage();
		else
			chain_start(n);
	} else if (argc == 2 && !strcmp(what, "interrupt")) {
		demo_interrupt();
	} else if (argc == 2 && !strcmp(what, "starve")) {
		demo_starve();
	} else if (argc == 2 && !strcmp(what, "inversion")) {
		demo_inversion();
	} else if (argc == 2 && !strcmp(what, "race")) {
		demo_race();
	} else if (argc == 2 && !strcmp(what, "ww")) {
		demo_ww();
	} else if (argc == 2 && !strcmp(what, "stop")) {
		demo_stop();
	} else {
		demo_usage();
	}
}
