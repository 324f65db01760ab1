// SPDX-License-Identifier: GPL-2.0
/*
 * The optimistic spin queue (include/osq_lock.h): an MCS queue lock of
 * one node per CPU. A newcomer swaps itself in as the tail; if there was
 * a tail, it links itself behind it and spins on its own node's flag
 * until its predecessor passes the lock on. Leaving, the first in line
 * either finds itself still the tail and empties the queue, or waits for
 * its successor to finish linking in and sets that one's flag.
 *
 * A queued spinner may also give up before its turn: when its CPU has
 * something else to run (need_resched()), or when the CPU ahead of it
 * stopped (its vCPU preempted by the host, the usual case on a busy
 * host): waiting behind it with preemption off is the worst place to be.
 * It then unlinks itself from the middle of the queue (osq_unqueue()),
 * while others arrive and leave.
 *
 * The links are CPU numbers + 1 (0: none), as the tail is, so that every
 * change of one is an atomic_t operation, each a full barrier.
 */
#include <kernel.h>
#include <smp.h>
#include <sched.h>
#include <osq_lock.h>

struct osq_node {
	atomic_t next;		/* who queued behind us, 0: nobody yet */
	atomic_t prev;		/* who is ahead of us, while we wait */
	int locked;		/* set by the predecessor: our turn */
	unsigned int beat;	/* counts up while this CPU spins */
} __attribute__((aligned(64)));	/* a cache line each: no false sharing */

/*
 * Our spins, each a cpu_relax(), without one beat of the CPU ahead of
 * us, after which we take it for stopped (0: never). An interrupt on that
 * CPU is far shorter; a vCPU the host preempted is gone for a time slice.
 */
unsigned int osq_stall_spins = OSQ_STALL_SPINS;

/* The CPU ahead of us, and its beat when we last looked. */
struct osq_watch {
	int prev;
	unsigned int beat;
	unsigned int spins;
};

static struct osq_node osq_nodes[NR_CPUS];

static struct osq_node *osq_node(int id)
{
	return &osq_nodes[id - 1];
}

void osq_cpu_relax(void)
{
	struct osq_node *node = &osq_nodes[smp_processor_id()];

	WRITE_ONCE(node->beat, node->beat + 1);
	cpu_relax();
}

/*
 * Has the CPU ahead of us stopped spinning? Looked at every
 * osq_stall_spins of our spins: a beat that has not moved since the last
 * look, from the same predecessor, says so.
 */
static bool osq_prev_stopped(struct osq_node *node, struct osq_watch *w)
{
	unsigned int limit = READ_ONCE(osq_stall_spins);
	int prev = atomic_read(&node->prev);
	unsigned int beat;

	if (!limit || ++w->spins < limit)
		return false;
	w->spins = 0;
	beat = READ_ONCE(osq_node(prev)->beat);
	if (prev == w->prev && beat == w->beat)
		return true;
	w->prev = prev;
	w->beat = beat;
	return false;
}

/*
 * The successor of node me, claimed (its link cleared, so that nobody
 * else passes the lock to it or relinks it); or 0 when me was the tail,
 * which is then moved back to prev (0: the queue is empty). The link may
 * be missing for a moment, while a newcomer that swapped itself in as
 * the tail has not written it yet, or while the successor unlinks
 * itself (osq_unqueue() step A) and, as it goes, links its own successor
 * to us (step C): so both are watched until one of them settles it.
 */
static int osq_wait_next(struct optimistic_spin_queue *q, int me, int prev)
{
	struct osq_node *node = osq_node(me);
	int next;

	for (;;) {
		if (atomic_read(&q->tail) == me &&
		    atomic_cmpxchg(&q->tail, me, prev) == me)
			return 0;
		/* xchg, not a read: a successor leaving may clear it too. */
		if (atomic_read(&node->next)) {
			next = atomic_xchg(&node->next, 0);
			if (next)
				return next;
		}
		osq_cpu_relax();
	}
}

/*
 * Leaves the queue before our turn. Three steps, each safe against the
 * others moving:
 * A. Unlink from the predecessor: its next goes from us to 0. That
 *    fails while the predecessor is passing the lock to us (it cleared
 *    its next first; our locked flag is then set soon: we take the turn)
 *    or unlinking itself (it claimed us, and will give us a new prev and
 *    link that one to us: we read prev again and retry).
 * B. Claim our successor, or, if we are the tail, hand the tail back to
 *    the predecessor: a newcomer from then on links behind it.
 * C. Link successor and predecessor. Nobody else can touch either link
 *    now: the predecessor's next is 0 since A (its own osq_unlock() or
 *    osq_unqueue() waits in osq_wait_next() for this very store), and
 *    we claimed the successor in B. Its prev is written first: it may be
 *    in step A itself, and must find the new prev once it sees itself
 *    linked there.
 * Returns true when the turn came during A after all.
 */
static bool osq_unqueue(struct optimistic_spin_queue *q, int me)
{
	struct osq_node *node = osq_node(me);
	int prev, next;

	for (;;) {
		prev = atomic_read(&node->prev);
		if (atomic_read(&osq_node(prev)->next) == me &&
		    atomic_cmpxchg(&osq_node(prev)->next, me, 0) == me)
			break;
		if (READ_ONCE(node->locked)) {
			smp_mb();
			return true;
		}
		osq_cpu_relax();
	}
	next = osq_wait_next(q, me, prev);
	if (next) {
		atomic_set(&osq_node(next)->prev, prev);
		smp_wmb();
		atomic_set(&osq_node(prev)->next, next);
	}
	return false;
}

bool osq_lock(struct optimistic_spin_queue *q)
{
	int me = smp_processor_id() + 1;
	struct osq_node *node = osq_node(me);
	struct osq_watch watch = { 0 };
	int prev;

	atomic_set(&node->next, 0);
	node->locked = 0;
	/* A full barrier: the reset node is visible before we are the tail. */
	prev = atomic_xchg(&q->tail, me);
	if (!prev)
		return true;
	/*
	 * Our prev before the link that makes us visible to it: once it
	 * sees us, a predecessor leaving may give us a new prev (step C),
	 * which this store must not overwrite.
	 */
	atomic_set(&node->prev, prev);
	smp_wmb();
	atomic_set(&osq_node(prev)->next, me);
	while (!READ_ONCE(node->locked)) {
		if (need_resched() || osq_prev_stopped(node, &watch))
			return osq_unqueue(q, me);
		osq_cpu_relax();
	}
	/* What the predecessor did before letting us in is visible now. */
	smp_mb();
	return true;
}

void osq_unlock(struct optimistic_spin_queue *q)
{
	int me = smp_processor_id() + 1;
	int next;

	/* Still the tail: nobody is behind us, the queue is empty again. */
	if (atomic_cmpxchg(&q->tail, me, 0) == me)
		return;
	next = osq_wait_next(q, me, 0);
	if (next) {
		smp_mb();
		WRITE_ONCE(osq_node(next)->locked, 1);
	}
}
