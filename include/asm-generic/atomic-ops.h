/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The atomic operations every arch builds the same way on its own
 * atomic_add_return(): an arch's asm/atomic.h includes this at its end.
 */
#ifndef _ASM_GENERIC_ATOMIC_OPS_H
#define _ASM_GENERIC_ATOMIC_OPS_H

static inline int atomic_sub_return(int i, atomic_t *v)
{
	return atomic_add_return(-i, v);
}

#define atomic_inc_return(v)		atomic_add_return(1, v)
#define atomic_dec_return(v)		atomic_sub_return(1, v)
#define atomic_dec_and_test(v)		(atomic_sub_return(1, v) == 0)
#define atomic_inc_and_test(v)		(atomic_add_return(1, v) == 0)
#define atomic_sub_and_test(i, v)	(atomic_sub_return(i, v) == 0)
#define atomic_add_negative(i, v)	(atomic_add_return(i, v) < 0)

#endif
