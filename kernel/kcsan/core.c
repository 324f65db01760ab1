// SPDX-License-Identifier: GPL-2.0
/*
 * The data-race detector's runtime (CONFIG_KCSAN, docs/kcsan.md).
 *
 * The compiler puts a call to __tsan_readN or __tsan_writeN before every
 * plain load and store of the instrumented kernel. Most calls only look
 * whether another CPU is watching the bytes they are about to touch. One
 * in about kcsan_skip arms a watchpoint on its address instead, and
 * stalls its CPU for kcsan_udelay microseconds: an access by another CPU
 * to the same bytes in that window, one of the two a write, is a data
 * race; so is a value that changed meanwhile, when the writer was not
 * instrumented. Marked accesses (volatile, so READ_ONCE and WRITE_ONCE,
 * and atomics) hit watchpoints but never arm one: two marked accesses
 * never race. data_race() and __no_kcsan keep code out altogether.
 *
 * Between kcsan_exclusive_begin(p, size) and kcsan_exclusive_end(),
 * every access to those bytes, marked or not, is watched, not one in
 * kcsan_skip, and any access by another CPU in its stall is reported as
 * "assert: race": a test says so of data that only one CPU at a time
 * may touch, such as a mutex's wait list under its wait_lock, which a
 * forgetful caller may read with READ_ONCE.
 *
 * ASSERT_EXCLUSIVE_ACCESS(var) and ASSERT_EXCLUSIVE_WRITER(var) come in
 * through kcsan_check_access() as an access that is not made: sampled
 * like a plain one, it arms a watchpoint that any access (a write, for
 * the writer's) by another CPU hits, marked or not.
 *
 * With CONFIG_KCSAN_INTERRUPT_WATCHER a task's stall keeps interrupts on,
 * and a handler on the same CPU that touches the watched bytes is a
 * race too; a handler has a disable count of its own (per CPU), so that
 * a task's, raised for the stall, does not hide the handler's accesses.
 *
 * Nothing here is instrumented (kernel/kcsan/Kbuild), and nothing
 * before kcsan_init() is watched: the per-CPU state that the runtime
 * reads (thread_info's cpu) is set up only then on every CPU.
 */
#include <kernel.h>
#include <string.h>
#include <arch.h>
#include <irqflags.h>
#include <kcsan.h>
#include <preempt.h>
#include <seqcount.h>
#include <sched.h>
#include <smp.h>
#include <time.h>
#include "kcsan.h"

unsigned int kcsan_skip = KCSAN_SKIP_DEFAULT;
unsigned int kcsan_udelay = KCSAN_UDELAY_DEFAULT;
static bool kcsan_enabled;

/*
 * The watchpoints: one slot per 8-byte granule of the address space,
 * modulo the number of slots. A slot's word holds its state in the low
 * bits and a generation above them, which every arming bumps, so that a
 * CPU that saw a watchpoint armed cannot claim a later one by mistake.
 */
#define KCSAN_SLOTS		64
#define KCSAN_GRANULE		8
#define WP_STATE_MASK		7UL
#define WP_GEN_STEP		8UL

enum wp_state {
	WP_FREE,		/* nobody watches */
	WP_SETUP,		/* its owner fills it in, or reports */
	WP_ARMED,		/* watching: the fields below hold */
	WP_CONSUMED,		/* hit: the other CPU fills in "other" */
	WP_FILLED,		/* hit, "other" filled in */
};

struct kcsan_watchpoint {
	unsigned long word;
	unsigned long addr;
	unsigned int size;
	bool write;
	bool exclusive;		/* any access conflicts, marked or not */
	bool irq;		/* armed by an interrupt handler */
	int cpu;
	struct kcsan_access other;
};

static struct kcsan_watchpoint watchpoints[KCSAN_SLOTS];

/*
 * kcsan_exclusive_begin()'s range, [start, end): every access to it is
 * watched, and its watchpoint, of its own, covers the whole range, so
 * that a CPU touching one field while another CPU touches the other
 * (head->prev, head->next) is seen.
 */
struct kcsan_range {
	unsigned long start, end;
};

static struct kcsan_range exclusive;
static seqcount_t exclusive_seq;
static struct kcsan_watchpoint exclusive_wp;

/* Per CPU: accesses left until the next watch, and its random state. */
static long skip_left[NR_CPUS];
static u32 rand_state[NR_CPUS];
/* Per CPU: the disable count of interrupt handlers (a task's is its own). */
static unsigned int irq_disable[NR_CPUS];

/*
 * The kinds of access, as the entry points pass them: KCSAN_ACCESS_*
 * (<kcsan.h>), and these two of the runtime's own.
 */
#define KCSAN_RANGE		4	/* checked, never watched */
#define KCSAN_EXCLUSIVE		16	/* in the range: always watched */

static unsigned int slot_of(unsigned long addr)
{
	return (addr / KCSAN_GRANULE) % KCSAN_SLOTS;
}

static unsigned long wp_load(struct kcsan_watchpoint *wp)
{
	return __atomic_load_n(&wp->word, __ATOMIC_ACQUIRE);
}

static bool wp_move(struct kcsan_watchpoint *wp, unsigned long from,
		    unsigned long to)
{
	return __atomic_compare_exchange_n(&wp->word, &from, to, false,
					   __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE);
}

static void wp_set(struct kcsan_watchpoint *wp, unsigned long to)
{
	__atomic_store_n(&wp->word, to, __ATOMIC_RELEASE);
}

static unsigned long wp_with_state(unsigned long word, enum wp_state s)
{
	return (word & ~WP_STATE_MASK) | s;
}

/*
 * Who accesses, and from where: the return address of the __tsan_*
 * call is in the function that accessed, the frame chain from the entry
 * point's frame gives the rest of the stack.
 */
static void fill_access(struct kcsan_access *a, unsigned long addr,
			unsigned int size, int type, unsigned long fp)
{
	struct thread_info *ti = current_thread_info();

	a->addr = addr;
	a->size = size;
	a->write = type & KCSAN_ACCESS_WRITE;
	a->marked = type & KCSAN_ACCESS_MARKED;
	a->assert = type & KCSAN_ACCESS_ASSERT;
	a->exclusive = type & KCSAN_EXCLUSIVE;
	a->irq = in_irq();
	a->cpu = ti->cpu;
	a->pid = ti->task->pid;
	memcpy(a->comm, ti->task->comm, sizeof(a->comm));
	a->depth = arch_stack_trace(fp, a->stack, KCSAN_STACK_DEPTH);
}

static bool overlaps(unsigned long a, unsigned int asize, unsigned long b,
		     unsigned int bsize)
{
	return a < b + bsize && b < a + asize;
}

/*
 * Whether the access can race with the watcher: another CPU's, or an
 * interrupt handler's on the watching task's CPU (which reaches here
 * only with the interrupt watcher, whose stall lets it in).
 */
static bool other_context(const struct kcsan_watchpoint *wp)
{
	return wp->cpu != (int)current_thread_info()->cpu ||
	       (in_irq() && !wp->irq);
}

/*
 * Takes the watchpoint in this slot if it conflicts with the access,
 * and leaves this side of the race in it for the watcher to report.
 * Interrupts are off: the watcher waits for WP_FILLED.
 */
static bool consume_watchpoint(struct kcsan_watchpoint *wp, unsigned long addr,
			       unsigned int size, int type, unsigned long fp)
{
	unsigned long word = wp_load(wp);

	if ((word & WP_STATE_MASK) != WP_ARMED)
		return false;
	if (!other_context(wp) ||
	    !overlaps(wp->addr, wp->size, addr, size) ||
	    !(wp->write || wp->exclusive ||
	      (type & (KCSAN_ACCESS_WRITE | KCSAN_EXCLUSIVE))))
		return false;
	if (!wp_move(wp, word, wp_with_state(word, WP_CONSUMED)))
		return false;
	fill_access(&wp->other, addr, size, type, fp);
	wp_set(wp, wp_with_state(word, WP_FILLED));
	return true;
}

/*
 * The slots an access can touch (an access never spans more than two),
 * and the exclusive range's watchpoint for an access in that range.
 */
static bool find_watchpoint(unsigned long addr, unsigned int size, int type,
			    unsigned long fp)
{
	unsigned int first = slot_of(addr), last = slot_of(addr + size - 1);

	if ((type & KCSAN_EXCLUSIVE) &&
	    consume_watchpoint(&exclusive_wp, addr, size, type, fp))
		return true;
	if (consume_watchpoint(&watchpoints[first], addr, size, type, fp))
		return true;
	return last != first &&
	       consume_watchpoint(&watchpoints[last], addr, size, type, fp);
}

/* The next gap between watches: kcsan_skip, give or take a quarter. */
static long next_skip(unsigned int cpu)
{
	u32 x = rand_state[cpu] ?: cpu * 2654435761U + 1;
	unsigned int spread = kcsan_skip / 2 + 1;

	x ^= x << 13;
	x ^= x >> 17;
	x ^= x << 5;
	rand_state[cpu] = x;
	return kcsan_skip - kcsan_skip / 4 + x % spread;
}

/* The bytes under watch, read so that a bad address cannot fault. */
static bool read_value(unsigned long addr, unsigned int size, u64 *val)
{
	*val = 0;
	return size <= sizeof(*val) &&
	       !arch_copy_nofault(val, (const void *)addr, size);
}

/*
 * The stall with the watchpoint armed. With the interrupt watcher, a
 * task whose interrupts were on takes them for the stall, so that a
 * handler on this CPU can hit the watchpoint; preemption stays off, so
 * that no other task runs here meanwhile and the task stays on this CPU
 * (the resched a tick asks for waits for the next preemption point).
 */
#ifdef CONFIG_KCSAN_INTERRUPT_WATCHER
#define INTERRUPT_WATCHER	true
#else
#define INTERRUPT_WATCHER	false
#endif

static void stall(unsigned long flags)
{
	bool irqs_on = INTERRUPT_WATCHER && !in_irq() &&
		       !arch_irqs_disabled_flags(flags);

	if (irqs_on) {
		preempt_disable();
		arch_local_irq_restore(flags);
	}
	udelay(READ_ONCE(kcsan_udelay));
	if (irqs_on) {
		arch_local_irq_disable();
		preempt_enable_no_resched();
	}
}

/* The CPU that hit our watchpoint is filling in its side: not for long. */
static void wait_filled(struct kcsan_watchpoint *wp)
{
	while ((wp_load(wp) & WP_STATE_MASK) != WP_FILLED)
		cpu_relax();
}

/*
 * Arms the slot's watchpoint on this access, stalls, and reports what
 * hit it or changed the value meanwhile. Only an access inside one
 * granule is watched, so that one slot covers it; an access in the
 * exclusive range arms that range's watchpoint, over the whole range.
 */
static void watch(unsigned long addr, unsigned int size, int type,
		  unsigned long fp, unsigned long flags,
		  const struct kcsan_range *range)
{
	bool exclusive = type & KCSAN_EXCLUSIVE;
	struct kcsan_watchpoint *wp = exclusive ? &exclusive_wp :
					&watchpoints[slot_of(addr)];
	unsigned long word = wp_load(wp), armed;
	struct kcsan_access me;
	bool hit, changed;
	u64 old, new;

	if ((word & WP_STATE_MASK) != WP_FREE ||
	    (!exclusive && slot_of(addr + size - 1) != slot_of(addr)))
		return;
	word = wp_with_state(word + WP_GEN_STEP, WP_SETUP);
	if (!wp_move(wp, wp_with_state(word - WP_GEN_STEP, WP_FREE), word))
		return;
	wp->addr = exclusive ? range->start : addr;
	wp->size = exclusive ? range->end - range->start : size;
	wp->write = type & KCSAN_ACCESS_WRITE;
	wp->exclusive = exclusive;
	wp->irq = in_irq();
	wp->cpu = current_thread_info()->cpu;
	armed = wp_with_state(word, WP_ARMED);
	wp_set(wp, armed);

	changed = read_value(addr, size, &old);
	stall(flags);
	changed = changed && read_value(addr, size, &new) && old != new;

	hit = !wp_move(wp, armed, word);
	if (hit)
		wait_filled(wp);
	if (hit || changed) {
		fill_access(&me, addr, size, type, fp);
		kcsan_report(&me, hit ? &wp->other : NULL, changed, old, new);
	}
	wp_set(wp, wp_with_state(word, WP_FREE));
}

/*
 * Whether an access that hit nothing is watched: every one in the
 * exclusive range, one plain access or assertion in about kcsan_skip,
 * never a marked one or a range.
 */
static bool watch_this(unsigned int cpu, unsigned long addr, int type)
{
	if (type & KCSAN_EXCLUSIVE)
		return true;
	if ((type & (KCSAN_ACCESS_MARKED | KCSAN_RANGE)) ||
	    --skip_left[cpu] > 0)
		return false;
	skip_left[cpu] = next_skip(cpu);
	/* The unmapped first page: let the access itself fault. */
	return addr >= 4096;
}

/*
 * kcsan_exclusive_begin()'s range, read whole: a range half old and half
 * new could span nearly the whole address space. One read while it
 * changes counts as none (the change is not done, and a reader that
 * waited for it could be an interrupt of the task that makes it).
 */
static struct kcsan_range read_exclusive_range(void)
{
	unsigned int seq = raw_read_seqcount(&exclusive_seq);
	struct kcsan_range r = {
		.start = READ_ONCE(exclusive.start),
		.end = READ_ONCE(exclusive.end),
	};

	if (read_seqcount_retry(&exclusive_seq, seq))
		r.end = 0;
	return r;
}

/*
 * The disable count of what runs: an interrupt handler's, per CPU, or
 * the task's. The handler runs on the task's thread_info, whose count
 * the task may have raised (in the runtime, inside data_race()).
 */
static unsigned int *disable_count(struct thread_info *ti)
{
	return in_irq() ? &irq_disable[ti->cpu] : &ti->kcsan_disable;
}

/*
 * Every instrumented access comes here. Interrupts stay off while the
 * runtime works (but in the interrupt watcher's stall), and the disable
 * count is raised, so that nothing it calls (udelay, printk) comes back
 * in, and the CPU number stays true.
 */
static __always_inline void check_access(unsigned long addr,
					 unsigned int size, int type,
					 unsigned long fp)
{
	struct thread_info *ti = current_thread_info();
	struct kcsan_range range;
	unsigned int *disabled;
	unsigned long flags;

	if (!READ_ONCE(kcsan_enabled) || !size)
		return;
	disabled = disable_count(ti);
	if (*disabled)
		return;
	range = read_exclusive_range();
	if (addr < range.end && addr + size > range.start)
		type |= KCSAN_EXCLUSIVE;
	flags = arch_local_irq_save();
	(*disabled)++;
	if (!find_watchpoint(addr, size, type, fp) &&
	    watch_this(ti->cpu, addr, type))
		watch(addr, size, type, fp, flags, &range);
	(*disabled)--;
	arch_local_irq_restore(flags);
}

/* One writer at a time: the test that watches the range. */
static void set_exclusive_range(unsigned long start, unsigned long end)
{
	write_seqcount_begin(&exclusive_seq);
	WRITE_ONCE(exclusive.start, start);
	WRITE_ONCE(exclusive.end, end);
	write_seqcount_end(&exclusive_seq);
}

void kcsan_exclusive_begin(const volatile void *p, size_t size)
{
	set_exclusive_range((unsigned long)p, (unsigned long)p + size);
}

void kcsan_exclusive_end(void)
{
	set_exclusive_range(0, 0);
}

void kcsan_disable_current(void)
{
	(*disable_count(current_thread_info()))++;
	barrier();
}

void kcsan_enable_current(void)
{
	barrier();
	(*disable_count(current_thread_info()))--;
}

void kcsan_init(void)
{
	unsigned int cpu;

	for (cpu = 0; cpu < NR_CPUS; cpu++)
		skip_left[cpu] = next_skip(cpu);
	printk("kcsan: watching one access in about %u, for %u us\n",
	       kcsan_skip, kcsan_udelay);
	__atomic_store_n(&kcsan_enabled, true, __ATOMIC_RELEASE);
}

/* A setting out of range is refused with a word, never guessed at. */
static void set_setting(const char *name, unsigned int *v, const char *value,
			unsigned long min, unsigned long max)
{
	char *end;
	unsigned long n = simple_strtoul(value, &end, 0);

	if (!*value || *end || n < min || n > max) {
		printk("Bad value for %s=%s (a number from %lu to %lu): ignored\n",
		       name, value, min, max);
		return;
	}
	*v = n;
}

bool kcsan_parse_option(const char *name, const char *value)
{
	if (!strcmp(name, "kcsan.skip"))
		set_setting(name, &kcsan_skip, value, 1, 1000000);
	else if (!strcmp(name, "kcsan.udelay"))
		set_setting(name, &kcsan_udelay, value, 1, 10000);
	else
		return false;
	return true;
}

/*
 * The entry points the compiler calls, each before its access. The
 * frame of the entry point starts the stack of the report, so that its
 * first entry is the function that accessed.
 */
#define FP()	((unsigned long)__builtin_frame_address(0))

#define DEFINE_TSAN_ENTRY(name, size, type)				\
void __tsan_##name(void *p);						\
void __tsan_##name(void *p)						\
{									\
	check_access((unsigned long)p, size, type, FP());		\
}

#define W	KCSAN_ACCESS_WRITE
#define M	KCSAN_ACCESS_MARKED
#define DEFINE_TSAN_ACCESS(size)					\
DEFINE_TSAN_ENTRY(read##size, size, 0)					\
DEFINE_TSAN_ENTRY(write##size, size, W)					\
DEFINE_TSAN_ENTRY(unaligned_read##size, size, 0)			\
DEFINE_TSAN_ENTRY(unaligned_write##size, size, W)			\
DEFINE_TSAN_ENTRY(volatile_read##size, size, M)				\
DEFINE_TSAN_ENTRY(volatile_write##size, size, W | M)			\
DEFINE_TSAN_ENTRY(unaligned_volatile_read##size, size, M)		\
DEFINE_TSAN_ENTRY(unaligned_volatile_write##size, size, W | M)

DEFINE_TSAN_ACCESS(1)
DEFINE_TSAN_ACCESS(2)
DEFINE_TSAN_ACCESS(4)
DEFINE_TSAN_ACCESS(8)
DEFINE_TSAN_ACCESS(16)
#undef W
#undef M

/*
 * An access of any size, granule by granule: each piece lies in one
 * slot, so that it can be watched there.
 */
static void check_range(unsigned long addr, size_t size, int type,
			unsigned long fp)
{
	unsigned long end = addr + size;

	while (addr < end) {
		unsigned long next = min(end, (addr | (KCSAN_GRANULE - 1)) + 1);

		check_access(addr, next - addr, type, fp);
		addr = next;
	}
}

/* A struct copied whole: only checked against watchpoints, never watched. */
void __tsan_read_range(void *p, size_t size);
void __tsan_read_range(void *p, size_t size)
{
	check_range((unsigned long)p, size, KCSAN_RANGE, FP());
}

void __tsan_write_range(void *p, size_t size);
void __tsan_write_range(void *p, size_t size)
{
	check_range((unsigned long)p, size, KCSAN_ACCESS_WRITE | KCSAN_RANGE,
		    FP());
}

/* The report's stack starts in the caller: the code that asserted. */
void kcsan_check_access(const volatile void *ptr, size_t size, int type)
{
	check_range((unsigned long)ptr, size, type, FP());
}

/*
 * The atomic builtins (__atomic_*) become calls too, with the memory
 * order the code asked for (the compiler's __ATOMIC_* values): each does
 * its operation in that order, as a marked access. A builtin given an
 * order that is not a constant takes it as seq_cst, so each order is
 * spelled out; a stronger one than asked would hide, on ARM and RISC-V,
 * an ordering bug the normal build has. The kernel uses only the 32-bit
 * ones, and on 64-bit arches the long ones.
 */
int kcsan_atomic_order[NR_CPUS];

/* Records the order this CPU's atomic runs at (kcsan_atomic_order). */
static int performs(int order)
{
	kcsan_atomic_order[current_thread_info()->cpu] = order;
	return order;
}

/* The order of each kind that mo asks for; consume is acquire, as in GCC. */
static int load_order(int mo)
{
	if (mo == __ATOMIC_RELAXED)
		return performs(__ATOMIC_RELAXED);
	if (mo == __ATOMIC_CONSUME || mo == __ATOMIC_ACQUIRE)
		return performs(__ATOMIC_ACQUIRE);
	return performs(__ATOMIC_SEQ_CST);
}

static int store_order(int mo)
{
	if (mo == __ATOMIC_RELAXED || mo == __ATOMIC_RELEASE)
		return performs(mo);
	return performs(__ATOMIC_SEQ_CST);
}

static int rmw_order(int mo)
{
	if (mo == __ATOMIC_CONSUME)
		return performs(__ATOMIC_ACQUIRE);
	if (mo >= __ATOMIC_RELAXED && mo < __ATOMIC_SEQ_CST)
		return performs(mo);
	return performs(__ATOMIC_SEQ_CST);
}

/* op(args..., order), with order the constant of what mo asks for. */
#define AT_LOAD_ORDER(mo, op, ...) ({					\
	int __o = load_order(mo);					\
	__o == __ATOMIC_RELAXED ? op(__VA_ARGS__, __ATOMIC_RELAXED) :	\
	__o == __ATOMIC_ACQUIRE ? op(__VA_ARGS__, __ATOMIC_ACQUIRE) :	\
				  op(__VA_ARGS__, __ATOMIC_SEQ_CST);	\
})

#define AT_STORE_ORDER(mo, op, ...) do {				\
	int __o = store_order(mo);					\
									\
	if (__o == __ATOMIC_RELAXED)					\
		op(__VA_ARGS__, __ATOMIC_RELAXED);			\
	else if (__o == __ATOMIC_RELEASE)				\
		op(__VA_ARGS__, __ATOMIC_RELEASE);			\
	else								\
		op(__VA_ARGS__, __ATOMIC_SEQ_CST);			\
} while (0)

#define AT_RMW_ORDER(mo, op, ...) ({					\
	int __o = rmw_order(mo);					\
	__o == __ATOMIC_RELAXED ? op(__VA_ARGS__, __ATOMIC_RELAXED) :	\
	__o == __ATOMIC_ACQUIRE ? op(__VA_ARGS__, __ATOMIC_ACQUIRE) :	\
	__o == __ATOMIC_RELEASE ? op(__VA_ARGS__, __ATOMIC_RELEASE) :	\
	__o == __ATOMIC_ACQ_REL ? op(__VA_ARGS__, __ATOMIC_ACQ_REL) :	\
				  op(__VA_ARGS__, __ATOMIC_SEQ_CST);	\
})

/*
 * A compare-exchange that fails only loads: at the success order with
 * its release part dropped, the strongest a failure may have.
 */
#define AT_CAS_ORDER(mo, p, old, v) ({					\
	int __o = rmw_order(mo);					\
	__o == __ATOMIC_RELAXED ? CAS_AT(p, old, v, __ATOMIC_RELAXED,	\
					 __ATOMIC_RELAXED) :		\
	__o == __ATOMIC_ACQUIRE ? CAS_AT(p, old, v, __ATOMIC_ACQUIRE,	\
					 __ATOMIC_ACQUIRE) :		\
	__o == __ATOMIC_RELEASE ? CAS_AT(p, old, v, __ATOMIC_RELEASE,	\
					 __ATOMIC_RELAXED) :		\
	__o == __ATOMIC_ACQ_REL ? CAS_AT(p, old, v, __ATOMIC_ACQ_REL,	\
					 __ATOMIC_ACQUIRE) :		\
				  CAS_AT(p, old, v, __ATOMIC_SEQ_CST,	\
					 __ATOMIC_SEQ_CST);		\
})
#define CAS_AT(p, old, v, mo, fail_mo) \
	__atomic_compare_exchange_n(p, old, v, false, mo, fail_mo)

#define DEFINE_TSAN_ATOMIC_RMW(bits, op, builtin)			\
u##bits __tsan_atomic##bits##_##op(volatile u##bits *p, u##bits v, int mo); \
u##bits __tsan_atomic##bits##_##op(volatile u##bits *p, u##bits v, int mo) \
{									\
	check_access((unsigned long)p, bits / 8,			\
		     KCSAN_ACCESS_WRITE | KCSAN_ACCESS_MARKED, FP());			\
	return AT_RMW_ORDER(mo, builtin, p, v);				\
}

#define DEFINE_TSAN_ATOMIC(bits)					\
u##bits __tsan_atomic##bits##_load(const volatile u##bits *p, int mo);	\
u##bits __tsan_atomic##bits##_load(const volatile u##bits *p, int mo)	\
{									\
	check_access((unsigned long)p, bits / 8, KCSAN_ACCESS_MARKED, FP());	\
	return AT_LOAD_ORDER(mo, __atomic_load_n, p);			\
}									\
void __tsan_atomic##bits##_store(volatile u##bits *p, u##bits v, int mo); \
void __tsan_atomic##bits##_store(volatile u##bits *p, u##bits v, int mo) \
{									\
	check_access((unsigned long)p, bits / 8,			\
		     KCSAN_ACCESS_WRITE | KCSAN_ACCESS_MARKED, FP());			\
	AT_STORE_ORDER(mo, __atomic_store_n, p, v);			\
}									\
int __tsan_atomic##bits##_compare_exchange_strong(volatile u##bits *p,	\
		u##bits *old, u##bits v, int mo, int fail_mo);		\
int __tsan_atomic##bits##_compare_exchange_strong(volatile u##bits *p,	\
		u##bits *old, u##bits v, int mo, int fail_mo)		\
{									\
	check_access((unsigned long)p, bits / 8,			\
		     KCSAN_ACCESS_WRITE | KCSAN_ACCESS_MARKED, FP());			\
	return AT_CAS_ORDER(mo, p, old, v);				\
}									\
DEFINE_TSAN_ATOMIC_RMW(bits, exchange, __atomic_exchange_n)		\
DEFINE_TSAN_ATOMIC_RMW(bits, fetch_add, __atomic_fetch_add)		\
DEFINE_TSAN_ATOMIC_RMW(bits, fetch_sub, __atomic_fetch_sub)		\
DEFINE_TSAN_ATOMIC_RMW(bits, fetch_and, __atomic_fetch_and)		\
DEFINE_TSAN_ATOMIC_RMW(bits, fetch_or, __atomic_fetch_or)

DEFINE_TSAN_ATOMIC(32)
#ifdef __LP64__
DEFINE_TSAN_ATOMIC(64)
#endif

/* The instrumentation's constructor calls it; the linker drops the call. */
void __tsan_init(void);
void __tsan_init(void)
{
}
