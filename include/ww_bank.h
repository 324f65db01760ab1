/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A bank of accounts, each behind a ww_mutex of one wait-die class: lab
 * 11's code (docs/labs/lab11.md). A transfer takes two accounts and an
 * audit takes them all, in orders that cross, so that transactions
 * back off (include/ww_mutex.h) rather than deadlock.
 */
#ifndef _WW_BANK_H
#define _WW_BANK_H

#include <ww_mutex.h>

/* The most accounts a bank has: an audit lists them on its stack. */
#define WW_BANK_MAX	16

struct ww_account {
	struct ww_mutex lock;
	long balance;			/* under lock */
};

struct ww_bank {
	struct ww_account *accounts;
	unsigned int n;
	atomic_t back_offs;		/* -EDEADLKs its transactions took */
};

/* The class of every account's lock. */
extern struct ww_class ww_bank_class;

/* n accounts (at most WW_BANK_MAX), each with balance. */
void ww_bank_init(struct ww_bank *bank, struct ww_account *accounts,
		  unsigned int n, long balance);

/*
 * Moves amount from account from to account to: 0, -EINVAL for an
 * account the bank has not, or ww_bank_lock()'s error (-EALREADY when
 * from is to).
 */
int ww_bank_transfer(struct ww_bank *bank, unsigned int from,
		     unsigned int to, long amount);
/* The sum of every balance, read at one instant into *total: 0 or an error. */
int ww_bank_audit(struct ww_bank *bank, long *total);

/*
 * Takes the lock of each of the n accounts of list in ctx, backing off
 * and retrying on -EDEADLK, ctx keeping its stamp: 0 with all held, or
 * another error of ww_mutex_lock() with none held.
 */
int ww_bank_lock(struct ww_bank *bank, struct ww_account **list,
		 unsigned int n, struct ww_acquire_ctx *ctx);
void ww_bank_unlock(struct ww_account **list, unsigned int n);

#endif
