// SPDX-License-Identifier: GPL-2.0
/*
 * Spinlocks: preemption off, then the arch's ticket lock (SMP only). With
 * CONFIG_DEBUG_SPINLOCK each lock records its owner, and misuse is reported
 * instead of hanging or corrupting: recursion on the same CPU, unlocking a
 * lock that is not held or is held by another CPU, a lock that was never
 * initialised, and a lockup (spinning far longer than any sane hold time),
 * with the owner CPU's backtrace as well as ours. With
 * CONFIG_PROVE_LOCKING every acquisition and release also goes to the
 * lock-order validator (kernel/locking/lockdep.c).
 */
#include <kernel.h>
#include <spinlock.h>
#include <sched.h>
#include <smp.h>
#include <time.h>
#include <arch.h>
#include <kgdb.h>

#ifdef CONFIG_DEBUG_SPINLOCK
struct spin_debug_stats spin_debug_stats;

/*
 * Spinning longer than this is reported. Generous, because an emulated
 * CPU may stall for long; a test lowers it to provoke the report.
 */
u64 spin_lockup_ns = 20 * NSEC_PER_SEC;

spinlock_t *spin_debug_preempt_at_unlock;

static void spin_report(spinlock_t *lock, const char *what)
{
	struct task_struct *owner = READ_ONCE(lock->owner);

	report_mark_start();
	printk("BUG: spinlock %s on CPU#%u, %s/%d\n", what, smp_processor_id(),
	       current ? current->comm : "?", current ? current->pid : -1);
	printk(" lock: %s (%p), .magic: %08x, .owner: %s/%d, .owner_cpu: %d\n",
	       lock->name ? lock->name : "?", lock, lock->magic,
	       owner ? owner->comm : "<none>", owner ? owner->pid : -1,
	       lock->owner_cpu);
	if (lock->taken_at)
		printk(" taken at: %pS\n", (void *)lock->taken_at);
	dump_stack();
	report_mark_end();
}

static bool spin_check_magic(spinlock_t *lock)
{
	if (likely(lock->magic == SPINLOCK_MAGIC))
		return true;
	spin_debug_stats.bad_magic++;
	spin_report(lock, "bad magic");
	return false;
}

static void spin_set_owner(spinlock_t *lock, unsigned long ip)
{
	lock->owner_cpu = smp_processor_id();
	lock->owner = current;
	lock->taken_at = ip;
}

#ifdef CONFIG_SMP
/* Only another CPU can hold a lock this long: a UP kernel never spins. */
static void spin_lockup(spinlock_t *lock)
{
	int cpu = READ_ONCE(lock->owner_cpu);

	spin_debug_stats.lockup++;
	spin_report(lock, "lockup suspected");
	if (cpu >= 0 && cpu != (int)smp_processor_id())
		arch_send_ipi(cpu, IPI_BACKTRACE);
}
#endif

/*
 * The spin's clock starts again after a stop for gdb: the holder may be
 * the CPU stopped in the stub, and this one may have been parked there
 * or have missed the stop (interrupts off). gdb's time is no lockup. The
 * time is read before the look at the stops, and the new start after
 * it, so that a stop that comes between the two (this CPU parked by the
 * IPI there) is never counted; a park that comes after a look that saw
 * the stop begin is seen by the stop's end.
 */
static void debug_spin_lock(spinlock_t *lock, unsigned long ip)
{
#ifdef CONFIG_SMP
	u64 start = 0, now;
	unsigned long stop_edges = 0;
	bool reported = false;

	while (!arch_spin_trylock(&lock->raw)) {
		now = ktime_get_ns();
		if (!start) {
			__atomic_fetch_add(&lock->contended, 1,
					   __ATOMIC_RELAXED);
			lock_contended(&lock->dep_map);
		}
		if (kgdb_stopped_since(&stop_edges) || !start) {
			start = ktime_get_ns();
		} else if (!reported && now - start > spin_lockup_ns) {
			spin_lockup(lock);
			reported = true;
		}
		cpu_relax();
	}
#endif
	spin_set_owner(lock, ip);
}

/* The validator refuses to re-initialise a lock its caller holds. */
void __spin_lock_init(spinlock_t *lock, const char *name, const char *key)
{
	if (!lockdep_may_reinit(&lock->dep_map, _RET_IP_))
		return;
	*lock = __SPIN_LOCK_UNLOCKED(lock);
	lock->name = name;
	lockdep_init_map(&lock->dep_map, key);
}

static void __spin_lock(spinlock_t *lock, unsigned int subclass,
			unsigned long ip)
{
	preempt_disable();
	if (!spin_check_magic(lock))
		return;
	if (unlikely(lock->owner == current && current &&
		     lock->owner_cpu == (int)smp_processor_id())) {
		/* Taking it would hang this CPU for good: report, go on. */
		spin_debug_stats.recursion++;
		spin_report(lock, "recursion");
		preempt_enable_no_resched();
		return;
	}
	/* Before spinning: a deadlock is reported before it happens. */
	lock_acquire(&lock->dep_map, subclass, false, ip);
	debug_spin_lock(lock, ip);
	lock_acquired(&lock->dep_map);
	/* Only the holder of lock can find it here: no other taker races. */
	if (unlikely(READ_ONCE(spin_debug_preempt_at_unlock) == lock)) {
		WRITE_ONCE(spin_debug_preempt_at_unlock, NULL);
		set_thread_flag(TIF_NEED_RESCHED);
	}
}

void _spin_lock(spinlock_t *lock)
{
	__spin_lock(lock, 0, _RET_IP_);
}

#ifdef CONFIG_PROVE_LOCKING
void _spin_lock_nested(spinlock_t *lock, unsigned int subclass)
{
	__spin_lock(lock, subclass, _RET_IP_);
}
#endif

/*
 * Lets go of the lock, and says whether the preemption its lock disabled
 * is the caller's to enable again: the unlocks do that last.
 */
static bool spin_release(spinlock_t *lock, unsigned long ip)
{
	if (!spin_check_magic(lock))
		return true;
	lock_release(&lock->dep_map, ip);
	if (unlikely(lock->owner_cpu < 0)) {
		/* Nobody took it, so nobody disabled preemption for it. */
		spin_debug_stats.bad_unlock++;
		spin_report(lock, "already unlocked");
		return false;
	}
	if (unlikely(lock->owner_cpu != (int)smp_processor_id() ||
		     lock->owner != current)) {
		spin_debug_stats.bad_unlock++;
		spin_report(lock, "wrong owner");
	}
	lock->owner_cpu = -1;
	lock->owner = NULL;
	lock->taken_at = 0;
#ifdef CONFIG_SMP
	arch_spin_unlock(&lock->raw);
#endif
	return true;
}

int spin_is_locked(spinlock_t *lock)
{
	return lock->owner_cpu >= 0;
}

/* Where data is only ever touched under lock: a race QEMU seldom shows. */
void spin_assert_held(spinlock_t *lock)
{
	if (unlikely(READ_ONCE(lock->owner) != current))
		spin_report(lock, "not held where it must be");
}

#else /* !CONFIG_DEBUG_SPINLOCK */

#define spin_set_owner(lock, ip)	do { } while (0)

void __spin_lock_init(spinlock_t *lock, const char *name, const char *key)
{
	*lock = __SPIN_LOCK_UNLOCKED(lock);
}

void _spin_lock(spinlock_t *lock)
{
	preempt_disable();
#ifdef CONFIG_SMP
	arch_spin_lock(&lock->raw);
#endif
}

static bool spin_release(spinlock_t *lock, unsigned long ip)
{
#ifdef CONFIG_SMP
	arch_spin_unlock(&lock->raw);
#endif
	return true;
}

int spin_is_locked(spinlock_t *lock)
{
#ifdef CONFIG_SMP
	return arch_spin_is_locked(&lock->raw);
#else
	/* A UP spinlock has no state: only preemption is turned off. */
	return 0;
#endif
}

#endif

void _spin_unlock(spinlock_t *lock)
{
	if (spin_release(lock, _RET_IP_))
		preempt_enable();
}

/*
 * Interrupts on first, then preemption (include/spinlock.h). The lock's
 * memory is not touched after its release: the task that a wakeup under
 * it let go may free it at once (a completion on a stack).
 */
void _spin_unlock_irqrestore(spinlock_t *lock, unsigned long flags)
{
	bool enable = spin_release(lock, _RET_IP_);

	arch_local_irq_restore(flags);
	if (enable)
		preempt_enable();
}

void _spin_unlock_irq(spinlock_t *lock)
{
	bool enable = spin_release(lock, _RET_IP_);

	arch_local_irq_enable();
	if (enable)
		preempt_enable();
}

static bool spin_try_raw(spinlock_t *lock)
{
#ifdef CONFIG_SMP
	return arch_spin_trylock(&lock->raw);
#else
	/*
	 * No lock word on UP, but the debug build knows the owner: there a
	 * trylock of a held lock fails, as on SMP, so that code that backs
	 * off a held lock (show_all_locks) does not take it twice.
	 */
	return !spin_is_locked(lock);
#endif
}

int _spin_trylock(spinlock_t *lock)
{
	preempt_disable();
	if (!spin_try_raw(lock)) {
		preempt_enable();
		return 0;
	}
	spin_set_owner(lock, _RET_IP_);
	lock_acquire(&lock->dep_map, 0, true, _RET_IP_);
	return 1;
}
