// SPDX-License-Identifier: GPL-2.0
/*
 * The shell's commands. Each is a few lines on the kernel's own API: the
 * task list, the mutex debug code, the test runner, the benchmarks, the
 * CPU and memory counters. They print with printk() and run in the
 * shell's task, so a Ctrl-C ends their interruptible waits.
 */
#include <kernel.h>
#include <arch.h>
#include <string.h>
#include <sched.h>
#include <smp.h>
#include <mm.h>
#include <mutex.h>
#include <rtmutex.h>
#include <time.h>
#include <bench.h>
#include <console.h>
#include <kunit/test.h>
#include <trace.h>
#include "shell.h"

/* The build's .config, linked in by config_data.S. */
extern const char kernel_config[], kernel_config_end[];

static void cmd_help(int argc, char **argv);

/* A '*' after the priority: an rt-mutex's waiter boosts the task. */
static void show_task_line(struct task_struct *p)
{
	const char *blocked = mutex_debug_blocked_on(p);

	if (!blocked)
		blocked = rt_mutex_blocked_on(p);
	printk("%5d %c %3u %-6s %3d%c %-16s %s\n", p->pid, task_state_char(p),
	       p->thread_info->cpu, sched_policy_name(p->policy), p->prio,
	       p->prio < p->normal_prio ? '*' : ' ', p->comm,
	       blocked ? blocked : "-");
}

static void cmd_ps(int argc, char **argv)
{
	struct task_struct *p;
	unsigned long flags;

	printk("  PID S CPU POLICY PRIO NAME             BLOCKED ON\n");
	spin_lock_irqsave(&task_list_lock, flags);
	list_for_each_entry(p, &task_list, tasks)
		show_task_line(p);
	spin_unlock_irqrestore(&task_list_lock, flags);
#ifndef CONFIG_DEBUG_MUTEXES
	printk("(the mutex a task waits for is tracked by the debug build "
	       "only: MUTEX=debug; rt-mutexes in every build)\n");
#endif
}

static void cmd_locks(int argc, char **argv)
{
	mutex_debug_show_all_locks();
	rt_mutex_show_all();
}

static void cmd_test(int argc, char **argv)
{
	if (argc != 2) {
		printk("usage: test GLOB[,GLOB...] | test list\n");
		return;
	}
	kunit_run_tests(argv[1]);
}

/* Options are NAME=VALUE, the boot options without "synchro.", "vfs." etc. */
static bool bench_set_options(const char *which, int argc, char **argv)
{
	char name[48];

	bench_reset_options();
	for (int i = 0; i < argc; i++) {
		char *eq = strchr(argv[i], '=');

		if (!eq) {
			printk("bench: '%s' is not NAME=VALUE\n", argv[i]);
			return false;
		}
		*eq = '\0';
		snprintf(name, sizeof(name), "%s.%s", which, argv[i]);
		if (!bench_parse_option(name, eq + 1)) {
			printk("bench: %s has no option '%s'\n", which,
			       argv[i]);
			return false;
		}
	}
	return true;
}

static bool bench_known(const char *which)
{
	static const char *const names[] = {
		"vfs", "synchro", "overhead", "latency", "piwalk", "ww",
	};

	for (size_t i = 0; i < ARRAY_SIZE(names); i++)
		if (!strcmp(which, names[i]))
			return true;
	return false;
}

static void cmd_bench(int argc, char **argv)
{
	if (argc < 2 || !bench_known(argv[1])) {
		printk("usage: bench vfs|synchro|overhead|latency|piwalk|ww "
		       "[NAME=VALUE...]\n");
		return;
	}
	if (bench_set_options(argv[1], argc - 2, argv + 2))
		bench_run(argv[1]);
}

/* The task on cpu's CPU now; the caller holds task_list_lock. */
static const char *running_on(unsigned int cpu)
{
	struct task_struct *p;

	list_for_each_entry(p, &task_list, tasks)
		if (p->on_cpu && p->thread_info->cpu == cpu)
			return p->comm;
	return "?";
}

static void show_cpu(unsigned int cpu)
{
	struct cpu_stat st;
	unsigned long flags;
	u64 permille;

	cpu_stat_read(cpu, &st);
	permille = st.busy_ns * 1000 / max(st.busy_ns + st.idle_ns, 1ULL);
	spin_lock_irqsave(&task_list_lock, flags);
	printk("%3u  %-16s %3llu.%llu%% %9lu %9lu\n", cpu, running_on(cpu),
	       permille / 10, permille % 10, st.switches, st.nr_wakeups);
	spin_unlock_irqrestore(&task_list_lock, flags);
}

static void cmd_cpus(int argc, char **argv)
{
	printk("%u of %d CPUs online\n", num_online_cpus(), NR_CPUS);
	printk("CPU  RUNNING           BUSY  SWITCHES   WAKEUPS\n");
	for (unsigned int cpu = 0; cpu < NR_CPUS; cpu++)
		if (cpu_online(cpu))
			show_cpu(cpu);
}

static void cmd_mem(int argc, char **argv)
{
	unsigned long total = nr_total_pages(), free = nr_free_pages();
	unsigned long kib = PAGE_SIZE / 1024;

	printk("pages of %lu KiB: %lu in all (%lu KiB), %lu free (%lu KiB), "
	       "%lu in use\n", kib, total, total * kib, free, free * kib,
	       total - free);
}

static void cmd_uptime(int argc, char **argv)
{
	u64 ms = ktime_get_ns() / NSEC_PER_MSEC;
	u64 s = ms / 1000;

	printk("up %llu:%02llu:%02llu.%03llu (jiffies %lu, HZ=%d)\n",
	       s / 3600, s / 60 % 60, s % 60, ms % 1000, jiffies, HZ);
}

/* Line by line: one printk holds a few hundred characters only. */
static void cmd_config(int argc, char **argv)
{
	const char *p = kernel_config, *end;

	while (p < kernel_config_end) {
		for (end = p; end < kernel_config_end && *end != '\n'; end++)
			;
		printk("%.*s\n", (int)(end - p), p);
		p = end + 1;
	}
}

static void cmd_lockstat(int argc, char **argv)
{
#ifdef CONFIG_LOCK_STAT
	if (argc == 1) {
		lock_stat_print();
		return;
	}
	if (argc == 2 && !strcmp(argv[1], "clear")) {
		lock_stat_clear();
		printk("lock_stat: cleared\n");
		return;
	}
	printk("usage: lockstat [clear]\n");
#else
	printk("lockstat: this build has no CONFIG_LOCK_STAT (MUTEX=debug "
	       "CONF=\"CONFIG_PROVE_LOCKING=y CONFIG_LOCK_STAT=y\")\n");
#endif
}

static void cmd_trace(int argc, char **argv)
{
#ifdef CONFIG_TRACING
	unsigned int mask;

	if (argc >= 2 && argc <= 3 && !strcmp(argv[1], "start")) {
		mask = trace_parse_mask(argc == 3 ? argv[2] : "lock,sched");
		if (mask) {
			trace_start(mask);
			printk("trace: started\n");
		}
		return;
	}
	if (argc == 2 && !strcmp(argv[1], "stop")) {
		trace_stop();
		printk("trace: stopped\n");
		return;
	}
	if (argc == 2 && !strcmp(argv[1], "dump")) {
		trace_dump();
		return;
	}
	printk("usage: trace start [lock,sched,irq|all] | stop | dump\n");
#else
	printk("trace: this build has no CONFIG_TRACING "
	       "(CONF=\"CONFIG_TRACING=y\")\n");
#endif
}

static void cmd_halt(int argc, char **argv)
{
	printk("halting\n");
	machine_exit(EXIT_HALTED);
}

static void cmd_reboot(int argc, char **argv)
{
	printk("rebooting\n");
	arch_reboot();
}

static const struct shell_command commands[] = {
	{ "help", "", "this list", cmd_help },
	{ "ps", "", "tasks: pid, state, CPU, policy, priority (* boosted), name, "
	  "the mutex each waits for",
	  cmd_ps },
	{ "locks", "", "every held mutex (debug build), rt-mutex waits and "
	  "boosts", cmd_locks },
	{ "test", "GLOB|list", "run the test cases matching GLOB (KTAP)",
	  cmd_test },
	{ "bench", "vfs|synchro|overhead|latency|piwalk [NAME=VALUE...]",
	  "a benchmark", cmd_bench },
	{ "demo", "aa|abba|chain N|interrupt|starve|inversion|stop",
	  "provoke a lock scenario in tasks of its own", shell_demo },
	{ "lockstat", "[clear]", "lock statistics per class (or reset them)",
	  cmd_lockstat },
	{ "trace", "start [WHAT]|stop|dump",
	  "lock and scheduler events for a timeline", cmd_trace },
	{ "cpus", "", "online CPUs: what runs, how busy", cmd_cpus },
	{ "mem", "", "free and used memory", cmd_mem },
	{ "uptime", "", "time since boot", cmd_uptime },
	{ "config", "", "this build's Kconfig", cmd_config },
	{ "halt", "", "stop the machine (QEMU exits)", cmd_halt },
	{ "reboot", "", "restart the machine", cmd_reboot },
};

/* Name and arguments in a column; help on the next line if they are long. */
static void cmd_help(int argc, char **argv)
{
	char synopsis[64];

	for (size_t i = 0; i < ARRAY_SIZE(commands); i++) {
		const struct shell_command *c = &commands[i];
		int len = snprintf(synopsis, sizeof(synopsis), "%s %s", c->name,
				   c->usage);

		if (len < 24)
			printk("  %-24s%s\n", synopsis, c->help);
		else
			printk("  %s\n  %-24s%s\n", synopsis, "", c->help);
	}
	printk("Keys: Ctrl-C interrupts a command, Ctrl-U erases the line, "
	       "up/down recall lines; a break or Ctrl-\\ then h: SysRq.\n");
}

const struct shell_command *shell_find_command(const char *name)
{
	for (size_t i = 0; i < ARRAY_SIZE(commands); i++)
		if (!strcmp(commands[i].name, name))
			return &commands[i];
	return NULL;
}
