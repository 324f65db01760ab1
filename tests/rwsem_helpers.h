/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Tasks that take a reader-writer semaphore and hold it until told to
 * let go, for the rwsem suites: a test starts some, looks at who holds
 * and who sleeps, and lets them go in the order it wants.
 */
#ifndef _TESTS_RWSEM_HELPERS_H
#define _TESTS_RWSEM_HELPERS_H

#include <rwsem.h>
#include <sched.h>

struct rwsem_holder {
	struct rw_semaphore *sem;
	bool writer;
	volatile int holding;	/* 1 from down_*() until it lets go */
	volatile int release;	/* set by rwsem_holder_stop() */
	struct task_struct *task;
};

/*
 * Starts a task that takes sem (as a writer or a reader), and returns
 * once it holds sem or sleeps waiting for it; false if it did neither
 * within a generous limit.
 */
bool rwsem_holder_start(struct rwsem_holder *h, struct rw_semaphore *sem,
			bool writer);
/* Whether h sleeps waiting for its semaphore. */
bool rwsem_holder_waits(struct rwsem_holder *h);
/*
 * Whether h holds its semaphore, once it either holds it or sleeps for
 * it. A release grants and wakes the next holders before it returns, so
 * right after one a holder that still sleeps was not let in.
 */
bool rwsem_holder_settle(struct rwsem_holder *h);
/*
 * Has h let go of its semaphore, and reaps it; false if h does not hold
 * it (then h is told to let go whenever it gets it, and left running).
 */
bool rwsem_holder_stop(struct rwsem_holder *h);

#endif
