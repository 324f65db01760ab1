// SPDX-License-Identifier: GPL-2.0
/*
 * The rt-mutex: priority inheritance, after the design of Linux 2.6.18's
 * rt-mutex. docs/rt-mutex.md walks through this file with pictures.
 *
 * Every lock's waiters are queued by priority. The top waiter of each
 * lock a task owns is also queued on that task's pi_waiters, so the task
 * runs at min(normal_prio, its first pi waiter's prio). When that changes
 * and the task is itself blocked, its waiter moves in its lock's queue,
 * which may change that lock's top waiter and so its owner's priority:
 * propagate() follows the chain until a priority stays the same.
 *
 * One lock, pi_lock, protects every rt-mutex's owner and wait list and
 * every task's pi_waiters and pi_blocked_on, the way one run queue serves
 * the scheduler (docs/scheduler.md): a chain walk then sees a chain that
 * cannot change under it, which Linux, with a lock per rt-mutex and per
 * task, buys with a walk that drops and retakes its locks at each step.
 * Lock order: pi_lock, then the scheduler's rq_lock.
 */
#include <kernel.h>
#include <sched.h>
#include <rtmutex.h>
#include <irqflags.h>
#include <kcsan.h>
#include <asm/spinlock.h>
#include <lock_stat.h>
#include <trace.h>

static arch_spinlock_t pi_lock = __ARCH_SPIN_LOCK_UNLOCKED;

unsigned int max_lock_depth = 1024;

/*
 * Preemption is held off with pi_lock, so that a boost or a wakeup done
 * under it takes effect at the unlock, once it is safe to switch.
 */
static unsigned long pi_lock_irqsave(void)
{
	unsigned long flags;

	preempt_disable();
	flags = arch_local_irq_save();
	arch_spin_lock(&pi_lock);
	return flags;
}

static void pi_unlock_irqrestore(unsigned long flags)
{
	arch_spin_unlock(&pi_lock);
	arch_local_irq_restore(flags);
	preempt_enable();
}

#include "rtmutex-debug.h"

void __rt_mutex_init(struct rt_mutex *lock, const char *name,
		     const char *key)
{
	lock->owner = NULL;
	INIT_LIST_HEAD(&lock->wait_list);
	lock->name = name;
	lock->acquire_ip = 0;
	INIT_LIST_HEAD(&lock->held_list);
	lockdep_init_map(&lock->dep_map, key);
}

static struct rt_mutex_waiter *top_waiter(struct rt_mutex *lock)
{
	if (list_empty(&lock->wait_list))
		return NULL;
	return list_first_entry(&lock->wait_list, struct rt_mutex_waiter,
				list_entry);
}

/* Behind every waiter at least as urgent: by priority, FIFO among equals. */
static void queue_by_prio(struct list_head *head, struct rt_mutex_waiter *w,
			  bool pi)
{
	struct list_head *pos;

	list_for_each(pos, head) {
		struct rt_mutex_waiter *o = pi ?
			list_entry(pos, struct rt_mutex_waiter, pi_list_entry) :
			list_entry(pos, struct rt_mutex_waiter, list_entry);

		if (o->prio > w->prio)
			break;
	}
	list_add_tail(pi ? &w->pi_list_entry : &w->list_entry, pos);
}

int rt_mutex_getprio(struct task_struct *p)
{
	struct rt_mutex_waiter *top;

	if (list_empty(&p->pi_waiters))
		return p->normal_prio;
	top = list_first_entry(&p->pi_waiters, struct rt_mutex_waiter,
			       pi_list_entry);
	return min(p->normal_prio, top->prio);
}

/*
 * lock's top waiter was old_top (NULL: it had none): the owner's
 * pi_waiters gets the top waiter it has now, at its present priority.
 */
static void update_owner_pi(struct rt_mutex *lock,
			    struct rt_mutex_waiter *old_top)
{
	struct rt_mutex_waiter *top = top_waiter(lock);

	if (old_top)
		list_del_init(&old_top->pi_list_entry);
	if (top)
		queue_by_prio(&lock->owner->pi_waiters, top, true);
}

/*
 * task's pi_waiters or normal_prio changed: set what it runs at, and if
 * it is blocked, requeue its waiter at that priority and go on with the
 * owner of its lock. Each step changes one priority; a step that changes
 * nothing ends the walk, since nothing further down depends on it.
 */
static void propagate(struct task_struct *task)
{
	/* LAB 10 BEGIN: the boost and its chain propagation */
	unsigned int depth;

	for (depth = 0; depth <= max_lock_depth; depth++) {
		int prio = rt_mutex_getprio(task);
		struct rt_mutex_waiter *w = task->pi_blocked_on, *old_top;

		if (prio == task->prio)
			return;
		rt_mutex_setprio(task, prio);
		if (!w)
			return;
		old_top = top_waiter(w->lock);
		list_del(&w->list_entry);
		w->prio = prio;
		queue_by_prio(&w->lock->wait_list, w, false);
		update_owner_pi(w->lock, old_top);
		task = w->lock->owner;
	}
	/* LAB 10 STUB: Run task at rt_mutex_getprio(task), its top pi
	 * waiter's priority when that is higher (rt_mutex_setprio()); if
	 * that changed and task is blocked (pi_blocked_on), move its waiter
	 * to its new place in its lock's wait_list (queue_by_prio()), bring
	 * the owner's pi_waiters up to date (update_owner_pi()) and go on
	 * with the owner, at most max_lock_depth links. This never boosts.
	 *|	rt_mutex_setprio(task, task->normal_prio);
	 * LAB 10 END */
}

/* Does following owners from lock lead back to us (or on too long)? */
static bool chain_closes(struct rt_mutex *lock, unsigned int *depth)
{
	for (*depth = 0; *depth <= max_lock_depth; (*depth)++) {
		struct task_struct *owner = lock->owner;

		if (owner == current)
			return true;
		if (!owner->pi_blocked_on)
			return false;
		lock = owner->pi_blocked_on->lock;
	}
	return true;
}

/*
 * Every build keeps the rt-mutexes each task owns, so that one that
 * exits holding some can give them up (rt_mutex_check_no_locks_held()).
 */
static void set_owner(struct rt_mutex *lock, struct task_struct *owner)
{
	/*
	 * rt_mutex_is_locked() reads the owner without pi_lock, but only
	 * pi_lock's holder writes it.
	 */
	ASSERT_EXCLUSIVE_WRITER(lock->owner);
	WRITE_ONCE(lock->owner, owner);
	list_add_tail(&lock->held_list, &owner->held_rt_mutexes);
}

static void take(struct rt_mutex *lock, unsigned long ip)
{
	set_owner(lock, current);
	lock->acquire_ip = ip;
	trace_lock(TRACE_ACQUIRED, lock, TRACE_RT_MUTEX);
}

static void block_on(struct rt_mutex *lock, struct rt_mutex_waiter *w)
{
	struct rt_mutex_waiter *old_top = top_waiter(lock);

	w->task = current;
	w->lock = lock;
	w->prio = current->prio;
	INIT_LIST_HEAD(&w->pi_list_entry);
	queue_by_prio(&lock->wait_list, w, false);
	current->pi_blocked_on = w;
	if (top_waiter(lock) == w) {
		update_owner_pi(lock, old_top);
		propagate(lock->owner);
	}
}

/* A signal ended the wait: the owner loses the boost it had from us. */
static void leave(struct rt_mutex *lock, struct rt_mutex_waiter *w)
{
	bool was_top = top_waiter(lock) == w;

	list_del(&w->list_entry);
	current->pi_blocked_on = NULL;
	if (was_top) {
		update_owner_pi(lock, w);
		propagate(lock->owner);
	}
}

/*
 * rt_mutex_lock() of a lock its caller owns can never succeed, and has
 * no way to say so: the task sleeps for good, as Linux's does. It does
 * so with nothing queued: a waiter on its own lock would be its own top
 * waiter, and the unlock loop, finding the lock its own, would return
 * with the waiter still linked on a frame about to die.
 */
static void __noreturn block_for_good(unsigned long flags)
{
	pi_unlock_irqrestore(flags);
	for (;;) {
		set_current_state(TASK_UNINTERRUPTIBLE);
		schedule();
	}
}

static int slowlock(struct rt_mutex *lock, long state, unsigned long ip)
{
	struct rt_mutex_waiter waiter;
	unsigned long flags = pi_lock_irqsave();
	unsigned int depth;
	int ret = 0;

	if (!lock->owner) {
		take(lock, ip);
		pi_unlock_irqrestore(flags);
		lock_acquired(&lock->dep_map);
		return 0;
	}
	lock_contended(&lock->dep_map);
	trace_lock(TRACE_CONTENDED, lock, TRACE_RT_MUTEX);
	if (chain_closes(lock, &depth)) {
		rt_mutex_report_deadlock(lock, depth, ip);
		if (state == TASK_INTERRUPTIBLE) {
			pi_unlock_irqrestore(flags);
			return -EDEADLK;
		}
		/* rt_mutex_lock() has no way to say it: it blocks, as Linux. */
		if (lock->owner == current)
			block_for_good(flags);
	}
	block_on(lock, &waiter);
	for (;;) {
		set_current_state(state);
		/* The unlock hands the lock over: then we own it already. */
		if (lock->owner == current)
			break;
		if (state == TASK_INTERRUPTIBLE && signal_pending(current)) {
			leave(lock, &waiter);
			ret = -EINTR;
			break;
		}
		pi_unlock_irqrestore(flags);
		schedule();
		flags = pi_lock_irqsave();
	}
	__set_current_state(TASK_RUNNING);
	if (!ret) {
		lock->acquire_ip = ip;
		trace_lock(TRACE_ACQUIRED, lock, TRACE_RT_MUTEX);
	}
	pi_unlock_irqrestore(flags);
	if (!ret)
		lock_acquired(&lock->dep_map);
	return ret;
}

void rt_mutex_lock(struct rt_mutex *lock)
{
	might_sleep();
	lock_acquire(&lock->dep_map, 0, false, _RET_IP_);
	slowlock(lock, TASK_UNINTERRUPTIBLE, _RET_IP_);
}

int rt_mutex_lock_interruptible(struct rt_mutex *lock)
{
	int ret;

	might_sleep();
	lock_acquire(&lock->dep_map, 0, false, _RET_IP_);
	ret = slowlock(lock, TASK_INTERRUPTIBLE, _RET_IP_);
	if (ret)
		lock_release(&lock->dep_map, _RET_IP_);
	return ret;
}

int rt_mutex_trylock(struct rt_mutex *lock)
{
	unsigned long flags;
	int taken;

	/* The interrupted task would become the owner. */
	if (rt_mutex_in_irq(lock, _RET_IP_))
		return 0;
	flags = pi_lock_irqsave();
	taken = !lock->owner;

	if (taken)
		take(lock, _RET_IP_);
	pi_unlock_irqrestore(flags);
	if (taken)
		lock_acquire(&lock->dep_map, 0, true, _RET_IP_);
	return taken;
}

/*
 * The top waiter becomes the owner at once, and the rest of the queue
 * boosts it instead of us. (Linux 2.6.18 made it a pending owner that a
 * more urgent task could still steal the lock from; handing over keeps
 * the order of the queue, which is what the tests check.)
 */
static void hand_over(struct rt_mutex *lock, struct rt_mutex_waiter *top)
{
	struct task_struct *next = top->task;

	list_del_init(&top->pi_list_entry);
	list_del(&top->list_entry);
	next->pi_blocked_on = NULL;
	trace_handoff(lock, next, TRACE_RT_MUTEX);
	set_owner(lock, next);
	update_owner_pi(lock, NULL);
	propagate(next);
	wake_up_process(next);
}

/* To the top waiter, if any; then back to what our other locks give us. */
static void release(struct rt_mutex *lock)
{
	struct rt_mutex_waiter *top = top_waiter(lock);

	list_del_init(&lock->held_list);
	if (top)
		hand_over(lock, top);
	else
		WRITE_ONCE(lock->owner, NULL);
	propagate(current);
}

void rt_mutex_unlock(struct rt_mutex *lock)
{
	unsigned long flags;

	if (rt_mutex_in_irq(lock, _RET_IP_))
		return;
	flags = pi_lock_irqsave();
	if (lock->owner != current) {
		rt_mutex_report_bad_unlock(lock, _RET_IP_);
		pi_unlock_irqrestore(flags);
		return;
	}
	lock_release(&lock->dep_map, _RET_IP_);
	trace_lock(TRACE_RELEASED, lock, TRACE_RT_MUTEX);
	release(lock);
	pi_unlock_irqrestore(flags);
}

/*
 * A task that exits holding rt-mutexes would leave them locked for ever,
 * naming a task about to be freed as their owner: the next task to block
 * on one would boost it, writing through that pointer, and its waiters
 * would wait for good. Report them, then release each as an unlock
 * would, in every build.
 */
void rt_mutex_check_no_locks_held(struct task_struct *task)
{
	unsigned long flags;

	if (list_empty(&task->held_rt_mutexes))
		return;
	flags = pi_lock_irqsave();
	rt_mutex_report_exit_held(task);
	while (!list_empty(&task->held_rt_mutexes))
		release(list_first_entry(&task->held_rt_mutexes,
					 struct rt_mutex, held_list));
	pi_unlock_irqrestore(flags);
}

void rt_mutex_adjust_pi(struct task_struct *p)
{
	unsigned long flags = pi_lock_irqsave();

	propagate(p);
	pi_unlock_irqrestore(flags);
}

void rt_mutex_show_all(void)
{
	unsigned long flags, pi_flags;
	struct task_struct *p;

	printk("\nShowing the tasks rt-mutexes block or boost (* boosted):\n");
	/* SysRq may come while task_list_lock is held: only try it. */
	local_irq_save(flags);
	if (!spin_trylock(&task_list_lock)) {
		local_irq_restore(flags);
		printk("task list lock busy: try again\n");
		return;
	}
	pi_flags = pi_lock_irqsave();
	list_for_each_entry(p, &task_list, tasks)
		rt_mutex_show_task(p);
	pi_unlock_irqrestore(pi_flags);
	spin_unlock(&task_list_lock);
	local_irq_restore(flags);
}

const char *rt_mutex_blocked_on(struct task_struct *p)
{
	unsigned long flags = pi_lock_irqsave();
	const char *name = p->pi_blocked_on ? p->pi_blocked_on->lock->name :
					      NULL;

	pi_unlock_irqrestore(flags);
	return name;
}
