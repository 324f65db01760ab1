/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The lock-order validator (CONFIG_PROVE_LOCKING): it proves lock-order
 * bugs from a run in which nothing deadlocked. See docs/lockdep.md.
 *
 * Every lock belongs to a class, named by where its locks are defined or
 * initialised. The validator keeps the locks each task holds, records
 * "A was held when B was taken" once per pair of classes, and reports a
 * new dependency that closes a cycle, recursion within one class, and
 * interrupt-safety mistakes, before any of them has deadlocked.
 *
 * The lock code calls the hooks below; without the option they are empty
 * and a lock carries nothing for the validator.
 */
#ifndef _LOCKDEP_H
#define _LOCKDEP_H

#include <types.h>
#include <compiler.h>

#ifdef CONFIG_PROVE_LOCKING

struct lock_class;

/* What each lock carries for the validator. */
struct lockdep_map {
	const char *key;		/* its class; NULL: not validated */
	struct lock_class *class;	/* of subclass 0, once looked up */
#ifdef CONFIG_LOCK_STAT
	int cpu;			/* that took it last: the bounces */
#endif
};

/*
 * The class key of a lock defined or initialised here: "name (file:line)",
 * a string literal. Two literals with the same text come from the same
 * line, so the string's address stands for one place in the source, and
 * its text names the class in reports.
 */
#define LOCKDEP_KEY(name) \
	#name " (" __FILE__ ":" __stringify(__LINE__) ")"
#define __DEP_MAP_INIT(name)	.dep_map = { .key = LOCKDEP_KEY(name) },

/*
 * The most locks one task may hold at once; the stack of held locks lives
 * in its task_struct.
 */
#define MAX_LOCK_DEPTH		32

/* The most lock classes: the validator's table, and lock_stat's. */
#define MAX_LOCKDEP_KEYS	256

struct held_lock {
	struct lockdep_map *map;
	struct lock_class *class;	/* NULL if taken while switched off */
	unsigned long ip;		/* where it was taken */
	bool trylock;
	bool in_irq;			/* taken in hardirq context */
#ifdef CONFIG_LOCK_STAT
	u64 waittime_stamp;		/* when it contended, or 0 */
	u64 holdtime_stamp;		/* when it was got, or 0 */
#endif
};

struct lockdep_task {
	unsigned int depth;
	struct held_lock held[MAX_LOCK_DEPTH];
	/*
	 * The lock each was taken under (lock_acquire_nest()), or NULL:
	 * beside held[], whose 16-byte entries every validated lock indexes
	 * (a 20-byte one cost a mutex pair 18 instructions).
	 */
	struct lockdep_map *nest[MAX_LOCK_DEPTH];
};

void lockdep_init_map(struct lockdep_map *map, const char *key);
/* False, after a report, if the current task holds the lock. */
bool lockdep_may_reinit(struct lockdep_map *map, unsigned long ip);
void lock_acquire(struct lockdep_map *map, unsigned int subclass,
		  bool trylock, unsigned long ip);
/*
 * lock_acquire() of one of many locks of a class that the task takes
 * under nest, a lock it holds first (a ww_mutex's acquire context): the
 * locks of the class taken under the same nest are no recursion, and
 * order nothing among themselves. Without nest, a lock of a class held
 * already is recursion, as ever.
 */
void lock_acquire_nest(struct lockdep_map *map, unsigned int subclass,
		       bool trylock, struct lockdep_map *nest,
		       unsigned long ip);
void lock_release(struct lockdep_map *map, unsigned long ip);
/* One line of figures: classes, dependencies, deepest stack. */
void lockdep_print_stats(void);

/* The kinds of report, for the tests (lockdep_reports[kind]). */
enum lockdep_bug {
	LOCKDEP_BUG_CIRCULAR,		/* a new edge closes a cycle */
	LOCKDEP_BUG_RECURSIVE,		/* a class taken inside itself */
	LOCKDEP_BUG_INCONSISTENT,	/* in hardirq, and with irqs on */
	LOCKDEP_BUG_IRQ_INVERSION,	/* irq-safe before irq-unsafe */
	LOCKDEP_BUG_UNLOCK_BALANCE,	/* released but not held */
	LOCKDEP_BUG_INIT_HELD,		/* initialised while held */
	LOCKDEP_BUG_LIMIT,		/* a table is full: switched off */
	LOCKDEP_BUG_NR,
};

extern const char *const lockdep_bug_title[LOCKDEP_BUG_NR];
extern unsigned long lockdep_reports[LOCKDEP_BUG_NR];
/* False once a table overflowed: no more checks, no more reports. */
extern bool lockdep_on;

/* For the self-test: limits below the table sizes, and a fresh start. */
extern unsigned int lockdep_max_classes, lockdep_max_deps;
void lockdep_reset_keys(const void *keys, size_t size);

#else /* !CONFIG_PROVE_LOCKING */

#define LOCKDEP_KEY(name)			NULL
#define __DEP_MAP_INIT(name)
#define lockdep_init_map(map, key)		do { } while (0)
#define lockdep_may_reinit(map, ip)		true
#define lock_acquire(map, subclass, trylock, ip) do { } while (0)
#define lock_acquire_nest(map, subclass, trylock, nest, ip) \
	do { } while (0)
#define lock_release(map, ip)			do { } while (0)
#define lockdep_print_stats()			do { } while (0)

#endif /* CONFIG_PROVE_LOCKING */

#include <lock_stat.h>

#endif
