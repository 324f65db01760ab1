// SPDX-License-Identifier: GPL-2.0
/*
 * copy_from_kernel_nofault() and copy_to_kernel_nofault(): a good address
 * copies, a bad one returns -EFAULT, and a bad one prints no fault report
 * (the exception table caught it). Also checks the layout they rely on:
 * the whole first page is unmapped on every arch, so NULL faults, and so
 * is the last page of the address space, where ERR_PTR values point.
 */
#include <kernel.h>
#include <string.h>
#include <printk.h>
#include <mm.h>
#include <smp.h>
#include <kunit/test.h>

#define LAST_BYTE_OF_PAGE_0	((void *)(PAGE_SIZE - 1))
#define TOP_PAGE		((void *)-PAGE_SIZE)

static u8 kernel_bytes[16] = "mutexos nofault";

/* No fault report since pos: the fault, if any, was fixed up silently. */
static bool quiet_since(unsigned long pos)
{
	return !printk_log_find(pos, "Oops") && !printk_log_find(pos, "BUG:");
}

static void copies_good_memory(struct kunit *test)
{
	u8 buf[sizeof(kernel_bytes)];

	memset(buf, 0, sizeof(buf));
	KUNIT_EXPECT_EQ(test, copy_from_kernel_nofault(buf, kernel_bytes,
						       sizeof(buf)), 0);
	KUNIT_EXPECT_EQ(test, memcmp(buf, kernel_bytes, sizeof(buf)), 0);

	memset(buf, 'x', sizeof(buf));
	KUNIT_EXPECT_EQ(test, copy_to_kernel_nofault(kernel_bytes + 8, buf, 3),
			0);
	KUNIT_EXPECT_EQ(test, memcmp(kernel_bytes, "mutexos xxxault", 16), 0);
	memcpy(kernel_bytes + 8, "nof", 3);

	KUNIT_EXPECT_EQ(test, copy_from_kernel_nofault(buf, NULL, 0), 0);
}

/* A read of a bad address fails quietly and writes nothing to dst. */
static void expect_read_fails(struct kunit *test, const void *bad)
{
	unsigned long pos = printk_log_pos();
	u8 buf[8];

	memset(buf, 0x5a, sizeof(buf));
	KUNIT_EXPECT_EQ(test, copy_from_kernel_nofault(buf, bad, sizeof(buf)),
			-EFAULT);
	KUNIT_EXPECT_EQ(test, buf[0], 0x5a);
	KUNIT_EXPECT_TRUE(test, quiet_since(pos));
}

static void expect_write_fails(struct kunit *test, void *bad)
{
	unsigned long pos = printk_log_pos();
	u32 word = 0x12345678;

	KUNIT_EXPECT_EQ(test, copy_to_kernel_nofault(bad, &word, sizeof(word)),
			-EFAULT);
	KUNIT_EXPECT_TRUE(test, quiet_since(pos));
}

/* Page 0 is really unmapped: NULL cannot be read, not even by mistake. */
static void null_page_is_unmapped(struct kunit *test)
{
	expect_read_fails(test, NULL);
	expect_read_fails(test, LAST_BYTE_OF_PAGE_0);
}

static void write_to_null_fails(struct kunit *test)
{
	expect_write_fails(test, NULL);
	expect_write_fails(test, LAST_BYTE_OF_PAGE_0);
}

static void read_null_here(void *result)
{
	u32 word;

	*(volatile long *)result = copy_from_kernel_nofault(&word, NULL,
							    sizeof(word));
}

/* Each CPU runs on the page tables the boot CPU built, page 0 left out. */
static void null_page_unmapped_on_every_cpu(struct kunit *test)
{
	for (unsigned int cpu = 0; cpu < NR_CPUS; cpu++) {
		volatile long result = 0;

		if (!cpu_online(cpu))
			continue;
		KUNIT_ASSERT_EQ(test, smp_call_function_single(cpu,
				read_null_here, (void *)&result, 1), 0);
		KUNIT_EXPECT_EQ(test, result, -EFAULT);
	}
}

static void top_page_is_unmapped(struct kunit *test)
{
	expect_read_fails(test, TOP_PAGE);
	expect_write_fails(test, TOP_PAGE);
}

/*
 * x86_64: an address that is not canonical (bits 63-47 not all equal)
 * raises a general protection fault, not a page fault; it is fixed up too.
 */
static void non_canonical_address_fails(struct kunit *test)
{
#ifdef __x86_64__
	expect_read_fails(test, (void *)0x8000000000000000UL);
	expect_write_fails(test, (void *)0x8000000000000000UL);
#else
	kunit_skip(test, "x86_64 only");
#endif
}

/* A range that would wrap around the address space is refused. */
static void wrapping_range_fails(struct kunit *test)
{
	u8 buf[8];

	KUNIT_EXPECT_EQ(test, copy_from_kernel_nofault(buf,
			(void *)-(sizeof(buf) / 2), sizeof(buf)), -EFAULT);
}

static struct kunit_case maccess_cases[] = {
	KUNIT_CASE(copies_good_memory),
	KUNIT_CASE(null_page_is_unmapped),
	KUNIT_CASE(write_to_null_fails),
	KUNIT_CASE(null_page_unmapped_on_every_cpu),
	KUNIT_CASE(top_page_is_unmapped),
	KUNIT_CASE(non_canonical_address_fails),
	KUNIT_CASE(wrapping_range_fails),
	{}
};

static struct kunit_suite maccess_suite = {
	.name = "maccess",
	.test_cases = maccess_cases,
};
kunit_test_suite(maccess_suite);
