// SPDX-License-Identifier: GPL-2.0
/*
 * kmalloc(): small objects carved out of single pages, one size class per
 * page (16 to 2048 bytes, powers of two), and whole pages for anything
 * bigger.
 *
 * A slab page starts with a header: its magic, its object size and a bit
 * per object that is handed out. The objects follow it, 16-byte aligned,
 * with nothing in between, so kfree() finds the header by rounding the
 * pointer down to its page, and the bitmap tells a double free from a good
 * one. Each class keeps a list of its slabs that have a free object.
 *
 * A large allocation is 2^order pages whose first 16 bytes record the
 * order; the object starts right after them. No slab object starts 16
 * bytes into a page (that is inside the slab header), so the offset tells
 * kfree() which kind it was given.
 *
 * Slab pages are never given back to the page allocator: a page keeps its
 * class for good, so its bitmap can judge any later free of a pointer into
 * it. Freed objects are filled with POISON_FREE, so that code using one
 * after freeing it reads an obvious pattern.
 *
 * One lock covers it all; it is taken before the page allocator's.
 */
#include <kernel.h>
#include <string.h>
#include <spinlock.h>
#include <mutex.h>
#include <mm.h>

#define POISON_FREE		0x6b
#define SLAB_MAGIC		0x51ab0b1eU
#define LARGE_MAGIC		0x1a46e0b1U
#define LARGE_FREED_MAGIC	0xdeadb10cU

#define NR_CLASSES		8
#define MIN_CLASS_SHIFT		4		/* the 16-byte class */
#define MAX_CLASS_SIZE		(16U << (NR_CLASSES - 1))
#define SLAB_OBJ_OFFSET		64		/* the first object */
#define MAX_OBJS	((PAGE_SIZE - SLAB_OBJ_OFFSET) >> MIN_CLASS_SHIFT)
#define LARGE_HDR_SIZE		16
#define BITS_PER_LONG		(8 * sizeof(unsigned long))

struct slab {
	u32 magic;
	u32 size;			/* of each object */
	u32 nr_free;
	struct slab *next;		/* in partial[] while nr_free */
	u32 allocated[DIV_ROUND_UP(MAX_OBJS, 32)];
};

_Static_assert(sizeof(struct slab) <= SLAB_OBJ_OFFSET,
	       "the slab header overlaps the first object");

struct large_hdr {
	u32 magic;
	u32 order;
};

/*
 * Slabs of each class with a free object. kmalloc() always takes from the
 * first, so a slab that fills up is the first and comes off the front; a
 * full slab that gets an object back goes on the front again.
 */
static struct slab *partial[NR_CLASSES];
static DEFINE_SPINLOCK(kmalloc_lock);

enum kfree_check {
	KFREE_OK,
	KFREE_BAD,
	KFREE_DOUBLE,
};

static unsigned int size_class(size_t size)
{
	if (size <= (1U << MIN_CLASS_SHIFT))
		return 0;
	return BITS_PER_LONG - __builtin_clzl(size - 1) - MIN_CLASS_SHIFT;
}

static unsigned long page_offset(const void *p)
{
	return (uintptr)p & (PAGE_SIZE - 1);
}

static struct slab *slab_of(const void *p)
{
	return (struct slab *)((uintptr)p - page_offset(p));
}

static unsigned int slab_capacity(const struct slab *s)
{
	return (PAGE_SIZE - SLAB_OBJ_OFFSET) / s->size;
}

/* Which object of its slab p is, or -1 when no object starts at p. */
static int slab_index(const struct slab *s, const void *p)
{
	unsigned long offset = page_offset(p);

	if (s->magic != SLAB_MAGIC || offset < SLAB_OBJ_OFFSET)
		return -1;
	offset -= SLAB_OBJ_OFFSET;
	if (offset % s->size || offset / s->size >= slab_capacity(s))
		return -1;
	return offset / s->size;
}

static struct slab *slab_create(unsigned int class)
{
	struct slab *s = alloc_pages(0);

	if (!s)
		return NULL;
	memset(s, 0, sizeof(*s));
	s->magic = SLAB_MAGIC;
	s->size = 1U << (class + MIN_CLASS_SHIFT);
	s->nr_free = slab_capacity(s);
	return s;
}

/*
 * The lowest free object. Bits past the capacity look free too, but
 * nr_free > 0 means a real free object comes before them.
 */
static void *slab_take(struct slab *s)
{
	unsigned int word = 0, bit;

	while (!~s->allocated[word])
		word++;
	bit = __builtin_ctz(~s->allocated[word]);
	s->allocated[word] |= 1U << bit;
	s->nr_free--;
	return (char *)s + SLAB_OBJ_OFFSET + (word * 32 + bit) * s->size;
}

static size_t large_size(unsigned int order)
{
	return (PAGE_SIZE << order) - LARGE_HDR_SIZE;
}

static void *large_alloc(size_t size)
{
	unsigned int order = 0;
	struct large_hdr *h;

	if (size > large_size(MAX_PAGE_ORDER))
		return NULL;
	while (large_size(order) < size)
		order++;
	h = alloc_pages(order);
	if (!h)
		return NULL;
	h->magic = LARGE_MAGIC;
	h->order = order;
	return (char *)h + LARGE_HDR_SIZE;
}

/* kmalloc(0) gets a 16-byte object, which kfree() takes like any other. */
void *kmalloc(size_t size)
{
	unsigned int class;
	unsigned long flags;
	struct slab *s;
	void *p = NULL;

	if (size > MAX_CLASS_SIZE)
		return large_alloc(size);
	class = size_class(size);
	spin_lock_irqsave(&kmalloc_lock, flags);
	s = partial[class];
	if (!s)
		s = partial[class] = slab_create(class);
	if (s) {
		p = slab_take(s);
		if (!s->nr_free)
			partial[class] = s->next;
	}
	spin_unlock_irqrestore(&kmalloc_lock, flags);
	return p;
}

void *kzalloc(size_t size)
{
	void *p = kmalloc(size);

	if (p)
		memset(p, 0, size);
	return p;
}

static enum kfree_check slab_free(const void *p)
{
	struct slab *s = slab_of(p);
	int i = slab_index(s, p);
	unsigned int class;
	u32 bit;

	if (i < 0)
		return KFREE_BAD;
	bit = 1U << (i % 32);
	if (!(s->allocated[i / 32] & bit))
		return KFREE_DOUBLE;
	s->allocated[i / 32] &= ~bit;
	memset((void *)p, POISON_FREE, s->size);
	if (!s->nr_free++) {
		class = size_class(s->size);
		s->next = partial[class];
		partial[class] = s;
	}
	return KFREE_OK;
}

static struct large_hdr *large_hdr_of(const void *p)
{
	return (struct large_hdr *)((uintptr)p - LARGE_HDR_SIZE);
}

static bool large_valid(const struct large_hdr *h)
{
	return h->magic == LARGE_MAGIC && h->order <= MAX_PAGE_ORDER;
}

/*
 * Marks the header freed, so a second kfree() is told apart from a bad
 * one until the pages are handed out again.
 */
static enum kfree_check large_free(const void *p, unsigned int *order)
{
	struct large_hdr *h = large_hdr_of(p);

	if (h->magic == LARGE_FREED_MAGIC)
		return KFREE_DOUBLE;
	if (!large_valid(h))
		return KFREE_BAD;
	h->magic = LARGE_FREED_MAGIC;
	*order = h->order;
	return KFREE_OK;
}

/* Outside the lock: a report with its backtrace takes a while. */
static void report_bad_kfree(const void *p, enum kfree_check why)
{
	report_mark_start();
	if (why == KFREE_DOUBLE) {
		__atomic_fetch_add(&mm_stats.double_free, 1, __ATOMIC_RELAXED);
		printk("BUG: kmalloc: double free of %p\n", p);
	} else {
		__atomic_fetch_add(&mm_stats.bad_free, 1, __ATOMIC_RELAXED);
		printk("BUG: kmalloc: bad free of %p\n", p);
	}
	dump_stack();
	report_mark_end();
}

void kfree(const void *p)
{
	bool large = page_offset(p) == LARGE_HDR_SIZE;
	enum kfree_check why;
	unsigned int order;
	unsigned long flags;

	if (!p)
		return;
#ifdef CONFIG_DEBUG_MUTEXES
	mutex_debug_check_no_locks_freed(p, ksize(p));
#endif
	spin_lock_irqsave(&kmalloc_lock, flags);
	why = large ? large_free(p, &order) : slab_free(p);
	spin_unlock_irqrestore(&kmalloc_lock, flags);
	if (why != KFREE_OK) {
		report_bad_kfree(p, why);
	} else if (large) {
		memset((void *)p, POISON_FREE, large_size(order));
		free_pages(large_hdr_of(p), order);
	}
}

size_t ksize(const void *p)
{
	const struct large_hdr *h = large_hdr_of(p);
	const struct slab *s = slab_of(p);

	if (!p)
		return 0;
	if (page_offset(p) == LARGE_HDR_SIZE)
		return large_valid(h) ? large_size(h->order) : 0;
	return slab_index(s, p) >= 0 ? s->size : 0;
}
