/* SPDX-License-Identifier: GPL-2.0 */
/* In-place sorting of arrays, from lib/sort.c. */
#ifndef _SORT_H
#define _SORT_H

#include <types.h>

/*
 * Sorts num elements of size bytes at base into ascending order of cmp,
 * which returns <0, 0 or >0 as strcmp() does. swap exchanges two elements
 * of the given size; NULL picks a generic byte-wise swap. The sort is a
 * heapsort: no allocation, O(n log n) even in the worst case, not stable.
 */
void sort(void *base, size_t num, size_t size,
	  int (*cmp)(const void *, const void *),
	  void (*swap)(void *, void *, int));

#endif
