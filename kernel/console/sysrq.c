// SPDX-License-Identifier: GPL-2.0
/*
 * SysRq keys: a break on the serial line (or Ctrl-\), then one key. They
 * run in the console's receive interrupt, not in the shell, so they still
 * answer when the shell waits for a command that never ends, or every task
 * is deadlocked: all they need is this CPU's interrupts.
 */
#include <kernel.h>
#include <sched.h>
#include <smp.h>
#include <mutex.h>
#include <rtmutex.h>
#include <console.h>

struct sysrq_key {
	char key;
	const char *help;
	void (*handler)(void);
};

static void sysrq_show_help(void);

/* A macro in the builds without mutex debugging: wrapped for the table. */
static void sysrq_show_locks(void)
{
	mutex_debug_show_all_locks();
	rt_mutex_show_all();
}

static const struct sysrq_key sysrq_keys[] = {
	{ 't', "show every task with its backtrace", show_state },
	{ 'd', "show every held mutex (debug build), rt-mutex waits and boosts",
	  sysrq_show_locks },
	{ 'l', "show a backtrace of every CPU", trigger_all_cpu_backtrace },
	{ 'h', "this help", sysrq_show_help },
};

static void sysrq_show_help(void)
{
	printk("SysRq keys (after a break or Ctrl-\\):");
	for (size_t i = 0; i < ARRAY_SIZE(sysrq_keys); i++)
		printk(" %c: %s%s", sysrq_keys[i].key, sysrq_keys[i].help,
		       i + 1 < ARRAY_SIZE(sysrq_keys) ? "," : "\n");
}

void sysrq_handle(unsigned int key)
{
	for (size_t i = 0; i < ARRAY_SIZE(sysrq_keys); i++) {
		if (sysrq_keys[i].key == (char)key) {
			printk("\nSysRq: %s\n", sysrq_keys[i].help);
			sysrq_keys[i].handler();
			return;
		}
	}
	printk("\nSysRq: unknown key 0x%02x\n", key & 0xff);
	sysrq_show_help();
}
