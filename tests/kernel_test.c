// SPDX-License-Identifier: GPL-2.0
/* Kernel basics: the symbol table, %pS, WARN_ON, the printk log. */
#include <kernel.h>
#include <string.h>
#include <kallsyms.h>
#include <mutex.h>
#include <printk.h>
#include <kunit/test.h>

static void symbol_of_a_function(struct kunit *test)
{
	unsigned long addr = (unsigned long)mutex_unlock;
	unsigned long size = 0, offset = 1;
	const char *name = kallsyms_lookup(addr + 2, &size, &offset);

	KUNIT_ASSERT_NOT_NULL(test, name);
	KUNIT_EXPECT_STREQ(test, name, "mutex_unlock");
	KUNIT_EXPECT_EQ(test, offset, 2);
	KUNIT_EXPECT_GT(test, size, 2);
	KUNIT_EXPECT_EQ(test, kallsyms_lookup_name("mutex_unlock"), addr);
	KUNIT_EXPECT_EQ(test, kallsyms_lookup_name("no_such_function"), 0);
}

static void percent_ps_prints_symbols(struct kunit *test)
{
	char buf[64];

	snprintf(buf, sizeof(buf), "%pS", (void *)((unsigned long)mutex_lock + 1));
	KUNIT_EXPECT_EQ(test, strncmp(buf, "mutex_lock+0x1/", 15), 0);
	snprintf(buf, sizeof(buf), "%ps", (void *)mutex_lock);
	KUNIT_EXPECT_STREQ(test, buf, "mutex_lock");
}

static void warn_on_counts_and_goes_on(struct kunit *test)
{
	unsigned long before = warn_count;
	unsigned long pos = printk_log_pos();
	int x = 3;

	KUNIT_EXPECT_FALSE(test, WARN_ON(x != 3));
	KUNIT_EXPECT_EQ(test, warn_count, before);
	KUNIT_EXPECT_TRUE(test, WARN_ON(x == 3));
	KUNIT_EXPECT_EQ(test, warn_count, before + 1);
	KUNIT_EXPECT_TRUE(test, printk_log_find(pos, "WARNING: CPU"));
}

static void printk_log_finds_lines(struct kunit *test)
{
	unsigned long pos = printk_log_pos();

	printk("kernel_test: marker %d\n", 4242);
	KUNIT_EXPECT_TRUE(test, printk_log_find(pos, "marker 4242"));
	KUNIT_EXPECT_FALSE(test, printk_log_find(pos, "marker 4243"));
	KUNIT_EXPECT_FALSE(test, printk_log_find(printk_log_pos(), "marker"));
}

static struct kunit_case kernel_cases[] = {
	KUNIT_CASE(symbol_of_a_function),
	KUNIT_CASE(percent_ps_prints_symbols),
	KUNIT_CASE(warn_on_counts_and_goes_on),
	KUNIT_CASE(printk_log_finds_lines),
	{}
};

static struct kunit_suite kernel_suite = {
	.name = "kernel",
	.test_cases = kernel_cases,
};
kunit_test_suite(kernel_suite);
