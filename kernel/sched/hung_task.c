// SPDX-License-Identifier: GPL-2.0
/*
 * The hung-task watchdog. A task in TASK_UNINTERRUPTIBLE that has not run
 * for hung_task_timeout seconds is reported once, with its name, state and
 * backtrace. This is how a lost wakeup shows itself: the task still waits
 * for something that already happened.
 */
#include <kernel.h>
#include <kthread.h>
#include <sched.h>
#include <time.h>
#include <timer.h>

unsigned long sysctl_hung_task_timeout_secs = CONFIG_HUNG_TASK_TIMEOUT;
unsigned long hung_task_reports;

static void report_hung(struct task_struct *p)
{
	/* sched.hung_task_reported polls it from another CPU */
	WRITE_ONCE(hung_task_reports, hung_task_reports + 1);
	report_mark_start();
	printk("INFO: task %s:%d blocked for more than %lu seconds.\n",
	       p->comm, p->pid, READ_ONCE(sysctl_hung_task_timeout_secs));
	show_task(p);
	show_stack(p);
	report_mark_end();
}

/*
 * A task counts as hung when it is in D state, not on a run queue, slept
 * long enough, and was not reported for this same sleep already (the
 * sleep's start is remembered in hung_last_switches).
 *
 * The scheduler changes these fields under rq_lock, which we do not
 * take: each is read once, marked, as its writer stores it. A task that
 * wakes and sleeps again between two reads shows a new sleep_start with
 * the old state, which is a sleep too short to count: never a false
 * report.
 */
static bool is_hung(struct task_struct *p, unsigned long limit)
{
	unsigned long slept;

	if (READ_ONCE(p->state) != TASK_UNINTERRUPTIBLE || READ_ONCE(p->on_rq))
		return false;
	if (!READ_ONCE(p->nvcsw) && !READ_ONCE(p->nivcsw))
		return false;		/* created but never started */
	slept = READ_ONCE(p->sleep_start);
	if (p->hung_last_switches == slept + 1)
		return false;
	return time_after(jiffies, slept + limit);
}

static void check_hung_tasks(void)
{
	unsigned long limit = READ_ONCE(sysctl_hung_task_timeout_secs) * HZ;
	struct task_struct *p;
	unsigned long flags;

	spin_lock_irqsave(&task_list_lock, flags);
	list_for_each_entry(p, &task_list, tasks) {
		if (is_hung(p, limit)) {
			p->hung_last_switches = READ_ONCE(p->sleep_start) + 1;
			report_hung(p);
		}
	}
	spin_unlock_irqrestore(&task_list_lock, flags);
}

static void khungtaskd_wake(struct timer_list *t)
{
	wake_up_process((struct task_struct *)t->data);
}

/*
 * Looks once a second, on a deferrable timer: its own wakeups must not
 * hide a machine where every other task sleeps for good (lib/kunit).
 */
static int khungtaskd(void *unused)
{
	struct timer_list tick;

	timer_setup(&tick, khungtaskd_wake, TIMER_DEFERRABLE);
	tick.data = (unsigned long)current;
	while (!kthread_should_stop()) {
		set_current_state(TASK_INTERRUPTIBLE);
		mod_timer(&tick, jiffies + HZ);
		schedule();
		del_timer_sync(&tick);
		/* a test sets the limit while we run (sched_test.c) */
		if (READ_ONCE(sysctl_hung_task_timeout_secs))
			check_hung_tasks();
	}
	return 0;
}

/* Always started: a test may turn the check on after a boot with it off. */
void hung_task_init(void)
{
	kthread_run(khungtaskd, NULL, "khungtaskd");
}
