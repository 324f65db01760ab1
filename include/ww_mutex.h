/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Wound/wait mutexes: deadlock avoidance for a task that must take many
 * locks of one class in no fixed order. See docs/ww-mutex.md.
 *
 * A transaction takes its locks under an acquire context, which gets a
 * stamp (its age) at ww_acquire_init(). When two contexts want each
 * other's locks, the older one wins and the younger one gets -EDEADLK:
 * it must release every ww_mutex it holds, wait for the contended one
 * with ww_mutex_lock_slow(), and take the others again, keeping its
 * stamp, so that it grows older until it is the one that wins.
 *
 *	wait-die (DEFINE_WD_CLASS): a younger context that would wait for
 *	an older one dies (-EDEADLK) instead; an older one waits.
 *	wound-wait (DEFINE_WW_CLASS): an older context that would wait for
 *	a younger one wounds it; the wounded one gets -EDEADLK at its next
 *	ww_mutex_lock() that would block, and is woken if it sleeps in one.
 *
 * Rules (checked with CONFIG_DEBUG_MUTEXES): one class per context; after
 * -EDEADLK release everything before the next lock; no lock after
 * ww_acquire_done(); no ww_acquire_fini() with locks held.
 */
#ifndef _WW_MUTEX_H
#define _WW_MUTEX_H

#include <mutex.h>

struct ww_class {
	const char *mutex_name;		/* its ww_mutexes' (debug reports) */
	bool is_wait_die;		/* else wound-wait */
	/* The validator's classes (LOCKDEP_KEY, NULL without it). */
	const char *acquire_key;	/* its contexts' */
	const char *mutex_key;		/* its ww_mutexes' */
};

struct ww_acquire_ctx {
	struct task_struct *task;
	struct ww_class *ww_class;
	unsigned int stamp;		/* smaller: older (wrapping compare) */
	unsigned int acquired;		/* ww_mutexes it holds */
	bool wounded;			/* wound-wait: an older one wants ours */
#ifdef CONFIG_DEBUG_MUTEXES
	struct ww_mutex *contending_lock;	/* -EDEADLK'd, not backed off */
	bool done_acquire;		/* ww_acquire_done() was called */
#endif
#ifdef CONFIG_PROVE_LOCKING
	struct lockdep_map dep_map;	/* held from init to fini */
#endif
};

struct ww_mutex {
	struct mutex base;
	struct ww_acquire_ctx *ctx;	/* the holder's; NULL: none */
#ifdef CONFIG_DEBUG_MUTEXES
	struct ww_class *ww_class;
#endif
};

#define __WW_CLASS_INITIALIZER(classname, wait_die) {			\
	.mutex_name = #classname "_mutex",				\
	.is_wait_die = wait_die,					\
	.acquire_key = LOCKDEP_KEY(classname##_acquire),		\
	.mutex_key = LOCKDEP_KEY(classname##_mutex) }

#define DEFINE_WW_CLASS(classname) \
	struct ww_class classname = __WW_CLASS_INITIALIZER(classname, false)
#define DEFINE_WD_CLASS(classname) \
	struct ww_class classname = __WW_CLASS_INITIALIZER(classname, true)

void ww_mutex_init(struct ww_mutex *lock, struct ww_class *ww_class);

static inline bool ww_mutex_is_locked(struct ww_mutex *lock)
{
	return mutex_is_locked(&lock->base);
}

/* A new transaction, with the next stamp. */
void ww_acquire_init(struct ww_acquire_ctx *ctx, struct ww_class *ww_class);
/* Optional: says that ctx takes no more locks (checked in debug builds). */
void ww_acquire_done(struct ww_acquire_ctx *ctx);
/* The end: every ww_mutex of ctx must be unlocked by now. */
void ww_acquire_fini(struct ww_acquire_ctx *ctx);

/*
 * 0 with the lock held; -EALREADY if ctx holds it already; -EDEADLK when
 * ctx must back off (never with no lock held); the interruptible ones
 * -EINTR on a signal. ctx NULL: a plain mutex_lock().
 */
int ww_mutex_lock(struct ww_mutex *lock, struct ww_acquire_ctx *ctx);
int ww_mutex_lock_interruptible(struct ww_mutex *lock,
				struct ww_acquire_ctx *ctx);
/*
 * After -EDEADLK and releasing everything: sleep for the contended lock.
 * Holding nothing, ctx cannot be told to back off, so no -EDEADLK.
 */
void ww_mutex_lock_slow(struct ww_mutex *lock, struct ww_acquire_ctx *ctx);
int ww_mutex_lock_slow_interruptible(struct ww_mutex *lock,
				     struct ww_acquire_ctx *ctx);
/* 1 when taken, 0 when busy; never waits, so never -EDEADLK. */
int ww_mutex_trylock(struct ww_mutex *lock, struct ww_acquire_ctx *ctx);
void ww_mutex_unlock(struct ww_mutex *lock);

/*
 * The back-off loop of docs/ww-mutex.md over an array, for the tests,
 * demo ww and bench=ww: takes every lock of locks[0..n) under ctx,
 * backing off and sleeping for the contended one on -EDEADLK, keeping
 * the stamp. A lock ctx holds already counts as taken. Returns how often
 * it backed off.
 */
int ww_lock_all(struct ww_mutex **locks, int n, struct ww_acquire_ctx *ctx);

/* Whether a began before b; wrapping, as jiffies compare. */
static inline bool ww_ctx_older(struct ww_acquire_ctx *a,
				struct ww_acquire_ctx *b)
{
	return (int)(a->stamp - b->stamp) < 0;
}

/*
 * Whether ctx, waiting for lock, must back off at its next pass: the
 * lock path asks it, and so does the debug build's deadlock detector (a
 * wait through it does not last). Inline: the detector's file is lab
 * 7's, which may call nothing of this file's.
 */
static inline bool ww_waiter_backs_off(struct ww_mutex *lock,
				       struct ww_acquire_ctx *ctx)
{
	struct ww_acquire_ctx *hold = READ_ONCE(lock->ctx);

	/* Holding nothing, it blocks nobody: it may wait for anyone. */
	if (!READ_ONCE(ctx->acquired))
		return false;
	if (!ctx->ww_class->is_wait_die)
		return READ_ONCE(ctx->wounded);
	/* LAB 11 BEGIN: wait-die's stamp comparison */
	return hold && ww_ctx_older(hold, ctx);
	/* LAB 11 STUB: Wait-die: ctx, which holds locks, must die rather
	 * than wait for hold, the lock's holder's context (NULL: none),
	 * when hold is older (ww_ctx_older() compares stamps as they wrap).
	 *|	return hold != NULL;
	 * LAB 11 END */
}

#endif
