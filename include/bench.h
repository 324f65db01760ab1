/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The in-kernel benchmarks: synchro-test (threads hammering one mutex and
 * one counting semaphore), the VFS test (tasks creating and unlinking
 * files in one ramfs directory under a mutex or a semaphore) and the
 * wakeup latencies. They print "bench: ..." lines that
 * scripts/mutexos/bench.py reads; docs/benchmarks.md has the figures.
 * tests/bench_test.c runs short versions of them.
 */
#ifndef _BENCH_H
#define _BENCH_H

#include <types.h>
#include <ramfs.h>

#define SYNCHRO_MAX_THREADS	64

/*
 * The kernel has no floating point: a figure is kept scaled by 100 and
 * printed as "%llu.%02llu" with these two arguments.
 */
#define FIXED2(x100)	(unsigned long long)((x100) / 100), \
			(unsigned long long)((x100) % 100)
/* The same for a figure kept scaled by 10000, as "%llu.%04llu". */
#define FIXED4(x10000)	(unsigned long long)((x10000) / 10000), \
			(unsigned long long)((x10000) % 10000)

struct synchro_params {
	int mutexes;		/* threads on the mutex (0..64) */
	int sems;		/* threads on the semaphore (0..64) */
	int sem_count;		/* the semaphore's initial count */
	unsigned int load_us;	/* busy work while holding the lock */
	unsigned int interval_us; /* busy work between acquisitions */
	bool do_sched;		/* yield once per loop */
	unsigned int msecs;	/* how long the threads run */
	bool verbose;		/* print the totals once a second */
};

/* What the threads of one lock type did. */
struct synchro_result {
	const char *lock;	/* "mutex" or "sem" */
	int threads;
	unsigned long count[SYNCHRO_MAX_THREADS]; /* acquisitions per thread */
	u64 total;
	int limit;		/* threads allowed inside at once */
	int max_inside;		/* most threads ever seen inside at once */
	unsigned long violations; /* entries that saw too many inside */
};

/* Runs both lock types at once; returns 0, or -ENOMEM. */
int synchro_test_run(const struct synchro_params *p,
		     struct synchro_result *mutex_res,
		     struct synchro_result *sem_res);
/*
 * Prints one lock type's result lines; returns false if an invariant
 * broke (more than limit threads inside) or it made no progress.
 */
bool synchro_report(const struct synchro_params *p,
		    const struct synchro_result *r);

/*
 * Jain's fairness index of n counts, (sum x)^2 / (n * sum x^2), times
 * 10000: 1 when all are equal, 1/n when one got everything.
 */
unsigned int jain_index_x10000(const unsigned long *counts, int n);

enum vfs_lock {
	VFS_LOCK_SEM,		/* the legacy semaphore, i_sem */
	VFS_LOCK_MUTEX,		/* the mutex, i_mutex, as in 2006 */
	/* CONFIG_MUTEX_SPIN_ON_OWNER only: */
	VFS_LOCK_MUTEX_SPIN,	/* the mutex, spinning, no handoff */
	VFS_LOCK_MUTEX_HANDOFF,	/* the mutex, spinning, with handoff */
	VFS_LOCK_RT_MUTEX,	/* the rt-mutex (vfs.rt_mutex=1) */
};

struct vfs_result {
	enum vfs_lock lock;
	int tasks;
	unsigned int cpus;
	u64 loops;		/* create+close+unlink rounds, all tasks */
	u64 elapsed_ns;
	u64 busy_ns;		/* summed over the online CPUs */
	unsigned long switches;	/* context switches, all CPUs */
	unsigned long wakeups;	/* tasks woken, all CPUs */
	unsigned long errors;	/* operations that failed: a broken invariant */
	unsigned int jain;	/* fairness of the tasks' loops, times 10000 */
	/* The directory lock over the whole run, start-up included. */
	struct ramfs_lock_stats lock_stats;
	u64 all_loops;		/* the loops of the whole run */
};

/* Runs one VFS test of msecs; returns 0, or -ENOMEM. */
int vfs_bench_run(enum vfs_lock lock, int tasks, unsigned int msecs,
		  struct vfs_result *r);
/* Prints one result line; returns false if an invariant broke. */
bool vfs_bench_report(const struct vfs_result *r, unsigned int msecs);
/* Prints the ratios of r's figures to those of base (same boot). */
void vfs_bench_report_ratio(const struct vfs_result *base,
			    const struct vfs_result *r);

/*
 * bench=latency (kernel/bench/latency.c): how long a woken task waits
 * for its CPU, from the wake call to its first instruction, through
 * each wake path, on an idle machine and beside a CPU hog on every CPU.
 */
enum latency_path {
	LATENCY_TIMER,		/* a timer callback's wake_up_process() */
	LATENCY_WAKE_UP_PROCESS,
	LATENCY_COMPLETE,
	LATENCY_WAKE_UP,	/* a wait queue */
	LATENCY_UP,		/* the counting semaphore */
	LATENCY_MUTEX_UNLOCK,
	LATENCY_RT_MUTEX_UNLOCK,
	LATENCY_CROSS_CPU,	/* wake_up_process() from another CPU */
	NR_LATENCY_PATHS
};

enum latency_load {
	LATENCY_LOAD_NONE,
	LATENCY_LOAD_HOG,	/* a SCHED_NORMAL task spinning on every CPU */
	NR_LATENCY_LOADS
};

/* Four histogram buckets to an octave of nanoseconds cover any u32. */
#define LATENCY_BUCKETS		124

struct latency_stats {
	unsigned int samples;
	/* Same-CPU paths: samples where the waker went on before the woken. */
	unsigned int late;
	unsigned int min_ns, median_ns, p99_ns, max_ns, mean_ns;
	unsigned int hist[LATENCY_BUCKETS];
};

struct latency_result {
	unsigned int cpus;
	unsigned int loops;	/* turns of one load: one sample per path each */
	bool ran[NR_LATENCY_LOADS];
	struct latency_stats stats[NR_LATENCY_LOADS][NR_LATENCY_PATHS];
};

struct latency_params {
	unsigned int loops;	/* turns of each load */
	bool load[NR_LATENCY_LOADS];	/* which loads to run */
	/*
	 * The hog spins with cpu_relax(), as a spin-wait does. Without it,
	 * QEMU's icount machine gives the other vCPUs a few instructions
	 * per tick, and the figures measure QEMU (docs/benchmarks.md).
	 */
	bool hog_relax;
};

/* Both loads, p->loops turns each; 0, or -ENOMEM. */
int latency_run(const struct latency_params *p, struct latency_result *r);
/* Prints the result lines; false if a woken task did not preempt at once. */
bool latency_report(const struct latency_result *r);

/* The arithmetic behind the figures, for tests/bench_test.c. */
unsigned int latency_bucket(u32 ns);
u64 latency_bucket_lo(unsigned int bucket);
u32 latency_percentile(const u32 *sorted, unsigned int n, unsigned int pct);
/* Sorts ns[0..n) and sums it up into st (samples, figures, histogram). */
void latency_summarize(u32 *ns, unsigned int n, struct latency_stats *st);

/*
 * bench=piwalk (kernel/bench/piwalk.c): how long rt_mutex_lock() keeps
 * interrupts off walking a chain of owners, for chains of 1 to 1025.
 */
#define PIWALK_LENGTHS		4

struct piwalk_result {
	unsigned int length[PIWALK_LENGTHS];	/* owners in the chain */
	u64 min_ns[PIWALK_LENGTHS], median_ns[PIWALK_LENGTHS];
	u64 max_ns[PIWALK_LENGTHS];
};

/* 0, -ENOMEM, or -ETIMEDOUT if a chain did not form. */
int piwalk_run(struct piwalk_result *r);
void piwalk_report(const struct piwalk_result *r);

/*
 * bench=ww (kernel/bench/ww_bench.c): transactions over objects with a
 * ww_mutex each, against the same work under one global mutex.
 */
#define WW_BENCH_MAX_TASKS	64
#define WW_BENCH_MAX_LOCKS	64
#define WW_BENCH_MAX_HELD	8	/* within the validator's 32 */
#define WW_BENCH_ROUNDS		3	/* global, wait-die, wound-wait */

struct ww_bench_params {
	int tasks;		/* 1..WW_BENCH_MAX_TASKS */
	int locks;		/* objects, 1..WW_BENCH_MAX_LOCKS */
	int held;		/* most objects a transaction takes, <= locks */
	int work_us;		/* busy work per object taken */
	int secs;		/* each round */
};

struct ww_bench_result {
	const char *lock;	/* "global", "wait-die", "wound-wait" */
	unsigned long txns, backoffs;
	unsigned long updates;	/* objects worked on, all transactions */
	u64 elapsed_ns;
	bool ok;		/* every object's counts add up */
};

/* The three rounds; 0, or -ENOMEM if a task could not start. */
int ww_bench_run(const struct ww_bench_params *p,
		 struct ww_bench_result res[WW_BENCH_ROUNDS]);
/* Prints the result lines; false if an invariant broke. */
bool ww_bench_report(const struct ww_bench_params *p,
		     const struct ww_bench_result res[WW_BENCH_ROUNDS]);

/*
 * The kernel command line: bench=synchro|vfs|overhead|latency|piwalk|ww|all
 * runs the benchmark(s) instead of the tests; synchro.* and vfs.* set
 * their parameters.
 * bench_parse_option() returns false for a name that is not its own.
 */
extern const char *bench_which;
bool bench_parse_option(const char *name, const char *value);
/* Every option back to its default (the console's bench command). */
void bench_reset_options(void);
/*
 * Returns the machine's exit status: 0, 1 if an invariant broke, 3 (also
 * when a signal cut the run short: Ctrl-C on the console).
 */
int bench_run(const char *which);

#endif
