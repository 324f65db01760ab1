/* SPDX-License-Identifier: GPL-2.0 */
/* What the race detector's watchpoints (core.c) hand to its report. */
#ifndef _KERNEL_KCSAN_KCSAN_H
#define _KERNEL_KCSAN_KCSAN_H

#include <types.h>
#include <sched.h>

#define KCSAN_STACK_DEPTH	16

/* One side of a race: an access, by whom, and the stack it came from. */
struct kcsan_access {
	unsigned long addr;
	unsigned int size;
	bool write;
	bool marked;		/* READ_ONCE, WRITE_ONCE, an atomic */
	bool assert;		/* ASSERT_EXCLUSIVE_ACCESS() or _WRITER() */
	bool exclusive;		/* in kcsan_exclusive_begin()'s range */
	bool irq;		/* by an interrupt handler, on that CPU */
	int cpu;
	pid_t pid;		/* the task it interrupted, if irq */
	char comm[TASK_COMM_LEN];
	unsigned int depth;
	unsigned long stack[KCSAN_STACK_DEPTH];	/* stack[0]: the access */
};

/*
 * Prints one report: watcher is the access that armed the watchpoint,
 * other the one that hit it, or NULL when only the value changed (a
 * writer the watchpoints cannot see). Rate-limited per pair of places.
 */
void kcsan_report(const struct kcsan_access *watcher,
		  const struct kcsan_access *other,
		  bool changed, u64 old, u64 new);

#endif
