/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Tasks and the scheduler. Every task is a kernel thread with a
 * THREAD_SIZE stack whose base holds its thread_info. See docs/scheduler.md.
 */
#ifndef _SCHED_H
#define _SCHED_H

#include <types.h>
#include <list.h>
#include <thread_info.h>
#include <preempt.h>
#include <spinlock.h>
#include <atomic.h>
#include <completion.h>
#include <asm/switch_to.h>

/* Task states, as in Linux 2.6. A sleeping task has one of the first two. */
#define TASK_RUNNING		0
#define TASK_INTERRUPTIBLE	1
#define TASK_UNINTERRUPTIBLE	2
#define TASK_STOPPED		4
#define EXIT_ZOMBIE		16
#define EXIT_DEAD		32
#define TASK_NORMAL		(TASK_INTERRUPTIBLE | TASK_UNINTERRUPTIBLE)

#define TASK_COMM_LEN		16
#define MAX_NICE		19
#define MIN_NICE		-20
/*
 * Priorities, numbered as in Linux: lower is more urgent. 0..99 are the
 * real-time levels (rt_priority 99..1), 100..139 the nice levels of
 * SCHED_NORMAL. See docs/scheduler.md.
 */
#define MAX_USER_RT_PRIO	100
#define MAX_RT_PRIO		MAX_USER_RT_PRIO
#define MAX_PRIO		(MAX_RT_PRIO + 40)
#define DEFAULT_PRIO		(MAX_RT_PRIO + 20)

/* Scheduling policies, with Linux's numbers. */
#define SCHED_NORMAL		0
#define SCHED_FIFO		1
#define SCHED_RR		2

/* SCHED_RR's time slice: 100 ms, as in Linux 2.6. */
#define RR_TIMESLICE		(HZ / 10)

struct sched_param {
	int sched_priority;		/* 1..99 for FIFO and RR, 0 for NORMAL */
};

#define SIGINT			2
#define SIGKILL			9
#define SIGUSR1			10
#define SIGTERM			15

struct mutex_waiter;
struct mutex;
struct rt_mutex_waiter;

struct task_struct {
	volatile long state;		/* TASK_* or EXIT_* */
	struct thread_info *thread_info;	/* base of the kernel stack */
	struct thread_struct thread;	/* arch: saved stack pointer */
	pid_t pid;
	char comm[TASK_COMM_LEN];
	int prio;			/* what it runs at: normal_prio or boosted */
	int static_prio;		/* 100 + 20 + nice, as in Linux */
	int normal_prio;		/* from its policy alone, never boosted */
	unsigned int rt_priority;	/* 1..99 for FIFO and RR, else 0 */
	int policy;			/* SCHED_NORMAL, SCHED_FIFO, SCHED_RR */
	int time_slice;			/* ticks left before preemption */

	/* scheduler */
	struct list_head run_list;	/* on the run queue while queued */
	int on_rq;			/* runnable: queued or running */
	int on_cpu;			/* running right now on some CPU */
	int cpus_allowed;		/* -1: any CPU, else the one CPU */
	int idle;			/* this CPU's idle task */
	int lowered;			/* its prio dropped while it ran */

	/* accounting */
	u64 sum_exec_ns;		/* time on a CPU */
	u64 exec_start;			/* clock when last switched in */
	unsigned long nvcsw;		/* voluntary context switches */
	unsigned long nivcsw;		/* involuntary (preempted) */
	unsigned long sleep_start;	/* jiffies when it last slept */
	unsigned long last_woken;	/* jiffies when it was last woken */
	unsigned long last_wake_ip;	/* where from */
	pid_t last_waker;		/* by which task; -1: an interrupt */

	/* signals: a bit per pending signal number */
	unsigned long pending;

	/* lifetime */
	struct list_head tasks;		/* on the list of all tasks */
	int exit_code;
	struct completion exited;	/* ended, and off its CPU for good */
	int (*threadfn)(void *data);
	void *data;
	int should_stop;
	void *kunit;			/* the test case this task runs, if any */
	unsigned long hung_last_switches; /* for the hung-task watchdog */

	/* priority inheritance (kernel/locking/rtmutex.c), under its pi_lock */
	struct list_head pi_waiters;	/* top waiters of its rt-mutexes */
	struct rt_mutex_waiter *pi_blocked_on; /* the rt-mutex it waits for */
	struct list_head held_rt_mutexes; /* rt-mutexes it holds */

#ifdef CONFIG_DEBUG_MUTEXES
	struct mutex_waiter *blocked_on; /* the mutex it waits for */
	struct list_head held_locks;	/* mutexes it holds */
	arch_spinlock_t held_locks_lock; /* whoever changes or walks it */
	unsigned long mutex_caller;	/* who called the mutex API */
#endif
#ifdef CONFIG_PROVE_LOCKING
	struct lockdep_task lockdep;	/* the locks it holds, in order */
#endif
};

extern struct task_struct init_task;
#define current (current_thread_info()->task)

/* All tasks, for the watchdog, the debug code and show_state(). */
extern struct list_head task_list;
extern spinlock_t task_list_lock;

/*
 * Setting the state before testing the wakeup condition needs a full
 * barrier, so that the waker cannot see the old state after we tested.
 * Pollers read a task's state (and on_rq, on_cpu) with READ_ONCE and no
 * lock, so every store of them is a WRITE_ONCE: a plain one may be torn
 * or repeated, and the race detector reports it (docs/kcsan.md).
 */
#define __set_current_state(s)	WRITE_ONCE(current->state, (s))
#define set_current_state(s)	smp_store_mb(current->state, (s))
#define __set_task_state(t, s)	WRITE_ONCE((t)->state, (s))

void sched_init(void);
void sched_init_secondary(unsigned int cpu);
void schedule(void);
asmlinkage void schedule_tail(struct task_struct *prev);
void scheduler_tick(void);
void __noreturn cpu_idle(void);
int wake_up_process(struct task_struct *p);
int wake_up_state(struct task_struct *p, unsigned int state);
void yield(void);
int cond_resched(void);
void set_user_nice(struct task_struct *p, int nice);
int sched_setscheduler(struct task_struct *p, int policy,
		       const struct sched_param *param);
/* Changes what p runs at, for priority inheritance (rtmutex.c). */
void rt_mutex_setprio(struct task_struct *p, int prio);
const char *sched_policy_name(int policy);

static inline int rt_prio(int prio)
{
	return prio < MAX_RT_PRIO;
}

static inline int rt_task(struct task_struct *p)
{
	return rt_prio(p->prio);
}
void resched_cpu(unsigned int cpu);
/* lib/kunit's stuck check, and what it prints of the run queue. */
bool sched_machine_stuck(struct task_struct *self);
void sched_show_queue(void);

#define MAX_SCHEDULE_TIMEOUT	((long)(~0UL >> 1))
long schedule_timeout(long timeout);
long schedule_timeout_interruptible(long timeout);
long schedule_timeout_uninterruptible(long timeout);
void msleep(unsigned int msecs);
/*
 * A sleep between two looks for what another task must run to do (a
 * count it raises, a flag it sets): its timer is deferrable, so that a
 * machine where only such pollers are left is seen to be stuck
 * (lib/kunit). Never for a wait whose timeout is the point, nor for one
 * that waits for a task to fall asleep: that comes true as the machine
 * goes quiet, and the poller then goes on.
 */
void msleep_poll(unsigned int msecs);
unsigned long msleep_interruptible(unsigned int msecs);

static inline int need_resched(void)
{
	return test_thread_flag(TIF_NEED_RESCHED);
}

/* might_sleep(): report a call that may block from atomic context. */
void __might_sleep(const char *file, int line);
#define might_sleep()	__might_sleep(__FILE__, __LINE__)
extern unsigned long might_sleep_reports;

/* Signals, enough for interruptible sleeps. */
int send_sig(int sig, struct task_struct *p, int priv);
void flush_signals(struct task_struct *p);
static inline int signal_pending(struct task_struct *p)
{
	return READ_ONCE(p->pending) != 0;
}

/* Tasks. */
struct task_struct *task_create(int (*fn)(void *), void *data,
				const char *name);
void __noreturn do_exit(int code);
int task_reap(struct task_struct *p);
char task_state_char(struct task_struct *p);
void show_task(struct task_struct *p);
void show_state(void);
void show_stack(struct task_struct *p);

/* Per-CPU accounting, readable by tests and benchmarks. */
struct cpu_stat {
	u64 idle_ns;
	u64 busy_ns;
	unsigned long switches;
	unsigned long nr_wakeups;	/* wakeups done by this CPU */
};
void cpu_stat_read(unsigned int cpu, struct cpu_stat *st);

/* CPUs. */
extern unsigned int nr_cpu_ids;		/* CPUs brought online */
extern volatile unsigned long cpu_online_mask;
#define cpu_online(c)	((cpu_online_mask >> (c)) & 1)
#define num_online_cpus()	((unsigned int)__builtin_popcountl(cpu_online_mask))

/* Hung-task watchdog. */
extern unsigned long hung_task_reports;
extern unsigned long sysctl_hung_task_timeout_secs;
/* A CPU that stays unpreemptible this long panics (0: never). */
extern unsigned int softlockup_secs;

#endif
