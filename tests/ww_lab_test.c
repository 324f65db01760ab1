// SPDX-License-Identifier: GPL-2.0
/*
 * Lab 11's graded suite (docs/labs/lab11.md): wait-die's stamp
 * comparison (ww_waiter_backs_off()) in unit cases, the bank's back-off
 * loop (ww_bank_lock()) scripted against an older transaction, once and
 * twice, and transfers and audits at once that must keep the bank's
 * total.
 */
#include <kernel.h>
#include <random.h>
#include <ww_bank.h>
#include "helpers.h"

/* Generous: only a real hang takes this long. */
#define WAIT_SECS	60

/* ---- the stamp comparison ---- */

/* Whether a context stamped ctx_stamp, holding a lock, backs off from hold. */
static bool dies(struct ww_acquire_ctx *hold, unsigned int ctx_stamp)
{
	struct ww_acquire_ctx ctx = {
		.ww_class = &ww_bank_class, .stamp = ctx_stamp, .acquired = 1,
	};
	struct ww_mutex lock = { .ctx = hold };

	return ww_waiter_backs_off(&lock, &ctx);
}

static void wait_die_decisions(struct kunit *test)
{
	struct ww_acquire_ctx hold = {
		.ww_class = &ww_bank_class, .stamp = 10,
	};

	KUNIT_EXPECT_FALSE(test, dies(NULL, 11));
	/* Younger than the holder: it dies. */
	KUNIT_EXPECT_TRUE(test, dies(&hold, 11));
	/* Older: it waits. */
	KUNIT_EXPECT_FALSE(test, dies(&hold, 9));
	/* Stamps wrap: 0xfffffffe came before 1. */
	hold.stamp = 0xfffffffe;
	KUNIT_EXPECT_TRUE(test, dies(&hold, 1));
	hold.stamp = 1;
	KUNIT_EXPECT_FALSE(test, dies(&hold, 0xfffffffe));
}

/* ---- the bank's API in one task ---- */

static struct ww_account accounts[8];
static struct ww_bank bank;

static long sum_of_balances(void)
{
	long sum = 0;
	unsigned int i;

	for (i = 0; i < bank.n; i++)
		sum += accounts[i].balance;
	return sum;
}

static void transfer_and_audit(struct kunit *test)
{
	long total = 0;

	ww_bank_init(&bank, accounts, 3, 100);
	KUNIT_EXPECT_EQ(test, ww_bank_transfer(&bank, 0, 2, 30), 0);
	KUNIT_EXPECT_EQ(test, accounts[0].balance, 70);
	KUNIT_EXPECT_EQ(test, accounts[2].balance, 130);
	KUNIT_EXPECT_EQ(test, ww_bank_transfer(&bank, 1, 3, 5), -EINVAL);
	KUNIT_EXPECT_EQ(test, ww_bank_transfer(&bank, 1, 1, 5), -EALREADY);
	KUNIT_EXPECT_EQ(test, ww_bank_audit(&bank, &total), 0);
	KUNIT_EXPECT_EQ(test, total, 300);
	/* Every lock let go, none backed off: nobody else was there. */
	KUNIT_EXPECT_FALSE(test, ww_mutex_is_locked(&accounts[0].lock));
	KUNIT_EXPECT_FALSE(test, ww_mutex_is_locked(&accounts[1].lock));
	KUNIT_EXPECT_FALSE(test, ww_mutex_is_locked(&accounts[2].lock));
	KUNIT_EXPECT_EQ(test, atomic_read(&bank.back_offs), 0);
}

/* ---- the back-off loop against an older transaction ---- */

/*
 * The older transaction: holds first; at step 2 takes second (if any)
 * and lets first go; at step 3 lets go of all.
 */
struct older {
	struct ww_account *first, *second;
	struct ww_acquire_ctx ctx;
	volatile int step;
	volatile int reached;
};

static int older_fn(void *arg)
{
	struct older *o = arg;

	ww_acquire_init(&o->ctx, &ww_bank_class);
	ww_mutex_lock(&o->first->lock, &o->ctx);
	WRITE_ONCE(o->reached, 1);
	wait_for_count(&o->step, 2, WAIT_SECS);
	if (o->second)
		ww_mutex_lock(&o->second->lock, &o->ctx);
	ww_mutex_unlock(&o->first->lock);
	WRITE_ONCE(o->reached, 2);
	wait_for_count(&o->step, 3, WAIT_SECS);
	if (o->second)
		ww_mutex_unlock(&o->second->lock);
	ww_acquire_fini(&o->ctx);
	return 0;
}

/* The younger transaction: ww_bank_lock() of list, and what it got. */
struct younger {
	struct ww_account **list;
	unsigned int n;
	struct ww_acquire_ctx ctx;
	unsigned int stamp;		/* at ww_acquire_init() */
	unsigned int stamp_after;	/* when ww_bank_lock() returned */
	int ret;
	bool held_all;
	volatile int done;
};

static int younger_fn(void *arg)
{
	struct younger *y = arg;
	unsigned int i;

	ww_acquire_init(&y->ctx, &ww_bank_class);
	y->stamp = y->ctx.stamp;
	y->ret = ww_bank_lock(&bank, y->list, y->n, &y->ctx);
	y->stamp_after = y->ctx.stamp;
	y->held_all = true;
	for (i = 0; i < y->n; i++)
		if (READ_ONCE(y->list[i]->lock.ctx) != &y->ctx)
			y->held_all = false;
	/* Only what it holds: a wrong loop may say it has what it has not. */
	for (i = 0; i < y->n; i++)
		if (READ_ONCE(y->list[i]->lock.ctx) == &y->ctx)
			ww_mutex_unlock(&y->list[i]->lock);
	ww_acquire_fini(&y->ctx);
	WRITE_ONCE(y->done, 1);
	return 0;
}

/* Waits until the younger one sleeps on a's lock, or has returned. */
static bool younger_waits_on(struct younger *y, struct ww_account *a)
{
	unsigned long end = jiffies + WAIT_SECS * HZ;

	while (!wait_list_len(&a->lock.base) && !READ_ONCE(y->done)) {
		if (time_after(jiffies, end))
			return false;
		msleep(1);
	}
	return true;
}

/* Whether the younger one holds nothing, asleep as it backs off. */
static bool holds_nothing(struct younger *y)
{
	unsigned int i;

	if (READ_ONCE(y->done))
		return false;
	for (i = 0; i < y->n; i++)
		if (READ_ONCE(y->list[i]->lock.ctx) == &y->ctx)
			return false;
	return READ_ONCE(y->ctx.acquired) == 0;
}

/*
 * Both transactions started, the older first: each task stamps its own
 * context, the older before the younger starts.
 */
static void start_pair(struct kunit *test, struct older *o, struct younger *y,
		       struct task_struct **to, struct task_struct **ty)
{
	*to = kthread_run(older_fn, o, "ww-older");
	KUNIT_ASSERT_NOT_NULL(test, *to);
	KUNIT_ASSERT_TRUE(test, wait_for_count(&o->reached, 1, WAIT_SECS));
	*ty = kthread_run(younger_fn, y, "ww-younger");
	KUNIT_ASSERT_NOT_NULL(test, *ty);
}

static void end_pair(struct kunit *test, struct older *o, struct younger *y,
		     struct task_struct *to, struct task_struct *ty,
		     int back_offs)
{
	WRITE_ONCE(o->step, 3);
	kthread_join(ty);
	kthread_join(to);
	KUNIT_EXPECT_EQ(test, y->ret, 0);
	KUNIT_EXPECT_TRUE(test, y->held_all);
	KUNIT_EXPECT_EQ(test, atomic_read(&bank.back_offs), back_offs);
	/* Retried as the same transaction: it stays older than newcomers. */
	KUNIT_EXPECT_EQ(test, y->stamp_after, y->stamp);
}

/*
 * The younger one takes A, dies at B (the older one's), lets A go and
 * sleeps on B, then takes A again.
 */
static void back_off_once(struct kunit *test)
{
	struct ww_account *list[] = { &accounts[0], &accounts[1] };
	struct older o = { .first = &accounts[1] };
	struct younger y = { .list = list, .n = 2 };
	struct task_struct *to, *ty;

	ww_bank_init(&bank, accounts, 2, 100);
	start_pair(test, &o, &y, &to, &ty);
	KUNIT_EXPECT_TRUE(test, younger_waits_on(&y, &accounts[1]));
	KUNIT_EXPECT_TRUE(test, holds_nothing(&y));
	WRITE_ONCE(o.step, 2);
	end_pair(test, &o, &y, to, ty, 1);
}

/*
 * The younger one dies at C and sleeps on it; the older one takes A and
 * lets C go; the younger one, holding C, dies at A: it must let go of C
 * too, the lock its slow path took, which lies past A in its list.
 */
static void back_off_twice(struct kunit *test)
{
	struct ww_account *list[] = {
		&accounts[0], &accounts[1], &accounts[2],
	};
	struct older o = { .first = &accounts[2], .second = &accounts[0] };
	struct younger y = { .list = list, .n = 3 };
	struct task_struct *to, *ty;

	ww_bank_init(&bank, accounts, 3, 100);
	start_pair(test, &o, &y, &to, &ty);
	KUNIT_EXPECT_TRUE(test, younger_waits_on(&y, &accounts[2]));
	KUNIT_EXPECT_TRUE(test, holds_nothing(&y));
	WRITE_ONCE(o.step, 2);
	KUNIT_EXPECT_TRUE(test, wait_for_count(&o.reached, 2, WAIT_SECS));
	KUNIT_EXPECT_TRUE(test, younger_waits_on(&y, &accounts[0]));
	KUNIT_EXPECT_TRUE(test, holds_nothing(&y));
	end_pair(test, &o, &y, to, ty, 2);
}

/* ---- transfers and audits at once ---- */

#define STRESS_ACCOUNTS		8
#define STRESS_BALANCE		1000
#define STRESS_TRANSFERS	1000
#define STRESS_WORKERS		4

struct transferrer {
	u32 state;
	int failed;			/* transfers that returned an error */
};

static int transfer_fn(void *arg)
{
	struct transferrer *t = arg;
	int i;

	for (i = 0; i < STRESS_TRANSFERS * (int)stress_factor; i++) {
		unsigned int from = random32_next(&t->state) % STRESS_ACCOUNTS;
		unsigned int to = (from + 1 + random32_next(&t->state) %
				   (STRESS_ACCOUNTS - 1)) % STRESS_ACCOUNTS;

		long amount = random32_next(&t->state) % 50;

		if (ww_bank_transfer(&bank, from, to, amount))
			t->failed++;
	}
	return 0;
}

struct auditor {
	volatile int stop;
	int audits;
	int wrong;			/* audits with another total */
};

static int audit_fn(void *arg)
{
	struct auditor *a = arg;
	long total;

	while (!READ_ONCE(a->stop)) {
		if (ww_bank_audit(&bank, &total) ||
		    total != STRESS_ACCOUNTS * STRESS_BALANCE)
			a->wrong++;
		a->audits++;
	}
	return 0;
}

static void transfers_and_audits(struct kunit *test)
{
	struct transferrer t[STRESS_WORKERS];
	struct auditor a = { 0 };
	struct task_struct *audit;
	struct workers w;
	int i, failed = 0;

	ww_bank_init(&bank, accounts, STRESS_ACCOUNTS, STRESS_BALANCE);
	for (i = 0; i < STRESS_WORKERS; i++)
		t[i] = (struct transferrer){ .state = 0x9e3779b9u * (i + 1) };
	audit = kthread_run(audit_fn, &a, "ww-audit");
	KUNIT_ASSERT_NOT_NULL(test, audit);
	KUNIT_EXPECT_EQ(test, workers_start(&w, STRESS_WORKERS, transfer_fn, t,
					    sizeof(t[0]), true, "ww-transfer"),
			STRESS_WORKERS);
	workers_join(&w);
	WRITE_ONCE(a.stop, 1);
	kthread_join(audit);
	for (i = 0; i < STRESS_WORKERS; i++)
		failed += t[i].failed;
	KUNIT_EXPECT_EQ(test, failed, 0);
	KUNIT_EXPECT_EQ(test, a.wrong, 0);
	KUNIT_EXPECT_EQ(test, sum_of_balances(),
			STRESS_ACCOUNTS * STRESS_BALANCE);
	kunit_info(test, "%d audits, %d back-offs", a.audits,
		   atomic_read(&bank.back_offs));
}

static struct kunit_case ww_lab_cases[] = {
	KUNIT_CASE(wait_die_decisions),
	KUNIT_CASE(transfer_and_audit),
	KUNIT_CASE(back_off_once),
	KUNIT_CASE(back_off_twice),
	KUNIT_CASE(transfers_and_audits),
	{}
};

static struct kunit_suite ww_lab_suite = {
	.name = "ww_lab",
	.test_cases = ww_lab_cases,
};
kunit_test_suite(ww_lab_suite);
