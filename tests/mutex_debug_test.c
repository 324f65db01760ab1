// SPDX-License-Identifier: GPL-2.0
/*
 * The debug-mutex scenario matrix (CONFIG_DEBUG_MUTEXES), in the spirit of
 * Linux's locking self-tests. Each scenario runs in tasks of its own,
 * provokes one bug (or none), and checks that exactly the expected report
 * was made and nothing else. Deadlocks are real: the task that closes a
 * cycle blocks in mutex_lock_interruptible(), and a signal breaks it.
 * The suite prints a table of the scenarios at the end.
 */
#include <kernel.h>
#include <mutex.h>
#include <mm.h>
#include <string.h>
#include <printk.h>
#include <timer.h>
#include "helpers.h"

#define NONE		(-1)
#define MAX_CYCLE	25

extern unsigned int mutex_debug_max_chain;

struct snapshot {
	unsigned long reports[MUTEX_BUG_NR];
	unsigned long might_sleep;
};

static void snap(struct snapshot *s)
{
	memcpy(s->reports, mutex_debug_reports, sizeof(s->reports));
	s->might_sleep = might_sleep_reports;
}

/* Exactly `count` reports of `kind` (NONE: no report at all) since s. */
static void expect_reports(struct kunit *test, struct snapshot *s, int kind,
			   unsigned long count)
{
	for (int k = 0; k < MUTEX_BUG_NR; k++) {
		unsigned long want = k == kind ? count : 0;
		unsigned long got = mutex_debug_reports[k] - s->reports[k];

		if (got != want)
			KUNIT_FAIL(test, "\"%s\": %lu reports, expected %lu",
				   mutex_bug_title[k], got, want);
	}
}

/* ---- cycles: task i holds lock i and then wants lock i+1 (mod n) ---- */

static const char *const lock_names[MAX_CYCLE] = {
	"A", "B", "C", "D", "E", "F", "G", "H", "I", "J", "K", "L", "M",
	"N", "O", "P", "Q", "R", "S", "T", "U", "V", "W", "X", "Y",
};

struct cycle_task {
	struct mutex *first, *second;	/* second NULL: holds, wants none */
	struct completion go;		/* take the second lock now */
	struct completion release;	/* for a chain's last task */
	volatile int *holding;
	volatile int *unwound;		/* raised at the very end */
	int result;
};

static int cycle_fn(void *data)
{
	struct cycle_task *c = data;

	mutex_lock(c->first);
	__atomic_add_fetch(c->holding, 1, __ATOMIC_SEQ_CST);
	wait_for_completion(&c->go);
	if (c->second) {
		c->result = mutex_lock_interruptible(c->second);
		if (!c->result && c->second != c->first)
			mutex_unlock(c->second);
	} else {
		wait_for_completion(&c->release);
	}
	mutex_unlock(c->first);
	__atomic_add_fetch(c->unwound, 1, __ATOMIC_SEQ_CST);
	return 0;
}

struct chain {
	struct mutex locks[MAX_CYCLE];
	struct cycle_task ct[MAX_CYCLE];
	struct task_struct *t[MAX_CYCLE];
	volatile int holding, unwound;
	int n;
};

/* Tasks 0..n-1 each take their first lock and wait for "go". */
static bool chain_start(struct kunit *test, struct chain *ch, int n,
			bool cycle)
{
	ch->n = n;
	ch->holding = 0;
	ch->unwound = 0;
	for (int i = 0; i < n; i++) {
		/* A class per letter, for the lock-order validator's eyes */
		__mutex_init(&ch->locks[i], lock_names[i], lock_names[i]);
		ch->ct[i] = (struct cycle_task){
			.first = &ch->locks[i],
			.second = cycle || i + 1 < n ?
				&ch->locks[(i + 1) % n] : NULL,
			.holding = &ch->holding,
			.unwound = &ch->unwound,
		};
		init_completion(&ch->ct[i].go);
		init_completion(&ch->ct[i].release);
		ch->t[i] = kthread_run(cycle_fn, &ch->ct[i], "dl-%s",
				       lock_names[i]);
		if (!ch->t[i])
			return false;
	}
	return wait_for_count(&ch->holding, n, 60);
}

/* Lets the tasks block in the given order; each is seen asleep first. */
static bool chain_block(struct chain *ch, const int *order)
{
	for (int j = 0; j < ch->n; j++) {
		int i = order ? order[j] : j;

		complete(&ch->ct[i].go);
		if (ch->ct[i].second &&
		    !wait_for_sleep(ch->t[i], TASK_INTERRUPTIBLE, 60))
			return false;
	}
	return true;
}

/* The last task to block closed the cycle: a signal breaks it. */
static void chain_finish(struct kunit *test, struct chain *ch, int closer)
{
	if (closer >= 0)
		send_sig(SIGINT, ch->t[closer], 0);
	else
		complete(&ch->ct[ch->n - 1].release);
	for (int i = 0; i < ch->n; i++)
		kthread_join(ch->t[i]);
	if (closer >= 0)
		KUNIT_EXPECT_EQ(test, ch->ct[closer].result, -EINTR);
	for (int i = 0; i < ch->n; i++)
		KUNIT_EXPECT_FALSE(test, mutex_is_locked(&ch->locks[i]));
}

static struct chain the_chain;

static void run_cycle(struct kunit *test, int n, const int *order, int kind)
{
	struct chain *ch = &the_chain;
	struct snapshot s;
	int closer = order ? order[n - 1] : n - 1;

	snap(&s);
	KUNIT_ASSERT_TRUE(test, chain_start(test, ch, n, true));
	KUNIT_ASSERT_TRUE(test, chain_block(ch, order));
	chain_finish(test, ch, closer);
	expect_reports(test, &s, kind, 1);
}

static void AA(struct kunit *test)
{
	run_cycle(test, 1, NULL, MUTEX_BUG_RECURSION);
}

static void ABBA(struct kunit *test)
{
	run_cycle(test, 2, NULL, MUTEX_BUG_CIRCULAR);
}

static void ABBCCA(struct kunit *test)
{
	run_cycle(test, 3, NULL, MUTEX_BUG_CIRCULAR);
}

/* The same three locks, paired A-B, C-A, B-C: a different closer. */
static void ABCABC(struct kunit *test)
{
	static const int order[] = { 0, 2, 1 };

	run_cycle(test, 3, order, MUTEX_BUG_CIRCULAR);
}

static void ABBCCDDA(struct kunit *test)
{
	run_cycle(test, 4, NULL, MUTEX_BUG_CIRCULAR);
}

/* Longer than the 2006 code's limit of 20: still found as a cycle. */
static void cycle_of_25(struct kunit *test)
{
	run_cycle(test, 25, NULL, MUTEX_BUG_CIRCULAR);
}

/* With the 2006 code's limit of 20, the same cycle is a too-long chain. */
static void chain_over_limit(struct kunit *test)
{
	unsigned int saved = mutex_debug_max_chain;

	mutex_debug_max_chain = 20;
	run_cycle(test, 25, NULL, MUTEX_BUG_CHAIN_TOO_LONG);
	mutex_debug_max_chain = saved;
}

struct intr_waiter {
	struct mutex *lock;
	int result;
};

static int intr_waiter_fn(void *data)
{
	struct intr_waiter *iw = data;

	iw->result = mutex_lock_interruptible(iw->lock);
	if (!iw->result)
		mutex_unlock(iw->lock);
	return 0;
}

/* False if t was not created or never went to sleep. */
static bool intr_waiter_sleeps(struct task_struct *t)
{
	return t && wait_for_sleep(t, TASK_INTERRUPTIBLE, 60);
}

/* A signal makes the waiter t leave without the lock. */
static void intr_waiter_leaves(struct kunit *test, struct task_struct *t,
			       struct intr_waiter *iw)
{
	send_sig(SIGINT, t, 0);
	kthread_join(t);
	KUNIT_EXPECT_EQ(test, iw->result, -EINTR);
}

/*
 * ABBA, where A has one more waiter, ahead of B's owner: a task that
 * holds nothing. A signal makes that extra waiter leave. The cycle is
 * still there, untouched: it must not be reported a second time, by a
 * cycle member woken for nothing. Then a signal to the closer breaks it.
 */
static void ABBA_extra_waiter_leaves(struct kunit *test)
{
	struct chain *ch = &the_chain;
	struct intr_waiter iw = { .lock = &ch->locks[0] };
	struct task_struct *extra;
	struct snapshot s;

	snap(&s);
	KUNIT_ASSERT_TRUE(test, chain_start(test, ch, 2, true));
	extra = kthread_run(intr_waiter_fn, &iw, "extra");
	KUNIT_ASSERT_TRUE(test, intr_waiter_sleeps(extra));
	KUNIT_ASSERT_TRUE(test, chain_block(ch, NULL));
	intr_waiter_leaves(test, extra, &iw);
	msleep(50);	/* time for a woken member to run the detector again */
	KUNIT_EXPECT_TRUE(test, wait_for_sleep(ch->t[1], TASK_INTERRUPTIBLE, 60));
	chain_finish(test, ch, 1);
	expect_reports(test, &s, MUTEX_BUG_CIRCULAR, 1);
}

/*
 * A cycle member woken for no reason goes back to sleep and runs the
 * detector again: the same deadlock, not to be reported again.
 */
static void ABBA_spurious_wakeup(struct kunit *test)
{
	struct chain *ch = &the_chain;
	struct snapshot s;

	snap(&s);
	KUNIT_ASSERT_TRUE(test, chain_start(test, ch, 2, true));
	KUNIT_ASSERT_TRUE(test, chain_block(ch, NULL));
	for (int i = 0; i < 2; i++) {
		wake_up_process(ch->t[i]);
		msleep(50);
		KUNIT_EXPECT_TRUE(test, wait_for_sleep(ch->t[i],
						TASK_INTERRUPTIBLE, 60));
	}
	chain_finish(test, ch, 1);
	expect_reports(test, &s, MUTEX_BUG_CIRCULAR, 1);
}

/*
 * ABBA, reported; then a task that holds nothing blocks on A. Its walk
 * (A, B, A, ...) never comes back to it: the cycle it joins was reported
 * already, and the half-speed pointer meeting the full-speed one inside
 * it ends the walk. Nothing more is reported, not even a chain too long.
 */
static void ABBA_joined_after_report(struct kunit *test)
{
	struct chain *ch = &the_chain;
	struct intr_waiter iw = { .lock = &ch->locks[0] };
	struct task_struct *joiner;
	struct snapshot s;

	snap(&s);
	KUNIT_ASSERT_TRUE(test, chain_start(test, ch, 2, true));
	KUNIT_ASSERT_TRUE(test, chain_block(ch, NULL));
	joiner = kthread_run(intr_waiter_fn, &iw, "joiner");
	KUNIT_ASSERT_NOT_NULL(test, joiner);
	KUNIT_EXPECT_TRUE(test, intr_waiter_sleeps(joiner));
	intr_waiter_leaves(test, joiner, &iw);
	chain_finish(test, ch, 1);
	expect_reports(test, &s, MUTEX_BUG_CIRCULAR, 1);
}

/* Must not report: a chain of waiters that does not close. */
static void long_chain_no_cycle(struct kunit *test)
{
	struct chain *ch = &the_chain;
	struct snapshot s;

	snap(&s);
	KUNIT_ASSERT_TRUE(test, chain_start(test, ch, 12, false));
	KUNIT_ASSERT_TRUE(test, chain_block(ch, NULL));
	chain_finish(test, ch, -1);
	expect_reports(test, &s, NONE, 0);
}

/*
 * A chain as long as a lowered limit allows, blocked from its far end so
 * that the last task to block walks all of it: not reported. Released,
 * it unwinds one wakeup at a time while the case polls on a deferrable
 * timer. This is the machine the runner's stuck check once called stuck
 * (docs/testing.md): the whole unwinding must be seen through.
 */
static void chain_within_lowered_limit(struct kunit *test)
{
	struct chain *ch = &the_chain;
	unsigned int saved = mutex_debug_max_chain;
	int order[MAX_CYCLE];
	struct snapshot s;

	for (int i = 0; i < MAX_CYCLE; i++)
		order[i] = MAX_CYCLE - 1 - i;
	snap(&s);
	mutex_debug_max_chain = MAX_CYCLE - 1;
	KUNIT_ASSERT_TRUE(test, chain_start(test, ch, MAX_CYCLE, false));
	KUNIT_ASSERT_TRUE(test, chain_block(ch, order));
	complete(&ch->ct[MAX_CYCLE - 1].release);
	KUNIT_EXPECT_TRUE(test, wait_for_count(&ch->unwound, MAX_CYCLE, 60));
	mutex_debug_max_chain = saved;
	chain_finish(test, ch, NONE);
	expect_reports(test, &s, NONE, 0);
}

/* ---- must not report: many tasks, locks always in the same order ---- */

static DEFINE_MUTEX(order_a);
static DEFINE_MUTEX(order_b);

static int ordered_fn(void *unused)
{
	for (int i = 0; i < 300; i++) {
		mutex_lock(&order_a);
		mutex_lock(&order_b);
		if (i % 8 == 0)
			yield();
		mutex_unlock(&order_b);
		mutex_unlock(&order_a);
	}
	return 0;
}

static void consistent_order(struct kunit *test)
{
	struct workers w;
	struct snapshot s;
	int n = num_online_cpus() * 2;

	snap(&s);
	KUNIT_ASSERT_EQ(test, workers_start(&w, n, ordered_fn, NULL, 0, true,
					    "ordered"), n);
	KUNIT_EXPECT_EQ(test, workers_join(&w), 0);
	expect_reports(test, &s, NONE, 0);
}

/* ---- must not report: ABBA where one side tries and backs off ---- */

static int ab_fn(void *unused)
{
	for (int i = 0; i < 300; i++) {
		mutex_lock(&order_a);
		mutex_lock(&order_b);
		mutex_unlock(&order_b);
		mutex_unlock(&order_a);
	}
	return 0;
}

static int ba_trylock_fn(void *unused)
{
	for (int i = 0; i < 300; i++) {
		mutex_lock(&order_b);
		if (!mutex_trylock(&order_a)) {
			mutex_unlock(&order_b);	/* back off, retry */
			yield();
			i--;
			continue;
		}
		mutex_unlock(&order_a);
		mutex_unlock(&order_b);
	}
	return 0;
}

static void ABBA_trylock_backoff(struct kunit *test)
{
	struct task_struct *a, *b;
	struct snapshot s;

	snap(&s);
	a = kthread_run(ab_fn, NULL, "ab");
	b = kthread_run(ba_trylock_fn, NULL, "ba-try");
	KUNIT_ASSERT_NOT_NULL(test, a);
	KUNIT_ASSERT_NOT_NULL(test, b);
	kthread_join(a);
	kthread_join(b);
	expect_reports(test, &s, NONE, 0);
}

/* ---- unlock rules ---- */

static void double_unlock(struct kunit *test)
{
	struct snapshot s;
	DEFINE_MUTEX(m);

	snap(&s);
	mutex_lock(&m);
	mutex_unlock(&m);
	mutex_unlock(&m);
	expect_reports(test, &s, MUTEX_BUG_DOUBLE_UNLOCK, 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&m.count), 1);
}

static void unlock_unlocked(struct kunit *test)
{
	struct snapshot s;
	struct mutex m;

	/*
	 * This stack may have held another case's mutex at this very
	 * address, its magic intact: mutex_init() would take it for a live
	 * one, held by whoever its stale owner field names.
	 */
	memset(&m, 0, sizeof(m));
	mutex_init(&m);
	snap(&s);
	mutex_unlock(&m);
	expect_reports(test, &s, MUTEX_BUG_DOUBLE_UNLOCK, 1);
	KUNIT_EXPECT_FALSE(test, mutex_is_locked(&m));
}

static DEFINE_MUTEX(owned);
static DECLARE_COMPLETION(owned_taken);
static DECLARE_COMPLETION(owned_release);

static int owner_fn(void *unused)
{
	mutex_lock(&owned);
	complete(&owned_taken);
	wait_for_completion(&owned_release);
	mutex_unlock(&owned);	/* the real owner: no report */
	return 0;
}

static void unlock_by_non_owner(struct kunit *test)
{
	struct task_struct *t;
	struct snapshot s;

	reinit_completion(&owned_taken);
	reinit_completion(&owned_release);
	t = kthread_run(owner_fn, NULL, "owner");
	KUNIT_ASSERT_NOT_NULL(test, t);
	wait_for_completion(&owned_taken);
	snap(&s);
	mutex_unlock(&owned);	/* not ours */
	KUNIT_EXPECT_TRUE(test, mutex_is_locked(&owned));
	complete(&owned_release);
	kthread_join(t);
	expect_reports(test, &s, MUTEX_BUG_NOT_OWNER, 1);
	KUNIT_EXPECT_FALSE(test, mutex_is_locked(&owned));
}

/* ---- initialisation rules ---- */

static void init_held(struct kunit *test)
{
	struct snapshot s;
	DEFINE_MUTEX(m);

	mutex_lock(&m);
	snap(&s);
	mutex_init(&m);		/* refused: it is held */
	KUNIT_EXPECT_TRUE(test, mutex_is_locked(&m));
	mutex_unlock(&m);
	expect_reports(test, &s, MUTEX_BUG_INIT_HELD, 1);
}

static void destroy_held(struct kunit *test)
{
	struct snapshot s;
	DEFINE_MUTEX(m);

	mutex_lock(&m);
	snap(&s);
	mutex_destroy(&m);	/* refused: it is held */
	mutex_unlock(&m);
	expect_reports(test, &s, MUTEX_BUG_DESTROY_HELD, 1);
	snap(&s);
	mutex_destroy(&m);	/* fine now */
	expect_reports(test, &s, NONE, 0);
}

static void use_after_destroy(struct kunit *test)
{
	struct snapshot s;
	DEFINE_MUTEX(m);

	mutex_destroy(&m);
	snap(&s);
	mutex_lock(&m);
	mutex_unlock(&m);
	expect_reports(test, &s, MUTEX_BUG_DESTROYED, 1);
}

static void use_uninitialized(struct kunit *test)
{
	struct snapshot s;
	struct mutex m;

	memset(&m, 0, sizeof(m));
	snap(&s);
	mutex_lock(&m);		/* reported, repaired, then works */
	KUNIT_EXPECT_TRUE(test, mutex_is_locked(&m));
	mutex_unlock(&m);
	expect_reports(test, &s, MUTEX_BUG_UNINITIALIZED, 1);
}

static void use_copied(struct kunit *test)
{
	struct snapshot s;
	DEFINE_MUTEX(orig);
	struct mutex copy;

	memcpy(&copy, &orig, sizeof(copy));
	snap(&s);
	KUNIT_EXPECT_EQ(test, mutex_trylock(&copy), 1);
	mutex_unlock(&copy);
	expect_reports(test, &s, MUTEX_BUG_UNINITIALIZED, 1);
	KUNIT_EXPECT_FALSE(test, mutex_is_locked(&orig));
}

/*
 * One task per CPU finds the same memset mutex at the same moment: one
 * report, one repair, then normal use. Several rounds, for the odds.
 */
#define REPAIR_ROUNDS	10

static struct mutex racy_bad;
static volatile int racy_arrived, racy_inside, racy_overlap;

static int racy_user_fn(void *data)
{
	int n = *(int *)data;

	/* A barrier: every CPU arrives before any of them goes on. */
	__atomic_add_fetch(&racy_arrived, 1, __ATOMIC_SEQ_CST);
	while (READ_ONCE(racy_arrived) < n)
		cpu_relax();
	for (int i = 0; i < 20; i++) {
		mutex_lock(&racy_bad);
		if (__atomic_add_fetch(&racy_inside, 1, __ATOMIC_SEQ_CST) != 1)
			racy_overlap = 1;
		__atomic_sub_fetch(&racy_inside, 1, __ATOMIC_SEQ_CST);
		mutex_unlock(&racy_bad);
	}
	return 0;
}

static void concurrent_repair(struct kunit *test)
{
	int n = num_online_cpus();
	struct snapshot s;
	struct workers w;

	racy_overlap = 0;
	snap(&s);
	for (int round = 0; round < REPAIR_ROUNDS; round++) {
		memset(&racy_bad, 0, sizeof(racy_bad));
		racy_arrived = 0;
		KUNIT_ASSERT_EQ(test, workers_start(&w, n, racy_user_fn, &n, 0,
						    true, "repair"), n);
		KUNIT_EXPECT_EQ(test, workers_join(&w), 0);
		KUNIT_EXPECT_FALSE(test, mutex_is_locked(&racy_bad));
		KUNIT_EXPECT_TRUE(test, list_empty(&racy_bad.wait_list));
	}
	expect_reports(test, &s, MUTEX_BUG_UNINITIALIZED, REPAIR_ROUNDS);
	KUNIT_EXPECT_EQ(test, racy_overlap, 0);
}

/*
 * Keeps a CPU busy with preemption off, so that a task bound to it can
 * be woken but not run: the window between an unlock's wakeup and the
 * waiter leaving the wait list, held open.
 */
struct cpu_hog {
	volatile int on, stop;
	struct task_struct *task;
};

static int hog_fn(void *data)
{
	struct cpu_hog *h = data;

	preempt_disable();
	WRITE_ONCE(h->on, 1);
	while (!READ_ONCE(h->stop))
		cpu_relax();
	preempt_enable();
	return 0;
}

static bool hog_start(struct cpu_hog *h, unsigned int cpu)
{
	h->on = 0;
	h->stop = 0;
	h->task = kthread_create(hog_fn, h, "hog/%u", cpu);
	if (!h->task)
		return false;
	kthread_bind(h->task, cpu);
	wake_up_process(h->task);
	return wait_for_count(&h->on, 1, 60);
}

static void hog_stop(struct cpu_hog *h)
{
	WRITE_ONCE(h->stop, 1);
	kthread_join(h->task);
}

static struct task_struct *start_bound(int (*fn)(void *), void *data,
				       unsigned int cpu, const char *name)
{
	struct task_struct *t = kthread_create(fn, data, "%s", name);

	if (t) {
		kthread_bind(t, cpu);
		wake_up_process(t);
	}
	return t;
}

static DEFINE_MUTEX(init_waited);
static volatile int init_waiters_done;

static int init_waiter_fn(void *unused)
{
	mutex_lock(&init_waited);
	__atomic_add_fetch(&init_waiters_done, 1, __ATOMIC_SEQ_CST);
	mutex_unlock(&init_waited);
	return 0;
}

/*
 * mutex_init() of a mutex nobody owns but tasks still wait for: the
 * unlock woke the first waiter, which has not yet run. Re-initialising
 * would empty the wait list under both sleepers.
 */
static void init_with_waiters(struct kunit *test)
{
	struct task_struct *w1, *w2;
	struct cpu_hog hog;
	struct snapshot s;

	if (num_online_cpus() < 2)
		kunit_skip(test, "needs a second CPU to hold the waiters");
	init_waiters_done = 0;
	mutex_lock(&init_waited);
	w1 = start_bound(init_waiter_fn, NULL, 1, "init-w1");
	KUNIT_ASSERT_NOT_NULL(test, w1);
	KUNIT_ASSERT_TRUE(test, wait_for_sleep(w1, TASK_UNINTERRUPTIBLE, 60));
	w2 = start_bound(init_waiter_fn, NULL, 1, "init-w2");
	KUNIT_ASSERT_NOT_NULL(test, w2);
	KUNIT_ASSERT_TRUE(test, wait_for_sleep(w2, TASK_UNINTERRUPTIBLE, 60));
	KUNIT_ASSERT_TRUE(test, hog_start(&hog, 1));

	mutex_unlock(&init_waited);	/* wakes w1, which cannot run yet */
	snap(&s);
	mutex_init(&init_waited);	/* refused: it has waiters */
	expect_reports(test, &s, MUTEX_BUG_INIT_HELD, 1);
	hog_stop(&hog);

	kthread_join(w1);
	kthread_join(w2);
	KUNIT_EXPECT_EQ(test, init_waiters_done, 2);
	KUNIT_EXPECT_FALSE(test, mutex_is_locked(&init_waited));
	KUNIT_EXPECT_TRUE(test, list_empty(&init_waited.wait_list));
}

/*
 * ABBA where the first to block (dl-A, waiting interruptibly for B) has
 * been sent a signal but has not run yet when dl-B closes the cycle:
 * dl-A will back out with -EINTR and release A, so this is no deadlock
 * and is not reported (docs/mutex-debug.md).
 */
static void ABBA_member_signalled(struct kunit *test)
{
	struct chain *ch = &the_chain;
	struct cycle_task *ct = ch->ct;
	struct cpu_hog hog;
	struct snapshot s;

	if (num_online_cpus() < 2)
		kunit_skip(test, "needs a second CPU to hold dl-A back");
	snap(&s);
	ch->holding = 0;
	for (int i = 0; i < 2; i++) {
		__mutex_init(&ch->locks[i], lock_names[i], lock_names[i]);
		ct[i] = (struct cycle_task){
			.first = &ch->locks[i],
			.second = &ch->locks[1 - i],
			.holding = &ch->holding,
			.unwound = &ch->unwound,
		};
		init_completion(&ct[i].go);
		init_completion(&ct[i].release);
	}
	ch->t[0] = start_bound(cycle_fn, &ct[0], 1, "dl-A");
	KUNIT_ASSERT_NOT_NULL(test, ch->t[0]);
	ch->t[1] = kthread_run(cycle_fn, &ct[1], "dl-B");
	KUNIT_ASSERT_NOT_NULL(test, ch->t[1]);
	KUNIT_ASSERT_TRUE(test, wait_for_count(&ch->holding, 2, 60));
	complete(&ct[0].go);
	KUNIT_ASSERT_TRUE(test, wait_for_sleep(ch->t[0], TASK_INTERRUPTIBLE, 60));

	KUNIT_ASSERT_TRUE(test, hog_start(&hog, 1));
	send_sig(SIGINT, ch->t[0], 0);	/* woken, but cannot run yet */
	complete(&ct[1].go);
	KUNIT_EXPECT_TRUE(test, wait_for_sleep(ch->t[1], TASK_INTERRUPTIBLE, 60));
	expect_reports(test, &s, NONE, 0);
	hog_stop(&hog);

	kthread_join(ch->t[0]);
	kthread_join(ch->t[1]);
	KUNIT_EXPECT_EQ(test, ct[0].result, -EINTR);
	KUNIT_EXPECT_EQ(test, ct[1].result, 0);
	KUNIT_EXPECT_FALSE(test, mutex_is_locked(&ch->locks[0]));
	KUNIT_EXPECT_FALSE(test, mutex_is_locked(&ch->locks[1]));
	expect_reports(test, &s, NONE, 0);
}

/* ---- lifetime rules ---- */

static void free_held(struct kunit *test)
{
	struct snapshot s;
	struct mutex *m = kmalloc(sizeof(*m));

	KUNIT_ASSERT_NOT_NULL(test, m);
	mutex_init(m);
	mutex_lock(m);
	snap(&s);
	kfree(m);
	expect_reports(test, &s, MUTEX_BUG_FREE_HELD, 1);
	KUNIT_EXPECT_TRUE(test, list_empty(&current->held_locks));
}

static void free_pages_held(struct kunit *test)
{
	void *page = alloc_pages(0);
	struct mutex *m = (struct mutex *)((char *)page + 128);
	struct snapshot s;

	KUNIT_ASSERT_NOT_NULL(test, page);
	mutex_init(m);
	mutex_lock(m);
	snap(&s);
	free_pages(page, 0);
	expect_reports(test, &s, MUTEX_BUG_FREE_HELD, 1);
	KUNIT_EXPECT_TRUE(test, list_empty(&current->held_locks));
}

struct stack_mutex {
	struct mutex *m;		/* on the task's stack */
	struct completion ready, go;
};

static int stack_mutex_fn(void *data)
{
	struct stack_mutex *sm = data;
	struct mutex m;

	mutex_init(&m);
	sm->m = &m;
	complete(&sm->ready);
	wait_for_completion(&sm->go);
	/*
	 * Exit from here, not by returning: this frame, and m in it, stays
	 * intact until the reaper frees the stack.
	 */
	do_exit(0);
}

/* We hold a mutex that lives on another task's stack when it is reaped. */
static void reap_stack_held(struct kunit *test)
{
	struct stack_mutex sm = {};
	struct task_struct *t;
	struct snapshot s;

	init_completion(&sm.ready);
	init_completion(&sm.go);
	t = kthread_run(stack_mutex_fn, &sm, "stack-mutex");
	KUNIT_ASSERT_NOT_NULL(test, t);
	wait_for_completion(&sm.ready);
	mutex_lock(sm.m);
	snap(&s);
	complete(&sm.go);
	kthread_join(t);
	expect_reports(test, &s, MUTEX_BUG_FREE_HELD, 1);
	KUNIT_EXPECT_TRUE(test, list_empty(&current->held_locks));
}

static DEFINE_MUTEX(exit_lock);
static volatile int exit_waiter_got_it;

static int exit_holding_fn(void *unused)
{
	mutex_lock(&exit_lock);
	msleep(50);		/* let the waiter queue up */
	return 0;		/* exits still holding it */
}

static int exit_waiter_fn(void *unused)
{
	mutex_lock(&exit_lock);
	exit_waiter_got_it = 1;
	mutex_unlock(&exit_lock);
	return 0;
}

static void exit_holding(struct kunit *test)
{
	struct task_struct *holder, *waiter;
	struct snapshot s;

	exit_waiter_got_it = 0;
	snap(&s);
	holder = kthread_run(exit_holding_fn, NULL, "exit-holder");
	KUNIT_ASSERT_NOT_NULL(test, holder);
	while (!mutex_is_locked(&exit_lock))
		msleep_poll(1);
	waiter = kthread_run(exit_waiter_fn, NULL, "exit-waiter");
	KUNIT_ASSERT_NOT_NULL(test, waiter);
	kthread_join(holder);
	/* The report released the lock, so the waiter went on. */
	kthread_join(waiter);
	KUNIT_EXPECT_EQ(test, exit_waiter_got_it, 1);
	expect_reports(test, &s, MUTEX_BUG_EXIT_HELD, 1);
}

/* ---- context rules ---- */

static DEFINE_MUTEX(irq_lock);

struct irq_use {
	struct timer_list timer;
	struct completion done;
	int result;
};

static void irq_use_fn(struct timer_list *t)
{
	struct irq_use *u = container_of(t, struct irq_use, timer);

	u->result = mutex_trylock(&irq_lock);	/* in hardirq context */
	complete(&u->done);
}

static void use_in_irq(struct kunit *test)
{
	struct snapshot s;
	struct irq_use u = { .result = -1 };

	init_completion(&u.done);
	timer_setup(&u.timer, irq_use_fn, 0);
	snap(&s);
	mod_timer(&u.timer, jiffies + 1);
	KUNIT_ASSERT_GT(test, wait_for_completion_timeout(&u.done, 60 * HZ), 0);
	KUNIT_EXPECT_EQ(test, u.result, 0);
	KUNIT_EXPECT_FALSE(test, mutex_is_locked(&irq_lock));
	expect_reports(test, &s, MUTEX_BUG_IN_IRQ, 1);
}

static void lock_under_spinlock(struct kunit *test)
{
	struct snapshot s;
	DEFINE_SPINLOCK(spin);
	DEFINE_MUTEX(m);

	snap(&s);
	spin_lock(&spin);
	mutex_lock(&m);		/* free, so it does not sleep: still a bug */
	mutex_unlock(&m);
	spin_unlock(&spin);
	KUNIT_EXPECT_EQ(test, might_sleep_reports, s.might_sleep + 1);
	expect_reports(test, &s, NONE, 0);
}

/* might_sleep()'s other half: interrupts off, nothing else held. */
static void lock_with_irqs_off(struct kunit *test)
{
	struct snapshot s;
	unsigned long flags;
	DEFINE_MUTEX(m);

	snap(&s);
	local_irq_save(flags);
	mutex_lock(&m);		/* free, so it does not sleep: still a bug */
	mutex_unlock(&m);
	local_irq_restore(flags);
	KUNIT_EXPECT_EQ(test, might_sleep_reports, s.might_sleep + 1);
	expect_reports(test, &s, NONE, 0);
}

/*
 * Each task's held list changes under its own held_locks_lock, which
 * the walks of other tasks' lists take too. Both sides are seen with the
 * lock held on another CPU for HOLD_SPINS turns of a loop: the other
 * side may not get through meanwhile. A loaded host only makes the hold
 * longer; the waits for the other side are bounded generously.
 */
#define HOLD_SPINS	1000000
#define SIDE_WAIT_NS	(60 * NSEC_PER_SEC)

struct held_lock_run {
	struct mutex m;
	struct task_struct *task;	/* whose held_locks_lock is taken */
	volatile int holding, go, done;
	bool taken;			/* m's count was taken meanwhile */
	bool changed;			/* the other side got through */
};

static struct held_lock_run held_run;

/*
 * a(&held_run) on CPU 0, b(&held_run) on CPU 1: the side that waits for
 * the lock held by the other did not get through, and nothing was
 * reported.
 */
static void run_held_lock_pair(struct kunit *test, int (*a)(void *),
			       int (*b)(void *))
{
	struct snapshot s;

	if (num_online_cpus() < 2)
		kunit_skip(test, "the two sides need a CPU each");
	memset(&held_run, 0, sizeof(held_run));
	mutex_init(&held_run.m);
	snap(&s);
	KUNIT_ASSERT_EQ(test, run_pair(a, b, &held_run, "held"), 0);
	KUNIT_EXPECT_FALSE(test, held_run.changed);
	expect_reports(test, &s, NONE, 0);
}

static bool spin_until(volatile int *flag)
{
	u64 end = ktime_get_ns() + SIDE_WAIT_NS;

	while (!*flag)
		if (ktime_get_ns() > end)
			return false;
	return true;
}

/* CPU 0: holds CPU 1's task's list lock while that task takes m. */
static int hold_owners_list_fn(void *arg)
{
	struct held_lock_run *r = arg;
	u64 end = ktime_get_ns() + SIDE_WAIT_NS;
	unsigned long flags;

	if (!spin_until(&r->holding))
		return 1;
	flags = arch_local_irq_save();
	arch_spin_lock(&r->task->held_locks_lock);
	r->go = 1;
	while (!mutex_is_locked(&r->m) && ktime_get_ns() < end)
		cpu_relax();
	r->taken = mutex_is_locked(&r->m);
	for (int i = 0; i < HOLD_SPINS; i++)
		cpu_relax();
	r->changed = !list_empty(&r->task->held_locks);
	arch_spin_unlock(&r->task->held_locks_lock);
	arch_local_irq_restore(flags);
	return 0;
}

static int lock_under_held_list_fn(void *arg)
{
	struct held_lock_run *r = arg;

	r->task = current;
	r->holding = 1;
	if (!spin_until(&r->go))
		return 1;
	mutex_lock(&r->m);
	mutex_unlock(&r->m);
	return 0;
}

/* The owner's own list changes only under its lock. */
static void held_list_changes_locked(struct kunit *test)
{
	run_held_lock_pair(test, hold_owners_list_fn, lock_under_held_list_fn);
	KUNIT_EXPECT_TRUE(test, held_run.taken);
	KUNIT_EXPECT_FALSE(test, mutex_is_locked(&held_run.m));
}

/* CPU 0: walks every held list, for memory that holds no mutex. */
static int walk_held_lists_fn(void *arg)
{
	struct held_lock_run *r = arg;
	char unrelated[64];

	if (!spin_until(&r->holding))
		return 1;
	mutex_debug_check_no_locks_freed(unrelated, sizeof(unrelated));
	r->done = 1;
	return 0;
}

/* CPU 1: holds its own list's lock for a while. */
static int hold_own_list_fn(void *arg)
{
	struct held_lock_run *r = arg;
	unsigned long flags = arch_local_irq_save();

	arch_spin_lock(&current->held_locks_lock);
	r->holding = 1;
	for (int i = 0; i < HOLD_SPINS; i++)
		cpu_relax();
	r->changed = r->done;
	arch_spin_unlock(&current->held_locks_lock);
	arch_local_irq_restore(flags);
	return 0;
}

/* A walk of another task's list waits for that list's lock. */
static void held_lists_walked_locked(struct kunit *test)
{
	run_held_lock_pair(test, walk_held_lists_fn, hold_own_list_fn);
	KUNIT_EXPECT_TRUE(test, held_run.done);
}

static void show_all_locks_runs(struct kunit *test)
{
	DEFINE_MUTEX(m);

	mutex_lock(&m);
	mutex_debug_show_all_locks();
	mutex_debug_show_held_locks(current);
	KUNIT_EXPECT_PTR_EQ(test, list_first_entry(&current->held_locks,
				struct mutex, held_list), &m);
	mutex_unlock(&m);
	KUNIT_EXPECT_TRUE(test, list_empty(&current->held_locks));
}

/*
 * A watchdog walking the tasks, or a report, may call it with the task
 * list lock already held: it must still print, and return.
 */
static void show_all_locks_with_task_list_held(struct kunit *test)
{
	struct spin_debug_stats before = spin_debug_stats;
	unsigned long flags;
	struct snapshot s;
	DEFINE_MUTEX(m);

	mutex_lock(&m);
	snap(&s);
	spin_lock_irqsave(&task_list_lock, flags);
	/*
	 * Taking the lock again here would hang this CPU; the debug
	 * spinlocks turn that into a recursion report (and then an unlock
	 * of a lock no longer held), which must not happen either.
	 */
	mutex_debug_show_all_locks();
	KUNIT_EXPECT_TRUE(test, spin_is_locked(&task_list_lock));
	spin_unlock_irqrestore(&task_list_lock, flags);
	mutex_unlock(&m);
	KUNIT_EXPECT_EQ(test, spin_debug_stats.recursion, before.recursion);
	KUNIT_EXPECT_EQ(test, spin_debug_stats.bad_unlock, before.bad_unlock);
	KUNIT_EXPECT_EQ(test, spin_debug_stats.lockup, before.lockup);
	expect_reports(test, &s, NONE, 0);
	KUNIT_EXPECT_TRUE(test, list_empty(&current->held_locks));
}

#define REAPED		64

struct reaping {
	struct task_struct *task[REAPED];
	unsigned long log_pos;	/* where the walk's output starts */
	char first_line[32];	/* task[0]'s line in the walk */
	volatile int holding;	/* the reaper holds task_list_lock */
	bool fell_back;		/* the walk went on without task_list_lock */
};

static int exit_at_once(void *unused)
{
	return 0;
}

/*
 * Holds task_list_lock until the walk gives up on it, then, once the
 * walk has shown task[0], reaps the tasks from the last: each one the
 * walk has still to reach.
 */
static int reap_during_walk(void *arg)
{
	struct reaping *r = arg;
	unsigned long flags;

	spin_lock_irqsave(&task_list_lock, flags);
	r->holding = 1;
	while (!printk_log_find(r->log_pos, "showing the tasks without it"))
		cpu_relax();
	spin_unlock_irqrestore(&task_list_lock, flags);
	r->fell_back = true;
	while (!printk_log_find(r->log_pos, r->first_line))
		cpu_relax();
	for (int i = REAPED - 1; i >= 0; i--)
		kthread_join(r->task[i]);
	return 0;
}

/* The next online CPU after cpu, round: another one on two or more. */
static unsigned int next_online_cpu(unsigned int cpu)
{
	do
		cpu = (cpu + 1) % NR_CPUS;
	while (!cpu_online(cpu));
	return cpu;
}

/*
 * The walk that could not get task_list_lock must not lose its footing
 * when tasks are reaped meanwhile: none leaves the list under it, so it
 * shows every one of them (and follows no poisoned link).
 *
 * The reaper holds task_list_lock, interrupts off, until the walk says
 * it goes on without it. So the walk keeps its CPU from the moment the
 * reaper may take the lock, with preemption off, and the reaper is bound
 * to another CPU: a task that took the walk's CPU meanwhile and spun on
 * task_list_lock (khungtaskd, once a second) would hang both CPUs.
 */
static void show_all_locks_while_tasks_are_reaped(struct kunit *test)
{
	static struct reaping r;
	struct task_struct *reaper;
	char line[32];
	int shown = 0;

	if (num_online_cpus() < 2)
		kunit_skip(test, "the reaper needs a CPU of its own");
	memset(&r, 0, sizeof(r));
	for (int i = 0; i < REAPED; i++) {
		r.task[i] = kthread_run(exit_at_once, NULL, "reaped/%d", i);
		KUNIT_ASSERT_NOT_NULL(test, r.task[i]);
	}
	for (int i = 0; i < REAPED; i++)
		wait_for_completion(&r.task[i]->exited);
	snprintf(r.first_line, sizeof(r.first_line), " reaped/0/%d",
		 r.task[0]->pid);
	r.log_pos = printk_log_pos();
	reaper = kthread_create(reap_during_walk, &r, "reaper");
	KUNIT_ASSERT_NOT_NULL(test, reaper);
	preempt_disable();
	kthread_bind(reaper, next_online_cpu(smp_processor_id()));
	wake_up_process(reaper);
	while (!r.holding)
		cpu_relax();
	mutex_debug_show_all_locks();
	preempt_enable();
	KUNIT_EXPECT_EQ(test, kthread_join(reaper), 0);
	KUNIT_EXPECT_TRUE(test, r.fell_back);
	for (int i = 0; i < REAPED; i++) {
		snprintf(line, sizeof(line), " reaped/%d/", i);
		shown += printk_log_find(r.log_pos, line);
	}
	KUNIT_EXPECT_EQ(test, shown, REAPED);
}

/* ---- the table ---- */

static struct kunit_case mutex_debug_cases[];

static const char *scenario_result[64];

static void record_result(struct kunit *test)
{
	for (int i = 0; mutex_debug_cases[i].name; i++)
		if (!strcmp(mutex_debug_cases[i].name, test->name))
			scenario_result[i] = test->failures ? "FAILED" : "ok";
}

static void print_table(struct kunit_suite *suite)
{
	printk("    # debug-mutex scenarios:\n");
	for (int i = 0; mutex_debug_cases[i].name; i++)
		printk("    # %-28s %s\n", mutex_debug_cases[i].name,
		       scenario_result[i] ? scenario_result[i] : "not run");
}

static struct kunit_case mutex_debug_cases[] = {
	KUNIT_CASE(AA),
	KUNIT_CASE(ABBA),
	KUNIT_CASE(ABBCCA),
	KUNIT_CASE(ABCABC),
	KUNIT_CASE(ABBCCDDA),
	KUNIT_CASE(cycle_of_25),
	KUNIT_CASE(chain_over_limit),
	KUNIT_CASE(chain_within_lowered_limit),
	KUNIT_CASE(ABBA_extra_waiter_leaves),
	KUNIT_CASE(ABBA_spurious_wakeup),
	KUNIT_CASE(ABBA_joined_after_report),
	KUNIT_CASE(double_unlock),
	KUNIT_CASE(unlock_by_non_owner),
	KUNIT_CASE(unlock_unlocked),
	KUNIT_CASE(init_held),
	KUNIT_CASE(destroy_held),
	KUNIT_CASE(free_held),
	KUNIT_CASE(free_pages_held),
	KUNIT_CASE(reap_stack_held),
	KUNIT_CASE(exit_holding),
	KUNIT_CASE(use_uninitialized),
	KUNIT_CASE(use_copied),
	KUNIT_CASE(use_after_destroy),
	KUNIT_CASE_SLOW(concurrent_repair, 120),
	KUNIT_CASE_SLOW(init_with_waiters, 120),
	KUNIT_CASE_SLOW(ABBA_member_signalled, 120),
	KUNIT_CASE(use_in_irq),
	KUNIT_CASE(lock_under_spinlock),
	KUNIT_CASE(lock_with_irqs_off),
	KUNIT_CASE_SLOW(held_list_changes_locked, 120),
	KUNIT_CASE_SLOW(held_lists_walked_locked, 120),
	KUNIT_CASE(consistent_order),
	KUNIT_CASE(ABBA_trylock_backoff),
	KUNIT_CASE(long_chain_no_cycle),
	KUNIT_CASE(show_all_locks_runs),
	KUNIT_CASE_SLOW(show_all_locks_with_task_list_held, 60),
	KUNIT_CASE_SLOW(show_all_locks_while_tasks_are_reaped, 60),
	{}
};

/* Every scenario may provoke a report: that is what they are for. */
static int provokes_reports(struct kunit *test)
{
	kunit_expect_reports(test);
	return 0;
}

static struct kunit_suite mutex_debug_suite = {
	.name = "mutex_debug",
	.test_cases = mutex_debug_cases,
	.init = provokes_reports,
	.exit = record_result,
	.suite_exit = print_table,
};
kunit_test_suite(mutex_debug_suite);
