// SPDX-License-Identifier: GPL-2.0
/*
 * start_kernel(): where every arch's entry code arrives, on the boot CPU,
 * with interrupts off. It brings up the common subsystems, the other CPUs
 * and the init task. Asked for tests (test=) or benchmarks (bench=), init
 * runs them and ends the machine with their result; otherwise it runs the
 * shell on the serial console.
 *
 * Kernel command line options:
 *   test=GLOB[,GLOB..]	run the test cases matching a GLOB (test=* : all)
 *   test=list		list the test cases, run none
 *   maxcpus=N		bring up at most N CPUs
 *   expect_cpus=N	the number of CPUs the tests should find online
 *   stress=N		multiply the work of the stress tests by N
 *   hung_task_timeout=S	hung-task watchdog limit in seconds (0: off)
 *   softlockup_secs=S	panic when a CPU stays unpreemptible that long
 *			after its task was asked to reschedule (0: off)
 *   panic_on_report=1	panic after a "BUG:" or "WARNING:" report that no
 *			test marked as expected
 *   kunit.timeout=S	default time limit of one test case
 *   kunit.max_timeout=S	no test case runs longer, even one that asks to
 *   cmdline_pad=N,...	ignored; tests/kernel_test.c checks that it arrived
 *			whole (N characters) in a long command line
 *   kgdb, kgdbwait, kgdb.on_bug=0|1	the gdb stub (kernel/debug/kgdb.c)
 *   kcsan.skip=N, kcsan.udelay=N	the race detector (kernel/kcsan/core.c)
 *   bench=synchro|vfs|overhead|latency|piwalk|all	run benchmarks instead of
 *			the tests; they and their synchro.*, vfs.*, overhead.*
 *			and latency.* options are in kernel/bench/bench.c
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
#include <console.h>
#include <kgdb.h>
#include <kcsan.h>
#include <trace.h>

char boot_command_line[COMMAND_LINE_SIZE];
/*
 * Points into parse_command_line()'s copy, which stays: no length limit.
 * NULL: no test= given, the console. (test= with nothing after it is a
 * selection of nothing, and fails as one.)
 */
static const char *test_glob;

void task_init_boot(void);
void sched_start(void);
void smp_init(void);
void hung_task_init(void);
extern unsigned int kunit_default_timeout, kunit_max_timeout;

/* Read by the stress tests (tests/helpers.h). */
unsigned int stress_factor = 1;
/* Only checked by tests/kernel_test.c, which finds it in the command line. */
static const char *cmdline_pad;
static unsigned int hung_task_secs = CONFIG_HUNG_TASK_TIMEOUT;

/* An option is a string, or a whole number of at least min. */
struct boot_param {
	const char *name;
	const char **str;
	unsigned int *num;
	unsigned int min;
};

static const struct boot_param boot_params[] = {
	{ "test", .str = &test_glob },
	{ "cmdline_pad", .str = &cmdline_pad },
	{ "maxcpus", .num = &setup_max_cpus, .min = 1 },
	{ "expect_cpus", .num = &expected_cpus },
	{ "stress", .num = &stress_factor, .min = 1 },
	{ "hung_task_timeout", .num = &hung_task_secs },
	{ "softlockup_secs", .num = &softlockup_secs },
	{ "panic_on_report", .num = &panic_on_report },
	{ "kunit.timeout", .num = &kunit_default_timeout, .min = 1 },
	{ "kunit.max_timeout", .num = &kunit_max_timeout, .min = 1 },
};

/* A number that is not one, or too small, is refused, not guessed at. */
static void set_param(const struct boot_param *bp, const char *value)
{
	char *end;
	unsigned long v;

	if (bp->str) {
		*bp->str = value;
		return;
	}
	v = simple_strtoul(value, &end, 0);
	if (!*value || *end || v < bp->min || v > ~0U) {
		printk("Bad value for %s=%s (a number of at least %u): ignored\n",
		       bp->name, value, bp->min);
		return;
	}
	*bp->num = v;
}

/* False if nothing knows the option. */
static bool parse_option(char *opt)
{
	char *eq = strchr(opt, '=');
	size_t i;

	if (kgdb_parse_option(opt))
		return true;
	if (!eq)
		return false;
	*eq = '\0';
	for (i = 0; i < ARRAY_SIZE(boot_params); i++) {
		if (!strcmp(opt, boot_params[i].name)) {
			set_param(&boot_params[i], eq + 1);
			return true;
		}
	}
	if (bench_parse_option(opt, eq + 1) || kcsan_parse_option(opt, eq + 1) ||
	    trace_parse_option(opt, eq + 1))
		return true;
	*eq = '=';
	return false;
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

/* A mistyped option must not go unnoticed: name every one nobody knew. */
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
		if (*start && !parse_option(start))
			printk("Unknown kernel command line parameter '%s': ignored\n",
			       start);
	}
}

/* Not inlined: gdb's "break start_kernel" would stop on its line. */
noinline const char *mutex_build_name(void)
{
#if defined(CONFIG_LOCK_STAT)
	return "debug+lockdep+lockstat";
#elif defined(CONFIG_PROVE_LOCKING)
	return "debug+lockdep";
#elif defined(CONFIG_DEBUG_MUTEXES)
	return "debug";
#elif defined(CONFIG_MUTEX_NULL)
	return "null";
#elif defined(CONFIG_MUTEX_XCHG)
	return "xchg";
#elif defined(CONFIG_MUTEX_SPIN_ON_OWNER)
	return "spin";
#elif defined(CONFIG_MUTEX_DEC)
	return "dec";
#else
	return "native";
#endif
}

static int run_benchmarks(void)
{
	switch (bench_run(bench_which)) {
	case 0:
		return EXIT_BENCH_DONE;
	case 1:
		return EXIT_BENCH_FAILED;
	default:
		return EXIT_ERROR;
	}
}

static int kernel_init(void *unused)
{
	trace_boot();
	if (bench_which[0])
		machine_exit(trace_end(run_benchmarks()));
	if (test_glob)
		machine_exit(trace_end(kunit_run_tests(test_glob)));
	console_run();
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
	sysctl_hung_task_timeout_secs = hung_task_secs;
	task_init_boot();
	arch_trap_init();
	mm_init();
	arch_time_init();
	sched_init();
	arch_timer_start();
	sched_start();
	arch_local_irq_enable();
	arch_console_rx_init();
	smp_init();
	kcsan_init();
	hung_task_init();
	kgdb_init();
	if (!kthread_run(kernel_init, NULL, "init"))
		panic("cannot start init");
	cpu_idle();
}
