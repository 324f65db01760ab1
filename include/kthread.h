/* SPDX-License-Identifier: GPL-2.0 */
/* Kernel threads: create, bind, run, stop and reap. */
#ifndef _KTHREAD_H
#define _KTHREAD_H

#include <sched.h>

/*
 * Creates a thread that will run fn(data) once woken; its name is printf-
 * formatted. Returns NULL when out of memory.
 */
struct task_struct *kthread_create(int (*fn)(void *data), void *data,
				   const char *namefmt, ...) __printf(3, 4);

#define kthread_run(fn, data, namefmt, ...) ({				\
	struct task_struct *__k =					\
		kthread_create(fn, data, namefmt, ##__VA_ARGS__);	\
	if (__k)							\
		wake_up_process(__k);					\
	__k;								\
})

/* Before the first wakeup: the thread will only ever run on cpu. */
void kthread_bind(struct task_struct *k, unsigned int cpu);

/*
 * kthread_create() of a thread with a scheduling policy and priority (0
 * for SCHED_NORMAL), bound to cpu unless cpu < 0, not woken. A bad policy
 * or priority is printed by sched_setscheduler() and leaves the thread
 * SCHED_NORMAL. NULL when out of memory.
 */
struct task_struct *kthread_create_sched(int (*fn)(void *data), void *data,
					 int policy, int prio, int cpu,
					 const char *name);
/*
 * Asks k to stop, wakes it, waits for it to exit, frees it and returns what
 * its function returned (or the do_exit() code).
 */
int kthread_stop(struct task_struct *k);
bool kthread_should_stop(void);
/* Waits for k to exit by itself, frees it and returns its exit code. */
int kthread_join(struct task_struct *k);

#endif
