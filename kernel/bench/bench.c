// SPDX-License-Identifier: GPL-2.0
/*
 * bench= on the kernel command line: run the benchmarks instead of the
 * tests, print their "bench: ..." lines and end the machine. The options
 * (all optional):
 *
 *   bench=synchro|vfs|overhead|latency|piwalk|ww|all
 *   synchro.mutexes=N synchro.sems=N	threads per lock type, 0..64; when
 *					neither is given, one of each per CPU
 *   synchro.count=N			the semaphore's initial count (1)
 *   synchro.load=US synchro.interval=US	work in and between (1, 1)
 *   synchro.do_sched=0|1		yield once per loop (1)
 *   synchro.secs=S synchro.verbose=0|1	run time (5), progress lines (0)
 *   vfs.tasks=N vfs.secs=S		the VFS test (16 tasks, 10 s)
 *   vfs.mutex_first=0|1		run the mutexes before the semaphore (0)
 *   vfs.rt_mutex=0|1			run it on the rt-mutex too, last (0)
 *   vfs.lock=N				only the Nth lock: 1 semaphore, 2 mutex,
 *					3 spinning mutex, 4 with handoff (spin
 *					build), the rt-mutex last (0: all)
 *   overhead.secs=S			each loop of the overhead test (2)
 *   latency.loops=N			turns of the latency test per load:
 *					one tick and one sample of every
 *					wake path each (200)
 *   latency.idle=0|1 latency.hog=0|1	run it on the idle machine, beside a
 *					hog on every CPU (1, 1)
 *   latency.hog_relax=0|1		the hog's spin calls cpu_relax() (1)
 *   ww.tasks=N ww.locks=K ww.held=H	N tasks (8), each transaction 1 to H
 *					(4) of K objects (64), H <= K, H <= 8
 *   ww.work_us=US ww.secs=S		busy work per object (50), each
 *					round's time (2)
 *   bench.lockstat=0|1			lock statistics of the run, printed
 *					after it (CONFIG_LOCK_STAT builds)
 *
 * scripts/mutexos/bench.py boots these and reads the lines back.
 */
#include <kernel.h>
#include <string.h>
#include <smp.h>
#include <sched.h>
#include <bench.h>
#include <mutex.h>
#include <rtmutex.h>
#include <time.h>

#ifdef CONFIG_PROVE_LOCKING
#define IS_BUILTIN_PROVE_LOCKING	1
#else
#define IS_BUILTIN_PROVE_LOCKING	0
#endif

/* Points into the kernel's copy of the command line: no length limit. */
const char *bench_which = "";

/* -1: not given on the command line. */
static int opt_mutexes = -1, opt_sems = -1;
static int opt_count = 1, opt_load = 1, opt_interval = 1, opt_do_sched = 1;
static int opt_synchro_secs = 5, opt_verbose;
static int opt_vfs_tasks = 16, opt_vfs_secs = 10, opt_mutex_first;
static int opt_vfs_rt_mutex;
static int opt_vfs_lock;
static int opt_overhead_secs = 2;
static int opt_latency_loops = 200, opt_latency_hog_relax = 1;
static int opt_latency_idle = 1, opt_latency_hog = 1;
static int opt_ww_tasks = 8, opt_ww_locks = 64, opt_ww_held = 4;
static int opt_ww_work_us = 50, opt_ww_secs = 2;
static int opt_lockstat;

static const struct bench_option {
	const char *name;
	int *value;
	int max;
	int initial;		/* the value above, for bench_reset_options() */
} bench_options[] = {
	{ "synchro.mutexes", &opt_mutexes, SYNCHRO_MAX_THREADS, -1 },
	{ "synchro.sems", &opt_sems, SYNCHRO_MAX_THREADS, -1 },
	{ "synchro.count", &opt_count, SYNCHRO_MAX_THREADS, 1 },
	{ "synchro.load", &opt_load, 1000000, 1 },
	{ "synchro.interval", &opt_interval, 1000000, 1 },
	{ "synchro.do_sched", &opt_do_sched, 1, 1 },
	{ "synchro.secs", &opt_synchro_secs, 3600, 5 },
	{ "synchro.verbose", &opt_verbose, 1, 0 },
	{ "vfs.tasks", &opt_vfs_tasks, 64, 16 },
	{ "vfs.secs", &opt_vfs_secs, 3600, 10 },
	{ "vfs.mutex_first", &opt_mutex_first, 1, 0 },
	{ "vfs.rt_mutex", &opt_vfs_rt_mutex, 1, 0 },
	{ "vfs.lock", &opt_vfs_lock, 5, 0 },
	{ "overhead.secs", &opt_overhead_secs, 3600, 2 },
	{ "latency.loops", &opt_latency_loops, 100000, 200 },
	{ "latency.idle", &opt_latency_idle, 1, 1 },
	{ "latency.hog", &opt_latency_hog, 1, 1 },
	{ "latency.hog_relax", &opt_latency_hog_relax, 1, 1 },
	{ "ww.tasks", &opt_ww_tasks, WW_BENCH_MAX_TASKS, 8 },
	{ "ww.locks", &opt_ww_locks, WW_BENCH_MAX_LOCKS, 64 },
	{ "ww.held", &opt_ww_held, WW_BENCH_MAX_HELD, 4 },
	{ "ww.work_us", &opt_ww_work_us, 1000, 50 },
	{ "ww.secs", &opt_ww_secs, 3600, 2 },
	{ "bench.lockstat", &opt_lockstat, 1, 0 },
};

/* Each bench command of the console starts from the defaults. */
void bench_reset_options(void)
{
	for (size_t i = 0; i < ARRAY_SIZE(bench_options); i++)
		*bench_options[i].value = bench_options[i].initial;
}

bool bench_parse_option(const char *name, const char *value)
{
	if (!strcmp(name, "bench")) {
		bench_which = value;
		return true;
	}
	for (size_t i = 0; i < ARRAY_SIZE(bench_options); i++) {
		const struct bench_option *o = &bench_options[i];
		int v;

		if (strcmp(name, o->name))
			continue;
		v = simple_strtoul(value, NULL, 0);
		if (v < 0 || v > o->max) {
			v = v < 0 ? 0 : o->max;
			printk("bench: %s=%s is out of range 0..%d: using %d\n",
			       name, value, o->max, v);
		}
		*o->value = v;
		return true;
	}
	return false;
}

static int run_synchro(void)
{
	static struct synchro_result mres, sres;
	struct synchro_params p = {
		.mutexes = opt_mutexes,
		.sems = opt_sems,
		.sem_count = max(opt_count, 1),
		.load_us = opt_load,
		.interval_us = opt_interval,
		.do_sched = opt_do_sched,
		.msecs = max(opt_synchro_secs, 1) * 1000,
		.verbose = opt_verbose,
	};
	bool ok;

	/* As the original module: no thread counts at all means one per CPU. */
	if (opt_mutexes < 0 && opt_sems < 0)
		p.mutexes = p.sems = min(num_online_cpus(), SYNCHRO_MAX_THREADS);
	p.mutexes = max(p.mutexes, 0);
	p.sems = max(p.sems, 0);
	if (synchro_test_run(&p, &mres, &sres)) {
		printk("bench: synchro: out of memory\n");
		return EXIT_ERROR;
	}
	if (signal_pending(current))
		return 0;	/* a run cut short: no figures */
	ok = synchro_report(&p, &mres);
	ok &= synchro_report(&p, &sres);
	return ok ? 0 : 1;
}

/*
 * The locks of the VFS test, all in the same boot: the semaphore first,
 * then the mutex as in 2006, then (spin build) the mutex spinning on its
 * owner, without and with handoff; with vfs.rt_mutex=1 the rt-mutex last.
 */
static const enum vfs_lock vfs_locks[] = {
	VFS_LOCK_SEM, VFS_LOCK_MUTEX,
#ifdef CONFIG_MUTEX_SPIN_ON_OWNER
	VFS_LOCK_MUTEX_SPIN, VFS_LOCK_MUTEX_HANDOFF,
#endif
	VFS_LOCK_RT_MUTEX,
};

static int run_vfs(void)
{
	static struct vfs_result res[ARRAY_SIZE(vfs_locks)];
	unsigned int msecs = max(opt_vfs_secs, 1) * 1000;
	int tasks = max(opt_vfs_tasks, 1);
	/* The rt-mutex is last: left out unless asked for. */
	size_t nr_locks = ARRAY_SIZE(vfs_locks) - !opt_vfs_rt_mutex;
	bool ok = true;

	if (opt_vfs_lock > (int)nr_locks) {
		printk("bench: vfs.lock=%d: this run has %u locks\n",
		       opt_vfs_lock, (unsigned int)nr_locks);
		return EXIT_ERROR;
	}
	/*
	 * Half a second of each, unmeasured, first, so that no measured run
	 * is the one that pays for a cold boot: the emulator translating
	 * the code paths, the allocator growing its slabs. Then each one;
	 * vfs.mutex_first=1 runs the semaphore last instead of first.
	 */
	for (size_t i = 0; i < 2 * nr_locks; i++) {
		size_t k = i % nr_locks;
		bool warm_up = i < nr_locks;

		if (!warm_up && opt_mutex_first)
			k = (k + 1) % nr_locks;
		if (opt_vfs_lock && k != (size_t)opt_vfs_lock - 1)
			continue;
		if (vfs_bench_run(vfs_locks[k], tasks, warm_up ? 500 : msecs,
				  &res[k])) {
			printk("bench: vfs: out of memory\n");
			return EXIT_ERROR;
		}
	}
	if (signal_pending(current))
		return 0;	/* a run cut short: no figures */
	if (opt_vfs_lock)
		return vfs_bench_report(&res[opt_vfs_lock - 1], msecs) ? 0 : 1;
	for (size_t k = 0; k < nr_locks; k++)
		ok &= vfs_bench_report(&res[k], msecs);
	/* Each mutex against the semaphore, the new ones against 2006's. */
	for (size_t k = 1; k < nr_locks; k++)
		vfs_bench_report_ratio(&res[0], &res[k]);
	for (size_t k = 2; k < nr_locks; k++)
		vfs_bench_report_ratio(&res[1], &res[k]);
	return ok ? 0 : 1;
}

/*
 * The cost of an uncontended lock + unlock pair, on one CPU, in
 * nanoseconds. The debug build and the plain ones are different kernels,
 * so each boot also times a loop that is the same code in every build
 * (an atomic increment and decrement): the ratio of the two is what can
 * be compared between boots.
 */
enum pair_kind { PAIR_ATOMIC, PAIR_MUTEX, PAIR_RT_MUTEX };

static u64 ns_per_pair(enum pair_kind kind, u64 msecs)
{
	static DEFINE_MUTEX(m);
	static DEFINE_RT_MUTEX(rt);
	atomic_t a = ATOMIC_INIT(0);
	u64 start = ktime_get_ns(), end = start + msecs * NSEC_PER_MSEC, now;
	u64 pairs = 0;

	do {
		for (int i = 0; i < 1000; i++) {
			if (kind == PAIR_MUTEX) {
				mutex_lock(&m);
				mutex_unlock(&m);
			} else if (kind == PAIR_RT_MUTEX) {
				rt_mutex_lock(&rt);
				rt_mutex_unlock(&rt);
			} else {
				atomic_inc(&a);
				atomic_dec(&a);
			}
		}
		pairs += 1000;
		now = ktime_get_ns();
	} while (now < end);
	return (now - start) * 100 / pairs;	/* scaled by 100 */
}

static int run_overhead(void)
{
	u64 msecs = max(opt_overhead_secs, 1) * 1000;
	u64 atomic_ns, mutex_ns, rt_ns;

	/* Not preempt_disable(): taking a mutex there is a reported bug. */
	atomic_ns = ns_per_pair(PAIR_ATOMIC, msecs);
	mutex_ns = ns_per_pair(PAIR_MUTEX, msecs);
	rt_ns = ns_per_pair(PAIR_RT_MUTEX, msecs);
	printk("bench: overhead build=%s mutex_pair_ns=%llu.%02llu "
	       "atomic_pair_ns=%llu.%02llu mutex_per_atomic=%llu.%02llu\n",
	       mutex_build_name(), FIXED2(mutex_ns), FIXED2(atomic_ns),
	       FIXED2(mutex_ns * 100 / max(atomic_ns, 1ULL)));
	/* A row of its own: scripts that read the mutex row see no change. */
	printk("bench: overhead-rt build=%s rt_mutex_pair_ns=%llu.%02llu "
	       "atomic_pair_ns=%llu.%02llu rt_mutex_per_atomic=%llu.%02llu\n",
	       mutex_build_name(), FIXED2(rt_ns), FIXED2(atomic_ns),
	       FIXED2(rt_ns * 100 / max(atomic_ns, 1ULL)));
	return 0;
}

static int run_latency(void)
{
	static struct latency_result res;
	struct latency_params p = {
		.loops = opt_latency_loops,
		.load = {
			[LATENCY_LOAD_NONE] = opt_latency_idle,
			[LATENCY_LOAD_HOG] = opt_latency_hog,
		},
		.hog_relax = opt_latency_hog_relax,
	};

	if (latency_run(&p, &res)) {
		printk("bench: latency: out of memory\n");
		return EXIT_ERROR;
	}
	if (signal_pending(current))
		return 0;	/* a run cut short: no figures */
	return latency_report(&res) ? 0 : 1;
}

/*
 * Every link of the chain takes a lock of its class inside another, which
 * the validator reports: only a bench=piwalk of its own is refused there.
 */
static int run_piwalk(bool alone)
{
	static struct piwalk_result res;
	int ret;

	if (IS_BUILTIN_PROVE_LOCKING) {
		printk("bench: piwalk nests one lock class 1025 deep, which the "
		       "validator reports: it needs a build without "
		       "CONFIG_PROVE_LOCKING\n");
		return alone ? EXIT_ERROR : 0;
	}
	ret = piwalk_run(&res);
	if (ret) {
		printk("bench: piwalk: %s\n", ret == -ENOMEM ? "out of memory" :
		       "a chain did not form, or a blocker did not preempt");
		return 1;
	}
	piwalk_report(&res);
	return 0;
}

static int run_ww(void)
{
	static struct ww_bench_result res[WW_BENCH_ROUNDS];
	struct ww_bench_params p = {
		.tasks = max(opt_ww_tasks, 1),
		.locks = max(opt_ww_locks, 1),
		.held = max(opt_ww_held, 1),
		.work_us = opt_ww_work_us,
		.secs = max(opt_ww_secs, 1),
	};

	if (p.held > p.locks) {
		printk("bench: ww.held=%d is more than ww.locks=%d: a "
		       "transaction takes distinct objects\n", p.held, p.locks);
		return EXIT_ERROR;
	}
	if (ww_bench_run(&p, res)) {
		printk("bench: ww: out of memory\n");
		return EXIT_ERROR;
	}
	if (signal_pending(current))
		return 0;	/* a run cut short: no figures */
	return ww_bench_report(&p, res) ? 0 : 1;
}

int bench_run(const char *which)
{
	bool all = !strcmp(which, "all");
	bool synchro = all || !strcmp(which, "synchro");
	bool vfs = all || !strcmp(which, "vfs");
	bool overhead = all || !strcmp(which, "overhead");
	bool latency = all || !strcmp(which, "latency");
	bool piwalk = all || !strcmp(which, "piwalk");
	bool ww = all || !strcmp(which, "ww");
	int status = 0, s;

	if (!synchro && !vfs && !overhead && !latency && !piwalk && !ww) {
		printk("bench: unknown benchmark '%s' "
		       "(synchro, vfs, overhead, latency, piwalk, ww or all)\n",
		       which);
		return EXIT_ERROR;
	}
#ifndef CONFIG_LOCK_STAT
	if (opt_lockstat) {
		printk("bench: bench.lockstat=1 needs a build with "
		       "CONFIG_LOCK_STAT=y\n");
		return EXIT_ERROR;
	}
#endif
	printk("bench: start which=%s cpus=%u\n", which, num_online_cpus());
	if (opt_lockstat)
		lock_stat_clear();
	if (synchro) {
		s = run_synchro();
		status = max(status, s);
	}
	if (vfs && !signal_pending(current)) {
		s = run_vfs();
		status = max(status, s);
	}
	if (overhead && !signal_pending(current)) {
		s = run_overhead();
		status = max(status, s);
	}
	if (latency && !signal_pending(current)) {
		s = run_latency();
		status = max(status, s);
	}
	if (piwalk && !signal_pending(current)) {
		s = run_piwalk(!all);
		status = max(status, s);
	}
	if (ww && !signal_pending(current)) {
		s = run_ww();
		status = max(status, s);
	}
	if (signal_pending(current)) {
		printk("bench: interrupted\n");
		return EXIT_ERROR;
	}
	if (opt_lockstat)
		lock_stat_print();
	printk("bench: end status=%d\n", status);
	return status;
}
