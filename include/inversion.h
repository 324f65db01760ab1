/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Priority inversion, the Mars Pathfinder way (docs/rt-mutex.md): a low
 * task holds a lock, a high task waits for it, and a medium task per CPU
 * runs for medium_ticks, the one on the low task's CPU included. With
 * the plain mutex the low task cannot run until that medium task is done,
 * and the high one waits with it; the rt-mutex boosts the low task above
 * the medium ones, and the high task gets the lock first. The
 * rtmutex.inversion_* tests check the order; demo inversion prints the
 * waits.
 */
#ifndef _INVERSION_H
#define _INVERSION_H

#include <types.h>

/* The events, each logged once, in the order they happened. */
enum inversion_event {
	INV_LOW_UNLOCKED,	/* the low task releases the lock */
	INV_HIGH_LOCKED,	/* the high task has it */
	INV_MEDIUM_DONE,	/* the medium task on the low task's CPU ends */
	INV_NR,
};

struct inversion_result {
	int order[INV_NR];	/* each event's place, 0 first */
	u64 high_wait_ns;	/* from the high task's lock call to lock */
};

/*
 * Runs the scenario once, on the rt-mutex (rt) or the plain mutex.
 * Returns 0, -ENOMEM, or -ETIMEDOUT when a step waited 30 s in vain.
 */
int inversion_run(bool rt, unsigned int medium_ticks,
		  struct inversion_result *r);

#endif
