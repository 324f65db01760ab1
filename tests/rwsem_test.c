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

static void stop(struct kunit *test, int i)
{
	KUNIT_EXPECT_TRUE(test, rwsem_holder_stop(&h[i]));
}

static void readers_share(struct kunit *test)
{
	KUNIT_ASSERT_TRUE(test, start(test, "rrr"));
	expect(test, "hhh");
	for (int i = 0; i < 3; i++)
		stop(test, i);
}

static void writer_is_alone(struct kunit *test)
{
	KUNIT_ASSERT_TRUE(test, start(test, "wrw"));
	expect(test, "h..");
	stop(test, 0);
	expect(test, " h.");
	stop(test, 1);
	expect(test, "  h");
	stop(test, 2);
}

static void writer_waits_for_every_reader(struct kunit *test)
{
	KUNIT_ASSERT_TRUE(test, start(test, "rrw"));
	expect(test, "hh.");
	stop(test, 0);
	expect(test, " h.");
	stop(test, 1);
	expect(test, "  h");
	stop(test, 2);
}

/* A reader that comes while a writer waits does not pass it. */
static void reader_queues_behind_waiting_writer(struct kunit *test)
{
	KUNIT_ASSERT_TRUE(test, start(test, "rwr"));
	expect(test, "h..");
	stop(test, 0);
	expect(test, " h.");
	stop(test, 1);
	expect(test, "  h");
	stop(test, 2);
}

/* The readers at the head enter together, not the one behind a writer. */
static void readers_at_the_head_enter_together(struct kunit *test)
{
	KUNIT_ASSERT_TRUE(test, start(test, "wrrwr"));
	expect(test, "h....");
	stop(test, 0);
	expect(test, " hh..");
	stop(test, 1);
	expect(test, "  h..");
	stop(test, 2);
	expect(test, "   h.");
	stop(test, 3);
	expect(test, "    h");
	stop(test, 4);
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

static int stress_fn(void *arg)
{
	bool writer = *(const int *)arg;

	for (int i = 0; i < 200 * (int)stress_factor; i++) {
		if (writer) {
			down_write(&sem);
			atomic_inc(&writers_in);
			inside(true);
			atomic_dec(&writers_in);
			up_write(&sem);
		} else {
			down_read(&sem);
			atomic_inc(&readers_in);
			inside(false);
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
					    true, "rwsem"), (int)ARRAY_SIZE(writer));
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
