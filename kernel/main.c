// SPDX-License-Identifier: GPL-2.0
/*
 * start_kernel(): where every arch's entry code arrives, on the boot CPU,
 * with interrupts off. It brings up the common subsystems, the other CPUs
 * and the init task, which runs the tests and ends the machine with their
 * result.
 *
 * Kernel command line options:
 *   test=GLOB[,GLOB..]	run the test cases matching a GLOB (default: all)
 *   test=list		list the test cases, run none
 *   maxcpus=N		bring up at most N CPUs
 *   expect_cpus=N	the number of CPUs the tests should find online
 *   stress=N		multiply the work of the stress tests by N
 *   hung_task_timeout=S	hung-task watchdog limit in seconds (0: off)
 *   kunit.timeout=S	default time limit of one test case
 *   cmdline_pad=N,...	ignored; tests/kernel_test.c checks that it arrived
 *			whole (N characters) in a long command line
 *   bench=synchro|vfs|overhead|all	run benchmarks instead of the tests; they
 *			and their synchro.* and vfs.* options are in
 *			kernel/bench/bench.c
 */
#include <kernel.h>
#include <string.h>
#include <arch.h>
#include <mm.h>
#include <sched.h>
#include <kthread.h>
#include <smp.h>
#include <time.h>
#include <kunit/test.h>
#include <bench.h>

char boot_command_line[COMMAND_LINE_SIZE];
/* Points into parse_command_line()'s copy, which stays: no length limit. */
static const char *test_glob = "*";

void task_init_boot(void);
void sched_start(void);
void smp_init(void);
void hung_task_init(void);
extern unsigned int kunit_default_timeout;

struct boot_param {
	const char *name;
	void (*set)(const char *value);
};

static void set_test(const char *v)
{
	test_glob = v;
}

static void set_maxcpus(const char *v)
{
	setup_max_cpus = simple_strtoul(v, NULL, 0);
	if (!setup_max_cpus)
		setup_max_cpus = 1;
}

static void set_expect_cpus(const char *v)
{
	expected_cpus = simple_strtoul(v, NULL, 0);
}

/* Read by the stress tests (tests/helpers.h). */
unsigned int stress_factor = 1;

static void set_stress(const char *v)
{
	stress_factor = simple_strtoul(v, NULL, 0) ?: 1;
}

static void set_hung_timeout(const char *v)
{
	sysctl_hung_task_timeout_secs = simple_strtoul(v, NULL, 0);
}

static void set_kunit_timeout(const char *v)
{
	kunit_default_timeout = simple_strtoul(v, NULL, 0);
}

static const struct boot_param boot_params[] = {
	{ "test", set_test },
	{ "maxcpus", set_maxcpus },
	{ "expect_cpus", set_expect_cpus },
	{ "stress", set_stress },
	{ "hung_task_timeout", set_hung_timeout },
	{ "kunit.timeout", set_kunit_timeout },
};

static void parse_option(char *opt)
{
	char *eq = strchr(opt, '=');
	size_t i;

	if (!eq)
		return;
	*eq = '\0';
	for (i = 0; i < ARRAY_SIZE(boot_params); i++) {
		if (!strcmp(opt, boot_params[i].name)) {
			boot_params[i].set(eq + 1);
			return;
		}
	}
	bench_parse_option(opt, eq + 1);
}

void setup_command_line(const char *cmdline)
{
	size_t len = strnlen(cmdline, COMMAND_LINE_SIZE);

	if (len > COMMAND_LINE_MAX)
		panic("kernel command line longer than %d characters: refused",
		      COMMAND_LINE_MAX);
	memcpy(boot_command_line, cmdline, len + 1);
}

/* In pieces: one printk() holds only a few hundred characters. */
static void print_command_line(void)
{
	const char *p = boot_command_line;
	size_t left = strlen(p);

	printk("Command line: ");
	while (left) {
		int n = min(left, (size_t)256);

		printk("%.*s", n, p);
		p += n;
		left -= n;
	}
	printk("\n");
}

static void parse_command_line(void)
{
	static char copy[COMMAND_LINE_SIZE];
	char *p = copy;

	strlcpy(copy, boot_command_line, sizeof(copy));
	while (*p) {
		char *start;

		while (*p == ' ')
			p++;
		start = p;
		while (*p && *p != ' ')
			p++;
		if (*p)
			*p++ = '\0';
		parse_option(start);
	}
}

const char *mutex_build_name(void)
{
#if defined(CONFIG_DEBUG_MUTEXES)
	return "debug";
#elif defined(CONFIG_MUTEX_NULL)
	return "null";
#elif defined(CONFIG_MUTEX_XCHG)
	return "xchg";
#elif defined(CONFIG_MUTEX_DEC)
	return "dec";
#else
	return "native";
#endif
}

static int kernel_init(void *unused)
{
	int failed;

	if (bench_which[0])
		machine_exit(bench_run(bench_which));
	if (!strcmp(test_glob, "list")) {
		kunit_list_all();
		machine_exit(EXIT_TESTS_PASSED);
	}
	failed = kunit_run_all(test_glob);
	printk("# mutexos: end of tests, status %d\n", failed ? 1 : 0);
	machine_exit(failed ? EXIT_TESTS_FAILED : EXIT_TESTS_PASSED);
}

void __noreturn start_kernel(void)
{
	printk("MutexOS on %s, mutex build %s, %s, NR_CPUS=%d, HZ=%d\n",
	       CONFIG_ARCH_NAME, mutex_build_name(),
#ifdef CONFIG_SMP
	       "SMP",
#else
	       "UP",
#endif
	       CONFIG_NR_CPUS, CONFIG_HZ);
	print_command_line();
	parse_command_line();
	task_init_boot();
	arch_trap_init();
	mm_init();
	arch_time_init();
	sched_init();
	arch_timer_start();
	sched_start();
	arch_local_irq_enable();
	smp_init();
	hung_task_init();
	if (!kthread_run(kernel_init, NULL, "init"))
		panic("cannot start init");
	cpu_idle();
}
