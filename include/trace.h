/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The event tracer (CONFIG_TRACING): lock and scheduler events in per-CPU
 * rings, for a timeline. See docs/tracing.md.
 *
 * Off until trace=lock,sched on the command line or "trace start" in the
 * console. An event costs a test of trace_mask when off; when on, a few
 * stores into this CPU's ring with interrupts off: no lock, no waiting,
 * and a full ring drops its oldest event and counts it. "trace dump" (or
 * the end of a traced bench= or test= run) prints the rings on the
 * console, for scripts/mutexos/trace.py to turn into a Perfetto trace.
 */
#ifndef _TRACE_H
#define _TRACE_H

#include <types.h>
#include <compiler.h>

struct task_struct;

/* What can be switched on: trace=lock,sched,irq (or all). */
#define TRACE_LOCK	(1U << 0)
#define TRACE_SCHED	(1U << 1)
#define TRACE_IRQ	(1U << 2)

enum trace_type {
	TRACE_CONTENDED,	/* lock: it has to wait */
	TRACE_ACQUIRED,		/* lock: got it, waited or not */
	TRACE_RELEASED,		/* lock: let it go */
	TRACE_SPIN_START,	/* mutex: spinning on its running owner */
	TRACE_SPIN_STOP,	/* ...stopped: aux 1 if it got the lock */
	TRACE_HANDOFF,		/* mutex: handed to task arg by its unlocker */
	TRACE_SWITCH,		/* arg: next pid, aux: prev's state (S, D, R) */
	TRACE_WAKEUP,		/* arg: the task woken */
	TRACE_IRQ_ENTRY,
	TRACE_IRQ_EXIT,
	TRACE_NR_TYPES,
};

/* The kind of lock of a lock event, its aux. */
#define TRACE_MUTEX	'm'
#define TRACE_SEM	's'
#define TRACE_RT_MUTEX	'r'

/* One event, as a ring keeps it. */
struct trace_entry {
	u64 ts;			/* ktime_get_ns(), the benchmarks' clock */
	const void *obj;	/* the lock, or NULL */
	u32 pid;		/* the task it happened in */
	u32 arg;
	u8 type;		/* enum trace_type */
	u8 aux;
};

#ifdef CONFIG_TRACING

extern unsigned int trace_mask;

void __trace_event(enum trace_type type, const void *obj, u32 arg, u8 aux);
void __trace_switch(struct task_struct *prev, struct task_struct *next);

static __always_inline bool trace_enabled(unsigned int what)
{
	return unlikely(READ_ONCE(trace_mask) & what);
}

/* A lock event: type, the lock, its kind (TRACE_MUTEX...). */
#define trace_lock(type, lock, kind) do {				\
	if (trace_enabled(TRACE_LOCK))					\
		__trace_event(type, lock, 0, kind);			\
} while (0)
#define trace_spin_stop(lock, got) do {					\
	if (trace_enabled(TRACE_LOCK))					\
		__trace_event(TRACE_SPIN_STOP, lock, 0, got);		\
} while (0)
#define trace_handoff(lock, to, kind) do {				\
	if (trace_enabled(TRACE_LOCK))					\
		__trace_event(TRACE_HANDOFF, lock, (to)->pid, kind);	\
} while (0)
#define trace_sched_switch(prev, next) do {				\
	if (trace_enabled(TRACE_SCHED))					\
		__trace_switch(prev, next);				\
} while (0)
#define trace_sched_wakeup(p) do {					\
	if (trace_enabled(TRACE_SCHED))					\
		__trace_event(TRACE_WAKEUP, NULL, (p)->pid, 0);		\
} while (0)
#define trace_irq(type) do {						\
	if (trace_enabled(TRACE_IRQ))					\
		__trace_event(type, NULL, 0, 0);			\
} while (0)

/* A name for a lock the symbol table does not know (on the heap). */
void trace_name_lock(const void *lock, const char *name);
/*
 * The name the dump gives pid, from its table of the tasks switched to,
 * one slot per pid mod TRACE_TASKS, into comm (TASK_COMM_LEN bytes);
 * false if it has none.
 */
#define TRACE_TASKS	256
bool trace_task_comm(u32 pid, char *comm);

/* trace=WHAT on the command line; false if the option is not ours. */
bool trace_parse_option(const char *name, const char *value);
/* WHAT: "lock,sched,irq", "all"; 0 and a message if a word is unknown. */
unsigned int trace_parse_mask(const char *what);
void trace_start(unsigned int mask);
/* Switches on what trace= asked for: from init, once tasks run. */
void trace_boot(void);
void trace_stop(void);
void trace_dump(void);
/* The end of a bench= or test= run: dumps if tracing; returns status. */
int trace_end(int status);

/* Per CPU: events kept, and dropped as the ring overflowed. */
#define TRACE_RING_SIZE		8192
void trace_counts(unsigned int cpu, unsigned long *events,
		  unsigned long *dropped);
/* With tracing stopped: cpu's events, oldest first; returns how many. */
unsigned long trace_copy(unsigned int cpu, struct trace_entry *buf,
			 unsigned long max);

#else /* !CONFIG_TRACING */

#define trace_enabled(what)			false
#define trace_lock(type, lock, kind)		do { } while (0)
#define trace_spin_stop(lock, got)		do { } while (0)
#define trace_handoff(lock, to, kind)		do { } while (0)
#define trace_sched_switch(prev, next)		do { } while (0)
#define trace_sched_wakeup(p)			do { } while (0)
#define trace_irq(type)				do { } while (0)
#define trace_name_lock(lock, name)		do { } while (0)
#define trace_parse_option(name, value)		false
#define trace_boot()				do { } while (0)
#define trace_end(status)			(status)

#endif /* CONFIG_TRACING */

#endif
