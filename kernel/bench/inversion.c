// SPDX-License-Identifier: GPL-2.0
/*
 * The priority inversion scenario: see include/inversion.h. Priorities
 * are SCHED_FIFO: low 10, medium 20, high 30, and the driver that sets
 * the scene 50, on CPU 0 beside the low task, so that nothing it wakes
 * there runs before it sleeps or ends.
 */
#include <kernel.h>
#include <sched.h>
#include <kthread.h>
#include <smp.h>
#include <time.h>
#include <mm.h>
#include <mutex.h>
#include <rtmutex.h>
#include <inversion.h>

#define INV_WAIT_SECS	30

struct inversion {
	bool rt;
	unsigned int medium_ticks;
	struct mutex mutex;
	struct rt_mutex rt_mutex;
	volatile int low_holds, release;
	atomic_t seq;
	struct inversion_result *r;
	struct task_struct *low, *high, *medium[NR_CPUS];
};

static void inv_log(struct inversion *inv, enum inversion_event ev)
{
	inv->r->order[ev] = atomic_inc_return(&inv->seq) - 1;
}

static void inv_lock(struct inversion *inv)
{
	if (inv->rt)
		rt_mutex_lock(&inv->rt_mutex);
	else
		mutex_lock(&inv->mutex);
}

static void inv_unlock(struct inversion *inv)
{
	if (inv->rt)
		rt_mutex_unlock(&inv->rt_mutex);
	else
		mutex_unlock(&inv->mutex);
}

/* Holds the lock until the driver has woken everybody. */
static int low_fn(void *arg)
{
	struct inversion *inv = arg;

	inv_lock(inv);
	WRITE_ONCE(inv->low_holds, 1);
	while (!READ_ONCE(inv->release))
		cpu_relax();
	inv_log(inv, INV_LOW_UNLOCKED);
	inv_unlock(inv);
	return 0;
}

static int high_fn(void *arg)
{
	struct inversion *inv = arg;
	u64 start = ktime_get_ns();

	inv_lock(inv);
	inv->r->high_wait_ns = ktime_get_ns() - start;
	inv_log(inv, INV_HIGH_LOCKED);
	inv_unlock(inv);
	return 0;
}

/* A fixed amount of work that never sleeps. */
static int medium_fn(void *arg)
{
	struct inversion *inv = arg;
	unsigned long end = jiffies + inv->medium_ticks;

	while (time_before(jiffies, end))
		cpu_relax();
	if (smp_processor_id() == 0)
		inv_log(inv, INV_MEDIUM_DONE);
	return 0;
}

/* Sleeps until cond holds; false after INV_WAIT_SECS. */
#define inv_wait(cond) ({						\
	unsigned long __end = jiffies + INV_WAIT_SECS * HZ;		\
	while (!(cond) && time_before(jiffies, __end))			\
		msleep(1);						\
	(cond);								\
})

static bool asleep(struct task_struct *p)
{
	return READ_ONCE(p->state) != TASK_RUNNING && !READ_ONCE(p->on_rq);
}

static int driver_fn(void *arg)
{
	struct inversion *inv = arg;
	int ret = -ETIMEDOUT;

	/* Woken only to end: the scene could not be set up. */
	if (READ_ONCE(inv->release))
		return 0;
	wake_up_process(inv->low);
	if (!inv_wait(READ_ONCE(inv->low_holds)))
		goto out;
	wake_up_process(inv->high);
	if (!inv_wait(asleep(inv->high)))
		goto out;
	for (unsigned int cpu = 0; cpu < NR_CPUS; cpu++)
		if (inv->medium[cpu])
			wake_up_process(inv->medium[cpu]);
	ret = 0;
out:
	WRITE_ONCE(inv->release, 1);
	return ret;
}

static int inv_create(struct inversion *inv, struct task_struct **driver)
{
	inv->low = kthread_create_sched(low_fn, inv, SCHED_FIFO, 10, 0,
					"inv-low");
	inv->high = kthread_create_sched(high_fn, inv, SCHED_FIFO, 30, -1,
					 "inv-high");
	*driver = kthread_create_sched(driver_fn, inv, SCHED_FIFO, 50, 0,
				       "inv-driver");
	if (!inv->low || !inv->high || !*driver)
		return -ENOMEM;
	for (unsigned int cpu = 0; cpu < NR_CPUS; cpu++) {
		if (!cpu_online(cpu))
			continue;
		inv->medium[cpu] = kthread_create_sched(medium_fn, inv,
							SCHED_FIFO, 20, cpu,
							"inv-medium");
		if (!inv->medium[cpu])
			return -ENOMEM;
	}
	return 0;
}

/* Every task made runs to its end: the ones never woken end at once. */
static void inv_reap(struct task_struct *t)
{
	if (t) {
		wake_up_process(t);
		kthread_join(t);
	}
}

int inversion_run(bool rt, unsigned int medium_ticks,
		  struct inversion_result *r)
{
	struct inversion *inv = kzalloc(sizeof(*inv));
	struct task_struct *driver = NULL;
	int ret;

	if (!inv)
		return -ENOMEM;
	inv->rt = rt;
	inv->medium_ticks = medium_ticks;
	inv->r = r;
	mutex_init(&inv->mutex);
	rt_mutex_init(&inv->rt_mutex);
	ret = inv_create(inv, &driver);
	if (!ret) {
		wake_up_process(driver);
		ret = kthread_join(driver);
	} else {
		WRITE_ONCE(inv->release, 1);
		inv_reap(driver);
	}
	inv_reap(inv->low);
	inv_reap(inv->high);
	for (unsigned int cpu = 0; cpu < NR_CPUS; cpu++)
		inv_reap(inv->medium[cpu]);
	kfree(inv);
	return ret;
}
