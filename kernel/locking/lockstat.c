// SPDX-License-Identifier: GPL-2.0
/*
 * Lock statistics (CONFIG_LOCK_STAT), per class of the lock-order
 * validator: Linux's /proc/lock_stat, its columns under their names.
 * docs/lockdep.md, "Lock statistics", shows the table and how to read it.
 *
 * The validator already has every lock's class and, in the held-lock
 * stack, the acquisition in progress. Two more hooks complete the picture
 * (include/lock_stat.h): lock_contended() stamps the held lock with the
 * time its wait began, lock_acquired() with the time it was got, and
 * lock_release() turns the latter into a hold time.
 *
 * Each CPU counts in a row of its own, with interrupts off, so that
 * counting takes no lock and moves no cache line between CPUs; the table
 * sums the rows. A CPU's rows change under its sequence count, and a
 * reader copies a row whole: one event is counted in several fields, and
 * a 64-bit time of a 32-bit CPU is two stores, which a reader between
 * them would see 2^32 ns off.
 */
#include <kernel.h>
#include <string.h>
#include <sched.h>
#include <smp.h>
#include <time.h>
#include <sort.h>
#include <mutex.h>
#include <lockdep.h>
#include <seqcount.h>
#include <asm/spinlock.h>

struct cpu_stats {
	unsigned long con_bounces, acq_bounces, acquisitions;
	struct lock_time waittime, holdtime;
	unsigned long points[LOCKSTAT_POINTS];	/* by point_ip's slots */
};

static struct cpu_stats cpu_stats[NR_CPUS][MAX_LOCKDEP_KEYS];
static seqcount_t rows_seq[NR_CPUS];

/*
 * The call sites that waited, per class, first come first kept. A slot
 * is claimed once, under points_lock; after that it is only read.
 */
static unsigned long point_ip[MAX_LOCKDEP_KEYS][LOCKSTAT_POINTS];
static arch_spinlock_t points_lock = __ARCH_SPIN_LOCK_UNLOCKED;

/* The clock of the benchmarks, so that the figures compare with theirs. */
u64 lock_stat_clock(void)
{
	return ktime_get_ns();
}

/* Interrupts off: the row stays this CPU's. */
static struct cpu_stats *this_row(struct lock_class *class)
{
	return &cpu_stats[smp_processor_id()][lockdep_class_id(class)];
}

/*
 * Interrupts off, around every change of this CPU's rows: no reader on
 * this CPU can come between, so none waits for ever.
 */
static void rows_write_begin(void)
{
	write_seqcount_begin(&rows_seq[smp_processor_id()]);
}

static void rows_write_end(void)
{
	write_seqcount_end(&rows_seq[smp_processor_id()]);
}

static void time_add(struct lock_time *t, u64 ns)
{
	if (ns > t->max)
		t->max = ns;
	if (ns && (!t->min || ns < t->min))
		t->min = ns;
	t->total += ns;
	t->nr++;
}

/* The slot of ip among the class's points, claimed if new; -1: all full. */
static int point_of(unsigned int id, unsigned long ip)
{
	unsigned long *ips = point_ip[id];
	int i;

	for (i = 0; i < LOCKSTAT_POINTS; i++) {
		unsigned long p = READ_ONCE(ips[i]);

		if (p == ip)
			return i;
		if (!p)
			break;
	}
	if (i == LOCKSTAT_POINTS)
		return -1;
	arch_spin_lock(&points_lock);
	for (i = 0; i < LOCKSTAT_POINTS; i++) {
		if (!ips[i])
			WRITE_ONCE(ips[i], ip);
		if (ips[i] == ip)
			break;
	}
	arch_spin_unlock(&points_lock);
	return i < LOCKSTAT_POINTS ? i : -1;
}

static void count_point(struct cpu_stats *row, unsigned int id,
			unsigned long ip)
{
	int point = point_of(id, ip);

	if (point >= 0)
		row->points[point]++;
}

/* The lock is ours from now: an acquisition, and its hold time starts. */
static void got(struct held_lock *hl, struct cpu_stats *row, u64 now)
{
	int cpu = smp_processor_id();

	hl->holdtime_stamp = now;
	row->acquisitions++;
	if (READ_ONCE(hl->map->cpu) != cpu) {
		row->acq_bounces++;
		WRITE_ONCE(hl->map->cpu, cpu);
	}
}

/* From lock_acquire(): a trylock is got already, a lock not yet. */
void lock_stat_acquire(struct held_lock *hl)
{
	hl->waittime_stamp = 0;
	hl->holdtime_stamp = 0;
	if (hl->trylock && hl->class) {
		rows_write_begin();
		got(hl, this_row(hl->class), lock_stat_clock());
		rows_write_end();
	}
}

/* From lock_release(): a lock that was got was held until now. */
void lock_stat_release(struct held_lock *hl)
{
	if (hl->class && hl->holdtime_stamp) {
		rows_write_begin();
		time_add(&this_row(hl->class)->holdtime,
			 lock_stat_clock() - hl->holdtime_stamp);
		rows_write_end();
	}
}

/* Runs fn on the current task's counted entry for map, interrupts off. */
static void with_held(struct lockdep_map *map,
		      void (*fn)(struct held_lock *hl, struct cpu_stats *row))
{
	struct held_lock *hl;
	unsigned long flags;

	if (unlikely(!current || !map->key))
		return;
	flags = arch_local_irq_save();
	hl = lockdep_held_lock(map);
	if (hl && hl->class) {
		rows_write_begin();
		fn(hl, this_row(hl->class));
		rows_write_end();
	}
	arch_local_irq_restore(flags);
}

/*
 * Its contention point is where the task asked for the lock (the held
 * lock's ip): the caller that waited, not the lock code that noticed.
 */
static void contended(struct held_lock *hl, struct cpu_stats *row)
{
	if (hl->waittime_stamp)
		return;
	hl->waittime_stamp = lock_stat_clock();
	count_point(row, lockdep_class_id(hl->class), hl->ip);
	if (READ_ONCE(hl->map->cpu) != (int)smp_processor_id())
		row->con_bounces++;
}

static void acquired(struct held_lock *hl, struct cpu_stats *row)
{
	u64 now = lock_stat_clock();

	if (hl->waittime_stamp)
		time_add(&row->waittime, now - hl->waittime_stamp);
	got(hl, row, now);
}

/* The current task's acquisition of map has to wait. */
void lock_contended(struct lockdep_map *map)
{
	with_held(map, contended);
}

/* The current task holds map now, after a wait or not. */
void lock_acquired(struct lockdep_map *map)
{
	with_held(map, acquired);
}

void lock_waited(struct lockdep_map *map, u64 start, unsigned long ip)
{
	struct lock_class *class;
	struct cpu_stats *row;
	unsigned long flags;

	if (unlikely(!map->key))
		return;
	flags = arch_local_irq_save();
	class = lockdep_map_class(map, LOCKSTAT_WAIT_SUBCLASS);
	if (class) {
		row = this_row(class);
		rows_write_begin();
		count_point(row, lockdep_class_id(class), ip);
		time_add(&row->waittime, lock_stat_clock() - start);
		row->acquisitions++;
		rows_write_end();
	}
	arch_local_irq_restore(flags);
}

/* A class slot (re)used: whatever its last class counted is gone. */
void lock_stat_class_new(unsigned int id)
{
	for (unsigned int cpu = 0; cpu < NR_CPUS; cpu++)
		memset(&cpu_stats[cpu][id], 0, sizeof(cpu_stats[cpu][id]));
	memset(point_ip[id], 0, sizeof(point_ip[id]));
}

void lock_stat_clear(void)
{
	memset(cpu_stats, 0, sizeof(cpu_stats));
	memset(point_ip, 0, sizeof(point_ip));
}

static void time_sum(struct lock_time *sum, const struct lock_time *t)
{
	if (!t->nr)
		return;
	if (t->max > sum->max)
		sum->max = t->max;
	if (t->min && (!sum->min || t->min < sum->min))
		sum->min = t->min;
	sum->total += t->total;
	sum->nr += t->nr;
}

/* cpu's row of class id, whole: copied again if its CPU counted meanwhile. */
static struct cpu_stats read_row(unsigned int cpu, unsigned int id)
{
	struct cpu_stats row;
	unsigned int seq;

	do {
		seq = read_seqcount_begin(&rows_seq[cpu]);
		/* races with the counting on purpose: a torn copy is retried */
		row = data_race(cpu_stats[cpu][id]);
	} while (read_seqcount_retry(&rows_seq[cpu], seq));
	return row;
}

static void sum_class(unsigned int id, struct lock_class_stats *st)
{
	memset(st, 0, sizeof(*st));
	for (unsigned int cpu = 0; cpu < NR_CPUS; cpu++) {
		const struct cpu_stats row = read_row(cpu, id);

		st->con_bounces += row.con_bounces;
		st->acq_bounces += row.acq_bounces;
		st->acquisitions += row.acquisitions;
		time_sum(&st->waittime, &row.waittime);
		time_sum(&st->holdtime, &row.holdtime);
		for (int i = 0; i < LOCKSTAT_POINTS; i++)
			st->contention_point[i] += row.points[i];
	}
	for (int i = 0; i < LOCKSTAT_POINTS; i++)
		st->contention_ip[i] = READ_ONCE(point_ip[id][i]);
}

bool lock_stat_read(struct lockdep_map *map, unsigned int subclass,
		    struct lock_class_stats *st)
{
	/* graph_lock, which an interrupt may take too, with them off. */
	unsigned long flags = arch_local_irq_save();
	struct lock_class *class = lockdep_map_class(map, subclass);

	arch_local_irq_restore(flags);
	if (!class)
		return false;
	sum_class(lockdep_class_id(class), st);
	return true;
}

/* ---- the table ---- */

struct stat_row {
	unsigned int id;
	struct lock_class_stats st;
};

/* The rows being printed: one printer at a time, under print_lock. */
static struct stat_row rows[MAX_LOCKDEP_KEYS];
static DEFINE_MUTEX(print_lock);

/* Most contentions first, then most acquisitions. */
static int cmp_rows(const void *a, const void *b)
{
	const struct lock_class_stats *x = &((const struct stat_row *)a)->st;
	const struct lock_class_stats *y = &((const struct stat_row *)b)->st;

	if (x->waittime.nr != y->waittime.nr)
		return x->waittime.nr > y->waittime.nr ? -1 : 1;
	if (x->acquisitions != y->acquisitions)
		return x->acquisitions > y->acquisitions ? -1 : 1;
	return 0;
}

/* The class's name as the reports print it, without its file:line. */
static void class_name(unsigned int id, char *buf, size_t size)
{
	unsigned int subclass;
	const char *key = lockdep_class_key(id, &subclass);
	const char *site = key ? strstr(key, " (") : NULL;
	int len = site ? site - key : (key ? (int)strlen(key) : 0);

	if (subclass == LOCKSTAT_WAIT_SUBCLASS)
		snprintf(buf, size, "%.*s (wait)", len, key);
	else if (subclass)
		snprintf(buf, size, "%.*s/%u", len, key, subclass);
	else
		snprintf(buf, size, "%.*s", len, key);
}

/* Microseconds with two decimals, as lock_stat prints its times. */
static void print_us(u64 ns)
{
	printk(" %11llu.%02llu", ns / 1000, ns % 1000 / 10);
}

static void print_times(const struct lock_time *t)
{
	print_us(t->min);
	print_us(t->max);
	print_us(t->total);
	print_us(t->nr ? t->total / t->nr : 0);
}

#define RULE_WIDTH	220

static void print_rule(char c)
{
	char line[RULE_WIDTH + 1];

	memset(line, c, RULE_WIDTH);
	line[RULE_WIDTH] = '\0';
	printk("%s\n", line);
}

static void print_row(const struct stat_row *r)
{
	const struct lock_class_stats *st = &r->st;
	char name[64];

	class_name(r->id, name, sizeof(name));
	printk("%40s: %14lu %14lu", name, st->con_bounces, st->waittime.nr);
	print_times(&st->waittime);
	printk(" %14lu %14lu", st->acq_bounces, st->acquisitions);
	print_times(&st->holdtime);
	printk("\n");
	if (!st->contention_ip[0])
		return;
	printk("%40.*s\n", (int)strlen(name), "--------------------------------"
	       "--------------------------------");
	for (int i = 0; i < LOCKSTAT_POINTS && st->contention_ip[i]; i++)
		printk("%40s %14lu          [<%0*lx>] %pS\n", name,
		       st->contention_point[i], (int)(2 * sizeof(long)),
		       st->contention_ip[i],
		       (void *)st->contention_ip[i]);
	printk("\n");
}

/* Gathers the classes that were used, sorted; returns how many. */
static unsigned int gather_rows(void)
{
	unsigned int n = 0, subclass;

	for (unsigned int id = 0; id < MAX_LOCKDEP_KEYS; id++) {
		if (!lockdep_class_key(id, &subclass))
			continue;
		rows[n].id = id;
		sum_class(id, &rows[n].st);
		if (rows[n].st.acquisitions || rows[n].st.waittime.nr)
			n++;
	}
	sort(rows, n, sizeof(rows[0]), cmp_rows, NULL);
	return n;
}

void lock_stat_print(void)
{
	unsigned int n;

	mutex_lock(&print_lock);
	n = gather_rows();
	printk("lock_stat version 0.4 (MutexOS; times in microseconds)\n");
	print_rule('-');
	printk("%40s %14s %14s %14s %14s %14s %14s %14s %14s %14s %14s "
	       "%14s %14s\n", "class name", "con-bounces", "contentions",
	       "waittime-min", "waittime-max", "waittime-total",
	       "waittime-avg", "acq-bounces", "acquisitions", "holdtime-min",
	       "holdtime-max", "holdtime-total", "holdtime-avg");
	print_rule('-');
	for (unsigned int i = 0; i < n; i++)
		print_row(&rows[i]);
	print_rule('.');
	printk("lock_stat: %u classes used\n", n);
	mutex_unlock(&print_lock);
}
