/*
 * mutex.pml - a Promela model of the MutexOS mutex.
 *
 * Mirrors kernel/locking/mutex.c, include/mutex.h, the
 * fastpaths in include/asm-generic/mutex-{dec,xchg,null}.h and
 * arch/{x86,arm}/include/asm/mutex.h, and the sleep/wakeup of
 * kernel/sched/sched.c and kernel/sched/signal.c.
 *
 * One mutex, NTASKS = 3 tasks, each doing NCYCLES lock/unlock cycles:
 *   task 0: mutex_lock()                    (TASK_UNINTERRUPTIBLE)
 *   task 1: mutex_lock_interruptible()      (TASK_INTERRUPTIBLE)
 *   task 2: mutex_trylock(); when that fails, mutex_lock_interruptible()
 * and a "signaller" that sends up to NSIGNALS signals to task 1 or 2 at any
 * moment (send_sig()).
 *
 * Every task may run at every step: the model is a machine with one CPU
 * per task, and a task being preempted is just a task not taking a step.
 * Memory is sequentially consistent. docs/mutex-design.md says what
 * the model proves and what it abstracts.
 *
 * Build-time switches (spin -D...):
 *   FASTPATH=DEC | XCHG | NULL     which fastpath (X86 and ARM = DEC)
 *   NCYCLES=n, NSIGNALS=n          bounds (default 2 and 1)
 *   LTL                            add the liveness formula "all_done"
 *   EINTR_WAKE                     add back the wakeup that the -EINTR
 *                                  exit once did (docs/mutex-design.md:
 *                                  it was never needed)
 *   SET_ONE_AFTER_WAKE             unlock slowpath: set count to 1 after
 *                                  the wakeup, still under wait_lock
 *                                  (harmless: it passes)
 *   BUG_...                        deliberate bugs, see "Deliberate bugs"
 *   EINTR_PROBE=1|2|3              claims about the -EINTR wakeup, for
 *                                  spin to refute (docs/mutex-design.md):
 *                                  1 it never finds its waiter asleep;
 *                                  2 the waiter it woke never gets the
 *                                    lock on its next pass; 3 it always does
 *   REQUEUE_PROBE                  claim that a waiter requeued at the
 *                                  head had left from the head (it need
 *                                  not have: docs/mutex-design.md)
 *   ONLY_MUTEX                     keep only the assert of property (1),
 *                                  so that pan -E stops at the first
 *                                  violation of mutual exclusion
 */

/* ------------------------------------------------------------------ */
/* Configuration                                                       */
/* ------------------------------------------------------------------ */

#define DEC	1	/* asm-generic/mutex-dec.h  */
#define XCHG	2	/* asm-generic/mutex-xchg.h */
#define NULL	3	/* asm-generic/mutex-null.h */
/*
 * The native fastpaths have the dec semantics exactly:
 *  - x86 "lock decl; js" is atomic_dec_return() < 0, "lock incl; jle" is
 *    atomic_inc_return() <= 0, needs_to_unlock is 1, trylock is
 *    cmpxchg(1, 0);
 *  - ARM "ldrex; sub; strex; bne 1b" is one atomic decrement returning the
 *    new value (likewise "add" for unlock), the rest as x86.
 * The barriers (dmb, the lock prefix) matter only for a weaker memory
 * model than this one, which is sequentially consistent.
 */
#define X86	DEC
#define ARM	DEC

#ifndef FASTPATH
#define FASTPATH DEC
#endif
#if FASTPATH != DEC && FASTPATH != XCHG && FASTPATH != NULL
#error "FASTPATH must be DEC, XCHG, NULL, X86 or ARM"
#endif

#define NTASKS	3
#ifndef NCYCLES
#define NCYCLES	2
#endif
#ifndef NSIGNALS
#define NSIGNALS 1
#endif

/* include/sched.h */
#define TASK_RUNNING		0
#define TASK_INTERRUPTIBLE	1
#define TASK_UNINTERRUPTIBLE	2
/* include/errno.h */
#define EINTR			4

/*
 * __mutex_slowpath_needs_to_unlock(): after a failed unlock fastpath, does
 * the slowpath have to store the 1?  dec (and x86, ARM): the increment
 * went -1 -> 0, still "locked", so yes.  xchg: the swap already stored 1.
 * null: nothing touched count, so yes.
 */
#if FASTPATH == XCHG
#define SLOWPATH_NEEDS_TO_UNLOCK	0
#else
#define SLOWPATH_NEEDS_TO_UNLOCK	1
#endif

/*
 * Deliberate bugs.  Each one must make scripts/verify-model.sh find it.
 *
 * BUG_NO_WAKE             __mutex_unlock_slowpath() does not wake the
 *                         first waiter.                     -> (2) fails
 * BUG_STATE_AFTER_UNLOCK  __mutex_lock_common() sets the task state after
 *                         releasing wait_lock instead of before: the
 *                         classic lost wakeup.              -> (2) fails
 * BUG_NO_XCHG_REPASS      on the passes after a wakeup the slowpath takes
 *                         the lock with cmpxchg(1 -> -1) instead of
 *                         xchg(-1), so a failed pass does not mark the
 *                         lock contended.                   -> (2) fails
 * BUG_SET_ONE_AFTER_UNLOCK  __mutex_unlock_slowpath() stores the 1 after
 *                         the wakeup and after releasing wait_lock
 *                         (dec, null only).                 -> (2) fails
 * BUG_NONATOMIC_XCHG      the slowpath's xchg(-1) is a plain read then a
 *                         plain write ("wait_lock protects it") - but the
 *                         fastpaths do not take wait_lock.  -> (1) fails
 *                         for dec and xchg; passes for null, where every
 *                         access to count is under wait_lock.
 * BUG_XCHG_TEST           the slowpath treats any old value but -1 as
 *                         "free" (old != -1 instead of old == 1).
 *                                                           -> (1) fails
 * BUG_NEEDS_UNLOCK_0      __mutex_slowpath_needs_to_unlock() is 0 with a
 *                         fastpath that needs 1 (dec, null): after a
 *                         contended unlock count stays 0.   -> (3) fails
 */
#ifdef BUG_NEEDS_UNLOCK_0
#undef SLOWPATH_NEEDS_TO_UNLOCK
#define SLOWPATH_NEEDS_TO_UNLOCK	0
#endif

/* ------------------------------------------------------------------ */
/* State: struct mutex, the tasks, and ghost variables                 */
/* ------------------------------------------------------------------ */

/* struct mutex (include/mutex.h) */
short count = 1;		/* atomic_t count: 1 free, 0 locked, <0 waiters */
bit   wait_lock = 0;		/* spinlock_t wait_lock: 1 while held */
byte  wait_list[NTASKS];	/* the waiters' task ids; [0] is the first */
byte  nwait = 0;		/* length of wait_list; list_empty() is nwait==0 */

/* struct task_struct, the parts the mutex uses (include/sched.h) */
byte  state[NTASKS];		/* ->state, all TASK_RUNNING at start */
bit   sig_pending[NTASKS];	/* ->pending != 0, i.e. signal_pending() */

/* Ghost variables: not in the C code, only for the properties. */
byte  in_cs = 0;		/* tasks inside the critical section */
byte  ndone = 0;		/* tasks that finished all their cycles */
#ifdef EINTR_PROBE
byte  eintr_woken = 0;		/* 1 + the task the -EINTR exit woke from sleep */
#endif
#ifdef REQUEUE_PROBE
bit   left_from_head[NTASKS];	/* the task was first when it left the list */
#endif

#ifdef LTL
/* (2) as liveness: on every run, every task finishes. */
ltl all_done { <> (ndone == NTASKS) }
#endif

/* ------------------------------------------------------------------ */
/* The primitives                                                      */
/* ------------------------------------------------------------------ */

/*
 * How the steps are cut.  Everything inside one "d_step { }" is one atomic
 * step of the model; between two steps any other task (or the signaller)
 * may run.  The C statements are grouped into steps like this:
 *  - an operation on count is one step (it is one atomic instruction);
 *  - spin_lock() is joined to the step that follows it, spin_unlock() to
 *    the step that precedes it, and the wait_list operations to either:
 *    nobody else can touch wait_list or take wait_lock in between, so no
 *    other task can observe the difference (Lipton's reduction: acquiring
 *    a lock is a right mover, releasing it a left mover, accesses to data
 *    the lock protects are both; see docs/mutex-design.md);
 *  - never two accesses to count, or to count and a task's state, in one
 *    step: between those the fastpaths, the signaller and schedule() can
 *    run, and the model lets them.
 * The inlines below therefore contain no d_step of their own: the caller
 * puts them in one.
 */

/* spin_lock(&lock->wait_lock): only as the first statement of a d_step
 * (a d_step may block only there), so test and set are one step. */
inline spin_lock()
{
	wait_lock == 0 -> wait_lock = 1
}

/* spin_unlock(&lock->wait_lock) */
inline spin_unlock()
{
	wait_lock = 0
}

/* list_add_tail(&waiter->list, &lock->wait_list): at the tail, FIFO.
 * The asserts check the list itself: no task twice, never more than
 * NTASKS waiters. */
inline list_add_tail(t)
{
	i = 0;
	do
	:: i < nwait -> assert(wait_list[i] != t); i++
	:: else -> break
	od;
	assert(nwait < NTASKS);
	wait_list[nwait] = t;
	nwait++;
	i = 0
}

/* list_add(&waiter->list, &lock->wait_list): at the head, LIFO */
inline list_add(t)
{
	i = 0;
	do
	:: i < nwait -> assert(wait_list[i] != t); i++
	:: else -> break
	od;
	assert(nwait < NTASKS);
	i = nwait;
	do
	:: i > 0 -> wait_list[i] = wait_list[i - 1]; i--
	:: else -> break
	od;
	wait_list[0] = t;
	nwait++
}

/* list_del(&waiter.list): the waiter may be anywhere in the list */
inline list_del(t)
{
	i = 0;
	do
	:: i < nwait && wait_list[i] != t -> i++
	:: else -> break
	od;
	assert(i < nwait);			/* it was on the list */
#ifdef REQUEUE_PROBE
	left_from_head[t] = (i == 0);
#endif
	do
	:: i + 1 < nwait -> wait_list[i] = wait_list[i + 1]; i++
	:: else -> break
	od;
	nwait--;
	wait_list[nwait] = 0;			/* keep unused slots canonical */
	i = 0
}

/* wake_up_process(p) = wake_up_state(p, TASK_NORMAL) (sched.c): under
 * rq_lock, a sleeping state becomes TASK_RUNNING; on a task that is
 * already running it does nothing. */
inline wake_up_process(t)
{
	state[t] = TASK_RUNNING
}

/* wake_first_waiter(lock) (mutex.c): wake the task at the list head */
inline wake_first_waiter()
{
	wake_up_process(wait_list[0])
}

/*
 * schedule() (sched.c, __schedule): under rq_lock, a task whose state is
 * not TASK_RUNNING leaves the run queue - unless it sleeps interruptibly
 * with a signal pending, then it is set running again - and it runs again
 * only after a wake_up_state() has set it TASK_RUNNING.  Both are one
 * guarded step here: the task blocks until the guard holds.  A wakeup that
 * comes between __set_task_state() and schedule() has already set
 * TASK_RUNNING, so the guard holds at once: that wakeup is not lost.
 * (A preemption in between changes nothing either: PREEMPT_ACTIVE keeps
 * the task on the run queue, docs/scheduler.md.)  A task blocked here
 * when all the others have finished is an invalid end state: a stranded
 * waiter.
 */
inline schedule()
{
	d_step {
		state[me] == TASK_RUNNING ||
		(state[me] == TASK_INTERRUPTIBLE && sig_pending[me]) ->
		state[me] = TASK_RUNNING
	}
}

/* send_sig(sig, p, 0) (signal.c): set the pending bit, then, as a
 * separate step, wake_up_state(p, TASK_INTERRUPTIBLE).  Two steps, so that
 * a late wake_up_state() can also be a spurious wakeup of a later sleep. */
inline send_sig(t)
{
	sig_pending[t] = 1;
	d_step {
		if
		:: state[t] == TASK_INTERRUPTIBLE -> state[t] = TASK_RUNNING
		:: else -> skip
		fi
	}
}

/* ------------------------------------------------------------------ */
/* The slowpaths: kernel/locking/mutex.c                               */
/* ------------------------------------------------------------------ */

/*
 * __mutex_lock_common(lock, state, ip)
 *   tstate: TASK_UNINTERRUPTIBLE (from __mutex_lock_slowpath) or
 *           TASK_INTERRUPTIBLE (from __mutex_lock_interruptible_slowpath)
 *   ret:    set to 0 (lock held) or EINTR
 * "requeue" is the C variable of the same name; "old" is what
 * atomic_xchg() returned.
 *
 * In C the loop is
 *     spin_lock; for (;;) { xchg; ...; schedule; spin_lock; list_del; }
 * Here the spin_lock (and, after a wakeup, the list_del) sits at the top
 * of the loop, in one step with the xchg: the same statements in the same
 * order.
 */
inline __mutex_lock_common(tstate, ret)
{
	requeue = 0;				/* bool requeue = false; */
	do					/* for (;;) { */
	::
		d_step {
			spin_lock();		/*   spin_lock(&lock->wait_lock); */
			if			/*   (after a wakeup:)            */
			:: requeue -> list_del(me)	/* list_del(&waiter.list); */
			:: else -> skip
			fi;
#if defined(BUG_NONATOMIC_XCHG)
			old = count		/*   (bug) read ...               */
		};
		count = -1;			/*   (bug) ... then write, 2 steps */
#elif defined(BUG_NO_XCHG_REPASS)
			if
			:: requeue == 0 ->	/*   first pass: atomic_xchg      */
				old = count; count = -1
			:: else ->		/*   (bug) later: cmpxchg(1, -1)  */
				old = count;
				if
				:: count == 1 -> count = -1
				:: else -> skip
				fi
			fi
		};
#else
			old = count;		/*   atomic_xchg(&lock->count, -1) */
			count = -1;
#ifdef EINTR_PROBE
			if			/*   (probe: woken by an -EINTR exit?) */
			:: eintr_woken == me + 1 ->
#if EINTR_PROBE == 2
				assert(old != 1);
#elif EINTR_PROBE == 3
				assert(old == 1);
#endif
				eintr_woken = 0
			:: else -> skip
			fi;
#endif
			skip
		};
#endif
		if
#ifdef BUG_XCHG_TEST
		:: old != -1 -> break		/*   (bug) if (xchg != -1) break; */
#else
		:: old == 1 -> break		/*   if (xchg == 1) break;        */
#endif
		:: else -> skip
		fi;
		if				/*   if (state == TASK_INTERRUPTIBLE && */
		:: tstate == TASK_INTERRUPTIBLE && sig_pending[me] ->
			break			/*       signal_pending(task)) goto interrupted; */
		:: else -> skip
		fi;
		d_step {
			if			/*   queue_waiter(lock, &waiter, requeue): */
			:: requeue ->
#ifdef REQUEUE_PROBE
				/* probe: "a requeued waiter has waited
				 * longest", i.e. it left from the head */
				assert(nwait == 0 || left_from_head[me]);
#endif
				list_add(me)	/* list_add(): head, LIFO */
			:: else -> list_add_tail(me)	/* list_add_tail(): FIFO */
			fi;
#ifndef BUG_STATE_AFTER_UNLOCK
			state[me] = tstate;	/*   __set_task_state(task, state); */
			spin_unlock()		/*   spin_unlock(&lock->wait_lock); */
		};
#else
			spin_unlock()		/*   (bug) spin_unlock first ...  */
		};
		state[me] = tstate;		/*   (bug) ... then set the state */
#endif
		schedule();			/*   schedule();                  */
		requeue = 1			/*   requeue = true;              */
	od;					/* }                              */
	if
#ifdef BUG_XCHG_TEST
	:: old != -1 ->
#else
	:: old == 1 ->				/* (out of the loop by the break: ours) */
#endif
		d_step {
			assert(state[me] == TASK_RUNNING);	/* (we return running) */
			if			/* if (list_empty(&lock->wait_list)) */
			:: nwait == 0 -> count = 0	/* atomic_set(&lock->count, 0); */
			:: else -> skip
			fi;
			spin_unlock()		/* spin_unlock(&lock->wait_lock); */
		};
		ret = 0				/* return 0;                      */
	:: else ->				/* interrupted:                   */
		d_step {
			/* Already running here, on every path: no
			 * __set_task_state(TASK_RUNNING) is needed. */
			assert(state[me] == TASK_RUNNING);
			/* And not on the list: the signal check comes before
			 * queue_waiter() on the first pass and after list_del()
			 * on the others, so there is nothing to remove here. */
			i = 0;
			do
			:: i < nwait -> assert(wait_list[i] != me); i++
			:: else -> break
			od;
			i = 0;
#ifdef EINTR_PROBE
			if
			:: nwait > 0 && state[wait_list[0]] != TASK_RUNNING ->
#if EINTR_PROBE == 1
				assert(nwait == 0 || state[wait_list[0]] == TASK_RUNNING);
#endif
				eintr_woken = wait_list[0] + 1
			:: else -> skip
			fi;
#endif
#ifdef EINTR_WAKE
			if			/* (the old wakeup, now gone)  */
			:: nwait > 0 -> wake_first_waiter()
			:: else -> skip
			fi;
#endif
			spin_unlock()		/* spin_unlock(&lock->wait_lock); */
		};
		ret = EINTR			/* return -EINTR;                 */
	fi;
	old = 0;				/* (scratch variables back to 0, */
	requeue = 0				/*  so that fewer states differ) */
}

/* __mutex_unlock_slowpath(count) */
inline __mutex_unlock_slowpath()
{
#if !SLOWPATH_NEEDS_TO_UNLOCK
	d_step {
		spin_lock();			/* spin_lock(&lock->wait_lock); */
					/* (__mutex_slowpath_needs_to_unlock() is 0) */
#ifndef BUG_NO_WAKE
		if			/* if (!list_empty(&lock->wait_list)) */
		:: nwait > 0 -> wake_first_waiter()	/* wake_first_waiter(lock); */
		:: else -> skip
		fi;
#endif
		spin_unlock()			/* spin_unlock(&lock->wait_lock); */
	}
#elif defined(SET_ONE_AFTER_WAKE)
	d_step {
		spin_lock();			/* spin_lock(&lock->wait_lock); */
		if			/* if (!list_empty(&lock->wait_list)) */
		:: nwait > 0 -> wake_first_waiter()	/* wake_first_waiter(lock); */
		:: else -> skip
		fi
	};
	d_step {
		count = 1;			/* (variant) atomic_set(&lock->count, 1); */
		spin_unlock()			/* spin_unlock(&lock->wait_lock); */
	}
#elif defined(BUG_SET_ONE_AFTER_UNLOCK)
	d_step {
		spin_lock();			/* spin_lock(&lock->wait_lock); */
		if			/* if (!list_empty(&lock->wait_list)) */
		:: nwait > 0 -> wake_first_waiter()	/* wake_first_waiter(lock); */
		:: else -> skip
		fi;
		spin_unlock()			/* spin_unlock(&lock->wait_lock); */
	};
	count = 1				/* (bug) atomic_set(&lock->count, 1); */
#else
	d_step {
		spin_lock();			/* spin_lock(&lock->wait_lock); */
		count = 1			/* if (__mutex_slowpath_needs_to_unlock()) */
	};					/*   atomic_set(&lock->count, 1); */
	d_step {
#ifndef BUG_NO_WAKE
		if			/* if (!list_empty(&lock->wait_list)) */
		:: nwait > 0 -> wake_first_waiter()	/* wake_first_waiter(lock); */
		:: else -> skip
		fi;
#endif
		spin_unlock()			/* spin_unlock(&lock->wait_lock); */
	}
#endif
}

/* __mutex_trylock_slowpath(count): only the null fastpath calls it */
inline __mutex_trylock_slowpath(taken)
{
	d_step {
		spin_lock();			/* spin_lock(&lock->wait_lock); */
		old = count;			/* prev = atomic_xchg(&lock->count, -1); */
		count = -1
	};
	d_step {
		if			/* if (list_empty(&lock->wait_list)) */
		:: nwait == 0 -> count = 0	/*   atomic_set(&lock->count, 0); */
		:: else -> skip
		fi;
		spin_unlock()			/* spin_unlock(&lock->wait_lock); */
	};
	taken = (old == 1);			/* return prev == 1; */
	old = 0
}

/* ------------------------------------------------------------------ */
/* The fastpaths: asm-generic/mutex-{dec,xchg,null}.h                  */
/* Each sets "slow" when the C code would call fail_fn.                */
/* ------------------------------------------------------------------ */

/* __mutex_fastpath_lock() and __mutex_fastpath_lock_retval() */
inline __mutex_fastpath_lock(slow)
{
#if FASTPATH == DEC
	d_step { count--; slow = (count < 0) }	/* atomic_dec_return(count) < 0 */
#elif FASTPATH == XCHG
	d_step { slow = (count != 1); count = 0 }	/* atomic_xchg(count, 0) != 1 */
#else
	slow = 1				/* null: always fail_fn */
#endif
}

/* __mutex_fastpath_unlock().  The ghost in_cs-- is in the same step:
 * the critical section ends with the unlock's first atomic operation. */
inline __mutex_fastpath_unlock(slow)
{
#if FASTPATH == DEC
	d_step { in_cs--; count++; slow = (count <= 0) }	/* atomic_inc_return(count) <= 0 */
#elif FASTPATH == XCHG
	d_step { in_cs--; slow = (count != 0); count = 1 }	/* atomic_xchg(count, 1) != 0 */
#else
	in_cs--;
	slow = 1				/* null: always fail_fn */
#endif
}

/* __mutex_fastpath_trylock(): sets taken to 1 when the lock is ours */
inline __mutex_fastpath_trylock(taken)
{
#if FASTPATH == DEC
	d_step {				/* atomic_cmpxchg(count, 1, 0) == 1 */
		if
		:: count == 1 -> count = 0; taken = 1
		:: else -> taken = 0
		fi
	}
#elif FASTPATH == XCHG
	d_step { old = count; count = 0 };	/* prev = atomic_xchg(count, 0); */
	if				/* if (unlikely(prev < 0)) */
	:: old < 0 ->			/*   prev = atomic_xchg(count, prev); */
		d_step { tmp = count; count = old; old = tmp; tmp = 0 }
	:: else -> skip
	fi;
	taken = (old == 1);			/* return prev == 1; */
	old = 0
#else
	__mutex_trylock_slowpath(taken)		/* fail_fn(count) */
#endif
}

/* ------------------------------------------------------------------ */
/* The API: mutex_lock(), mutex_lock_interruptible(), mutex_trylock(),  */
/* mutex_unlock()                                                      */
/* ------------------------------------------------------------------ */

/*
 * mutex_lock() when tstate is TASK_UNINTERRUPTIBLE (ret is then always 0),
 * mutex_lock_interruptible() when it is TASK_INTERRUPTIBLE.  The two C
 * functions differ only in the slowpath they pass to the fastpath.
 */
inline mutex_lock_state(tstate, ret)
{
	__mutex_fastpath_lock(slow);
	if
	:: slow -> slow = 0; __mutex_lock_common(tstate, ret)
	:: else -> ret = 0
	fi
}

inline mutex_trylock(taken)
{
	__mutex_fastpath_trylock(taken)
}

inline mutex_unlock()
{
	__mutex_fastpath_unlock(slow);
	if
	:: slow -> slow = 0; __mutex_unlock_slowpath()
	:: else -> skip
	fi
}

/* ------------------------------------------------------------------ */
/* The tasks                                                           */
/* ------------------------------------------------------------------ */

proctype task(byte me)
{
	byte cycle = 0;
	byte ret;		/* 0 or EINTR from the lock calls */
	bit taken;		/* mutex_trylock()'s result */
	byte tstate;		/* TASK_(UN)INTERRUPTIBLE for this task */
	/* scratch for the inlines above */
	short old, tmp;
	bit slow, requeue;
	byte i;

	if
	:: me == 0 -> tstate = TASK_UNINTERRUPTIBLE	/* mutex_lock() */
	:: else -> tstate = TASK_INTERRUPTIBLE	/* mutex_lock_interruptible() */
	fi;

	do
	:: cycle < NCYCLES ->
		taken = 0;
		if
		:: me == 2 -> mutex_trylock(taken)
		:: else -> skip
		fi;
		if
		:: taken -> ret = 0; taken = 0
		:: else -> mutex_lock_state(tstate, ret)
		fi;
		if
		:: ret == 0 ->
			/* the critical section */
			d_step {
				in_cs++;
				assert(in_cs == 1);	/* (1) mutual exclusion */
#ifndef ONLY_MUTEX
				assert(count <= 0)	/* (1b) and count says "locked" */
#endif
			};
			/* ... any other task may run here ... */
			mutex_unlock()	/* in_cs-- in its first step */
		:: else ->
			/* -EINTR: no lock; the signal is handled (flush_signals) */
			ret = 0;
			sig_pending[me] = 0
		fi;
		cycle++
	:: else -> break
	od;
	ndone++
}

/* A signal may arrive at any moment, to task 1 or task 2 (the ones that
 * sleep interruptibly), at most NSIGNALS times; or never. */
proctype signaller()
{
	byte n = 0;

	do
	:: n < NSIGNALS ->
		if
		:: send_sig(1)
		:: send_sig(2)
		fi;
		n++
	:: break
	od
}

init {
	atomic {
		run task(0);
		run task(1);
		run task(2);
		run signaller()
	}
	(ndone == NTASKS);
#ifndef ONLY_MUTEX
	/* (3) at the end the lock is free and nobody is queued */
	assert(count == 1 && nwait == 0 && wait_lock == 0)
#endif
}
