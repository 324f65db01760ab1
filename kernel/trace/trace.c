// SPDX-License-Identifier: GPL-2.0
/*
 * The event tracer (CONFIG_TRACING): lock and scheduler events in a ring
 * per CPU, dumped on the console for scripts/mutexos/trace.py, which
 * turns them into a timeline for Perfetto. docs/tracing.md shows it.
 *
 * The traced code is the lock code and the scheduler, so a write takes
 * no lock: each CPU writes only its own ring, with interrupts off, and a
 * full ring overwrites its oldest event (head counts every event written,
 * so what was lost is head - TRACE_RING_SIZE). The dump stops tracing
 * first and waits for the writes in flight, each ring's busy flag, before
 * it reads the rings.
 */
#include <kernel.h>
#include <string.h>
#include <sched.h>
#include <smp.h>
#include <time.h>
#include <kallsyms.h>
#include <trace.h>
#include <seqcount.h>
#include <asm/barrier.h>
#include <asm/spinlock.h>

struct trace_ring {
	u32 head;		/* events ever written; next slot mod size */
	int busy;		/* a write in progress on this CPU */
	struct trace_entry entries[TRACE_RING_SIZE];
};

static struct trace_ring rings[NR_CPUS];
unsigned int trace_mask;
/* trace= on the command line: switched on once the tasks run. */
static unsigned int boot_mask;

/*
 * The names of the tasks switched to, by pid: most have exited by the
 * time of the dump. A slot is shared by pids equal mod TRACE_TASKS; the
 * later one wins. CPUs write a slot under its sequence count, and a
 * reader (the dump) copies it whole: a name half overwritten by
 * another task's would be neither.
 */
static struct {
	seqcount_t seq;
	u32 pid;
	char comm[TASK_COMM_LEN];
} tasks[TRACE_TASKS];

/* Locks on the heap, named by their owners (trace_name_lock()). */
#define TRACE_NAMES	16
static struct {
	const void *lock;
	const char *name;
} names[TRACE_NAMES];
static unsigned int next_name;	/* the slot a new name takes */
static arch_spinlock_t names_lock = __ARCH_SPIN_LOCK_UNLOCKED;

static const char *const type_names[TRACE_NR_TYPES] = {
	[TRACE_CONTENDED] = "contended",
	[TRACE_ACQUIRED] = "acquired",
	[TRACE_RELEASED] = "released",
	[TRACE_SPIN_START] = "spin_start",
	[TRACE_SPIN_STOP] = "spin_stop",
	[TRACE_HANDOFF] = "handoff",
	[TRACE_SWITCH] = "switch",
	[TRACE_WAKEUP] = "wakeup",
	[TRACE_IRQ_ENTRY] = "irq_entry",
	[TRACE_IRQ_EXIT] = "irq_exit",
};

/* Interrupts off. The caller checked trace_mask; the dump may clear it. */
static void trace_write(enum trace_type type, const void *obj, u32 pid,
			u32 arg, u8 aux)
{
	struct trace_ring *r = &rings[smp_processor_id()];
	struct trace_entry *e;

	WRITE_ONCE(r->busy, 1);
	/* Against trace_stop(): it clears the mask, then reads busy. */
	smp_mb();
	if (READ_ONCE(trace_mask)) {
		e = &r->entries[r->head % TRACE_RING_SIZE];
		e->ts = ktime_get_ns();
		e->obj = obj;
		e->pid = pid;
		e->arg = arg;
		e->type = type;
		e->aux = aux;
		WRITE_ONCE(r->head, r->head + 1);
	}
	smp_mb();
	WRITE_ONCE(r->busy, 0);
}

void __trace_event(enum trace_type type, const void *obj, u32 arg, u8 aux)
{
	unsigned long flags = arch_local_irq_save();
	struct task_struct *task = current;

	trace_write(type, obj, task ? task->pid : 0, arg, aux);
	arch_local_irq_restore(flags);
}

static void remember_task(struct task_struct *p)
{
	unsigned int slot = p->pid % TRACE_TASKS;

	if (tasks[slot].pid == (u32)p->pid && tasks[slot].comm[0])
		return;
	/* Another CPU writes the slot: its task wins, as a later one would. */
	if (!write_seqcount_trybegin(&tasks[slot].seq))
		return;
	tasks[slot].pid = p->pid;
	memcpy(tasks[slot].comm, p->comm, TASK_COMM_LEN);
	write_seqcount_end(&tasks[slot].seq);
}

/* From __schedule(), interrupts off: prev stays queued if it still runs. */
void __trace_switch(struct task_struct *prev, struct task_struct *next)
{
	u8 state = prev->on_rq ? 'R' :
		   (prev->state & TASK_INTERRUPTIBLE) ? 'S' : 'D';

	remember_task(prev);
	remember_task(next);
	trace_write(TRACE_SWITCH, NULL, prev->pid, next->pid, state);
}

void trace_name_lock(const void *lock, const char *name)
{
	unsigned long flags = arch_local_irq_save();
	int i;

	arch_spin_lock(&names_lock);
	for (i = 0; i < TRACE_NAMES; i++)
		if (names[i].lock == lock)
			break;
	/* A new lock takes the oldest name's slot: heap memory is reused. */
	if (i == TRACE_NAMES)
		i = next_name++ % TRACE_NAMES;
	names[i].lock = lock;
	names[i].name = name;
	arch_spin_unlock(&names_lock);
	arch_local_irq_restore(flags);
}

/* ---- switching it on and off ---- */

static const struct {
	const char *word;
	unsigned int mask;
} words[] = {
	{ "lock", TRACE_LOCK }, { "sched", TRACE_SCHED }, { "irq", TRACE_IRQ },
	{ "all", TRACE_LOCK | TRACE_SCHED | TRACE_IRQ },
};

static unsigned int word_mask(const char *w, size_t len)
{
	for (size_t i = 0; i < ARRAY_SIZE(words); i++)
		if (strlen(words[i].word) == len && !strncmp(w, words[i].word, len))
			return words[i].mask;
	printk("trace: unknown event group '%.*s' (lock, sched, irq or all)\n",
	       (int)len, w);
	return 0;
}

unsigned int trace_parse_mask(const char *what)
{
	unsigned int mask = 0;

	while (*what) {
		const char *comma = strchr(what, ',');
		size_t len = comma ? (size_t)(comma - what) : strlen(what);
		unsigned int m = word_mask(what, len);

		if (!m)
			return 0;
		mask |= m;
		what += len;
		if (*what == ',')
			what++;
	}
	if (!mask)
		printk("trace: no event group given (lock, sched, irq or all)\n");
	return mask;
}

bool trace_parse_option(const char *name, const char *value)
{
	if (strcmp(name, "trace"))
		return false;
	boot_mask = trace_parse_mask(value);
	return true;
}

static bool ring_idle(struct trace_ring *r)
{
	u64 end = ktime_get_ns() + NSEC_PER_SEC;

	while (READ_ONCE(r->busy)) {
		if (ktime_get_ns() > end)
			return false;
		cpu_relax();
	}
	return true;
}

void trace_stop(void)
{
	WRITE_ONCE(trace_mask, 0);
	smp_mb();
	for (unsigned int cpu = 0; cpu < NR_CPUS; cpu++)
		if (!ring_idle(&rings[cpu]))
			printk("trace: CPU %u still writes an event after 1 s\n",
			       cpu);
}

/* Empties the rings and starts anew. */
void trace_start(unsigned int mask)
{
	trace_stop();
	for (unsigned int cpu = 0; cpu < NR_CPUS; cpu++)
		WRITE_ONCE(rings[cpu].head, 0);
	smp_mb();
	WRITE_ONCE(trace_mask, mask);
}

void trace_boot(void)
{
	if (boot_mask)
		trace_start(boot_mask);
}

/* ---- reading it back ---- */

void trace_counts(unsigned int cpu, unsigned long *events,
		  unsigned long *dropped)
{
	u32 head = READ_ONCE(rings[cpu].head);

	*events = min(head, (u32)TRACE_RING_SIZE);
	*dropped = head - *events;
}

unsigned long trace_copy(unsigned int cpu, struct trace_entry *buf,
			 unsigned long max)
{
	const struct trace_ring *r = &rings[cpu];
	unsigned long n, dropped;

	trace_counts(cpu, &n, &dropped);
	n = min(n, max);
	for (unsigned long i = 0; i < n; i++)
		buf[i] = r->entries[(r->head - n + i) % TRACE_RING_SIZE];
	return n;
}

/*
 * Under names_lock, as trace_name_lock() writes: a slot read while it
 * changes hands would name the lock with the next lock's name.
 */
static const char *registered_name(const void *lock)
{
	unsigned long flags = arch_local_irq_save();
	const char *name = NULL;

	arch_spin_lock(&names_lock);
	for (int i = 0; i < TRACE_NAMES && !name; i++)
		if (names[i].lock == lock)
			name = names[i].name;
	arch_spin_unlock(&names_lock);
	arch_local_irq_restore(flags);
	return name;
}

/* "trace: lock ADDR NAME": registered, or its symbol, or nothing. */
static void print_lock_name(const void *lock)
{
	const char *name = registered_name(lock);
	unsigned long offset;

	if (!name) {
		name = kallsyms_lookup((unsigned long)lock, NULL, &offset);
		if (name && offset) {
			printk("trace: lock %lx %s+0x%lx\n",
			       (unsigned long)lock, name, offset);
			return;
		}
	}
	printk("trace: lock %lx %s\n", (unsigned long)lock, name ? name : "");
}

/* The locks of the dump, each named once at its end. */
#define TRACE_DUMP_LOCKS	64
static const void *dump_locks[TRACE_DUMP_LOCKS];
static unsigned int nr_dump_locks;

static void note_lock(const void *lock)
{
	for (unsigned int i = 0; i < nr_dump_locks; i++)
		if (dump_locks[i] == lock)
			return;
	if (nr_dump_locks < TRACE_DUMP_LOCKS)
		dump_locks[nr_dump_locks++] = lock;
}

static void print_entry(unsigned int cpu, const struct trace_entry *e)
{
	printk("trace: e %u %llu %s %u %lx %u %c\n", cpu,
	       (unsigned long long)e->ts, type_names[e->type],
	       (unsigned int)e->pid, (unsigned long)e->obj,
	       (unsigned int)e->arg, e->aux ? e->aux : '-');
	if (e->obj)
		note_lock(e->obj);
}

static void dump_ring(unsigned int cpu)
{
	const struct trace_ring *r = &rings[cpu];
	unsigned long n, dropped;

	trace_counts(cpu, &n, &dropped);
	printk("trace: cpu %u events %lu dropped %lu\n", cpu, n, dropped);
	for (unsigned long i = 0; i < n; i++)
		print_entry(cpu, &r->entries[(r->head - n + i) % TRACE_RING_SIZE]);
}

/*
 * Slot i of the names of the tasks switched to, whole; false if empty.
 * Its writers keep interrupts off, so none is ever waited for from an
 * interrupt on its own CPU.
 */
static bool read_task_slot(unsigned int i, u32 *pid, char *comm)
{
	unsigned int seq;

	do {
		seq = read_seqcount_begin(&tasks[i].seq);
		*pid = tasks[i].pid;
		memcpy(comm, tasks[i].comm, TASK_COMM_LEN);
	} while (read_seqcount_retry(&tasks[i].seq, seq));
	return comm[0];
}

bool trace_task_comm(u32 pid, char *comm)
{
	u32 slot_pid;

	return read_task_slot(pid % TRACE_TASKS, &slot_pid, comm) &&
	       slot_pid == pid;
}

static void dump_tasks(void)
{
	char comm[TASK_COMM_LEN];
	struct task_struct *p;
	unsigned long flags;
	u32 pid;

	for (int i = 0; i < TRACE_TASKS; i++)
		if (read_task_slot(i, &pid, comm))
			printk("trace: task %u %s\n", (unsigned int)pid, comm);
	/* And the live ones never switched to while tracing. */
	spin_lock_irqsave(&task_list_lock, flags);
	list_for_each_entry(p, &task_list, tasks)
		printk("trace: task %u %s\n", p->pid, p->comm);
	spin_unlock_irqrestore(&task_list_lock, flags);
}

/* Stops tracing and prints every ring, oldest event first. */
void trace_dump(void)
{
	trace_stop();
	nr_dump_locks = 0;
	printk("trace: dump clock ns cpus %u ring %u\n", num_online_cpus(),
	       TRACE_RING_SIZE);
	for (unsigned int cpu = 0; cpu < NR_CPUS; cpu++)
		if (cpu_online(cpu))
			dump_ring(cpu);
	dump_tasks();
	for (unsigned int i = 0; i < nr_dump_locks; i++)
		print_lock_name(dump_locks[i]);
	printk("trace: end\n");
}

int trace_end(int status)
{
	if (READ_ONCE(trace_mask))
		trace_dump();
	return status;
}
