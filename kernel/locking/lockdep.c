// SPDX-License-Identifier: GPL-2.0
/*
 * The lock-order validator (CONFIG_PROVE_LOCKING): the idea of Linux's
 * lockdep, which followed the mutex in 2006, in a small form.
 * docs/lockdep.md explains it and shows its reports.
 *
 * A deadlock needs a cycle: one task holds A and waits for B while another
 * holds B and waits for A. It happens only when the timing is unlucky, but
 * the orders that make it possible show in any run: somebody took B while
 * holding A, and somebody, maybe much later, took A while holding B. So
 * the validator watches classes of locks, not locks (every lock defined or
 * initialised at one place in the source is one class), and keeps a graph
 * with an edge A -> B for "a lock of class B was taken while one of class
 * A was held", recorded once, with where both were taken. Each new edge is
 * checked at once: if B already leads to A, the edge closes a cycle.
 *
 * The same graph carries the interrupt rule of spinlocks: a class taken in
 * hardirq context (irq-safe) must never be held with interrupts on, and
 * must never come before a class that is (irq-unsafe).
 *
 * The tables are static. A full one is reported and switches the checks
 * off; the stacks of held locks are kept even then, so the self-test can
 * switch them on again.
 *
 * Locking: each task's held-lock stack is its own, changed with interrupts
 * off. The classes and the graph are under graph_lock, a raw arch lock
 * (the validator must not validate itself), taken with interrupts off;
 * reports are printed under it.
 */
#include <kernel.h>
#include <string.h>
#include <sched.h>
#include <lockdep.h>
#include <asm/spinlock.h>

#define MAX_LOCKDEP_ENTRIES	1024	/* dependencies */
#define CLASS_HASH_BITS		7
#define CLASS_HASH_SIZE		(1 << CLASS_HASH_BITS)

/* The limits in force, at most the table sizes: a test lowers them. */
unsigned int lockdep_max_classes = MAX_LOCKDEP_KEYS;
unsigned int lockdep_max_deps = MAX_LOCKDEP_ENTRIES;

/* What a class was seen doing, each remembered with where it was first. */
enum lock_usage {
	USED_IN_IRQ,		/* taken in hardirq context: irq-safe */
	HELD_IRQS_ON,		/* held with interrupts on: irq-unsafe */
	NR_USAGE,
};

struct lock_dep;

struct lock_class {
	const char *key;		/* and name; NULL: a free slot */
	unsigned int subclass;
	struct lock_class *hash_next;	/* its hash chain, or free list */
	struct lock_dep *after;		/* edges this -> other */
	struct lock_dep *before;	/* edges other -> this */
	unsigned int usage;		/* 1 << enum lock_usage */
	unsigned long usage_ip[NR_USAGE];
	bool recursion_reported;
	unsigned int search_gen;	/* the last search that reached it */
	struct lock_dep *search_via;	/* and the edge it came by */
};

/* "to was taken while from was held", and where each was taken. */
struct lock_dep {
	struct lock_class *from, *to;	/* from NULL: a free slot */
	struct lock_dep *next_after;	/* in from->after, or free list */
	struct lock_dep *next_before;	/* in to->before */
	unsigned long from_ip, to_ip;
};

static struct lock_class classes[MAX_LOCKDEP_KEYS];
static struct lock_class *class_hash[CLASS_HASH_SIZE];
static struct lock_class *free_classes;
static unsigned int classes_touched, nr_classes;

static struct lock_dep deps[MAX_LOCKDEP_ENTRIES];
static struct lock_dep *free_deps;
static unsigned int deps_touched, nr_deps;

static unsigned int max_depth_seen;
static arch_spinlock_t graph_lock = __ARCH_SPIN_LOCK_UNLOCKED;

bool lockdep_on = true;
unsigned long lockdep_reports[LOCKDEP_BUG_NR];

const char *const lockdep_bug_title[LOCKDEP_BUG_NR] = {
	[LOCKDEP_BUG_CIRCULAR] =
		"WARNING: possible circular locking dependency detected",
	[LOCKDEP_BUG_RECURSIVE] =
		"WARNING: possible recursive locking detected",
	[LOCKDEP_BUG_INCONSISTENT] = "WARNING: inconsistent lock state",
	[LOCKDEP_BUG_IRQ_INVERSION] =
		"WARNING: possible irq lock inversion dependency detected",
	[LOCKDEP_BUG_UNLOCK_BALANCE] = "WARNING: bad unlock balance detected",
	[LOCKDEP_BUG_INIT_HELD] = "WARNING: held lock re-initialised",
	[LOCKDEP_BUG_LIMIT] = "BUG: MAX_LOCKDEP_... too low",
};

/* ---- printing ---- */

#define RULE	"======================================================\n"

static void report_begin(enum lockdep_bug kind)
{
	lockdep_reports[kind]++;
	report_mark_start();
	printk("\n" RULE "%s\n", lockdep_bug_title[kind]);
	printk("------------------------------------------------------\n");
}

/* A class's name: its key up to " (file:line)", and its subclass. */
static void print_short(struct lock_class *class)
{
	const char *site = strstr(class->key, " (");
	int len = site ? site - class->key : (int)strlen(class->key);

	printk("%.*s", len, class->key);
	if (class->subclass)
		printk("/%u", class->subclass);
}

/* {name (file:line)/subclass}, the class in full. */
static void print_class(struct lock_class *class)
{
	printk("{%s", class->key);
	if (class->subclass)
		printk("/%u", class->subclass);
	printk("}");
}

/*
 * A held lock, by its class: the lock itself may be gone (freed while
 * held, a bug the debug build reports), its key with it.
 */
static void print_held(struct held_lock *hl)
{
	if (hl->class)
		print_class(hl->class);
	else
		printk("[%p] (taken while switched off)", hl->map);
	printk(" at %pS%s", (void *)hl->ip, hl->in_irq ? " (in hardirq)" : "");
}

static void print_held_locks(struct task_struct *task)
{
	struct lockdep_task *lt = &task->lockdep;
	unsigned int n = lt->depth;

	printk("\n%s/%d holds %u lock%s:\n", task->comm, task->pid, n,
	       n == 1 ? "" : "s");
	for (unsigned int i = 0; i < n; i++) {
		printk(" #%u: ", i);
		print_held(&lt->held[i]);
		printk("\n");
	}
}

static void report_end(void)
{
	print_held_locks(current);
	printk("\nstack backtrace:\n");
	dump_stack();
	printk(RULE);
	report_mark_end();
}

static void print_task(void)
{
	printk("%s/%d on CPU %u ", current->comm, current->pid,
	       smp_processor_id());
}

/* One edge of a chain, with its evidence. */
static void print_link(unsigned int nr, struct lock_dep *dep, bool is_new)
{
	printk("#%u ", nr);
	print_class(dep->from);
	printk(" -> ");
	print_class(dep->to);
	printk("%s\n       ", is_new ? "   (new)" : "");
	print_short(dep->from);
	printk(" taken at %pS\n       then ", (void *)dep->from_ip);
	print_short(dep->to);
	printk(" at %pS\n", (void *)dep->to_ip);
}

static void print_chain(struct lock_dep **chain, unsigned int n,
			struct lock_dep *new)
{
	for (unsigned int i = 0; i < n; i++)
		print_link(i, chain[i], chain[i] == new);
}

/* One line of the scenario table: CPU0 on the left, CPU1 on the right. */
static void scenario_line(int cpu, const char *before, struct lock_class *c,
			  const char *after)
{
	printk("%s%s", cpu ? "                               " : "  ", before);
	if (c)
		print_short(c);
	printk("%s\n", after);
}

static void scenario_head(bool two_cpus)
{
	printk("\n Possible unsafe locking scenario:\n\n");
	if (two_cpus)
		printk("       CPU0                    CPU1\n"
		       "       ----                    ----\n");
	else
		printk("       CPU0\n       ----\n");
}

static void scenario_tail(void)
{
	printk("\n *** DEADLOCK ***\n");
}

/* ---- classes ---- */

static void report_limit(const char *what, unsigned int limit);

static unsigned int class_hash_of(const char *key, unsigned int subclass)
{
	u32 h = (u32)((unsigned long)key >> 2) + subclass;

	/* Multiplicative hashing: the top bits of h times 2^32 / phi. */
	return (h * 2654435761U) >> (32 - CLASS_HASH_BITS);
}

static struct lock_class *alloc_class(void)
{
	struct lock_class *class = free_classes;

	if (nr_classes >= lockdep_max_classes) {
		report_limit("MAX_LOCKDEP_KEYS", lockdep_max_classes);
		return NULL;
	}
	if (class)
		free_classes = class->hash_next;
	else
		class = &classes[classes_touched++];
	nr_classes++;
	memset(class, 0, sizeof(*class));
	lock_stat_class_new(class - classes);
	return class;
}

/* The class of (key, subclass), registered on first sight. graph_lock. */
static struct lock_class *lookup_class(const char *key, unsigned int subclass)
{
	struct lock_class **head = &class_hash[class_hash_of(key, subclass)];
	struct lock_class *class;

	for (class = *head; class; class = class->hash_next)
		if (class->key == key && class->subclass == subclass)
			return class;
	class = alloc_class();
	if (!class)
		return NULL;
	class->key = key;
	class->subclass = subclass;
	class->hash_next = *head;
	*head = class;
	return class;
}

/* Subclass 0's class is kept in the lock: most lookups take no lock. */
static struct lock_class *map_class(struct lockdep_map *map,
				    unsigned int subclass)
{
	struct lock_class *class = READ_ONCE(map->class);

	if (class && !subclass)
		return class;
	arch_spin_lock(&graph_lock);
	class = lockdep_on ? lookup_class(map->key, subclass) : NULL;
	if (!subclass) {
		/* Read without the lock: the class is complete first. */
		smp_wmb();
		WRITE_ONCE(map->class, class);
	}
	arch_spin_unlock(&graph_lock);
	return class;
}

void lockdep_init_map(struct lockdep_map *map, const char *key)
{
	map->key = key;
	map->class = NULL;
}

/* ---- the graph ---- */

static struct lock_dep *alloc_dep(void)
{
	struct lock_dep *dep = free_deps;

	if (nr_deps >= lockdep_max_deps) {
		report_limit("MAX_LOCKDEP_ENTRIES", lockdep_max_deps);
		return NULL;
	}
	if (dep)
		free_deps = dep->next_after;
	else
		dep = &deps[deps_touched++];
	nr_deps++;
	return dep;
}

static bool has_dep(struct lock_class *from, struct lock_class *to)
{
	for (struct lock_dep *dep = from->after; dep; dep = dep->next_after)
		if (dep->to == to)
			return true;
	return false;
}

typedef bool (*class_match_t)(struct lock_class *class, const void *arg);

static bool is_class(struct lock_class *class, const void *target)
{
	return class == target;
}

static bool is_irq_safe(struct lock_class *class, const void *unused)
{
	return class->usage & (1U << USED_IN_IRQ);
}

static bool is_irq_unsafe(struct lock_class *class, const void *unused)
{
	return class->usage & (1U << HELD_IRQS_ON);
}

/* The edges of a class, out of it (forward) or into it. */
static struct lock_dep *first_edge(struct lock_class *class, bool forward)
{
	return forward ? class->after : class->before;
}

static struct lock_dep *next_edge(struct lock_dep *dep, bool forward)
{
	return forward ? dep->next_after : dep->next_before;
}

/* One class per slot at most, so the queue never overflows. */
static struct lock_class *search_queue[MAX_LOCKDEP_KEYS];
static unsigned int search_gen;

/*
 * Breadth-first search from start, along the edges (forward) or against
 * them, for the nearest class that matches, start included. Each class
 * reached remembers the edge it was reached by, for search_path().
 */
static struct lock_class *search(struct lock_class *start, bool forward,
				 class_match_t match, const void *arg)
{
	unsigned int head = 0, tail = 0;

	search_gen++;
	start->search_gen = search_gen;
	start->search_via = NULL;
	search_queue[tail++] = start;
	while (head < tail) {
		struct lock_class *class = search_queue[head++];
		struct lock_dep *dep;

		if (match(class, arg))
			return class;
		for (dep = first_edge(class, forward); dep;
		     dep = next_edge(dep, forward)) {
			struct lock_class *next = forward ? dep->to : dep->from;

			if (next->search_gen == search_gen)
				continue;
			next->search_gen = search_gen;
			next->search_via = dep;
			search_queue[tail++] = next;
		}
	}
	return NULL;
}

/*
 * The edges from the last search's start to found, in the direction of
 * the edges: start -> ... -> found forward, found -> ... -> start back.
 */
static unsigned int search_path(struct lock_class *found, bool forward,
				struct lock_dep **path)
{
	unsigned int n = 0;

	for (struct lock_dep *dep = found->search_via; dep;
	     dep = (forward ? dep->from : dep->to)->search_via)
		path[n++] = dep;
	for (unsigned int i = 0; forward && i < n / 2; i++) {
		struct lock_dep *t = path[i];

		path[i] = path[n - 1 - i];
		path[n - 1 - i] = t;
	}
	return n;
}

/* Two searches and the edge between them: the longest chain reported. */
static struct lock_dep *chain[2 * MAX_LOCKDEP_KEYS + 1];

/* ---- reports made under graph_lock ---- */

static void report_limit(const char *what, unsigned int limit)
{
	if (!lockdep_on)
		return;
	WRITE_ONCE(lockdep_on, false);
	lockdep_reports[LOCKDEP_BUG_LIMIT]++;
	report_mark_start();
	printk("BUG: %s too low!\n", what);
	printk("all %u in use: "
	       "turning off the locking correctness validator.\n", limit);
	dump_stack();
	report_mark_end();
}

/*
 * dep (held -> wanted) is new, and the graph already leads from wanted
 * back to held through chain[0..n-1].
 */
static void report_circular(struct lock_dep *dep, unsigned int n)
{
	struct lock_class *held = dep->from, *wanted = dep->to;
	struct lock_class *last = chain[n - 1]->from;

	report_begin(LOCKDEP_BUG_CIRCULAR);
	print_task();
	printk("is trying to take\n  ");
	print_class(wanted);
	printk(" at %pS\nwhile holding\n  ", (void *)dep->to_ip);
	print_class(held);
	printk(" taken at %pS\nbut ", (void *)dep->from_ip);
	print_short(wanted);
	printk(" already comes before ");
	print_short(held);
	printk(": this closes a cycle.\n"
	       "Its links, each with where its two locks were taken:\n\n");
	chain[n] = dep;
	print_chain(chain, n + 1, dep);

	scenario_head(true);
	scenario_line(0, "lock(", held, ");");
	scenario_line(1, "lock(", last, ");");
	scenario_line(1, "lock(", held, ");");
	scenario_line(0, "lock(", wanted, ");");
	if (last != wanted) {
		printk("\n (CPU1 got to ");
		print_short(last);
		printk(" from ");
		print_short(wanted);
		printk(" through the chain above)\n");
	}
	scenario_tail();
	report_end();
}

/* Does the new edge close a cycle: a path from its end back to its start? */
static bool check_cycle(struct lock_dep *dep)
{
	struct lock_class *found = search(dep->to, true, is_class, dep->from);

	if (!found)
		return false;
	report_circular(dep, search_path(found, true, chain));
	return true;
}

/* safe -> ... -> unsafe through chain[0..n-1] (new: the edge just made). */
static void report_irq_inversion(struct lock_class *safe,
				 struct lock_class *unsafe, unsigned int n,
				 struct lock_dep *new)
{
	report_begin(LOCKDEP_BUG_IRQ_INVERSION);
	print_task();
	printk("has just made this order possible:\n  ");
	print_class(safe);
	printk(" is irq-safe: taken in hardirq context at %pS\n  ",
	       (void *)safe->usage_ip[USED_IN_IRQ]);
	print_class(unsafe);
	printk(" is irq-unsafe: held with interrupts on at %pS\nand ",
	       (void *)unsafe->usage_ip[HELD_IRQS_ON]);
	print_short(safe);
	printk(" comes before ");
	print_short(unsafe);
	printk(" in the lock order:\n\n");
	print_chain(chain, n, new);

	scenario_head(true);
	scenario_line(0, "lock(", unsafe, ");");
	scenario_line(1, "local_irq_disable();", NULL, "");
	scenario_line(1, "lock(", safe, ");");
	scenario_line(1, "lock(", unsafe, ");");
	scenario_line(0, "<Interrupt>", NULL, "");
	scenario_line(0, "  lock(", safe, ");");
	scenario_tail();
	report_end();
}

/*
 * After the new edge from -> to: is there an irq-safe class at or before
 * from, and an irq-unsafe one at or after to?
 */
static void check_irq_order(struct lock_dep *dep)
{
	struct lock_class *safe, *unsafe;
	unsigned int n;

	safe = search(dep->from, false, is_irq_safe, NULL);
	if (!safe)
		return;
	n = search_path(safe, false, chain);
	unsafe = search(dep->to, true, is_irq_unsafe, NULL);
	if (!unsafe)
		return;
	chain[n++] = dep;
	n += search_path(unsafe, true, chain + n);
	report_irq_inversion(safe, unsafe, n, dep);
}

static void add_dependency(struct held_lock *prev, struct held_lock *next)
{
	struct lock_dep *dep;

	arch_spin_lock(&graph_lock);
	if (!lockdep_on || has_dep(prev->class, next->class))
		goto out;
	dep = alloc_dep();
	if (!dep)
		goto out;
	*dep = (struct lock_dep){
		.from = prev->class, .to = next->class,
		.from_ip = prev->ip, .to_ip = next->ip,
		.next_after = prev->class->after,
		.next_before = next->class->before,
	};
	prev->class->after = dep;
	next->class->before = dep;
	/* Kept even if it closes a cycle: that cycle is reported once. */
	if (!check_cycle(dep))
		check_irq_order(dep);
out:
	arch_spin_unlock(&graph_lock);
}

/* ---- interrupt safety ---- */

static void report_inconsistent(struct lock_class *class, unsigned long ip)
{
	report_begin(LOCKDEP_BUG_INCONSISTENT);
	print_class(class);
	printk(" is taken in hardirq context and held with interrupts on:\n");
	printk("  in hardirq context at: %pS\n",
	       (void *)class->usage_ip[USED_IN_IRQ]);
	printk("  with interrupts on at: %pS\n",
	       (void *)class->usage_ip[HELD_IRQS_ON]);
	printk("(seen just now by ");
	print_task();
	printk("at %pS)\n", (void *)ip);

	scenario_head(false);
	scenario_line(0, "lock(", class, ");");
	scenario_line(0, "<Interrupt>", NULL, "");
	scenario_line(0, "  lock(", class, ");");
	scenario_tail();
	report_end();
}

/* The class was just seen doing usage for the first time. */
static void check_new_usage(struct lock_class *class, enum lock_usage usage,
			    unsigned long ip)
{
	struct lock_class *other;

	if (class->usage & (1U << (usage ^ 1))) {
		report_inconsistent(class, ip);
	} else if (usage == USED_IN_IRQ) {
		other = search(class, true, is_irq_unsafe, NULL);
		if (other)
			report_irq_inversion(class, other,
					     search_path(other, true, chain),
					     NULL);
	} else {
		other = search(class, false, is_irq_safe, NULL);
		if (other)
			report_irq_inversion(other, class,
					     search_path(other, false, chain),
					     NULL);
	}
}

static void learn_usage(struct lock_class *class, enum lock_usage usage,
			unsigned long ip)
{
	arch_spin_lock(&graph_lock);
	if (lockdep_on && !(class->usage & (1U << usage))) {
		class->usage |= 1U << usage;
		class->usage_ip[usage] = ip;
		check_new_usage(class, usage, ip);
	}
	arch_spin_unlock(&graph_lock);
}

/*
 * A class learns each usage once: usually there is nothing to do, and
 * that test is inline, as it runs on every acquisition and release.
 */
static inline void mark_usage(struct lock_class *class,
			      enum lock_usage usage, unsigned long ip)
{
	if (unlikely(!(READ_ONCE(class->usage) & (1U << usage))))
		learn_usage(class, usage, ip);
}

/* ---- acquiring and releasing ---- */

static void report_recursion(struct held_lock *prev, struct held_lock *next)
{
	report_begin(LOCKDEP_BUG_RECURSIVE);
	print_task();
	printk("is trying to take\n  ");
	print_class(next->class);
	printk(" at %pS\nbut already holds a lock of that class:\n  ",
	       (void *)next->ip);
	print_class(prev->class);
	printk(" taken at %pS\n", (void *)prev->ip);
	printk("If these are two locks that always nest in one order\n"
	       "(a parent, then its child), say so: mutex_lock_nested()\n"
	       "or spin_lock_nested() with a subclass.\n");

	scenario_head(false);
	scenario_line(0, "lock(", prev->class, ");");
	scenario_line(0, "lock(", next->class, ");");
	scenario_tail();
	report_end();
}

/*
 * Locks taken in hardirq context sit above the interrupted task's on its
 * stack; they order only among themselves. held[i] and next: same side?
 */
static bool same_context(struct held_lock *a, struct held_lock *b)
{
	return a->in_irq == b->in_irq;
}

/*
 * Both taken under one nest lock that the task still holds (one
 * ww_mutex acquire context): the nest, not the order of the two, keeps
 * them from deadlocking.
 */
static bool nested(struct lockdep_task *lt, int prev)
{
	struct lockdep_map *nest = lt->nest[lt->depth];	/* next's */

	if (!nest || lt->nest[prev] != nest)
		return false;
	for (unsigned int i = 0; i < lt->depth; i++)
		if (lt->held[i].map == nest)
			return true;
	return false;
}

/*
 * Is a lock of next's class held already? Reported once per class,
 * unless the two nest; either way no dependency is added for next.
 */
static bool check_recursion(struct lockdep_task *lt, struct held_lock *next)
{
	for (int i = (int)lt->depth - 1; i >= 0; i--) {
		struct held_lock *prev = &lt->held[i];

		if (!same_context(prev, next))
			break;
		if (prev->class != next->class)
			continue;
		if (nested(lt, i))
			return true;
		arch_spin_lock(&graph_lock);
		if (lockdep_on && !next->class->recursion_reported) {
			next->class->recursion_reported = true;
			report_recursion(prev, next);
		}
		arch_spin_unlock(&graph_lock);
		return true;
	}
	return false;
}

/*
 * An edge from the held locks to next: from the top one, and on down past
 * trylocks (nothing leads into a trylock, so the ones below it do not
 * reach next through it) and past locks taken while switched off.
 */
static void add_dependencies(struct lockdep_task *lt, struct held_lock *next)
{
	for (int i = (int)lt->depth - 1; i >= 0; i--) {
		struct held_lock *prev = &lt->held[i];

		if (!same_context(prev, next))
			break;
		if (!prev->class)
			continue;
		add_dependency(prev, next);
		if (!prev->trylock)
			break;
	}
}

static void validate(struct lockdep_task *lt, struct held_lock *next,
		     bool irqs_on)
{
	if (next->in_irq)
		mark_usage(next->class, USED_IN_IRQ, next->ip);
	else if (irqs_on)
		mark_usage(next->class, HELD_IRQS_ON, next->ip);
	/* A trylock never waits: it can neither recurse nor order. */
	if (next->trylock || check_recursion(lt, next))
		return;
	add_dependencies(lt, next);
}

static void depth_overflow(void)
{
	arch_spin_lock(&graph_lock);
	report_limit("MAX_LOCK_DEPTH", MAX_LOCK_DEPTH);
	arch_spin_unlock(&graph_lock);
}

/*
 * Called before the lock is taken (a sleeping lock may block), or after a
 * trylock succeeded. A lock without a key is not validated.
 */
void lock_acquire(struct lockdep_map *map, unsigned int subclass,
		  bool trylock, unsigned long ip)
{
	lock_acquire_nest(map, subclass, trylock, NULL, ip);
}

void lock_acquire_nest(struct lockdep_map *map, unsigned int subclass,
		       bool trylock, struct lockdep_map *nest,
		       unsigned long ip)
{
	struct task_struct *task = current;
	struct lockdep_task *lt;
	struct held_lock *next;
	unsigned long flags;

	if (unlikely(!task || !map->key))
		return;
	flags = arch_local_irq_save();
	lt = &task->lockdep;
	if (lt->depth >= MAX_LOCK_DEPTH) {
		/* Not kept: its release finds nothing, with the checks off. */
		depth_overflow();
		goto out;
	}
	/* Field by field: a whole-struct store is a call to memcpy here. */
	next = &lt->held[lt->depth];
	next->map = map;
	next->ip = ip;
	lt->nest[lt->depth] = nest;
	next->trylock = trylock;
	next->in_irq = in_irq();
	next->class = READ_ONCE(lockdep_on) ? map_class(map, subclass) : NULL;
	lock_stat_acquire(next);
	if (next->class)
		validate(lt, next, !arch_irqs_disabled_flags(flags));
	lt->depth++;
	if (lt->depth > max_depth_seen)
		max_depth_seen = lt->depth;
out:
	arch_local_irq_restore(flags);
}

static int find_held(struct lockdep_task *lt, struct lockdep_map *map)
{
	for (int i = (int)lt->depth - 1; i >= 0; i--)
		if (lt->held[i].map == map)
			return i;
	return -1;
}

static void report_unlock_balance(struct lockdep_map *map, unsigned long ip)
{
	arch_spin_lock(&graph_lock);
	if (lockdep_on) {
		report_begin(LOCKDEP_BUG_UNLOCK_BALANCE);
		print_task();
		printk("is releasing\n  {%s} at %pS\nbut holds no such lock.\n",
		       map->key, (void *)ip);
		report_end();
	}
	arch_spin_unlock(&graph_lock);
}

/*
 * Any held lock may be released, not only the last one taken: the order
 * of releases cannot deadlock. The ones above it keep their order.
 */
void lock_release(struct lockdep_map *map, unsigned long ip)
{
	struct task_struct *task = current;
	struct lockdep_task *lt;
	unsigned long flags;
	struct held_lock *hl;
	int i;

	if (unlikely(!task || !map->key))
		return;
	flags = arch_local_irq_save();
	lt = &task->lockdep;
	i = find_held(lt, map);
	if (i < 0) {
		report_unlock_balance(map, ip);
		goto out;
	}
	hl = &lt->held[i];
	/* Interrupts came on while it was held (spin_lock, then sti). */
	if (hl->class && !hl->in_irq && !arch_irqs_disabled_flags(flags))
		mark_usage(hl->class, HELD_IRQS_ON, ip);
	lock_stat_release(hl);
	/* Usually the last one taken: then nothing above it moves down. */
	if (i < (int)lt->depth - 1) {
		memmove(hl, hl + 1, (lt->depth - i - 1) * sizeof(*hl));
		memmove(&lt->nest[i], &lt->nest[i + 1],
			(lt->depth - i - 1) * sizeof(lt->nest[0]));
	}
	lt->depth--;
out:
	arch_local_irq_restore(flags);
}

/*
 * Re-initialising a lock that the caller holds: it would be unlocked
 * under its holder, and its stack entry would point at a new lock.
 */
bool lockdep_may_reinit(struct lockdep_map *map, unsigned long ip)
{
	struct task_struct *task = current;
	unsigned long flags;
	int i;

	if (!task || !READ_ONCE(lockdep_on))
		return true;
	flags = arch_local_irq_save();
	i = find_held(&task->lockdep, map);
	if (i >= 0) {
		arch_spin_lock(&graph_lock);
		report_begin(LOCKDEP_BUG_INIT_HELD);
		print_task();
		printk("is initialising, at %pS, a lock it holds:\n  ",
		       (void *)ip);
		print_held(&task->lockdep.held[i]);
		printk("\nIt is left as it is.\n");
		report_end();
		arch_spin_unlock(&graph_lock);
	}
	arch_local_irq_restore(flags);
	return i < 0;
}

#ifdef CONFIG_LOCK_STAT
/* What lockstat.c needs of the classes and the held-lock stacks. */

unsigned int lockdep_class_id(const struct lock_class *class)
{
	return class - classes;
}

struct lock_class *lockdep_map_class(struct lockdep_map *map,
				     unsigned int subclass)
{
	return READ_ONCE(lockdep_on) ? map_class(map, subclass) : NULL;
}

/* The current task's entry for map; interrupts off. */
struct held_lock *lockdep_held_lock(struct lockdep_map *map)
{
	struct lockdep_task *lt = &current->lockdep;
	int i = find_held(lt, map);

	return i < 0 ? NULL : &lt->held[i];
}

const char *lockdep_class_key(unsigned int id, unsigned int *subclass)
{
	if (id >= classes_touched)
		return NULL;
	*subclass = classes[id].subclass;
	return READ_ONCE(classes[id].key);
}
#endif

/* ---- figures, and starting afresh ---- */

void lockdep_print_stats(void)
{
	printk("lockdep: %u classes (of %u), %u dependencies (of %u), "
	       "deepest held-lock stack %u (of %u)%s\n",
	       nr_classes, MAX_LOCKDEP_KEYS, nr_deps, MAX_LOCKDEP_ENTRIES,
	       max_depth_seen, MAX_LOCK_DEPTH,
	       lockdep_on ? "" : ", switched off");
}

static bool key_in(struct lock_class *class, const char *start, size_t size)
{
	return class->key >= start && class->key < start + size;
}

/* Unlinks the edges of one list that touch a class keyed in the range. */
static void drop_edges(struct lock_dep **list, bool after, const char *start,
		       size_t size)
{
	while (*list) {
		struct lock_dep *dep = *list;

		if (key_in(dep->from, start, size) ||
		    key_in(dep->to, start, size))
			*list = after ? dep->next_after : dep->next_before;
		else
			list = after ? &dep->next_after : &dep->next_before;
	}
}

static void free_dep(struct lock_dep *dep)
{
	dep->from = NULL;
	dep->next_after = free_deps;
	free_deps = dep;
	nr_deps--;
}

static void free_class(struct lock_class **link)
{
	struct lock_class *class = *link;

	*link = class->hash_next;
	class->key = NULL;
	class->hash_next = free_classes;
	free_classes = class;
	nr_classes--;
}

/*
 * Forgets every class keyed inside [keys, keys + size) with its edges,
 * and switches the checks on again. The self-test starts each case so,
 * with classes no earlier case has seen: a report made once by an
 * earlier case cannot hide one. Nobody may hold a lock of those classes.
 */
void lockdep_reset_keys(const void *keys, size_t size)
{
	const char *start = keys;
	unsigned long flags = arch_local_irq_save();

	arch_spin_lock(&graph_lock);
	for (unsigned int i = 0; i < classes_touched; i++) {
		if (!classes[i].key)
			continue;
		drop_edges(&classes[i].after, true, start, size);
		drop_edges(&classes[i].before, false, start, size);
	}
	for (unsigned int i = 0; i < deps_touched; i++)
		if (deps[i].from && (key_in(deps[i].from, start, size) ||
				     key_in(deps[i].to, start, size)))
			free_dep(&deps[i]);
	for (unsigned int h = 0; h < CLASS_HASH_SIZE; h++) {
		struct lock_class **link = &class_hash[h];

		while (*link) {
			if (key_in(*link, start, size))
				free_class(link);
			else
				link = &(*link)->hash_next;
		}
	}
	lockdep_on = true;
	arch_spin_unlock(&graph_lock);
	arch_local_irq_restore(flags);
}
