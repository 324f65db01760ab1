// SPDX-License-Identifier: GPL-2.0
/*
 * gdb's hardware breakpoints and watchpoints in the Cortex-A7's debug
 * registers (ARMv7 monitor debug-mode, through cp14): breakpoint value
 * and control pairs DBGBVRn/DBGBCRn, watchpoint ones DBGWVRn/DBGWCRn.
 * Slots 0-3 are breakpoints, 4-7 watchpoints (the A7 has 6 and 4).
 * kernel/debug/hw_breakpoint.c keeps the table; each CPU loads it here.
 *
 * A hit is a debug event taken as an abort, before the access or the
 * instruction: a data abort for a watchpoint, a prefetch abort for a
 * breakpoint, their fault status 0b00010. gdb knows ARM's watchpoints
 * trap first: it takes them out, steps the access, and looks at the
 * value then. Each CPU must first clear the OS lock, which holds the
 * debug events back from reset, and set DBGDSCR's MDBGen.
 */
#include <kernel.h>
#include <kgdb.h>
#include <asm/ptrace.h>
#include <asm/rpi.h>

#define NR_BREAKPOINTS	4
#define NR_SLOTS	(2 * NR_BREAKPOINTS)
#define CTRL_ENABLE	(1 << 0)
#define CTRL_ANY_PL	(3 << 1)	/* PL0 and PL1 */
#define CTRL_HMC	(1 << 13)	/* and the modes QEMU puts beside Hyp */
#define CTRL_BAS(bytes)	((bytes) << 5)	/* which bytes of the word */
#define WCR_LOAD	(1 << 3)
#define WCR_STORE	(2 << 3)
#define BCR_ARM_INSN	CTRL_BAS(0xf)
#define DSCR_MDBGEN	(1 << 15)	/* monitor debug-mode on */
#define FSR_STATUS(fsr)	(((fsr) & 0xf) | ((fsr) >> 6 & 0x10))
#define FSR_DEBUG	0x2		/* a debug event */

const int arch_kgdb_nr_hw_slots = NR_SLOTS;
_Static_assert(NR_SLOTS <= KGDB_MAX_HW_SLOTS, "more slots than the stub's table");

/* cp14 takes the register's number in the instruction: one case each. */
#define dbg_write(crm, op2, val) \
	asm volatile("mcr p14, 0, %0, c0, c" #crm ", " #op2 :: "r" (val))

#define write_pair(n, op2_value, op2_ctrl, value, ctrl)	\
	do {							\
		dbg_write(n, op2_ctrl, 0UL);			\
		dbg_write(n, op2_value, value);			\
		dbg_write(n, op2_ctrl, ctrl);			\
	} while (0)

static void __kgdb_nobreak write_breakpoint(int n, unsigned long addr,
					    unsigned long ctrl)
{
	switch (n) {
	case 0:
		write_pair(0, 4, 5, addr, ctrl);
		break;
	case 1:
		write_pair(1, 4, 5, addr, ctrl);
		break;
	case 2:
		write_pair(2, 4, 5, addr, ctrl);
		break;
	case 3:
		write_pair(3, 4, 5, addr, ctrl);
		break;
	}
}

static void __kgdb_nobreak write_watchpoint(int n, unsigned long addr,
					    unsigned long ctrl)
{
	switch (n) {
	case 0:
		write_pair(0, 6, 7, addr, ctrl);
		break;
	case 1:
		write_pair(1, 6, 7, addr, ctrl);
		break;
	case 2:
		write_pair(2, 6, 7, addr, ctrl);
		break;
	case 3:
		write_pair(3, 6, 7, addr, ctrl);
		break;
	}
}

bool arch_kgdb_hw_slot_takes(int slot, enum kgdb_hw_type type)
{
	return (slot < NR_BREAKPOINTS) == (type == KGDB_HW_EXEC);
}

/* A watchpoint's bytes lie in one word; a breakpoint is an ARM insn. */
int arch_kgdb_hw_bp_valid(enum kgdb_hw_type type, unsigned long addr,
			  unsigned long len)
{
	if (type == KGDB_HW_EXEC)
		return len == 4 && !(addr & 3) ? 0 : -EINVAL;
	if (len != 1 && len != 2 && len != 4)
		return -EINVAL;
	return (addr & 3) + len <= 4 ? 0 : -EINVAL;
}

static unsigned long watch_ctrl(enum kgdb_hw_type type, unsigned long addr,
				unsigned long len)
{
	unsigned long access = type == KGDB_HW_WRITE ? WCR_STORE :
			       type == KGDB_HW_READ ? WCR_LOAD :
			       WCR_LOAD | WCR_STORE;

	return CTRL_ENABLE | CTRL_ANY_PL | CTRL_HMC | access |
	       CTRL_BAS(((1UL << len) - 1) << (addr & 3));
}

/* Out of the OS lock, monitor debug-mode on: cheap, so at every load. */
static void __kgdb_nobreak debug_events_on(void)
{
	unsigned long dscr;

	asm volatile("mcr p14, 0, %0, c1, c0, 4" :: "r" (0UL));	/* DBGOSLAR */
	asm volatile("mrc p14, 0, %0, c0, c2, 2" : "=r" (dscr));	/* DBGDSCRext */
	if (!(dscr & DSCR_MDBGEN))
		asm volatile("mcr p14, 0, %0, c0, c2, 2" :: "r" (dscr | DSCR_MDBGEN));
	asm volatile("isb");
}

void __kgdb_nobreak arch_kgdb_load_hw_slot(int slot, enum kgdb_hw_type type,
					   unsigned long addr,
					   unsigned long len)
{
	debug_events_on();
	if (slot < NR_BREAKPOINTS)
		write_breakpoint(slot, addr, type ? CTRL_ENABLE | CTRL_ANY_PL |
				 CTRL_HMC | BCR_ARM_INSN : 0);
	else
		write_watchpoint(slot - NR_BREAKPOINTS, addr & ~3UL,
				 type ? watch_ctrl(type, addr, len) : 0);
	asm volatile("isb");
}

void __kgdb_nobreak arch_kgdb_hw_slots_off(void)
{
	int n;

	for (n = 0; n < NR_BREAKPOINTS; n++) {
		write_breakpoint(n, 0, 0);
		write_watchpoint(n, 0, 0);
	}
	asm volatile("isb");
}

/* The enabled watchpoint that covers addr, else the first enabled one. */
static int __kgdb_nobreak watchpoint_at(unsigned long addr)
{
	unsigned long value, ctrl;
	int n, first = -1;

	for (n = 0; n < NR_BREAKPOINTS; n++) {
		switch (n) {
		case 0:
			asm volatile("mrc p14, 0, %0, c0, c0, 6" : "=r" (value));
			asm volatile("mrc p14, 0, %0, c0, c0, 7" : "=r" (ctrl));
			break;
		case 1:
			asm volatile("mrc p14, 0, %0, c0, c1, 6" : "=r" (value));
			asm volatile("mrc p14, 0, %0, c0, c1, 7" : "=r" (ctrl));
			break;
		case 2:
			asm volatile("mrc p14, 0, %0, c0, c2, 6" : "=r" (value));
			asm volatile("mrc p14, 0, %0, c0, c2, 7" : "=r" (ctrl));
			break;
		default:
			asm volatile("mrc p14, 0, %0, c0, c3, 6" : "=r" (value));
			asm volatile("mrc p14, 0, %0, c0, c3, 7" : "=r" (ctrl));
			break;
		}
		if (!(ctrl & CTRL_ENABLE))
			continue;
		if ((addr & ~3UL) == value && ctrl & CTRL_BAS(1UL << (addr & 3)))
			return n;
		if (first < 0)
			first = n;
	}
	return first;
}

/*
 * An abort that is a debug event: gdb's. A breakpoint's slot is the one
 * whose address is the pc; a watchpoint's, the one covering the address
 * in DFAR (QEMU sets it; ARMv7 leaves it unknown on a board, where the
 * first enabled watchpoint is taken for the one that fired).
 */
bool __kgdb_nobreak arm_kgdb_debug_trap(struct pt_regs *regs, bool fetch)
{
	unsigned long fsr, far;
	int n;

	if (fetch)
		asm volatile("mrc p15, 0, %0, c5, c0, 1" : "=r" (fsr));	/* IFSR */
	else
		asm volatile("mrc p15, 0, %0, c5, c0, 0" : "=r" (fsr));	/* DFSR */
	if (FSR_STATUS(fsr) != FSR_DEBUG)
		return false;
	if (fetch)
		return kgdb_handle_hw_trap(regs, kgdb_hw_slot_at(KGDB_HW_EXEC,
								 regs->pc), true) !=
		       KGDB_HW_NOT_GDBS;
	asm volatile("mrc p15, 0, %0, c6, c0, 0" : "=r" (far));	/* DFAR */
	n = watchpoint_at(far);
	return n >= 0 && kgdb_handle_hw_trap(regs, NR_BREAKPOINTS + n, true) !=
			 KGDB_HW_NOT_GDBS;
}
