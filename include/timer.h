/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Kernel timers: call a function from the tick interrupt once jiffies
 * reaches expires. One list for the whole machine, run by the boot CPU.
 */
#ifndef _TIMER_H
#define _TIMER_H

#include <list.h>
#include <time.h>

/*
 * timer_setup() flags. A deferrable timer only lets a daemon look around
 * now and then: it is not work that would wake a machine where every
 * task sleeps (timer_quiet_and()).
 */
#define TIMER_DEFERRABLE	0x1

struct timer_list {
	struct list_head entry;		/* on the pending list, if pending */
	unsigned long expires;
	void (*function)(struct timer_list *t);
	unsigned long data;		/* for the callback's use */
	unsigned int flags;
};

void timer_setup(struct timer_list *t, void (*fn)(struct timer_list *),
		 unsigned int flags);
/* Returns 1 when the timer was pending before (and is now re-armed). */
int mod_timer(struct timer_list *t, unsigned long expires);
void add_timer(struct timer_list *t);
int del_timer(struct timer_list *t);
/* Also waits until a callback that is running on another CPU has ended. */
int del_timer_sync(struct timer_list *t);
int timer_pending(const struct timer_list *t);
/*
 * True when no timer that is not deferrable is armed or running and
 * quiet(arg) holds, both seen at one instant: no timer is armed, fired
 * or deleted while quiet() runs, with interrupts off (lib/kunit's stuck
 * check; quiet() must not touch timers).
 */
bool timer_quiet_and(bool (*quiet)(void *arg), void *arg);
void show_timers(void);

void run_timers(void);

#endif
