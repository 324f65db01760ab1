/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Pseudo-random numbers for tests and benchmarks that must repeat the
 * same run from the same starting state: Marsaglia's xorshift32, whose state must
 * never be 0.
 */
#ifndef _RANDOM_H
#define _RANDOM_H

#include <types.h>

static inline u32 random32_next(u32 *state)
{
	*state ^= *state << 13;
	*state ^= *state >> 17;
	*state ^= *state << 5;
	return *state;
}

/*
 * index[0..n) gets n distinct numbers below nr, in a random order: the
 * first n steps of a Fisher-Yates shuffle of index[0..nr).
 */
static inline void random_pick(int *index, int nr, int n, u32 *state)
{
	for (int i = 0; i < nr; i++)
		index[i] = i;
	for (int i = 0; i < n; i++) {
		int j = i + random32_next(state) % (nr - i);
		int k = index[j];

		index[j] = index[i];
		index[i] = k;
	}
}

#endif
