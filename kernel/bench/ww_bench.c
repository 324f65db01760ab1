// SPDX-License-Identifier: GPL-2.0
/*
 * bench=ww: transactions over many objects, each with a ww_mutex, against
 * the same work done under one global mutex.
 *
 * ww.tasks tasks each run transactions for ww.secs: a transaction picks
 * 1 to ww.held of the ww.locks objects, in a random order (include/random.h, from
 * a fixed starting state per task, so every round draws the same transactions),
 * locks them, spends ww.work_us of busy work on each object while it
 * updates the object's two counts, and unlocks them. Three rounds, in one
 * boot: the global mutex around each transaction (no deadlock possible,
 * nothing in parallel), then the objects' ww_mutexes with the back-off
 * loop, wait-die, then wound-wait. Each prints its transactions per
 * second and back-offs per transaction; each ww round its throughput
 * against the global mutex's. Every object's two counts must end equal
 * and add up to the updates made, or the round is FAILED.
 */
#include <kernel.h>
#include <sched.h>
#include <kthread.h>
#include <time.h>
#include <mutex.h>
#include <ww_mutex.h>
#include <random.h>
#include <bench.h>

enum ww_bench_lock { WWB_GLOBAL, WWB_WAIT_DIE, WWB_WOUND_WAIT, WWB_NR };

static const char *const wwb_lock_name[WWB_NR] = {
	"global", "wait-die", "wound-wait",
};

static DEFINE_WD_CLASS(bench_wait_die);
static DEFINE_WW_CLASS(bench_wound_wait);
static DEFINE_MUTEX(wwb_global);

struct wwb_object {
	struct ww_mutex lock;
	unsigned long first, second;	/* equal outside a transaction */
};

struct wwb_task {
	struct task_struct *task;
	u32 state;
	unsigned long txns, backoffs, updates, torn;
};

/* One round at a time: only bench_run() starts them. */
static struct wwb_object wwb_objects[WW_BENCH_MAX_LOCKS];
static struct wwb_task wwb_tasks[WW_BENCH_MAX_TASKS];
static const struct ww_bench_params *wwb_params;
static enum ww_bench_lock wwb_lock;
static bool wwb_stop;

/* n distinct objects' locks, in a random order, the same in every round. */
static int wwb_pick(struct ww_mutex **locks, u32 *state)
{
	int index[WW_BENCH_MAX_LOCKS];
	int n = 1 + random32_next(state) % wwb_params->held;

	random_pick(index, wwb_params->locks, n, state);
	for (int i = 0; i < n; i++)
		locks[i] = &wwb_objects[index[i]].lock;
	return n;
}

static void wwb_work(struct wwb_task *t, struct ww_mutex **locks, int n)
{
	for (int i = 0; i < n; i++) {
		struct wwb_object *o = container_of(locks[i], struct wwb_object,
						    lock);

		t->torn += o->first != o->second;
		o->first++;
		udelay(wwb_params->work_us);
		o->second++;
		t->updates++;
	}
}

static void wwb_transaction(struct wwb_task *t)
{
	struct ww_mutex *locks[WW_BENCH_MAX_HELD];
	struct ww_acquire_ctx ctx;
	int n = wwb_pick(locks, &t->state);

	if (wwb_lock == WWB_GLOBAL) {
		mutex_lock(&wwb_global);
		wwb_work(t, locks, n);
		mutex_unlock(&wwb_global);
		return;
	}
	ww_acquire_init(&ctx, wwb_lock == WWB_WAIT_DIE ? &bench_wait_die :
			&bench_wound_wait);
	t->backoffs += ww_lock_all(locks, n, &ctx);
	ww_acquire_done(&ctx);
	wwb_work(t, locks, n);
	for (int i = 0; i < n; i++)
		ww_mutex_unlock(locks[i]);
	ww_acquire_fini(&ctx);
}

static int wwb_task_fn(void *data)
{
	struct wwb_task *t = data;

	while (!READ_ONCE(wwb_stop)) {
		wwb_transaction(t);
		t->txns++;
	}
	return 0;
}

static void wwb_prepare(enum ww_bench_lock lock)
{
	struct ww_class *class = lock == WWB_WOUND_WAIT ? &bench_wound_wait :
				 &bench_wait_die;

	wwb_lock = lock;
	wwb_stop = false;
	for (int i = 0; i < wwb_params->locks; i++) {
		ww_mutex_init(&wwb_objects[i].lock, class);
		wwb_objects[i].first = wwb_objects[i].second = 0;
	}
	for (int i = 0; i < wwb_params->tasks; i++)
		wwb_tasks[i] = (struct wwb_task){ .state = 2654435761u * (i + 1) };
}

/* The round's totals, and whether every object's counts add up. */
static bool wwb_sum(struct ww_bench_result *r)
{
	unsigned long counted = 0, torn = 0;
	bool whole = true;

	for (int i = 0; i < wwb_params->tasks; i++) {
		r->txns += wwb_tasks[i].txns;
		r->backoffs += wwb_tasks[i].backoffs;
		r->updates += wwb_tasks[i].updates;
		torn += wwb_tasks[i].torn;
	}
	for (int i = 0; i < wwb_params->locks; i++) {
		whole &= wwb_objects[i].first == wwb_objects[i].second;
		counted += wwb_objects[i].first;
	}
	return whole && !torn && counted == r->updates && r->txns;
}

/* One round of msecs; 0, or -ENOMEM when a task could not start. */
static int wwb_round(enum ww_bench_lock lock, unsigned int msecs,
		     struct ww_bench_result *r)
{
	int started = 0;
	u64 start;

	wwb_prepare(lock);
	for (; started < wwb_params->tasks; started++) {
		wwb_tasks[started].task = kthread_create(wwb_task_fn,
							 &wwb_tasks[started],
							 "bench-ww/%d", started);
		if (!wwb_tasks[started].task)
			break;
	}
	start = ktime_get_ns();
	for (int i = 0; i < started; i++)
		wake_up_process(wwb_tasks[i].task);
	msleep_interruptible(started == wwb_params->tasks ? msecs : 0);
	WRITE_ONCE(wwb_stop, true);
	for (int i = 0; i < started; i++)
		kthread_join(wwb_tasks[i].task);
	*r = (struct ww_bench_result){ .lock = wwb_lock_name[lock] };
	r->elapsed_ns = ktime_get_ns() - start;
	r->ok = wwb_sum(r);
	return started == wwb_params->tasks ? 0 : -ENOMEM;
}

int ww_bench_run(const struct ww_bench_params *p,
		 struct ww_bench_result res[WW_BENCH_ROUNDS])
{
	struct ww_bench_result warm_up;

	wwb_params = p;
	/* A short round first, unmeasured: the emulator's cold code paths. */
	if (wwb_round(WWB_WAIT_DIE, 200, &warm_up))
		return -ENOMEM;
	for (int k = 0; k < WWB_NR && !signal_pending(current); k++)
		if (wwb_round(k, p->secs * 1000, &res[k]))
			return -ENOMEM;
	return 0;
}

static u64 wwb_per_sec(const struct ww_bench_result *r)
{
	return r->txns * NSEC_PER_SEC / max(r->elapsed_ns, 1ULL);
}

bool ww_bench_report(const struct ww_bench_params *p,
		     const struct ww_bench_result res[WW_BENCH_ROUNDS])
{
	bool ok = true;

	for (int k = 0; k < WWB_NR; k++) {
		const struct ww_bench_result *r = &res[k];

		printk("bench: ww lock=%s tasks=%d locks=%d held=%d "
		       "work_us=%d txns=%lu txn_per_sec=%llu backoffs=%lu "
		       "backoffs_per_txn=%llu.%04llu%s\n", r->lock, p->tasks,
		       p->locks, p->held, p->work_us, r->txns, wwb_per_sec(r),
		       r->backoffs, FIXED4((u64)r->backoffs * 10000 /
					   max(r->txns, 1UL)),
		       r->ok ? "" : " FAILED");
		ok &= r->ok;
	}
	for (int k = WWB_WAIT_DIE; k < WWB_NR; k++)
		printk("bench: ww-ratio lock=%s base=global "
		       "throughput=%llu.%02llu\n", res[k].lock,
		       FIXED2(wwb_per_sec(&res[k]) * 100 /
			      max(wwb_per_sec(&res[WWB_GLOBAL]), 1ULL)));
	return ok;
}
