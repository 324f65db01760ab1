/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What kernel/locking/rtmutex.c calls for its checks, all under pi_lock.
 * The debug build (kernel/locking/rtmutex-debug.c) prints the mutex debug
 * build's reports, with the rt-mutexes each task holds; the others refuse
 * a bad unlock or a deadlock, and release a dead owner's locks, with one
 * line that says why.
 */
#ifndef _KERNEL_RTMUTEX_DEBUG_H
#define _KERNEL_RTMUTEX_DEBUG_H

#include <rtmutex.h>

#ifdef CONFIG_DEBUG_MUTEXES
/* In interrupt context: reported, and the caller refuses (true). */
bool rt_mutex_in_irq(struct rt_mutex *lock, unsigned long ip);
#else
#define rt_mutex_in_irq(lock, ip)		((void)(lock), false)
#endif

/* The task exits holding rt-mutexes (current), on its held list. */
void rt_mutex_report_exit_held(struct task_struct *task);

/* One task's line for rt_mutex_show_all(), if it has anything to show. */
void rt_mutex_show_task(struct task_struct *p);
/* The owners' chain from lock comes back to us after depth links. */
void rt_mutex_report_deadlock(struct rt_mutex *lock, unsigned int depth,
			      unsigned long ip);
/* An unlock by a task that is not the owner. */
void rt_mutex_report_bad_unlock(struct rt_mutex *lock, unsigned long ip);

#endif
