/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Wait queues: a list of sleeping tasks behind a spinlock. An exclusive
 * waiter is woken one at a time (wake_up wakes all non-exclusive waiters and
 * one exclusive one); wake_up_all wakes everybody.
 */
#ifndef _WAIT_H
#define _WAIT_H

#include <list.h>
#include <spinlock.h>

struct task_struct;
struct wait_queue_entry;
typedef int (*wait_queue_func_t)(struct wait_queue_entry *wq, unsigned int mode);

#define WQ_FLAG_EXCLUSIVE	0x01

struct wait_queue_entry {
	unsigned int flags;
	struct task_struct *task;
	wait_queue_func_t func;
	struct list_head entry;
};
typedef struct wait_queue_entry wait_queue_entry_t;

typedef struct wait_queue_head {
	spinlock_t lock;
	struct list_head head;
} wait_queue_head_t;

#define __WAIT_QUEUE_HEAD_INITIALIZER(name) {				\
	.lock = __SPIN_LOCK_UNLOCKED(name.lock),			\
	.head = LIST_HEAD_INIT(name.head) }
#define DECLARE_WAIT_QUEUE_HEAD(name) \
	wait_queue_head_t name = __WAIT_QUEUE_HEAD_INITIALIZER(name)

void __init_waitqueue_head(wait_queue_head_t *wq, const char *key);
/* Each place that calls it gives its queues' locks a class of their own. */
#define init_waitqueue_head(wq) \
	__init_waitqueue_head(wq, LOCKDEP_KEY((wq)->lock))
int default_wake_function(struct wait_queue_entry *wq, unsigned int mode);
int autoremove_wake_function(struct wait_queue_entry *wq, unsigned int mode);

#define DEFINE_WAIT_FUNC(name, fn)					\
	struct wait_queue_entry name = {				\
		.task = current, .func = fn,				\
		.entry = LIST_HEAD_INIT(name.entry) }
#define DECLARE_WAITQUEUE(name, tsk)					\
	struct wait_queue_entry name = {				\
		.task = tsk, .func = default_wake_function,		\
		.entry = LIST_HEAD_INIT(name.entry) }
#define DEFINE_WAIT(name)	DEFINE_WAIT_FUNC(name, autoremove_wake_function)

void add_wait_queue(wait_queue_head_t *wq, struct wait_queue_entry *e);
void add_wait_queue_exclusive(wait_queue_head_t *wq, struct wait_queue_entry *e);
void remove_wait_queue(wait_queue_head_t *wq, struct wait_queue_entry *e);
void prepare_to_wait(wait_queue_head_t *wq, struct wait_queue_entry *e, int state);
void prepare_to_wait_exclusive(wait_queue_head_t *wq, struct wait_queue_entry *e,
			       int state);
void finish_wait(wait_queue_head_t *wq, struct wait_queue_entry *e);

/* Wakes up to nr_exclusive exclusive waiters (0: all) in states mode. */
void __wake_up(wait_queue_head_t *wq, unsigned int mode, int nr_exclusive);
/* The same, with wq->lock already held. */
void __wake_up_locked(wait_queue_head_t *wq, unsigned int mode, int nr_exclusive);

#define wake_up(wq)		__wake_up(wq, TASK_NORMAL, 1)
#define wake_up_nr(wq, nr)	__wake_up(wq, TASK_NORMAL, nr)
#define wake_up_all(wq)		__wake_up(wq, TASK_NORMAL, 0)
#define wake_up_interruptible(wq) __wake_up(wq, TASK_INTERRUPTIBLE, 1)
#define wake_up_interruptible_all(wq) __wake_up(wq, TASK_INTERRUPTIBLE, 0)

static inline int waitqueue_active(wait_queue_head_t *wq)
{
	return !list_empty(&wq->head);
}

/*
 * The wait_event family: sleep in state until cond is true. The condition
 * is tested after the task is on the queue with its state set, so a wakeup
 * that comes between the test and the sleep is not lost. With a timeout (in
 * jiffies) they return 0 when it ran out with cond still false, else the
 * jiffies left, at least 1. Interruptible ones return -ERESTARTSYS on a
 * signal.
 */
#define __wait_event_common(wq, cond, state, timeout) ({		\
	DEFINE_WAIT(__w);						\
	long __t = (timeout), __ret;					\
	for (;;) {							\
		/* LAB 2 BEGIN: set the state, then test */		\
		prepare_to_wait(&(wq), &__w, state);			\
		if (cond) {						\
			__ret = __t ? __t : 1;				\
			break;						\
		}							\
		/* LAB 2 STUB: This order loses a wakeup that	\
		 * comes between the test and the sleep: fix it.	\
		 *|		if (cond) {					\
		 *|			__ret = __t ? __t : 1;			\
		 *|			break;					\
		 *|		}						\
		 *|		prepare_to_wait(&(wq), &__w, state);		\
		 * LAB 2 END */						\
		if ((state) == TASK_INTERRUPTIBLE &&			\
		    signal_pending(current)) {				\
			__ret = -ERESTARTSYS;				\
			break;						\
		}							\
		if (!__t) {						\
			__ret = 0;					\
			break;						\
		}							\
		__t = schedule_timeout(__t);				\
	}								\
	finish_wait(&(wq), &__w);					\
	__ret;								\
})

#define wait_event(wq, cond) do {					\
	might_sleep();							\
	if (!(cond))							\
		(void)__wait_event_common(wq, cond,			\
			TASK_UNINTERRUPTIBLE, MAX_SCHEDULE_TIMEOUT);	\
} while (0)

#define wait_event_interruptible(wq, cond) ({				\
	long __r = 0;							\
	might_sleep();							\
	if (!(cond))							\
		__r = __wait_event_common(wq, cond,			\
			TASK_INTERRUPTIBLE, MAX_SCHEDULE_TIMEOUT);	\
	(int)(__r < 0 ? __r : 0);					\
})

#define wait_event_timeout(wq, cond, timeout) ({			\
	long __rt = (timeout);						\
	might_sleep();							\
	if (!(cond))							\
		__rt = __wait_event_common(wq, cond,			\
					   TASK_UNINTERRUPTIBLE, __rt);	\
	else if (!__rt)							\
		__rt = 1;						\
	__rt;								\
})

#define wait_event_interruptible_timeout(wq, cond, timeout) ({		\
	long __rt = (timeout);						\
	might_sleep();							\
	if (!(cond))							\
		__rt = __wait_event_common(wq, cond,			\
					   TASK_INTERRUPTIBLE, __rt);	\
	else if (!__rt)							\
		__rt = 1;						\
	__rt;								\
})

#endif
