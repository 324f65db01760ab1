// SPDX-License-Identifier: GPL-2.0
/*
 * The page allocator: one bit per physical page, set while the page is in
 * use. A block of 2^order pages is found by a first-fit scan for a run of
 * clear bits that starts on a multiple of 2^order pages.
 *
 * A second bitmap says which pages the allocator owns at all (RAM that is
 * not reserved), so that freeing a page it never handed out, or one that
 * is already free, is reported instead of corrupting the free pages.
 *
 * The bitmaps cover physical addresses from the start of RAM (0 on x86
 * and the Pi, 2 GiB on RISC-V's virt machine) up to its end, at most
 * 1 GiB: the limit keeps each bitmap at 32 KiB at most. A "pfn" here
 * counts pages from that start, window_base, which is aligned to the
 * largest block so that a block aligned in the bitmap is aligned in
 * memory too.
 */
#include <kernel.h>
#include <string.h>
#include <spinlock.h>
#include <mm.h>
#include <mutex.h>

#define MAX_MEMBLOCKS		16
#define MANAGED_LIMIT		(1ULL << 30)
#define BITS_PER_LONG		(8 * sizeof(unsigned long))

struct memblock {
	u64 base;
	u64 end;
};

/* What the arch reported, until mm_init() turns it into the bitmaps. */
static struct memblock ram[MAX_MEMBLOCKS], reserved[MAX_MEMBLOCKS];
static unsigned int nr_ram, nr_reserved;

static DEFINE_SPINLOCK(page_lock);
static unsigned long *used_map;		/* bit set: page in use */
static unsigned long *owned_map;	/* bit set: page is ours to hand out */
static u64 window_base;			/* the address of pfn 0 */
static unsigned long nr_pages;		/* pages the bitmaps cover */
static unsigned long nr_owned, nr_free;
/* Every page below it is in use: where a scan starts. */
static unsigned long first_free_hint;

struct mm_stats mm_stats;

void memblock_add(u64 base, u64 size)
{
	if (nr_ram == MAX_MEMBLOCKS) {
		printk("mm: too many RAM regions, ignoring %#llx-%#llx\n",
		       base, base + size);
		return;
	}
	ram[nr_ram++] = (struct memblock){ base, base + size };
}

/* Losing a reservation would hand out memory in use: that is fatal. */
void memblock_reserve(u64 base, u64 size)
{
	if (nr_reserved == MAX_MEMBLOCKS)
		panic("mm: more than %d reserved regions", MAX_MEMBLOCKS);
	reserved[nr_reserved++] = (struct memblock){ base, base + size };
}

static bool memblock_covers(const struct memblock *list, unsigned int n,
			    u64 base, u64 end)
{
	for (unsigned int i = 0; i < n; i++)
		if (list[i].base <= base && end <= list[i].end)
			return true;
	return false;
}

static bool memblock_overlaps(const struct memblock *list, unsigned int n,
			      u64 base, u64 end)
{
	for (unsigned int i = 0; i < n; i++)
		if (list[i].base < end && base < list[i].end)
			return true;
	return false;
}

static u64 pfn_to_phys(unsigned long pfn)
{
	return window_base + ((u64)pfn << PAGE_SHIFT);
}

static bool page_is_ram(unsigned long pfn)
{
	u64 base = pfn_to_phys(pfn);

	return memblock_covers(ram, nr_ram, base, base + PAGE_SIZE);
}

static bool page_is_usable(unsigned long pfn)
{
	u64 base = pfn_to_phys(pfn), end = base + PAGE_SIZE;

	return page_is_ram(pfn) &&
	       !memblock_overlaps(reserved, nr_reserved, base, end);
}

/*
 * The window from the start of RAM to its end, cut to what the kernel
 * reaches and what we manage: sets window_base, returns its pages.
 */
static unsigned long managed_window(void)
{
	u64 start = ~0ULL, end = 0;

	for (unsigned int i = 0; i < nr_ram; i++) {
		start = min(start, ram[i].base);
		end = max(end, ram[i].end);
	}
	window_base = ALIGN_DOWN(start, PAGE_SIZE << MAX_PAGE_ORDER);
	end = min(end, min(PHYS_REACHABLE_END, window_base + MANAGED_LIMIT));
	return end > window_base ? (end - window_base) >> PAGE_SHIFT : 0;
}

/* The first run of count usable pages at or after address from. */
static u64 find_usable_run(u64 from, unsigned long count)
{
	unsigned long pfn = (ALIGN(from, PAGE_SIZE) - window_base) >> PAGE_SHIFT;
	unsigned long run = 0;

	for (; pfn < nr_pages; pfn++) {
		run = page_is_usable(pfn) ? run + 1 : 0;
		if (run == count)
			return pfn_to_phys(pfn + 1 - count);
	}
	panic("mm: no room for the page bitmaps (%lu pages)", count);
}

static bool test_bit(const unsigned long *map, unsigned long nr)
{
	return (map[nr / BITS_PER_LONG] >> (nr % BITS_PER_LONG)) & 1;
}

static void set_bit(unsigned long *map, unsigned long nr)
{
	map[nr / BITS_PER_LONG] |= 1UL << (nr % BITS_PER_LONG);
}

static void clear_bit(unsigned long *map, unsigned long nr)
{
	map[nr / BITS_PER_LONG] &= ~(1UL << (nr % BITS_PER_LONG));
}

/*
 * The bitmaps go in the first usable pages after the kernel image, and
 * are reserved like it, so the pass below leaves them out by itself.
 */
static void place_bitmaps(void)
{
	extern char __kernel_end[];
	size_t words = DIV_ROUND_UP(nr_pages, BITS_PER_LONG);
	size_t bytes = 2 * words * sizeof(unsigned long);
	u64 base = find_usable_run(virt_to_phys(__kernel_end),
				   DIV_ROUND_UP(bytes, PAGE_SIZE));

	memblock_reserve(base, bytes);
	used_map = phys_to_virt(base);
	owned_map = used_map + words;
	/* Bits past nr_pages stay "in use", so no scan ever returns them. */
	memset(used_map, 0xff, words * sizeof(unsigned long));
	memset(owned_map, 0, words * sizeof(unsigned long));
}

void mm_init(void)
{
	unsigned long pfn, ram_pages = 0;

	nr_pages = managed_window();
	if (!nr_pages)
		panic("mm: no RAM below %#llx", PHYS_REACHABLE_END);
	place_bitmaps();
	for (pfn = 0; pfn < nr_pages; pfn++) {
		if (page_is_ram(pfn))
			ram_pages++;
		if (page_is_usable(pfn)) {
			set_bit(owned_map, pfn);
			clear_bit(used_map, pfn);
			nr_owned++;
		}
	}
	nr_free = nr_owned;
	printk("mm: %lu MiB usable, %lu pages free\n",
	       ram_pages >> (20 - PAGE_SHIFT), nr_free);
}

/* The first page at or after from, before limit, whose used bit is want. */
static unsigned long find_next(unsigned long from, unsigned long limit,
			       bool want)
{
	while (from < limit) {
		unsigned long word = used_map[from / BITS_PER_LONG];

		if (!want)
			word = ~word;
		word >>= from % BITS_PER_LONG;
		if (word)
			return min(limit, from + __builtin_ctzl(word));
		from = ALIGN_DOWN(from, BITS_PER_LONG) + BITS_PER_LONG;
	}
	return limit;
}

/* The first free run of count pages aligned to count, or nr_pages. */
static unsigned long find_free_block(unsigned long count)
{
	unsigned long pfn, used;

	first_free_hint = find_next(first_free_hint, nr_pages, false);
	pfn = ALIGN(first_free_hint, count);
	while (pfn + count <= nr_pages) {
		used = find_next(pfn, pfn + count, true);
		if (used == pfn + count)
			return pfn;
		pfn = ALIGN(find_next(used, nr_pages, false), count);
	}
	return nr_pages;
}

void *alloc_pages(unsigned int order)
{
	unsigned long count, pfn, i, flags;

	if (order > MAX_PAGE_ORDER)
		return NULL;
	count = 1UL << order;
	spin_lock_irqsave(&page_lock, flags);
	pfn = find_free_block(count);
	if (pfn < nr_pages) {
		for (i = pfn; i < pfn + count; i++)
			set_bit(used_map, i);
		nr_free -= count;
	}
	spin_unlock_irqrestore(&page_lock, flags);
	if (pfn >= nr_pages)
		return NULL;
	return phys_to_virt(pfn_to_phys(pfn));
}

enum free_check {
	FREE_OK,
	FREE_NOT_OWNED,
	FREE_DOUBLE,
};

static enum free_check check_free(unsigned long pfn, unsigned long count)
{
	if (pfn % count || pfn >= nr_pages || count > nr_pages - pfn)
		return FREE_NOT_OWNED;
	for (unsigned long i = pfn; i < pfn + count; i++) {
		if (!test_bit(owned_map, i))
			return FREE_NOT_OWNED;
		if (!test_bit(used_map, i))
			return FREE_DOUBLE;
	}
	return FREE_OK;
}

/* owned_map does not change after mm_init(): no lock needed to read it. */
static bool pages_owned(unsigned long pfn, unsigned long count)
{
	if (pfn % count || pfn >= nr_pages || count > nr_pages - pfn)
		return false;
	for (unsigned long i = pfn; i < pfn + count; i++)
		if (!test_bit(owned_map, i))
			return false;
	return true;
}

/* Outside the lock: a report with its backtrace takes a while. */
static void report_bad_free(void *addr, enum free_check why)
{
	report_mark_start();
	if (why == FREE_DOUBLE) {
		__atomic_fetch_add(&mm_stats.double_free, 1, __ATOMIC_RELAXED);
		printk("BUG: mm: double free of page %p\n", addr);
	} else {
		__atomic_fetch_add(&mm_stats.bad_free, 1, __ATOMIC_RELAXED);
		printk("BUG: mm: free of page %p not owned by the allocator\n",
		       addr);
	}
	dump_stack();
	report_mark_end();
}

void free_pages(void *addr, unsigned int order)
{
	u64 phys = virt_to_phys(addr);
	/* Below the window it wraps to a pfn above nr_pages: not owned. */
	unsigned long pfn = (phys - window_base) >> PAGE_SHIFT, count, flags;
	enum free_check why;

	if (!addr)
		return;
	if (order > MAX_PAGE_ORDER || phys % PAGE_SIZE) {
		report_bad_free(addr, FREE_NOT_OWNED);
		return;
	}
	count = 1UL << order;
	/*
	 * A held mutex in these pages would be lost with them (debug build:
	 * reported and forgotten, as kfree() does). Task stacks are freed
	 * here too, on reap. Only for pages that are ours: a bad free of,
	 * say, a kernel page must not touch the mutexes that live there.
	 */
	if (pages_owned(pfn, count))
		mutex_debug_check_no_locks_freed(addr, count << PAGE_SHIFT);
	spin_lock_irqsave(&page_lock, flags);
	why = check_free(pfn, count);
	if (why == FREE_OK) {
		for (unsigned long i = pfn; i < pfn + count; i++)
			clear_bit(used_map, i);
		nr_free += count;
		first_free_hint = min(first_free_hint, pfn);
	}
	spin_unlock_irqrestore(&page_lock, flags);
	if (why != FREE_OK)
		report_bad_free(addr, why);
}

unsigned long nr_free_pages(void)
{
	return READ_ONCE(nr_free);
}

unsigned long nr_total_pages(void)
{
	return nr_owned;
}
