/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Reader-writer semaphores: any number of readers at once, or one writer.
 * Fair by arrival: a task that must wait joins one FIFO queue, and a
 * reader that arrives while anyone waits queues too, so that a stream of
 * readers never starves a writer. A release hands the semaphore to the
 * head of the queue: a writer alone, or every reader ahead of the next
 * writer at once. Lab 9 (docs/labs/lab9.md) designs and writes it.
 */
#ifndef _RWSEM_H
#define _RWSEM_H

#include <spinlock.h>
#include <list.h>

struct rw_semaphore {
	spinlock_t lock;		/* guards the two fields below */
	int activity;			/* 0 free, n > 0 n readers, -1 a writer */
	struct list_head wait_list;	/* struct rwsem_waiter, in arrival order */
};

#define __RWSEM_INITIALIZER(name) {					\
	.lock = __SPIN_LOCK_UNLOCKED(name.lock),			\
	.activity = 0,							\
	.wait_list = LIST_HEAD_INIT(name.wait_list),			\
}

#define DECLARE_RWSEM(name) \
	struct rw_semaphore name = __RWSEM_INITIALIZER(name)

void init_rwsem(struct rw_semaphore *sem);
void down_read(struct rw_semaphore *sem);
void up_read(struct rw_semaphore *sem);
void down_write(struct rw_semaphore *sem);
void up_write(struct rw_semaphore *sem);

#endif
