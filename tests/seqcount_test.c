// SPDX-License-Identifier: GPL-2.0
/*
 * Sequence counts (include/seqcount.h): a reader on one CPU never keeps
 * a pair of words that a writer on another CPU changes together, however
 * long the writer takes between the two, and a reader that started in a
 * write is told to read again.
 */
#include <kernel.h>
#include <seqcount.h>
#include "helpers.h"

/*
 * Writes of the pair, each PAIR_GAP_US between its two words, then a
 * rest that lets a read through; a read takes its time too, so that a
 * reader that did not retry would keep many torn pairs.
 */
#define PAIR_WRITES	2000
#define PAIR_GAP_US	5
#define PAIR_REST_US	20
#define READ_GAP_US	1

static struct {
	seqcount_t seq;
	unsigned long a, b;
	int writing;		/* the writer runs: the reader goes on */
	unsigned long reads, torn;
} pair;

static int write_pairs(void *unused)
{
	for (unsigned long i = 1; i <= PAIR_WRITES; i++) {
		write_seqcount_begin(&pair.seq);
		WRITE_ONCE(pair.a, i);
		udelay(PAIR_GAP_US);
		WRITE_ONCE(pair.b, i);
		write_seqcount_end(&pair.seq);
		udelay(PAIR_REST_US);
	}
	WRITE_ONCE(pair.writing, 0);
	return 0;
}

static int read_pairs(void *unused)
{
	unsigned long a, b;
	unsigned int seq;

	while (READ_ONCE(pair.writing)) {
		do {
			seq = read_seqcount_begin(&pair.seq);
			a = READ_ONCE(pair.a);
			udelay(READ_GAP_US);
			b = READ_ONCE(pair.b);
		} while (read_seqcount_retry(&pair.seq, seq));
		pair.reads++;
		if (a != b)
			pair.torn++;
	}
	return 0;
}

static void reader_never_keeps_a_torn_pair(struct kunit *test)
{
	if (num_online_cpus() < 2)
		kunit_skip(test, "a torn read needs two CPUs");
	pair.a = pair.b = 0;
	pair.reads = pair.torn = 0;
	pair.writing = 1;
	KUNIT_ASSERT_EQ(test, run_pair(read_pairs, write_pairs, NULL,
				       "seqcount"), 0);
	kunit_info(test, "%lu reads, %lu torn", pair.reads, pair.torn);
	KUNIT_EXPECT_GT(test, pair.reads, 0);
	KUNIT_EXPECT_EQ(test, pair.torn, 0);
}

/* On one CPU, step by step: a read that overlaps a write is retried. */
static void read_during_a_write_retries(struct kunit *test)
{
	seqcount_t s = SEQCOUNT_ZERO;
	unsigned int before = read_seqcount_begin(&s), during;

	KUNIT_EXPECT_FALSE(test, read_seqcount_retry(&s, before));
	write_seqcount_begin(&s);
	during = raw_read_seqcount(&s);
	KUNIT_EXPECT_TRUE(test, read_seqcount_retry(&s, before));
	KUNIT_EXPECT_TRUE(test, read_seqcount_retry(&s, during));
	write_seqcount_end(&s);
	KUNIT_EXPECT_TRUE(test, read_seqcount_retry(&s, during));
	KUNIT_EXPECT_FALSE(test, read_seqcount_retry(&s,
						     read_seqcount_begin(&s)));
}

static struct kunit_case seqcount_cases[] = {
	KUNIT_CASE(read_during_a_write_retries),
	KUNIT_CASE(reader_never_keeps_a_torn_pair),
	{}
};

static struct kunit_suite seqcount_suite = {
	.name = "seqcount",
	.test_cases = seqcount_cases,
};
kunit_test_suite(seqcount_suite);
