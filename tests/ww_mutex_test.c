// SPDX-License-Identifier: GPL-2.0
/*
 * The wound/wait mutex (include/ww_mutex.h), in the spirit of Linux's
 * test-ww_mutex: the API's contract, the stamp order of the waiters,
 * the AB-BA pair and a ring of tasks resolved by backing off under both
 * algorithms, a stress of random transactions that must leave every
 * lock's invariant whole, wound-wait waking a younger holder asleep on
 * another lock, and, in the debug build, the reports of broken rules.
 */
#include <kernel.h>
#include <ww_mutex.h>
#include <random.h>
#include <printk.h>
#include <lockdep.h>
#include "helpers.h"

static DEFINE_WD_CLASS(wd_class);
static DEFINE_WW_CLASS(ww_class);

/*
 * The cases keep their ww_mutexes in static storage: in the debug build
 * mutex_init() of stack memory that an earlier case's data left looking
 * like a held mutex is refused (docs/mutex-debug.md).
 */

/* Generous: only a real hang takes this long. */
#define WAIT_SECS	60

/*
 * The debug build's deadlock detector must see no deadlock where
 * wound/wait resolves one: a waiter it sends back is backing out.
 */
static unsigned long deadlock_reports(void)
{
#ifdef CONFIG_DEBUG_MUTEXES
	return mutex_debug_reports[MUTEX_BUG_CIRCULAR];
#else
	return 0;
#endif
}

/* ---- the contract, in one task ---- */

static void lock_trylock_already(struct kunit *test)
{
	static struct ww_mutex a, b;
	struct ww_acquire_ctx ctx;

	ww_mutex_init(&a, &wd_class);
	ww_mutex_init(&b, &wd_class);
	ww_acquire_init(&ctx, &wd_class);
	KUNIT_EXPECT_EQ(test, ww_mutex_lock(&a, &ctx), 0);
	KUNIT_EXPECT_TRUE(test, ww_mutex_is_locked(&a));
	KUNIT_EXPECT_PTR_EQ(test, a.ctx, &ctx);
	KUNIT_EXPECT_EQ(test, ww_mutex_lock(&a, &ctx), -EALREADY);
	KUNIT_EXPECT_EQ(test, ww_mutex_lock_interruptible(&a, &ctx),
			-EALREADY);
	KUNIT_EXPECT_EQ(test, ww_mutex_trylock(&a, &ctx), 0);
	KUNIT_EXPECT_EQ(test, ww_mutex_trylock(&b, &ctx), 1);
	KUNIT_EXPECT_PTR_EQ(test, b.ctx, &ctx);
	KUNIT_EXPECT_EQ(test, ctx.acquired, 2);
	ww_acquire_done(&ctx);
	ww_mutex_unlock(&b);
	ww_mutex_unlock(&a);
	KUNIT_EXPECT_EQ(test, ctx.acquired, 0);
	KUNIT_EXPECT_FALSE(test, ww_mutex_is_locked(&a));
	KUNIT_EXPECT_FALSE(test, ww_mutex_is_locked(&b));
	KUNIT_EXPECT_NULL(test, a.ctx);
	ww_acquire_fini(&ctx);

	/* Without a context: a plain mutex. */
	KUNIT_EXPECT_EQ(test, ww_mutex_lock(&a, NULL), 0);
	KUNIT_EXPECT_NULL(test, a.ctx);
	KUNIT_EXPECT_EQ(test, ww_mutex_trylock(&a, NULL), 0);
	ww_mutex_unlock(&a);
	KUNIT_EXPECT_EQ(test, atomic_read(&a.base.count), 1);
}

static void stamps_grow(struct kunit *test)
{
	struct ww_acquire_ctx first, second;

	ww_acquire_init(&first, &ww_class);
	ww_acquire_fini(&first);
	ww_acquire_init(&second, &wd_class);
	ww_acquire_fini(&second);
	KUNIT_EXPECT_GT(test, (int)(second.stamp - first.stamp), 0);
}

/* ---- a holder in a task of its own ---- */

struct holder {
	struct ww_class *ww_class;
	struct ww_mutex *lock;
	struct ww_acquire_ctx ctx;
	volatile int holding;
	volatile int release;
};

static int hold_until_released(void *arg)
{
	struct holder *h = arg;

	ww_acquire_init(&h->ctx, h->ww_class);
	ww_mutex_lock(h->lock, &h->ctx);
	WRITE_ONCE(h->holding, 1);
	while (!READ_ONCE(h->release))
		msleep_poll(1);
	ww_mutex_unlock(h->lock);
	ww_acquire_fini(&h->ctx);
	return 0;
}

static struct task_struct *start_holder(struct kunit *test, struct holder *h)
{
	struct task_struct *t = kthread_run(hold_until_released, h, "ww-hold");

	KUNIT_ASSERT_NOT_NULL(test, t);
	KUNIT_ASSERT_TRUE(test, wait_for_count(&h->holding, 1, WAIT_SECS));
	return t;
}

/*
 * Wait-die, in one task: younger than the holder and holding a lock, it
 * dies at once; back off and the slow path waits for the lock.
 */
static void deadlk_then_slow_path(struct kunit *test)
{
	static struct ww_mutex a, b;
	struct holder h = { .ww_class = &wd_class, .lock = &a };
	struct ww_acquire_ctx ctx;
	struct task_struct *t;

	ww_mutex_init(&a, &wd_class);
	ww_mutex_init(&b, &wd_class);
	t = start_holder(test, &h);
	ww_acquire_init(&ctx, &wd_class);
	KUNIT_EXPECT_EQ(test, ww_mutex_lock(&b, &ctx), 0);
	KUNIT_EXPECT_EQ(test, ww_mutex_lock(&a, &ctx), -EDEADLK);
	KUNIT_EXPECT_EQ(test, ctx.acquired, 1);
	KUNIT_EXPECT_TRUE(test, list_empty(&a.base.wait_list));
	ww_mutex_unlock(&b);
	WRITE_ONCE(h.release, 1);
	ww_mutex_lock_slow(&a, &ctx);
	KUNIT_EXPECT_PTR_EQ(test, a.ctx, &ctx);
	KUNIT_EXPECT_EQ(test, ww_mutex_lock(&b, &ctx), 0);
	ww_mutex_unlock(&a);
	ww_mutex_unlock(&b);
	ww_acquire_fini(&ctx);
	kthread_join(t);
}

static struct ww_mutex intr_lock;
static struct ww_acquire_ctx intr_ctx;

static int intr_waiter(void *arg)
{
	struct ww_mutex *other = arg;
	int ret;

	ww_acquire_init(&intr_ctx, &wd_class);
	ret = ww_mutex_lock(other, &intr_ctx);
	if (!ret) {
		ret = ww_mutex_lock_interruptible(&intr_lock, &intr_ctx);
		ww_mutex_unlock(other);
	}
	ww_acquire_fini(&intr_ctx);
	return ret;
}

/* A signal ends an interruptible wait with -EINTR, and only that wait. */
static void interruptible_gets_eintr(struct kunit *test)
{
	static struct ww_mutex other;
	struct ww_acquire_ctx ctx;
	struct task_struct *t;

	ww_mutex_init(&intr_lock, &wd_class);
	ww_mutex_init(&other, &wd_class);
	/* Older than the waiter: it waits rather than dies. */
	ww_acquire_init(&ctx, &wd_class);
	ww_mutex_lock(&intr_lock, NULL);
	t = kthread_run(intr_waiter, &other, "ww-intr");
	KUNIT_ASSERT_NOT_NULL(test, t);
	KUNIT_ASSERT_TRUE(test, wait_for_sleep(t, TASK_INTERRUPTIBLE,
					       WAIT_SECS));
	send_sig(SIGINT, t, 0);
	KUNIT_EXPECT_EQ(test, kthread_join(t), -EINTR);
	KUNIT_EXPECT_TRUE(test, list_empty(&intr_lock.base.wait_list));
	KUNIT_EXPECT_PTR_EQ(test, intr_lock.ctx, NULL);
	ww_mutex_unlock(&intr_lock);
	ww_acquire_fini(&ctx);
	KUNIT_EXPECT_FALSE(test, ww_mutex_is_locked(&other));
}

/* ---- the waiters in stamp order ---- */

#define ORDER_TASKS	4

struct order_task {
	struct ww_mutex *lock;
	struct ww_acquire_ctx ctx;
	volatile int inited;
	volatile int go;
	struct order_log *log;
	int id;
};

static int order_fn(void *arg)
{
	struct order_task *o = arg;

	/* Made in id order: 0 is the oldest. */
	ww_acquire_init(&o->ctx, &ww_class);
	WRITE_ONCE(o->inited, 1);
	while (!READ_ONCE(o->go))
		msleep_poll(1);
	ww_mutex_lock(o->lock, o->id == ORDER_TASKS ? NULL : &o->ctx);
	order_log_add(o->log, o->id);
	ww_mutex_unlock(o->lock);
	ww_acquire_fini(&o->ctx);
	return 0;
}

/*
 * Contexts made oldest first queue youngest first, each holding nothing
 * (so none is told to back off), after a waiter without a context: the
 * list, and so the unlocks, serve that waiter first (a waiter without a
 * context keeps its place in line), then the contexts oldest first.
 */
static void waiters_in_stamp_order(struct kunit *test)
{
	static struct order_task o[ORDER_TASKS + 1];
	struct task_struct *t[ORDER_TASKS + 1];
	struct order_log log;
	static struct ww_mutex lock;

	ww_mutex_init(&lock, &ww_class);
	order_log_init(&log);
	ww_mutex_lock(&lock, NULL);
	for (int i = 0; i <= ORDER_TASKS; i++) {
		o[i] = (struct order_task){ .lock = &lock, .log = &log, .id = i };
		t[i] = kthread_run(order_fn, &o[i], "ww-order/%d", i);
		KUNIT_ASSERT_NOT_NULL(test, t[i]);
		KUNIT_ASSERT_TRUE(test, wait_for_count(&o[i].inited, 1,
						       WAIT_SECS));
	}
	/* The one without a context first, then the youngest up. */
	for (int i = ORDER_TASKS, n = 1; i >= 0; i--, n++) {
		WRITE_ONCE(o[i].go, 1);
		KUNIT_ASSERT_TRUE(test, wait_for_waiters(&lock.base, n));
	}
	ww_mutex_unlock(&lock);
	for (int i = 0; i <= ORDER_TASKS; i++)
		kthread_join(t[i]);
	KUNIT_EXPECT_EQ(test, order_log_find(&log, ORDER_TASKS), 0);
	for (int i = 0; i < ORDER_TASKS; i++)
		KUNIT_EXPECT_EQ(test, order_log_find(&log, i), i + 1);
}

/* ---- AB-BA: two tasks, each holding what the other wants next ---- */

struct abba;

struct abba_side {
	struct abba *pair;
	struct ww_mutex *locks[2];	/* taken in this order */
	struct ww_acquire_ctx ctx;
	int backoffs;
};

struct abba {
	struct ww_class *ww_class;
	struct ww_mutex a, b;
	volatile int holding;		/* sides holding their first lock */
	struct abba_side side[2];
};

static int abba_fn(void *arg)
{
	struct abba_side *s = arg;

	ww_acquire_init(&s->ctx, s->pair->ww_class);
	/* Holding nothing, a context is never told to back off. */
	if (ww_mutex_lock(s->locks[0], &s->ctx))
		return -EINVAL;
	__atomic_add_fetch(&s->pair->holding, 1, __ATOMIC_SEQ_CST);
	/* Both hold one: each now wants the other's, a deadlock to avoid. */
	if (!wait_for_count(&s->pair->holding, 2, WAIT_SECS))
		return -ETIMEDOUT;
	s->backoffs = ww_lock_all(s->locks, 2, &s->ctx);
	ww_mutex_unlock(s->locks[1]);
	ww_mutex_unlock(s->locks[0]);
	ww_acquire_fini(&s->ctx);
	return 0;
}

/*
 * Each side must finish; the younger one backs off (at least once), the
 * older one never: it wins, under either algorithm.
 */
static void abba(struct kunit *test, struct ww_class *ww_class)
{
	static struct abba p;
	unsigned long reports = deadlock_reports();
	struct abba_side *older, *younger;
	struct workers w;

	p = (struct abba){ .ww_class = ww_class };
	ww_mutex_init(&p.a, ww_class);
	ww_mutex_init(&p.b, ww_class);
	p.side[0] = (struct abba_side){ .pair = &p, .locks = { &p.a, &p.b } };
	p.side[1] = (struct abba_side){ .pair = &p, .locks = { &p.b, &p.a } };
	KUNIT_ASSERT_EQ(test, workers_start(&w, 2, abba_fn, p.side,
					    sizeof(p.side[0]), true, "ww-abba"),
			2);
	KUNIT_EXPECT_EQ(test, workers_join(&w), 0);
	older = (int)(p.side[0].ctx.stamp - p.side[1].ctx.stamp) < 0 ?
		&p.side[0] : &p.side[1];
	younger = older == &p.side[0] ? &p.side[1] : &p.side[0];
	KUNIT_EXPECT_EQ(test, older->backoffs, 0);
	KUNIT_EXPECT_GT(test, younger->backoffs, 0);
	KUNIT_EXPECT_FALSE(test, ww_mutex_is_locked(&p.a));
	KUNIT_EXPECT_FALSE(test, ww_mutex_is_locked(&p.b));
	KUNIT_EXPECT_EQ(test, deadlock_reports(), reports);
}

static void abba_wait_die(struct kunit *test)
{
	abba(test, &wd_class);
}

static void abba_wound_wait(struct kunit *test)
{
	abba(test, &ww_class);
}

/* ---- a ring: task i holds lock i and wants lock i + 1 ---- */

#define RING_TASKS	5

struct ring_task {
	struct ww_mutex *locks[2];
	struct ww_class *ww_class;
	volatile int *holding;
	int backoffs;
};

static int ring_fn(void *arg)
{
	struct ring_task *r = arg;
	struct ww_acquire_ctx ctx;

	ww_acquire_init(&ctx, r->ww_class);
	if (ww_mutex_lock(r->locks[0], &ctx))
		return -EINVAL;
	__atomic_add_fetch(r->holding, 1, __ATOMIC_SEQ_CST);
	if (!wait_for_count(r->holding, RING_TASKS, WAIT_SECS))
		return -ETIMEDOUT;
	/* Its first lock is held already: ww_lock_all() takes it as such. */
	r->backoffs = ww_lock_all(r->locks, 2, &ctx);
	ww_mutex_unlock(r->locks[1]);
	ww_mutex_unlock(r->locks[0]);
	ww_acquire_fini(&ctx);
	return 0;
}

static void ring(struct kunit *test, struct ww_class *ww_class)
{
	static struct ww_mutex locks[RING_TASKS];
	static struct ring_task tasks[RING_TASKS];
	static volatile int holding;
	unsigned long reports = deadlock_reports();
	struct workers w;
	int backoffs = 0;

	holding = 0;
	for (int i = 0; i < RING_TASKS; i++)
		ww_mutex_init(&locks[i], ww_class);
	for (int i = 0; i < RING_TASKS; i++)
		tasks[i] = (struct ring_task){
			.locks = { &locks[i], &locks[(i + 1) % RING_TASKS] },
			.ww_class = ww_class, .holding = &holding };
	KUNIT_ASSERT_EQ(test, workers_start(&w, RING_TASKS, ring_fn, tasks,
					    sizeof(tasks[0]), true, "ww-ring"),
			RING_TASKS);
	KUNIT_EXPECT_EQ(test, workers_join(&w), 0);
	for (int i = 0; i < RING_TASKS; i++) {
		backoffs += tasks[i].backoffs;
		KUNIT_EXPECT_FALSE(test, ww_mutex_is_locked(&locks[i]));
	}
	/* A closed ring: without a back-off it would have deadlocked. */
	KUNIT_EXPECT_GT(test, backoffs, 0);
	KUNIT_EXPECT_EQ(test, deadlock_reports(), reports);
}

static void ring_wait_die(struct kunit *test)
{
	ring(test, &wd_class);
}

static void ring_wound_wait(struct kunit *test)
{
	ring(test, &ww_class);
}

/* ---- stress: random transactions over many locks ---- */

#define STRESS_LOCKS		16
#define STRESS_MAX_HELD		6	/* within the validator's 32 */
#define STRESS_TRANSACTIONS	800	/* in all, times stress= */

/* Each lock keeps a pair of counts equal: changed one at a time. */
struct guarded {
	struct ww_mutex lock;
	unsigned long first, second;
};

static struct guarded guarded[STRESS_LOCKS];

struct stress_task {
	struct ww_class *ww_class;
	u32 state;
	int loops;
	unsigned long increments;
	int backoffs;
	int torn;			/* pairs seen unequal */
};

/* n distinct locks, in a random order. */
static int pick_locks(struct ww_mutex **locks, u32 *state)
{
	int index[STRESS_LOCKS];
	int n = 1 + random32_next(state) % STRESS_MAX_HELD;

	random_pick(index, STRESS_LOCKS, n, state);
	for (int i = 0; i < n; i++)
		locks[i] = &guarded[index[i]].lock;
	return n;
}

static void transaction(struct stress_task *s, int round)
{
	struct ww_mutex *locks[STRESS_MAX_HELD];
	struct ww_acquire_ctx ctx;
	int n = pick_locks(locks, &s->state);

	ww_acquire_init(&ctx, s->ww_class);
	s->backoffs += ww_lock_all(locks, n, &ctx);
	ww_acquire_done(&ctx);
	for (int i = 0; i < n; i++) {
		struct guarded *g = container_of(locks[i], struct guarded, lock);

		s->torn += g->first != g->second;
		g->first++;
		/* Now and then, sleep with the pair apart and locks held. */
		if (round % 8 == i)
			yield();
		g->second++;
		s->increments++;
	}
	for (int i = 0; i < n; i++)
		ww_mutex_unlock(locks[i]);
	ww_acquire_fini(&ctx);
}

static int stress_fn(void *arg)
{
	struct stress_task *s = arg;

	for (int round = 0; round < s->loops; round++)
		transaction(s, round);
	return 0;
}

static void stress(struct kunit *test, struct ww_class *ww_class)
{
	static struct stress_task tasks[MAX_WORKERS];
	int n = num_online_cpus() * 2 + 2;
	unsigned long increments = 0, counted = 0;
	unsigned long reports = deadlock_reports();
	int backoffs = 0, torn = 0;
	struct workers w;

	for (int i = 0; i < STRESS_LOCKS; i++) {
		ww_mutex_init(&guarded[i].lock, ww_class);
		guarded[i].first = guarded[i].second = 0;
	}
	for (int i = 0; i < n; i++)
		tasks[i] = (struct stress_task){
			.ww_class = ww_class, .state = 2654435761u * (i + 1),
			.loops = STRESS_TRANSACTIONS * stress_factor / n };
	KUNIT_ASSERT_EQ(test, workers_start(&w, n, stress_fn, tasks,
					    sizeof(tasks[0]), true, "ww-stress"),
			n);
	KUNIT_EXPECT_EQ(test, workers_join(&w), 0);
	for (int i = 0; i < n; i++) {
		increments += tasks[i].increments;
		backoffs += tasks[i].backoffs;
		torn += tasks[i].torn;
	}
	for (int i = 0; i < STRESS_LOCKS; i++) {
		KUNIT_EXPECT_EQ(test, guarded[i].first, guarded[i].second);
		KUNIT_EXPECT_FALSE(test, ww_mutex_is_locked(&guarded[i].lock));
		counted += guarded[i].first;
	}
	KUNIT_EXPECT_EQ(test, torn, 0);
	KUNIT_EXPECT_EQ(test, counted, increments);
	KUNIT_EXPECT_EQ(test, deadlock_reports(), reports);
	kunit_info(test, "%d tasks, %lu increments, %d back-offs", n,
		   increments, backoffs);
}

static void stress_wait_die(struct kunit *test)
{
	stress(test, &wd_class);
}

static void stress_wound_wait(struct kunit *test)
{
	stress(test, &ww_class);
}

/* ---- wound-wait: an older context wakes a younger holder ---- */

struct wound {
	struct ww_mutex held_by_young, held_by_plain;
	volatile int old_ready, go, old_has_it, young_has_it;
	volatile int young_ret;
};

static int wound_old_fn(void *arg)
{
	struct wound *wd = arg;
	struct ww_acquire_ctx ctx;

	ww_acquire_init(&ctx, &ww_class);
	WRITE_ONCE(wd->old_ready, 1);
	while (!READ_ONCE(wd->go))
		msleep_poll(1);
	/* Younger holder: wounded, and woken where it sleeps. */
	ww_mutex_lock(&wd->held_by_young, &ctx);
	WRITE_ONCE(wd->old_has_it, 1);
	ww_mutex_unlock(&wd->held_by_young);
	ww_acquire_fini(&ctx);
	return 0;
}

static int wound_young_fn(void *arg)
{
	struct wound *wd = arg;
	struct ww_mutex *locks[2] = { &wd->held_by_young, &wd->held_by_plain };
	struct ww_acquire_ctx ctx;
	int ret;

	ww_acquire_init(&ctx, &ww_class);
	ww_mutex_lock(locks[0], &ctx);
	WRITE_ONCE(wd->young_has_it, 1);
	/* Held without a context: no rule sends us back; we sleep. */
	ret = ww_mutex_lock(locks[1], &ctx);
	WRITE_ONCE(wd->young_ret, ret);
	if (ret == -EDEADLK) {
		ww_mutex_unlock(locks[0]);
		ww_mutex_lock_slow(locks[1], &ctx);
		ww_mutex_lock(locks[0], &ctx);
	}
	ww_mutex_unlock(locks[1]);
	ww_mutex_unlock(locks[0]);
	ww_acquire_fini(&ctx);
	return 0;
}

/*
 * The younger context holds a lock and sleeps on one held without a
 * context; the older one then wants the younger's lock. Wounded, the
 * younger wakes with -EDEADLK and lets go, while the other lock is
 * still held: without the wound the older one would wait for ever.
 */
static void wound_wakes_sleeping_holder(struct kunit *test)
{
	static struct wound wd;
	struct task_struct *old, *young;

	wd = (struct wound){ .young_ret = 1 };
	ww_mutex_init(&wd.held_by_young, &ww_class);
	ww_mutex_init(&wd.held_by_plain, &ww_class);
	ww_mutex_lock(&wd.held_by_plain, NULL);
	old = kthread_run(wound_old_fn, &wd, "ww-old");
	KUNIT_ASSERT_NOT_NULL(test, old);
	KUNIT_ASSERT_TRUE(test, wait_for_count(&wd.old_ready, 1, WAIT_SECS));
	young = kthread_run(wound_young_fn, &wd, "ww-young");
	KUNIT_ASSERT_NOT_NULL(test, young);
	KUNIT_ASSERT_TRUE(test, wait_for_count(&wd.young_has_it, 1, WAIT_SECS));
	KUNIT_ASSERT_TRUE(test, wait_for_waiters(&wd.held_by_plain.base, 1));
	WRITE_ONCE(wd.go, 1);
	KUNIT_EXPECT_TRUE(test, wait_for_count(&wd.old_has_it, 1, WAIT_SECS));
	KUNIT_EXPECT_EQ(test, wd.young_ret, -EDEADLK);
	ww_mutex_unlock(&wd.held_by_plain);
	kthread_join(old);
	kthread_join(young);
	KUNIT_EXPECT_FALSE(test, ww_mutex_is_locked(&wd.held_by_young));
	KUNIT_EXPECT_FALSE(test, ww_mutex_is_locked(&wd.held_by_plain));
}

/* ---- the debug build's reports of broken rules ---- */

#ifdef CONFIG_DEBUG_MUTEXES

/* Exactly one report of kind since before, saying text, from pos on. */
static void expect_report(struct kunit *test, enum mutex_bug kind,
			  unsigned long before, unsigned long pos,
			  const char *text)
{
	KUNIT_EXPECT_EQ(test, mutex_debug_reports[kind] - before, 1);
	KUNIT_EXPECT_TRUE(test, printk_log_find(pos, mutex_bug_title[kind]));
	KUNIT_EXPECT_TRUE(test, printk_log_find(pos, text));
}

static void debug_context_of_two_classes(struct kunit *test)
{
	unsigned long before = mutex_debug_reports[MUTEX_BUG_WW_CLASS];
	unsigned long pos = printk_log_pos();
	struct ww_acquire_ctx ctx;
	static struct ww_mutex lock;

	kunit_expect_reports(test);
	ww_mutex_init(&lock, &ww_class);
	ww_acquire_init(&ctx, &wd_class);
	/* Reported, then taken: the kernel goes on. */
	KUNIT_EXPECT_EQ(test, ww_mutex_lock(&lock, &ctx), 0);
	expect_report(test, MUTEX_BUG_WW_CLASS, before, pos,
		      "wait-die, of the class of {wd_class_mutex}, 0 held");
	KUNIT_EXPECT_TRUE(test, printk_log_find(pos, "{ww_class_mutex}"));
	ww_mutex_unlock(&lock);
	ww_acquire_fini(&ctx);
}

static void debug_lock_without_backing_off(struct kunit *test)
{
	unsigned long before = mutex_debug_reports[MUTEX_BUG_WW_NO_BACKOFF];
	static struct ww_mutex a, b, c;
	struct holder h = { .ww_class = &wd_class, .lock = &a };
	struct ww_acquire_ctx ctx;
	struct task_struct *t;
	unsigned long pos;

	kunit_expect_reports(test);
	ww_mutex_init(&a, &wd_class);
	ww_mutex_init(&b, &wd_class);
	ww_mutex_init(&c, &wd_class);
	t = start_holder(test, &h);
	ww_acquire_init(&ctx, &wd_class);
	KUNIT_EXPECT_EQ(test, ww_mutex_lock(&b, &ctx), 0);
	KUNIT_EXPECT_EQ(test, ww_mutex_lock(&a, &ctx), -EDEADLK);
	/* Still holding b: the rule says release it first. */
	pos = printk_log_pos();
	KUNIT_EXPECT_EQ(test, ww_mutex_lock(&c, &ctx), 0);
	expect_report(test, MUTEX_BUG_WW_NO_BACKOFF, before, pos,
		      "1 held, -EDEADLK on [");
	ww_mutex_unlock(&c);
	ww_mutex_unlock(&b);
	WRITE_ONCE(h.release, 1);
	kthread_join(t);
	/* Backed off, no report: holding nothing, it may go on. */
	KUNIT_EXPECT_EQ(test, ww_mutex_lock(&a, &ctx), 0);
	KUNIT_EXPECT_EQ(test, ww_mutex_lock(&b, &ctx), 0);
	KUNIT_EXPECT_EQ(test, mutex_debug_reports[MUTEX_BUG_WW_NO_BACKOFF] -
			before, 1);
	ww_mutex_unlock(&a);
	ww_mutex_unlock(&b);
	ww_acquire_fini(&ctx);
}

static void debug_fini_with_locks_held(struct kunit *test)
{
	unsigned long before = mutex_debug_reports[MUTEX_BUG_WW_FINI_HELD];
	struct ww_acquire_ctx ctx;
	static struct ww_mutex lock;
	unsigned long pos;

	kunit_expect_reports(test);
	ww_mutex_init(&lock, &ww_class);
	ww_acquire_init(&ctx, &ww_class);
	ww_mutex_lock(&lock, &ctx);
	pos = printk_log_pos();
	ww_acquire_fini(&ctx);
	expect_report(test, MUTEX_BUG_WW_FINI_HELD, before, pos,
		      "wound-wait, of the class of {ww_class_mutex}, 1 held");
	/* The held list names the lock and where it was taken. */
	KUNIT_EXPECT_TRUE(test, printk_log_find(pos,
		"{ww_class_mutex} acquired at debug_fini_with_locks_held"));
	ww_mutex_unlock(&lock);
}

static void debug_lock_after_done(struct kunit *test)
{
	unsigned long before = mutex_debug_reports[MUTEX_BUG_WW_AFTER_DONE];
	struct ww_acquire_ctx ctx;
	static struct ww_mutex a, b;
	unsigned long pos;

	kunit_expect_reports(test);
	ww_mutex_init(&a, &ww_class);
	ww_mutex_init(&b, &ww_class);
	ww_acquire_init(&ctx, &ww_class);
	ww_mutex_lock(&a, &ctx);
	ww_acquire_done(&ctx);
	pos = printk_log_pos();
	KUNIT_EXPECT_EQ(test, ww_mutex_lock(&b, &ctx), 0);
	expect_report(test, MUTEX_BUG_WW_AFTER_DONE, before, pos,
		      " ... used at:     debug_lock_after_done");
	ww_mutex_unlock(&b);
	ww_mutex_unlock(&a);
	ww_acquire_fini(&ctx);
}

#define DEBUG_CASES							\
	KUNIT_CASE(debug_context_of_two_classes),			\
	KUNIT_CASE(debug_lock_without_backing_off),			\
	KUNIT_CASE(debug_fini_with_locks_held),				\
	KUNIT_CASE(debug_lock_after_done),
#else
#define DEBUG_CASES
#endif

/* ---- the lock validator and the acquire context ---- */

#ifdef CONFIG_PROVE_LOCKING

static DEFINE_WW_CLASS(nest_class);

/*
 * Many locks of one class under one context nest in the context: no
 * report. The same two without a context are recursion.
 */
static void validator_knows_the_context(struct kunit *test)
{
	unsigned long before = lockdep_reports[LOCKDEP_BUG_RECURSIVE];
	struct ww_acquire_ctx ctx;
	static struct ww_mutex locks[4];
	unsigned long pos;

	for (int i = 0; i < 4; i++)
		ww_mutex_init(&locks[i], &nest_class);
	ww_acquire_init(&ctx, &nest_class);
	for (int i = 0; i < 4; i++)
		KUNIT_EXPECT_EQ(test, ww_mutex_lock(&locks[i], &ctx), 0);
	for (int i = 0; i < 4; i++)
		ww_mutex_unlock(&locks[i]);
	ww_acquire_fini(&ctx);
	KUNIT_EXPECT_EQ(test, lockdep_reports[LOCKDEP_BUG_RECURSIVE], before);

	kunit_expect_reports(test);
	pos = printk_log_pos();
	ww_mutex_lock(&locks[0], NULL);
	ww_mutex_lock(&locks[1], NULL);
	ww_mutex_unlock(&locks[1]);
	ww_mutex_unlock(&locks[0]);
	KUNIT_EXPECT_EQ(test, lockdep_reports[LOCKDEP_BUG_RECURSIVE],
			before + 1);
	KUNIT_EXPECT_TRUE(test, printk_log_find(pos,
		"WARNING: possible recursive locking detected"));
	KUNIT_EXPECT_TRUE(test, printk_log_find(pos, "{nest_class_mutex"));
}

#define VALIDATOR_CASES	KUNIT_CASE(validator_knows_the_context),
#else
#define VALIDATOR_CASES
#endif

static struct kunit_case ww_mutex_cases[] = {
	KUNIT_CASE(lock_trylock_already),
	KUNIT_CASE(stamps_grow),
	KUNIT_CASE(deadlk_then_slow_path),
	KUNIT_CASE(interruptible_gets_eintr),
	KUNIT_CASE(waiters_in_stamp_order),
	KUNIT_CASE(abba_wait_die),
	KUNIT_CASE(abba_wound_wait),
	KUNIT_CASE(ring_wait_die),
	KUNIT_CASE(ring_wound_wait),
	KUNIT_CASE_SLOW(stress_wait_die, 600),
	KUNIT_CASE_SLOW(stress_wound_wait, 600),
	KUNIT_CASE(wound_wakes_sleeping_holder),
	DEBUG_CASES
	VALIDATOR_CASES
	{}
};

static struct kunit_suite ww_mutex_suite = {
	.name = "ww_mutex",
	.test_cases = ww_mutex_cases,
};
kunit_test_suite(ww_mutex_suite);
