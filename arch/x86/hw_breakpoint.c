// SPDX-License-Identifier: GPL-2.0
/*
 * gdb's hardware breakpoints and watchpoints (hbreak, watch, awatch) in
 * the x86 debug registers: DR0-DR3 hold up to four addresses, DR7 says
 * what each one watches (an instruction fetch, a write, or any access)
 * and how many bytes, DR6 says which one fired. Each CPU has registers
 * of its own: gdb changes the table here while the kernel is stopped,
 * and every CPU loads it as it leaves the stop, or at its next tick
 * (one that did not stop, or came up since).
 *
 * x86 cannot watch reads alone: Z3 gets the empty reply, and gdb then
 * sets an access watchpoint for rwatch and ignores the hits that changed
 * the value, as it does with gdbserver. A data watchpoint traps after
 * the access, so gdb sees the new value; an instruction breakpoint traps
 * before the instruction, which the resume flag then lets run once.
 */
#include <kernel.h>
#include <smp.h>
#include <kgdb.h>
#include <asm/ptrace.h>
#include <asm/x86.h>

#define NR_SLOTS	4
#define DR7_LOCAL(n)	(1UL << (2 * (n)))	/* slot n enabled */
#define DR7_RW(n, rw)	((unsigned long)(rw) << (16 + 4 * (n)))
#define DR7_LEN(n, len)	((unsigned long)(len) << (18 + 4 * (n)))
#define DR7_LE		(1UL << 8)	/* exact data breakpoints, as advised */
#define DR7_RW_EXEC	0
#define DR7_RW_WRITE	1
#define DR7_RW_ACCESS	3
#define DR6_HITS	0xfUL		/* B0-B3: which slot fired */
#define EFLAGS_RF	0x10000		/* no instruction breakpoint for one */

static struct {
	enum kgdb_hw_type type;		/* 0: free */
	unsigned long addr;
	unsigned long len;
} slots[NR_SLOTS];
static unsigned long table_gen = 1;	/* bumped at each change */
static unsigned long loaded_gen[NR_CPUS];	/* what each CPU has loaded */

/* mov to a debug register takes its number in the instruction. */
#define set_debugreg(val, n) asm volatile("mov %0, %%db" #n :: "r" (val))

static unsigned long __kgdb_nobreak get_dr6(void)
{
	unsigned long val;

	asm volatile("mov %%db6, %0" : "=r" (val));
	return val;
}

/* DR7's length field for len bytes, or -1: 8 only in 64-bit mode. */
static int dr7_len(unsigned long len)
{
	switch (len) {
	case 1:
		return 0;
	case 2:
		return 1;
	case 4:
		return 3;
	case 8:
		return sizeof(long) == 8 ? 2 : -1;
	}
	return -1;
}

static int dr7_rw(enum kgdb_hw_type type)
{
	switch (type) {
	case KGDB_HW_EXEC:
		return DR7_RW_EXEC;
	case KGDB_HW_WRITE:
		return DR7_RW_WRITE;
	case KGDB_HW_ACCESS:
		return DR7_RW_ACCESS;
	default:
		return -ENOSYS;
	}
}

static int find_slot(enum kgdb_hw_type type, unsigned long addr,
		     unsigned long len)
{
	int n;

	for (n = 0; n < NR_SLOTS; n++)
		if (slots[n].type == type && slots[n].addr == addr &&
		    slots[n].len == len)
			return n;
	return -1;
}

/*
 * The CPU watches len bytes aligned to len; an instruction breakpoint's
 * length is 1 (gdb's kind for hbreak on x86).
 */
int arch_kgdb_set_hw_bp(enum kgdb_hw_type type, unsigned long addr,
			unsigned long len)
{
	int n;

	if (dr7_rw(type) < 0)
		return -ENOSYS;
	if (dr7_len(len) < 0 || addr & (len - 1) ||
	    (type == KGDB_HW_EXEC && len != 1))
		return -EINVAL;
	if (find_slot(type, addr, len) >= 0)
		return 0;
	n = find_slot(0, 0, 0);
	if (n < 0)
		return -ENOSPC;
	slots[n].type = type;
	slots[n].addr = addr;
	slots[n].len = len;
	table_gen++;
	return 0;
}

int arch_kgdb_remove_hw_bp(enum kgdb_hw_type type, unsigned long addr,
			   unsigned long len)
{
	int n = find_slot(type, addr, len);

	if (dr7_rw(type) < 0)
		return -ENOSYS;
	if (n < 0)
		return -ENOENT;
	slots[n].type = 0;
	slots[n].addr = slots[n].len = 0;
	table_gen++;
	return 0;
}

void arch_kgdb_remove_all_hw_bps(void)
{
	int n;

	for (n = 0; n < NR_SLOTS; n++)
		slots[n].type = 0;
	table_gen++;
}

static unsigned long dr7_of_table(void)
{
	unsigned long dr7 = 0;
	int n;

	for (n = 0; n < NR_SLOTS; n++)
		if (slots[n].type)
			dr7 |= DR7_LOCAL(n) | DR7_LE |
			       DR7_RW(n, dr7_rw(slots[n].type)) |
			       DR7_LEN(n, dr7_len(slots[n].len));
	return dr7;
}

/*
 * The generation is read first: a change while we load (the table only
 * changes while this CPU is stopped or not yet up to date) leaves it
 * stale, and the next call loads again.
 */
void __kgdb_nobreak arch_kgdb_sync_hw_bps(void)
{
	unsigned int cpu = smp_processor_id();
	unsigned long gen = READ_ONCE(table_gen);

	if (loaded_gen[cpu] == gen)
		return;
	set_debugreg(0UL, 7);
	set_debugreg(slots[0].addr, 0);
	set_debugreg(slots[1].addr, 1);
	set_debugreg(slots[2].addr, 2);
	set_debugreg(slots[3].addr, 3);
	set_debugreg(dr7_of_table(), 7);
	loaded_gen[cpu] = gen;
}

/*
 * A debug trap: the first enabled slot DR6 says fired, or false (a step).
 * DR6's hit bits stay set until cleared; its other bits are the step's.
 */
bool __kgdb_nobreak x86_kgdb_watch_trap(struct pt_regs *regs)
{
	unsigned long dr6 = get_dr6();
	int n;

	if (!(dr6 & DR6_HITS))
		return false;
	set_debugreg(dr6 & ~DR6_HITS, 6);
	for (n = 0; n < NR_SLOTS; n++)
		if (dr6 & (1UL << n) && slots[n].type)
			break;
	if (n == NR_SLOTS)
		return false;
	if (slots[n].type == KGDB_HW_EXEC)
		regs_flags(regs) |= EFLAGS_RF;
	return kgdb_handle_watch_trap(regs, slots[n].type, slots[n].addr);
}
