// SPDX-License-Identifier: GPL-2.0
/*
 * Wound/wait mutexes (include/ww_mutex.h, docs/ww-mutex.md), built on the
 * mutex: a ww_mutex is a struct mutex and the acquire context of its
 * holder.
 *
 * The lock path is its own, beside the mutex core's slowpath: it works
 * under the mutex's wait_lock, on the same count and wait list, so that
 * mutex_unlock() releases a ww_mutex and wakes its first waiter as it
 * does any mutex's, in every build. It differs in three ways: every
 * attempt goes through wait_lock (the holder's context is set there,
 * where the waiters read it); the waiters with a context are kept in
 * stamp order, oldest first, so that an unlock wakes the oldest; and a
 * waiter may be told to back off with -EDEADLK.
 */
#include <kernel.h>
#include <sched.h>
#include <ww_mutex.h>
#include <trace.h>
#include "mutex-debug-hooks.h"
#include "ww_mutex-debug.h"

/* Every class draws from one counter: a stamp is unique in the kernel. */
static atomic_t ww_stamp = ATOMIC_INIT(0);

void ww_mutex_init(struct ww_mutex *lock, struct ww_class *ww_class)
{
	__mutex_init(&lock->base, ww_class->mutex_name, ww_class->mutex_key);
	lock->ctx = NULL;
	debug_ww_mutex_init(lock, ww_class);
}

void ww_acquire_init(struct ww_acquire_ctx *ctx, struct ww_class *ww_class)
{
	ctx->task = current;
	ctx->ww_class = ww_class;
	ctx->stamp = atomic_inc_return(&ww_stamp);
	ctx->acquired = 0;
	ctx->wounded = false;
	debug_ww_acquire_init(ctx);
	/* The validator sees the context as a lock held until fini. */
	lockdep_init_map(&ctx->dep_map, ww_class->acquire_key);
	lock_acquire(&ctx->dep_map, 0, false, _RET_IP_);
}

void ww_acquire_done(struct ww_acquire_ctx *ctx)
{
	debug_ww_acquire_done(ctx);
}

void ww_acquire_fini(struct ww_acquire_ctx *ctx)
{
	debug_ww_acquire_fini(ctx, _RET_IP_);
	lock_release(&ctx->dep_map, _RET_IP_);
}

/* The rule of ctx's class: wait-die, or else wound-wait. */
static bool wait_die(struct ww_acquire_ctx *ctx)
{
	return ctx->ww_class->is_wait_die;
}

/*
 * Under wait_lock. Wound-wait: ctx, older, would wait for hold. hold
 * backs off at its next lock that would block; it may be asleep in one
 * already, so wake it (a task it is not asleep for takes the wakeup as
 * a spurious one, as every sleeper here must). The barrier orders the
 * mark before the wakeup's look at its state: either hold, about to
 * sleep, sees the mark, or the wakeup sees it asleep.
 */
static void wound(struct ww_acquire_ctx *hold, struct ww_acquire_ctx *ctx)
{
	if (!hold || !ww_ctx_older(ctx, hold))
		return;
	WRITE_ONCE(hold->wounded, true);
	smp_mb();
	if (hold->task != current)
		wake_up_process(hold->task);
}

/*
 * Under wait_lock, after a failed attempt: -EDEADLK when ctx must back
 * off rather than wait. Wait-die also dies for an older waiter queued
 * anywhere on the lock: it gets the lock first, and then we would wait
 * for an older holder.
 */
static int check_back_off(struct ww_mutex *lock, struct ww_acquire_ctx *ctx)
{
	struct mutex_waiter *w;

	if (!ctx)
		return 0;
	if (ww_waiter_backs_off(lock, ctx))
		return -EDEADLK;
	if (!ctx->acquired || !wait_die(ctx))
		return 0;
	list_for_each_entry(w, &lock->base.wait_list, list)
		if (w->ww_ctx && ww_ctx_older(w->ww_ctx, ctx))
			return -EDEADLK;
	return 0;
}

/* Under wait_lock: wait-die wakes a younger waiter that holds locks. */
static void tell_to_die(struct mutex_waiter *w, struct ww_acquire_ctx *ctx)
{
	if (w->ww_ctx && READ_ONCE(w->ww_ctx->acquired) &&
	    ww_ctx_older(ctx, w->ww_ctx))
		wake_up_process(w->ti->task);
}

/*
 * Under wait_lock. A waiter without a context goes to the tail; one with
 * a context goes before the first younger one: the list's contexts stay
 * oldest first. Wait-die: the younger ones behind it now die; wound-wait:
 * a younger holder is wounded.
 */
static void queue_ww_waiter(struct ww_mutex *lock, struct mutex_waiter *waiter)
{
	struct ww_acquire_ctx *ctx = waiter->ww_ctx;
	struct list_head *pos = &lock->base.wait_list;
	struct mutex_waiter *w;

	waiter->ti = current_thread_info();
	if (ctx) {
		list_for_each_entry(w, &lock->base.wait_list, list) {
			if (w->ww_ctx && ww_ctx_older(ctx, w->ww_ctx)) {
				pos = &w->list;
				break;
			}
		}
	}
	list_add_tail(&waiter->list, pos);
	if (ctx && wait_die(ctx)) {
		for (w = waiter; w->list.next != &lock->base.wait_list;) {
			w = list_next_entry(w, list);
			tell_to_die(w, ctx);
		}
	} else if (ctx) {
		wound(lock->ctx, ctx);
	}
	/* The deadlock detector, in the debug build, after the wound. */
	debug_mutex_add_waiter(&lock->base, waiter, waiter->ti);
}

/*
 * Under wait_lock: ctx (maybe NULL) got the lock, maybe past waiters
 * (an unlock woke the first, and we came first). The rule applies now as
 * if they had come after us: wait-die, the younger ones die; wound-wait,
 * an older one wounds us.
 */
static void set_holder(struct ww_mutex *lock, struct ww_acquire_ctx *ctx)
{
	struct mutex_waiter *w;

	WRITE_ONCE(lock->ctx, ctx);
	if (!ctx)
		return;
	debug_ww_acquired(ctx);
	/* Marked: other tasks' lock paths read it under their wait_locks. */
	WRITE_ONCE(ctx->acquired, ctx->acquired + 1);
	list_for_each_entry(w, &lock->base.wait_list, list) {
		if (wait_die(ctx))
			tell_to_die(w, ctx);
		else if (w->ww_ctx)
			wound(ctx, w->ww_ctx);
	}
}

/*
 * Under wait_lock, the mutex slowpath's protocol: swapping in -1 takes a
 * free lock, and marks a held one so that its unlock wakes a waiter.
 */
static bool try_take(struct ww_mutex *lock)
{
	return atomic_xchg(&lock->base.count, -1) == 1;
}

/*
 * Takes lock for ctx, sleeping in state: 0, -EDEADLK or -EINTR. A
 * waiter leaves only after an attempt that failed: the lock is held and
 * marked, so its unlock wakes whoever is first now.
 */
static int lock_or_back_off(struct ww_mutex *lock, struct ww_acquire_ctx *ctx,
			    long state)
{
	struct mutex *base = &lock->base;
	struct mutex_waiter waiter;
	bool queued = false;
	int ret = 0;

	debug_mutex_init_waiter(&waiter, state);
	waiter.ww_ctx = ctx;
	spin_lock(&base->wait_lock);
	for (;;) {
		if (try_take(lock))
			break;
		if (queued)
			set_current_state(state);
		ret = check_back_off(lock, ctx);
		if (!ret && state == TASK_INTERRUPTIBLE &&
		    signal_pending(current))
			ret = -EINTR;
		if (ret)
			break;
		if (!queued) {
			lock_contended(&base->dep_map);
			trace_lock(TRACE_CONTENDED, base, TRACE_MUTEX);
			queue_ww_waiter(lock, &waiter);
			queued = true;
			/* Now a wound or a die wakes us: look again. */
			continue;
		}
		spin_unlock(&base->wait_lock);
		schedule();
		spin_lock(&base->wait_lock);
	}
	__set_current_state(TASK_RUNNING);
	if (queued) {
		list_del(&waiter.list);
		debug_mutex_remove_waiter(base, &waiter, waiter.ti);
	}
	if (!ret) {
		mutex_unmark_contended(base);
		set_holder(lock, ctx);
	}
	spin_unlock(&base->wait_lock);
	return ret;
}

static int __ww_mutex_lock(struct ww_mutex *lock, struct ww_acquire_ctx *ctx,
			   long state, unsigned long ip)
{
	int ret;

	if (ctx) {
		/* Only ctx's task stores ctx there: exact without a lock. */
		if (READ_ONCE(lock->ctx) == ctx)
			return -EALREADY;
		debug_ww_lock_check(lock, ctx, ip);
		/* Backed off (or new): the last wounds are healed. */
		if (!ctx->acquired)
			WRITE_ONCE(ctx->wounded, false);
	}
	lock_acquire_nest(&lock->base.dep_map, 0, false,
			  ctx ? &ctx->dep_map : NULL, ip);
	ret = lock_or_back_off(lock, ctx, state);
	if (ret) {
		lock_release(&lock->base.dep_map, ip);
		if (ret == -EDEADLK)
			debug_ww_contended(ctx, lock);
		return ret;
	}
	lock_acquired(&lock->base.dep_map);
	trace_lock(TRACE_ACQUIRED, &lock->base, TRACE_MUTEX);
	debug_mutex_set_owner(&lock->base, ip);
	return 0;
}

/**
 * ww_mutex_lock - take lock in the transaction ctx, or be told to back off
 * Returns 0, -EALREADY or -EDEADLK (include/ww_mutex.h).
 */
int ww_mutex_lock(struct ww_mutex *lock, struct ww_acquire_ctx *ctx)
{
	if (!debug_mutex_enter(&lock->base, true))
		return -EINTR;
	return __ww_mutex_lock(lock, ctx, TASK_UNINTERRUPTIBLE, _RET_IP_);
}

int ww_mutex_lock_interruptible(struct ww_mutex *lock,
				struct ww_acquire_ctx *ctx)
{
	if (!debug_mutex_enter(&lock->base, true))
		return -EINTR;
	return __ww_mutex_lock(lock, ctx, TASK_INTERRUPTIBLE, _RET_IP_);
}

/*
 * The slow variants differ only in what the caller promises: it holds
 * nothing, so the lock path never tells it to back off.
 */
void ww_mutex_lock_slow(struct ww_mutex *lock, struct ww_acquire_ctx *ctx)
{
	if (!debug_mutex_enter(&lock->base, true))
		return;
	__ww_mutex_lock(lock, ctx, TASK_UNINTERRUPTIBLE, _RET_IP_);
}

int ww_mutex_lock_slow_interruptible(struct ww_mutex *lock,
				     struct ww_acquire_ctx *ctx)
{
	if (!debug_mutex_enter(&lock->base, true))
		return -EINTR;
	return __ww_mutex_lock(lock, ctx, TASK_INTERRUPTIBLE, _RET_IP_);
}

/**
 * ww_mutex_trylock - take lock if that needs no waiting
 * Returns 1 when taken, 0 when held (by ctx too: no -EALREADY here).
 */
int ww_mutex_trylock(struct ww_mutex *lock, struct ww_acquire_ctx *ctx)
{
	struct mutex *base = &lock->base;
	bool taken;

	if (!debug_mutex_enter(base, false))
		return 0;
	if (ctx)
		debug_ww_lock_check(lock, ctx, _RET_IP_);
	spin_lock(&base->wait_lock);
	taken = try_take(lock);
	mutex_unmark_contended(base);
	if (taken)
		set_holder(lock, ctx);
	spin_unlock(&base->wait_lock);
	if (!taken)
		return 0;
	lock_acquire_nest(&base->dep_map, 0, true,
			  ctx ? &ctx->dep_map : NULL, _RET_IP_);
	trace_lock(TRACE_ACQUIRED, base, TRACE_MUTEX);
	debug_mutex_set_owner(base, _RET_IP_);
	return 1;
}

/**
 * ww_mutex_unlock - release lock, waking its oldest waiter
 * Its context forgets it under wait_lock: a waiter reads the holder's
 * context there, and may wound it, only while it holds the lock.
 */
void ww_mutex_unlock(struct ww_mutex *lock)
{
	struct mutex *base = &lock->base;
	struct ww_acquire_ctx *ctx;

	spin_lock(&base->wait_lock);
	ctx = lock->ctx;
	if (ctx && ctx->task == current) {
		WRITE_ONCE(ctx->acquired, ctx->acquired - 1);
		WRITE_ONCE(lock->ctx, NULL);
	}
	spin_unlock(&base->wait_lock);
	mutex_unlock(base);
}

/**
 * ww_lock_all - take every lock of locks[0..n) under ctx, backing off
 * Not Linux API: the loop each user of ww_mutex writes, once, for the
 * suite, demo ww and bench=ww.
 */
int ww_lock_all(struct ww_mutex **locks, int n, struct ww_acquire_ctx *ctx)
{
	int held = -1;		/* the one the slow path took */
	int backoffs = 0;
	int i, ret;

	for (;;) {
		for (i = 0, ret = 0; i < n; i++) {
			if (i == held)
				continue;
			ret = ww_mutex_lock(locks[i], ctx);
			if (ret == -EALREADY)
				ret = 0;
			if (ret)
				break;
		}
		if (!ret)
			return backoffs;
		/* -EDEADLK on locks[i]: let go of all we hold */
		for (int j = 0; j < i; j++)
			ww_mutex_unlock(locks[j]);
		if (held > i)
			ww_mutex_unlock(locks[held]);
		backoffs++;
		/* sleep for the one in the way, then the rest */
		ww_mutex_lock_slow(locks[i], ctx);
		held = i;
	}
}
