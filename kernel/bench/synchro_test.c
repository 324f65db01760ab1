// SPDX-License-Identifier: GPL-2.0
/*
 * synchro-test: threads that take and release one mutex, and at the same
 * time other threads that do the same with one counting semaphore, for a
 * few seconds. Each thread counts its acquisitions; the counts show the
 * throughput of each lock and how fairly it shares itself out.
 *
 * Every pass checks how many threads are inside the critical section: one
 * at most for the mutex, the initial count at most for the semaphore. So
 * this is also a torture test of both locks, and a run that saw a broken
 * invariant fails.
 *
 * The parameters follow David Howells' synchro-test module of the mutex
 * series: thread counts, the semaphore's count, the load (microseconds of
 * work with the lock held), the interval (work between acquisitions),
 * do_sched (yield once per loop) and the verbose switch.
 */
#include <kernel.h>
#include <errno.h>
#include <mm.h>
#include <mutex.h>
#include <semaphore.h>
#include <completion.h>
#include <kthread.h>
#include <time.h>
#include <bench.h>

/* One lock under test, and what its threads saw of it. */
struct synchro_lock {
	bool is_mutex;
	int limit;			/* threads allowed inside at once */
	atomic_t inside;
	atomic_t max_inside;
	atomic_t violations;
};

struct synchro_thread {
	struct synchro_run *run;
	struct synchro_lock *lock;
	struct task_struct *task;
	unsigned long count;
};

struct synchro_run {
	const struct synchro_params *p;
	struct mutex mutex;
	struct semaphore sem;
	struct synchro_lock mlock, slock;
	struct completion start;	/* all threads begin together */
	int stop;
	struct synchro_thread threads[2 * SYNCHRO_MAX_THREADS];
};

/* Called with the lock held: count ourselves in and check the limit. */
static void enter(struct synchro_lock *l)
{
	int n = atomic_inc_return(&l->inside);
	int max = atomic_read(&l->max_inside);

	if (n > l->limit)
		atomic_inc(&l->violations);
	while (n > max) {
		int seen = atomic_cmpxchg(&l->max_inside, max, n);

		if (seen == max)
			break;
		max = seen;
	}
}

static void leave(struct synchro_lock *l)
{
	atomic_dec(&l->inside);
}

static int synchro_thread_fn(void *arg)
{
	struct synchro_thread *t = arg;
	struct synchro_run *run = t->run;
	const struct synchro_params *p = run->p;
	bool on_mutex = t->lock->is_mutex;

	wait_for_completion(&run->start);
	while (!READ_ONCE(run->stop)) {
		if (on_mutex)
			mutex_lock(&run->mutex);
		else
			down(&run->sem);
		enter(t->lock);
		if (p->load_us)
			udelay(p->load_us);
		leave(t->lock);
		if (on_mutex)
			mutex_unlock(&run->mutex);
		else
			up(&run->sem);
		/* watch() sums the counts while the threads run */
		WRITE_ONCE(t->count, t->count + 1);
		if (p->interval_us)
			udelay(p->interval_us);
		if (p->do_sched)
			yield();
	}
	return 0;
}

static void lock_init(struct synchro_lock *l, bool is_mutex, int limit)
{
	l->is_mutex = is_mutex;
	l->limit = limit;
	atomic_set(&l->inside, 0);
	atomic_set(&l->max_inside, 0);
	atomic_set(&l->violations, 0);
}

static u64 sum_counts(struct synchro_run *run, int from, int to)
{
	u64 sum = 0;

	for (int i = from; i < to; i++)
		sum += READ_ONCE(run->threads[i].count);
	return sum;
}

/*
 * Sleeps through the run; verbose prints the totals once a second. A
 * signal (Ctrl-C on the console) ends the run early.
 */
static void watch(struct synchro_run *run, int nthreads)
{
	const struct synchro_params *p = run->p;
	u64 start = ktime_get_ns(), now;
	unsigned int second = 0;

	/*
	 * The guest clock, not jiffies, measures the run: an emulator that
	 * falls behind loses timer ticks, so jiffies run slow.
	 */
	while ((now = ktime_get_ns()) - start < p->msecs * NSEC_PER_MSEC &&
	       !signal_pending(current)) {
		msleep(20);
		if (p->verbose && now - start >= (second + 1) * NSEC_PER_SEC)
			printk("bench: synchro-progress second=%u mutex=%llu sem=%llu\n",
			       ++second,
			       (unsigned long long)sum_counts(run, 0, p->mutexes),
			       (unsigned long long)sum_counts(run, p->mutexes,
							      nthreads));
	}
}

static void collect(struct synchro_run *run, struct synchro_lock *l,
		    int from, int n, struct synchro_result *r)
{
	r->lock = l->is_mutex ? "mutex" : "sem";
	r->threads = n;
	r->total = 0;
	for (int i = 0; i < n; i++) {
		r->count[i] = run->threads[from + i].count;
		r->total += r->count[i];
	}
	r->limit = l->limit;
	r->max_inside = atomic_read(&l->max_inside);
	r->violations = atomic_read(&l->violations);
}

int synchro_test_run(const struct synchro_params *p,
		     struct synchro_result *mutex_res,
		     struct synchro_result *sem_res)
{
	struct synchro_run *run = kzalloc(sizeof(*run));
	int nthreads = p->mutexes + p->sems, started = 0;

	if (!run)
		return -ENOMEM;
	run->p = p;
	mutex_init(&run->mutex);
	sema_init(&run->sem, p->sem_count);
	lock_init(&run->mlock, true, 1);
	lock_init(&run->slock, false, p->sem_count);
	init_completion(&run->start);

	/* Mutex threads first, then semaphore threads. */
	for (int i = 0; i < nthreads; i++) {
		struct synchro_thread *t = &run->threads[i];
		bool on_mutex = i < p->mutexes;

		t->run = run;
		t->lock = on_mutex ? &run->mlock : &run->slock;
		t->task = kthread_run(synchro_thread_fn, t, "%s/%d",
				      on_mutex ? "synmx" : "synsem",
				      on_mutex ? i : i - p->mutexes);
		if (!t->task)
			break;
		started++;
	}
	complete_all(&run->start);
	if (started == nthreads)
		watch(run, nthreads);
	WRITE_ONCE(run->stop, 1);
	for (int i = 0; i < started; i++)
		kthread_join(run->threads[i].task);

	collect(run, &run->mlock, 0, p->mutexes, mutex_res);
	collect(run, &run->slock, p->mutexes, p->sems, sem_res);
	mutex_destroy(&run->mutex);
	kfree(run);
	return started == nthreads ? 0 : -ENOMEM;
}

/*
 * Jain's fairness index (include/bench.h), of at most 64 counts. They are
 * scaled down first when they are large, so that the squares cannot
 * overflow 64 bits.
 */
unsigned int jain_index_x10000(const unsigned long *counts, int n)
{
	u64 sum = 0, sumsq = 0, shift = 0;

	for (int i = 0; i < n; i++)
		while ((counts[i] >> shift) > 100000)
			shift++;
	for (int i = 0; i < n; i++) {
		u64 x = counts[i] >> shift;

		sum += x;
		sumsq += x * x;
	}
	if (!sumsq)
		return 0;
	/* sum <= 64 * 10^5, so sum^2 * 10^4 stays below 2^59. */
	return sum * sum * 10000 / (n * sumsq);
}

bool synchro_report(const struct synchro_params *p,
		    const struct synchro_result *r)
{
	u64 min_share = ~0ULL, max_share = 0;
	unsigned int jain;
	bool ok;

	if (!r->threads)
		return true;
	for (int i = 0; i < r->threads; i++) {
		/* 64-bit: count * 10000 overflows a 32-bit long */
		u64 share = r->total ? (u64)r->count[i] * 10000 / r->total : 0;

		min_share = min(min_share, share);
		max_share = max(max_share, share);
		printk("bench: synchro-share lock=%s thread=%d count=%lu share=%llu.%02llu\n",
		       r->lock, i, r->count[i], FIXED2(share));
	}
	jain = jain_index_x10000(r->count, r->threads);
	ok = !r->violations && r->max_inside <= r->limit && r->total > 0;
	printk("bench: synchro lock=%s threads=%d sem_count=%d load=%u interval=%u do_sched=%d secs=%u.%02u total=%llu min_share=%llu.%02llu max_share=%llu.%02llu jain=%u.%04u max_inside=%d violations=%lu%s\n",
	       r->lock, r->threads, p->sem_count, p->load_us, p->interval_us,
	       p->do_sched, p->msecs / 1000, p->msecs % 1000 / 10,
	       (unsigned long long)r->total, FIXED2(min_share),
	       FIXED2(max_share), jain / 10000, jain % 10000, r->max_inside,
	       r->violations, ok ? "" : " FAILED");
	return ok;
}
