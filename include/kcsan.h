/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The data-race detector (CONFIG_KCSAN, kernel/kcsan/, docs/kcsan.md).
 * The marking helpers, __no_kcsan and data_race(), are in compiler.h.
 */
#ifndef _KCSAN_H
#define _KCSAN_H

#include <types.h>

/* The defaults of kcsan.skip= and kcsan.udelay= (docs/kcsan.md). */
#define KCSAN_SKIP_DEFAULT	2000
#define KCSAN_UDELAY_DEFAULT	20

/* What kind of access kcsan_check_access() checks: a read unless WRITE. */
#define KCSAN_ACCESS_WRITE	1
#define KCSAN_ACCESS_MARKED	2	/* as READ_ONCE, WRITE_ONCE, atomics */
#define KCSAN_ACCESS_ASSERT	8	/* ASSERT_EXCLUSIVE_*(): below */

#ifdef CONFIG_KCSAN
/* Watch one access in about this many, for this many microseconds. */
extern unsigned int kcsan_skip;
extern unsigned int kcsan_udelay;
/* Races seen (printed or rate-limited) and reports printed, since boot. */
extern unsigned long kcsan_races_seen;
extern unsigned long kcsan_reports_printed;
/*
 * Per CPU: the memory order (__ATOMIC_*) the last __atomic builtin ran
 * at, which is the one its code asked for; for the tests.
 */
extern int kcsan_atomic_order[];

/*
 * Until kcsan_exclusive_end(), only one CPU at a time touches these
 * bytes, not even with READ_ONCE (a lock's own data, say): every access
 * to them is watched, for kcsan.udelay, and another CPU's access
 * meanwhile is reported as "assert: race". One range at a time; for
 * tests, which know what they share.
 */
void kcsan_exclusive_begin(const volatile void *p, size_t size);
void kcsan_exclusive_end(void);

/*
 * Checks an access of size bytes at ptr, of type KCSAN_ACCESS_*, as the
 * compiler's instrumentation would check one: against the watchpoints
 * other CPUs armed, and, one in about kcsan.skip, watched itself.
 */
void kcsan_check_access(const volatile void *ptr, size_t size, int type);

/* Starts watching, once every CPU is up. */
void kcsan_init(void);
/* kcsan.skip=N, kcsan.udelay=N on the command line; false if not ours. */
bool kcsan_parse_option(const char *name, const char *value);
#else
static inline void kcsan_init(void) { }
static inline bool kcsan_parse_option(const char *name, const char *value)
{
	return false;
}
static inline void kcsan_check_access(const volatile void *ptr, size_t size,
				      int type)
{
}
#endif

/*
 * Invariants of the locking code, as Linux's: where they stand, no other
 * CPU (nor, with the interrupt watcher, a handler on this one) writes
 * var, or touches it at all, even with READ_ONCE or an atomic. They do
 * not access var; a sampled one watches it for kcsan.udelay, and what
 * breaks the rule meanwhile is reported as "assert: race". Nothing in a
 * build without CONFIG_KCSAN.
 */
#define ASSERT_EXCLUSIVE_WRITER(var)					\
	kcsan_check_access(&(var), sizeof(var), KCSAN_ACCESS_ASSERT)
#define ASSERT_EXCLUSIVE_ACCESS(var)					\
	kcsan_check_access(&(var), sizeof(var),				\
			   KCSAN_ACCESS_ASSERT | KCSAN_ACCESS_WRITE)

#endif
