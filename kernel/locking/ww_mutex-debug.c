// SPDX-License-Identifier: GPL-2.0
/*
 * The debug build's checks of the ww_mutex rules (include/ww_mutex.h):
 * each broken rule gets a report in the debug mutex's format, with a
 * line about the acquire context, and the call goes on as the rules
 * would have it go on. docs/ww-mutex.md shows them.
 */
#include <kernel.h>
#include <sched.h>
#include "ww_mutex-debug.h"

static void report(enum mutex_bug kind, struct ww_mutex *lock,
		   struct ww_acquire_ctx *ctx, unsigned long ip)
{
	struct ww_class *ww_class = ctx->ww_class;
	char line[160];
	int n;

	n = snprintf(line, sizeof(line),
		     "acquire context: stamp %u, %s, of the class of {%s}, %u held",
		     ctx->stamp,
		     ww_class->is_wait_die ? "wait-die" : "wound-wait",
		     ww_class->mutex_name, ctx->acquired);
	if (ctx->contending_lock && n > 0 && n < (int)sizeof(line))
		snprintf(line + n, sizeof(line) - n, ", -EDEADLK on [%p]",
			 ctx->contending_lock);
	mutex_debug_report_ww(kind, lock ? &lock->base : NULL, ip, line);
}

void debug_ww_acquire_fini(struct ww_acquire_ctx *ctx, unsigned long ip)
{
	if (ctx->acquired)
		report(MUTEX_BUG_WW_FINI_HELD, NULL, ctx, ip);
}

void debug_ww_lock_check(struct ww_mutex *lock, struct ww_acquire_ctx *ctx,
			 unsigned long ip)
{
	if (lock->ww_class != ctx->ww_class)
		report(MUTEX_BUG_WW_CLASS, lock, ctx, ip);
	if (ctx->done_acquire)
		report(MUTEX_BUG_WW_AFTER_DONE, lock, ctx, ip);
	if (ctx->contending_lock && ctx->acquired)
		report(MUTEX_BUG_WW_NO_BACKOFF, lock, ctx, ip);
}
