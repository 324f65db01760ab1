// SPDX-License-Identifier: GPL-2.0
/*
 * The rt-mutex's checks and reports. The debug build shows each task's
 * held rt-mutexes (in locks, SysRq and the reports; every build keeps
 * the lists, rtmutex.c) and reports with the mutex debug build's titles
 * and frame (docs/mutex-debug.md); other builds print one line.
 * Everything here runs under rtmutex.c's pi_lock, which also guards
 * every held list.
 */
#include <kernel.h>
#include <sched.h>
#include <rtmutex.h>
#include <mutex.h>
#include "rtmutex-debug.h"

#ifdef CONFIG_DEBUG_MUTEXES

static void print_rt_lock(struct rt_mutex *lock)
{
	struct task_struct *owner = lock->owner;

	printk(" [%p] {%s} (rt-mutex)\n", lock, lock->name);
	if (owner) {
		printk(" .. held by:      %s/%d prio %d%s\n", owner->comm,
		       owner->pid, owner->prio,
		       owner->prio < owner->normal_prio ? " (boosted)" : "");
		printk(" ... acquired at: %pS\n", (void *)lock->acquire_ip);
	} else {
		printk(" .. not held\n");
	}
}

static void print_held(struct task_struct *p)
{
	struct rt_mutex *lock;

	list_for_each_entry(lock, &p->held_rt_mutexes, held_list)
		print_rt_lock(lock);
}

void rt_mutex_report_deadlock(struct rt_mutex *lock, unsigned int depth,
			      unsigned long ip)
{
	enum mutex_bug kind = depth > max_lock_depth ?
			      MUTEX_BUG_CHAIN_TOO_LONG :
			      depth ? MUTEX_BUG_CIRCULAR : MUTEX_BUG_RECURSION;
	struct rt_mutex *l = lock;

	mutex_debug_report_begin(kind);
	printk("%s/%d is trying to acquire this lock:\n", current->comm,
	       current->pid);
	print_rt_lock(lock);
	printk(" ... trying at:   %pS\n", (void *)ip);
	for (unsigned int i = 0; kind == MUTEX_BUG_CIRCULAR && i < depth; i++) {
		struct task_struct *p = l->owner;

		l = p->pi_blocked_on->lock;
		printk("\n%s/%d holds it, and is blocked on:\n", p->comm,
		       p->pid);
		print_rt_lock(l);
	}
	printk("\n%s/%d holds:\n", current->comm, current->pid);
	print_held(current);
	mutex_debug_report_end();
}

void rt_mutex_report_bad_unlock(struct rt_mutex *lock, unsigned long ip)
{
	mutex_debug_report_begin(lock->owner ? MUTEX_BUG_NOT_OWNER :
				 MUTEX_BUG_DOUBLE_UNLOCK);
	print_rt_lock(lock);
	printk(" ... used at:     %pS\n", (void *)ip);
	mutex_debug_report_end();
}

bool rt_mutex_in_irq(struct rt_mutex *lock, unsigned long ip)
{
	if (!in_interrupt())
		return false;
	mutex_debug_report_begin(MUTEX_BUG_IN_IRQ);
	print_rt_lock(lock);
	printk(" ... used at:     %pS\n", (void *)ip);
	mutex_debug_report_end();
	return true;
}

void rt_mutex_report_exit_held(struct task_struct *task)
{
	mutex_debug_report_begin(MUTEX_BUG_EXIT_HELD);
	print_held(task);
	mutex_debug_report_end();
}

static bool holds_any(struct task_struct *p)
{
	return !list_empty(&p->held_rt_mutexes);
}

#else /* !CONFIG_DEBUG_MUTEXES */

/* Only the debug build shows what each task holds. */
static bool holds_any(struct task_struct *p)
{
	return false;
}

static void print_held(struct task_struct *p)
{
}

void rt_mutex_report_deadlock(struct rt_mutex *lock, unsigned int depth,
			      unsigned long ip)
{
	printk("rt_mutex: %s/%d at %pS: waiting for %s would deadlock "
	       "(%u owners on the chain)\n", current->comm, current->pid,
	       (void *)ip, lock->name, depth);
}

void rt_mutex_report_bad_unlock(struct rt_mutex *lock, unsigned long ip)
{
	printk("rt_mutex_unlock: %s/%d at %pS does not own %s (%s), refused\n",
	       current->comm, current->pid, (void *)ip, lock->name,
	       lock->owner ? lock->owner->comm : "not locked");
}

void rt_mutex_report_exit_held(struct task_struct *task)
{
	struct rt_mutex *lock;

	list_for_each_entry(lock, &task->held_rt_mutexes, held_list)
		printk("rt_mutex: %s/%d exited holding %s, released\n",
		       task->comm, task->pid, lock->name);
}

#endif

void rt_mutex_show_task(struct task_struct *p)
{
	struct rt_mutex_waiter *w = p->pi_blocked_on;
	bool boosted = p->prio < p->normal_prio;

	if (!w && !boosted && !holds_any(p))
		return;
	printk(" %s/%d %s prio %d%s", p->comm, p->pid,
	       sched_policy_name(p->policy), p->prio, boosted ? "*" : "");
	if (w)
		printk(" blocked on {%s} held by %s/%d\n", w->lock->name,
		       w->lock->owner->comm, w->lock->owner->pid);
	else
		printk("\n");
	print_held(p);
}
