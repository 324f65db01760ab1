// SPDX-License-Identifier: GPL-2.0
/*
 * bench= on the kernel command line: run the benchmarks instead of the
 * tests, print their "bench: ..." lines and end the machine. The options
 * (all optional):
 *
 *   bench=synchro|vfs|all
 *   synchro.mutexes=N synchro.sems=N	threads per lock type, 0..64; when
 *					neither is given, one of each per CPU
 *   synchro.count=N			the semaphore's initial count (1)
 *   synchro.load=US synchro.interval=US	work in and between (1, 1)
 *   synchro.do_sched=0|1		yield once per loop (1)
 *   synchro.secs=S synchro.verbose=0|1	run time (5), progress lines (0)
 *   vfs.tasks=N vfs.secs=S		the VFS test (16 tasks, 10 s)
 *   vfs.mutex_first=0|1		run the mutex before the semaphore (0)
 *
 * scripts/bench.py boots these and reads the lines back.
 */
#include <kernel.h>
#include <string.h>
#include <smp.h>
#include <sched.h>
#include <bench.h>

char bench_which[16];

/* -1: not given on the command line. */
static int opt_mutexes = -1, opt_sems = -1;
static int opt_count = 1, opt_load = 1, opt_interval = 1, opt_do_sched = 1;
static int opt_synchro_secs = 5, opt_verbose;
static int opt_vfs_tasks = 16, opt_vfs_secs = 10, opt_mutex_first;

static const struct {
	const char *name;
	int *value;
	int max;
} bench_options[] = {
	{ "synchro.mutexes", &opt_mutexes, SYNCHRO_MAX_THREADS },
	{ "synchro.sems", &opt_sems, SYNCHRO_MAX_THREADS },
	{ "synchro.count", &opt_count, SYNCHRO_MAX_THREADS },
	{ "synchro.load", &opt_load, 1000000 },
	{ "synchro.interval", &opt_interval, 1000000 },
	{ "synchro.do_sched", &opt_do_sched, 1 },
	{ "synchro.secs", &opt_synchro_secs, 3600 },
	{ "synchro.verbose", &opt_verbose, 1 },
	{ "vfs.tasks", &opt_vfs_tasks, 64 },
	{ "vfs.secs", &opt_vfs_secs, 3600 },
	{ "vfs.mutex_first", &opt_mutex_first, 1 },
};

bool bench_parse_option(const char *name, const char *value)
{
	if (!strcmp(name, "bench")) {
		strlcpy(bench_which, value, sizeof(bench_which));
		return true;
	}
	for (size_t i = 0; i < ARRAY_SIZE(bench_options); i++) {
		if (!strcmp(name, bench_options[i].name)) {
			int v = simple_strtoul(value, NULL, 0);

			*bench_options[i].value = max(0, min(v, bench_options[i].max));
			return true;
		}
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
		return 3;
	}
	ok = synchro_report(&p, &mres);
	ok &= synchro_report(&p, &sres);
	return ok ? 0 : 1;
}

static int run_vfs(void)
{
	static struct vfs_result sem, mutex;
	unsigned int msecs = max(opt_vfs_secs, 1) * 1000;
	int tasks = max(opt_vfs_tasks, 1);
	bool ok;

	/*
	 * Half a second of each, unmeasured, first, so that neither
	 * measured run is the one that pays for a cold boot: the emulator
	 * translating the code paths, the allocator growing its slabs.
	 */
	if (vfs_bench_run(VFS_LOCK_SEM, tasks, 500, &sem) ||
	    vfs_bench_run(VFS_LOCK_MUTEX, tasks, 500, &mutex)) {
		printk("bench: vfs: out of memory\n");
		return 3;
	}
	/* Both in the same boot; vfs.mutex_first=1 swaps the order. */
	if (opt_mutex_first && vfs_bench_run(VFS_LOCK_MUTEX, tasks, msecs, &mutex)) {
		printk("bench: vfs: out of memory\n");
		return 3;
	}
	if (vfs_bench_run(VFS_LOCK_SEM, tasks, msecs, &sem) ||
	    (!opt_mutex_first &&
	     vfs_bench_run(VFS_LOCK_MUTEX, tasks, msecs, &mutex))) {
		printk("bench: vfs: out of memory\n");
		return 3;
	}
	ok = vfs_bench_report(&sem, msecs);
	ok &= vfs_bench_report(&mutex, msecs);
	vfs_bench_report_ratio(&sem, &mutex);
	return ok ? 0 : 1;
}

int bench_run(const char *which)
{
	bool synchro = !strcmp(which, "synchro") || !strcmp(which, "all");
	bool vfs = !strcmp(which, "vfs") || !strcmp(which, "all");
	int status = 0, s;

	if (!synchro && !vfs) {
		printk("bench: unknown benchmark '%s' (synchro, vfs or all)\n",
		       which);
		return 3;
	}
	printk("bench: start which=%s cpus=%u\n", which, num_online_cpus());
	if (synchro) {
		s = run_synchro();
		status = max(status, s);
	}
	if (vfs) {
		s = run_vfs();
		status = max(status, s);
	}
	printk("bench: end status=%d\n", status);
	return status;
}
