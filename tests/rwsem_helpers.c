// SPDX-License-Identifier: GPL-2.0
/* Tasks that hold a reader-writer semaphore for the rwsem suites. */
#include <kernel.h>
#include <kthread.h>
#include <time.h>
#include "helpers.h"
#include "rwsem_helpers.h"

/* Seconds to wait for a holder: only a hang takes that long. */
#define HOLDER_SECS	60

static int holder_fn(void *arg)
{
	struct rwsem_holder *h = arg;

	if (h->writer)
		down_write(h->sem);
	else
		down_read(h->sem);
	WRITE_ONCE(h->holding, 1);
	while (!READ_ONCE(h->release))
		msleep_poll(1);
	WRITE_ONCE(h->holding, 0);
	if (h->writer)
		up_write(h->sem);
	else
		up_read(h->sem);
	return 0;
}

bool rwsem_holder_waits(struct rwsem_holder *h)
{
	return !READ_ONCE(h->holding) &&
	       READ_ONCE(h->task->state) == TASK_UNINTERRUPTIBLE &&
	       !READ_ONCE(h->task->on_rq);
}

/* Waits until h holds its semaphore or sleeps for it; false after the limit. */
static bool settled(struct rwsem_holder *h)
{
	unsigned long end = jiffies + HOLDER_SECS * HZ;

	while (!READ_ONCE(h->holding) && !rwsem_holder_waits(h)) {
		if (time_after(jiffies, end))
			return false;
		msleep(1);
	}
	return true;
}

bool rwsem_holder_settle(struct rwsem_holder *h)
{
	return settled(h) && READ_ONCE(h->holding);
}

bool rwsem_holder_start(struct rwsem_holder *h, struct rw_semaphore *sem,
			bool writer)
{
	*h = (struct rwsem_holder){ .sem = sem, .writer = writer };
	h->task = kthread_run(holder_fn, h, writer ? "rwsem-w" : "rwsem-r");
	return h->task && settled(h);
}

bool rwsem_holder_stop(struct rwsem_holder *h)
{
	bool holds = rwsem_holder_settle(h);

	WRITE_ONCE(h->release, 1);
	if (holds)
		kthread_join(h->task);
	return holds;
}
