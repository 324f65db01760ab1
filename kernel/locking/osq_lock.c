// SPDX-License-Identifier: GPL-2.0
/*
 * The optimistic spin queue (include/osq_lock.h): an MCS queue lock of
 * one node per CPU. A newcomer swaps itself in as the tail; if there was
 * a tail, it links itself behind it and spins on its own node's flag
 * until its predecessor passes the lock on. Leaving, the first in line
 * either finds itself still the tail and empties the queue, or waits for
 * its successor to finish linking in and sets that one's flag.
 */
#include <kernel.h>
#include <smp.h>
#include <osq_lock.h>

struct osq_node {
	struct osq_node *next;	/* who queued behind us, NULL: nobody yet */
	int locked;		/* set by the predecessor: our turn */
} __attribute__((aligned(64)));	/* a cache line each: no false sharing */

static struct osq_node osq_nodes[NR_CPUS];

void osq_lock(struct optimistic_spin_queue *q)
{
	int me = smp_processor_id();
	struct osq_node *node = &osq_nodes[me];
	int prev;

	node->next = NULL;
	node->locked = 0;
	/* A full barrier: the reset node is visible before we are the tail. */
	prev = atomic_xchg(&q->tail, me + 1);
	if (!prev)
		return;
	WRITE_ONCE(osq_nodes[prev - 1].next, node);
	while (!READ_ONCE(node->locked))
		cpu_relax();
	/* What the predecessor did before letting us in is visible now. */
	smp_mb();
}

void osq_unlock(struct optimistic_spin_queue *q)
{
	int me = smp_processor_id();
	struct osq_node *node = &osq_nodes[me], *next;

	/* Still the tail: nobody is behind us, the queue is empty again. */
	if (atomic_cmpxchg(&q->tail, me + 1, 0) == me + 1)
		return;
	/* Someone swapped itself in behind us; wait until it has linked. */
	while (!(next = READ_ONCE(node->next)))
		cpu_relax();
	smp_mb();
	WRITE_ONCE(next->locked, 1);
}
