/* SPDX-License-Identifier: GPL-2.0 */
/* Everyday kernel helpers: printk, panic, BUG_ON/WARN_ON, container_of. */
#ifndef _KERNEL_H
#define _KERNEL_H

#include <types.h>
#include <compiler.h>
#include <errno.h>

#define ARRAY_SIZE(a)		(sizeof(a) / sizeof((a)[0]))
#define container_of(ptr, type, member) \
	((type *)((char *)(ptr) - offsetof(type, member)))
#define min(a, b)		((a) < (b) ? (a) : (b))
#define max(a, b)		((a) > (b) ? (a) : (b))
#define ALIGN(x, a)		(((x) + (a) - 1) & ~((typeof(x))(a) - 1))
#define ALIGN_DOWN(x, a)	((x) & ~((typeof(x))(a) - 1))
#define DIV_ROUND_UP(n, d)	(((n) + (d) - 1) / (d))

int vsnprintf(char *buf, size_t size, const char *fmt, va_list args);
int snprintf(char *buf, size_t size, const char *fmt, ...) __printf(3, 4);
int vscnprintf(char *buf, size_t size, const char *fmt, va_list args);
int scnprintf(char *buf, size_t size, const char *fmt, ...) __printf(3, 4);
unsigned long simple_strtoul(const char *s, char **end, unsigned int base);

int printk(const char *fmt, ...) __printf(1, 2);
int vprintk(const char *fmt, va_list args);
#define pr_info(fmt, ...)	printk(fmt, ##__VA_ARGS__)
#define pr_err(fmt, ...)	printk(fmt, ##__VA_ARGS__)

/*
 * Exit statuses of the whole machine, as the host runner decodes them
 * (scripts/mutexos/verdict.py): each says what the run did, so that a run
 * that listed the tests or measured is never taken for one that tested.
 */
#define EXIT_TESTS_PASSED	0	/* tests ran, every one passed */
#define EXIT_TESTS_FAILED	1	/* tests ran, some failed */
#define EXIT_CRASH		2	/* a panic, or a fault outside a test */
#define EXIT_ERROR		3	/* bad input: nothing was run */
#define EXIT_LISTED		4	/* test=list: listed the cases, ran none */
#define EXIT_BENCH_DONE		5	/* bench=: measured, invariants held */
#define EXIT_BENCH_FAILED	6	/* bench=: an invariant broke */
#define EXIT_HALTED		7	/* the console's halt command */

/*
 * "native", "dec", "xchg", "null", "debug" or "spin": the mutex build;
 * "debug+lockdep" with the lock-order validator.
 */
const char *mutex_build_name(void);

void __noreturn panic(const char *fmt, ...) __printf(1, 2);

/*
 * Every BUG:, WARNING: and INFO: report is printed between these two.
 * While a test case provokes reports on purpose (kunit_expect_reports()),
 * they frame the report with "# expected report follows" and "# expected
 * report ends", so that a reader, a grep and the test runner can tell it
 * from a real one: an unframed report fails a test run.
 */
void report_mark_start(void);
void report_mark_end(void);
extern int reports_expected;
/* Panic at the end of a report nobody provoked (panic_on_report=). */
extern unsigned int panic_on_report;
void __noreturn machine_exit(int status);
void dump_stack(void);

void __warn(const char *file, int line, const char *cond);
#define WARN_ON(cond) ({						\
	bool __w = !!(cond);						\
	if (unlikely(__w))						\
		__warn(__FILE__, __LINE__, #cond);			\
	unlikely(__w);							\
})
#define WARN_ON_ONCE(cond) ({						\
	static bool __warned;						\
	bool __w = !!(cond);						\
	if (unlikely(__w) && !__warned) {				\
		__warned = true;					\
		__warn(__FILE__, __LINE__, #cond);			\
	}								\
	unlikely(__w);							\
})
#define BUG() panic("BUG at %s:%d", __FILE__, __LINE__)
#define BUG_ON(cond) do { if (unlikely(cond)) \
	panic("BUG_ON(%s) at %s:%d", #cond, __FILE__, __LINE__); } while (0)

/* Number of WARN_ON()s that fired, so tests can see one did. */
extern unsigned long warn_count;

#endif
