// SPDX-License-Identifier: GPL-2.0
/*
 * The race detector's report, in the form of Linux's KCSAN so that its
 * documentation reads for ours:
 *
 *   BUG: KCSAN: data-race in func_a / func_b
 *   (or "assert: race in" when one side is an ASSERT_EXCLUSIVE_*() or in
 *   kcsan_exclusive_begin()'s range)
 *
 *   write to 0x... of 4 bytes by task 12 (worker) on cpu 1:
 *    [<...>] func_b+0x1c/0x40
 *    ...
 *   read to 0x... of 4 bytes by task 11 (worker) on cpu 0:
 *    [<...>] func_a+0x10/0x30
 *    ...
 *   value changed: 0x00000007 -> 0x00000008
 *
 * An interrupt handler's side reads "by interrupt on cpu 0" instead.
 *
 * The two function names are in alphabetical order, so that a race reads
 * the same whichever side watched. A pair of places reported in the last
 * KCSAN_REPORT_GAP_NS is counted but not printed again.
 */
#include <kernel.h>
#include <string.h>
#include <kallsyms.h>
#include <kcsan.h>
#include <time.h>
#include <asm/spinlock.h>
#include "kcsan.h"

#define KCSAN_REPORT_GAP_NS	(3 * NSEC_PER_SEC)
#define KCSAN_RECENT		16

unsigned long kcsan_races_seen;
unsigned long kcsan_reports_printed;

/* One report at a time, so that two CPUs' lines never mix. */
static arch_spinlock_t report_lock = __ARCH_SPIN_LOCK_UNLOCKED;

static struct recent_race {
	unsigned long ip_a, ip_b;
	u64 when;
} recent[KCSAN_RECENT];
static unsigned int recent_next;

/* Under report_lock: false if this pair was printed a moment ago. */
static bool first_in_a_while(unsigned long ip_a, unsigned long ip_b)
{
	u64 now = ktime_get_ns();
	unsigned int i;

	if (ip_a > ip_b) {
		unsigned long t = ip_a;

		ip_a = ip_b;
		ip_b = t;
	}
	for (i = 0; i < KCSAN_RECENT; i++) {
		struct recent_race *r = &recent[i];

		if (r->when && r->ip_a == ip_a && r->ip_b == ip_b &&
		    now - r->when < KCSAN_REPORT_GAP_NS)
			return false;
	}
	recent[recent_next] = (struct recent_race){ ip_a, ip_b, now };
	recent_next = (recent_next + 1) % KCSAN_RECENT;
	return true;
}

/* The function of an access: the first entry of its stack. */
static const char *func_name(const struct kcsan_access *a)
{
	const char *name = a->depth ?
		kallsyms_lookup(a->stack[0], NULL, NULL) : NULL;

	return name ?: "<unknown>";
}

static unsigned long access_ip(const struct kcsan_access *a)
{
	return a->depth ? a->stack[0] : 0;
}

/* An access an assertion or the exclusive range makes a rule of. */
static bool is_assert(const struct kcsan_access *a)
{
	return a->assert || a->exclusive;
}

static void print_title(const struct kcsan_access *watcher,
			const struct kcsan_access *other)
{
	const char *a = func_name(watcher);
	const char *b = other ? func_name(other) : NULL;
	const char *what = is_assert(watcher) || (other && is_assert(other)) ?
		"assert: race" : "data-race";

	if (!b)
		printk("BUG: KCSAN: %s in %s\n\n", what, a);
	else if (strcmp(a, b) <= 0)
		printk("BUG: KCSAN: %s in %s / %s\n\n", what, a, b);
	else
		printk("BUG: KCSAN: %s in %s / %s\n\n", what, b, a);
}

static const char *access_kind(const struct kcsan_access *a)
{
	if (a->assert)
		return a->write ? "assert no accesses" : "assert no writes";
	if (a->exclusive)
		return a->write ? "write (exclusive)" : "read (exclusive)";
	if (a->write)
		return a->marked ? "write (marked)" : "write";
	return a->marked ? "read (marked)" : "read";
}

static void print_access(const struct kcsan_access *a, const char *prefix)
{
	unsigned int i;

	if (a->irq)
		printk("%s%s to 0x%0*lx of %u bytes by interrupt on cpu %d:\n",
		       prefix, access_kind(a), (int)(2 * sizeof(long)),
		       a->addr, a->size, a->cpu);
	else
		printk("%s%s to 0x%0*lx of %u bytes by task %d (%s) on cpu %d:\n",
		       prefix, access_kind(a), (int)(2 * sizeof(long)),
		       a->addr, a->size, a->pid, a->comm, a->cpu);
	for (i = 0; i < a->depth; i++)
		printk(" [<%0*lx>] %pS\n", (int)(2 * sizeof(long)),
		       a->stack[i], (void *)a->stack[i]);
	printk("\n");
}

void kcsan_report(const struct kcsan_access *watcher,
		  const struct kcsan_access *other,
		  bool changed, u64 old, u64 new)
{
	arch_spin_lock(&report_lock);
	kcsan_races_seen++;
	if (!first_in_a_while(access_ip(watcher),
			      other ? access_ip(other) : 0))
		goto out;
	report_mark_start();
	printk("==================================================================\n");
	print_title(watcher, other);
	if (other) {
		print_access(other, "");
		print_access(watcher, "");
	} else {
		print_access(watcher, "race at unknown origin, with ");
	}
	if (changed)
		printk("value changed: 0x%0*llx -> 0x%0*llx\n",
		       (int)(2 * watcher->size), old,
		       (int)(2 * watcher->size), new);
	printk("==================================================================\n");
	kcsan_reports_printed++;
	report_mark_end();
out:
	arch_spin_unlock(&report_lock);
}
