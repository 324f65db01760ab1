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
/* The largest block alloc_pages() hands out: 2^10 pages, 4 MiB. */
#define MAX_PAGE_ORDER	10

/*
 * Where the kernel sees a physical address. Every arch maps memory 1:1
 * (virtual == physical), so the two are the same below 4 GiB; only page 0
 * is left unmapped everywhere, so that a NULL pointer faults.
 */
#define PHYS_REACHABLE_END	(1ULL << 32)

static inline void *phys_to_virt(u64 phys)
{
	return (void *)(uintptr)phys;
}

static inline u64 virt_to_phys(const void *virt)
{
	return (uintptr)virt;
}

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

/*
 * Copy size bytes where one side may be a bad address (unmapped, NULL):
 * 0 when every byte was copied, -EFAULT when an access faulted (then an
 * unknown part was copied). A fault here prints nothing.
 */
long copy_from_kernel_nofault(void *dst, const void *src, size_t size);
long copy_to_kernel_nofault(void *dst, const void *src, size_t size);

#endif
