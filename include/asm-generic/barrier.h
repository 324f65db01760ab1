/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The barriers every arch builds the same way on its own smp_mb(): an
 * arch's asm/barrier.h includes this after defining that.
 */
#ifndef _ASM_GENERIC_BARRIER_H
#define _ASM_GENERIC_BARRIER_H

#include <compiler.h>

/*
 * An arch defines its SMP barriers under CONFIG_SMP; a uniprocessor
 * kernel has no other CPU to order against, and only the compiler must
 * keep its accesses in place.
 */
#ifndef smp_mb
#define smp_mb()	barrier()
#endif
#ifndef smp_rmb
#define smp_rmb()	barrier()
#endif
#ifndef smp_wmb
#define smp_wmb()	barrier()
#endif

/* Around an atomic that orders nothing by itself: a full barrier. */
#ifndef smp_mb__before_atomic
#define smp_mb__before_atomic()	smp_mb()
#endif
#ifndef smp_mb__after_atomic
#define smp_mb__after_atomic()	smp_mb()
#endif

/* A store, then a full barrier: set_current_state() before a test. */
#define smp_store_mb(var, value) do {					\
	WRITE_ONCE(var, value);						\
	smp_mb();							\
} while (0)

#endif
