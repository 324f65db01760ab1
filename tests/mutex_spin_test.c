// SPDX-License-Identifier: GPL-2.0
/*
 * The spinning mutex (CONFIG_MUTEX_SPIN_ON_OWNER): a task that finds the
 * lock held by a running owner spins and takes it without sleeping, and
 * a sleeping waiter cannot starve under a storm of spinners: once it asks
 * for handoff, the very next unlock gives it the lock. Everything is
 * counted (sleeps, unlocks), nothing is timed. The other mutex suites run
 * in this build too and check mutual exclusion and the API.
 */
#include <kernel.h>
#include <sched.h>
#include <mutex.h>
#include <time.h>
#include "helpers.h"

/* ---------------------------------------------------------------- spinning */

struct spin_round {
	struct mutex m;
	volatile int held;	/* the holder has the lock */
	volatile int go;	/* the contender may try */
	bool seen_spinning;	/* the holder saw it in the spin queue */
	bool seen_waiting;	/* ... or on the wait list */
	unsigned long slept;	/* the contender's sleeps in mutex_lock() */
	struct task_struct *contender;	/* set once it is about to lock */
	unsigned long nvcsw_before;	/* its sleeps before mutex_lock() */
};

/*
 * Queued is not enough: a contender on the wait list that has not yet
 * gone to sleep takes a lock released now without ever sleeping.
 */
static bool contender_asleep(struct spin_round *r)
{
	struct task_struct *c = READ_ONCE(r->contender);

	if (!c)
		return false;
	smp_rmb();	/* pairs with the contender's smp_wmb() */
	return !list_empty(&r->m.wait_list) &&
	       READ_ONCE(c->nvcsw) != r->nvcsw_before;
}

/* Holds the lock, running, until the contender spins or sleeps on it. */
static int spin_holder(void *arg)
{
	struct spin_round *r = arg;

	mutex_lock(&r->m);
	/* Stay on this CPU: the owner must be running all along. */
	preempt_disable();
	r->held = 1;
	r->go = 1;
	while (!osq_is_locked(&r->m.osq) && !contender_asleep(r))
		cpu_relax();
	r->seen_spinning = osq_is_locked(&r->m.osq);
	r->seen_waiting = !list_empty(&r->m.wait_list);
	mutex_unlock(&r->m);
	preempt_enable();
	return 0;
}

static int spin_contender(void *arg)
{
	struct spin_round *r = arg;

	while (!READ_ONCE(r->go))
		cpu_relax();
	r->nvcsw_before = current->nvcsw;
	smp_wmb();	/* the holder reads nvcsw_before once it sees us */
	WRITE_ONCE(r->contender, current);
	mutex_lock(&r->m);
	r->slept = current->nvcsw - r->nvcsw_before;
	mutex_unlock(&r->m);
	return 0;
}

/* One round, the two tasks on CPUs 0 and 1; returns true if it spun. */
static bool spin_round(struct kunit *test, struct spin_round *r)
{
	memset(r, 0, sizeof(*r));
	mutex_init(&r->m);
	KUNIT_EXPECT_EQ(test, run_pair(spin_holder, spin_contender, r,
				       "spin"), 0);
	return r->seen_spinning && !r->slept;
}

static void spins_on_running_owner(struct kunit *test)
{
	static struct spin_round r;
	int spun = 0, slept = 0;

	if (num_online_cpus() < 2)
		kunit_skip(test, "spinning needs a second CPU");
	/*
	 * A round may end up sleeping when the contender's CPU has another
	 * task to run (on a loaded host that is often): one round in ten
	 * that spins is the claim.
	 */
	for (int i = 0; i < 10 && !spun; i++)
		spun += spin_round(test, &r);
	KUNIT_EXPECT_GE(test, spun, 1);

	/* Spinning off: the contender always queues and sleeps. */
	mutex_spin_on_owner = 0;
	for (int i = 0; i < 3; i++) {
		spin_round(test, &r);
		slept += r.seen_waiting && r.slept >= 1;
	}
	mutex_spin_on_owner = 1;
	KUNIT_EXPECT_EQ(test, slept, 3);
}

/* ---------------------------------------------------------------- handoff */

#define STORM_HOLD_US	20
#define STORM_SLEEP_EVERY	8	/* the owner sleeps holding it, now and then */
#define STORM_MAX_UNLOCKS	50000	/* ends the storm if the waiter starves */
#define WAITER_ROUNDS	20

struct storm {
	struct mutex m;
	struct task_struct *waiter;
	int stop;
	atomic_t unlocks;
	/* unlocks that found the waiter's handoff request and ignored it */
	atomic_t passed;
};

static int storm_fn(void *arg)
{
	struct storm *s = *(struct storm **)arg;
	unsigned int round = 0;

	while (!READ_ONCE(s->stop) &&
	       atomic_read(&s->unlocks) < STORM_MAX_UNLOCKS) {
		mutex_lock(&s->m);
		/*
		 * An owner that sleeps sends the waiters to sleep too, the
		 * waiter under test among them; all other times the lock
		 * is held by a running owner and the others spin.
		 */
		if (++round % STORM_SLEEP_EVERY)
			udelay(STORM_HOLD_US);
		else
			msleep(1);
		/*
		 * A request seen now must be served by this very unlock:
		 * if the waiter's next lock finds more than one such unlock,
		 * the lock went to someone else after the request.
		 */
		if (READ_ONCE(s->m.handoff) == s->waiter)
			atomic_inc(&s->passed);
		atomic_inc(&s->unlocks);
		mutex_unlock(&s->m);
	}
	return 0;
}

static void waiter_cannot_starve(struct kunit *test)
{
	static struct storm s;
	struct storm *args[MAX_WORKERS];
	struct workers w;
	unsigned long max_sleeps = 0, total_sleeps = 0, bound;
	int max_passed = 0, n = max(num_online_cpus(), 2U);

	memset(&s, 0, sizeof(s));
	mutex_init(&s.m);
	s.waiter = current;
	for (int i = 0; i < n; i++)
		args[i] = &s;
	/*
	 * Queued once, then at most mutex_handoff_after lost wakeups before
	 * asking; a storm task that asked first is served first, once each.
	 */
	bound = (mutex_handoff_after + 1) * (n + 1);
	/* One spinner per CPU, always taking the lock back at once. */
	KUNIT_ASSERT_EQ(test, workers_start(&w, n, storm_fn, args,
					    sizeof(args[0]), true, "storm"), n);
	for (int i = 0; i < WAITER_ROUNDS; i++) {
		unsigned long before, sleeps;
		int passed;

		/* Let the storm run, then come in in the middle of it. */
		msleep(1);
		before = current->nvcsw;
		mutex_lock(&s.m);
		sleeps = current->nvcsw - before;
		passed = atomic_xchg(&s.passed, 0);
		mutex_unlock(&s.m);
		max_sleeps = max(max_sleeps, sleeps);
		total_sleeps += sleeps;
		max_passed = max(max_passed, passed);
	}
	WRITE_ONCE(s.stop, 1);
	KUNIT_EXPECT_EQ(test, workers_join(&w), 0);
	/* The storm did make us sleep: there was something to prove. */
	KUNIT_EXPECT_GT(test, total_sleeps, 0UL);
	KUNIT_EXPECT_LE(test, max_sleeps, bound);
	/* The unlock after our request served it. */
	KUNIT_EXPECT_LE(test, max_passed, 1);
	KUNIT_EXPECT_LT(test, atomic_read(&s.unlocks), STORM_MAX_UNLOCKS);
}

/* ------------------------------------------------------ lost wakeups */

#define DIRTY_BYTES	1024	/* well past the lock calls' frames */

/*
 * Leaves a pattern in the stack below its caller, where the frames of
 * the caller's next call will be: a field of those frames that is read
 * before it is set then reads the pattern, never a lucky 0.
 */
static noinline void dirty_stack(void)
{
	unsigned char junk[DIRTY_BYTES];

	memset(junk, 0xa5, sizeof(junk));
	/* The stores are the point: keep gcc from dropping them. */
	asm volatile("" : : "r" (junk) : "memory");
}

struct lost_round {
	struct mutex m;
	struct task_struct *waiter;
	bool interruptible;		/* it waits in mutex_lock_interruptible */
	bool signal_after_handoff;	/* the signal comes after the unlock */
	unsigned int losses;		/* wakeups the waiter lost so far */
	unsigned int requested_at;	/* losses when it asked, 0: never */
	bool waiter_slept;		/* it went back to sleep every time */
	bool request_withdrawn;		/* no request left once it gave up */
	int ret;			/* what its lock call returned */
	bool owned;			/* it held the lock after that */
};

static int lost_waiter(void *arg)
{
	struct lost_round *r = arg;

	dirty_stack();
	if (r->interruptible)
		r->ret = mutex_lock_interruptible(&r->m);
	else
		mutex_lock(&r->m);
	if (!r->ret) {
		r->owned = READ_ONCE(r->m.owner) == current;
		mutex_unlock(&r->m);
	}
	return 0;
}

/*
 * Holding the lock, on the waiter's CPU: each unlock wakes it, and with
 * preemption off the relock takes the lock back before it runs, so it
 * loses every time, until it asks for handoff.
 */
static void make_waiter_lose(struct lost_round *r)
{
	long state = r->interruptible ? TASK_INTERRUPTIBLE :
					TASK_UNINTERRUPTIBLE;
	unsigned int after = READ_ONCE(mutex_handoff_after);

	r->waiter_slept = wait_for_sleep(r->waiter, state, 30);
	while (r->waiter_slept && !r->requested_at && r->losses < after) {
		preempt_disable();
		mutex_unlock(&r->m);
		mutex_lock(&r->m);
		preempt_enable();
		r->losses++;
		r->waiter_slept = wait_for_sleep(r->waiter, state, 30);
		if (READ_ONCE(r->m.handoff) == r->waiter)
			r->requested_at = r->losses;
	}
}

static int lost_thief(void *arg)
{
	struct lost_round *r = arg;

	mutex_lock(&r->m);
	wake_up_process(r->waiter);
	make_waiter_lose(r);
	/* Served by handoff if it asked, by the usual wakeup if not. */
	mutex_unlock(&r->m);
	return 0;
}

/* Then a signal, before or after the unlock that serves the request. */
static int signal_thief(void *arg)
{
	struct lost_round *r = arg;

	mutex_lock(&r->m);
	wake_up_process(r->waiter);
	make_waiter_lose(r);
	if (r->signal_after_handoff) {
		/* Both before the waiter runs: it must take the lock. */
		preempt_disable();
		mutex_unlock(&r->m);
		send_sig(SIGINT, r->waiter, 0);
		preempt_enable();
		return 0;
	}
	/* It leaves with -EINTR; our unlock must not serve it then. */
	send_sig(SIGINT, r->waiter, 0);
	wait_for_completion(&r->waiter->exited);
	r->request_withdrawn = !READ_ONCE(r->m.handoff);
	mutex_unlock(&r->m);
	return 0;
}

/* The waiter and thief of r on CPU 0, to their end. */
static void lost_round(struct kunit *test, struct lost_round *r,
		       int (*thief_fn)(void *))
{
	struct task_struct *thief;

	mutex_init(&r->m);
	r->waiter = kthread_create(lost_waiter, r, "lostwait");
	thief = kthread_create(thief_fn, r, "lostthief");
	KUNIT_ASSERT_NOT_NULL(test, r->waiter);
	KUNIT_ASSERT_NOT_NULL(test, thief);
	kthread_bind(r->waiter, 0);
	kthread_bind(thief, 0);
	wake_up_process(thief);
	KUNIT_EXPECT_EQ(test, kthread_join(thief), 0);
	KUNIT_EXPECT_EQ(test, kthread_join(r->waiter), 0);
	KUNIT_EXPECT_TRUE(test, r->waiter_slept);
	KUNIT_EXPECT_EQ(test, r->requested_at, mutex_handoff_after);
	/* Whoever had it, the lock is free and nobody is owed it. */
	KUNIT_EXPECT_FALSE(test, mutex_is_locked(&r->m));
	KUNIT_EXPECT_NULL(test, r->m.handoff);
	KUNIT_EXPECT_NULL(test, r->m.owner);
}

/* A waiter asks for handoff after mutex_handoff_after losses, not before. */
static void handoff_after_lost_wakeups(struct kunit *test)
{
	static struct lost_round r;

	if (!mutex_handoff_after)
		kunit_skip(test, "handoff is off (mutex_handoff_after is 0)");
	memset(&r, 0, sizeof(r));
	lost_round(test, &r, lost_thief);
	KUNIT_EXPECT_TRUE(test, r.owned);
}

/*
 * A signal while the waiter's request is pending: it leaves with -EINTR
 * and withdraws the request. A signal after the unlock handed it the
 * lock: the lock is its own, it returns 0 holding it.
 */
static void signal_while_handoff_pending(struct kunit *test)
{
	static struct lost_round r;

	if (!mutex_handoff_after)
		kunit_skip(test, "handoff is off (mutex_handoff_after is 0)");
	memset(&r, 0, sizeof(r));
	r.interruptible = true;
	lost_round(test, &r, signal_thief);
	KUNIT_EXPECT_EQ(test, r.ret, -EINTR);
	KUNIT_EXPECT_FALSE(test, r.owned);
	KUNIT_EXPECT_TRUE(test, r.request_withdrawn);

	memset(&r, 0, sizeof(r));
	r.interruptible = true;
	r.signal_after_handoff = true;
	lost_round(test, &r, signal_thief);
	KUNIT_EXPECT_EQ(test, r.ret, 0);
	KUNIT_EXPECT_TRUE(test, r.owned);
}

/* ------------------------------------------------ leaving the spin queue */

struct leave_round {
	struct optimistic_spin_queue q;
	bool stopped;		/* the first stands for a stopped CPU */
	volatile int head_in;	/* the first is in line, first */
	volatile int second;	/* 1: the second left, 2: it got its turn */
	bool head_got_in;
	bool second_left_first;	/* it left while the first still held on */
	bool second_resched;	/* its CPU had need_resched() set then */
};

/*
 * First in line on CPU 0, holding on until the one behind it is gone:
 * running, it shows it (osq_cpu_relax()) and has CPU 1 rescheduled once
 * the second is queued; stopped, it does neither.
 */
static int osq_first(void *arg)
{
	struct leave_round *r = arg;
	unsigned long end;

	preempt_disable();
	r->head_got_in = osq_lock(&r->q);
	r->head_in = 1;
	/* CPU 1's node is the tail: the second is queued behind us. */
	while (atomic_read(&r->q.tail) != 2 && !READ_ONCE(r->second))
		r->stopped ? cpu_relax() : osq_cpu_relax();
	if (!r->stopped)
		resched_cpu(1);
	/* A generous limit: only a spinner that never leaves reaches it. */
	end = jiffies + 30 * HZ;
	while (!READ_ONCE(r->second) && time_before(jiffies, end))
		r->stopped ? cpu_relax() : osq_cpu_relax();
	r->second_left_first = READ_ONCE(r->second) == 1;
	osq_unlock(&r->q);
	preempt_enable();
	return 0;
}

static int osq_second(void *arg)
{
	struct leave_round *r = arg;
	bool got_in;

	while (!READ_ONCE(r->head_in))
		cpu_relax();
	preempt_disable();
	got_in = osq_lock(&r->q);
	r->second_resched = need_resched();
	WRITE_ONCE(r->second, got_in ? 2 : 1);
	if (got_in)
		osq_unlock(&r->q);
	preempt_enable();
	return 0;
}

/* One round, the first on CPU 0 and the second on CPU 1. */
static void leave_round(struct kunit *test, struct leave_round *r,
			bool stopped)
{
	memset(r, 0, sizeof(*r));
	osq_lock_init(&r->q);
	r->stopped = stopped;
	KUNIT_ASSERT_EQ(test, run_pair(osq_first, osq_second, r, "osq"), 0);
	KUNIT_EXPECT_TRUE(test, r->head_got_in);
	KUNIT_EXPECT_TRUE(test, r->second_left_first);
	KUNIT_EXPECT_FALSE(test, osq_is_locked(&r->q));
}

/*
 * A queued spinner whose CPU has something to run leaves the queue at
 * once, not when the one ahead of it is done; the queue ends empty. An
 * emulated CPU ahead may look stopped at any time (its vCPU waits for
 * the host), so that is switched off here: need_resched() alone must do.
 */
static void queued_spinner_leaves_on_resched(struct kunit *test)
{
	static struct leave_round r;

	if (num_online_cpus() < 2)
		kunit_skip(test, "a queue of two needs a second CPU");
	osq_stall_spins = 0;
	leave_round(test, &r, false);
	osq_stall_spins = OSQ_STALL_SPINS;
	KUNIT_EXPECT_TRUE(test, r.second_resched);
}

#define STOPPED_ROUNDS	5

/*
 * Behind a CPU that stopped spinning it leaves too, without waiting for
 * its own need_resched(). A tick may set that first now and then, so
 * one round in STOPPED_ROUNDS without it is the claim.
 */
static void queued_spinner_leaves_stopped_cpu(struct kunit *test)
{
	static struct leave_round r;
	int without_resched = 0;

	if (num_online_cpus() < 2)
		kunit_skip(test, "a queue of two needs a second CPU");
	for (int i = 0; i < STOPPED_ROUNDS; i++) {
		leave_round(test, &r, true);
		without_resched += !r.second_resched;
	}
	KUNIT_EXPECT_GE(test, without_resched, 1);
}

#define OSQ_ROUNDS	3000
#define OSQ_HOLD	50	/* cpu_relax()es in line: others queue up */
#define OSQ_LEAVE_EVERY	3	/* tries that leave if they have to wait */

struct osq_stress {
	struct optimistic_spin_queue q;
	atomic_t inside;	/* first in line now: never more than one */
	atomic_t overlaps, turns, leaves;
	volatile int done;	/* workers through all their tries */
};

static int osq_stress_fn(void *arg)
{
	struct osq_stress *s = *(struct osq_stress **)arg;

	for (unsigned int i = 0; i < OSQ_ROUNDS * stress_factor; i++) {
		preempt_disable();
		if (i % OSQ_LEAVE_EVERY == 0)
			set_ti_thread_flag(current_thread_info(),
					   TIF_NEED_RESCHED);
		if (!osq_lock(&s->q)) {
			atomic_inc(&s->leaves);
			preempt_enable();
			continue;
		}
		if (atomic_inc_return(&s->inside) != 1)
			atomic_inc(&s->overlaps);
		for (int j = 0; j < OSQ_HOLD; j++)
			osq_cpu_relax();
		atomic_dec(&s->inside);
		atomic_inc(&s->turns);
		osq_unlock(&s->q);
		preempt_enable();
	}
	__atomic_fetch_add(&s->done, 1, __ATOMIC_SEQ_CST);
	return 0;
}

/*
 * Arrivals, turns and leavers from the middle, on every CPU at once: one
 * first in line at a time, every try ends (a lost node would strand the
 * ones behind it), and the queue ends empty.
 */
static void spin_queue_stress(struct kunit *test)
{
	static struct osq_stress s;
	struct osq_stress *args[MAX_WORKERS];
	struct workers w;
	int n = num_online_cpus();

	if (n < 2)
		kunit_skip(test, "a queue needs a second CPU");
	memset(&s, 0, sizeof(s));
	osq_lock_init(&s.q);
	for (int i = 0; i < n; i++)
		args[i] = &s;
	KUNIT_ASSERT_EQ(test, workers_start(&w, n, osq_stress_fn, args,
					    sizeof(args[0]), true, "osq"), n);
	/* A node lost from the queue strands whoever waits behind it. */
	KUNIT_ASSERT_TRUE(test, wait_for_count(&s.done, n, 120));
	KUNIT_EXPECT_EQ(test, workers_join(&w), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&s.overlaps), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&s.turns) + atomic_read(&s.leaves),
			(int)(n * OSQ_ROUNDS * stress_factor));
	/* Some did leave from the middle: the path was taken. */
	KUNIT_EXPECT_GT(test, atomic_read(&s.leaves), 0);
	KUNIT_EXPECT_FALSE(test, osq_is_locked(&s.q));
	kunit_info(test, "%d turns, %d left the queue", atomic_read(&s.turns),
		   atomic_read(&s.leaves));
}

static struct kunit_case mutex_spin_cases[] = {
	KUNIT_CASE(spins_on_running_owner),
	KUNIT_CASE(waiter_cannot_starve),
	KUNIT_CASE(handoff_after_lost_wakeups),
	KUNIT_CASE(signal_while_handoff_pending),
	KUNIT_CASE(queued_spinner_leaves_on_resched),
	KUNIT_CASE(queued_spinner_leaves_stopped_cpu),
	KUNIT_CASE(spin_queue_stress),
	{}
};

static struct kunit_suite mutex_spin_suite = {
	.name = "mutex_spin",
	.test_cases = mutex_spin_cases,
};
kunit_test_suite(mutex_spin_suite);
