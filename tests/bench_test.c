// SPDX-License-Identifier: GPL-2.0
/*
 * Short runs of the benchmarks (make bench runs the long ones), to check
 * that they work and that the locks keep their invariants while they
 * hammer them: never more than one thread inside the mutex, never more
 * than the count inside the semaphore, no create or unlink that fails in
 * the ramfs directory, nothing left behind, no woken task that failed to
 * preempt its waker; and the latency benchmark's own arithmetic. Speed
 * is never asserted: the emulators that run this are shared and noisy.
 */
#include <kernel.h>
#include <errno.h>
#include <string.h>
#include <ramfs.h>
#include <bench.h>
#include "helpers.h"

/* The ramfs operations themselves, on one task. */
static void ramfs_semantics(struct kunit *test)
{
	static struct ramfs_dir dir;
	struct ramfs_file *f, *g;
	int err = 0;

	ramfs_dir_init(&dir, RAMFS_MUTEX);
	f = ramfs_create(&dir, "a", &err);
	KUNIT_ASSERT_NOT_NULL(test, f);
	KUNIT_EXPECT_NULL(test, ramfs_create(&dir, "a", &err));
	KUNIT_EXPECT_EQ(test, err, -EEXIST);
	g = ramfs_open(&dir, "a", &err);
	KUNIT_ASSERT_NOT_NULL(test, g);
	KUNIT_EXPECT_PTR_EQ(test, f->inode, g->inode);
	KUNIT_EXPECT_NULL(test, ramfs_open(&dir, "b", &err));
	KUNIT_EXPECT_EQ(test, err, -ENOENT);

	/* Unlinked but open: the inode stays until the last close. */
	KUNIT_EXPECT_EQ(test, ramfs_unlink(&dir, "a"), 0);
	KUNIT_EXPECT_EQ(test, ramfs_unlink(&dir, "a"), -ENOENT);
	KUNIT_EXPECT_EQ(test, dir.nr_entries, 0U);
	KUNIT_EXPECT_EQ(test, atomic_read(&dir.nr_inodes), 1);
	ramfs_close(f);
	KUNIT_EXPECT_EQ(test, atomic_read(&dir.nr_inodes), 1);
	ramfs_close(g);
	KUNIT_EXPECT_EQ(test, atomic_read(&dir.nr_inodes), 0);

	/* A name that does not fit is refused, not cut short. */
	KUNIT_EXPECT_NULL(test, ramfs_create(&dir,
		"a-name-much-longer-than-thirty-one-characters", &err));
	KUNIT_EXPECT_EQ(test, err, -EINVAL);

	/* destroy cleans up what is still linked. */
	f = ramfs_create(&dir, "c", &err);
	KUNIT_ASSERT_NOT_NULL(test, f);
	ramfs_close(f);
	ramfs_dir_destroy(&dir);
	KUNIT_EXPECT_EQ(test, atomic_read(&dir.nr_inodes), 0);
}

/*
 * Acquisitions per thread, on average, below which a run says nothing
 * about fairness: the run lasts a fixed time, and on a busy host the
 * vCPUs may get so little of it that there are fewer acquisitions than
 * threads.
 */
#define FAIR_RUN_MIN_AVG	20

/*
 * How long each run lasts: long enough for every thread to have its turns,
 * short because every boot of make test runs these (stress= multiplies).
 */
#define RUN_MSECS		250

/*
 * every_thread: each thread must have got the lock at least once. Only
 * asked when the threads yield every loop (without that, a thread may
 * legitimately wait a whole short run), and only of a run long enough to
 * tell (FAIR_RUN_MIN_AVG).
 */
static void check_synchro(struct kunit *test, const struct synchro_result *r,
			  int threads, int limit, bool every_thread)
{
	KUNIT_EXPECT_EQ(test, r->threads, threads);
	KUNIT_EXPECT_EQ(test, r->violations, 0UL);
	KUNIT_EXPECT_LE(test, r->max_inside, limit);
	KUNIT_EXPECT_GT(test, r->total, 0ULL);
	if (every_thread && r->total < (u64)FAIR_RUN_MIN_AVG * threads) {
		kunit_info(test, "%s: %llu acquisitions by %d threads: too few "
			   "to check that each thread got the lock", r->lock,
			   (unsigned long long)r->total, threads);
		return;
	}
	for (int i = 0; every_thread && i < threads; i++)
		KUNIT_EXPECT_GT(test, r->count[i], 0UL);
}

/* Two threads per CPU on each lock; the mutex and a 1-count sem. */
static void synchro_short(struct kunit *test)
{
	static struct synchro_result mres, sres;
	int n = min(2 * num_online_cpus(), (unsigned int)SYNCHRO_MAX_THREADS);
	struct synchro_params p = {
		.mutexes = n, .sems = n, .sem_count = 1,
		.load_us = 1, .interval_us = 1, .do_sched = true,
		.msecs = RUN_MSECS * stress_factor,
	};

	KUNIT_ASSERT_EQ(test, synchro_test_run(&p, &mres, &sres), 0);
	check_synchro(test, &mres, n, 1, true);
	check_synchro(test, &sres, n, 1, true);
	KUNIT_EXPECT_TRUE(test, synchro_report(&p, &mres));
	KUNIT_EXPECT_TRUE(test, synchro_report(&p, &sres));
}

/*
 * A semaphore of count 2, without yields: up to two inside, never three.
 * No mutex threads: their lock is left alone.
 */
static void synchro_counting_sem(struct kunit *test)
{
	static struct synchro_result mres, sres;
	int n = min(3 * num_online_cpus(), (unsigned int)SYNCHRO_MAX_THREADS);
	struct synchro_params p = {
		.mutexes = 0, .sems = n, .sem_count = 2,
		.load_us = 5, .interval_us = 0, .do_sched = false,
		.msecs = RUN_MSECS * stress_factor,
	};

	KUNIT_ASSERT_EQ(test, synchro_test_run(&p, &mres, &sres), 0);
	KUNIT_EXPECT_EQ(test, mres.threads, 0);
	KUNIT_EXPECT_EQ(test, mres.total, 0ULL);
	check_synchro(test, &sres, n, 2, false);
	KUNIT_EXPECT_TRUE(test, synchro_report(&p, &sres));
}

static void check_vfs(struct kunit *test, const struct vfs_result *r,
		      int tasks)
{
	KUNIT_EXPECT_EQ(test, r->tasks, tasks);
	KUNIT_EXPECT_EQ(test, r->errors, 0UL);
	KUNIT_EXPECT_GT(test, r->loops, 0ULL);
	KUNIT_EXPECT_GT(test, r->elapsed_ns, 0ULL);
	KUNIT_EXPECT_LE(test, r->busy_ns, r->elapsed_ns * r->cpus);
	KUNIT_EXPECT_TRUE(test, vfs_bench_report(r, RUN_MSECS * stress_factor));
}

/* The VFS test with each lock, 4 tasks per CPU. */
static void vfs_short(struct kunit *test)
{
	static struct vfs_result sem, mutex;
	int tasks = min(4 * num_online_cpus(), 64U);
	unsigned int msecs = RUN_MSECS * stress_factor;

	KUNIT_ASSERT_EQ(test, vfs_bench_run(VFS_LOCK_SEM, tasks, msecs, &sem), 0);
	KUNIT_ASSERT_EQ(test, vfs_bench_run(VFS_LOCK_MUTEX, tasks, msecs, &mutex), 0);
	check_vfs(test, &sem, tasks);
	check_vfs(test, &mutex, tasks);
	vfs_bench_report_ratio(&sem, &mutex);
}

/*
 * The latency histogram: every bucket starts where the one before it
 * ends, and a value falls in the bucket whose bounds hold it; four
 * buckets to an octave, so 1000 ns is in [896, 1024).
 */
static void latency_buckets(struct kunit *test)
{
	for (unsigned int b = 0; b < LATENCY_BUCKETS; b++) {
		u64 lo = latency_bucket_lo(b), hi = latency_bucket_lo(b + 1);

		KUNIT_ASSERT_LT(test, lo, hi);
		KUNIT_EXPECT_EQ(test, latency_bucket(lo), b);
		KUNIT_EXPECT_EQ(test, latency_bucket(hi - 1), b);
	}
	KUNIT_EXPECT_EQ(test, latency_bucket(0), 0U);
	KUNIT_EXPECT_EQ(test, latency_bucket(5), 5U);
	KUNIT_EXPECT_EQ(test, latency_bucket(9), 8U);
	KUNIT_EXPECT_EQ(test, latency_bucket_lo(latency_bucket(1000)), 896ULL);
	KUNIT_EXPECT_EQ(test, latency_bucket_lo(latency_bucket(1000) + 1),
			1024ULL);
	KUNIT_EXPECT_EQ(test, latency_bucket(0xffffffffU),
			LATENCY_BUCKETS - 1);
	KUNIT_EXPECT_EQ(test, latency_bucket_lo(LATENCY_BUCKETS), 1ULL << 32);
}

/* Nearest rank: the smallest sample with pct % of them at or below it. */
static void latency_percentiles(struct kunit *test)
{
	static u32 ten[10] = { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10 };
	static u32 many[200];
	u32 one = 42;

	for (unsigned int i = 0; i < ARRAY_SIZE(many); i++)
		many[i] = i + 1;
	KUNIT_EXPECT_EQ(test, latency_percentile(ten, 0, 50), 0U);
	KUNIT_EXPECT_EQ(test, latency_percentile(&one, 1, 50), 42U);
	KUNIT_EXPECT_EQ(test, latency_percentile(&one, 1, 99), 42U);
	KUNIT_EXPECT_EQ(test, latency_percentile(ten, 10, 0), 1U);
	KUNIT_EXPECT_EQ(test, latency_percentile(ten, 10, 10), 1U);
	KUNIT_EXPECT_EQ(test, latency_percentile(ten, 10, 11), 2U);
	KUNIT_EXPECT_EQ(test, latency_percentile(ten, 10, 50), 5U);
	KUNIT_EXPECT_EQ(test, latency_percentile(ten, 10, 99), 10U);
	KUNIT_EXPECT_EQ(test, latency_percentile(ten, 10, 100), 10U);
	KUNIT_EXPECT_EQ(test, latency_percentile(many, 200, 50), 100U);
	KUNIT_EXPECT_EQ(test, latency_percentile(many, 200, 99), 198U);
}

/* Sorted in place, summed up, each sample in its bucket once. */
static void latency_summary(struct kunit *test)
{
	static struct latency_stats st;
	u32 ns[] = { 5000, 1, 1000, 3, 1020 };
	unsigned int total = 0;

	latency_summarize(ns, ARRAY_SIZE(ns), &st);
	KUNIT_EXPECT_EQ(test, ns[0], 1U);
	KUNIT_EXPECT_EQ(test, ns[4], 5000U);
	KUNIT_EXPECT_EQ(test, st.samples, 5U);
	KUNIT_EXPECT_EQ(test, st.min_ns, 1U);
	KUNIT_EXPECT_EQ(test, st.median_ns, 1000U);
	KUNIT_EXPECT_EQ(test, st.p99_ns, 5000U);
	KUNIT_EXPECT_EQ(test, st.max_ns, 5000U);
	KUNIT_EXPECT_EQ(test, st.mean_ns, 1404U);	/* 7024 / 5 */
	/* 1000 and 1020 share [896, 1024). */
	KUNIT_EXPECT_EQ(test, st.hist[latency_bucket(1000)], 2U);
	KUNIT_EXPECT_EQ(test, st.hist[latency_bucket(5000)], 1U);
	for (unsigned int b = 0; b < LATENCY_BUCKETS; b++)
		total += st.hist[b];
	KUNIT_EXPECT_EQ(test, total, 5U);
	latency_summarize(ns, 0, &st);
	KUNIT_EXPECT_EQ(test, st.samples, 0U);
	KUNIT_EXPECT_EQ(test, st.max_ns, 0U);
}

/*
 * A few turns of bench=latency, both loads: every path gave a sample
 * each turn, and every woken task on its waker's CPU ran before the
 * waker went on. Never how long it took.
 */
static void latency_short(struct kunit *test)
{
	static struct latency_result r;
	struct latency_params p = {
		.loops = 10 * stress_factor,
		.load = { true, true },
		.hog_relax = true,
	};

	KUNIT_ASSERT_EQ(test, latency_run(&p, &r), 0);
	KUNIT_EXPECT_EQ(test, r.cpus, num_online_cpus());
	for (int load = 0; load < NR_LATENCY_LOADS; load++) {
		KUNIT_EXPECT_TRUE(test, r.ran[load]);
		for (int path = 0; path < NR_LATENCY_PATHS; path++) {
			const struct latency_stats *st = &r.stats[load][path];
			bool cross = path == LATENCY_CROSS_CPU;

			KUNIT_EXPECT_EQ(test, st->samples,
					cross && r.cpus < 2 ? 0 : p.loops);
			KUNIT_EXPECT_EQ(test, st->late, 0U);
			KUNIT_EXPECT_LE(test, st->min_ns, st->median_ns);
			KUNIT_EXPECT_LE(test, st->median_ns, st->p99_ns);
			KUNIT_EXPECT_LE(test, st->p99_ns, st->max_ns);
		}
	}
	KUNIT_EXPECT_TRUE(test, latency_report(&r));
}

static struct kunit_case bench_cases[] = {
	KUNIT_CASE(ramfs_semantics),
	KUNIT_CASE(synchro_short),
	KUNIT_CASE(synchro_counting_sem),
	KUNIT_CASE(vfs_short),
	KUNIT_CASE(latency_buckets),
	KUNIT_CASE(latency_percentiles),
	KUNIT_CASE(latency_summary),
	KUNIT_CASE(latency_short),
	{}
};

static struct kunit_suite bench_suite = {
	.name = "bench",
	.test_cases = bench_cases,
};
kunit_test_suite(bench_suite);
