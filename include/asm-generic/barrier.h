/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The barriers every arch builds the same way on its own smp_mb(): an
 * arch's asm/barrier.h includes this after defining that.
 */
#ifndef _ASM_GENERIC_BARRIER_H
#define _ASM_GENERIC_BARRIER_H

#include <compiler.h>

/* A store, then a full barrier: set_current_state() before a test. */
#define smp_store_mb(var, value) do {					\
	WRITE_ONCE(var, value);						\
	smp_mb();							\
} while (0)

#endif
