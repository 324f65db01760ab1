/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The in-kernel test API. It follows Linux's KUnit names and shapes, so that
 * a test written for MutexOS carries over to Linux with few edits.
 *
 * Each case runs in a kernel thread of its own: a failed assertion ends that
 * thread, a fault in it is reported as a failed case, and a case that never
 * returns is reported as a timeout while the run goes on.
 */
#ifndef _KUNIT_TEST_H
#define _KUNIT_TEST_H

#include <types.h>
#include <compiler.h>
#include <string.h>

struct kunit;

struct kunit_case {
	void (*run_case)(struct kunit *test);
	const char *name;
	/* seconds; 0 means the default (see kunit_case_timeout) */
	unsigned int timeout;
};

struct kunit_suite {
	const char *name;
	struct kunit_case *test_cases;
	int (*init)(struct kunit *test);
	void (*exit)(struct kunit *test);
	int (*suite_init)(struct kunit_suite *suite);
	void (*suite_exit)(struct kunit_suite *suite);
};

enum kunit_status {
	KUNIT_SUCCESS,
	KUNIT_FAILURE,
	KUNIT_SKIPPED,
};

struct kunit {
	const char *name;		/* the case's name */
	void *priv;			/* for the suite's init/exit and the case */
	enum kunit_status status;
	char status_comment[96];
	unsigned int failures;		/* failed expectations so far */
};

/*
 * A case is stuck when the runner, looking every KUNIT_STUCK_POLL, finds
 * itself the only task that runs or waits to run and no timer armed but
 * deferrable ones (sched_machine_stuck()) KUNIT_STUCK_LOOKS times in a
 * row. One such look already proves it (docs/testing.md); the others
 * give a poller on a deferrable timer time to see that its wait is over.
 */
#define KUNIT_STUCK_POLL	(HZ / 10 ?: 1)
#define KUNIT_STUCK_LOOKS	5

#define KUNIT_CASE(fn)			{ .run_case = fn, .name = #fn }
#define KUNIT_CASE_SLOW(fn, secs)	{ .run_case = fn, .name = #fn, \
					  .timeout = (secs) }

/*
 * Suites register themselves by a pointer in the .kunit_suites section;
 * the linker script collects them between __kunit_suites_start/_end.
 * The array is named after its line, which takes two macro levels: ##
 * would paste the word __LINE__ itself rather than the number.
 *
 * The section must be a plain array of pointers, so each array is aligned
 * to exactly one pointer: left alone, the x86_64 ABI aligns an array of
 * 16 bytes or more to 16, and the gap in front of it reads as a NULL suite.
 */
#define __kunit_paste(a, b)	a##b
#define __kunit_unique(a, b)	__kunit_paste(a, b)
#define kunit_test_suites(...)						\
	static struct kunit_suite *__kunit_unique(__kunit_suites_, __LINE__)[] \
	__used __section(".kunit_suites")				\
	__aligned(sizeof(struct kunit_suite *)) = { __VA_ARGS__ }
#define kunit_test_suite(suite)	kunit_test_suites(&suite)

void kunit_fail_current(struct kunit *test, const char *file, int line,
			const char *fmt, ...) __printf(4, 5);
void __noreturn kunit_abort(struct kunit *test);
void kunit_skip_current(struct kunit *test, const char *fmt, ...)
	__printf(2, 3);
void kunit_info(struct kunit *test, const char *fmt, ...) __printf(2, 3);

#define kunit_skip(test, fmt, ...) do {					\
	kunit_skip_current(test, fmt, ##__VA_ARGS__);			\
	kunit_abort(test);						\
} while (0)
#define kunit_mark_skipped(test, fmt, ...)				\
	kunit_skip_current(test, fmt, ##__VA_ARGS__)

/*
 * The checks. EXPECT records a failure and goes on; ASSERT records it and
 * ends the case at once. Operands are evaluated exactly once.
 */
#define __KUNIT_CHECK(test, fatal, cond, fmt, ...) do {			\
	if (!(cond)) {							\
		kunit_fail_current(test, __FILE__, __LINE__, fmt,	\
				   ##__VA_ARGS__);			\
		if (fatal)						\
			kunit_abort(test);				\
	}								\
} while (0)

#define __KUNIT_BINARY(test, fatal, a, op, b) do {			\
	long long __l = (long long)(a), __r = (long long)(b);		\
	__KUNIT_CHECK(test, fatal, __l op __r,				\
		      "expected %s %s %s, but %s == %lld (0x%llx), "	\
		      "%s == %lld (0x%llx)", #a, #op, #b,		\
		      #a, __l, __l, #b, __r, __r);			\
} while (0)

#define __KUNIT_PTR(test, fatal, a, op, b) do {				\
	const void *__l = (const void *)(a), *__r = (const void *)(b);	\
	__KUNIT_CHECK(test, fatal, __l op __r,				\
		      "expected %s %s %s, but %s == %p, %s == %p",	\
		      #a, #op, #b, #a, __l, #b, __r);			\
} while (0)

#define __KUNIT_STR(test, fatal, a, op, b) do {				\
	const char *__l = (a), *__r = (b);				\
	__KUNIT_CHECK(test, fatal, strcmp(__l, __r) op 0,		\
		      "expected %s %s %s, but %s == \"%s\", "		\
		      "%s == \"%s\"", #a, #op, #b, #a, __l, #b, __r);	\
} while (0)

#define __KUNIT_BOOL(test, fatal, c, want) do {				\
	bool __c = !!(c);						\
	__KUNIT_CHECK(test, fatal, __c == (want),			\
		      "expected %s to be %s", #c,			\
		      (want) ? "true" : "false");			\
} while (0)

#define KUNIT_EXPECT_EQ(t, a, b)	__KUNIT_BINARY(t, 0, a, ==, b)
#define KUNIT_EXPECT_NE(t, a, b)	__KUNIT_BINARY(t, 0, a, !=, b)
#define KUNIT_EXPECT_LT(t, a, b)	__KUNIT_BINARY(t, 0, a, <, b)
#define KUNIT_EXPECT_LE(t, a, b)	__KUNIT_BINARY(t, 0, a, <=, b)
#define KUNIT_EXPECT_GT(t, a, b)	__KUNIT_BINARY(t, 0, a, >, b)
#define KUNIT_EXPECT_GE(t, a, b)	__KUNIT_BINARY(t, 0, a, >=, b)
#define KUNIT_EXPECT_TRUE(t, c)		__KUNIT_BOOL(t, 0, c, true)
#define KUNIT_EXPECT_FALSE(t, c)	__KUNIT_BOOL(t, 0, c, false)
#define KUNIT_EXPECT_NULL(t, p)		__KUNIT_PTR(t, 0, p, ==, NULL)
#define KUNIT_EXPECT_NOT_NULL(t, p)	__KUNIT_PTR(t, 0, p, !=, NULL)
#define KUNIT_EXPECT_PTR_EQ(t, a, b)	__KUNIT_PTR(t, 0, a, ==, b)
#define KUNIT_EXPECT_PTR_NE(t, a, b)	__KUNIT_PTR(t, 0, a, !=, b)
#define KUNIT_EXPECT_STREQ(t, a, b)	__KUNIT_STR(t, 0, a, ==, b)
#define KUNIT_EXPECT_STRNEQ(t, a, b)	__KUNIT_STR(t, 0, a, !=, b)

#define KUNIT_ASSERT_EQ(t, a, b)	__KUNIT_BINARY(t, 1, a, ==, b)
#define KUNIT_ASSERT_NE(t, a, b)	__KUNIT_BINARY(t, 1, a, !=, b)
#define KUNIT_ASSERT_LT(t, a, b)	__KUNIT_BINARY(t, 1, a, <, b)
#define KUNIT_ASSERT_LE(t, a, b)	__KUNIT_BINARY(t, 1, a, <=, b)
#define KUNIT_ASSERT_GT(t, a, b)	__KUNIT_BINARY(t, 1, a, >, b)
#define KUNIT_ASSERT_GE(t, a, b)	__KUNIT_BINARY(t, 1, a, >=, b)
#define KUNIT_ASSERT_TRUE(t, c)		__KUNIT_BOOL(t, 1, c, true)
#define KUNIT_ASSERT_FALSE(t, c)	__KUNIT_BOOL(t, 1, c, false)
#define KUNIT_ASSERT_NULL(t, p)		__KUNIT_PTR(t, 1, p, ==, NULL)
#define KUNIT_ASSERT_NOT_NULL(t, p)	__KUNIT_PTR(t, 1, p, !=, NULL)
#define KUNIT_ASSERT_PTR_EQ(t, a, b)	__KUNIT_PTR(t, 1, a, ==, b)
#define KUNIT_ASSERT_PTR_NE(t, a, b)	__KUNIT_PTR(t, 1, a, !=, b)
#define KUNIT_ASSERT_STREQ(t, a, b)	__KUNIT_STR(t, 1, a, ==, b)
#define KUNIT_ASSERT_STRNEQ(t, a, b)	__KUNIT_STR(t, 1, a, !=, b)

#define KUNIT_FAIL(t, fmt, ...)						\
	kunit_fail_current(t, __FILE__, __LINE__, fmt, ##__VA_ARGS__)

/*
 * Called by the fault handler (oops_end) when the task that faulted runs a
 * test case: fails the case and ends the task.
 */
void __noreturn kunit_case_faulted(void);

/*
 * The running case provokes BUG:/WARNING:/INFO: reports on purpose: they
 * are framed as expected (see report_mark_start()) until the case ends.
 * Any other report fails the run.
 */
void kunit_expect_reports(struct kunit *test);

/*
 * Runs every registered suite whose "suite.case" matches the glob (a
 * comma-separated list of globs), or lists every case for "list". Returns
 * the machine's exit status (EXIT_* of kernel.h).
 */
int kunit_run_tests(const char *glob);

#endif
