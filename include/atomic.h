/* SPDX-License-Identifier: GPL-2.0 */
/* atomic_t: the arch's operations, and the ones built on them. */
#ifndef _ATOMIC_H
#define _ATOMIC_H

#include <asm/atomic.h>
#include <asm/barrier.h>

/*
 * Built on the arch's atomic_cmpxchg(), the same on every arch.
 * Adds a to v unless v is u; returns whether it added.
 */
static inline int atomic_add_unless(atomic_t *v, int a, int u)
{
	int c = atomic_read(v), old;

	while (c != u) {
		old = atomic_cmpxchg(v, c, c + a);
		if (old == c)
			return 1;
		c = old;
	}
	return 0;
}

#define atomic_inc_not_zero(v)	atomic_add_unless((v), 1, 0)

#endif
