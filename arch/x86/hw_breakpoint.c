// SPDX-License-Identifier: GPL-2.0
/*
 * gdb's hardware breakpoints and watchpoints (hbreak, watch, awatch) in
 * the x86 debug registers: DR0-DR3 hold up to four addresses, DR7 says
 * what each one watches (an instruction fetch, a write, or any access)
 * and how many bytes, DR6 says which one fired. Each CPU has registers
 * of its own; kernel/debug/hw_breakpoint.c keeps the table and has each
 * CPU load it here, slot by slot.
 *
 * x86 cannot watch reads alone: Z3 gets the empty reply, and gdb then
 * sets an access watchpoint for rwatch and ignores the hits that changed
 * the value, as it does with gdbserver. A data watchpoint traps after
 * the access, so gdb sees the new value; an instruction breakpoint traps
 * before the instruction, which the resume flag then lets run once.
 */
#include <kernel.h>
#include <kgdb.h>
#include <asm/ptrace.h>
#include <asm/x86.h>

#define NR_SLOTS	4
#define DR7_LOCAL(n)	(1UL << (2 * (n)))	/* slot n enabled */
#define DR7_RW(n, rw)	((unsigned long)(rw) << (16 + 4 * (n)))
#define DR7_LEN(n, len)	((unsigned long)(len) << (18 + 4 * (n)))
#define DR7_LE		(1UL << 8)	/* exact data breakpoints, as advised */
#define DR7_SLOT_BITS(n) (DR7_LOCAL(n) | DR7_RW(n, 3) | DR7_LEN(n, 3))
#define DR7_RW_EXEC	0
#define DR7_RW_WRITE	1
#define DR7_RW_ACCESS	3
#define DR6_HITS	0xfUL		/* B0-B3: which slot fired */
#define EFLAGS_RF	0x10000		/* no instruction breakpoint for one */

const int arch_kgdb_nr_hw_slots = NR_SLOTS;
_Static_assert(NR_SLOTS <= KGDB_MAX_HW_SLOTS, "more slots than the stub's table");

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

bool arch_kgdb_hw_slot_takes(int slot, enum kgdb_hw_type type)
{
	return true;		/* each register watches any type */
}

/*
 * The CPU watches len bytes aligned to len; an instruction breakpoint's
 * length is 1 (gdb's kind for hbreak on x86).
 */
int arch_kgdb_hw_bp_valid(enum kgdb_hw_type type, unsigned long addr,
			  unsigned long len)
{
	if (dr7_rw(type) < 0)
		return -ENOSYS;
	if (dr7_len(len) < 0 || addr & (len - 1) ||
	    (type == KGDB_HW_EXEC && len != 1))
		return -EINVAL;
	return 0;
}

static unsigned long __kgdb_nobreak get_dr7(void)
{
	unsigned long val;

	asm volatile("mov %%db7, %0" : "=r" (val));
	return val;
}

static void __kgdb_nobreak set_address(int slot, unsigned long addr)
{
	switch (slot) {
	case 0:
		set_debugreg(addr, 0);
		break;
	case 1:
		set_debugreg(addr, 1);
		break;
	case 2:
		set_debugreg(addr, 2);
		break;
	case 3:
		set_debugreg(addr, 3);
		break;
	}
}

/* The slot's address, then its bits in DR7 (the exact-match bit stays). */
void __kgdb_nobreak arch_kgdb_load_hw_slot(int slot, enum kgdb_hw_type type,
					   unsigned long addr,
					   unsigned long len)
{
	unsigned long dr7 = get_dr7() & ~DR7_SLOT_BITS(slot);

	if (type) {
		set_address(slot, addr);
		dr7 |= DR7_LOCAL(slot) | DR7_LE | DR7_RW(slot, dr7_rw(type)) |
		       DR7_LEN(slot, dr7_len(len));
	}
	set_debugreg(dr7, 7);
}

void __kgdb_nobreak arch_kgdb_hw_slots_off(void)
{
	set_debugreg(0UL, 7);
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
		if (dr6 & (1UL << n) && get_dr7() & DR7_LOCAL(n))
			break;
	if (n == NR_SLOTS)
		return false;
	if (get_dr7() & DR7_RW(n, 3))
		return kgdb_handle_hw_trap(regs, n, false) != KGDB_HW_NOT_GDBS;
	/* An instruction's: it runs once past it only after gdb saw it. */
	switch (kgdb_handle_hw_trap(regs, n, true)) {
	case KGDB_HW_STOPPED:
		regs_flags(regs) |= EFLAGS_RF;
		return true;
	case KGDB_HW_PARKED:
		return true;
	default:
		return false;
	}
}
