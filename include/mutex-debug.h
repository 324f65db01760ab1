/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The debug build's part of the mutex API (CONFIG_DEBUG_MUTEXES): names,
 * owner and held-lock tracking, and the reports. See docs/mutex-debug.md.
 */
#ifndef _MUTEX_DEBUG_H
#define _MUTEX_DEBUG_H

#include <compiler.h>

struct mutex;
struct task_struct;

#define __DEBUG_MUTEX_INITIALIZER(lockname)				\
	.name = #lockname, .magic = &lockname,				\
	.held_list = LIST_HEAD_INIT(lockname.held_list),

/* A mutex set up by mutex_init() is named after where that happened. */
#define mutex_init(mutex)						\
	__mutex_init(mutex, __FILE__ ":" __stringify(__LINE__),		\
		     LOCKDEP_KEY(mutex))

void mutex_destroy(struct mutex *lock);
void mutex_debug_show_all_locks(void);
void mutex_debug_show_held_locks(struct task_struct *task);
/* The name of the mutex task waits for, or NULL (for ps). */
const char *mutex_debug_blocked_on(struct task_struct *task);
void mutex_debug_check_no_locks_held(struct task_struct *task);
void mutex_debug_check_no_locks_freed(const void *from, unsigned long len);
/*
 * Around every change of task_list, inside task_list_lock: the show-all
 * walk that could not get task_list_lock holds this lock instead.
 */
unsigned long mutex_debug_task_list_lock(void);
void mutex_debug_task_list_unlock(unsigned long flags);

/* The kinds of report; each has a fixed first line (mutex_bug_title). */
enum mutex_bug {
	MUTEX_BUG_RECURSION,		/* the owner locks it again */
	MUTEX_BUG_CIRCULAR,		/* a cycle of owners and waiters */
	MUTEX_BUG_CHAIN_TOO_LONG,	/* more links than tasks */
	MUTEX_BUG_DOUBLE_UNLOCK,	/* unlock of an unlocked mutex */
	MUTEX_BUG_NOT_OWNER,		/* unlock by another task */
	MUTEX_BUG_UNINITIALIZED,	/* memset or copied, not mutex_init */
	MUTEX_BUG_DESTROYED,		/* used after mutex_destroy */
	MUTEX_BUG_INIT_HELD,		/* mutex_init of a held mutex */
	MUTEX_BUG_DESTROY_HELD,		/* mutex_destroy of a held mutex */
	MUTEX_BUG_EXIT_HELD,		/* a task exits holding one */
	MUTEX_BUG_FREE_HELD,		/* memory with a held mutex freed */
	MUTEX_BUG_IN_IRQ,		/* used from interrupt context */
	MUTEX_BUG_WW_CLASS,		/* a ww context used for two classes */
	MUTEX_BUG_WW_NO_BACKOFF,	/* locking on after -EDEADLK */
	MUTEX_BUG_WW_FINI_HELD,		/* ww_acquire_fini with locks held */
	MUTEX_BUG_WW_AFTER_DONE,	/* locking after ww_acquire_done */
	MUTEX_BUG_NR,
};

extern const char *const mutex_bug_title[MUTEX_BUG_NR];
/*
 * A report's frame: its title, the offending task; then, after what the
 * caller prints, the backtrace. The rt-mutex's reports use it too.
 */
void mutex_debug_report_begin(enum mutex_bug kind);
void mutex_debug_report_end(void);
/*
 * A ww_mutex rule broken by the current task at ip: the lock (NULL:
 * none), the line ctx_line says of its acquire context, the ww_mutexes
 * it holds and its backtrace (kernel/locking/ww_mutex-debug.c).
 */
void mutex_debug_report_ww(enum mutex_bug kind, struct mutex *lock,
			   unsigned long ip, const char *ctx_line);
/* How many reports of each kind so far, for the tests. */
extern unsigned long mutex_debug_reports[MUTEX_BUG_NR];
/*
 * For the tests: a task that queues on this mutex is preempted when it
 * lets go of wait_lock, before it sleeps, so that an unlock can come in
 * that window every time, not once in a million (NULL: none).
 */
extern struct mutex *mutex_debug_preempt_waiters_of;

#endif
