// SPDX-License-Identifier: GPL-2.0
/*
 * The console's input path, fed from here the way the receive interrupt
 * feeds it: bytes come out in order, a full ring drops what does not fit
 * and counts it, Ctrl-C while a command runs is a signal to it and no
 * byte, and the key after a break or Ctrl-\ is a SysRq key and no byte.
 * The shell and its commands are checked by typing into a real console
 * (scripts/mutexos/console.py, in make test).
 */
#include <kunit/test.h>
#include <console.h>
#include <printk.h>
#include <sched.h>

#define CTRL_C		0x03

/* console_getc() does not sleep while a signal is pending: a read that
 * returns at once, with a byte or without. */
static int getc_now(void)
{
	int c;

	send_sig(SIGUSR1, current, 0);
	c = console_getc();
	flush_signals(current);
	return c;
}

/* Cases start with the ring empty (type-ahead on a live console too). */
static int drain_init(struct kunit *test)
{
	while (getc_now() >= 0)
		;
	return 0;
}

static void feed(const char *s)
{
	while (*s)
		console_receive((unsigned char)*s++);
}

static void bytes_come_out_in_order(struct kunit *test)
{
	const char *word = "mutex";

	feed(word);
	for (const char *p = word; *p; p++)
		KUNIT_EXPECT_EQ(test, getc_now(), *p);
	KUNIT_EXPECT_LT(test, getc_now(), 0);
}

static void full_ring_drops_the_rest(struct kunit *test)
{
	unsigned long dropped = console_rx_dropped();
	int i;

	for (i = 0; i < CONSOLE_RX_RING_SIZE + 10; i++)
		console_receive('a' + i % 26);
	KUNIT_EXPECT_EQ(test, console_rx_dropped(), dropped + 10);
	for (i = 0; i < CONSOLE_RX_RING_SIZE; i++)
		KUNIT_ASSERT_EQ(test, getc_now(), 'a' + i % 26);
	KUNIT_EXPECT_LT(test, getc_now(), 0);
}

static void ctrl_c_signals_the_command(struct kunit *test)
{
	struct task_struct *before = console_set_foreground(current);

	console_receive(CTRL_C);
	KUNIT_EXPECT_TRUE(test, signal_pending(current));
	flush_signals(current);
	KUNIT_EXPECT_LT(test, getc_now(), 0);

	/* At the prompt it is a byte: the line editor drops the line. */
	console_set_foreground(NULL);
	console_receive(CTRL_C);
	KUNIT_EXPECT_FALSE(test, signal_pending(current));
	KUNIT_EXPECT_EQ(test, getc_now(), CTRL_C);
	console_set_foreground(before);
}

/* The key runs its handler and is no byte; the byte after is a byte. */
static void expect_sysrq(struct kunit *test, unsigned int prefix,
			 char key, const char *printed)
{
	unsigned long pos = printk_log_pos();

	console_receive(prefix);
	console_receive(key);
	KUNIT_EXPECT_TRUE(test, printk_log_find(pos, printed));
	KUNIT_EXPECT_LT(test, getc_now(), 0);
	feed("q");
	KUNIT_EXPECT_EQ(test, getc_now(), 'q');
}

static void sysrq_after_escape_or_break(struct kunit *test)
{
	expect_sysrq(test, CONSOLE_SYSRQ_ESCAPE, 'h', "SysRq keys");
	expect_sysrq(test, CONSOLE_BREAK, 'h', "SysRq keys");
	expect_sysrq(test, CONSOLE_SYSRQ_ESCAPE, 'Z', "SysRq: unknown key");
}

static struct kunit_case console_cases[] = {
	KUNIT_CASE(bytes_come_out_in_order),
	KUNIT_CASE(full_ring_drops_the_rest),
	KUNIT_CASE(ctrl_c_signals_the_command),
	KUNIT_CASE(sysrq_after_escape_or_break),
	{}
};

static struct kunit_suite console_suite = {
	.name = "console",
	.init = drain_init,
	.test_cases = console_cases,
};
kunit_test_suite(console_suite);
