// SPDX-License-Identifier: GPL-2.0
/*
 * Optimistic spinning and handoff (CONFIG_MUTEX_SPIN_ON_OWNER): the two
 * steps the Linux mutex took after 2006, over the 2006 slowpath in
 * kernel/locking/mutex.c. docs/mutex-design.md explains both.
 *
 * Spinning: a task that finds the mutex held by a task that is running on
 * another CPU will most likely see it released within microseconds, far
 * sooner than a sleep and a wakeup would take. So it spins, first in line
 * of the optimistic spin queue (include/osq_lock.h), until the lock is
 * free and it takes it, or the owner stops running, or its own CPU has
 * something better to do: then it sleeps as in 2006. It sleeps too when
 * it gives up its place in that queue (the CPU ahead of it stopped).
 *
 * Handoff: spinners and fastpath lockers are running, a woken waiter is
 * not yet: it loses the race for the free lock nearly every time and may
 * wait forever. A waiter that lost mutex_handoff_after races asks for the
 * lock (lock->handoff); the next unlock then does not free the lock but
 * gives it to that waiter, count staying "locked", so that nobody can take
 * it on the way.
 */
#include <kernel.h>
#include <sched.h>
#include <smp.h>
#include <mutex.h>
#include <osq_lock.h>
#include <trace.h>
#include "mutex-spin.h"

/* Run-time switches: the benchmark measures the mutex with each one off. */
int mutex_spin_on_owner = 1;
unsigned int mutex_handoff_after = MUTEX_HANDOFF_AFTER;

/*
 * Spins while owner holds the lock and runs. True when the lock changed
 * hands (worth another try), false when spinning should stop.
 */
static bool spin_on_owner(struct mutex *lock, struct task_struct *owner)
{
	/*
	 * The owner cannot exit holding the mutex, but it may unlock, exit
	 * and be freed between our two reads: a stale on_cpu costs one more
	 * pass of this loop, as the owner check below ends it.
	 */
	while (READ_ONCE(lock->owner) == owner) {
		if (!READ_ONCE(owner->on_cpu) || need_resched())
			return false;
		osq_cpu_relax();
	}
	return true;
}

/* Is spinning worth starting: a running owner, nobody asking for handoff. */
static bool can_spin(struct mutex *lock)
{
	struct task_struct *owner = READ_ONCE(lock->owner);

	if (!READ_ONCE(mutex_spin_on_owner) || num_online_cpus() < 2 ||
	    need_resched() || READ_ONCE(lock->handoff))
		return false;
	/* No owner: the lock is free, or changing hands right now. */
	return !owner || READ_ONCE(owner->on_cpu);
}

bool mutex_optimistic_spin(struct mutex *lock)
{
	bool taken = false;

	if (!can_spin(lock))
		return false;
	trace_lock(TRACE_SPIN_START, lock, TRACE_MUTEX);
	/* Our CPU's queue node and the owner's on_cpu need us to stay here. */
	preempt_disable();
	/* False: we left the queue (see osq_lock()), so sleep instead. */
	if (!osq_lock(&lock->osq)) {
		preempt_enable();
		trace_spin_stop(lock, '0');
		return false;
	}
	for (;;) {
		struct task_struct *owner = READ_ONCE(lock->owner);

		if (owner && !spin_on_owner(lock, owner))
			break;
		/* 1 -> 0, as the fastpath's trylock: waiters keep their -1. */
		if (atomic_read(&lock->count) == 1 &&
		    atomic_cmpxchg(&lock->count, 1, 0) == 1) {
			taken = true;
			break;
		}
		/* A waiter asked for the lock: leave it to the unlocker. */
		if (need_resched() || READ_ONCE(lock->handoff))
			break;
		osq_cpu_relax();
	}
	osq_unlock(&lock->osq);
	preempt_enable();
	trace_spin_stop(lock, taken ? '1' : '0');
	return taken;
}

void mutex_waiter_lost(struct mutex *lock, struct mutex_waiter *waiter)
{
	unsigned int after = READ_ONCE(mutex_handoff_after);

	waiter->lost++;
	if (after && waiter->lost >= after && !lock->handoff)
		lock->handoff = current;
}

bool mutex_handoff_received(struct mutex *lock)
{
	if (lock->owner != current)
		return false;
	/*
	 * The unlocker left count at its "locked" value; make sure the
	 * waiters behind us are woken by our unlock.
	 */
	atomic_set(&lock->count, -1);
	return true;
}

void mutex_handoff_cancel(struct mutex *lock)
{
	if (lock->handoff == current)
		lock->handoff = NULL;
}

bool mutex_handoff(struct mutex *lock)
{
	struct task_struct *to = lock->handoff;

	if (!to)
		return false;
	/* count stays at or below 0: locked, ours to give. */
	lock->handoff = NULL;
	WRITE_ONCE(lock->owner, to);
	trace_handoff(lock, to, TRACE_MUTEX);
	wake_up_process(to);
	return true;
}
