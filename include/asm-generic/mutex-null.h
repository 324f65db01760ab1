/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The null mutex fastpath: every operation goes to the slowpath, which does
 * all its work under the wait_lock. The 2006 debug build used it, so that
 * every lock and unlock passed through the checks there.
 */
#ifndef _ASM_GENERIC_MUTEX_NULL_H
#define _ASM_GENERIC_MUTEX_NULL_H

#define __mutex_fastpath_lock(count, fail_fn)		fail_fn(count)
#define __mutex_fastpath_lock_retval(count, fail_fn)	fail_fn(count)
#define __mutex_fastpath_unlock(count, fail_fn)		fail_fn(count)
#define __mutex_fastpath_trylock(count, fail_fn)	fail_fn(count)
/* Nothing touched the count: the slowpath releases it. */
#define __mutex_slowpath_needs_to_unlock()		1

#endif
