// SPDX-License-Identifier: GPL-2.0
/* The tick, the clock, kernel timers and sleeping with a timeout. */
#include <kernel.h>
#include <sched.h>
#include <timer.h>
#include "helpers.h"

static void clock_is_monotonic(struct kunit *test)
{
	u64 prev = ktime_get_ns();

	for (int i = 0; i < 10000; i++) {
		u64 now = ktime_get_ns();

		KUNIT_ASSERT_GE(test, now, prev);
		prev = now;
	}
}

static void clock_and_jiffies_advance(struct kunit *test)
{
	unsigned long j;
	u64 t = ktime_get_ns();

	mdelay(30);		/* busy: measured by the clock */
	KUNIT_EXPECT_GE(test, ktime_get_ns() - t, 30 * NSEC_PER_MSEC);
	/*
	 * Sleeping is timed by the tick: check it in ticks. (The tick and
	 * the clock are calibrated separately and may differ by a little.)
	 */
	j = jiffies;
	msleep(30);
	KUNIT_EXPECT_GE(test, jiffies - j, msecs_to_jiffies(30));
	KUNIT_EXPECT_GT(test, ktime_get_ns() - t, 30 * NSEC_PER_MSEC);
}

/*
 * The tick and the clock are calibrated separately; here they must agree.
 * msleep(ms) waits for msecs_to_jiffies(ms) + 1 ticks. A host that stalls
 * us only makes a sleep longer; the one way it shortens a sleep is a tick
 * that came late just before we read the clock, so that it counts at
 * once, and QEMU lets only one such tick wait. So the clock must see at
 * least ms minus one tick; if it sees less, one of the two clocks runs at
 * the wrong rate (a 100 ms sleep once measured 66 ms).
 */
static void sleep_not_shorter_than_its_ticks(struct kunit *test)
{
	static const unsigned int ms[] = { 10, 30, 60, 100, 150 };
	const u64 tick_ns = NSEC_PER_SEC / HZ;

	for (unsigned int i = 0; i < ARRAY_SIZE(ms); i++) {
		u64 least = ms[i] * NSEC_PER_MSEC - tick_ns;
		u64 t = ktime_get_ns(), slept;

		msleep(ms[i]);
		slept = ktime_get_ns() - t;
		KUNIT_EXPECT_GE(test, slept, least);
	}
}

/* Every CPU's clock agrees with the order in which events happened. */
static void read_clock(void *info)
{
	*(u64 *)info = ktime_get_ns();
}

static void clock_agrees_across_cpus(struct kunit *test)
{
	u64 last = ktime_get_ns();

	for (unsigned int cpu = 0; cpu < NR_CPUS; cpu++) {
		u64 there;

		if (!cpu_online(cpu))
			continue;
		smp_call_function_single(cpu, read_clock, &there, 1);
		KUNIT_EXPECT_GE(test, there, last);
		last = ktime_get_ns();
		KUNIT_EXPECT_GE(test, last, there);
	}
}

static void schedule_timeout_not_early(struct kunit *test)
{
	for (long t = 1; t <= 8; t *= 2) {
		unsigned long start = jiffies;
		long left = schedule_timeout_uninterruptible(t);

		KUNIT_EXPECT_EQ(test, left, 0);
		KUNIT_EXPECT_GE(test, jiffies - start, (unsigned long)t);
	}
}

struct fired {
	struct timer_list timer;
	unsigned long at;
	struct completion done;
};

static void on_timer(struct timer_list *t)
{
	struct fired *f = container_of(t, struct fired, timer);

	f->at = jiffies;
	complete(&f->done);
}

static void timer_fires_not_early(struct kunit *test)
{
	struct fired f;
	unsigned long expires = jiffies + 5;

	init_completion(&f.done);
	timer_setup(&f.timer, on_timer, 0);
	KUNIT_EXPECT_EQ(test, mod_timer(&f.timer, expires), 0);
	KUNIT_EXPECT_TRUE(test, timer_pending(&f.timer));
	KUNIT_ASSERT_GT(test, wait_for_completion_timeout(&f.done, 60 * HZ), 0);
	KUNIT_EXPECT_TRUE(test, time_after_eq(f.at, expires));
	KUNIT_EXPECT_FALSE(test, timer_pending(&f.timer));
}

static void deleted_timer_does_not_fire(struct kunit *test)
{
	struct fired f;

	init_completion(&f.done);
	timer_setup(&f.timer, on_timer, 0);
	mod_timer(&f.timer, jiffies + 3);
	KUNIT_EXPECT_EQ(test, del_timer(&f.timer), 1);
	KUNIT_EXPECT_EQ(test, del_timer_sync(&f.timer), 0);
	KUNIT_EXPECT_EQ(test, wait_for_completion_timeout(&f.done, 10), 0);
	/* re-arming a pending timer moves it */
	mod_timer(&f.timer, jiffies + 1000);
	KUNIT_EXPECT_EQ(test, mod_timer(&f.timer, jiffies + 2), 1);
	KUNIT_EXPECT_GT(test, wait_for_completion_timeout(&f.done, 60 * HZ), 0);
}

static struct kunit_case timer_cases[] = {
	KUNIT_CASE(clock_is_monotonic),
	KUNIT_CASE(clock_and_jiffies_advance),
	KUNIT_CASE(sleep_not_shorter_than_its_ticks),
	KUNIT_CASE(clock_agrees_across_cpus),
	KUNIT_CASE(schedule_timeout_not_early),
	KUNIT_CASE(timer_fires_not_early),
	KUNIT_CASE(deleted_timer_does_not_fire),
	{}
};

static struct kunit_suite timer_suite = {
	.name = "timer",
	.test_cases = timer_cases,
};
kunit_test_suite(timer_suite);
