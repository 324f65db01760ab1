// SPDX-License-Identifier: GPL-2.0
/*
 * The real-time classes: SCHED_FIFO and SCHED_RR beside SCHED_NORMAL.
 * Every case checks an order of events, or counts ticks, never how long
 * something took: a more urgent task woken runs before its waker goes
 * on, on this CPU and on another, through every wake path; equals run
 * first come first served and FIFO ones are never sliced; SCHED_RR ones
 * take turns, preempted or not; a boosted task is scheduled by the
 * priority it runs at, and one made less urgent goes behind its new
 * equals; a nice change is never seen half done; SCHED_NORMAL slices are
 * what docs/scheduler.md says; bad input is refused; a join sleeps
 * until the task it joins is off its CPU for good.
 */
#include <kernel.h>
#include <sched.h>
#include <completion.h>
#include <rtmutex.h>
#include <semaphore.h>
#include <timer.h>
#include <wait.h>
#include "helpers.h"

/* Generous: only a task that never gets its CPU runs into these. */
#define RT_WAIT_SECS	30

static struct order_log rt_log;

static int log_and_exit(void *ev)
{
	order_log_add(&rt_log, (long)ev);
	return 0;
}

/*
 * FIFO 10 on CPU 0 wakes FIFO 20 on CPU 0: the woken task runs inside
 * wake_up_process(), before its waker's next event.
 */
static int waker_fn(void *high)
{
	order_log_add(&rt_log, 1);
	wake_up_process(high);
	order_log_add(&rt_log, 3);
	return 0;
}

static void woken_higher_preempts_at_once(struct kunit *test)
{
	struct task_struct *low, *high;

	order_log_init(&rt_log);
	high = kthread_create_sched(log_and_exit, (void *)2L, SCHED_FIFO, 20, 0,
				 "rt-high");
	KUNIT_ASSERT_NOT_NULL(test, high);
	low = kthread_create_sched(waker_fn, high, SCHED_FIFO, 10, 0, "rt-low");
	KUNIT_ASSERT_NOT_NULL(test, low);
	wake_up_process(low);
	KUNIT_EXPECT_EQ(test, kthread_join(low), 0);
	KUNIT_EXPECT_EQ(test, kthread_join(high), 0);
	KUNIT_EXPECT_EQ(test, order_log_find(&rt_log, 1), 0);
	KUNIT_EXPECT_EQ(test, order_log_find(&rt_log, 2), 1);
	KUNIT_EXPECT_EQ(test, order_log_find(&rt_log, 3), 2);
}

/*
 * The same, through every way a task is woken under a lock or with
 * interrupts off: FIFO 30 sleeps in a primitive on CPU 0, and FIFO 10 on
 * CPU 0 wakes it through that primitive between its events 1 and 3. The
 * woken task must log 2 before its waker's next event, which it can only
 * do if the wake path's unlock (interrupts back on, then preemption)
 * lets it preempt there: else it waits for the next tick.
 */
enum wake_path {
	BY_COMPLETE,
	BY_COMPLETE_ALL,
	BY_WAKE_UP,
	BY_UP,
	UNDER_SPIN_LOCK_IRQ,
	UNDER_SPIN_LOCK_IRQSAVE,
	UNDER_LOCAL_IRQ_SAVE,
};

struct wake_case {
	enum wake_path path;
	struct task_struct *sleeper;
	struct completion done;
	wait_queue_head_t wq;
	struct semaphore sem;
	spinlock_t lock;
	int cond;
};

/* The bare sleep, for the wakeups that a caller's own lock surrounds. */
static void sleep_on_cond(struct wake_case *w)
{
	for (;;) {
		set_current_state(TASK_UNINTERRUPTIBLE);
		if (READ_ONCE(w->cond))
			break;
		schedule();
	}
	__set_current_state(TASK_RUNNING);
}

static void sleep_in_path(struct wake_case *w)
{
	switch (w->path) {
	case BY_COMPLETE:
	case BY_COMPLETE_ALL:
		wait_for_completion(&w->done);
		break;
	case BY_WAKE_UP:
		wait_event(w->wq, READ_ONCE(w->cond));
		break;
	case BY_UP:
		down(&w->sem);
		break;
	default:
		sleep_on_cond(w);
	}
}

static void wake_cond(struct wake_case *w)
{
	WRITE_ONCE(w->cond, 1);
	wake_up_process(w->sleeper);
}

static void wake_by_path(struct wake_case *w)
{
	unsigned long flags;

	switch (w->path) {
	case BY_COMPLETE:
		complete(&w->done);
		break;
	case BY_COMPLETE_ALL:
		complete_all(&w->done);
		break;
	case BY_WAKE_UP:
		WRITE_ONCE(w->cond, 1);
		wake_up(&w->wq);
		break;
	case BY_UP:
		up(&w->sem);
		break;
	case UNDER_SPIN_LOCK_IRQ:
		spin_lock_irq(&w->lock);
		wake_cond(w);
		spin_unlock_irq(&w->lock);
		break;
	case UNDER_SPIN_LOCK_IRQSAVE:
		spin_lock_irqsave(&w->lock, flags);
		wake_cond(w);
		spin_unlock_irqrestore(&w->lock, flags);
		break;
	case UNDER_LOCAL_IRQ_SAVE:
		local_irq_save(flags);
		wake_cond(w);
		local_irq_restore(flags);
		break;
	}
}

static int wake_case_sleeper(void *arg)
{
	struct wake_case *w = arg;

	sleep_in_path(w);
	order_log_add(&rt_log, 2);
	return 0;
}

static int wake_case_waker(void *arg)
{
	struct wake_case *w = arg;

	order_log_add(&rt_log, 1);
	wake_by_path(w);
	order_log_add(&rt_log, 3);
	return 0;
}

static void expect_woken_runs_first(struct kunit *test, enum wake_path path)
{
	struct wake_case w = { .path = path };
	struct task_struct *waker;

	order_log_init(&rt_log);
	init_completion(&w.done);
	init_waitqueue_head(&w.wq);
	sema_init(&w.sem, 0);
	spin_lock_init(&w.lock);
	w.sleeper = kthread_create_sched(wake_case_sleeper, &w, SCHED_FIFO, 30,
					 0, "rt-sleeper");
	KUNIT_ASSERT_NOT_NULL(test, w.sleeper);
	wake_up_process(w.sleeper);
	KUNIT_ASSERT_TRUE(test, wait_for_sleep(w.sleeper, TASK_UNINTERRUPTIBLE,
					       RT_WAIT_SECS));
	waker = kthread_create_sched(wake_case_waker, &w, SCHED_FIFO, 10, 0,
				     "rt-waker");
	KUNIT_ASSERT_NOT_NULL(test, waker);
	wake_up_process(waker);
	KUNIT_EXPECT_EQ(test, kthread_join(waker), 0);
	KUNIT_EXPECT_EQ(test, kthread_join(w.sleeper), 0);
	KUNIT_EXPECT_EQ(test, order_log_find(&rt_log, 1), 0);
	KUNIT_EXPECT_EQ(test, order_log_find(&rt_log, 2), 1);
	KUNIT_EXPECT_EQ(test, order_log_find(&rt_log, 3), 2);
}

#define WAKE_PATH_CASE(name, path)					\
static void name(struct kunit *test)					\
{									\
	expect_woken_runs_first(test, path);				\
}

WAKE_PATH_CASE(woken_by_complete_preempts, BY_COMPLETE)
WAKE_PATH_CASE(woken_by_complete_all_preempts, BY_COMPLETE_ALL)
WAKE_PATH_CASE(woken_by_wake_up_preempts, BY_WAKE_UP)
WAKE_PATH_CASE(woken_by_up_preempts, BY_UP)
WAKE_PATH_CASE(woken_under_spin_lock_irq_preempts, UNDER_SPIN_LOCK_IRQ)
WAKE_PATH_CASE(woken_under_spin_lock_irqsave_preempts, UNDER_SPIN_LOCK_IRQSAVE)
WAKE_PATH_CASE(woken_under_local_irq_save_preempts, UNDER_LOCAL_IRQ_SAVE)

static volatile int spin_stop, high_ran;


/*
 * CPU 1 runs a FIFO 10 spinner, which no tick preempts; FIFO 30, woken
 * from CPU 0 and bound to CPU 1, must take CPU 1 from it (the reschedule
 * IPI) while the spinner still spins.
 */
struct other_cpu {
	struct task_struct *spinner, *high;
	bool ran, spinner_stopped;
};

static int wake_on_other_cpu(void *arg)
{
	struct other_cpu *oc = arg;

	wake_up_process(oc->spinner);
	while (!READ_ONCE(oc->spinner->on_cpu))
		cpu_relax();
	wake_up_process(oc->high);
	oc->ran = spin_for_count(&high_ran, 1, RT_WAIT_SECS);
	oc->spinner_stopped = READ_ONCE(spin_stop);
	WRITE_ONCE(spin_stop, 1);
	return 0;
}

static void woken_higher_preempts_other_cpu(struct kunit *test)
{
	struct other_cpu oc = {};

	if (num_online_cpus() < 2)
		kunit_skip(test, "needs 2 CPUs");
	spin_stop = high_ran = 0;
	/* At FIFO 10 no tick preempts it: only a more urgent task. */
	oc.spinner = kthread_create_sched(spin_until_set, (void *)&spin_stop,
					  SCHED_FIFO, 10, 1, "rt-spin");
	oc.high = kthread_create_sched(set_flag, (void *)&high_ran,
				       SCHED_FIFO, 30, 1, "rt-high");
	KUNIT_ASSERT_NOT_NULL(test, oc.spinner);
	KUNIT_ASSERT_NOT_NULL(test, oc.high);
	KUNIT_EXPECT_EQ(test, run_driver(wake_on_other_cpu, &oc), 0);
	KUNIT_EXPECT_TRUE(test, oc.ran);
	KUNIT_EXPECT_FALSE(test, oc.spinner_stopped);
	KUNIT_EXPECT_EQ(test, kthread_join(oc.spinner), 0);
	KUNIT_EXPECT_EQ(test, kthread_join(oc.high), 0);
}

/*
 * FIFO 30 joins FIFO 10 on CPU 0, and FIFO 10 exits: the join must sleep
 * until the dying task is off its CPU for good. A join that polls for
 * that instead, woken as the end is told, preempts the dying task on its
 * way out and keeps it off the CPU for ever. A timer looks every tick
 * for that state (the end told, the dying task waiting to run, the
 * joiner running), which must never come; should it come, the timer
 * records it and lifts the dying task above the joiner, so that the
 * case ends.
 */
struct join_case {
	struct task_struct *dying, *joiner;
	struct timer_list watch;
	bool stop, spun;
	int code;
};

static int join_the_dying(void *arg)
{
	struct join_case *j = arg;

	j->code = kthread_join(j->dying);
	return 0;
}

/* Under task_list_lock: p is not freed while it is on the list. */
static bool task_listed(struct task_struct *p)
{
	struct task_struct *q;

	list_for_each_entry(q, &task_list, tasks)
		if (q == p)
			return true;
	return false;
}

/* The joiner (alive while the task it reaps is listed) runs, not it. */
static bool join_keeps_dying_off(struct join_case *j)
{
	struct task_struct *d = j->dying;

	return task_listed(d) && completion_done(&d->exited) &&
	       READ_ONCE(d->on_rq) && !READ_ONCE(d->on_cpu) &&
	       READ_ONCE(j->joiner->on_cpu);
}

static void watch_join(struct timer_list *t)
{
	struct join_case *j = container_of(t, struct join_case, watch);
	struct sched_param above = { .sched_priority = 40 };

	if (READ_ONCE(j->stop))
		return;
	/* In an interrupt: a reaper holds the lock only with them off. */
	if (spin_trylock(&task_list_lock)) {
		if (join_keeps_dying_off(j)) {
			j->spun = true;
			sched_setscheduler(j->dying, SCHED_FIFO, &above);
		}
		spin_unlock(&task_list_lock);
	}
	mod_timer(t, jiffies + 1);
}

static void join_sleeps_until_off_cpu(struct kunit *test)
{
	struct join_case j = {};
	struct task_struct *t[3] = {};

	j.dying = kthread_create_sched(log_and_exit, (void *)1L, SCHED_FIFO, 10,
				       0, "rt-dying");
	KUNIT_ASSERT_NOT_NULL(test, j.dying);
	j.joiner = kthread_create_sched(join_the_dying, &j, SCHED_FIFO, 30, 0,
					"rt-joiner");
	KUNIT_ASSERT_NOT_NULL(test, j.joiner);
	order_log_init(&rt_log);
	timer_setup(&j.watch, watch_join, 0);
	mod_timer(&j.watch, jiffies + 1);
	/* The joiner first: it is asleep in the join when the other ends. */
	t[0] = j.joiner;
	t[1] = j.dying;
	KUNIT_EXPECT_EQ(test, run_driver(wake_all, t), 0);
	KUNIT_EXPECT_EQ(test, kthread_join(j.joiner), 0);
	WRITE_ONCE(j.stop, true);
	del_timer_sync(&j.watch);
	KUNIT_EXPECT_FALSE(test, j.spun);
	KUNIT_EXPECT_EQ(test, j.code, 0);
	KUNIT_EXPECT_EQ(test, order_log_find(&rt_log, 1), 0);
}

/*
 * Four FIFO 20 tasks on CPU 0, woken in order by the driver: each runs
 * to its end before the next starts, in wake order, even
 * though each spins over several ticks (a SCHED_NORMAL task would be
 * sliced after 1 to 4).
 */
#define FIFO_TASKS	4
#define FIFO_SPIN_TICKS	5

static int fifo_worker(void *arg)
{
	long id = (long)arg;
	unsigned long end = jiffies + FIFO_SPIN_TICKS;

	order_log_add(&rt_log, id);
	while (time_before(jiffies, end))
		cpu_relax();
	order_log_add(&rt_log, id);
	return 0;
}

static void fifo_among_equals(struct kunit *test)
{
	struct task_struct *t[FIFO_TASKS + 1] = {};

	order_log_init(&rt_log);
	for (long i = 0; i < FIFO_TASKS; i++) {
		t[i] = kthread_create_sched(fifo_worker, (void *)i, SCHED_FIFO,
					 20, 0, "rt-fifo");
		KUNIT_ASSERT_NOT_NULL(test, t[i]);
	}
	KUNIT_EXPECT_EQ(test, run_driver(wake_all, t), 0);
	for (int i = 0; i < FIFO_TASKS; i++)
		KUNIT_EXPECT_EQ(test, kthread_join(t[i]), 0);
	KUNIT_ASSERT_EQ(test, atomic_read(&rt_log.n), 2 * FIFO_TASKS);
	for (int i = 0; i < 2 * FIFO_TASKS; i++)
		KUNIT_EXPECT_EQ(test, rt_log.ev[i], i / 2);
}

/*
 * Two SCHED_RR tasks of one priority on CPU 0, each spinning until it has
 * seen the other run RR_TURNS times: only slice rotation lets either end
 * (as SCHED_FIFO the first would spin to the limit).
 */
#define RR_TURNS	3

static volatile int rr_last, rr_turns[2];

static int rr_worker(void *arg)
{
	long me = (long)arg;
	unsigned long end = jiffies + RT_WAIT_SECS * HZ;

	while (READ_ONCE(rr_turns[me]) < RR_TURNS &&
	       time_before(jiffies, end)) {
		if (READ_ONCE(rr_last) != me) {
			WRITE_ONCE(rr_last, me);
			rr_turns[me]++;
		}
		cpu_relax();
	}
	return 0;
}

static void rr_rotates_equals(struct kunit *test)
{
	struct task_struct *t[3] = {};

	rr_last = -1;
	rr_turns[0] = rr_turns[1] = 0;
	for (long i = 0; i < 2; i++) {
		t[i] = kthread_create_sched(rr_worker, (void *)i, SCHED_RR, 20,
					    0,
					 "rt-rr");
		KUNIT_ASSERT_NOT_NULL(test, t[i]);
	}
	KUNIT_EXPECT_EQ(test, run_driver(wake_all, t), 0);
	KUNIT_EXPECT_EQ(test, kthread_join(t[0]), 0);
	KUNIT_EXPECT_EQ(test, kthread_join(t[1]), 0);
	KUNIT_EXPECT_EQ(test, rr_turns[0], RR_TURNS);
	KUNIT_EXPECT_GE(test, rr_turns[1], RR_TURNS - 1);
}

/*
 * Two RR 20 tasks on CPU 0 again, and a FIFO 30 task there that sleeps a
 * tick at a time and preempts whichever runs. A preempted RR task keeps
 * what is left of its slice, so the two still take turns: the preempter
 * sees which one each of its wakeups switched out (its nivcsw went up),
 * and the same one may not come more than about RR_TIMESLICE times in a
 * row, since each such wakeup came with a tick charged to it. A slice
 * refilled at every return would never run out. The count is the
 * scheduler's, not the RR tasks' own: a host that starves the vCPU can
 * keep them from running a single instruction between two ticks.
 */
#define RR_PREEMPTER_WAKEUPS	(5 * RR_TIMESLICE)
#define RR_STARVED		(3 * RR_TIMESLICE)

struct rr_preempt_case {
	struct task_struct *rr[2];
	unsigned long nivcsw[2];
	int last, in_a_row, most_in_a_row, changes;
	int done;
};

/* 0 or 1: the RR task the wakeup preempted; -1: both were switched. */
static int rr_switched_out(struct rr_preempt_case *c, int *n)
{
	int who = -1;

	*n = 0;
	for (int i = 0; i < 2; i++) {
		unsigned long v = READ_ONCE(c->rr[i]->nivcsw);

		if (v != c->nivcsw[i]) {
			who = (*n)++ ? -1 : i;
			c->nivcsw[i] = v;
		}
	}
	return who;
}

/* One real wakeup of the preempter: counts the same RR task in a row. */
static void rr_count_wakeup(struct rr_preempt_case *c)
{
	int n, who = rr_switched_out(c, &n);

	if (!n)
		return;
	if (who >= 0 && who == c->last) {
		c->in_a_row++;
	} else {
		c->last = who;
		c->in_a_row = 1;
		c->changes++;
	}
	c->most_in_a_row = max(c->most_in_a_row, c->in_a_row);
}

/* Runs on CPU 0 with the RR tasks: nothing here races. */
static int rr_preempter(void *arg)
{
	struct rr_preempt_case *c = arg;

	for (int wakeups = 0; wakeups < RR_PREEMPTER_WAKEUPS &&
			      c->in_a_row <= RR_STARVED;) {
		unsigned long slept = current->nvcsw;

		schedule_timeout_uninterruptible(1);
		/* Woken before it slept: that tick was charged to it. */
		if (current->nvcsw == slept)
			continue;
		rr_count_wakeup(c);
		wakeups++;
	}
	WRITE_ONCE(c->done, 1);
	return 0;
}

static void rr_keeps_its_slice_when_preempted(struct kunit *test)
{
	struct rr_preempt_case c = { .last = -1 };
	struct task_struct *t[4] = {};

	t[0] = kthread_create_sched(rr_preempter, &c, SCHED_FIFO, 30, 0,
				    "rt-preempter");
	KUNIT_ASSERT_NOT_NULL(test, t[0]);
	for (int i = 0; i < 2; i++) {
		c.rr[i] = kthread_create_sched(spin_until_set, &c.done,
					       SCHED_RR, 20, 0, "rt-rr");
		KUNIT_ASSERT_NOT_NULL(test, c.rr[i]);
		t[i + 1] = c.rr[i];
	}
	KUNIT_EXPECT_EQ(test, run_driver(wake_all, t), 0);
	for (int i = 0; i < 3; i++)
		KUNIT_EXPECT_EQ(test, kthread_join(t[i]), 0);
	KUNIT_EXPECT_LE(test, c.most_in_a_row, RR_TIMESLICE + 1);
	KUNIT_EXPECT_GE(test, c.changes, 3);
}

/*
 * A running FIFO 30 task on CPU 0 lowers itself to FIFO 20 while a FIFO
 * 20 task is queued there: it goes behind that equal, as POSIX says of
 * sched_setscheduler() (1 2 3 4), not back to the head of its new level.
 */
static int lower_self_behind(void *equal)
{
	struct sched_param sp = { .sched_priority = 20 };

	order_log_add(&rt_log, 1);
	wake_up_process(equal);
	order_log_add(&rt_log, 2);
	sched_setscheduler(current, SCHED_FIFO, &sp);
	order_log_add(&rt_log, 4);
	return 0;
}

static void lowered_goes_behind_its_equals(struct kunit *test)
{
	struct task_struct *high, *equal;

	order_log_init(&rt_log);
	equal = kthread_create_sched(log_and_exit, (void *)3L, SCHED_FIFO, 20,
				     0, "rt-equal");
	KUNIT_ASSERT_NOT_NULL(test, equal);
	high = kthread_create_sched(lower_self_behind, equal, SCHED_FIFO, 30, 0,
				    "rt-lowered");
	KUNIT_ASSERT_NOT_NULL(test, high);
	wake_up_process(high);
	KUNIT_EXPECT_EQ(test, kthread_join(high), 0);
	KUNIT_EXPECT_EQ(test, kthread_join(equal), 0);
	for (int i = 0; i < 4; i++)
		KUNIT_EXPECT_EQ(test, order_log_find(&rt_log, i + 1), i);
}

/*
 * What a boost means to the scheduler. On CPU 0 an owner takes an
 * rt-mutex and waits; a FIFO 30 waiter blocks on it, boosting the owner
 * to 30; an equal of the owner's priority, boosted or its own, is queued;
 * then the owner spins for spin_ticks, unlocks (1) and goes on (4). The
 * waiter takes the lock (2) and the equal runs (3), in the order their
 * priorities give, both after the unlock and before the owner goes on.
 */
struct boost_case {
	struct rt_mutex lock;
	struct task_struct *owner, *waiter, *equal;
	unsigned long spin_ticks;
	volatile int locked, go;
	bool boosted;
};

static int boosted_owner(void *arg)
{
	struct boost_case *b = arg;
	unsigned long end;

	rt_mutex_lock(&b->lock);
	WRITE_ONCE(b->locked, 1);
	while (!READ_ONCE(b->go))
		cpu_relax();
	end = jiffies + b->spin_ticks;
	while (time_before(jiffies, end))
		cpu_relax();
	order_log_add(&rt_log, 1);
	rt_mutex_unlock(&b->lock);
	order_log_add(&rt_log, 4);
	return 0;
}

static int boosting_waiter(void *arg)
{
	struct boost_case *b = arg;

	rt_mutex_lock(&b->lock);
	order_log_add(&rt_log, 2);
	rt_mutex_unlock(&b->lock);
	return 0;
}

/* As FIFO 50 on CPU 0: every step waits for the one before. */
static int boost_then_queue_equal(void *arg)
{
	struct boost_case *b = arg;

	wake_up_process(b->owner);
	if (!wait_for_count(&b->locked, 1, RT_WAIT_SECS))
		return -ETIMEDOUT;
	wake_up_process(b->waiter);
	if (!wait_for_sleep(b->waiter, TASK_UNINTERRUPTIBLE, RT_WAIT_SECS))
		return -ETIMEDOUT;
	b->boosted = READ_ONCE(b->owner->prio) == b->waiter->prio;
	wake_up_process(b->equal);
	WRITE_ONCE(b->go, 1);
	return 0;
}

static void expect_boost_order(struct kunit *test, int owner_policy,
			       int owner_prio, int equal_prio,
			       unsigned long spin_ticks)
{
	struct boost_case b = { .spin_ticks = spin_ticks };

	order_log_init(&rt_log);
	rt_mutex_init(&b.lock);
	b.owner = kthread_create_sched(boosted_owner, &b, owner_policy,
				       owner_prio, 0, "owner");
	b.waiter = kthread_create_sched(boosting_waiter, &b, SCHED_FIFO, 30, 0,
					"rt-waiter");
	b.equal = kthread_create_sched(log_and_exit, (void *)3L, SCHED_FIFO,
				       equal_prio, 0, "rt-equal");
	KUNIT_ASSERT_NOT_NULL(test, b.owner);
	KUNIT_ASSERT_NOT_NULL(test, b.waiter);
	KUNIT_ASSERT_NOT_NULL(test, b.equal);
	KUNIT_EXPECT_EQ(test, run_driver(boost_then_queue_equal, &b), 0);
	KUNIT_EXPECT_EQ(test, kthread_join(b.owner), 0);
	KUNIT_EXPECT_EQ(test, kthread_join(b.waiter), 0);
	KUNIT_EXPECT_EQ(test, kthread_join(b.equal), 0);
	KUNIT_EXPECT_TRUE(test, b.boosted);
	KUNIT_EXPECT_EQ(test, order_log_find(&rt_log, 1), 0);
	KUNIT_EXPECT_EQ(test, order_log_find(&rt_log, 4), 3);
}

/*
 * A SCHED_NORMAL owner boosted to FIFO 30 is scheduled as FIFO 30: never
 * sliced, so the equal FIFO 30 task queued behind it runs only after the
 * unlock, although the owner spins first for longer than any
 * SCHED_NORMAL slice.
 */
#define BOOSTED_SPIN_TICKS	10

static void boosted_normal_owner_not_sliced(struct kunit *test)
{
	expect_boost_order(test, SCHED_NORMAL, 0, 30, BOOSTED_SPIN_TICKS);
}

/*
 * A FIFO 10 owner whose boost ends at its unlock goes behind the FIFO 10
 * task that waits on its CPU, as after sched_setscheduler().
 */
static void deboosted_goes_behind_its_equals(struct kunit *test)
{
	expect_boost_order(test, SCHED_FIFO, 10, 10, 0);
}

/*
 * set_user_nice() changes a task's static_prio and normal_prio together,
 * under the scheduler's lock: what looks at the task from the scheduler's
 * side on the same CPU, as an interrupt's wakeup does, never finds one
 * changed and not the other. A FIFO 10 task on CPU 0 flips the nice of
 * a SCHED_NORMAL task (never woken) between 5 and -5, and interrupts on
 * CPU 0 compare the two fields whenever they come in the flipping: the
 * tick's timer, and where there is a second CPU, a task there that calls
 * into CPU 0 by IPI back to back. The tick alone takes NICE_SAMPLES ticks
 * (2 s); with the IPIs, the flipping goes on until NICE_IPI_SAMPLES, or
 * NICE_SAMPLES once NICE_MIN_TICKS have passed: a thread per CPU gets
 * the first in about 0.3 s, CPUs taking turns on one host thread (about
 * 3 ms an IPI) the second in about 0.6 s.
 */
#define NICE_SAMPLES		200
#define NICE_IPI_SAMPLES	(10 * NICE_SAMPLES)
#define NICE_MIN_TICKS		20

struct nice_case {
	struct timer_list watch;
	struct task_struct *flipper, *p, *poker;
	bool poked;			/* IPIs sample too */
	unsigned long start;		/* jiffies */
	volatile int samples, torn, stop;
};

/* In an interrupt on CPU 0: are the two fields in step? */
static void sample_nice(struct nice_case *n)
{
	if (current == n->flipper) {
		n->samples++;
		if (n->p->normal_prio != n->p->static_prio)
			n->torn++;
	}
}

static void watch_nice(struct timer_list *t)
{
	struct nice_case *n = container_of(t, struct nice_case, watch);

	if (READ_ONCE(n->stop))
		return;
	sample_nice(n);
	mod_timer(t, jiffies + 1);
}

static void ipi_sample_nice(void *arg)
{
	sample_nice(arg);
}

static int poke_nice(void *arg)
{
	struct nice_case *n = arg;

	while (!READ_ONCE(n->stop))
		smp_call_function_single(0, ipi_sample_nice, n, 1);
	return 0;
}

static bool nice_sampled_enough(struct nice_case *n)
{
	int samples = READ_ONCE(n->samples);

	if (samples < NICE_SAMPLES)
		return false;
	return !n->poked || samples >= NICE_IPI_SAMPLES ||
	       time_after(jiffies, n->start + NICE_MIN_TICKS);
}

static int flip_nice(void *arg)
{
	struct nice_case *n = arg;

	for (int nice = 5; !nice_sampled_enough(n); nice = -nice)
		set_user_nice(n->p, nice);
	return 0;
}

static int nothing_to_do(void *unused)
{
	return 0;
}

/* A CPU other than 0 for the poker, or -1 on one CPU. */
static int other_cpu(void)
{
	for (unsigned int cpu = 1; cpu < NR_CPUS; cpu++)
		if (cpu_online(cpu))
			return cpu;
	return -1;
}

static void nice_change_is_atomic(struct kunit *test)
{
	struct nice_case n = { .start = jiffies };
	int cpu = other_cpu();

	n.p = kthread_create(nothing_to_do, NULL, "niced");
	KUNIT_ASSERT_NOT_NULL(test, n.p);
	n.flipper = kthread_create_sched(flip_nice, &n, SCHED_FIFO, 10, 0,
					 "rt-nice");
	KUNIT_ASSERT_NOT_NULL(test, n.flipper);
	if (cpu >= 0) {
		n.poker = kthread_create_sched(poke_nice, &n, SCHED_FIFO, 10,
					       cpu, "nice-poker");
		KUNIT_ASSERT_NOT_NULL(test, n.poker);
		n.poked = true;
	}
	timer_setup(&n.watch, watch_nice, 0);
	mod_timer(&n.watch, jiffies + 1);
	wake_up_process(n.flipper);
	if (n.poker)
		wake_up_process(n.poker);
	KUNIT_EXPECT_EQ(test, kthread_join(n.flipper), 0);
	WRITE_ONCE(n.stop, 1);
	if (n.poker)
		KUNIT_EXPECT_EQ(test, kthread_join(n.poker), 0);
	del_timer_sync(&n.watch);
	KUNIT_EXPECT_EQ(test, kthread_stop(n.p), 0);
	kunit_info(test, "%d torn of %d samples", n.torn, n.samples);
	KUNIT_EXPECT_EQ(test, n.torn, 0);
	KUNIT_EXPECT_GE(test, n.samples, NICE_SAMPLES);
}

/*
 * The SCHED_NORMAL slice that docs/scheduler.md states. Two spinners of
 * one nice take turns alone on CPU 0, and a timer there counts, over
 * SLICE_TURNS slices' worth of CPU 0's ticks (each adds one to jiffies
 * and takes one from the running spinner's slice), the times a spinner
 * was switched out (its nivcsw): one per slice, give or take one at the
 * ends and one for ticks that another task on CPU 0 took (a slow boot
 * with the validator and the tracer: 10 switches in 24 ticks at nice 0;
 * the old 3-tick slice gave 8). Both counts are the tick's and the scheduler's, not the
 * spinners' own, which a host that starves the vCPU can keep from
 * running between two ticks.
 */
#define SLICE_TURNS	12

struct slice_case {
	struct timer_list timer;
	struct task_struct *spinner[2];
	struct completion counted;
	unsigned long ticks, switches;
	bool started;
	int done;
};

static unsigned long spinner_switches(struct slice_case *c)
{
	return READ_ONCE(c->spinner[0]->nivcsw) +
	       READ_ONCE(c->spinner[1]->nivcsw);
}

/* On CPU 0's tick, before it charges anyone: the first call starts. */
static void count_slices(struct timer_list *t)
{
	struct slice_case *c = container_of(t, struct slice_case, timer);

	if (!c->started) {
		c->started = true;
		c->ticks = jiffies;
		c->switches = spinner_switches(c);
		mod_timer(t, jiffies + SLICE_TURNS * t->data);
		return;
	}
	c->ticks = jiffies - c->ticks;
	c->switches = spinner_switches(c) - c->switches;
	WRITE_ONCE(c->done, 1);
	complete(&c->counted);
}

static void expect_slice(struct kunit *test, int nice, unsigned long slice)
{
	struct slice_case c = {};
	struct task_struct *t[3] = {};
	long off;

	init_completion(&c.counted);
	for (int i = 0; i < 2; i++) {
		t[i] = kthread_create_sched(spin_until_set, &c.done,
					    SCHED_NORMAL, 0, 0, "spinner");
		KUNIT_ASSERT_NOT_NULL(test, t[i]);
		set_user_nice(t[i], nice);
		c.spinner[i] = t[i];
	}
	KUNIT_EXPECT_EQ(test, run_driver(wake_all, t), 0);
	timer_setup(&c.timer, count_slices, 0);
	c.timer.data = slice;
	mod_timer(&c.timer, jiffies + 1);
	wait_for_completion(&c.counted);
	KUNIT_EXPECT_EQ(test, kthread_join(t[0]), 0);
	KUNIT_EXPECT_EQ(test, kthread_join(t[1]), 0);
	off = (long)(c.switches * slice) - (long)c.ticks;
	if (off < -2 * (long)slice || off > 2 * (long)slice)
		KUNIT_FAIL(test, "nice %d: %lu switches in %lu ticks, not "
			   "one every %lu", nice, c.switches, c.ticks, slice);
}

static void normal_slice_by_nice(struct kunit *test)
{
	expect_slice(test, 0, 2);
	expect_slice(test, MAX_NICE, 1);
	expect_slice(test, MIN_NICE, 4);
}

/*
 * A SCHED_NORMAL task queued on CPU 0 before a FIFO 1 one still runs
 * after it: the queue is in priority order, not wake order.
 */
static void normal_waits_for_rt(struct kunit *test)
{
	struct task_struct *t[3] = {}, *rt, *normal;

	order_log_init(&rt_log);
	normal = kthread_create_sched(log_and_exit, (void *)2L, SCHED_NORMAL, 0,
				   0, "normal");
	rt = kthread_create_sched(fifo_worker, (void *)1L, SCHED_FIFO, 1, 0,
			       "rt-fifo");
	KUNIT_ASSERT_NOT_NULL(test, rt);
	KUNIT_ASSERT_NOT_NULL(test, normal);
	t[0] = normal;
	t[1] = rt;
	KUNIT_EXPECT_EQ(test, run_driver(wake_all, t), 0);
	KUNIT_EXPECT_EQ(test, kthread_join(rt), 0);
	KUNIT_EXPECT_EQ(test, kthread_join(normal), 0);
	KUNIT_EXPECT_EQ(test, order_log_find(&rt_log, 2), 2);
}

static void priorities_follow_the_policy(struct kunit *test)
{
	struct sched_param sp = { .sched_priority = 10 };
	struct task_struct *p = current;

	KUNIT_EXPECT_EQ(test, p->policy, SCHED_NORMAL);
	KUNIT_EXPECT_EQ(test, p->prio, p->static_prio);
	KUNIT_ASSERT_EQ(test, sched_setscheduler(p, SCHED_RR, &sp), 0);
	KUNIT_EXPECT_EQ(test, p->policy, SCHED_RR);
	KUNIT_EXPECT_EQ(test, p->rt_priority, 10U);
	KUNIT_EXPECT_EQ(test, p->normal_prio, MAX_RT_PRIO - 1 - 10);
	KUNIT_EXPECT_EQ(test, p->prio, p->normal_prio);
	KUNIT_EXPECT_TRUE(test, rt_task(p));
	sp.sched_priority = 0;
	KUNIT_ASSERT_EQ(test, sched_setscheduler(p, SCHED_NORMAL, &sp), 0);
	KUNIT_EXPECT_EQ(test, p->prio, p->static_prio);
	KUNIT_EXPECT_FALSE(test, rt_task(p));
}

/* Refused with -EINVAL and a message, never clamped. */
static void bad_policy_or_priority_refused(struct kunit *test)
{
	static const struct { int policy, prio; } bad[] = {
		{ 7, 10 }, { -1, 0 }, { SCHED_FIFO, 0 }, { SCHED_FIFO, 100 },
		{ SCHED_RR, -5 }, { SCHED_NORMAL, 5 },
	};
	struct task_struct *p = current;

	for (unsigned int i = 0; i < ARRAY_SIZE(bad); i++) {
		struct sched_param sp = { .sched_priority = bad[i].prio };

		KUNIT_EXPECT_EQ(test, sched_setscheduler(p, bad[i].policy, &sp),
				-EINVAL);
		KUNIT_EXPECT_EQ(test, p->policy, SCHED_NORMAL);
		KUNIT_EXPECT_EQ(test, p->prio, p->static_prio);
	}
}

static struct kunit_case sched_rt_cases[] = {
	KUNIT_CASE(priorities_follow_the_policy),
	KUNIT_CASE(bad_policy_or_priority_refused),
	KUNIT_CASE(woken_higher_preempts_at_once),
	KUNIT_CASE(woken_higher_preempts_other_cpu),
	KUNIT_CASE(woken_by_complete_preempts),
	KUNIT_CASE(woken_by_complete_all_preempts),
	KUNIT_CASE(woken_by_wake_up_preempts),
	KUNIT_CASE(woken_by_up_preempts),
	KUNIT_CASE(woken_under_spin_lock_irq_preempts),
	KUNIT_CASE(woken_under_spin_lock_irqsave_preempts),
	KUNIT_CASE(woken_under_local_irq_save_preempts),
	KUNIT_CASE(join_sleeps_until_off_cpu),
	KUNIT_CASE(fifo_among_equals),
	KUNIT_CASE(normal_waits_for_rt),
	KUNIT_CASE(rr_rotates_equals),
	KUNIT_CASE(rr_keeps_its_slice_when_preempted),
	KUNIT_CASE(boosted_normal_owner_not_sliced),
	KUNIT_CASE(lowered_goes_behind_its_equals),
	KUNIT_CASE(deboosted_goes_behind_its_equals),
	KUNIT_CASE(nice_change_is_atomic),
	KUNIT_CASE(normal_slice_by_nice),
	{}
};

static struct kunit_suite sched_rt_suite = {
	.name = "sched_rt",
	.test_cases = sched_rt_cases,
};
kunit_test_suite(sched_rt_suite);
