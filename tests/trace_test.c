// SPDX-License-Identifier: GPL-2.0
/*
 * The event tracer (CONFIG_TRACING): what a task bound to one CPU does is
 * in that CPU's ring, in order, with time stamps that never go back; an
 * overflowing ring keeps the newest events and counts the others; nothing
 * is recorded while tracing is off; sleeping and waking show as switch
 * and wakeup events.
 */
#include <kernel.h>
#include <string.h>
#include <mutex.h>
#include <completion.h>
#include <timer.h>
#include <trace.h>
#include "helpers.h"

#define PAIRS		50

static DEFINE_MUTEX(trace_mutex);
static struct trace_entry copy[TRACE_RING_SIZE];

struct pairs_arg {
	int pairs;
	unsigned int cpu;	/* where it ran */
};

static int lock_pairs(void *data)
{
	struct pairs_arg *a = data;

	a->cpu = smp_processor_id();
	for (int i = 0; i < a->pairs; i++) {
		mutex_lock(&trace_mutex);
		mutex_unlock(&trace_mutex);
	}
	return 0;
}

/* pairs lock/unlock pairs of trace_mutex in a task bound to one CPU. */
static unsigned int run_pairs(struct kunit *test, int pairs)
{
	struct pairs_arg a = { .pairs = pairs };
	struct task_struct *t = kthread_create(lock_pairs, &a, "tracepairs");

	KUNIT_ASSERT_NOT_NULL(test, t);
	kthread_bind(t, num_online_cpus() - 1);
	wake_up_process(t);
	KUNIT_EXPECT_EQ(test, kthread_join(t), 0);
	return a.cpu;
}

/* The ring's own events of trace_mutex: acquired, released, in turn. */
static unsigned long check_pairs(struct kunit *test, unsigned long n)
{
	unsigned long seen = 0;

	for (unsigned long i = 0; i < n; i++) {
		if (i)
			KUNIT_EXPECT_LE(test, copy[i - 1].ts, copy[i].ts);
		if (copy[i].obj != &trace_mutex)
			continue;
		KUNIT_EXPECT_EQ(test, (int)copy[i].type,
				seen % 2 ? TRACE_RELEASED : TRACE_ACQUIRED);
		KUNIT_EXPECT_EQ(test, (int)copy[i].aux, TRACE_MUTEX);
		seen++;
	}
	return seen;
}

static void events_in_order(struct kunit *test)
{
	unsigned int cpu;
	unsigned long n;

	trace_start(TRACE_LOCK);
	cpu = run_pairs(test, PAIRS);
	trace_stop();
	n = trace_copy(cpu, copy, TRACE_RING_SIZE);
	KUNIT_EXPECT_EQ(test, check_pairs(test, n), 2UL * PAIRS);
}

static void full_ring_drops_oldest(struct kunit *test)
{
	unsigned long events, dropped, n;
	unsigned int cpu;

	trace_start(TRACE_LOCK);
	cpu = run_pairs(test, TRACE_RING_SIZE / 2 + PAIRS);
	trace_stop();
	trace_counts(cpu, &events, &dropped);
	KUNIT_EXPECT_EQ(test, events, (unsigned long)TRACE_RING_SIZE);
	KUNIT_EXPECT_GE(test, dropped, 2UL * PAIRS);
	n = trace_copy(cpu, copy, TRACE_RING_SIZE);
	KUNIT_ASSERT_EQ(test, n, (unsigned long)TRACE_RING_SIZE);
	/* The newest are kept: the last pair's release is the last event. */
	KUNIT_EXPECT_PTR_EQ(test, copy[n - 1].obj, (const void *)&trace_mutex);
	KUNIT_EXPECT_EQ(test, (int)copy[n - 1].type, TRACE_RELEASED);
	/* An odd number dropped would start the ring on a release. */
	check_pairs(test, n);
}

static void off_records_nothing(struct kunit *test)
{
	unsigned long events, dropped;

	trace_start(TRACE_LOCK);
	trace_stop();
	run_pairs(test, PAIRS);
	for (unsigned int cpu = 0; cpu < NR_CPUS; cpu++) {
		trace_counts(cpu, &events, &dropped);
		KUNIT_EXPECT_EQ(test, events + dropped, 0UL);
	}
}

static DECLARE_COMPLETION(trace_done);

static int sleeper(void *unused)
{
	wait_for_completion(&trace_done);
	return 0;
}

#define ANY_ARG		(~0U)

/* Does some CPU's ring hold an event of type in task pid, with arg, aux? */
static bool find_event(enum trace_type type, u32 pid, u32 arg, u8 aux)
{
	for (unsigned int cpu = 0; cpu < NR_CPUS; cpu++) {
		unsigned long n = trace_copy(cpu, copy, TRACE_RING_SIZE);

		for (unsigned long i = 0; i < n; i++)
			if (copy[i].type == type && copy[i].pid == pid &&
			    (arg == ANY_ARG || copy[i].arg == arg) &&
			    copy[i].aux == aux)
				return true;
	}
	return false;
}

static void sleep_and_wakeup(struct kunit *test)
{
	struct task_struct *t;
	u32 pid;

	trace_start(TRACE_SCHED);
	t = kthread_run(sleeper, NULL, "tracesleep");
	KUNIT_ASSERT_NOT_NULL(test, t);
	pid = t->pid;
	KUNIT_EXPECT_TRUE(test, wait_for_sleep(t, TASK_UNINTERRUPTIBLE, 10));
	complete(&trace_done);
	kthread_join(t);
	trace_stop();
	/* It went to sleep (D: uninterruptibly) and we woke it. */
	KUNIT_EXPECT_TRUE(test, find_event(TRACE_SWITCH, pid, ANY_ARG, 'D'));
	KUNIT_EXPECT_TRUE(test, find_event(TRACE_WAKEUP, current->pid, pid,
					   0));
}

static void parse_mask(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, trace_parse_mask("lock,sched"),
			TRACE_LOCK | TRACE_SCHED);
	KUNIT_EXPECT_EQ(test, trace_parse_mask("irq"), TRACE_IRQ);
	KUNIT_EXPECT_EQ(test, trace_parse_mask("all"),
			TRACE_LOCK | TRACE_SCHED | TRACE_IRQ);
	KUNIT_EXPECT_EQ(test, trace_parse_mask("lock,bogus"), 0U);
	KUNIT_EXPECT_EQ(test, trace_parse_mask(""), 0U);
}

/*
 * The tracer's table of task names, read while written: two tasks whose
 * pids share a slot (made up, far above the real ones) are switched
 * between by a timer callback on CPU 0's tick, as __schedule() does,
 * interrupts off, so that the slot is rewritten each tick, while a task
 * on CPU 0 reads their names: each read is one of the two names whole,
 * with its own pid, never half of each, even when a tick lands in it.
 */
#define NAME_TICKS	200
#define NAME_PID	100000

static struct task_struct name_a, name_b;
static int name_ticks_left;
static unsigned long name_reads, names_torn;

/* The slot holds the task switched to: a and b in turn, tick by tick. */
static void switch_names(struct timer_list *t)
{
	if (name_ticks_left & 1)
		__trace_switch(&name_a, &name_b);
	else
		__trace_switch(&name_b, &name_a);
	if (--name_ticks_left > 0)
		mod_timer(t, jiffies + 1);
}

static void check_name(struct task_struct *t)
{
	char comm[TASK_COMM_LEN];

	if (!trace_task_comm(t->pid, comm))
		return;
	name_reads++;
	if (memcmp(comm, t->comm, TASK_COMM_LEN))
		names_torn++;
}

static int read_names(void *unused)
{
	while (READ_ONCE(name_ticks_left) > 0) {
		check_name(&name_a);
		check_name(&name_b);
	}
	return 0;
}

static void task_names_read_whole(struct kunit *test)
{
	struct timer_list tick;
	struct workers w;

	name_a.pid = NAME_PID;
	name_b.pid = NAME_PID + TRACE_TASKS;
	memset(name_a.comm, 'a', TASK_COMM_LEN - 1);
	memset(name_b.comm, 'b', TASK_COMM_LEN - 1);
	name_reads = names_torn = 0;
	name_ticks_left = NAME_TICKS;
	timer_setup(&tick, switch_names, 0);
	mod_timer(&tick, jiffies + 1);
	KUNIT_ASSERT_EQ(test, workers_start(&w, 1, read_names, NULL, 0, true,
					    "names"), 1);
	KUNIT_EXPECT_EQ(test, workers_join(&w), 0);
	del_timer_sync(&tick);
	kunit_info(test, "%lu reads, %lu torn", name_reads, names_torn);
	KUNIT_EXPECT_GT(test, name_reads, 0UL);
	KUNIT_EXPECT_EQ(test, names_torn, 0UL);
}

static struct kunit_case trace_cases[] = {
	KUNIT_CASE(events_in_order),
	KUNIT_CASE(full_ring_drops_oldest),
	KUNIT_CASE(off_records_nothing),
	KUNIT_CASE(sleep_and_wakeup),
	KUNIT_CASE(parse_mask),
	KUNIT_CASE(task_names_read_whole),
	{}
};

static struct kunit_suite trace_suite = {
	.name = "trace",
	.test_cases = trace_cases,
};

kunit_test_suites(&trace_suite);
