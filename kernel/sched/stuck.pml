/*
 * The runner's stuck check (lib/kunit, sched_machine_stuck()) against a
 * task that is never stuck: it naps a tick at a time, as wait_for_sleep()
 * and every msleep() loop do. Checked with spin by make verify
 * (scripts/verify-model.sh); docs/testing.md, "The stuck verdict".
 *
 * Each atomic block is one critical section of the kernel: under the
 * timer list's lock (timer_lock) or the run queue's (rq_lock). The
 * napper's timer is not deferrable, so while it naps the machine is
 * never stuck, and the check may never say it is: the runner asserts so
 * after each look.
 *
 * -DTWO_LOOKS models the check as it was: the timers under their lock,
 * then the tasks under theirs. spin then finds a run where the napper
 * is woken before the first look and has armed its next timer and gone
 * back to sleep before the second: a false verdict. Without it both are
 * looked at under both locks at once, and spin proves no look is false.
 * -DNO_TIMER makes the napper sleep with no timer: stuck for good, and
 * spin must find the verdict, so that the model is seen to reach it.
 * LOOKS is how many looks in a row the verdict takes (the kernel's
 * KUNIT_STUCK_LOOKS); NAPS bounds the napper.
 */

#ifndef LOOKS
#define LOOKS	5
#endif
#ifndef NAPS
#define NAPS	8
#endif

#define RUNNING	0	/* some CPU's current task */
#define QUEUED	1	/* woken, on the run queue */
#define ASLEEP	2	/* off the run queue */

byte napper = RUNNING;
bool woken;		/* its state set back to running before it slept */
bool armed;		/* its timer is on the timer list */
bool firing;		/* running_timer: its callback is under way */
byte naps;
bool done;

/* The napper: msleep(1) in a loop, NAPS times. */
active proctype nap()
{
	do
	:: naps < NAPS ->
		woken = false;				/* set_current_state() */
#ifndef NO_TIMER
		atomic { armed = true };		/* mod_timer() */
#endif
		atomic {				/* schedule() */
			if
			:: woken -> skip
			:: else -> napper = ASLEEP
			fi
		};
		napper == RUNNING;			/* picked again */
		atomic { !firing; armed = false };	/* del_timer_sync() */
		naps++
	:: else -> break
	od;
	done = true
}

/* The boot CPU's tick: run_timers() on the napper's timer. */
active proctype tick()
{
	do
	:: atomic { armed -> armed = false; firing = true };
		atomic {				/* wake_up_process() */
			if
			:: napper == ASLEEP -> napper = QUEUED
			:: else -> woken = true
			fi
		};
		atomic { firing = false }
	:: atomic { done -> break }
	od
}

/* A CPU that picks the queued task. */
active proctype cpu()
{
	do
	:: atomic { napper == QUEUED -> napper = RUNNING }
	:: atomic { done -> break }
	od
}

/* The runner: a look, LOOKS in a row make a verdict (never true here). */
active proctype runner()
{
	bool pending, alone;
	byte streak;

	do
	:: done -> break
	:: !done ->
#ifdef TWO_LOOKS
		atomic { pending = armed || firing };
		atomic { alone = napper == ASLEEP };
#else
		atomic { pending = armed || firing; alone = napper == ASLEEP };
#endif
		if
		:: !pending && alone -> streak++
		:: else -> streak = 0
		fi;
		assert(streak < LOOKS)
	od
}
