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
#include <kthread.h>
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

/* ---- one CPU for everyone: who runs when is up to the holder ---- */

#define LINE_WAITERS 3

static DEFINE_MUTEX(line_lock);
static struct task_struct *line_task[LINE_WAITERS];
static int line_order[LINE_WAITERS];
static int line_count_seen[LINE_WAITERS];
static volatile int line_next;

static int line_waiter(void *arg)
{
	int id = (long)arg;

	mutex_lock(&line_lock);
	line_count_seen[line_next] = atomic_read(&line_lock.count);
	line_order[line_next++] = id;
	mutex_unlock(&line_lock);
	return 0;
}

/* Starts n waiters on CPU 0, queued in the order of their ids. */
static bool line_up(int n)
{
	line_next = 0;
	for (int i = 0; i < n; i++) {
		line_task[i] = kthread_create(line_waiter, (void *)(long)i,
					      "line%d", i);
		if (!line_task[i])
			return false;
		kthread_bind(line_task[i], 0);
		wake_up_process(line_task[i]);
		if (!wait_for_sleep(line_task[i], TASK_UNINTERRUPTIBLE, 60))
			return false;
	}
	return true;
}

static int woken_waiters(int n)
{
	int woken = 0;

	for (int i = 0; i < n; i++)
		woken += line_task[i]->state == TASK_RUNNING;
	return woken;
}

struct holder_run {
	int woken;		/* waiters runnable right after the unlock */
	int retaken;		/* the holder took the lock back at once */
	int head;		/* the waiter first in line after that */
	bool relock;		/* take it back before the woken one runs */
};

static struct holder_run holder;
static volatile int holder_go;

/*
 * Bound to CPU 0 with the waiters: with preemption off, none of them
 * can run between its unlock and what it looks at next.
 */
static int holder_thread(void *unused)
{
	mutex_lock(&line_lock);
	__atomic_store_n(&holder_go, 1, __ATOMIC_SEQ_CST);
	while (__atomic_load_n(&holder_go, __ATOMIC_SEQ_CST) != 2)
		msleep_poll(1);
	preempt_disable();
	mutex_unlock(&line_lock);
	holder.woken = woken_waiters(LINE_WAITERS);
	/*
	 * Locked now means ours, whatever trylock returns (its convention is
	 * a later lab's): no other task can run here.
	 */
	if (holder.relock) {
		mutex_trylock(&line_lock);
		holder.retaken = mutex_is_locked(&line_lock);
	}
	preempt_enable();
	if (!holder.retaken)
		return 0;
	/* The woken waiter ran, lost to us, and went back to sleep. */
	if (!wait_for_sleep(line_task[0], TASK_UNINTERRUPTIBLE, 60))
		return 1;
	spin_lock(&line_lock.wait_lock);
	holder.head = list_first_entry(&line_lock.wait_list,
				       struct mutex_waiter, list)->ti->task ==
		      line_task[0] ? 0 : 1;
	spin_unlock(&line_lock.wait_lock);
	mutex_unlock(&line_lock);
	return 0;
}

/* The holder on CPU 0 takes the lock, then LINE_WAITERS queue behind it. */
static void run_line(struct kunit *test, bool relock)
{
	struct task_struct *h;

	holder = (struct holder_run){ .head = -1, .relock = relock };
	holder_go = 0;
	h = kthread_create(holder_thread, NULL, "holder");
	KUNIT_ASSERT_NOT_NULL(test, h);
	kthread_bind(h, 0);
	wake_up_process(h);
	KUNIT_ASSERT_TRUE(test, wait_for_count(&holder_go, 1, 60));
	KUNIT_ASSERT_TRUE(test, line_up(LINE_WAITERS));
	__atomic_store_n(&holder_go, 2, __ATOMIC_SEQ_CST);
	KUNIT_EXPECT_EQ(test, kthread_join(h), 0);
	for (int i = 0; i < LINE_WAITERS; i++)
		kthread_join(line_task[i]);
	KUNIT_EXPECT_EQ(test, line_next, LINE_WAITERS);
	KUNIT_EXPECT_EQ(test, atomic_read(&line_lock.count), 1);
}

/*
 * An unlock wakes exactly one waiter, the first; each new owner but the
 * last leaves the count at -1, so that its own unlock wakes the next.
 */
static void unlock_wakes_one_count_stays_negative(struct kunit *test)
{
	run_line(test, false);
	KUNIT_EXPECT_EQ(test, holder.woken, 1);
	for (int i = 0; i < LINE_WAITERS; i++)
		KUNIT_EXPECT_EQ(test, line_order[i], i);
	for (int i = 0; i < LINE_WAITERS - 1; i++)
		KUNIT_EXPECT_EQ(test, line_count_seen[i], -1);
	KUNIT_EXPECT_EQ(test, line_count_seen[LINE_WAITERS - 1], 0);
}

/* A woken waiter that loses the lock goes back to the head, not the tail. */
static void woken_waiter_that_lost_requeues_at_head(struct kunit *test)
{
	run_line(test, true);
	KUNIT_ASSERT_EQ(test, holder.retaken, 1);
	KUNIT_EXPECT_EQ(test, holder.head, 0);
	for (int i = 0; i < LINE_WAITERS; i++)
		KUNIT_EXPECT_EQ(test, line_order[i], i);
}

/* ---- an unlock between the waiter's release of wait_lock and its sleep ---- */

#ifdef CONFIG_DEBUG_MUTEXES
static DEFINE_MUTEX(window_lock);
static volatile int window_waiter_done;

static int window_waiter(void *unused)
{
	mutex_lock(&window_lock);
	mutex_unlock(&window_lock);
	WRITE_ONCE(window_waiter_done, 1);
	return 0;
}

static bool window_waiter_queued(void)
{
	bool queued;

	spin_lock(&window_lock.wait_lock);
	queued = !list_empty(&window_lock.wait_list);
	spin_unlock(&window_lock.wait_lock);
	return queued;
}

/*
 * Bound to CPU 0 with the waiter, and runnable throughout (it spins, it
 * never sleeps): when the waiter is preempted on letting go of wait_lock,
 * this task runs next, and its unlock comes before the waiter sleeps.
 */
static int window_holder(void *started)
{
	mutex_lock(&window_lock);
	WRITE_ONCE(*(volatile int *)started, 1);
	while (!window_waiter_queued())
		cpu_relax();
	mutex_unlock(&window_lock);
	return 0;
}

/* Asleep on the lock while it is free: nobody is left to wake it. */
static bool window_wakeup_lost(struct task_struct *waiter)
{
	return READ_ONCE(waiter->state) == TASK_UNINTERRUPTIBLE &&
	       !READ_ONCE(waiter->on_rq) && !mutex_is_locked(&window_lock);
}

/*
 * A waiter sets its sleeping state before it lets go of wait_lock: an
 * unlock that takes wait_lock after that sees a sleeper, and its wakeup
 * makes the waiter's schedule() return. The debug build preempts the
 * waiter right at that release (mutex_debug_preempt_waiters_of), so the
 * holder's unlock lands in the window every time.
 */
static void wakeup_between_wait_lock_and_sleep(struct kunit *test)
{
	struct task_struct *h, *w;
	volatile int started = 0;
	bool lost = false;

	window_waiter_done = 0;
	h = kthread_create(window_holder, (void *)&started, "window-holder");
	w = kthread_create(window_waiter, NULL, "window-waiter");
	KUNIT_ASSERT_TRUE(test, h && w);
	kthread_bind(h, 0);
	kthread_bind(w, 0);
	WRITE_ONCE(mutex_debug_preempt_waiters_of, &window_lock);
	wake_up_process(h);
	KUNIT_ASSERT_TRUE(test, wait_for_count(&started, 1, 60));
	wake_up_process(w);
	kthread_join(h);
	/* The unlock is done; the waiter must now get the lock and leave. */
	while (!READ_ONCE(window_waiter_done) && !lost) {
		lost = window_wakeup_lost(w);
		msleep(1);
	}
	WRITE_ONCE(mutex_debug_preempt_waiters_of, NULL);
	if (lost) {
		KUNIT_FAIL(test, "the waiter sleeps on a free mutex: the unlock's wakeup came before it set its state");
		wake_up_process(w);
	}
	kthread_join(w);
	KUNIT_EXPECT_EQ(test, atomic_read(&window_lock.count), 1);
}
#else
static void wakeup_between_wait_lock_and_sleep(struct kunit *test)
{
	kunit_skip(test, "the debug build opens the window (MUTEX=debug)");
}
#endif

/* ---- a woken waiter's way back to wait_lock ---- */

#ifdef CONFIG_DEBUG_SPINLOCK
static DEFINE_MUTEX(return_lock);

static int return_waiter(void *unused)
{
	mutex_lock(&return_lock);
	mutex_unlock(&return_lock);
	return 0;
}

/*
 * A round holds wait_lock with preemption off: this long at most, well
 * under the soft lockup limit; a waiter slower than that is tried again.
 */
#define RETURN_ROUND_NS		(500 * NSEC_PER_MSEC)
#define RETURN_ROUNDS		20

struct return_probe {
	struct task_struct *waiter;
	int rounds;		/* rounds that saw it come to wait_lock */
	int changed;		/* ... and the wait list changed under us */
};

/*
 * Holding wait_lock, wake the sleeping waiter (a spurious wakeup, which
 * the slowpath must take in its stride) and hold on until it spins on
 * wait_lock: whatever it did to the wait list on its way, it did while
 * the list was ours.
 */
static void return_round(struct return_probe *p)
{
	spinlock_t *wait_lock = &return_lock.wait_lock;
	struct list_head *head = &return_lock.wait_list;
	struct list_head *first, *last;
	unsigned int contended;
	u64 start;

	spin_lock(wait_lock);
	first = head->next;
	last = head->prev;
	/* Asleep, but not yet queued (or not on this lock): try again. */
	if (list_empty(head) ||
	    list_first_entry(head, struct mutex_waiter, list)->ti->task !=
	    p->waiter) {
		spin_unlock(wait_lock);
		return;
	}
	contended = READ_ONCE(wait_lock->contended);
	wake_up_process(p->waiter);
	start = ktime_get_ns();
	while (READ_ONCE(wait_lock->contended) == contended &&
	       ktime_get_ns() - start < RETURN_ROUND_NS)
		cpu_relax();
	if (READ_ONCE(wait_lock->contended) != contended) {
		p->rounds++;
		p->changed += head->next != first || head->prev != last;
	}
	spin_unlock(wait_lock);
}

/* On CPU 0, the waiter on CPU 1: each round needs the other CPU. */
static int return_driver(void *arg)
{
	struct return_probe *p = arg;

	for (int i = 0; i < RETURN_ROUNDS && !p->rounds; i++) {
		if (!wait_for_sleep(p->waiter, TASK_UNINTERRUPTIBLE, 60))
			return 1;
		return_round(p);
	}
	return 0;
}

/*
 * The wait list changes only under wait_lock: a woken waiter takes
 * itself off it after it has taken wait_lock again, or it may unlink
 * itself while another CPU adds a waiter beside it, and that waiter is
 * lost, with its wakeup.
 */
static void woken_waiter_leaves_list_under_wait_lock(struct kunit *test)
{
	struct return_probe probe = { };
	struct task_struct *w;

	if (num_online_cpus() < 2)
		kunit_skip(test, "the woken waiter needs a CPU of its own");
	mutex_lock(&return_lock);
	w = kthread_create(return_waiter, NULL, "return-waiter");
	KUNIT_ASSERT_NOT_NULL(test, w);
	kthread_bind(w, 1);
	probe.waiter = w;
	wake_up_process(w);
	KUNIT_EXPECT_EQ(test, run_driver(return_driver, &probe), 0);
	mutex_unlock(&return_lock);
	kthread_join(w);
	KUNIT_EXPECT_EQ(test, atomic_read(&return_lock.count), 1);
	if (!probe.rounds)
		KUNIT_FAIL(test, "the woken waiter never came to wait_lock in %d rounds",
			   RETURN_ROUNDS);
	if (probe.changed)
		KUNIT_FAIL(test, "the woken waiter changed the wait list while another task held wait_lock");
}

/* ---- an unlock's work, all of it done before wait_lock is free ---- */

static DEFINE_MUTEX(release_lock);
static volatile int release_go;
static volatile int release_holder_done;
static volatile int release_waiter_done;

/* What the observer found once the holder's unlock was over. */
enum release_verdict {
	RELEASE_DONE,		/* the waiter was awake or gone */
	RELEASE_WAITER_ASLEEP,	/* wait_lock free, the waiter asleep */
	RELEASE_NO_WAIT_LOCK,	/* the unlock never took wait_lock */
};

static int release_holder(void *started)
{
	mutex_lock(&release_lock);
	WRITE_ONCE(*(volatile int *)started, 1);
	while (!READ_ONCE(release_go))
		cpu_relax();
	mutex_unlock(&release_lock);
	WRITE_ONCE(release_holder_done, 1);
	return 0;
}

static int release_waiter(void *unused)
{
	mutex_lock(&release_lock);
	mutex_unlock(&release_lock);
	WRITE_ONCE(release_waiter_done, 1);
	return 0;
}

static bool release_waiter_asleep(struct task_struct *w)
{
	return READ_ONCE(w->state) == TASK_UNINTERRUPTIBLE &&
	       !READ_ONCE(w->on_rq) && !READ_ONCE(release_waiter_done);
}

/*
 * On the holder's CPU, runnable throughout: when the holder is preempted
 * as it lets go of wait_lock, this task runs next. Once the holder has
 * taken wait_lock (it cleared spin_debug_preempt_at_unlock), finding us
 * running on its CPU means it has let go of it again: its wakeup must be
 * done. A holder whose unlock is over with the lock still armed never
 * took it.
 */
static int release_observer(void *waiter)
{
	int verdict = -1;

	while (verdict < 0) {
		bool holder_done;

		preempt_disable();
		holder_done = READ_ONCE(release_holder_done);
		if (!READ_ONCE(spin_debug_preempt_at_unlock))
			verdict = release_waiter_asleep(waiter) ?
				  RELEASE_WAITER_ASLEEP : RELEASE_DONE;
		else if (holder_done)
			verdict = RELEASE_NO_WAIT_LOCK;
		preempt_enable();
		cpu_relax();
	}
	return verdict;
}

/*
 * The unlock slowpath frees the count and wakes the first waiter before
 * it lets go of wait_lock: after that, a task that takes wait_lock must
 * find the unlock done, or a waiter that queues in between is never
 * woken. The debug spinlock preempts the holder right at that release.
 */
static void unlock_done_before_wait_lock_is_free(struct kunit *test)
{
	struct task_struct *h, *w, *o = NULL;
	volatile int started = 0;
	int verdict = -1;

	release_go = 0;
	release_holder_done = 0;
	release_waiter_done = 0;
	h = kthread_create(release_holder, (void *)&started, "release-holder");
	w = kthread_create(release_waiter, NULL, "release-waiter");
	KUNIT_ASSERT_TRUE(test, h && w);
	kthread_bind(h, 0);
	kthread_bind(w, 0);
	wake_up_process(h);
	KUNIT_ASSERT_TRUE(test, wait_for_count(&started, 1, 60));
	wake_up_process(w);
	/* Nobody takes wait_lock from then on but the holder's unlock. */
	if (wait_for_sleep(w, TASK_UNINTERRUPTIBLE, 60))
		o = kthread_create(release_observer, w, "release-observer");
	if (o) {
		kthread_bind(o, 0);
		WRITE_ONCE(spin_debug_preempt_at_unlock,
			   &release_lock.wait_lock);
		wake_up_process(o);
	}
	/* Whatever went wrong: the holder must not spin for ever. */
	WRITE_ONCE(release_go, 1);
	kthread_join(h);
	if (o)
		verdict = kthread_join(o);
	WRITE_ONCE(spin_debug_preempt_at_unlock, NULL);
	if (verdict == RELEASE_WAITER_ASLEEP)
		KUNIT_FAIL(test, "the unlock let go of wait_lock before it woke the waiter");
	else if (verdict == RELEASE_NO_WAIT_LOCK)
		KUNIT_FAIL(test, "the unlock never took wait_lock, with a waiter queued");
	else if (verdict < 0)
		KUNIT_FAIL(test, "the waiter never slept on the held mutex");
	kthread_join(w);
	KUNIT_EXPECT_EQ(test, atomic_read(&release_lock.count), 1);
}
#else
static void woken_waiter_leaves_list_under_wait_lock(struct kunit *test)
{
	kunit_skip(test, "the debug build counts who spins on wait_lock (MUTEX=debug)");
}

static void unlock_done_before_wait_lock_is_free(struct kunit *test)
{
	kunit_skip(test, "the debug build opens the window (MUTEX=debug)");
}
#endif

static struct kunit_case mutex_states_cases[] = {
	KUNIT_CASE(uncontended),
	KUNIT_CASE(handoff_to_the_last_waiter),
	KUNIT_CASE(unlock_wakes_one_count_stays_negative),
	KUNIT_CASE(woken_waiter_that_lost_requeues_at_head),
	KUNIT_CASE(wakeup_between_wait_lock_and_sleep),
	KUNIT_CASE(woken_waiter_leaves_list_under_wait_lock),
	KUNIT_CASE(unlock_done_before_wait_lock_is_free),
	{}
};

static struct kunit_suite mutex_states_suite = {
	.name = "mutex_states",
	.test_cases = mutex_states_cases,
};
kunit_test_suite(mutex_states_suite);
