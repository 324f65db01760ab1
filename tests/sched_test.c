// SPDX-License-Identifier: GPL-2.0
/*
 * The scheduler: preemption, sleep and wakeup across CPUs with a watchdog,
 * accounting, might_sleep() and the hung-task watchdog.
 */
#include <kernel.h>
#include <sched.h>
#include <printk.h>
#include "helpers.h"

static volatile int spin_release;

static void preemption_on_one_cpu(struct kunit *test)
{
	struct task_struct *s, *r;

	spin_release = 0;
	s = kthread_create(spin_until_set, (void *)&spin_release, "spinner");
	r = kthread_create(set_flag, (void *)&spin_release, "releaser");
	KUNIT_ASSERT_NOT_NULL(test, s);
	KUNIT_ASSERT_NOT_NULL(test, r);
	kthread_bind(s, 0);
	kthread_bind(r, 0);
	wake_up_process(s);
	wake_up_process(r);
	/* With no preemption the spinner would hold CPU 0 for ever. */
	KUNIT_EXPECT_EQ(test, kthread_join(r), 0);
	wait_for_completion(&s->exited);
	KUNIT_EXPECT_GT(test, s->nivcsw, 0);
	KUNIT_EXPECT_EQ(test, kthread_join(s), 0);
}

/*
 * Ping-pong with the bare primitives: a lost wakeup stalls the pair.
 * Each round waits on a CPU being woken, which a busy host makes slow:
 * stress= (make torture) multiplies the rounds.
 */
#define PINGPONG_ROUNDS 100

struct pingpong {
	struct task_struct *peer;
	volatile int *turn;
	int me;
	volatile int *done;
};

static int pingpong_fn(void *data)
{
	struct pingpong *pp = data;

	for (int i = 0; i < PINGPONG_ROUNDS * (int)stress_factor; i++) {
		for (;;) {
			set_current_state(TASK_UNINTERRUPTIBLE);
			if (READ_ONCE(*pp->turn) == pp->me)
				break;
			schedule();
		}
		__set_current_state(TASK_RUNNING);
		WRITE_ONCE(*pp->turn, !pp->me);
		wake_up_process(pp->peer);
	}
	__atomic_fetch_add(pp->done, 1, __ATOMIC_SEQ_CST);
	return 0;
}

static void sleep_wakeup_stress(struct kunit *test)
{
	int pairs = num_online_cpus();
	static struct pingpong pp[32][2];
	static struct task_struct *t[32][2];
	static volatile int turn[32];
	static volatile int done;

	done = 0;
	if (pairs > 2)
		pairs = 2;
	for (int i = 0; i < pairs; i++) {
		turn[i] = 0;
		for (int j = 0; j < 2; j++) {
			pp[i][j] = (struct pingpong){ .turn = &turn[i], .me = j,
						     .done = &done };
			t[i][j] = kthread_create(pingpong_fn, &pp[i][j],
						 "pp%d.%d", i, j);
			KUNIT_ASSERT_NOT_NULL(test, t[i][j]);
			kthread_bind(t[i][j], (2 * i + j) % num_online_cpus());
		}
		pp[i][0].peer = t[i][1];
		pp[i][1].peer = t[i][0];
	}
	for (int i = 0; i < pairs; i++)
		for (int j = 0; j < 2; j++)
			wake_up_process(t[i][j]);
	/* The watchdog: a lost wakeup leaves a pair asleep for good. */
	if (!wait_for_count(&done, 2 * pairs, 300)) {
		KUNIT_FAIL(test, "lost wakeup: only %d of %d tasks finished",
			   done, 2 * pairs);
		show_state();
		return;		/* the stuck tasks cannot be reaped */
	}
	for (int i = 0; i < pairs; i++)
		for (int j = 0; j < 2; j++)
			kthread_join(t[i][j]);
}

static int busy_50ms(void *unused)
{
	mdelay(50);
	return 0;
}

static void accounting(struct kunit *test)
{
	struct task_struct *t = kthread_create(busy_50ms, NULL, "busy");
	struct cpu_stat before, after;
	u64 busy_before = 0, busy_after = 0;

	KUNIT_ASSERT_NOT_NULL(test, t);
	for (unsigned int c = 0; c < NR_CPUS; c++) {
		if (!cpu_online(c))
			continue;
		cpu_stat_read(c, &before);
		busy_before += before.busy_ns;
	}
	wake_up_process(t);
	/* Told after its last switch, which accounts its time. */
	wait_for_completion(&t->exited);
	/* Read before reaping: the task's counters go with it. */
	KUNIT_EXPECT_GE(test, t->sum_exec_ns, 50 * NSEC_PER_MSEC);
	KUNIT_EXPECT_GT(test, t->nvcsw + t->nivcsw, 0);
	kthread_join(t);
	for (unsigned int c = 0; c < NR_CPUS; c++) {
		if (!cpu_online(c))
			continue;
		cpu_stat_read(c, &after);
		busy_after += after.busy_ns;
	}
	KUNIT_EXPECT_GE(test, busy_after - busy_before, 50 * NSEC_PER_MSEC);
}

static void might_sleep_under_spinlock(struct kunit *test)
{
	unsigned long before = might_sleep_reports;
	unsigned long pos = printk_log_pos();
	DEFINE_SPINLOCK(l);

	kunit_expect_reports(test);
	might_sleep();
	KUNIT_EXPECT_EQ(test, might_sleep_reports, before);
	spin_lock(&l);
	might_sleep();
	spin_unlock(&l);
	KUNIT_EXPECT_EQ(test, might_sleep_reports, before + 1);
	KUNIT_EXPECT_TRUE(test, printk_log_find(pos,
		"BUG: sleeping function called from invalid context"));
	local_irq_disable();
	might_sleep();
	local_irq_enable();
	KUNIT_EXPECT_EQ(test, might_sleep_reports, before + 2);
}

/* Long past the 1 s limit: the test wakes it once the report is out. */
#define HUNG_SLEEP_SECS		60
#define HUNG_REPORT_SECS	30

static int sleep_uninterruptible(void *unused)
{
	schedule_timeout_uninterruptible(HUNG_SLEEP_SECS * HZ);
	return 0;
}

/*
 * With a 1 s limit, khungtaskd (which looks once a second) reports the
 * sleeper between 1 and 2 s after it slept. The wait ends at the report:
 * its limit is only there so that a report that never comes fails the
 * case, however slowly a loaded host runs khungtaskd.
 */
static void hung_task_reported(struct kunit *test)
{
	unsigned long saved = sysctl_hung_task_timeout_secs;
	unsigned long before = READ_ONCE(hung_task_reports);
	unsigned long end = jiffies + HUNG_REPORT_SECS * HZ;
	struct task_struct *t;

	kunit_expect_reports(test);
	WRITE_ONCE(sysctl_hung_task_timeout_secs, 1);
	t = kthread_run(sleep_uninterruptible, NULL, "sleepy");
	KUNIT_ASSERT_NOT_NULL(test, t);
	while (READ_ONCE(hung_task_reports) == before && time_before(jiffies, end))
		msleep(10);
	WRITE_ONCE(sysctl_hung_task_timeout_secs, saved);
	KUNIT_EXPECT_GE(test, READ_ONCE(hung_task_reports), before + 1);
	wake_up_process(t);
	kthread_join(t);
}

static int count_yields(void *data)
{
	for (int i = 0; i < 100; i++) {
		yield();
		cond_resched();
	}
	return 7;
}

static void yield_and_exit_code(struct kunit *test)
{
	struct task_struct *t = kthread_run(count_yields, NULL, "yielder");

	KUNIT_ASSERT_NOT_NULL(test, t);
	KUNIT_EXPECT_EQ(test, kthread_join(t), 7);
}

static struct kunit_case sched_cases[] = {
	KUNIT_CASE(preemption_on_one_cpu),
	KUNIT_CASE(sleep_wakeup_stress),
	KUNIT_CASE(accounting),
	KUNIT_CASE(might_sleep_under_spinlock),
	KUNIT_CASE(hung_task_reported),
	KUNIT_CASE(yield_and_exit_code),
	{}
};

static struct kunit_suite sched_suite = {
	.name = "sched",
	.test_cases = sched_cases,
};
kunit_test_suite(sched_suite);
