// SPDX-License-Identifier: GPL-2.0
/*
 * The ww_mutex bank of lab 11 (include/ww_bank.h): transfers lock their
 * two accounts source first, audits lock every account from the last
 * down, so two transactions often want each other's accounts. The back-
 * off loop of ww_bank_lock() is what keeps that from a deadlock
 * (docs/ww-mutex.md).
 */
#include <kernel.h>
#include <ww_bank.h>

DEFINE_WD_CLASS(ww_bank_class);

void ww_bank_init(struct ww_bank *bank, struct ww_account *accounts,
		  unsigned int n, long balance)
{
	unsigned int i;

	BUG_ON(n > WW_BANK_MAX);
	for (i = 0; i < n; i++) {
		ww_mutex_init(&accounts[i].lock, &ww_bank_class);
		accounts[i].balance = balance;
	}
	bank->accounts = accounts;
	bank->n = n;
	atomic_set(&bank->back_offs, 0);
}

void ww_bank_unlock(struct ww_account **list, unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		ww_mutex_unlock(&list[i]->lock);
}

int ww_bank_lock(struct ww_bank *bank, struct ww_account **list,
		 unsigned int n, struct ww_acquire_ctx *ctx)
{
	/* LAB 11 BEGIN: the back-off loop */
	struct ww_account *contended = NULL;	/* taken by the slow path */
	unsigned int i;
	int ret;

retry:
	for (i = 0; i < n; i++) {
		if (list[i] == contended) {
			contended = NULL;
			continue;
		}
		ret = ww_mutex_lock(&list[i]->lock, ctx);
		if (!ret)
			continue;
		/* Let go of all we hold: list[0..i), and the slow path's. */
		ww_bank_unlock(list, i);
		if (contended)
			ww_mutex_unlock(&contended->lock);
		if (ret != -EDEADLK)
			return ret;
		atomic_inc(&bank->back_offs);
		/* Wait for the one in the way, same stamp, then the rest. */
		contended = list[i];
		ww_mutex_lock_slow(&contended->lock, ctx);
		goto retry;
	}
	return 0;
	/* LAB 11 STUB: Take the lock of each account of list with
	 * ww_mutex_lock(&list[i]->lock, ctx). On -EDEADLK: release every
	 * lock you hold, count the back-off (atomic_inc(&bank->back_offs)),
	 * sleep for the contended one with ww_mutex_lock_slow() and take
	 * the others again, with the same ctx. On another error: release
	 * all you hold and return it. 0 once all are held.
	 *|	return -ENOSYS;
	 * LAB 11 END */
}

/* Takes the n accounts of list in a transaction of its own. */
static int lock_transaction(struct ww_bank *bank, struct ww_account **list,
			    unsigned int n, struct ww_acquire_ctx *ctx)
{
	int ret;

	ww_acquire_init(ctx, &ww_bank_class);
	ret = ww_bank_lock(bank, list, n, ctx);
	if (ret)
		ww_acquire_fini(ctx);
	else
		ww_acquire_done(ctx);
	return ret;
}

static void unlock_transaction(struct ww_account **list, unsigned int n,
			       struct ww_acquire_ctx *ctx)
{
	ww_bank_unlock(list, n);
	ww_acquire_fini(ctx);
}

int ww_bank_transfer(struct ww_bank *bank, unsigned int from,
		     unsigned int to, long amount)
{
	struct ww_account *list[2];
	struct ww_acquire_ctx ctx;
	long left;
	int ret;

	if (from >= bank->n || to >= bank->n)
		return -EINVAL;
	list[0] = &bank->accounts[from];
	list[1] = &bank->accounts[to];
	ret = lock_transaction(bank, list, 2, &ctx);
	if (ret)
		return ret;
	/* Read, then write back: without the locks, a transfer is lost. */
	left = READ_ONCE(list[0]->balance) - amount;
	cpu_relax();
	WRITE_ONCE(list[0]->balance, left);
	WRITE_ONCE(list[1]->balance, READ_ONCE(list[1]->balance) + amount);
	unlock_transaction(list, 2, &ctx);
	return 0;
}

int ww_bank_audit(struct ww_bank *bank, long *total)
{
	struct ww_account *list[WW_BANK_MAX];
	struct ww_acquire_ctx ctx;
	unsigned int i;
	int ret;

	for (i = 0; i < bank->n; i++)
		list[i] = &bank->accounts[bank->n - 1 - i];
	ret = lock_transaction(bank, list, bank->n, &ctx);
	if (ret)
		return ret;
	*total = 0;
	for (i = 0; i < bank->n; i++)
		*total += READ_ONCE(list[i]->balance);
	unlock_transaction(list, bank->n, &ctx);
	return 0;
}
