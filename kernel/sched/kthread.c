// SPDX-License-Identifier: GPL-2.0
/* Kernel threads on top of task_create(): names, binding, stopping. */
#include <kernel.h>
#include <kthread.h>

struct task_struct *kthread_create(int (*fn)(void *data), void *data,
				   const char *namefmt, ...)
{
	char name[TASK_COMM_LEN];
	va_list args;

	va_start(args, namefmt);
	vsnprintf(name, sizeof(name), namefmt, args);
	va_end(args);
	return task_create(fn, data, name);
}

void kthread_bind(struct task_struct *k, unsigned int cpu)
{
	WARN_ON(k->state != TASK_UNINTERRUPTIBLE || k->on_rq);
	k->cpus_allowed = cpu;
	k->thread_info->cpu = cpu;
}

struct task_struct *kthread_create_sched(int (*fn)(void *data), void *data,
					 int policy, int prio, int cpu,
					 const char *name)
{
	struct sched_param sp = { .sched_priority = prio };
	struct task_struct *k = kthread_create(fn, data, "%s", name);

	if (!k)
		return NULL;
	if (cpu >= 0)
		kthread_bind(k, cpu);
	sched_setscheduler(k, policy, &sp);
	return k;
}

bool kthread_should_stop(void)
{
	return READ_ONCE(current->should_stop);
}

int kthread_stop(struct task_struct *k)
{
	WRITE_ONCE(k->should_stop, 1);
	wake_up_process(k);
	return task_reap(k);
}

int kthread_join(struct task_struct *k)
{
	return task_reap(k);
}
