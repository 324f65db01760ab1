/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The optimistic spin queue: a small MCS lock that lines up the tasks
 * spinning on one mutex, so that only the first in line reads the mutex
 * (and its owner) while the others each spin on a flag of their own, in
 * their own cache line. Without it every spinner would hammer the lock
 * word, and the owner's unlock would pay for all of them.
 *
 * A spinner never sleeps and runs with preemption disabled, so a CPU is
 * in at most one queue at a time and its queue node can be per CPU: the
 * queue itself is one word, the CPU number + 1 of the last in line (0:
 * empty). A task must not be queued on two mutexes at once.
 */
#ifndef _OSQ_LOCK_H
#define _OSQ_LOCK_H

#include <atomic.h>

struct optimistic_spin_queue {
	atomic_t tail;		/* CPU + 1 of the last spinner, 0: nobody */
};

#define OSQ_UNLOCKED	{ .tail = ATOMIC_INIT(0) }

static inline void osq_lock_init(struct optimistic_spin_queue *q)
{
	atomic_set(&q->tail, 0);
}

static inline bool osq_is_locked(struct optimistic_spin_queue *q)
{
	return atomic_read(&q->tail) != 0;
}

/*
 * Both with preemption disabled. osq_lock() returns true once the caller
 * is first in line, or false when it left the queue first: its CPU had
 * something else to run (need_resched()), or the CPU ahead of it stopped
 * spinning. It must then not call osq_unlock(), which lets the next one
 * in.
 */
bool osq_lock(struct optimistic_spin_queue *q);
void osq_unlock(struct optimistic_spin_queue *q);
/*
 * cpu_relax() for every spin loop of a queued or first-in-line spinner:
 * it also shows the spinner behind that this CPU is still running.
 */
void osq_cpu_relax(void);

/*
 * Run-time switch: the spins without a sign of life from the CPU ahead
 * after which a queued spinner leaves (0: never, only need_resched()).
 */
#define OSQ_STALL_SPINS		4096
extern unsigned int osq_stall_spins;

#endif
