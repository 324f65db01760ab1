// SPDX-License-Identifier: GPL-2.0
/*
 * The rt-mutex: priority-ordered waiters, the owner boosted to its top
 * waiter and back on unlock, boosts carried along chains of owners and
 * taken back when a waiter leaves or changes priority, deadlocks refused,
 * and priority inversion itself, against the plain mutex. The cases
 * check priorities and the order of events, never durations.
 */
#include <kernel.h>
#include <sched.h>
#include <rtmutex.h>
#include <mutex.h>
#include <inversion.h>
#include "helpers.h"

#define RT_WAIT_SECS	30
/* The prio a FIFO task of rt_priority n runs at. */
#define FIFO_PRIO(n)	(MAX_RT_PRIO - 1 - (n))

static struct order_log log;

/*
 * Locks a task holds together need classes of their own, or the
 * validator (CONFIG_PROVE_LOCKING) sees one class taken inside itself.
 */
#define CHAIN_MAX	8

static const char *const chain_keys[CHAIN_MAX] = {
	LOCKDEP_KEY(chain0), LOCKDEP_KEY(chain1), LOCKDEP_KEY(chain2),
	LOCKDEP_KEY(chain3), LOCKDEP_KEY(chain4), LOCKDEP_KEY(chain5),
	LOCKDEP_KEY(chain6), LOCKDEP_KEY(chain7),
};

static void init_distinct(struct rt_mutex *m, int n)
{
	for (int i = 0; i < n; i++)
		__rt_mutex_init(&m[i], "chain", chain_keys[i]);
}

struct locker {
	struct rt_mutex *lock;		/* taken second, and waited for */
	struct rt_mutex *held;		/* taken first, if any */
	int id;
	int ret;			/* what the lock call returned */
	bool interruptible;
};

/* Takes held (if any), then lock; logs its id once it has both. */
static int locker_fn(void *arg)
{
	struct locker *l = arg;

	if (l->held)
		rt_mutex_lock(l->held);
	if (l->interruptible)
		l->ret = rt_mutex_lock_interruptible(l->lock);
	else
		rt_mutex_lock(l->lock);
	if (!l->ret) {
		order_log_add(&log, l->id);
		rt_mutex_unlock(l->lock);
	}
	if (l->held)
		rt_mutex_unlock(l->held);
	return 0;
}

/* Starts a FIFO locker and waits until it sleeps, blocked. */
static struct task_struct *block_locker(struct kunit *test, struct locker *l,
					int fifo)
{
	struct task_struct *t = kthread_create_sched(locker_fn, l, SCHED_FIFO,
						  fifo, -1, "rt-locker");

	if (!t)
		return NULL;
	wake_up_process(t);
	if (!wait_for_sleep(t, l->interruptible ? TASK_INTERRUPTIBLE :
			    TASK_UNINTERRUPTIBLE, RT_WAIT_SECS))
		KUNIT_FAIL(test, "locker %d never blocked", l->id);
	return t;
}

static void api_contract(struct kunit *test)
{
	DEFINE_RT_MUTEX(m);

	KUNIT_EXPECT_FALSE(test, rt_mutex_is_locked(&m));
	KUNIT_ASSERT_EQ(test, rt_mutex_trylock(&m), 1);
	KUNIT_EXPECT_TRUE(test, rt_mutex_is_locked(&m));
	KUNIT_EXPECT_PTR_EQ(test, m.owner, current);
	KUNIT_EXPECT_EQ(test, rt_mutex_trylock(&m), 0);
	rt_mutex_unlock(&m);
	KUNIT_EXPECT_FALSE(test, rt_mutex_is_locked(&m));
	rt_mutex_lock(&m);
	KUNIT_EXPECT_PTR_EQ(test, m.owner, current);
	rt_mutex_unlock(&m);
	KUNIT_EXPECT_EQ(test, rt_mutex_lock_interruptible(&m), 0);
	rt_mutex_unlock(&m);
	KUNIT_EXPECT_FALSE(test, rt_mutex_is_locked(&m));
}

/* Waiters of 10, 30, 20, 30, 10 get the lock as 30, 30, 20, 10, 10. */
static void waiters_by_priority_fifo_among_equals(struct kunit *test)
{
	static const int fifo[] = { 10, 30, 20, 30, 10 };
	static const int want[] = { 1, 3, 2, 0, 4 };
	struct locker l[ARRAY_SIZE(fifo)] = {};
	struct task_struct *t[ARRAY_SIZE(fifo)];
	DEFINE_RT_MUTEX(m);

	order_log_init(&log);
	rt_mutex_lock(&m);
	for (int i = 0; i < (int)ARRAY_SIZE(fifo); i++) {
		l[i] = (struct locker){ .lock = &m, .id = i };
		t[i] = block_locker(test, &l[i], fifo[i]);
		KUNIT_ASSERT_NOT_NULL(test, t[i]);
	}
	rt_mutex_unlock(&m);
	for (int i = 0; i < (int)ARRAY_SIZE(fifo); i++)
		KUNIT_EXPECT_EQ(test, kthread_join(t[i]), 0);
	KUNIT_ASSERT_EQ(test, atomic_read(&log.n), (int)ARRAY_SIZE(fifo));
	for (int i = 0; i < (int)ARRAY_SIZE(fifo); i++)
		KUNIT_EXPECT_EQ(test, log.ev[i], want[i]);
}

/* The case (SCHED_NORMAL) owns m; FIFO 30 waits: the case runs at 30. */
static void donation_from_one_waiter(struct kunit *test)
{
	struct locker l = {};
	struct task_struct *t;
	DEFINE_RT_MUTEX(m);

	order_log_init(&log);
	rt_mutex_lock(&m);
	l = (struct locker){ .lock = &m, .id = 1 };
	t = block_locker(test, &l, 30);
	KUNIT_ASSERT_NOT_NULL(test, t);
	KUNIT_EXPECT_EQ(test, current->prio, FIFO_PRIO(30));
	KUNIT_EXPECT_EQ(test, current->normal_prio, current->static_prio);
	rt_mutex_unlock(&m);
	KUNIT_EXPECT_EQ(test, current->prio, current->normal_prio);
	KUNIT_EXPECT_EQ(test, kthread_join(t), 0);
	KUNIT_EXPECT_EQ(test, order_log_find(&log, 1), 0);
}

/*
 * Three locks, a waiter of 10, 30 and 20 on each: the owner runs at 30,
 * then at 20, 10 and its own as it releases the 30's, 20's, 10's lock.
 */
static void donation_from_several(struct kunit *test)
{
	static const int fifo[] = { 10, 30, 20 };
	static const int release[] = { 1, 2, 0 };
	static const int after[] = { FIFO_PRIO(20), FIFO_PRIO(10), -1 };
	struct rt_mutex m[3];
	struct locker l[3];
	struct task_struct *t[3];

	init_distinct(m, 3);
	/* Downwards, the order chain_boost()'s tasks take them in. */
	for (int i = 2; i >= 0; i--)
		rt_mutex_lock(&m[i]);
	for (int i = 0; i < 3; i++) {
		l[i] = (struct locker){ .lock = &m[i], .id = i };
		t[i] = block_locker(test, &l[i], fifo[i]);
		KUNIT_ASSERT_NOT_NULL(test, t[i]);
	}
	KUNIT_EXPECT_EQ(test, current->prio, FIFO_PRIO(30));
	for (int i = 0; i < 3; i++) {
		rt_mutex_unlock(&m[release[i]]);
		KUNIT_EXPECT_EQ(test, current->prio,
				after[i] < 0 ? current->normal_prio : after[i]);
	}
	for (int i = 0; i < 3; i++)
		KUNIT_EXPECT_EQ(test, kthread_join(t[i]), 0);
}

/*
 * A chain: the case owns m[0]; task k (FIFO 10 k) owns m[k] and waits for
 * m[k-1]. Each new link boosts every owner below it to its priority.
 */
static void chain_boost(struct kunit *test, int n)
{
	struct rt_mutex m[CHAIN_MAX];
	struct locker l[CHAIN_MAX];
	struct task_struct *t[CHAIN_MAX];

	order_log_init(&log);
	init_distinct(m, n);
	rt_mutex_lock(&m[0]);
	for (int k = 1; k < n; k++) {
		l[k] = (struct locker){ .held = &m[k], .lock = &m[k - 1],
					.id = k };
		t[k] = block_locker(test, &l[k], 10 * k);
		KUNIT_ASSERT_NOT_NULL(test, t[k]);
		KUNIT_EXPECT_EQ(test, current->prio, FIFO_PRIO(10 * k));
		for (int j = 1; j < k; j++)
			KUNIT_EXPECT_EQ(test, t[j]->prio, FIFO_PRIO(10 * k));
	}
	rt_mutex_unlock(&m[0]);
	KUNIT_EXPECT_EQ(test, current->prio, current->normal_prio);
	for (int k = 1; k < n; k++)
		KUNIT_EXPECT_EQ(test, kthread_join(t[k]), 0);
	/* Each link got its lock once the one below it let go. */
	for (int k = 1; k < n; k++)
		KUNIT_EXPECT_EQ(test, order_log_find(&log, k), k - 1);
}

static void chain_of_3(struct kunit *test)
{
	chain_boost(test, 3);
}

static void chain_of_8(struct kunit *test)
{
	chain_boost(test, CHAIN_MAX);
}

/*
 * The case owns m0; A (FIFO 10) owns m1 and waits for m0; B (FIFO 30)
 * waits for m1, interruptibly. A signal takes B out: A and the case go
 * back to 10, through the chain.
 */
static void donation_lowered_when_waiter_leaves_on_signal(struct kunit *test)
{
	struct locker a, b;
	struct task_struct *ta, *tb;
	DEFINE_RT_MUTEX(m0);
	DEFINE_RT_MUTEX(m1);

	order_log_init(&log);
	rt_mutex_lock(&m0);
	a = (struct locker){ .held = &m1, .lock = &m0, .id = 1 };
	ta = block_locker(test, &a, 10);
	KUNIT_ASSERT_NOT_NULL(test, ta);
	b = (struct locker){ .lock = &m1, .id = 2, .interruptible = true };
	tb = block_locker(test, &b, 30);
	KUNIT_ASSERT_NOT_NULL(test, tb);
	KUNIT_EXPECT_EQ(test, current->prio, FIFO_PRIO(30));
	KUNIT_EXPECT_EQ(test, ta->prio, FIFO_PRIO(30));
	send_sig(SIGINT, tb, 0);
	KUNIT_EXPECT_EQ(test, kthread_join(tb), 0);
	KUNIT_EXPECT_EQ(test, b.ret, -EINTR);
	KUNIT_EXPECT_EQ(test, ta->prio, FIFO_PRIO(10));
	KUNIT_EXPECT_EQ(test, current->prio, FIFO_PRIO(10));
	rt_mutex_unlock(&m0);
	KUNIT_EXPECT_EQ(test, kthread_join(ta), 0);
	KUNIT_EXPECT_EQ(test, order_log_find(&log, 2), -1);
	KUNIT_EXPECT_EQ(test, current->prio, current->normal_prio);
}

/*
 * The case owns m0; A owns m1, waits for m0; W waits for m1. W raised
 * from 10 to 40 carries 40 to A and the case; the case's own policy,
 * set to FIFO 20 meanwhile, neither lowers the boost nor outlives it.
 */
static void priority_changed_while_boosted(struct kunit *test)
{
	struct sched_param sp = { .sched_priority = 40 };
	struct locker a, w;
	struct task_struct *ta, *tw;
	DEFINE_RT_MUTEX(m0);
	DEFINE_RT_MUTEX(m1);

	rt_mutex_lock(&m0);
	a = (struct locker){ .held = &m1, .lock = &m0, .id = 1 };
	ta = block_locker(test, &a, 5);
	KUNIT_ASSERT_NOT_NULL(test, ta);
	w = (struct locker){ .lock = &m1, .id = 2 };
	tw = block_locker(test, &w, 10);
	KUNIT_ASSERT_NOT_NULL(test, tw);
	KUNIT_EXPECT_EQ(test, current->prio, FIFO_PRIO(10));
	KUNIT_ASSERT_EQ(test, sched_setscheduler(tw, SCHED_FIFO, &sp), 0);
	KUNIT_EXPECT_EQ(test, ta->prio, FIFO_PRIO(40));
	KUNIT_EXPECT_EQ(test, current->prio, FIFO_PRIO(40));
	sp.sched_priority = 20;
	KUNIT_ASSERT_EQ(test, sched_setscheduler(current, SCHED_FIFO, &sp), 0);
	KUNIT_EXPECT_EQ(test, current->prio, FIFO_PRIO(40));
	rt_mutex_unlock(&m0);
	KUNIT_EXPECT_EQ(test, current->prio, FIFO_PRIO(20));
	sp.sched_priority = 0;
	sched_setscheduler(current, SCHED_NORMAL, &sp);
	KUNIT_EXPECT_EQ(test, current->prio, current->static_prio);
	KUNIT_EXPECT_EQ(test, kthread_join(ta), 0);
	KUNIT_EXPECT_EQ(test, kthread_join(tw), 0);
}

/*
 * The case owns m; W (30) and Y (10) wait, W on top. W lowered to 5
 * gives the top to Y: the case runs at 10, and W leaves the case's
 * boosts, so that the unlock leaves the case at its own priority and W
 * boosts only Y, the next owner. A walk that takes the lock's old top
 * after moving W leaves W among the case's boosts: the case stays
 * boosted, and W is then queued in Y's boosts as well.
 */
static void top_waiter_lowered_below_another(struct kunit *test)
{
	struct sched_param sp = { .sched_priority = 5 };
	struct locker w, y;
	struct task_struct *tw, *ty;
	DEFINE_RT_MUTEX(m);

	order_log_init(&log);
	rt_mutex_lock(&m);
	w = (struct locker){ .lock = &m, .id = 1 };
	tw = block_locker(test, &w, 30);
	KUNIT_ASSERT_NOT_NULL(test, tw);
	y = (struct locker){ .lock = &m, .id = 2 };
	ty = block_locker(test, &y, 10);
	KUNIT_ASSERT_NOT_NULL(test, ty);
	KUNIT_EXPECT_EQ(test, current->prio, FIFO_PRIO(30));
	KUNIT_ASSERT_EQ(test, sched_setscheduler(tw, SCHED_FIFO, &sp), 0);
	KUNIT_EXPECT_EQ(test, current->prio, FIFO_PRIO(10));
	rt_mutex_unlock(&m);
	KUNIT_EXPECT_EQ(test, current->prio, current->normal_prio);
	KUNIT_EXPECT_EQ(test, kthread_join(ty), 0);
	KUNIT_EXPECT_EQ(test, kthread_join(tw), 0);
	KUNIT_EXPECT_EQ(test, order_log_find(&log, 2), 0);
	KUNIT_EXPECT_EQ(test, order_log_find(&log, 1), 1);
}

/* Locking one's own lock, and A-B against B-A: -EDEADLK, no wait. */
static void deadlock_refused(struct kunit *test)
{
	struct locker a;
	struct task_struct *ta;
	DEFINE_RT_MUTEX(m0);
	DEFINE_RT_MUTEX(m1);

	kunit_expect_reports(test);
	rt_mutex_lock(&m0);
	KUNIT_EXPECT_EQ(test, rt_mutex_lock_interruptible(&m0), -EDEADLK);
	a = (struct locker){ .held = &m1, .lock = &m0, .id = 1 };
	ta = block_locker(test, &a, 10);
	KUNIT_ASSERT_NOT_NULL(test, ta);
	KUNIT_EXPECT_EQ(test, rt_mutex_lock_interruptible(&m1), -EDEADLK);
	KUNIT_EXPECT_PTR_EQ(test, m1.owner, ta);
	rt_mutex_unlock(&m0);
	KUNIT_EXPECT_EQ(test, kthread_join(ta), 0);
	KUNIT_EXPECT_FALSE(test, rt_mutex_is_locked(&m1));
}

/*
 * rt_mutex_lock() of a lock its caller holds never returns: the task
 * sleeps for good, as Linux's does, with nothing queued on the lock or
 * lent to anyone, and the debug build reports the recursion. Another
 * waiter then still boosts the owner, and leaves on a signal, with no
 * chain walk through a dead waiter. The task is left asleep for good:
 * its lock is static for that reason.
 */
static DEFINE_RT_MUTEX(recursive_lock);
static bool recursion_returned;

static int lock_recursively(void *unused)
{
	rt_mutex_lock(&recursive_lock);
	rt_mutex_lock(&recursive_lock);
	WRITE_ONCE(recursion_returned, true);
	/* Came back: stay still, unlocking nothing, for the case to see. */
	for (;;) {
		set_current_state(TASK_UNINTERRUPTIBLE);
		schedule();
	}
	return 0;
}

static void recursion_blocks_for_good(struct kunit *test)
{
	struct locker l = { .lock = &recursive_lock, .id = 1,
			    .interruptible = true };
#ifdef CONFIG_DEBUG_MUTEXES
	unsigned long before = mutex_debug_reports[MUTEX_BUG_RECURSION];
#endif
	struct task_struct *t, *u;

	kunit_expect_reports(test);
	order_log_init(&log);
	t = kthread_create_sched(lock_recursively, NULL, SCHED_FIFO, 10, -1,
				 "rt-recursive");
	KUNIT_ASSERT_NOT_NULL(test, t);
	wake_up_process(t);
	KUNIT_ASSERT_TRUE(test, wait_for_sleep(t, TASK_UNINTERRUPTIBLE,
					       RT_WAIT_SECS));
	KUNIT_EXPECT_PTR_EQ(test, recursive_lock.owner, t);
	KUNIT_EXPECT_TRUE(test, list_empty(&recursive_lock.wait_list));
	KUNIT_EXPECT_TRUE(test, list_empty(&t->pi_waiters));
	KUNIT_EXPECT_NULL(test, t->pi_blocked_on);
#ifdef CONFIG_DEBUG_MUTEXES
	KUNIT_EXPECT_EQ(test, mutex_debug_reports[MUTEX_BUG_RECURSION],
			before + 1);
#endif
	/* A waiter left behind would be walked through below. */
	KUNIT_ASSERT_FALSE(test, READ_ONCE(recursion_returned));
	u = block_locker(test, &l, 20);
	KUNIT_ASSERT_NOT_NULL(test, u);
	KUNIT_EXPECT_EQ(test, t->prio, FIFO_PRIO(20));
	send_sig(SIGINT, u, 0);
	KUNIT_EXPECT_EQ(test, kthread_join(u), 0);
	KUNIT_EXPECT_EQ(test, l.ret, -EINTR);
	KUNIT_EXPECT_EQ(test, t->prio, FIFO_PRIO(10));
	KUNIT_EXPECT_PTR_EQ(test, recursive_lock.owner, t);
}

/* Waits until t has ended or sleeps, blocked; false after RT_WAIT_SECS. */
static bool ended_or_blocked(struct task_struct *t)
{
	unsigned long end = jiffies + RT_WAIT_SECS * HZ;

	while (READ_ONCE(t->state) != EXIT_ZOMBIE &&
	       (READ_ONCE(t->state) != TASK_INTERRUPTIBLE ||
		READ_ONCE(t->on_rq))) {
		if (time_after(jiffies, end))
			return false;
		msleep(1);
	}
	return true;
}

/*
 * With the bound lowered to 1 link, joining a chain of 2 is refused like
 * a deadlock (the debug build says the chain is too long).
 */
static void chain_longer_than_bound_refused(struct kunit *test)
{
	unsigned int saved = max_lock_depth;
	struct rt_mutex m[3];
	struct locker a, b;
	struct task_struct *ta, *tb;

	kunit_expect_reports(test);
	order_log_init(&log);
	init_distinct(m, 3);
	rt_mutex_lock(&m[0]);
	a = (struct locker){ .held = &m[1], .lock = &m[0], .id = 1 };
	ta = block_locker(test, &a, 10);
	KUNIT_ASSERT_NOT_NULL(test, ta);
	b = (struct locker){ .held = &m[2], .lock = &m[1], .id = 2,
			     .interruptible = true };
	tb = kthread_create_sched(locker_fn, &b, SCHED_FIFO, 20, -1,
				  "rt-locker");
	KUNIT_ASSERT_NOT_NULL(test, tb);
	max_lock_depth = 0;
	wake_up_process(tb);
	/* Refused, it ends at once; let in, it waits for m[1]. */
	KUNIT_EXPECT_TRUE(test, ended_or_blocked(tb));
	max_lock_depth = saved;
	KUNIT_EXPECT_EQ(test, b.ret, -EDEADLK);
	rt_mutex_unlock(&m[0]);
	KUNIT_EXPECT_EQ(test, kthread_join(ta), 0);
	KUNIT_EXPECT_EQ(test, kthread_join(tb), 0);
	KUNIT_EXPECT_EQ(test, order_log_find(&log, 2), -1);
}

/* An unlock by a task that does not own the lock is refused. */
static void unlock_by_other_refused(struct kunit *test)
{
	struct locker a;
	struct task_struct *ta;
	DEFINE_RT_MUTEX(m0);
	DEFINE_RT_MUTEX(m1);

	kunit_expect_reports(test);
	rt_mutex_unlock(&m0);
	KUNIT_EXPECT_FALSE(test, rt_mutex_is_locked(&m0));
	rt_mutex_lock(&m0);
	a = (struct locker){ .held = &m1, .lock = &m0, .id = 1 };
	ta = block_locker(test, &a, 10);
	KUNIT_ASSERT_NOT_NULL(test, ta);
	rt_mutex_unlock(&m1);
	KUNIT_EXPECT_PTR_EQ(test, m1.owner, ta);
	rt_mutex_unlock(&m0);
	KUNIT_EXPECT_EQ(test, kthread_join(ta), 0);
}

/*
 * A task that ends holding an rt-mutex, in every build: it is reported,
 * and the lock goes to its waiter as an unlock would give it, so that
 * nothing names the freed task: not the lock's owner, not a waiter's
 * chain walk. (The debug build counts the report.)
 */
struct exit_case {
	struct rt_mutex lock;
	volatile int locked, go;
};

static int lock_and_exit(void *arg)
{
	struct exit_case *e = arg;

	rt_mutex_lock(&e->lock);
	WRITE_ONCE(e->locked, 1);
	wait_for_count(&e->go, 1, RT_WAIT_SECS);
	return 0;
}

static void exit_holding_reported_and_released(struct kunit *test)
{
#ifdef CONFIG_DEBUG_MUTEXES
	unsigned long before = mutex_debug_reports[MUTEX_BUG_EXIT_HELD];
#endif
	struct task_struct *t, *w, *owner;
	struct exit_case e = {};
	struct locker l;

	kunit_expect_reports(test);
	order_log_init(&log);
	rt_mutex_init(&e.lock);
	t = kthread_create_sched(lock_and_exit, &e, SCHED_FIFO, 10, -1,
				 "rt-exit");
	KUNIT_ASSERT_NOT_NULL(test, t);
	wake_up_process(t);
	KUNIT_ASSERT_TRUE(test, wait_for_count(&e.locked, 1, RT_WAIT_SECS));
	l = (struct locker){ .lock = &e.lock, .id = 1 };
	w = block_locker(test, &l, 20);
	KUNIT_ASSERT_NOT_NULL(test, w);
	KUNIT_EXPECT_EQ(test, t->prio, FIFO_PRIO(20));
	WRITE_ONCE(e.go, 1);
	KUNIT_EXPECT_EQ(test, kthread_join(t), 0);
	/* t is freed now: only its address is compared. */
	owner = READ_ONCE(e.lock.owner);
	KUNIT_ASSERT_PTR_NE(test, owner, t);
	KUNIT_EXPECT_EQ(test, kthread_join(w), 0);
	KUNIT_EXPECT_EQ(test, order_log_find(&log, 1), 0);
	KUNIT_EXPECT_FALSE(test, rt_mutex_is_locked(&e.lock));
#ifdef CONFIG_DEBUG_MUTEXES
	KUNIT_EXPECT_EQ(test, mutex_debug_reports[MUTEX_BUG_EXIT_HELD],
			before + 1);
#endif
}

#ifdef CONFIG_DEBUG_MUTEXES
#include <timer.h>

static DEFINE_RT_MUTEX(irq_rt_lock);

struct irq_use {
	struct timer_list timer;
	struct completion done;
	int result;
};

static void irq_trylock_fn(struct timer_list *t)
{
	struct irq_use *u = container_of(t, struct irq_use, timer);

	u->result = rt_mutex_trylock(&irq_rt_lock);	/* in hardirq context */
	complete(&u->done);
}

/* Debug build: a trylock from an interrupt is reported and refused. */
static void use_in_irq_refused(struct kunit *test)
{
	unsigned long before = mutex_debug_reports[MUTEX_BUG_IN_IRQ];
	struct irq_use u = { .result = -1 };

	kunit_expect_reports(test);
	init_completion(&u.done);
	timer_setup(&u.timer, irq_trylock_fn, 0);
	mod_timer(&u.timer, jiffies + 1);
	KUNIT_ASSERT_GT(test, wait_for_completion_timeout(&u.done,
							  RT_WAIT_SECS * HZ), 0);
	KUNIT_EXPECT_EQ(test, u.result, 0);
	KUNIT_EXPECT_FALSE(test, rt_mutex_is_locked(&irq_rt_lock));
	KUNIT_EXPECT_EQ(test, mutex_debug_reports[MUTEX_BUG_IN_IRQ],
			before + 1);
}
#endif

/* A medium task's work: long enough to be seen, the same on every arch. */
#define MEDIUM_TICKS	10

/*
 * The inversion: with the plain mutex the high task gets the lock only
 * after the medium task on the low task's CPU has done its work; with the
 * rt-mutex, before that task even started. Each run's three events must
 * come in exactly the order given.
 */
static void expect_inversion_order(struct kunit *test, bool rt,
				   const enum inversion_event *order)
{
	struct inversion_result r;

	KUNIT_ASSERT_EQ(test, inversion_run(rt, MEDIUM_TICKS, &r), 0);
	for (int i = 0; i < INV_NR; i++)
		KUNIT_EXPECT_EQ(test, r.order[order[i]], i);
}

static void inversion_with_mutex(struct kunit *test)
{
	static const enum inversion_event order[INV_NR] = {
		INV_MEDIUM_DONE, INV_LOW_UNLOCKED, INV_HIGH_LOCKED,
	};

	expect_inversion_order(test, false, order);
}

static void inversion_with_rt_mutex(struct kunit *test)
{
	static const enum inversion_event order[INV_NR] = {
		INV_LOW_UNLOCKED, INV_HIGH_LOCKED, INV_MEDIUM_DONE,
	};

	expect_inversion_order(test, true, order);
}

static struct kunit_case rtmutex_cases[] = {
	KUNIT_CASE(api_contract),
	KUNIT_CASE(waiters_by_priority_fifo_among_equals),
	KUNIT_CASE(donation_from_one_waiter),
	KUNIT_CASE(donation_from_several),
	KUNIT_CASE(chain_of_3),
	KUNIT_CASE(chain_of_8),
	KUNIT_CASE(donation_lowered_when_waiter_leaves_on_signal),
	KUNIT_CASE(priority_changed_while_boosted),
	KUNIT_CASE(top_waiter_lowered_below_another),
	KUNIT_CASE(deadlock_refused),
	KUNIT_CASE(recursion_blocks_for_good),
	KUNIT_CASE(chain_longer_than_bound_refused),
	KUNIT_CASE(unlock_by_other_refused),
	KUNIT_CASE(exit_holding_reported_and_released),
#ifdef CONFIG_DEBUG_MUTEXES
	KUNIT_CASE(use_in_irq_refused),
#endif
	KUNIT_CASE(inversion_with_mutex),
	KUNIT_CASE(inversion_with_rt_mutex),
	{}
};

static struct kunit_suite rtmutex_suite = {
	.name = "rtmutex",
	.test_cases = rtmutex_cases,
};
kunit_test_suite(rtmutex_suite);
