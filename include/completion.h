/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Completions: "wait until that has happened". done counts complete()
 * calls not yet consumed by a waiter; complete_all() makes it effectively
 * infinite. Waiters queue FIFO and each complete() releases exactly one.
 */
#ifndef _COMPLETION_H
#define _COMPLETION_H

#include <wait.h>

struct completion {
	unsigned int done;
	wait_queue_head_t wait;
};

#define COMPLETION_DONE_ALL	(~0U >> 1)

#define COMPLETION_INITIALIZER(work) \
	{ 0, __WAIT_QUEUE_HEAD_INITIALIZER((work).wait) }
#define DECLARE_COMPLETION(work) \
	struct completion work = COMPLETION_INITIALIZER(work)

void __init_completion(struct completion *x, const char *key);
/* The wait lock's class is the place that initialises the completion. */
#define init_completion(x) \
	__init_completion(x, LOCKDEP_KEY((x)->wait.lock))
void reinit_completion(struct completion *x);
void wait_for_completion(struct completion *x);
int wait_for_completion_interruptible(struct completion *x);
unsigned long wait_for_completion_timeout(struct completion *x,
					  unsigned long timeout);
long wait_for_completion_interruptible_timeout(struct completion *x,
					       unsigned long timeout);
bool try_wait_for_completion(struct completion *x);
bool completion_done(struct completion *x);
void complete(struct completion *x);
void complete_all(struct completion *x);

#endif
