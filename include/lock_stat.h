/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Lock statistics (CONFIG_LOCK_STAT): per class of the lock-order
 * validator, how often its locks were taken and had to wait, and for how
 * long they were waited for and held; Linux's /proc/lock_stat, printed by
 * the console's "lockstat". See docs/lockdep.md, "Lock statistics".
 *
 * Every lock type calls the same two hooks around a wait, beside the
 * validator's lock_acquire() and lock_release():
 *
 *	lock_acquire(map, ...)		before it may wait
 *	lock_contended(map)		it has to wait
 *	lock_acquired(map)		it holds the lock, waited or not
 *	lock_release(map, ip)		it let it go: the hold time ends
 *
 * A trylock that succeeded is counted by its lock_acquire() alone.
 */
#ifndef _LOCK_STAT_H
#define _LOCK_STAT_H

#include <types.h>

struct lockdep_map;

#ifdef CONFIG_LOCK_STAT

/* Call sites remembered per class: where tasks waited for its locks. */
#define LOCKSTAT_POINTS		4

struct lock_time {
	u64 min, max, total;		/* nanoseconds; min of the non-zero */
	unsigned long nr;
};

/* One class's figures, summed over the CPUs: the columns of lock_stat. */
struct lock_class_stats {
	unsigned long con_bounces, acq_bounces;
	struct lock_time waittime, holdtime;	/* waittime.nr: contentions */
	unsigned long acquisitions;
	unsigned long contention_point[LOCKSTAT_POINTS];  /* waits at... */
	unsigned long contention_ip[LOCKSTAT_POINTS];	  /* ...these sites */
};

void lock_contended(struct lockdep_map *map);
void lock_acquired(struct lockdep_map *map);
/*
 * A wait that is no lock (a completion): a contention and an acquisition
 * of the class (map's key, LOCKSTAT_WAIT_SUBCLASS) that began at start.
 */
#define LOCKSTAT_WAIT_SUBCLASS	8
u64 lock_stat_clock(void);
void lock_waited(struct lockdep_map *map, u64 start, unsigned long ip);

/* The table, sorted by contentions; clearing starts every class at 0. */
void lock_stat_print(void);
void lock_stat_clear(void);
/* The figures of map's class; false if the validator gave it none. */
bool lock_stat_read(struct lockdep_map *map, unsigned int subclass,
		    struct lock_class_stats *st);

/* Between lockdep.c and lockstat.c. */
struct held_lock;
struct lock_class;
void lock_stat_acquire(struct held_lock *hl);
void lock_stat_release(struct held_lock *hl);
void lock_stat_class_new(unsigned int id);
unsigned int lockdep_class_id(const struct lock_class *class);
struct lock_class *lockdep_map_class(struct lockdep_map *map,
				     unsigned int subclass);
struct held_lock *lockdep_held_lock(struct lockdep_map *map);
/* The key and subclass of a class in use, or NULL. */
const char *lockdep_class_key(unsigned int id, unsigned int *subclass);

#else /* !CONFIG_LOCK_STAT */

#define lock_contended(map)		do { } while (0)
#define lock_acquired(map)		do { } while (0)
#define lock_stat_clock()		0ULL
#define lock_waited(map, start, ip)	do { (void)(start); (void)(ip); } while (0)
#define lock_stat_acquire(hl)		do { } while (0)
#define lock_stat_release(hl)		do { } while (0)
#define lock_stat_class_new(id)		do { } while (0)
#define lock_stat_print()		do { } while (0)
#define lock_stat_clear()		do { } while (0)

#endif /* CONFIG_LOCK_STAT */

#endif
