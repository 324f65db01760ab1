// SPDX-License-Identifier: GPL-2.0
/*
 * The test runner: it finds the suites the linker collected, runs each
 * selected case in a kernel thread of its own and prints the results in
 * KTAP. A case that fails an assertion or faults ends its own thread; one
 * that never returns is given up on after its time limit. Either way the
 * run goes on with the next case. A case is given up on at once when it
 * is stuck: every task asleep and no timer armed, so that nothing will
 * ever wake them (a lost wakeup, a deadlock), rather than after its limit;
 * the rest of its suite is then not run, since its tasks hold for good
 * what the suite's cases share.
 *
 * Only the runner prints result lines. A case thread prints its
 * diagnostics while the runner is waiting for it, so they always come
 * before that case's result and never inside another case's output.
 * The KTAP lines that carry results (headers, plans, results, the end of
 * the tests) also go to the results channel (arch_results_write()),
 * which a grade counts: a lab's code can printk a result line, not write
 * one there. The channel also gets two records a lab's code could undo
 * in memory but not there: each failure, as it happens, and the function
 * the runner calls for each case.
 */
#include <kernel.h>
#include <string.h>
#include <kthread.h>
#include <completion.h>
#include <time.h>
#include <timer.h>
#include <sched.h>
#include <mm.h>
#include <lockdep.h>
#include <mutex.h>
#include <rtmutex.h>
#include <arch.h>
#include <kunit/test.h>

extern struct kunit_suite *__kunit_suites_start[], *__kunit_suites_end[];

/* Seconds a case may take unless it says otherwise (kunit.timeout=). */
unsigned int kunit_default_timeout = CONFIG_KUNIT_TIMEOUT;
/*
 * The most any case may take, even one that asks for more (a grade's
 * bound, kunit.max_timeout=); 0: no cap.
 */
unsigned int kunit_max_timeout;


/* One case being run: shared by the runner and the case's thread. */
struct kunit_run {
	struct kunit test;
	struct kunit_suite *suite;
	struct kunit_case *kcase;
	struct completion done;
	bool in_case;		/* past init: exit must still run */
};

/*
 * A NULL slot is padding: kunit_test_suites() aligns its arrays so there
 * should be none, but a stray one must not be run as a suite.
 */
#define for_each_suite(sp) \
	for (sp = __kunit_suites_start; sp < __kunit_suites_end; sp++) \
		if (!*sp) {} else
#define for_each_case(suite, c) \
	for (c = (suite)->test_cases; c->run_case; c++)

static struct kunit_run *to_run(struct kunit *test)
{
	return container_of(test, struct kunit_run, test);
}

/*
 * The longest diagnostic printed whole. An expectation names each operand
 * twice, as the compiler sees it, macros expanded: one on the result of
 * wait_event_timeout() takes about 1400 characters, its values last.
 */
#define DIAG_MAX	2048
/*
 * Characters of a diagnostic on one "    # " line: a longer one goes on
 * over the next lines, each line it goes on from ending in a backslash.
 * One line must fit printk()'s buffer, which cuts what does not.
 */
#define DIAG_LINE	240

/*
 * A buffer per CPU, used with interrupts off: a case and the threads it
 * started may fail on several CPUs at once, and DIAG_MAX would take a
 * quarter of an 8 KB stack.
 */
static char diag_buf[CONFIG_NR_CPUS][DIAG_MAX];

/*
 * One diagnostic, as "    # ..." lines, whether or not the message ends
 * in a newline. A message over DIAG_MAX says how much of it was cut.
 */
static void print_diag(const char *where, const char *fmt, va_list args)
{
	unsigned long flags;
	char *msg, cut[40] = "";
	int len, shown, at = 0;

	local_irq_save(flags);
	msg = diag_buf[smp_processor_id()];
	len = vsnprintf(msg, DIAG_MAX, fmt, args);
	shown = min(len, DIAG_MAX - 1);
	if (shown < len)
		snprintf(cut, sizeof(cut), " [%d more characters cut]",
			 len - shown);
	else if (shown && msg[shown - 1] == '\n')
		shown--;
	do {
		int n = min(shown - at, DIAG_LINE);
		bool last = at + n == shown;

		printk("    # %s%.*s%s\n", at ? "" : where, n, msg + at,
		       last ? cut : "\\");
		at += n;
	} while (at < shown);
	local_irq_restore(flags);
}

/* A result line or record longer than this is cut; names are far shorter. */
#define KTAP_LINE_MAX	256

/*
 * Case threads write records while the runner waits, on several CPUs at
 * once: one line at a time, so that none cuts into another.
 */
static DEFINE_SPINLOCK(results_lock);

static __printf(1, 2) void results_record(const char *fmt, ...)
{
	char line[KTAP_LINE_MAX];
	unsigned long flags;
	va_list args;

	va_start(args, fmt);
	vscnprintf(line, sizeof(line), fmt, args);
	va_end(args);
	spin_lock_irqsave(&results_lock, flags);
	arch_results_write(line);
	spin_unlock_irqrestore(&results_lock, flags);
}

/*
 * The failure goes on the channel at once: code that clears the case's
 * status afterwards (a lab's, through a pointer) cannot take it back, and
 * the grader fails a case that has such a record but ends "ok".
 */
static void set_failure(struct kunit *test)
{
	WRITE_ONCE(test->status, KUNIT_FAILURE);
	__atomic_fetch_add(&test->failures, 1, __ATOMIC_RELAXED);
	results_record("    # fail: %s.%s\n", to_run(test)->suite->name,
		       test->name);
}

void kunit_fail_current(struct kunit *test, const char *file, int line,
			const char *fmt, ...)
{
	const char *base = strrchr(file, '/');
	char where[64];
	va_list args;

	set_failure(test);
	snprintf(where, sizeof(where), "%s:%d: ", base ? base + 1 : file, line);
	va_start(args, fmt);
	print_diag(where, fmt, args);
	va_end(args);
}

/* A failure wins over a skip: it must never be hidden by one. */
void kunit_skip_current(struct kunit *test, const char *fmt, ...)
{
	va_list args;

	va_start(args, fmt);
	vscnprintf(test->status_comment, sizeof(test->status_comment), fmt,
		   args);
	va_end(args);
	if (test->status != KUNIT_FAILURE)
		test->status = KUNIT_SKIPPED;
}

void kunit_info(struct kunit *test, const char *fmt, ...)
{
	va_list args;

	va_start(args, fmt);
	print_diag("", fmt, args);
	va_end(args);
}

/*
 * Ends the case thread. The runner may free the run as soon as it sees
 * the completion, so nothing may touch it after that.
 */
static void __noreturn end_case(struct kunit_run *run, int code)
{
	current->kunit = NULL;
	complete(&run->done);
	do_exit(code);
}

/*
 * A failed assertion or a skip. The suite's exit still runs, so that what
 * init set up is undone. A helper thread that the case started has no
 * completion to signal: only that thread ends, and its exit code says so.
 */
void __noreturn kunit_abort(struct kunit *test)
{
	struct kunit_run *run = to_run(test);

	if (current->kunit != test)
		do_exit(1);
	if (run->in_case) {
		run->in_case = false;
		if (run->suite->exit)
			run->suite->exit(test);
	}
	end_case(run, 0);
}

/* Whatever the fault left behind, exit is not run on top of it. */
void __noreturn kunit_case_faulted(void)
{
	struct kunit_run *run = to_run(current->kunit);

	set_failure(&run->test);
	printk("    # case faulted (see the report above)\n");
	end_case(run, 1);
}

static int case_thread(void *data)
{
	struct kunit_run *run = data;
	struct kunit *test = &run->test;
	void (*run_case)(struct kunit *test);
	int err = 0;

	if (run->suite->init)
		err = run->suite->init(test);
	if (err) {
		set_failure(test);
		printk("    # init failed with %d\n", err);
		end_case(run, 0);
	}
	/*
	 * The function named on the channel is the one called: the grader
	 * checks it against the case's name (KUNIT_CASE(fn) runs fn), which
	 * a case table changed in memory no longer matches.
	 */
	run_case = READ_ONCE(run->kcase->run_case);
	results_record("    # call: %s.%s 0x%lx\n", run->suite->name,
		       run->kcase->name, (unsigned long)run_case);
	run->in_case = true;
	run_case(test);
	run->in_case = false;
	if (run->suite->exit)
		run->suite->exit(test);
	end_case(run, 0);
}

/* A KTAP line that carries results: on the console and on the channel. */
static __printf(1, 2) void ktap_line(const char *fmt, ...)
{
	char line[KTAP_LINE_MAX];
	va_list args;

	va_start(args, fmt);
	vscnprintf(line, sizeof(line), fmt, args);
	va_end(args);
	printk("%s", line);
	results_record("%s", line);
}

static void print_result(unsigned int nr, const char *name,
			 enum kunit_status status, const char *indent,
			 const char *reason)
{
	if (status == KUNIT_SKIPPED)
		ktap_line("%sok %u %s # SKIP%s%s\n", indent, nr, name,
			  *reason ? " " : "", reason);
	else
		ktap_line("%s%s %u %s\n", indent,
			  status == KUNIT_FAILURE ? "not ok" : "ok", nr, name);
}

static struct task_struct *start_case(struct kunit_run *run)
{
	struct task_struct *task;

	task = kthread_create(case_thread, run, "kunit/%s", run->kcase->name);
	if (task) {
		task->kunit = &run->test;
		wake_up_process(task);
	}
	return task;
}

/*
 * Waits for run's case up to limit jiffies, as
 * wait_for_completion_interruptible_timeout() does, but gives up at once
 * (0, *stuck set) when the machine is stuck.
 */
static long wait_for_case(struct kunit_run *run, unsigned long limit,
			  bool *stuck)
{
	unsigned long end = jiffies + limit;
	unsigned int looks = 0;
	long waited;

	for (;;) {
		unsigned long step = KUNIT_STUCK_POLL;

		if (limit != MAX_SCHEDULE_TIMEOUT) {
			if (time_after_eq(jiffies, end))
				return 0;
			step = min(step, end - jiffies);
		}
		waited = wait_for_completion_interruptible_timeout(&run->done,
								    step);
		if (waited)
			return waited;
		looks = sched_machine_stuck(current) ? looks + 1 : 0;
		if (looks == KUNIT_STUCK_LOOKS) {
			*stuck = true;
			return 0;
		}
	}
}

/*
 * Runs case number nr and prints its result. A case that overruns its
 * time limit cannot be stopped: its thread and its run are left alone for
 * good, since the thread may still use them. kunit.timeout=0 means no
 * limit.
 */
/* One task as a stuck verdict saw it: where it sleeps, who woke it last. */
static void show_sleeper(struct task_struct *p)
{
	const char *mutex = mutex_debug_blocked_on(p);
	const char *rt_mutex = rt_mutex_blocked_on(p);

	printk("    # %s/%d %c prio %d", p->comm, p->pid, task_state_char(p),
	       p->prio);
	if (p->state != TASK_RUNNING)
		printk(", asleep for %lu ticks", jiffies - p->sleep_start);
	if (mutex)
		printk(", blocked on mutex %s", mutex);
	if (rt_mutex)
		printk(", blocked on rt-mutex %s", rt_mutex);
	if (p->last_wake_ip && p->last_waker < 0)
		printk(", last woken %lu ticks ago from an interrupt at %pS",
		       jiffies - p->last_woken, (void *)p->last_wake_ip);
	else if (p->last_wake_ip)
		printk(", last woken %lu ticks ago by pid %d at %pS",
		       jiffies - p->last_woken, p->last_waker,
		       (void *)p->last_wake_ip);
	printk("\n");
	show_stack(p);
}

/*
 * What a stuck verdict saw, for a person to check it: each CPU and the
 * run queue, the timers, and every task with where it sleeps. Returns
 * how many tasks the case started (pid from first_pid on) still live:
 * asleep for good, holding whatever the suite's cases share.
 */
static unsigned int show_stuck(pid_t first_pid)
{
	struct task_struct *p;
	unsigned long flags;
	unsigned int left = 0;

	printk("    # what the runner saw, at jiffies %lu:\n", jiffies);
	sched_show_queue();
	show_timers();
	spin_lock_irqsave(&task_list_lock, flags);
	list_for_each_entry(p, &task_list, tasks) {
		if (p->idle || p == current)
			continue;
		show_sleeper(p);
		if (p->pid >= first_pid && p->state != EXIT_ZOMBIE)
			left++;
	}
	spin_unlock_irqrestore(&task_list_lock, flags);
	return left;
}

static void report_stuck(unsigned int nr, const char *name, pid_t first_pid)
{
	unsigned int left;

	printk("    # every task asleep and no timer armed: nothing will wake "
	       "them (a lost wakeup or a deadlock)\n");
	left = show_stuck(first_pid);
	if (left)
		printk("    # %u task%s of this case asleep for good: the "
		       "suite's other cases are not run\n", left,
		       left == 1 ? "" : "s");
	ktap_line("    not ok %u %s # STUCK\n", nr, name);
}

static enum kunit_status run_case(struct kunit_suite *suite,
				  struct kunit_case *kcase, unsigned int nr,
				  bool *stuck)
{
	unsigned int secs = kcase->timeout ?: kunit_default_timeout;
	unsigned long limit;
	struct kunit_run *run = kzalloc(sizeof(*run));
	struct task_struct *task = NULL;
	enum kunit_status status;
	long waited;

	if (kunit_max_timeout && (!secs || secs > kunit_max_timeout))
		secs = kunit_max_timeout;
	limit = secs ? secs * HZ : MAX_SCHEDULE_TIMEOUT;

	if (run) {
		run->test.name = kcase->name;
		run->suite = suite;
		run->kcase = kcase;
		init_completion(&run->done);
		task = start_case(run);
	}
	if (!task) {
		kfree(run);
		printk("    # no memory for the case's thread\n");
		print_result(nr, kcase->name, KUNIT_FAILURE, "    ", "");
		return KUNIT_FAILURE;
	}
	/*
	 * Interruptible: a long case must not look like a hung runner, and
	 * Ctrl-C on the console stops a run started there.
	 */
	waited = wait_for_case(run, limit, stuck);
	if (waited <= 0) {
		/*
		 * The case is given up on: what it still reports is no
		 * longer provoked, and the cases after it expect nothing.
		 */
		WRITE_ONCE(reports_expected, 0);
		if (waited < 0)
			ktap_line("    not ok %u %s # interrupted\n", nr,
				  kcase->name);
		else if (*stuck)
			report_stuck(nr, kcase->name, task->pid);
		else
			ktap_line("    not ok %u %s # TIMEOUT after %us\n", nr,
				  kcase->name, secs);
		return KUNIT_FAILURE;
	}
	/* After the join: its thread's exit may report too (a held lock). */
	kthread_join(task);
	WRITE_ONCE(reports_expected, 0);
	status = run->test.status;
	print_result(nr, kcase->name, status, "    ", run->test.status_comment);
	kfree(run);
	return status;
}

void kunit_expect_reports(struct kunit *test)
{
	WRITE_ONCE(reports_expected, 1);
}

/* glob may be a comma-separated list: "mutex*,completion.timeouts". */
static bool case_selected(const char *glob, struct kunit_suite *suite,
			  struct kunit_case *kcase)
{
	char name[128], pattern[128];
	const char *p = glob;

	snprintf(name, sizeof(name), "%s.%s", suite->name, kcase->name);
	while (*p) {
		size_t len = strchr(p, ',') ? (size_t)(strchr(p, ',') - p)
					    : strlen(p);

		if (len < sizeof(pattern)) {
			memcpy(pattern, p, len);
			pattern[len] = '\0';
			if (glob_match(pattern, name) ||
			    glob_match(pattern, suite->name))
				return true;
		}
		p += len;
		if (*p == ',')
			p++;
	}
	return false;
}

static unsigned int nr_selected(const char *glob, struct kunit_suite *suite)
{
	struct kunit_case *kcase;
	unsigned int n = 0;

	for_each_case(suite, kcase)
		n += case_selected(glob, suite, kcase);
	return n;
}

/*
 * Runs the selected cases of suite number nr; returns how many failed.
 * If suite_init fails, every selected case fails without running.
 */
static int run_suite(struct kunit_suite *suite, const char *glob,
		     unsigned int nr)
{
	unsigned int n = 0, failed = 0, skipped = 0;
	enum kunit_status status;
	struct kunit_case *kcase;
	bool stuck = false;
	int err = 0;

	ktap_line("    KTAP version 1\n    # Subtest: %s\n    1..%u\n",
		  suite->name, nr_selected(glob, suite));
	if (suite->suite_init)
		err = suite->suite_init(suite);
	if (err)
		printk("    # suite_init failed with %d\n", err);
	for_each_case(suite, kcase) {
		if (!case_selected(glob, suite, kcase))
			continue;
		if (signal_pending(current))
			break;
		n++;
		if (stuck) {
			/* Its state is held by tasks asleep for good. */
			status = KUNIT_FAILURE;
			ktap_line("    not ok %u %s # not run: a case before it "
				  "is stuck\n", n, kcase->name);
		} else if (err) {
			status = KUNIT_FAILURE;
			print_result(n, kcase->name, status, "    ", "");
		} else {
			status = run_case(suite, kcase, n, &stuck);
		}
		failed += status == KUNIT_FAILURE;
		skipped += status == KUNIT_SKIPPED;
	}
	if (!err && suite->suite_exit)
		suite->suite_exit(suite);
	if (failed)
		status = KUNIT_FAILURE;
	else
		status = skipped == n ? KUNIT_SKIPPED : KUNIT_SUCCESS;
	print_result(nr, suite->name, status, "", "");
	return failed;
}

/* How many cases glob selects, over every suite. */
static unsigned int kunit_count_selected(const char *glob)
{
	struct kunit_suite **suite;
	unsigned int n = 0;

	for_each_suite(suite)
		n += nr_selected(glob, *suite);
	return n;
}

/* A few suite names, for the message when a glob selects nothing. */
static void kunit_print_suite_names(unsigned int max)
{
	struct kunit_suite **suite;
	unsigned int n = 0;

	printk("# suites:");
	for_each_suite(suite) {
		if (n++ == max) {
			printk(" ... (test=list lists every case)");
			break;
		}
		printk(" %s", (*suite)->name);
	}
	printk("\n");
}

/* A signal (Ctrl-C on the console) ends the run after the case it hit. */
static int kunit_run_all(const char *glob)
{
	struct kunit_suite **suite;
	unsigned int nr_suites = 0, nr = 0;
	int failed = 0;

	for_each_suite(suite)
		nr_suites += nr_selected(glob, *suite) > 0;
	ktap_line("KTAP version 1\n1..%u\n", nr_suites);
	for_each_suite(suite)
		if (nr_selected(glob, *suite) && !signal_pending(current))
			failed += run_suite(*suite, glob, ++nr);
	return failed;
}

static void kunit_list_all(void)
{
	struct kunit_suite **suite;
	struct kunit_case *kcase;

	for_each_suite(suite)
		for_each_case(*suite, kcase)
			printk("%s.%s\n", (*suite)->name, kcase->name);
}

/*
 * test=GLOB at boot, and the console's test command: "list" lists the
 * cases; a glob that selects nothing is a mistake, never a passed run.
 * Returns the machine's exit status for what was done.
 */
int kunit_run_tests(const char *glob)
{
	int failed;

	if (!strcmp(glob, "list")) {
		kunit_list_all();
		return EXIT_LISTED;
	}
	if (!kunit_count_selected(glob)) {
		printk("# mutexos: test=%s selects no test case\n", glob);
		kunit_print_suite_names(12);
		return EXIT_ERROR;
	}
	failed = kunit_run_all(glob);
	/* How full the lock-order validator's tables got (docs/lockdep.md) */
	lockdep_print_stats();
	if (signal_pending(current)) {
		printk("# mutexos: tests interrupted\n");
		return EXIT_TESTS_FAILED;
	}
	ktap_line("# mutexos: end of tests, status %d\n", failed ? 1 : 0);
	return failed ? EXIT_TESTS_FAILED : EXIT_TESTS_PASSED;
}
