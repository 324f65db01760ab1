// SPDX-License-Identifier: GPL-2.0
/*
 * Lab 9: your tests of your reader-writer semaphore. Grading runs them
 * against your code (they must pass) and against wrong implementations
 * planted by your instructor (each one they fail counts for you).
 * tests/rwsem_helpers.h starts tasks that hold the semaphore until told.
 */
#include <kernel.h>
#include <rwsem.h>
#include "helpers.h"
#include "rwsem_helpers.h"

static DECLARE_RWSEM(my_sem);

/* LAB 9 BEGIN: your tests */
/*
 * A scenario: holders start in the order of kinds ('r' reader, 'w'
 * writer), and then each step lets one go (by its index) and names who
 * must hold now ('h'), wait ('.') or is gone (' ').
 */
struct scenario {
	const char *kinds;
	const char *start;		/* who holds right after the start */
	struct { int stop; const char *then; } steps[4];
};

static struct rwsem_holder holder[5];

static void check_states(struct kunit *test, const char *states)
{
	for (int i = 0; states[i]; i++) {
		if (states[i] == 'h')
			KUNIT_EXPECT_EQ(test, rwsem_holder_settle(&holder[i]),
					true);
		else if (states[i] == '.')
			KUNIT_EXPECT_EQ(test, rwsem_holder_waits(&holder[i]), true);
	}
}

static void play(struct kunit *test, const struct scenario *s)
{
	int n = strlen(s->kinds);

	for (int i = 0; i < n; i++)
		KUNIT_ASSERT_TRUE(test, rwsem_holder_start(&holder[i], &my_sem,
							   s->kinds[i] == 'w'));
	check_states(test, s->start);
	for (int j = 0; j < n; j++) {
		KUNIT_EXPECT_TRUE(test, rwsem_holder_stop(&holder[s->steps[j].stop]));
		if (j < n - 1)
			check_states(test, s->steps[j].then);
	}
	KUNIT_EXPECT_EQ(test, my_sem.activity, 0);
}

static void two_readers_at_once(struct kunit *test)
{
	static const struct scenario s = { "rr", "hh", { { 0, " h" }, { 1 } } };

	play(test, &s);
}

static void reader_waits_for_writer(struct kunit *test)
{
	static const struct scenario s = { "wr", "h.", { { 0, " h" }, { 1 } } };

	play(test, &s);
}

static void writer_waits_for_reader(struct kunit *test)
{
	static const struct scenario s = { "rw", "h.", { { 0, " h" }, { 1 } } };

	play(test, &s);
}

static void late_reader_behind_writer(struct kunit *test)
{
	static const struct scenario s = {
		"rwr", "h..", { { 0, " h." }, { 1, "  h" }, { 2 } } };

	play(test, &s);
}

static void queued_readers_together(struct kunit *test)
{
	static const struct scenario s = {
		"wrr", "h..", { { 0, " hh" }, { 1, "  h" }, { 2 } } };

	play(test, &s);
}

static struct kunit_case rwsem_student_cases[] = {
	KUNIT_CASE(two_readers_at_once),
	KUNIT_CASE(reader_waits_for_writer),
	KUNIT_CASE(writer_waits_for_reader),
	KUNIT_CASE(late_reader_behind_writer),
	KUNIT_CASE(queued_readers_together),
	{}
};
/* LAB 9 STUB: Write the cases that show your semaphore does what
 * lab9.md specifies, and that fail for a semaphore that does not.
 *|static void uncontended(struct kunit *test)
 *|{
 *|	down_read(&my_sem);
 *|	up_read(&my_sem);
 *|	down_write(&my_sem);
 *|	up_write(&my_sem);
 *|	KUNIT_EXPECT_EQ(test, my_sem.activity, 0);
 *|}
 *|
 *|static struct kunit_case rwsem_student_cases[] = {
 *|	KUNIT_CASE(uncontended),
 *|	{}
 *|};
 * LAB 9 END */

static struct kunit_suite rwsem_student_suite = {
	.name = "rwsem_student",
	.test_cases = rwsem_student_cases,
};
kunit_test_suite(rwsem_student_suite);
