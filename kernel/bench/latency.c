// SPDX-License-Identifier: GPL-2.0
/*
 * bench=latency: how long a woken real-time task waits for its CPU, from
 * the wake call to its first instruction, through each wake path, the way
 * cyclictest measures a kernel: a histogram of wakeups and its min,
 * median, 99th percentile and max, on an idle machine and beside a CPU
 * hog on every CPU.
 *
 * Every CPU has a waker (FIFO LAT_WAKER_PRIO) and two sleepers (FIFO
 * LAT_SLEEPER_PRIO), all bound to it: the local one, which its waker
 * wakes, and the remote one, which the waker of the CPU before it wakes.
 * The wakers take turns, one tick each, CPU after CPU: a timer wakes the
 * waker whose turn it is (the timer path), and the waker then wakes its
 * local sleeper once through each other path, and the next CPU's remote
 * sleeper from here (the cross-CPU path), then arms the next CPU's timer
 * and sleeps. So each turn gives one sample of every path, and while one
 * CPU measures, the others are in the state the load leaves them in:
 * idle, or running their hog. The local sleeper is more urgent than its
 * waker, so it must preempt inside the wake call; it notes whether its
 * waker got past the call first (late), which breaks the scheduler's
 * promise (docs/scheduler.md).
 *
 * Each sample has two wakeups: one, untimed, tells the sleeper which
 * primitive to block in (and the waker takes the lock first where the
 * primitive is a lock), the second, timed, is the one the path makes.
 * A remote sleeper is told by its own waker, as it starts and at the end
 * of each turn, so that no waker has to wait for another CPU to see it
 * asleep; the driver tells the ones still unarmed before each load.
 */
#include <kernel.h>
#include <string.h>
#include <sched.h>
#include <kthread.h>
#include <smp.h>
#include <time.h>
#include <timer.h>
#include <mm.h>
#include <sort.h>
#include <completion.h>
#include <wait.h>
#include <semaphore.h>
#include <mutex.h>
#include <rtmutex.h>
#include <bench.h>

#define LAT_SLEEPER_PRIO	80
#define LAT_WAKER_PRIO		40
/* Histogram buckets per octave: each a quarter of its power of two. */
#define LAT_SUB			4
#define LAT_SUB_SHIFT		2

struct lat_run;

/* A task woken for samples, and what its waker tells it. */
struct lat_sleeper {
	struct task_struct *task;
	enum latency_path path;		/* what it blocks in once armed */
	int armed, cond, went_on, recorded;
	/* A remote waker sleeps until the answer: whom to wake with it. */
	struct task_struct *answer_to;
	u64 t0;				/* when the timed wake was called */
	u32 sample_ns;			/* the answer */
	int sample_late;
	struct completion done;
	wait_queue_head_t wq;
	struct semaphore sem;
	struct mutex mutex;
	struct rt_mutex rt_mutex;
};

struct lat_cpu {
	struct lat_run *run;
	unsigned int cpu;
	struct lat_cpu *next;		/* whose turn comes after ours */
	struct task_struct *waker, *hog;
	struct lat_sleeper local, remote;
	struct timer_list timer;
	int turn;			/* set by the timer: the waker's turn */
	u64 timer_t0;			/* when the timer called the wake */
};

struct lat_run {
	struct lat_cpu cpu[NR_CPUS];
	unsigned int ncpus;
	unsigned int turns_left;	/* of this load; only the turn's waker */
	int stop;			/* Ctrl-C: end after this turn */
	int hog_stop;
	bool hog_relax;
	struct completion ready;	/* a waker has armed its remote sleeper */
	struct completion finished;	/* the last turn of a load is done */
	/* This load's samples, added by the waker whose turn it is. */
	u32 *ns[NR_LATENCY_PATHS];
	unsigned int n[NR_LATENCY_PATHS];
	unsigned int late[NR_LATENCY_PATHS];
};

/* ---------------------------------------------------------- arithmetic */

/*
 * 0..3 have a bucket each; from 4 on, an octave [2^k, 2^(k+1)) has four,
 * each 2^(k-2) wide: 12.5 to 25 % of the values in it, from nanoseconds
 * to seconds in 124 buckets.
 */
unsigned int latency_bucket(u32 ns)
{
	unsigned int top;

	if (ns < LAT_SUB)
		return ns;
	top = 31 - __builtin_clz(ns);
	return LAT_SUB * (top - 1) + (ns >> (top - LAT_SUB_SHIFT)) - LAT_SUB;
}

/* The smallest value in a bucket (and so one past the last of bucket-1). */
u64 latency_bucket_lo(unsigned int bucket)
{
	if (bucket < LAT_SUB)
		return bucket;
	return (u64)(LAT_SUB + bucket % LAT_SUB) << (bucket / LAT_SUB - 1);
}

/*
 * The nearest-rank percentile: the smallest sample that at least pct %
 * of the samples are at or below. So the median of an even count is the
 * lower of the middle two, and p99 of fewer than 100 samples is the max.
 */
u32 latency_percentile(const u32 *sorted, unsigned int n, unsigned int pct)
{
	u64 rank = ((u64)pct * n + 99) / 100;

	if (!n)
		return 0;
	return sorted[rank ? rank - 1 : 0];
}

static int cmp_u32(const void *a, const void *b)
{
	u32 x = *(const u32 *)a, y = *(const u32 *)b;

	return x < y ? -1 : x > y;
}

void latency_summarize(u32 *ns, unsigned int n, struct latency_stats *st)
{
	u64 sum = 0;

	memset(st, 0, sizeof(*st));
	st->samples = n;
	if (!n)
		return;
	sort(ns, n, sizeof(*ns), cmp_u32, NULL);
	for (unsigned int i = 0; i < n; i++) {
		sum += ns[i];
		st->hist[latency_bucket(ns[i])]++;
	}
	st->min_ns = ns[0];
	st->median_ns = latency_percentile(ns, n, 50);
	st->p99_ns = latency_percentile(ns, n, 99);
	st->max_ns = ns[n - 1];
	st->mean_ns = sum / n;
}

/* t1 - t0 as a sample; clocks of two CPUs may disagree by a hair. */
static u32 lat_delta(u64 t0, u64 t1)
{
	if (t1 <= t0)
		return 0;
	return t1 - t0 > 0xffffffffULL ? 0xffffffffU : (u32)(t1 - t0);
}

static void lat_add(struct lat_run *run, enum latency_path path, u32 ns,
		    bool late)
{
	run->ns[path][run->n[path]++] = ns;
	run->late[path] += late;
}

/* ------------------------------------------------------------- sleeping */

/* Sleeps until *flag is set; false when told to stop instead. */
static bool lat_wait_for(int *flag)
{
	for (;;) {
		set_current_state(TASK_UNINTERRUPTIBLE);
		if (READ_ONCE(*flag) || kthread_should_stop())
			break;
		schedule();
	}
	__set_current_state(TASK_RUNNING);
	return !kthread_should_stop();
}

/* Asleep and off its CPU: a wake now is one it must come back from. */
static void lat_wait_blocked(struct task_struct *p)
{
	while (READ_ONCE(p->state) == TASK_RUNNING || READ_ONCE(p->on_cpu))
		cpu_relax();
}

/* -------------------------------------------------------------- the paths */

/* A path's two halves: how its sleeper waits, and the timed wake call. */
#define LAT_PATH_OPS(name, wait, wake)					\
static void lat_##name##_block(struct lat_sleeper *s)			\
{									\
	wait;								\
}									\
static void lat_##name##_wake(struct lat_sleeper *s)			\
{									\
	wake;								\
}

LAT_PATH_OPS(plain, lat_wait_for(&s->cond), wake_up_process(s->task))
LAT_PATH_OPS(complete, wait_for_completion(&s->done), complete(&s->done))
LAT_PATH_OPS(wq, wait_event(s->wq, READ_ONCE(s->cond)), wake_up(&s->wq))
LAT_PATH_OPS(sem, down(&s->sem), up(&s->sem))
LAT_PATH_OPS(mutex, mutex_lock(&s->mutex), mutex_unlock(&s->mutex))
LAT_PATH_OPS(rt_mutex, rt_mutex_lock(&s->rt_mutex),
	     rt_mutex_unlock(&s->rt_mutex))

/*
 * How a sleeper waits and how it is woken, per path. Where the path is a
 * lock's unlock, the waker takes the lock (block) before the sleeper
 * comes to wait for it, and the sleeper lets go of it (wake) after.
 */
static const struct lat_path_ops {
	const char *name;
	void (*block)(struct lat_sleeper *s);
	void (*wake)(struct lat_sleeper *s);
	bool lock;
} lat_paths[NR_LATENCY_PATHS] = {
	[LATENCY_TIMER] = { "timer" },
	[LATENCY_WAKE_UP_PROCESS] = { "wake_up_process", lat_plain_block,
				      lat_plain_wake },
	[LATENCY_COMPLETE] = { "complete", lat_complete_block,
			       lat_complete_wake },
	[LATENCY_WAKE_UP] = { "wake_up", lat_wq_block, lat_wq_wake },
	[LATENCY_UP] = { "up", lat_sem_block, lat_sem_wake },
	[LATENCY_MUTEX_UNLOCK] = { "mutex_unlock", lat_mutex_block,
				   lat_mutex_wake, true },
	[LATENCY_RT_MUTEX_UNLOCK] = { "rt_mutex_unlock", lat_rt_mutex_block,
				      lat_rt_mutex_wake, true },
	[LATENCY_CROSS_CPU] = { "cross_cpu", lat_plain_block, lat_plain_wake },
};

/* ---------------------------------------------------------- a sleeper */

static void lat_answer(struct lat_sleeper *s)
{
	struct task_struct *to = READ_ONCE(s->answer_to);

	smp_wmb();	/* the sample before the word that it is in */
	WRITE_ONCE(s->recorded, 1);
	if (to)
		wake_up_process(to);
}

static int lat_sleeper_fn(void *arg)
{
	struct lat_sleeper *s = arg;

	while (lat_wait_for(&s->armed)) {
		const struct lat_path_ops *ops = &lat_paths[s->path];

		WRITE_ONCE(s->armed, 0);
		ops->block(s);
		s->sample_ns = lat_delta(s->t0, ktime_get_ns());
		s->sample_late = READ_ONCE(s->went_on);
		if (ops->lock)
			ops->wake(s);
		WRITE_ONCE(s->cond, 0);
		lat_answer(s);
	}
	return 0;
}

static void lat_sleeper_init(struct lat_sleeper *s)
{
	s->recorded = 1;	/* nothing asked of it yet */
	init_completion(&s->done);
	init_waitqueue_head(&s->wq);
	sema_init(&s->sem, 0);
	mutex_init(&s->mutex);
	rt_mutex_init(&s->rt_mutex);
}

/* ------------------------------------------------------------- the waker */

/*
 * Has a sleeper block in path, with the lock held where the path unlocks
 * one. On the caller's CPU the sleeper, more urgent, has blocked when
 * the wake returns, unless that wake failed to preempt; on another
 * (the driver, between loads) the caller spins until it has.
 */
static void lat_arm(struct lat_sleeper *s, enum latency_path path)
{
	s->path = path;
	WRITE_ONCE(s->recorded, 0);
	if (lat_paths[path].lock)
		lat_paths[path].block(s);
	WRITE_ONCE(s->armed, 1);
	wake_up_process(s->task);
	lat_wait_blocked(s->task);
}

/*
 * A remote sleeper is armed once per sample taken from it: by its own
 * waker as it starts and after each turn, and by the driver before a
 * load, since a load may end before every waker has had its turn.
 */
static void lat_rearm(struct lat_sleeper *s)
{
	if (READ_ONCE(s->recorded))
		lat_arm(s, LATENCY_CROSS_CPU);
}

/* The timed call, the condition set before it where the path has one. */
static void lat_wake(struct lat_sleeper *s)
{
	WRITE_ONCE(s->went_on, 0);
	WRITE_ONCE(s->cond, 1);
	s->t0 = ktime_get_ns();
	lat_paths[s->path].wake(s);
	WRITE_ONCE(s->went_on, 1);
}

/*
 * One sample of a same-CPU path. The waker spins for the answer, as a
 * task that goes on with its work: a sleeper that did not preempt at
 * the wake gets the CPU only at the next interrupt, and shows it.
 */
static void lat_sample_local(struct lat_run *run, struct lat_sleeper *s,
			     enum latency_path path)
{
	lat_arm(s, path);
	lat_wake(s);
	while (!READ_ONCE(s->recorded))
		cpu_relax();
	smp_rmb();
	lat_add(run, path, s->sample_ns, s->sample_late);
}

/*
 * The cross-CPU sample: the next CPU's remote sleeper, armed by its own
 * waker. This waker sleeps until the answer, leaving its CPU to the
 * load (or idle), which on QEMU's icount machine lets the other vCPU run.
 */
static void lat_sample_remote(struct lat_run *run, struct lat_sleeper *s)
{
	/* Not armed: its last answer would be read again as this one. */
	if (WARN_ON(READ_ONCE(s->recorded)))
		return;
	WRITE_ONCE(s->answer_to, current);
	lat_wake(s);
	lat_wait_for(&s->recorded);
	/* Nobody to wake should the sleeper be stopped while armed. */
	WRITE_ONCE(s->answer_to, NULL);
	smp_rmb();
	lat_add(run, LATENCY_CROSS_CPU, s->sample_ns, false);
}

/* The next CPU's timer, for the next tick; or the load is done. */
static void lat_pass_turn(struct lat_cpu *lc)
{
	struct lat_run *run = lc->run;

	if (READ_ONCE(run->stop) || --run->turns_left == 0)
		complete(&run->finished);
	else
		mod_timer(&lc->next->timer, jiffies + 1);
}

static void lat_turn(struct lat_cpu *lc)
{
	struct lat_run *run = lc->run;
	u32 ns = lat_delta(lc->timer_t0, ktime_get_ns());

	WRITE_ONCE(lc->turn, 0);
	lat_add(run, LATENCY_TIMER, ns, false);
	for (int path = LATENCY_WAKE_UP_PROCESS;
	     path <= LATENCY_RT_MUTEX_UNLOCK; path++)
		lat_sample_local(run, &lc->local, path);
	if (run->ncpus > 1) {
		lat_sample_remote(run, &lc->next->remote);
		lat_rearm(&lc->remote);
	}
	lat_pass_turn(lc);
}

static int lat_waker_fn(void *arg)
{
	struct lat_cpu *lc = arg;

	/* Ready for the first cross-CPU sample, as after every turn. */
	if (lc->run->ncpus > 1)
		lat_rearm(&lc->remote);
	complete(&lc->run->ready);
	while (lat_wait_for(&lc->turn))
		lat_turn(lc);
	return 0;
}

/* From CPU 0's tick: the timer path's wake call. */
static void lat_timer_fn(struct timer_list *t)
{
	struct lat_cpu *lc = container_of(t, struct lat_cpu, timer);

	lc->timer_t0 = ktime_get_ns();
	smp_wmb();	/* the time before the word that it is ours */
	WRITE_ONCE(lc->turn, 1);
	wake_up_process(lc->waker);
}

/*
 * The load, at the least urgent priority there is to preempt: a spin
 * that says it waits (cpu_relax()), or one that does not
 * (latency.hog_relax=0: see struct latency_params).
 */
static int lat_hog_fn(void *arg)
{
	struct lat_run *run = arg;

	while (!READ_ONCE(run->hog_stop)) {
		if (run->hog_relax)
			cpu_relax();
		else
			barrier();
	}
	return 0;
}

/* ----------------------------------------------------------- the driver */

static struct task_struct *lat_sleeper_create(struct lat_sleeper *s,
					      unsigned int cpu,
					      const char *name)
{
	s->task = kthread_create_sched(lat_sleeper_fn, s, SCHED_FIFO,
				       LAT_SLEEPER_PRIO, cpu, name);
	if (s->task)
		wake_up_process(s->task);
	return s->task;
}

/* The sleepers first: the waker arms its remote one as it starts. */
static int lat_create(struct lat_run *run, struct lat_cpu *lc)
{
	if (!lat_sleeper_create(&lc->local, lc->cpu, "lat-local"))
		return -ENOMEM;
	if (run->ncpus > 1 &&
	    !lat_sleeper_create(&lc->remote, lc->cpu, "lat-remote"))
		return -ENOMEM;
	lc->waker = kthread_create_sched(lat_waker_fn, lc, SCHED_FIFO,
					 LAT_WAKER_PRIO, lc->cpu, "lat-waker");
	if (!lc->waker)
		return -ENOMEM;
	wake_up_process(lc->waker);
	return 0;
}

static void lat_init_cpu(struct lat_run *run, unsigned int i,
			 unsigned int cpu)
{
	struct lat_cpu *lc = &run->cpu[i];

	lc->run = run;
	lc->cpu = cpu;
	timer_setup(&lc->timer, lat_timer_fn, 0);
	lat_sleeper_init(&lc->local);
	lat_sleeper_init(&lc->remote);
}

static int lat_setup(struct lat_run *run, unsigned int loops)
{
	unsigned int n = 0;

	for (unsigned int cpu = 0; cpu < NR_CPUS; cpu++)
		if (cpu_online(cpu))
			lat_init_cpu(run, n++, cpu);
	run->ncpus = n;
	for (unsigned int i = 0; i < n; i++)
		run->cpu[i].next = &run->cpu[(i + 1) % n];
	init_completion(&run->ready);
	init_completion(&run->finished);
	for (int path = 0; path < NR_LATENCY_PATHS; path++) {
		run->ns[path] = kmalloc(loops * sizeof(u32));
		if (!run->ns[path])
			return -ENOMEM;
	}
	for (unsigned int i = 0; i < n; i++)
		if (lat_create(run, &run->cpu[i]))
			return -ENOMEM;
	for (unsigned int i = 0; i < n; i++)
		wait_for_completion(&run->ready);
	return 0;
}

static void lat_stop(struct task_struct *p)
{
	if (p)
		kthread_stop(p);
}

/* The waker first: it may be arming a sleeper as it starts. */
static void lat_teardown(struct lat_run *run)
{
	for (unsigned int i = 0; i < run->ncpus; i++) {
		struct lat_cpu *lc = &run->cpu[i];

		del_timer_sync(&lc->timer);
		lat_stop(lc->waker);
		lat_stop(lc->local.task);
		lat_stop(lc->remote.task);
	}
	for (int path = 0; path < NR_LATENCY_PATHS; path++)
		kfree(run->ns[path]);
}

static int lat_hogs_start(struct lat_run *run)
{
	WRITE_ONCE(run->hog_stop, 0);
	for (unsigned int i = 0; i < run->ncpus; i++) {
		struct lat_cpu *lc = &run->cpu[i];

		lc->hog = kthread_create_sched(lat_hog_fn, run, SCHED_NORMAL, 0,
					       lc->cpu, "lat-hog");
		if (!lc->hog)
			return -ENOMEM;
		wake_up_process(lc->hog);
	}
	return 0;
}

static void lat_hogs_stop(struct lat_run *run)
{
	WRITE_ONCE(run->hog_stop, 1);
	for (unsigned int i = 0; i < run->ncpus; i++) {
		if (run->cpu[i].hog)
			kthread_join(run->cpu[i].hog);
		run->cpu[i].hog = NULL;
	}
}

/* loops turns, from CPU 0's; a signal ends them after the current one. */
static void lat_turns(struct lat_run *run, unsigned int loops)
{
	memset(run->n, 0, sizeof(run->n));
	memset(run->late, 0, sizeof(run->late));
	run->turns_left = loops;
	reinit_completion(&run->finished);
	mod_timer(&run->cpu[0].timer, jiffies + 1);
	if (wait_for_completion_interruptible(&run->finished)) {
		WRITE_ONCE(run->stop, 1);
		wait_for_completion(&run->finished);
	}
}

static int lat_load(struct lat_run *run, enum latency_load load,
		    unsigned int loops, struct latency_result *r)
{
	int ret = 0;

	for (unsigned int i = 0; run->ncpus > 1 && i < run->ncpus; i++)
		lat_rearm(&run->cpu[i].remote);
	if (load == LATENCY_LOAD_HOG)
		ret = lat_hogs_start(run);
	if (!ret)
		lat_turns(run, loops);
	lat_hogs_stop(run);
	for (int path = 0; path < NR_LATENCY_PATHS; path++) {
		struct latency_stats *st = &r->stats[load][path];

		latency_summarize(run->ns[path], run->n[path], st);
		st->late = run->late[path];
	}
	return ret;
}

int latency_run(const struct latency_params *p, struct latency_result *r)
{
	struct lat_run *run = kzalloc(sizeof(*run));
	unsigned int loops = max(p->loops, 1U);
	int ret;

	if (!run)
		return -ENOMEM;
	memset(r, 0, sizeof(*r));
	r->loops = loops;
	run->hog_relax = p->hog_relax;
	ret = lat_setup(run, loops);
	r->cpus = run->ncpus;
	for (int load = 0; !ret && load < NR_LATENCY_LOADS; load++) {
		if (!p->load[load] || READ_ONCE(run->stop))
			continue;
		ret = lat_load(run, load, loops, r);
		r->ran[load] = true;
	}
	lat_teardown(run);
	kfree(run);
	return ret;
}

/* ------------------------------------------------------------ reporting */

static const char *const lat_load_names[NR_LATENCY_LOADS] = {
	[LATENCY_LOAD_NONE] = "none",
	[LATENCY_LOAD_HOG] = "hog",
};

/* The paths where the woken task must preempt its waker at once. */
static bool lat_same_cpu(enum latency_path path)
{
	return path != LATENCY_TIMER && path != LATENCY_CROSS_CPU;
}

static void lat_report_hist(const struct latency_stats *st, const char *path,
			    const char *load)
{
	for (unsigned int b = 0; b < LATENCY_BUCKETS; b++) {
		if (!st->hist[b])
			continue;
		printk("bench: latency-hist path=%s load=%s lo_ns=%llu "
		       "hi_ns=%llu count=%u\n", path, load,
		       (unsigned long long)latency_bucket_lo(b),
		       (unsigned long long)latency_bucket_lo(b + 1),
		       st->hist[b]);
	}
}

/* One path under one load; false if a sample was missing or late. */
static bool lat_report_one(const struct latency_result *r,
			   enum latency_load load, enum latency_path path)
{
	const struct latency_stats *st = &r->stats[load][path];
	bool ok = st->samples == r->loops && !st->late;
	char late[24] = "";

	if (lat_same_cpu(path))
		snprintf(late, sizeof(late), " late=%u", st->late);
	printk("bench: latency path=%s load=%s cpus=%u samples=%u "
	       "min_ns=%u median_ns=%u p99_ns=%u max_ns=%u mean_ns=%u%s "
	       "tick_ns=%llu%s\n", lat_paths[path].name, lat_load_names[load],
	       r->cpus, st->samples, st->min_ns, st->median_ns, st->p99_ns,
	       st->max_ns, st->mean_ns, late, NSEC_PER_SEC / HZ,
	       ok ? "" : " FAILED");
	lat_report_hist(st, lat_paths[path].name, lat_load_names[load]);
	return ok;
}

bool latency_report(const struct latency_result *r)
{
	bool ok = true;

	for (int load = 0; load < NR_LATENCY_LOADS; load++) {
		for (int path = 0; r->ran[load] && path < NR_LATENCY_PATHS;
		     path++) {
			if (path == LATENCY_CROSS_CPU && r->cpus < 2)
				continue;
			ok &= lat_report_one(r, load, path);
		}
	}
	if (r->cpus < 2)
		printk("latency: one CPU: no cross_cpu path\n");
	return ok;
}
