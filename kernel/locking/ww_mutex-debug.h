/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The hooks kernel/locking/ww_mutex.c calls: in the debug build they
 * check the rules of include/ww_mutex.h and report a broken one in the
 * debug mutex's format (kernel/locking/ww_mutex-debug.c), then let the
 * call go on; otherwise they are empty.
 */
#ifndef _KERNEL_WW_MUTEX_DEBUG_H
#define _KERNEL_WW_MUTEX_DEBUG_H

#include <ww_mutex.h>

#ifdef CONFIG_DEBUG_MUTEXES

static inline void debug_ww_mutex_init(struct ww_mutex *lock,
				       struct ww_class *ww_class)
{
	lock->ww_class = ww_class;
}

static inline void debug_ww_acquire_init(struct ww_acquire_ctx *ctx)
{
	ctx->contending_lock = NULL;
	ctx->done_acquire = false;
}

static inline void debug_ww_acquire_done(struct ww_acquire_ctx *ctx)
{
	ctx->done_acquire = true;
}

/* Locks still held. */
void debug_ww_acquire_fini(struct ww_acquire_ctx *ctx, unsigned long ip);
/* Before a lock attempt: the class, done, and backing off after -EDEADLK. */
void debug_ww_lock_check(struct ww_mutex *lock, struct ww_acquire_ctx *ctx,
			 unsigned long ip);

/* ctx got -EDEADLK on lock: it must now hold nothing before it goes on. */
static inline void debug_ww_contended(struct ww_acquire_ctx *ctx,
				      struct ww_mutex *lock)
{
	ctx->contending_lock = lock;
}

/* ctx took a lock: with none held before, it has backed off. */
static inline void debug_ww_acquired(struct ww_acquire_ctx *ctx)
{
	if (!ctx->acquired)
		ctx->contending_lock = NULL;
}

#else
#define debug_ww_mutex_init(lock, ww_class)	do { } while (0)
#define debug_ww_acquire_init(ctx)		do { } while (0)
#define debug_ww_acquire_done(ctx)		do { } while (0)
#define debug_ww_acquire_fini(ctx, ip)		do { } while (0)
#define debug_ww_lock_check(lock, ctx, ip)	do { } while (0)
#define debug_ww_contended(ctx, lock)		do { } while (0)
#define debug_ww_acquired(ctx)			do { } while (0)
#endif /* CONFIG_DEBUG_MUTEXES */

#endif
