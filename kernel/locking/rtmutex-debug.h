/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What kernel/locking/rtmutex.c calls for its checks, all under pi_lock.
 * The debug build (kernel/locking/rtmutex-debug.c) tracks the rt-mutexes
 * each task holds and prints the mutex debug build's reports; the others
 * refuse a bad unlock or a deadlock with one line that says why.
 */
#ifndef _KERNEL_RTMUTEX_DEBUG_H
#define _KERNEL_RTMUTEX_DEBUG_H

#include <rtmutex.h>

#ifdef CONFIG_DEBUG_MUTEXES
void debug_rt_mutex_init(struct rt_mutex *lock);
void debug_rt_mutex_set_owner(struct rt_mutex *lock);
void debug_rt_mutex_clear_owner(struct rt_mutex *lock);
/* The task exits holding rt-mutexes (current). */
void rt_mutex_report_exit_held(struct task_struct *task);
/* In interrupt context: reported, and the caller refuses (true). */
bool rt_mutex_in_irq(struct rt_mutex *lock, unsigned long ip);
#else
#define rt_mutex_in_irq(lock, ip)		((void)(lock), false)
#define debug_rt_mutex_init(lock)		do { (void)(lock); } while (0)
#define debug_rt_mutex_set_owner(lock)		do { (void)(lock); } while (0)
#define debug_rt_mutex_clear_owner(lock)	do { (void)(lock); } while (0)
#endif

/* One task's line for rt_mutex_show_all(), if it has anything to show. */
void rt_mutex_show_task(struct task_struct *p);
/* The owners' chain from lock comes back to us after depth links. */
void rt_mutex_report_deadlock(struct rt_mutex *lock, unsigned int depth,
			      unsigned long ip);
/* An unlock by a task that is not the owner. */
void rt_mutex_report_bad_unlock(struct rt_mutex *lock, unsigned long ip);

#endif
