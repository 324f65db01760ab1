// SPDX-License-Identifier: GPL-2.0
/* Helpers for the test suites: see tests/helpers.h. */
#include <kernel.h>
#include "helpers.h"


int workers_start(struct workers *w, int n, int (*fn)(void *), void *args,
		  size_t size, bool bind, const char *name)
{
	unsigned int ncpus = num_online_cpus();

	w->n = 0;
	for (int i = 0; i < n && i < MAX_WORKERS; i++) {
		struct task_struct *t = kthread_create(fn, (char *)args + i * size,
						       "%s/%d", name, i);
		if (!t)
			break;
		if (bind)
			kthread_bind(t, i % ncpus);
		w->task[w->n++] = t;
	}
	for (int i = 0; i < w->n; i++)
		wake_up_process(w->task[i]);
	return w->n;
}

int workers_join(struct workers *w)
{
	int bad = 0;

	for (int i = 0; i < w->n; i++)
		bad += kthread_join(w->task[i]) != 0;
	w->n = 0;
	return bad;
}

int run_pair(int (*a)(void *), int (*b)(void *), void *arg,
	     const char *name)
{
	struct task_struct *ta = kthread_create(a, arg, "%s/a", name);
	struct task_struct *tb = kthread_create(b, arg, "%s/b", name);

	if (!ta || !tb)
		return -ENOMEM;
	kthread_bind(ta, 0);
	kthread_bind(tb, 1);
	wake_up_process(ta);
	wake_up_process(tb);
	return (kthread_join(ta) != 0) + (kthread_join(tb) != 0);
}

static bool poll_count(volatile int *flag, int want, unsigned int secs,
		       void (*nap)(unsigned int msecs))
{
	unsigned long end = jiffies + secs * HZ;

	while (READ_ONCE(*flag) < want) {
		if (time_after(jiffies, end))
			return false;
		nap(1);
	}
	return true;
}

bool wait_for_count(volatile int *flag, int want, unsigned int secs)
{
	return poll_count(flag, want, secs, msleep_poll);
}

bool wait_for_host(volatile int *flag, int want, unsigned int secs)
{
	return poll_count(flag, want, secs, msleep);
}

int wait_list_len(struct mutex *m)
{
	struct list_head *pos;
	int n = 0;

	spin_lock(&m->wait_lock);
	list_for_each(pos, &m->wait_list)
		n++;
	spin_unlock(&m->wait_lock);
	return n;
}

bool wait_for_waiters(struct mutex *m, int n)
{
	unsigned long end = jiffies + 60 * HZ;

	while (wait_list_len(m) < n) {
		if (time_after(jiffies, end))
			return false;
		msleep(1);
	}
	return true;
}

bool wait_for_sleep(struct task_struct *p, long state, unsigned int secs)
{
	unsigned long end = jiffies + secs * HZ;

	while (READ_ONCE(p->state) != state || READ_ONCE(p->on_rq)) {
		if (time_after(jiffies, end))
			return false;
		msleep(1);
	}
	return true;
}

int spin_until_set(void *flag)
{
	while (!READ_ONCE(*(volatile int *)flag))
		cpu_relax();
	return 0;
}

int set_flag(void *flag)
{
	WRITE_ONCE(*(volatile int *)flag, 1);
	return 0;
}

bool spin_for_count(volatile int *flag, int want, unsigned int secs)
{
	unsigned long end = jiffies + secs * HZ;

	while (READ_ONCE(*flag) < want) {
		if (time_after(jiffies, end))
			return false;
		cpu_relax();
	}
	return true;
}

int run_driver(int (*fn)(void *), void *arg)
{
	struct task_struct *d = kthread_create_sched(fn, arg, SCHED_FIFO, 50, 0,
						     "rt-driver");

	if (!d)
		return -ENOMEM;
	wake_up_process(d);
	return kthread_join(d);
}

int wake_all(void *tasks)
{
	struct task_struct **t = tasks;

	for (; *t; t++)
		wake_up_process(*t);
	return 0;
}

void order_log_init(struct order_log *log)
{
	atomic_set(&log->n, 0);
}

void order_log_add(struct order_log *log, int ev)
{
	int i = atomic_inc_return(&log->n) - 1;

	if (i < ORDER_LOG_MAX)
		log->ev[i] = ev;
}

int order_log_find(struct order_log *log, int ev)
{
	int n = min(atomic_read(&log->n), ORDER_LOG_MAX);

	for (int i = 0; i < n; i++)
		if (log->ev[i] == ev)
			return i;
	return -1;
}
