/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Sequence counts, as Linux's seqcount_t: data that one writer at a time
 * changes (its own lock, or its own CPU, serialises the writers) and
 * readers take without a lock. The writer makes the count odd while it
 * writes; a reader that saw it odd, or saw it change, read a value that
 * may be torn (half of a 64-bit sum on a 32-bit CPU, a name half
 * overwritten) and reads again.
 *
 *	do {
 *		seq = read_seqcount_begin(&s);
 *		copy = data;
 *	} while (read_seqcount_retry(&s, seq));
 *
 * Writers that no lock serialises take the count with
 * write_seqcount_trybegin(), and give up while another writes.
 *
 * The readers' copies race with the writer by design: the writer's
 * stores and the readers' loads of the data are marked (WRITE_ONCE,
 * READ_ONCE, or data_race() with the retry beside it).
 */
#ifndef _SEQCOUNT_H
#define _SEQCOUNT_H

#include <compiler.h>
#include <types.h>
#include <asm/barrier.h>

typedef struct {
	unsigned int sequence;
} seqcount_t;

#define SEQCOUNT_ZERO	{ 0 }

/* The count now, odd while a writer is at work: a reader that won't wait. */
static inline unsigned int raw_read_seqcount(const seqcount_t *s)
{
	unsigned int seq = READ_ONCE(s->sequence);

	smp_rmb();
	return seq;
}

/* The count once no writer is at work. */
static inline unsigned int read_seqcount_begin(const seqcount_t *s)
{
	unsigned int seq;

	while ((seq = raw_read_seqcount(s)) & 1)
		cpu_relax();
	return seq;
}

/* True when what was read since start may be torn: read it again. */
static inline bool read_seqcount_retry(const seqcount_t *s, unsigned int start)
{
	smp_rmb();
	return (start & 1) || READ_ONCE(s->sequence) != start;
}

/*
 * A writer that an interrupt handler on its CPU may read under must keep
 * interrupts off from begin to end, or the reader would wait for ever.
 */
static inline void write_seqcount_begin(seqcount_t *s)
{
	WRITE_ONCE(s->sequence, s->sequence + 1);
	smp_wmb();
}

/*
 * For writers that nothing else serialises (CPUs sharing a slot): true
 * when this one made the count odd, and writes; false while another CPU
 * writes, and this one leaves the data to it.
 */
static inline bool write_seqcount_trybegin(seqcount_t *s)
{
	unsigned int seq = READ_ONCE(s->sequence);

	if ((seq & 1) ||
	    !__atomic_compare_exchange_n(&s->sequence, &seq, seq + 1, false,
					 __ATOMIC_RELAXED, __ATOMIC_RELAXED))
		return false;
	smp_wmb();
	return true;
}

static inline void write_seqcount_end(seqcount_t *s)
{
	smp_wmb();
	WRITE_ONCE(s->sequence, s->sequence + 1);
}

#endif
