/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Physical memory: a bitmap page allocator over the RAM the boot protocol
 * reported, and kmalloc() for small objects on top of it.
 */
#ifndef _MM_H
#define _MM_H

#include <types.h>

#define PAGE_SHIFT	12
#define PAGE_SIZE	(1UL << PAGE_SHIFT)

/* The arch reports usable RAM before mm_init() (physical addresses). */
void memblock_add(u64 base, u64 size);
/* The arch reserves what must not be handed out (firmware, the kernel). */
void memblock_reserve(u64 base, u64 size);
void mm_init(void);

/* 2^order contiguous pages, aligned to their size. NULL when none. */
void *alloc_pages(unsigned int order);
void free_pages(void *addr, unsigned int order);
unsigned long nr_free_pages(void);
unsigned long nr_total_pages(void);

void *kmalloc(size_t size);
void *kzalloc(size_t size);
void kfree(const void *p);
/* Size the allocation really has (>= the size asked for). */
size_t ksize(const void *p);

/* Reports of bad frees, counted so that tests can see them. */
struct mm_stats {
	unsigned long bad_free;		/* never allocated here */
	unsigned long double_free;
};
extern struct mm_stats mm_stats;

#endif
