// SPDX-License-Identifier: GPL-2.0
/*
 * The mutex: every API call's contract, mutual exclusion from every CPU,
 * FIFO order of first-time waiters, interruptible waits, and a long stress
 * of very short critical sections watched for lost wakeups.
 */
#include <kernel.h>
#include <mutex.h>
#include <semaphore.h>
#include "helpers.h"

/* Total debug reports so far: the normal suites must make none. */
static unsigned long debug_reports(void)
{
	unsigned long n = 0;

#ifdef CONFIG_DEBUG_MUTEXES
	for (int k = 0; k < MUTEX_BUG_NR; k++)
		n += mutex_debug_reports[k];
#endif
	return n + might_sleep_reports;
}

static void api_contract(struct kunit *test)
{
	struct mutex m;

	mutex_init(&m);
	KUNIT_EXPECT_FALSE(test, mutex_is_locked(&m));
	KUNIT_EXPECT_EQ(test, atomic_read(&m.count), 1);
	mutex_lock(&m);
	KUNIT_EXPECT_TRUE(test, mutex_is_locked(&m));
	KUNIT_EXPECT_EQ(test, atomic_read(&m.count), 0);
	mutex_unlock(&m);
	KUNIT_EXPECT_FALSE(test, mutex_is_locked(&m));
	KUNIT_EXPECT_EQ(test, mutex_lock_interruptible(&m), 0);
	KUNIT_EXPECT_TRUE(test, mutex_is_locked(&m));
	mutex_unlock(&m);
	KUNIT_EXPECT_EQ(test, atomic_read(&m.count), 1);
	mutex_destroy(&m);
}

static DEFINE_MUTEX(static_mutex);

static void define_mutex_is_unlocked(struct kunit *test)
{
	KUNIT_EXPECT_FALSE(test, mutex_is_locked(&static_mutex));
	KUNIT_EXPECT_TRUE(test, list_empty(&static_mutex.wait_list));
	mutex_lock(&static_mutex);
	mutex_unlock(&static_mutex);
	KUNIT_EXPECT_FALSE(test, mutex_is_locked(&static_mutex));
}

static struct mutex *trylock_target;
static int trylock_result;

static int try_from_other_task(void *unused)
{
	trylock_result = mutex_trylock(trylock_target);
	if (trylock_result)
		mutex_unlock(trylock_target);
	return 0;
}

/* mutex_trylock: 1 on success; down_trylock: 0 on success. */
static void trylock_conventions(struct kunit *test)
{
	struct mutex m;
	struct semaphore s;
	struct task_struct *t;

	mutex_init(&m);
	KUNIT_EXPECT_EQ(test, mutex_trylock(&m), 1);
	KUNIT_EXPECT_TRUE(test, mutex_is_locked(&m));
	trylock_target = &m;
	t = kthread_run(try_from_other_task, NULL, "trylock");
	KUNIT_ASSERT_NOT_NULL(test, t);
	kthread_join(t);
	KUNIT_EXPECT_EQ(test, trylock_result, 0);	/* held: fails */
	mutex_unlock(&m);
	t = kthread_run(try_from_other_task, NULL, "trylock");
	KUNIT_ASSERT_NOT_NULL(test, t);
	kthread_join(t);
	KUNIT_EXPECT_EQ(test, trylock_result, 1);	/* free: succeeds */
	KUNIT_EXPECT_FALSE(test, mutex_is_locked(&m));

	sema_init(&s, 1);
	KUNIT_EXPECT_EQ(test, down_trylock(&s), 0);
	KUNIT_EXPECT_EQ(test, down_trylock(&s), 1);
	up(&s);
}

/* ---- mutual exclusion ---- */

/* Totals are split over the workers: 8 emulated CPUs stay quick. */
#define MX_TOTAL 12000
static int mx_loops;

static DEFINE_MUTEX(mx_lock);
static unsigned long mx_counter;
static volatile int mx_inside;
static volatile int mx_overlaps;

static int mx_worker(void *arg)
{
	long id = (long)arg;

	for (int i = 0; i < mx_loops; i++) {
		if (id % 3 == 2) {
			if (mutex_lock_interruptible(&mx_lock))
				return 1;
		} else if (id % 3 == 1) {
			/* A few tries, then wait like the others. */
			int tries = 0;

			while (!mutex_trylock(&mx_lock)) {
				if (++tries == 4) {
					mutex_lock(&mx_lock);
					break;
				}
				yield();
			}
		} else {
			mutex_lock(&mx_lock);
		}
		if (mx_inside)
			mx_overlaps++;
		mx_inside = 1;
		mx_counter = mx_counter + 1;
		if (i % 64 == 0)
			yield();	/* sleep inside, now and then */
		mx_inside = 0;
		mutex_unlock(&mx_lock);
	}
	return 0;
}

static void mutual_exclusion(struct kunit *test)
{
	struct workers w;
	int n = num_online_cpus() * 3;
	unsigned long reports = debug_reports();

	mx_counter = 0;
	mx_overlaps = 0;
	mx_loops = MX_TOTAL * stress_factor / n;
	KUNIT_ASSERT_EQ(test, workers_start(&w, n, mx_worker, (void *)0, 1,
					    true, "mx"), n);
	KUNIT_EXPECT_EQ(test, workers_join(&w), 0);
	KUNIT_EXPECT_EQ(test, mx_counter, (unsigned long)n * mx_loops);
	KUNIT_EXPECT_EQ(test, mx_overlaps, 0);
	KUNIT_EXPECT_FALSE(test, mutex_is_locked(&mx_lock));
	KUNIT_EXPECT_TRUE(test, list_empty(&mx_lock.wait_list));
	KUNIT_EXPECT_EQ(test, debug_reports(), reports);
}

/* ---- FIFO order ---- */

#define FIFO_WAITERS 6

static DEFINE_MUTEX(fifo_lock);
static int fifo_order[FIFO_WAITERS];
static volatile int fifo_next;

static int fifo_waiter(void *arg)
{
	int id = (long)arg;

	mutex_lock(&fifo_lock);
	fifo_order[fifo_next++] = id;
	mutex_unlock(&fifo_lock);
	return 0;
}

static void fifo_order_of_waiters(struct kunit *test)
{
	struct task_struct *t[FIFO_WAITERS];
	int i;

	fifo_next = 0;
	mutex_lock(&fifo_lock);
	/* Queue them one by one, all on one CPU, in a known order. */
	for (i = 0; i < FIFO_WAITERS; i++) {
		t[i] = kthread_create(fifo_waiter, (void *)(long)i, "fifo%d", i);
		KUNIT_ASSERT_NOT_NULL(test, t[i]);
		kthread_bind(t[i], 0);
		wake_up_process(t[i]);
		KUNIT_ASSERT_TRUE(test, wait_for_waiters(&fifo_lock, i + 1));
	}
	mutex_unlock(&fifo_lock);
	for (i = 0; i < FIFO_WAITERS; i++)
		kthread_join(t[i]);
	KUNIT_ASSERT_EQ(test, fifo_next, FIFO_WAITERS);
	for (i = 0; i < FIFO_WAITERS; i++)
		KUNIT_EXPECT_EQ(test, fifo_order[i], i);
}

/* ---- interruptible ---- */

static DEFINE_MUTEX(intr_lock);
static volatile int intr_result = 1;
static volatile int plain_got_it;

static int intr_waiter(void *unused)
{
	intr_result = mutex_lock_interruptible(&intr_lock);
	if (!intr_result)
		mutex_unlock(&intr_lock);
	return 0;
}

static int plain_waiter(void *unused)
{
	mutex_lock(&intr_lock);
	plain_got_it = 1;
	mutex_unlock(&intr_lock);
	return 0;
}

#define INTR_LEAVE_SECS	10	/* for a signalled waiter to return */

/* Until intr_waiter() returned, or false after secs. */
static bool intr_waiter_returned(unsigned int secs)
{
	unsigned long end = jiffies + secs * HZ;

	while (intr_result == 1) {
		if (time_after(jiffies, end))
			return false;
		msleep_poll(1);
	}
	return true;
}

static void interruptible_gets_eintr(struct kunit *test)
{
	struct task_struct *a, *b;

	intr_result = 1;
	plain_got_it = 0;
	mutex_lock(&intr_lock);
	a = kthread_run(intr_waiter, NULL, "intr");
	KUNIT_ASSERT_NOT_NULL(test, a);
	KUNIT_ASSERT_TRUE(test, wait_for_waiters(&intr_lock, 1));
	b = kthread_run(plain_waiter, NULL, "plain");
	KUNIT_ASSERT_NOT_NULL(test, b);
	KUNIT_ASSERT_TRUE(test, wait_for_waiters(&intr_lock, 2));

	send_sig(SIGINT, a, 0);
	if (!intr_waiter_returned(INTR_LEAVE_SECS)) {
		/*
		 * Deaf to its signal, it would wait as long as we hold the
		 * lock: fail now, and let both waiters have it.
		 */
		KUNIT_FAIL(test, "the interruptible waiter did not return within %d s of its signal",
			   INTR_LEAVE_SECS);
		mutex_unlock(&intr_lock);
		kthread_join(a);
		kthread_join(b);
		return;
	}
	kthread_join(a);
	KUNIT_EXPECT_EQ(test, intr_result, -EINTR);
	/* a left the queue; we still own the lock; b still waits. */
	KUNIT_EXPECT_EQ(test, wait_list_len(&intr_lock), 1);
	KUNIT_EXPECT_TRUE(test, mutex_is_locked(&intr_lock));
	KUNIT_EXPECT_EQ(test, plain_got_it, 0);
	/* The next waiter still gets the lock. */
	mutex_unlock(&intr_lock);
	kthread_join(b);
	KUNIT_EXPECT_EQ(test, plain_got_it, 1);
	KUNIT_EXPECT_FALSE(test, mutex_is_locked(&intr_lock));
}

/*
 * The signalled waiter is also the one the unlock chose to wake: it must
 * pass the wakeup on, or the waiter behind it sleeps for ever.
 */
static void interrupted_waiter_passes_wakeup_on(struct kunit *test)
{
	struct task_struct *a, *b;

	intr_result = 1;
	plain_got_it = 0;
	mutex_lock(&intr_lock);
	a = kthread_create(intr_waiter, NULL, "intr");
	b = kthread_create(plain_waiter, NULL, "plain");
	KUNIT_ASSERT_NOT_NULL(test, a);
	KUNIT_ASSERT_NOT_NULL(test, b);
	kthread_bind(a, 0);
	wake_up_process(a);
	KUNIT_ASSERT_TRUE(test, wait_for_waiters(&intr_lock, 1));
	wake_up_process(b);
	KUNIT_ASSERT_TRUE(test, wait_for_waiters(&intr_lock, 2));
	/* Signal and unlock back to back: a may see both. */
	preempt_disable();
	send_sig(SIGINT, a, 0);
	mutex_unlock(&intr_lock);
	preempt_enable();
	kthread_join(a);
	kthread_join(b);
	KUNIT_EXPECT_EQ(test, plain_got_it, 1);
	KUNIT_EXPECT_FALSE(test, mutex_is_locked(&intr_lock));
	KUNIT_EXPECT_TRUE(test, intr_result == 0 || intr_result == -EINTR);
}

/* ---- no lost wakeups: a long run of very short critical sections ---- */

#define STRESS_TOTAL 100000
static int stress_loops;

static DEFINE_MUTEX(stress_lock);
static unsigned long stress_counter;
static volatile int stress_done;

static int stress_worker(void *arg)
{
	for (int i = 0; i < stress_loops; i++) {
		mutex_lock(&stress_lock);
		stress_counter++;
		mutex_unlock(&stress_lock);
	}
	__atomic_fetch_add(&stress_done, 1, __ATOMIC_SEQ_CST);
	return 0;
}

static void no_lost_wakeup_stress(struct kunit *test)
{
	struct workers w;
	int n = num_online_cpus() * 2 + 2;
	unsigned long reports = debug_reports();

	stress_counter = 0;
	stress_done = 0;
	stress_loops = STRESS_TOTAL * stress_factor / n;
	KUNIT_ASSERT_EQ(test, workers_start(&w, n, stress_worker, NULL, 0,
					    false, "stress"), n);
	/* Watchdog: a lost wakeup leaves a worker asleep on the lock. */
	if (!wait_for_count(&stress_done, n, 600)) {
		KUNIT_FAIL(test, "lost wakeup: %d of %d workers finished, "
			   "count %d, %d waiting", stress_done, n,
			   atomic_read(&stress_lock.count),
			   wait_list_len(&stress_lock));
		show_state();
		return;
	}
	workers_join(&w);
	KUNIT_EXPECT_EQ(test, stress_counter, (unsigned long)n * stress_loops);
	KUNIT_EXPECT_EQ(test, atomic_read(&stress_lock.count), 1);
	KUNIT_EXPECT_EQ(test, debug_reports(), reports);
}

static struct kunit_case mutex_cases[] = {
	KUNIT_CASE(api_contract),
	KUNIT_CASE(define_mutex_is_unlocked),
	KUNIT_CASE(trylock_conventions),
	KUNIT_CASE_SLOW(mutual_exclusion, 600),
	KUNIT_CASE(fifo_order_of_waiters),
	KUNIT_CASE(interruptible_gets_eintr),
	KUNIT_CASE(interrupted_waiter_passes_wakeup_on),
	KUNIT_CASE_SLOW(no_lost_wakeup_stress, 900),
	{}
};

static struct kunit_suite mutex_suite = {
	.name = "mutex",
	.test_cases = mutex_cases,
};
kunit_test_suite(mutex_suite);
