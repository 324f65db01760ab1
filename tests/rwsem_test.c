// SPDX-License-Identifier: GPL-2.0
/*
 * The reader-writer semaphore as lab 9's handout specifies it: readers
 * share, a writer is alone, and the queue is served in arrival order, a
 * writer alone or the readers before the next writer together. These are
 * the instructor's hidden tests: not copied into student trees.
 */
#include <kernel.h>
#include <rwsem.h>
#include <kthread.h>
#include "helpers.h"
#include "rwsem_helpers.h"

static DECLARE_RWSEM(sem);

#define HOLDERS 5
static struct rwsem_holder h[HOLDERS];

/* Starts holders in this order: 'r' a reader, 'w' a writer. */
static bool start(struct kunit *test, const char *kinds)
{
	for (int i = 0; kinds[i]; i++) {
		if (!rwsem_holder_start(&h[i], &sem, kinds[i] == 'w')) {
			KUNIT_FAIL(test, "holder %d (%c) neither holds nor waits", i,
				   kinds[i]);
			return false;
		}
	}
	return true;
}

/* Each holder in order holds ('h') or waits ('.'). */
static void expect(struct kunit *test, const char *state)
{
	for (int i = 0; state[i]; i++) {
		if (state[i] == 'h')
			KUNIT_EXPECT_TRUE(test, rwsem_holder_settle(&h[i]));
		else if (state[i] == '.')
			KUNIT_EXPECT_TRUE(test, rwsem_holder_waits(&h[i]));
	}
}

/*
 * Holders start in the order of kinds, then let go in that order: each
 * string of states is who holds ('h') and who waits ('.') before the
 * next one lets go (' ': gone already).
 */
static void play(struct kunit *test, const char *kinds, const char *const *states)
{
	KUNIT_ASSERT_TRUE(test, start(test, kinds));
	for (int i = 0; kinds[i]; i++) {
		expect(test, states[i]);
		KUNIT_EXPECT_TRUE(test, rwsem_holder_stop(&h[i]));
	}
}

static void readers_share(struct kunit *test)
{
	static const char *const states[] = { "hhh", " hh", "  h" };

	play(test, "rrr", states);
}

static void writer_is_alone(struct kunit *test)
{
	static const char *const states[] = { "h..", " h.", "  h" };

	play(test, "wrw", states);
}

static void writer_waits_for_every_reader(struct kunit *test)
{
	static const char *const states[] = { "hh.", " h.", "  h" };

	play(test, "rrw", states);
}

/* A reader that comes while a writer waits does not pass it. */
static void reader_queues_behind_waiting_writer(struct kunit *test)
{
	static const char *const states[] = { "h..", " h.", "  h" };

	play(test, "rwr", states);
}

/* The readers at the head enter together, not the one behind a writer. */
static void readers_at_the_head_enter_together(struct kunit *test)
{
	static const char *const states[] = {
		"h....", " hh..", "  h..", "   h.", "    h" };

	play(test, "wrrwr", states);
}

/* ---- many tasks: the invariant holds at every moment ---- */

static atomic_t readers_in, writers_in;
static volatile int violations;

static void inside(bool writer)
{
	int r = atomic_read(&readers_in), w = atomic_read(&writers_in);

	if (w > 1 || (w && r) || (writer && !w) || (!writer && !r))
		WRITE_ONCE(violations, violations + 1);
}

/* Checks, lets the other tasks of this CPU run, checks again. */
static void hold(bool writer)
{
	inside(writer);
	yield();
	inside(writer);
}

static int stress_fn(void *arg)
{
	bool writer = *(const int *)arg;

	for (int i = 0; i < 10 * (int)stress_factor; i++) {
		if (writer) {
			down_write(&sem);
			atomic_inc(&writers_in);
			hold(true);
			atomic_dec(&writers_in);
			up_write(&sem);
		} else {
			down_read(&sem);
			atomic_inc(&readers_in);
			hold(false);
			atomic_dec(&readers_in);
			up_read(&sem);
		}
	}
	return 0;
}

static void stress(struct kunit *test)
{
	static const int writer[] = { 0, 1, 0, 1, 0, 0 };
	struct workers w;

	violations = 0;
	KUNIT_ASSERT_EQ(test, workers_start(&w, ARRAY_SIZE(writer), stress_fn,
					    (void *)writer, sizeof(writer[0]),
					    false, "rwsem"), (int)ARRAY_SIZE(writer));
	KUNIT_EXPECT_EQ(test, workers_join(&w), 0);
	KUNIT_EXPECT_EQ(test, violations, 0);
	KUNIT_EXPECT_EQ(test, sem.activity, 0);
}

static struct kunit_case rwsem_cases[] = {
	KUNIT_CASE(readers_share),
	KUNIT_CASE(writer_is_alone),
	KUNIT_CASE(writer_waits_for_every_reader),
	KUNIT_CASE(reader_queues_behind_waiting_writer),
	KUNIT_CASE(readers_at_the_head_enter_together),
	KUNIT_CASE(stress),
	{}
};

static struct kunit_suite rwsem_suite = {
	.name = "rwsem",
	.test_cases = rwsem_cases,
};
kunit_test_suite(rwsem_suite);
