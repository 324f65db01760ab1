/* SPDX-License-Identifier: GPL-2.0 */
/*
 * atomic_t and the two operations that need no read-modify-write: an
 * aligned int is loaded and stored whole on every arch, so a plain
 * access (kept plain by READ_ONCE/WRITE_ONCE) is atomic. An arch's
 * asm/atomic.h includes this and adds the operations that need its
 * atomic instructions.
 */
#ifndef _ASM_GENERIC_ATOMIC_T_H
#define _ASM_GENERIC_ATOMIC_T_H

#include <types.h>
#include <compiler.h>

typedef struct {
	volatile int counter;
} atomic_t;

#define ATOMIC_INIT(i)	{ (i) }

static inline int atomic_read(const atomic_t *v)
{
	return READ_ONCE(v->counter);
}

static inline void atomic_set(atomic_t *v, int i)
{
	WRITE_ONCE(v->counter, i);
}

#endif
