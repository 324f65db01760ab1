// SPDX-License-Identifier: GPL-2.0
/*
 * The page allocator and kmalloc(): what they hand out (size, alignment,
 * memory nobody else has), that freeing gives it back, that running out
 * returns NULL, and that a double or bad free is reported and changes
 * nothing.
 *
 * The bad-free cases provoke "BUG:" reports with a backtrace on purpose.
 */
#include <kernel.h>
#include <string.h>
#include <printk.h>
#include <mm.h>
#include <kunit/test.h>

static int some_kernel_data = 1;

static bool aligned(const void *p, unsigned long align)
{
	return !((uintptr)p & (align - 1));
}

/* Fills [p, p + len) with a byte only its owner uses. */
static void fill(void *p, size_t len, int tag)
{
	memset(p, tag, len);
}

static bool filled(const void *p, size_t len, int tag)
{
	const u8 *b = p;

	for (size_t i = 0; i < len; i++)
		if (b[i] != (u8)tag)
			return false;
	return true;
}

/* Whether two kmalloc() objects share a byte. */
static bool overlap(const void *a, const void *b)
{
	const char *x = a, *y = b;

	return x < y + ksize(y) && y < x + ksize(x);
}

static void pages_round_trip(struct kunit *test)
{
	unsigned long before = nr_free_pages();

	KUNIT_EXPECT_LE(test, before, nr_total_pages());
	for (unsigned int order = 0; order <= 3; order++) {
		void *p = alloc_pages(order);

		KUNIT_ASSERT_NOT_NULL(test, p);
		KUNIT_EXPECT_EQ(test, nr_free_pages(), before - (1UL << order));
		free_pages(p, order);
		KUNIT_EXPECT_EQ(test, nr_free_pages(), before);
	}
}

static void pages_aligned_to_order(struct kunit *test)
{
	for (unsigned int order = 0; order <= MAX_PAGE_ORDER; order++) {
		size_t size = PAGE_SIZE << order;
		u8 *p = alloc_pages(order);

		KUNIT_ASSERT_NOT_NULL(test, p);
		KUNIT_EXPECT_TRUE(test, aligned(p, size));
		/* the whole block is memory we can use */
		p[0] = 1;
		p[size - 1] = 2;
		KUNIT_EXPECT_EQ(test, p[0] + p[size - 1], 3);
		free_pages(p, order);
	}
	KUNIT_EXPECT_NULL(test, alloc_pages(MAX_PAGE_ORDER + 1));
}

/*
 * Takes every block of the largest order: each holds its own tag at both
 * ends when all are taken, so none overlaps another.
 */
static void pages_exhaustion(struct kunit *test)
{
	unsigned long max = nr_free_pages() >> MAX_PAGE_ORDER;
	size_t size = PAGE_SIZE << MAX_PAGE_ORDER;
	u8 **blocks = kzalloc((max + 1) * sizeof(*blocks));
	/* After the kzalloc: it may have taken a new slab page for good. */
	unsigned long before = nr_free_pages();
	unsigned long n = 0, i;

	KUNIT_ASSERT_NOT_NULL(test, blocks);
	while (n <= max && (blocks[n] = alloc_pages(MAX_PAGE_ORDER))) {
		blocks[n][0] = blocks[n][size - 1] = (u8)n;
		n++;
	}
	KUNIT_EXPECT_GT(test, n, 0);
	KUNIT_EXPECT_LE(test, n, max);
	KUNIT_EXPECT_NULL(test, alloc_pages(MAX_PAGE_ORDER));
	KUNIT_EXPECT_EQ(test, nr_free_pages(), before - (n << MAX_PAGE_ORDER));
	for (i = 0; i < n; i++) {
		KUNIT_EXPECT_EQ(test, blocks[i][0], (u8)i);
		KUNIT_EXPECT_EQ(test, blocks[i][size - 1], (u8)i);
		free_pages(blocks[i], MAX_PAGE_ORDER);
	}
	kfree(blocks);
	KUNIT_EXPECT_EQ(test, nr_free_pages(), before);
}

static void pages_double_free_reported(struct kunit *test)
{
	unsigned long reports = mm_stats.double_free, pos, free;
	void *p = alloc_pages(0);

	kunit_expect_reports(test);
	KUNIT_ASSERT_NOT_NULL(test, p);
	free_pages(p, 0);
	free = nr_free_pages();
	pos = printk_log_pos();
	free_pages(p, 0);
	KUNIT_EXPECT_EQ(test, mm_stats.double_free, reports + 1);
	KUNIT_EXPECT_EQ(test, nr_free_pages(), free);
	KUNIT_EXPECT_TRUE(test, printk_log_find(pos, "BUG: mm: double free"));
}

static void pages_bad_free_reported(struct kunit *test)
{
	unsigned long reports = mm_stats.bad_free, free;
	void *kernel_page = (void *)ALIGN_DOWN((uintptr)&some_kernel_data,
					       PAGE_SIZE);
	u8 *p = alloc_pages(1);

	kunit_expect_reports(test);
	KUNIT_ASSERT_NOT_NULL(test, p);
	free = nr_free_pages();
	free_pages(kernel_page, 0);	/* reserved: never ours */
	free_pages(p + 1, 0);		/* not a page boundary */
	free_pages(p + PAGE_SIZE, 1);	/* misaligned for its order */
	free_pages(p, MAX_PAGE_ORDER + 1);	/* no such order */
	KUNIT_EXPECT_EQ(test, mm_stats.bad_free, reports + 4);
	KUNIT_EXPECT_EQ(test, nr_free_pages(), free);
	free_pages(p, 1);
	KUNIT_EXPECT_EQ(test, mm_stats.bad_free, reports + 4);
	KUNIT_EXPECT_EQ(test, nr_free_pages(), free + 2);
}

static const size_t small_sizes[] = {
	0, 1, 8, 15, 16, 17, 32, 33, 64, 100, 128, 200, 256, 500, 512, 1000,
	1024, 2000, 2048,
};

static void kmalloc_each_class(struct kunit *test)
{
	for (size_t i = 0; i < ARRAY_SIZE(small_sizes); i++) {
		size_t size = small_sizes[i];
		void *p = kmalloc(size);

		KUNIT_ASSERT_NOT_NULL(test, p);
		KUNIT_EXPECT_GE(test, ksize(p), size);
		KUNIT_EXPECT_LE(test, ksize(p), max(2 * size, (size_t)16));
		KUNIT_EXPECT_TRUE(test, aligned(p, 16));
		fill(p, ksize(p), 0xa5);
		kfree(p);
	}
}

#define NR_OBJECTS	96

/* Objects alive at once never share a byte. */
static void kmalloc_objects_distinct(struct kunit *test)
{
	static void *obj[NR_OBJECTS];
	size_t size[NR_OBJECTS];
	int i, j;

	for (i = 0; i < NR_OBJECTS; i++) {
		size[i] = small_sizes[i % ARRAY_SIZE(small_sizes)];
		obj[i] = kmalloc(size[i]);
		KUNIT_ASSERT_NOT_NULL(test, obj[i]);
		fill(obj[i], size[i], i);
	}
	for (i = 0; i < NR_OBJECTS; i++) {
		KUNIT_EXPECT_TRUE(test, filled(obj[i], size[i], i));
		for (j = 0; j < i; j++)
			KUNIT_EXPECT_FALSE(test, overlap(obj[i], obj[j]));
	}
	for (i = 0; i < NR_OBJECTS; i++)
		kfree(obj[i]);
}

static void kmalloc_large(struct kunit *test)
{
	static const size_t sizes[] = {
		2049, 4000, PAGE_SIZE, 5 * PAGE_SIZE + 7, 1 << 20,
	};
	unsigned long before = nr_free_pages();

	for (size_t i = 0; i < ARRAY_SIZE(sizes); i++) {
		u8 *p = kmalloc(sizes[i]);

		KUNIT_ASSERT_NOT_NULL(test, p);
		KUNIT_EXPECT_GE(test, ksize(p), sizes[i]);
		KUNIT_EXPECT_TRUE(test, aligned(p, 16));
		fill(p, sizes[i], i);
		KUNIT_EXPECT_TRUE(test, filled(p, sizes[i], i));
		kfree(p);
	}
	/* large objects go straight back to the page allocator */
	KUNIT_EXPECT_EQ(test, nr_free_pages(), before);
}

static void kmalloc_absurd_size(struct kunit *test)
{
	KUNIT_EXPECT_NULL(test, kmalloc(512 << 20));
	KUNIT_EXPECT_NULL(test, kzalloc(512 << 20));
	KUNIT_EXPECT_NULL(test, kmalloc((size_t)-1));
	KUNIT_EXPECT_NULL(test, kmalloc((PAGE_SIZE << MAX_PAGE_ORDER) + 1));
}

static void kzalloc_zeroes(struct kunit *test)
{
	u8 *p = kmalloc(200);

	KUNIT_ASSERT_NOT_NULL(test, p);
	fill(p, 200, 0xff);
	kfree(p);
	p = kzalloc(200);
	KUNIT_ASSERT_NOT_NULL(test, p);
	KUNIT_EXPECT_TRUE(test, filled(p, 200, 0));
	kfree(p);
}

/* Slab pages are never handed back, so reading a freed object is safe. */
static void kfree_poisons(struct kunit *test)
{
	for (size_t size = 16; size <= 2048; size *= 2) {
		u8 *p = kmalloc(size);

		KUNIT_ASSERT_NOT_NULL(test, p);
		fill(p, size, 0);
		kfree(p);
		KUNIT_EXPECT_TRUE(test, filled(p, size, 0x6b));
	}
}

static void kmalloc_double_free_reported(struct kunit *test)
{
	unsigned long reports = mm_stats.double_free;
	unsigned long bad = mm_stats.bad_free;
	unsigned long pos = printk_log_pos();
	void *small = kmalloc(64), *large = kmalloc(3 * PAGE_SIZE);

	kunit_expect_reports(test);
	KUNIT_ASSERT_NOT_NULL(test, small);
	KUNIT_ASSERT_NOT_NULL(test, large);
	kfree(small);
	kfree(small);
	KUNIT_EXPECT_EQ(test, mm_stats.double_free, reports + 1);
	kfree(large);
	kfree(large);
	KUNIT_EXPECT_EQ(test, mm_stats.double_free, reports + 2);
	KUNIT_EXPECT_EQ(test, mm_stats.bad_free, bad);
	KUNIT_EXPECT_TRUE(test,
			  printk_log_find(pos, "BUG: kmalloc: double free"));
}

static void kmalloc_bad_free_reported(struct kunit *test)
{
	unsigned long reports = mm_stats.bad_free;
	unsigned long doubles = mm_stats.double_free;
	unsigned long pos = printk_log_pos();
	u8 *obj = kmalloc(64), *large = kmalloc(2 * PAGE_SIZE), *slab_header;
	int on_stack = 0;

	kunit_expect_reports(test);
	KUNIT_ASSERT_NOT_NULL(test, obj);
	KUNIT_ASSERT_NOT_NULL(test, large);
	slab_header = (u8 *)ALIGN_DOWN((uintptr)obj, PAGE_SIZE);
	kfree(obj + 8);			/* inside an object */
	kfree(slab_header + 32);	/* inside the slab page's header */
	kfree(large + 100);		/* inside a large object */
	kfree(&on_stack);
	kfree(&some_kernel_data);
	KUNIT_EXPECT_EQ(test, mm_stats.bad_free, reports + 5);
	KUNIT_EXPECT_TRUE(test, printk_log_find(pos, "BUG: kmalloc: bad free"));
	/* none of it touched the real objects */
	kfree(obj);
	kfree(large);
	KUNIT_EXPECT_EQ(test, mm_stats.bad_free, reports + 5);
	KUNIT_EXPECT_EQ(test, mm_stats.double_free, doubles);
	KUNIT_EXPECT_EQ(test, some_kernel_data, 1);
}

static void kfree_null_is_fine(struct kunit *test)
{
	unsigned long bad = mm_stats.bad_free;
	unsigned long doubles = mm_stats.double_free;

	kfree(NULL);
	free_pages(NULL, 0);
	KUNIT_EXPECT_EQ(test, ksize(NULL), 0);
	KUNIT_EXPECT_EQ(test, mm_stats.bad_free, bad);
	KUNIT_EXPECT_EQ(test, mm_stats.double_free, doubles);
}

static struct kunit_case mm_cases[] = {
	KUNIT_CASE(pages_round_trip),
	KUNIT_CASE(pages_aligned_to_order),
	KUNIT_CASE(pages_exhaustion),
	KUNIT_CASE(pages_double_free_reported),
	KUNIT_CASE(pages_bad_free_reported),
	KUNIT_CASE(kmalloc_each_class),
	KUNIT_CASE(kmalloc_objects_distinct),
	KUNIT_CASE(kmalloc_large),
	KUNIT_CASE(kmalloc_absurd_size),
	KUNIT_CASE(kzalloc_zeroes),
	KUNIT_CASE(kfree_poisons),
	KUNIT_CASE(kmalloc_double_free_reported),
	KUNIT_CASE(kmalloc_bad_free_reported),
	KUNIT_CASE(kfree_null_is_fine),
	{}
};

static struct kunit_suite mm_suite = {
	.name = "mm",
	.test_cases = mm_cases,
};
kunit_test_suite(mm_suite);
