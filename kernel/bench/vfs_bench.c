// SPDX-License-Identifier: GPL-2.0
/*
 * The VFS test of the mutex series, inside the kernel: N tasks each create
 * a file of their own in one shared ramfs directory, close it and unlink
 * it, over and over, for some seconds. Creating and unlinking take the
 * directory's lock, so the tasks contend for it the way the 2006 patches'
 * "test-mutex V 16 10" contended for a directory's i_sem in /tmp.
 *
 * One run measures one lock type: the semaphore, the 2006 mutex, or (in
 * the spin build) the mutex spinning on its owner without and with
 * handoff. For the run's window it reports the loops per second, the CPU
 * utilisation from the scheduler's accounting (busy time over elapsed
 * time times online CPUs), the loops per second per percent of CPU, the
 * context switches and wakeups per loop (the figures that explain why
 * one lock beats the other), how fairly the tasks shared the loops
 * (Jain's index) and the longest wait for the lock.
 */
#include <kernel.h>
#include <errno.h>
#include <mm.h>
#include <sched.h>
#include <smp.h>
#include <completion.h>
#include <kthread.h>
#include <time.h>
#include <ramfs.h>
#include <mutex.h>
#include <bench.h>

#define VFS_MAX_TASKS	64

struct vfs_task {
	struct vfs_run *run;
	struct task_struct *task;
	int id;
	unsigned long loops;
	unsigned long errors;
};

struct vfs_run {
	struct ramfs_dir dir;
	struct completion start;
	int stop;
	struct vfs_task tasks[VFS_MAX_TASKS];
	unsigned long window[VFS_MAX_TASKS];	/* each task's loops in it */
};

static int vfs_task_fn(void *arg)
{
	struct vfs_task *t = arg;
	struct ramfs_dir *dir = &t->run->dir;
	struct ramfs_file *file;
	char name[RAMFS_NAME_LEN];
	int err;

	snprintf(name, sizeof(name), "t%d-f", t->id);
	wait_for_completion(&t->run->start);
	while (!READ_ONCE(t->run->stop)) {
		/*
		 * The name is this task's own: it cannot exist, and it must
		 * be there to unlink. Either failing means the directory
		 * lost an update under its lock.
		 */
		file = ramfs_create(dir, name, &err);
		if (file)
			ramfs_close(file);
		else
			t->errors++;
		if (ramfs_unlink(dir, name))
			t->errors++;
		WRITE_ONCE(t->loops, t->loops + 1);
	}
	return 0;
}

/* The summed scheduler counters of every online CPU. */
static void read_cpus(struct cpu_stat *sum)
{
	struct cpu_stat st;

	sum->idle_ns = sum->busy_ns = 0;
	sum->switches = sum->nr_wakeups = 0;
	for (unsigned int cpu = 0; cpu < NR_CPUS; cpu++) {
		if (!cpu_online(cpu))
			continue;
		cpu_stat_read(cpu, &st);
		sum->idle_ns += st.idle_ns;
		sum->busy_ns += st.busy_ns;
		sum->switches += st.switches;
		sum->nr_wakeups += st.nr_wakeups;
	}
}

static u64 sum_loops(struct vfs_run *run, int n)
{
	u64 sum = 0;

	for (int i = 0; i < n; i++)
		sum += READ_ONCE(run->tasks[i].loops);
	return sum;
}

/*
 * window[i] = task i's loops now - window[i]: called at both edges of the
 * window, it leaves each task's loops within it.
 */
static void window_edge(struct vfs_run *run, int n)
{
	for (int i = 0; i < n; i++)
		run->window[i] = READ_ONCE(run->tasks[i].loops) - run->window[i];
}

/*
 * The spinning mutex's run-time switches (CONFIG_MUTEX_SPIN_ON_OWNER) for
 * one run: both off make it the 2006 mutex. After the run they are back
 * at their defaults.
 */
static void set_mutex_mode(enum vfs_lock lock, bool run)
{
#ifdef CONFIG_MUTEX_SPIN_ON_OWNER
	mutex_spin_on_owner = !run || lock == VFS_LOCK_MUTEX_SPIN ||
			      lock == VFS_LOCK_MUTEX_HANDOFF;
	mutex_handoff_after = !run || lock == VFS_LOCK_MUTEX_HANDOFF ?
			      MUTEX_HANDOFF_AFTER : 0;
#endif
}

int vfs_bench_run(enum vfs_lock lock, int tasks, unsigned int msecs,
		  struct vfs_result *r)
{
	struct vfs_run *run = kzalloc(sizeof(*run));
	struct cpu_stat before, after;
	u64 t0, t1, loops0, loops1;
	int started = 0;

	if (!run)
		return -ENOMEM;
	tasks = min(tasks, VFS_MAX_TASKS);
	ramfs_dir_init(&run->dir, lock == VFS_LOCK_SEM ? RAMFS_SEM :
			 lock == VFS_LOCK_RT_MUTEX ? RAMFS_RT_MUTEX : RAMFS_MUTEX);
	set_mutex_mode(lock, true);
	init_completion(&run->start);
	for (int i = 0; i < tasks; i++) {
		struct vfs_task *t = &run->tasks[i];

		t->run = run;
		t->id = i;
		t->task = kthread_run(vfs_task_fn, t, "vfs/%d", i);
		if (!t->task)
			break;
		started++;
	}

	/*
	 * The window opens once every task may run and closes when the
	 * stop flag is raised; loops are counted at its two edges, so that
	 * the start-up and wind-down of the tasks do not count.
	 */
	complete_all(&run->start);
	t0 = ktime_get_ns();
	read_cpus(&before);
	loops0 = sum_loops(run, started);
	window_edge(run, started);
	/*
	 * The guest clock, not jiffies, decides when to stop: an emulator
	 * that falls behind loses timer ticks, so jiffies run slow. The
	 * window stays open past its time until a loop is done: on a loaded
	 * host (the race detector's 4-CPU riscv boot) the tasks may not
	 * finish one in it, and an empty window measures nothing. A signal
	 * (Ctrl-C on the console) ends the run early.
	 */
	while (started == tasks && !signal_pending(current) &&
	       (ktime_get_ns() - t0 < msecs * NSEC_PER_MSEC ||
		sum_loops(run, started) == loops0))
		msleep(20);
	loops1 = sum_loops(run, started);
	window_edge(run, started);
	read_cpus(&after);
	t1 = ktime_get_ns();
	WRITE_ONCE(run->stop, 1);
	for (int i = 0; i < started; i++)
		kthread_join(run->tasks[i].task);
	set_mutex_mode(lock, false);

	r->lock = lock;
	r->tasks = started;
	r->cpus = num_online_cpus();
	r->loops = loops1 - loops0;
	r->elapsed_ns = t1 - t0;
	r->busy_ns = after.busy_ns - before.busy_ns;
	r->switches = after.switches - before.switches;
	r->wakeups = after.nr_wakeups - before.nr_wakeups;
	r->errors = 0;
	for (int i = 0; i < started; i++)
		r->errors += run->tasks[i].errors;
	r->jain = jain_index_x10000(run->window, started);
	r->lock_stats = run->dir.stats;
	r->all_loops = sum_loops(run, started);
	/* Every file was unlinked and every inode freed: nothing may be left. */
	if (run->dir.nr_entries || atomic_read(&run->dir.nr_inodes))
		r->errors++;
	ramfs_dir_destroy(&run->dir);
	kfree(run);
	return started == tasks ? 0 : -ENOMEM;
}

static const char *lock_name(enum vfs_lock lock)
{
	static const char *const names[] = {
		[VFS_LOCK_SEM] = "sem",
		[VFS_LOCK_MUTEX] = "mutex",
		[VFS_LOCK_MUTEX_SPIN] = "spin",
		[VFS_LOCK_MUTEX_HANDOFF] = "handoff",
		[VFS_LOCK_RT_MUTEX] = "rt",
	};

	return names[lock];
}

/* The derived figures, each times 100. */
struct vfs_figures {
	u64 loops_per_sec;
	u64 cpu_pct;
	u64 loops_per_cpu_pct;
	u64 cs_per_loop;	/* these two times 10000 */
	u64 wakeups_per_loop;
	u64 cpu_us_per_loop;	/* CPU time of one loop */
	u64 contended_pct;	/* lock requests that found it held */
	u64 wait_us_per_loop;	/* time from asking for the lock to getting it */
	u64 hold_us_per_loop;	/* time holding it */
};

static void figures(const struct vfs_result *r, struct vfs_figures *f)
{
	u64 elapsed_us = max(r->elapsed_ns / 1000, 1ULL);
	u64 total_ns = max(r->elapsed_ns * r->cpus, 1ULL);
	u64 loops = max(r->loops, 1ULL);

	f->loops_per_sec = r->loops * 100000000ULL / elapsed_us;
	f->cpu_pct = r->busy_ns * 10000 / total_ns;
	f->loops_per_cpu_pct = f->loops_per_sec * 100 / max(f->cpu_pct, 1ULL);
	f->cs_per_loop = (u64)r->switches * 10000 / loops;
	f->wakeups_per_loop = (u64)r->wakeups * 10000 / loops;
	f->cpu_us_per_loop = r->busy_ns / 10 / loops;
	f->contended_pct = (u64)r->lock_stats.contended * 10000 /
			   max((u64)r->lock_stats.acquired, 1ULL);
	f->wait_us_per_loop = r->lock_stats.wait_ns / 10 /
			      max(r->all_loops, 1ULL);
	f->hold_us_per_loop = r->lock_stats.hold_ns / 10 /
			      max(r->all_loops, 1ULL);
}

bool vfs_bench_report(const struct vfs_result *r, unsigned int msecs)
{
	struct vfs_figures f;
	bool ok = !r->errors && r->loops > 0;

	figures(r, &f);
	printk("bench: vfs lock=%s cpus=%u tasks=%d secs=%u.%02u loops=%llu loops_per_sec=%llu.%02llu cpu_pct=%llu.%02llu loops_per_cpu_pct=%llu.%02llu cs_per_loop=%llu.%04llu wakeups_per_loop=%llu.%04llu switches=%lu wakeups=%lu cpu_us_per_loop=%llu.%02llu contended_pct=%llu.%02llu wait_us_per_loop=%llu.%02llu hold_us_per_loop=%llu.%02llu jain=%llu.%04llu max_wait_us=%llu errors=%lu%s\n",
	       lock_name(r->lock), r->cpus, r->tasks, msecs / 1000,
	       msecs % 1000 / 10, (unsigned long long)r->loops,
	       FIXED2(f.loops_per_sec), FIXED2(f.cpu_pct),
	       FIXED2(f.loops_per_cpu_pct), FIXED4(f.cs_per_loop),
	       FIXED4(f.wakeups_per_loop), r->switches, r->wakeups,
	       FIXED2(f.cpu_us_per_loop), FIXED2(f.contended_pct),
	       FIXED2(f.wait_us_per_loop), FIXED2(f.hold_us_per_loop),
	       FIXED4(r->jain),
	       (unsigned long long)r->lock_stats.max_wait_ns / 1000,
	       r->errors, ok ? "" : " FAILED");
	return ok;
}

static u64 ratio_x100(u64 a, u64 b)
{
	return b ? a * 100 / b : 0;
}

void vfs_bench_report_ratio(const struct vfs_result *base,
			    const struct vfs_result *r)
{
	struct vfs_figures b, f;

	figures(base, &b);
	figures(r, &f);
	printk("bench: vfs-ratio lock=%s base=%s cpus=%u tasks=%d throughput=%llu.%02llu cpu=%llu.%02llu efficiency=%llu.%02llu\n",
	       lock_name(r->lock), lock_name(base->lock), r->cpus, r->tasks,
	       FIXED2(ratio_x100(f.loops_per_sec, b.loops_per_sec)),
	       FIXED2(ratio_x100(f.cpu_pct, b.cpu_pct)),
	       FIXED2(ratio_x100(f.loops_per_cpu_pct, b.loops_per_cpu_pct)));
}
