// SPDX-License-Identifier: GPL-2.0
/*
 * sort(): an in-place heapsort for arrays of any element type.
 *
 * Heapsort is chosen over quicksort because the kernel has neither a heap
 * to allocate from in every context nor a deep stack to recurse on: it
 * needs no memory beyond a few locals and is O(n log n) on every input.
 * The price is that it is not stable; callers that care about the order of
 * equal elements must make cmp tell them apart.
 */
#include <sort.h>

static void generic_swap(void *a, void *b, int size)
{
	unsigned char *p = a, *q = b;
	unsigned char tmp;

	while (size-- > 0) {
		tmp = *p;
		*p++ = *q;
		*q++ = tmp;
	}
}

/*
 * The element at index i. The array is handled through byte offsets since
 * its element type is only known to the callbacks.
 */
static inline void *elem(void *base, size_t i, size_t size)
{
	return (char *)base + i * size;
}

/*
 * Restores the heap property below root, for a heap of n elements stored
 * as a binary tree in the array: the children of i are 2i + 1 and 2i + 2,
 * and every parent compares >= its children, so the largest is at 0.
 */
static void sift_down(void *base, size_t root, size_t n, size_t size,
		      int (*cmp)(const void *, const void *),
		      void (*swap)(void *, void *, int))
{
	size_t child;
	void *parent, *larger;

	while ((child = 2 * root + 1) < n) {
		parent = elem(base, root, size);
		larger = elem(base, child, size);
		/* Follow the larger child, so that it can move up. */
		if (child + 1 < n && cmp(larger, (char *)larger + size) < 0) {
			child++;
			larger = (char *)larger + size;
		}
		if (cmp(parent, larger) >= 0)
			return;
		swap(parent, larger, size);
		root = child;
	}
}

void sort(void *base, size_t num, size_t size,
	  int (*cmp)(const void *, const void *),
	  void (*swap)(void *, void *, int))
{
	size_t i;

	if (num < 2)
		return;
	if (!swap)
		swap = generic_swap;

	/* Build the heap bottom up, from the last parent back to the root. */
	for (i = num / 2; i-- > 0; )
		sift_down(base, i, num, size, cmp, swap);

	/*
	 * Move the largest element behind the shrinking heap, again and
	 * again, until the heap is a single element.
	 */
	for (i = num - 1; i > 0; i--) {
		swap(base, elem(base, i, size), size);
		sift_down(base, 0, i, size, cmp, swap);
	}
}
