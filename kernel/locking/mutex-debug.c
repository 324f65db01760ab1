// SPDX-License-Identifier: GPL-2.0
/*
 * Mutex debugging (CONFIG_DEBUG_MUTEXES): checks every mutex operation
 * against the rules in include/mutex.h and looks for deadlocks before a
 * task blocks. Each report starts with a fixed line, names the lock, its
 * owner and where it was taken, and prints backtraces; then the kernel goes
 * on, so that a test can provoke a bug, check the report and continue.
 * docs/mutex-debug.md shows every report.
 */
#include <kernel.h>
#include <sched.h>
#include <smp.h>
#include <mutex.h>
#include <ww_mutex.h>
#include <irq.h>
#include <time.h>
#include <asm/spinlock.h>
#include "mutex-debug-hooks.h"

/* What mutex_destroy() leaves in ->magic. */
#define MUTEX_DESTROYED		((void *)0x6d757478UL)

const char *const mutex_bug_title[MUTEX_BUG_NR] = {
	[MUTEX_BUG_RECURSION]	= "BUG: lock recursion deadlock detected",
	[MUTEX_BUG_CIRCULAR]	= "BUG: circular locking deadlock detected",
	[MUTEX_BUG_CHAIN_TOO_LONG] = "BUG: lock dependency chain too long",
	[MUTEX_BUG_DOUBLE_UNLOCK] = "BUG: unlock of an unlocked mutex",
	[MUTEX_BUG_NOT_OWNER]	= "BUG: unlock of a mutex held by another task",
	[MUTEX_BUG_UNINITIALIZED] = "BUG: mutex used without mutex_init",
	[MUTEX_BUG_DESTROYED]	= "BUG: mutex used after mutex_destroy",
	[MUTEX_BUG_INIT_HELD]	= "BUG: mutex_init of a held mutex",
	[MUTEX_BUG_DESTROY_HELD] = "BUG: mutex_destroy of a held mutex",
	[MUTEX_BUG_EXIT_HELD]	= "BUG: task exiting with mutexes held",
	[MUTEX_BUG_FREE_HELD]	= "BUG: freeing memory that holds a locked mutex",
	[MUTEX_BUG_IN_IRQ]	= "BUG: mutex used in interrupt context",
	[MUTEX_BUG_WW_CLASS]	= "BUG: ww_acquire_ctx used with two ww_classes",
	[MUTEX_BUG_WW_NO_BACKOFF] =
		"BUG: ww_mutex_lock after -EDEADLK without backing off",
	[MUTEX_BUG_WW_FINI_HELD] = "BUG: ww_acquire_fini with ww_mutexes held",
	[MUTEX_BUG_WW_AFTER_DONE] = "BUG: ww_mutex_lock after ww_acquire_done",
};

unsigned long mutex_debug_reports[MUTEX_BUG_NR];

/*
 * Longest owner -> blocked-on chain followed before giving up with a
 * report. The 2006 code stopped at 20; a test may lower it to see the report.
 */
unsigned int mutex_debug_max_chain = 1024;

/*
 * The blocked_on pointers of every task change under this one lock, and
 * the deadlock detector walks under it; an owner changes without it, but
 * only its own task stores it, before that task can block (see
 * mutex-debug-hooks.h), so the walk sees every owner that could close a
 * cycle. Reports are printed under it, and the walks of other tasks'
 * held lists take it first (then each list's held_locks_lock). It is a
 * raw arch lock.
 */
static arch_spinlock_t debug_lock = __ARCH_SPIN_LOCK_UNLOCKED;

static unsigned long debug_lock_irqsave(void)
{
	unsigned long flags = arch_local_irq_save();

	arch_spin_lock(&debug_lock);
	return flags;
}

static void debug_unlock_irqrestore(unsigned long flags)
{
	arch_spin_unlock(&debug_lock);
	arch_local_irq_restore(flags);
}

static void print_lock(struct mutex *lock)
{
	struct thread_info *owner = lock->owner;

	printk(" [%p] {%s}\n", lock, lock->name);
	if (owner) {
		printk(" .. held by:      %s/%d\n", owner->task->comm,
		       owner->task->pid);
		printk(" ... acquired at: %pS\n", (void *)lock->acquire_ip);
	} else {
		printk(" .. not held\n");
	}
}

static void print_held_locks(struct task_struct *p)
{
	unsigned long flags = held_list_lock_irqsave(p);
	struct mutex *lock;
	int n = 0;

	list_for_each_entry(lock, &p->held_locks, held_list) {
		printk(" #%d: [%p] {%s} acquired at %pS\n", n++, lock,
		       lock->name, (void *)lock->acquire_ip);
	}
	held_list_unlock_irqrestore(p, flags);
	if (!n)
		printk(" (no mutexes held)\n");
}

void mutex_debug_report_begin(enum mutex_bug kind)
{
	mutex_debug_reports[kind]++;
	report_mark_start();
	printk("\n=============================================\n");
	printk("%s\n", mutex_bug_title[kind]);
	printk("---------------------------------------------\n");
	printk("offending task: %s/%d on CPU %u\n", current->comm,
	       current->pid, smp_processor_id());
}

void mutex_debug_report_end(void)
{
	dump_stack();
	printk("=============================================\n");
	report_mark_end();
}

/* A report about one lock and the current task's use of it. */
static noinline void report_lock(enum mutex_bug kind, struct mutex *lock,
			unsigned long ip)
{
	unsigned long flags = debug_lock_irqsave();

	mutex_debug_report_begin(kind);
	print_lock(lock);
	printk(" ... used at:     %pS\n", (void *)ip);
	mutex_debug_report_end();
	debug_unlock_irqrestore(flags);
}

void mutex_debug_report_ww(enum mutex_bug kind, struct mutex *lock,
			   unsigned long ip, const char *ctx_line)
{
	unsigned long flags = debug_lock_irqsave();

	mutex_debug_report_begin(kind);
	if (lock)
		print_lock(lock);
	printk(" ... used at:     %pS\n", (void *)ip);
	printk("%s\n", ctx_line);
	printk("%s/%d holds:\n", current->comm, current->pid);
	print_held_locks(current);
	mutex_debug_report_end();
	debug_unlock_irqrestore(flags);
}

/*
 * A mutex not set up by the API: say so, then make it usable. Several
 * tasks may find the same bad mutex at once; debug_lock lets only the
 * first one repair it. By the time the others get here the mutex may be
 * in use, its held_list linked into the owner's list and its wait_list
 * holding sleepers: a second repair would cut them loose, so they only
 * look again.
 */
static noinline void repair(struct mutex *lock, unsigned long ip)
{
	unsigned long flags = debug_lock_irqsave();
	void *magic = READ_ONCE(lock->magic);

	if (magic != lock) {
		/* Its fields are garbage: print only where it is. */
		mutex_debug_report_begin(magic == MUTEX_DESTROYED ? MUTEX_BUG_DESTROYED :
			     MUTEX_BUG_UNINITIALIZED);
		printk(" [%p] (magic %p) used at: %pS\n", lock, magic,
		       (void *)ip);
		mutex_debug_report_end();
		atomic_set(&lock->count, 1);
		spin_lock_init(&lock->wait_lock);
		INIT_LIST_HEAD(&lock->wait_list);
		debug_mutex_init(lock, "(repaired)");
	}
	debug_unlock_irqrestore(flags);
}

bool __debug_mutex_enter(struct mutex *lock, bool may_sleep,
			 unsigned long ip)
{
	if (unlikely(in_interrupt())) {
		report_lock(MUTEX_BUG_IN_IRQ, lock, ip);
		return false;
	}
	if (unlikely(READ_ONCE(lock->magic) != lock))
		repair(lock, ip);
	/* Pairs with debug_mutex_init(): magic is stored last. */
	smp_rmb();
	current->mutex_caller = ip;
	if (may_sleep)
		might_sleep();
	return true;
}

/*
 * mutex_init() of a mutex that is already live. Held, or with waiters
 * (an unlock woke one that has not run yet), it is busy: re-initialising
 * it would unlock it under its owner or cut its waiters off the list they
 * sleep on. Refused, after a report. The fastpath takes the count without
 * wait_lock, so the check takes the count itself (1 -> 0): a free lock is
 * then ours until it is set up again, and its waiters are seen under
 * wait_lock.
 */
bool debug_mutex_reinit(struct mutex *lock, const char *name,
			unsigned long ip)
{
	bool taken, busy;

	if (READ_ONCE(lock->magic) != lock)
		return false;
	smp_rmb();
	spin_lock(&lock->wait_lock);
	taken = atomic_cmpxchg(&lock->count, 1, 0) == 1;
	busy = !taken || !list_empty(&lock->wait_list);
	if (!busy)
		debug_mutex_init(lock, name);
	if (taken)
		atomic_set(&lock->count, 1);
	spin_unlock(&lock->wait_lock);
	if (busy)
		report_lock(MUTEX_BUG_INIT_HELD, lock, ip);
	return true;
}

/* magic last: a task that sees it also sees the rest (smp_rmb above). */
void debug_mutex_init(struct mutex *lock, const char *name)
{
	lock->name = name ? name : "mutex";
	lock->owner = NULL;
	lock->acquire_ip = 0;
	INIT_LIST_HEAD(&lock->held_list);
	smp_wmb();
	WRITE_ONCE(lock->magic, lock);
}

void mutex_destroy(struct mutex *lock)
{
	if (lock->magic == lock && mutex_is_locked(lock)) {
		report_lock(MUTEX_BUG_DESTROY_HELD, lock, _RET_IP_);
		return;
	}
	lock->magic = MUTEX_DESTROYED;
}

/* ---- the deadlock detector ---- */

/*
 * A ww_mutex waiter that wound/wait tells to back off does not block for
 * good either: its next pass returns -EDEADLK (whoever told it so woke
 * it), and it releases what it holds. So a wound-wait cycle, closed for
 * the moment between a wound and the wounded task's wakeup, is no
 * deadlock.
 *
 * An interruptible waiter with a signal pending does not block for good:
 * it returns -EINTR on its next pass (schedule() does not even put it to
 * sleep), and its caller backs out, releasing what it holds. A cycle
 * through it breaks by itself and is not reported. If the caller retries
 * instead, it blocks again only once the signal is gone, and then the
 * detector runs for it afresh.
 */
static bool backing_out(struct task_struct *p, struct mutex_waiter *w)
{
	if (w->ww_ctx && ww_waiter_backs_off(container_of(w->lock,
						struct ww_mutex, base), w->ww_ctx))
		return true;
	return w->interruptible && signal_pending(p);
}

/* The lock that lock's owner waits for, unless it will stop waiting. */
static struct mutex *next_in_chain(struct mutex *lock)
{
	struct thread_info *owner = lock->owner;
	struct mutex_waiter *w;

	if (!owner)
		return NULL;
	w = owner->task->blocked_on;
	return w && !backing_out(owner->task, w) ? w->lock : NULL;
}

/* Each task of the cycle: what it waits for, what it holds, where it is. */
static void print_cycle(struct mutex *lock)
{
	struct thread_info *me = current_thread_info();
	struct mutex *l = lock;

	while (l->owner && l->owner != me) {
		struct task_struct *p = l->owner->task;

		printk("\n%s/%d holds it, and is blocked on:\n", p->comm, p->pid);
		print_lock(p->blocked_on->lock);
		printk("%s/%d holds:\n", p->comm, p->pid);
		print_held_locks(p);
		printk("%s/%d's stack:\n", p->comm, p->pid);
		show_stack(p);
		l = p->blocked_on->lock;
	}
}

static void report_deadlock(enum mutex_bug kind, struct mutex *lock,
			    unsigned long ip)
{
	mutex_debug_report_begin(kind);
	printk("%s/%d is trying to acquire this lock:\n", current->comm,
	       current->pid);
	print_lock(lock);
	printk(" ... trying at:   %pS\n", (void *)ip);
	if (kind == MUTEX_BUG_CIRCULAR)
		print_cycle(lock);
	printk("\n%s/%d holds:\n", current->comm, current->pid);
	print_held_locks(current);
	printk("%s/%d's stack:\n", current->comm, current->pid);
	mutex_debug_report_end();
}

/*
 * Has this cycle (from lock back to us) been reported already? Each task
 * waits for one lock and each lock has one owner, so a task is on at most
 * one cycle, and a cycle whose every waiter is marked is one reported
 * before: a member woken for nothing (a stray wake_up_process()) that went
 * back to sleep. A new cycle always has a waiter that blocked since, and
 * so is unmarked. Marks last for one lock attempt (debug_mutex_init_waiter).
 */
static bool cycle_reported(struct mutex *lock, bool mark)
{
	struct thread_info *me = current_thread_info();
	struct mutex_waiter *w = current->blocked_on;
	bool all = w->deadlock_reported;
	struct mutex *l = lock;

	w->deadlock_reported |= mark;
	while (l->owner && l->owner != me) {
		w = l->owner->task->blocked_on;
		all &= w->deadlock_reported;
		w->deadlock_reported |= mark;
		l = w->lock;
	}
	return all;
}

/*
 * Follow lock -> its owner -> the lock that owner is blocked on -> ... If
 * the chain comes back to us, blocking would never end. A cycle that does
 * not pass through us (we are joining a deadlock already reported) is
 * recognised by the slow pointer, which moves one link per two.
 */
static void check_deadlock(struct mutex *lock, unsigned long ip)
{
	struct thread_info *me = current_thread_info();
	struct mutex *l = lock, *slow = lock;
	unsigned int depth = 0;

	if (backing_out(current, current->blocked_on))
		return;
	/* LAB 7 BEGIN: the chain walk */
	while (l) {
		if (l->owner == me) {
			if (cycle_reported(lock, false))
				return;
			report_deadlock(depth ? MUTEX_BUG_CIRCULAR :
					MUTEX_BUG_RECURSION, lock, ip);
			cycle_reported(lock, true);
			return;
		}
		if (++depth > mutex_debug_max_chain) {
			report_deadlock(MUTEX_BUG_CHAIN_TOO_LONG, lock, ip);
			return;
		}
		/* l is now link number depth, slow link number depth / 2 */
		l = next_in_chain(l);
		if (!(depth & 1))
			slow = next_in_chain(slow);
		if (l && l == slow)
			return;
	}
	/* LAB 7 STUB: Walk lock -> owner -> the lock the owner is
	 * blocked on, and report a cycle through us (MUTEX_BUG_CIRCULAR) or a
	 * chain too long (MUTEX_BUG_CHAIN_TOO_LONG). This finds only
	 * recursion, a chain of one link.
	 *|	if (l->owner == me) {
	 *|		if (!cycle_reported(lock, false))
	 *|			report_deadlock(MUTEX_BUG_RECURSION, lock, ip);
	 *|		cycle_reported(lock, true);
	 *|	}
	 *|	(void)slow;
	 *|	(void)depth;
	 *|	(void)next_in_chain;
	 * LAB 7 END */
}

void debug_mutex_init_waiter(struct mutex_waiter *waiter, long state)
{
	waiter->ww_ctx = NULL;
	waiter->deadlock_reported = false;
	waiter->interruptible = state == TASK_INTERRUPTIBLE;
}

struct mutex *mutex_debug_preempt_waiters_of;

void debug_mutex_add_waiter(struct mutex *lock, struct mutex_waiter *waiter,
			    struct thread_info *ti)
{
	unsigned long flags = debug_lock_irqsave();

	waiter->magic = waiter;
	waiter->lock = lock;
	ti->task->blocked_on = waiter;
	check_deadlock(lock, current->mutex_caller);
	debug_unlock_irqrestore(flags);
	if (READ_ONCE(mutex_debug_preempt_waiters_of) == lock)
		set_ti_thread_flag(ti, TIF_NEED_RESCHED);
}

void debug_mutex_remove_waiter(struct mutex *lock,
			       struct mutex_waiter *waiter,
			       struct thread_info *ti)
{
	unsigned long flags = debug_lock_irqsave();

	WARN_ON(waiter->magic != waiter || waiter->lock != lock);
	WARN_ON(ti->task->blocked_on != waiter);
	ti->task->blocked_on = NULL;
	debug_unlock_irqrestore(flags);
}

/* ---- ownership ---- */

void debug_mutex_bad_unlock(struct mutex *lock)
{
	report_lock(READ_ONCE(lock->owner) ? MUTEX_BUG_NOT_OWNER :
		    MUTEX_BUG_DOUBLE_UNLOCK, lock, current->mutex_caller);
}

/* ---- tasks and memory ---- */

/*
 * A task that exits holding mutexes would leave them locked for ever:
 * report them, then release them so that their waiters can go on.
 */
void mutex_debug_check_no_locks_held(struct task_struct *task)
{
	unsigned long flags;
	struct mutex *lock;

	if (list_empty(&task->held_locks))
		return;
	flags = debug_lock_irqsave();
	mutex_debug_report_begin(MUTEX_BUG_EXIT_HELD);
	print_held_locks(task);
	mutex_debug_report_end();
	debug_unlock_irqrestore(flags);

	while (!list_empty(&task->held_locks)) {
		lock = list_first_entry(&task->held_locks, struct mutex,
					held_list);
		spin_lock(&lock->wait_lock);
		debug_mutex_clear_owner(lock);
		atomic_set(&lock->count, 1);
		if (!list_empty(&lock->wait_list))
			wake_up_process(list_first_entry(&lock->wait_list,
				struct mutex_waiter, list)->ti->task);
		spin_unlock(&lock->wait_lock);
	}
}

static bool inside(const void *p, const void *from, unsigned long len)
{
	return (const char *)p >= (const char *)from &&
	       (const char *)p < (const char *)from + len;
}

/* Before memory is freed: no held mutex may live in it. */
void mutex_debug_check_no_locks_freed(const void *from, unsigned long len)
{
	struct task_struct *p;
	struct mutex *lock, *next;
	unsigned long flags, dflags;

	spin_lock_irqsave(&task_list_lock, flags);
	dflags = debug_lock_irqsave();
	list_for_each_entry(p, &task_list, tasks) {
		arch_spin_lock(&p->held_locks_lock);
		list_for_each_entry_safe(lock, next, &p->held_locks, held_list) {
			if (!inside(lock, from, len))
				continue;
			mutex_debug_report_begin(MUTEX_BUG_FREE_HELD);
			printk("freeing [%p, %p), which holds:\n", from,
			       (const char *)from + len);
			print_lock(lock);
			mutex_debug_report_end();
			/* The memory is going: forget the lock. */
			list_del_init(&lock->held_list);
			WRITE_ONCE(lock->owner, NULL);
		}
		arch_spin_unlock(&p->held_locks_lock);
	}
	debug_unlock_irqrestore(dflags);
	spin_unlock_irqrestore(&task_list_lock, flags);
}

/* ---- showing the state of all locks ---- */

unsigned long mutex_debug_task_list_lock(void)
{
	return debug_lock_irqsave();
}

void mutex_debug_task_list_unlock(unsigned long flags)
{
	debug_unlock_irqrestore(flags);
}

void mutex_debug_show_held_locks(struct task_struct *task)
{
	unsigned long flags = debug_lock_irqsave();

	printk("locks held by %s/%d:\n", task->comm, task->pid);
	print_held_locks(task);
	debug_unlock_irqrestore(flags);
}

/*
 * Under debug_lock: the waiter lives on the task's stack and is gone once
 * the task stops waiting. A lock's name is a string that outlives it.
 */
const char *mutex_debug_blocked_on(struct task_struct *task)
{
	unsigned long flags = debug_lock_irqsave();
	const char *name = task->blocked_on ? task->blocked_on->lock->name :
					      NULL;

	debug_unlock_irqrestore(flags);
	return name;
}

static void show_task_locks(struct task_struct *p)
{
	printk("%c %s/%d", task_state_char(p), p->comm, p->pid);
	if (p->blocked_on) {
		printk(" blocked on mutex:");
		print_lock(p->blocked_on->lock);
	} else {
		printk(" (not blocked on a mutex)\n");
	}
}

/* About half a second in all: long enough for a holder on another CPU. */
#define SHOW_TRIES		10
#define SHOW_RETRY_MS		50

/*
 * The caller may already hold task_list_lock (a watchdog walking the
 * tasks, a report), and waiting for it would then be waiting for
 * ourselves. So only try it, a few times in case another CPU holds it
 * for a moment, then go on without it and say so: a hung CPU and no dump
 * would be worse. The walk is safe all the same: it holds debug_lock,
 * which every change of task_list takes too (mutex_debug_task_list_lock),
 * so no task it stands on is unlinked, its next poisoned, and freed.
 */
static bool task_list_trylock(unsigned long *flags)
{
	for (int i = 0; i < SHOW_TRIES; i++) {
		local_irq_save(*flags);
		if (spin_trylock(&task_list_lock))
			return true;
		local_irq_restore(*flags);
		if (!i)
			printk("task list lock busy, retrying...\n");
		mdelay(SHOW_RETRY_MS);
	}
	printk("task list lock still busy: showing the tasks without it\n");
	local_irq_save(*flags);
	return false;
}

void mutex_debug_show_all_locks(void)
{
	struct task_struct *p;
	unsigned long flags, dflags;
	struct mutex *lock;
	bool locked;

	printk("\nShowing all tasks and the mutexes they wait for:\n");
	locked = task_list_trylock(&flags);
	dflags = debug_lock_irqsave();
	list_for_each_entry(p, &task_list, tasks)
		show_task_locks(p);
	printk("\nShowing all held mutexes:\n");
	list_for_each_entry(p, &task_list, tasks) {
		arch_spin_lock(&p->held_locks_lock);
		list_for_each_entry(lock, &p->held_locks, held_list)
			print_lock(lock);
		arch_spin_unlock(&p->held_locks_lock);
	}
	printk("=============================================\n");
	debug_unlock_irqrestore(dflags);
	if (locked)
		spin_unlock(&task_list_lock);
	local_irq_restore(flags);
}
