// SPDX-License-Identifier: GPL-2.0
/*
 * Kernel basics: the symbol table, %pS, WARN_ON, the printk log, the
 * command line.
 */
#include <kernel.h>
#include <string.h>
#include <kallsyms.h>
#include <mutex.h>
#include <printk.h>
#include <arch.h>
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

	kunit_expect_reports(test);
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

/* A line too long for printk's buffer is cut, but still ends its line. */
static void printk_long_line_keeps_newline(struct kunit *test)
{
	static char line[1024];
	unsigned long pos = printk_log_pos();

	memset(line, 'y', sizeof(line) - 1);
	printk("kernel_test: %s\n", line);
	printk("kernel_test: after the long line\n");
	KUNIT_EXPECT_TRUE(test, printk_log_find(pos,
			"y\nkernel_test: after the long line\n"));
}

/*
 * Boot with "cmdline_pad=N,xxx..." (N the length of that whole word) and
 * more options after it to check that a long command line arrives whole:
 * the word must be exactly N characters and be followed by the rest. The
 * kernel ignores the option. Skipped when it is not there.
 */
static void command_line_arrives_whole(struct kunit *test)
{
	const char *pad = strstr(boot_command_line, "cmdline_pad=");
	const char *end;
	unsigned long want;

	if (!pad)
		kunit_skip(test, "no cmdline_pad= on the command line");
	want = simple_strtoul(pad + strlen("cmdline_pad="), NULL, 10);
	end = strchr(pad, ' ');
	KUNIT_ASSERT_NOT_NULL(test, end);
	KUNIT_EXPECT_EQ(test, end - pad, want);
	KUNIT_EXPECT_GT(test, strlen(end + 1), 0);
	kunit_info(test, "command line of %zu characters\n",
		   strlen(boot_command_line));
}

static struct kunit_case kernel_cases[] = {
	KUNIT_CASE(symbol_of_a_function),
	KUNIT_CASE(percent_ps_prints_symbols),
	KUNIT_CASE(warn_on_counts_and_goes_on),
	KUNIT_CASE(printk_log_finds_lines),
	KUNIT_CASE(printk_long_line_keeps_newline),
	KUNIT_CASE(command_line_arrives_whole),
	{}
};

static struct kunit_suite kernel_suite = {
	.name = "kernel",
	.test_cases = kernel_cases,
};
kunit_test_suite(kernel_suite);
