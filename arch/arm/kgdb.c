// SPDX-License-Identifier: GPL-2.0
/*
 * The gdb stub's ARM half (Raspberry Pi 2): its port, the registers in
 * gdb's order, the breakpoint instruction, and single steps.
 *
 * The port is the BCM2835 mini UART. In QEMU's raspi2b it is the second
 * -serial, apart from the console's PL011. On the board, the header has
 * one UART's worth of pins, GPIO 14 (TX) and 15 (RX): the stub takes
 * them for the mini UART (function ALT5), and from then on the PL011
 * console is cut off the header (printk still fills the log buffer,
 * which gdb's mx-dmesg shows). docs/gdb.md has the wiring.
 *
 * ARMv7 has no single-step bit that works without a debug monitor, so a
 * step plants a breakpoint at the instruction that runs next, decoding
 * the branches: B, BL, BX, BLX, LDM and LDR (immediate or register
 * offset) into pc, MOV pc, and RFE, the return from an exception. The
 * kernel is ARM code; a call into libgcc's Thumb helpers runs the callee
 * whole, and a step in Thumb code, or of an instruction that writes pc
 * in another way (none in the kernel: objdump -d), is refused. gdb leaves
 * steps to the stub (vCont, gdbstub.c), so an ldrex..strex sequence can
 * run as one step.
 */
#include <kernel.h>
#include <errno.h>
#include <mm.h>
#include <sched.h>
#include <kgdb.h>
#include <asm/ptrace.h>
#include <asm/rpi.h>

#define AUX_ENABLES	(AUX_BASE + 0x04)
#define AUX_MU_IO	(AUX_BASE + 0x40)
#define AUX_MU_IER	(AUX_BASE + 0x44)
#define AUX_MU_IIR	(AUX_BASE + 0x48)
#define AUX_MU_LCR	(AUX_BASE + 0x4c)
#define AUX_MU_MCR	(AUX_BASE + 0x50)
#define AUX_MU_LSR	(AUX_BASE + 0x54)
#define AUX_MU_CNTL	(AUX_BASE + 0x60)
#define AUX_MU_BAUD	(AUX_BASE + 0x68)
#define ENABLE_MU	(1 << 0)
#define LCR_8BIT	3
#define IIR_CLEAR_FIFOS	6
#define LSR_DATA_READY	(1 << 0)
#define LSR_TX_EMPTY	(1 << 5)
#define CNTL_RX_TX	3
/* core_freq=250 in config.txt: 250 MHz / (8 * 115200) - 1 */
#define MU_BAUD_115200	270

const char arch_kgdb_port_name[] = "the mini UART (QEMU's second serial; GPIO 14/15 on the board), 115200 8N1";

/*
 * udf #0xde0: permanently undefined. Its first halfword, 0xdef0, is
 * Thumb's udf #0xf0, so that the same four bytes stop a CPU in Thumb
 * state too (a step out of an interrupt into libgcc's Thumb helpers).
 */
#define BREAK_INSN	0xe7f0def0
const u8 arch_kgdb_break_insn[] = { 0xf0, 0xde, 0xf0, 0xe7 };
const int arch_kgdb_break_len = 4;

void arch_kgdb_io_init(void)
{
	printk("kgdb: GPIO 14/15 go to the mini UART: on a board, the console leaves the header\n");
	writel(readl(AUX_ENABLES) | ENABLE_MU, AUX_ENABLES);
	writel(0, AUX_MU_CNTL);
	writel(0, AUX_MU_IER);			/* polled */
	writel(LCR_8BIT, AUX_MU_LCR);
	writel(0, AUX_MU_MCR);
	writel(IIR_CLEAR_FIFOS, AUX_MU_IIR);
	writel(MU_BAUD_115200, AUX_MU_BAUD);
	rpi_gpio_set_function(14, GPIO_ALT5);
	rpi_gpio_set_function(15, GPIO_ALT5);
	writel(CNTL_RX_TX, AUX_MU_CNTL);
}

int arch_kgdb_io_getc(void)
{
	if (!(readl(AUX_MU_LSR) & LSR_DATA_READY))
		return -1;
	return readl(AUX_MU_IO) & 0xff;
}

void arch_kgdb_io_putc(char c)
{
	while (!(readl(AUX_MU_LSR) & LSR_TX_EMPTY))
		;
	writel((u8)c, AUX_MU_IO);
}

void arch_kgdb_breakpoint(void)
{
	asm volatile(".word %c0" :: "i" (BREAK_INSN));
}

/* The new instruction reaches the point of unification, then fetches. */
void __kgdb_nobreak arch_kgdb_sync_icache(unsigned long addr, size_t len)
{
	unsigned long line, end = addr + len;

	for (line = addr & ~31UL; line < end; line += 32)
		asm volatile("mcr p15, 0, %0, c7, c11, 1" :: "r" (line));
	asm volatile("dsb" ::: "memory");
	for (line = addr & ~31UL; line < end; line += 32)
		asm volatile("mcr p15, 0, %0, c7, c5, 1" :: "r" (line));
	asm volatile("mcr p15, 0, %0, c7, c5, 6" :: "r" (0));	/* BPIALL */
	asm volatile("dsb; isb" ::: "memory");
}

/* ---- registers: r0-r15, gdb's eight FPA registers and fps, cpsr ---- */

enum { SP = 13, LR = 14, PC = 15, F0 = 16, FPS = 24, CPSR = 25, NR_GDB_REGS };

const struct kgdb_reg arch_kgdb_regs[] = {
	{ "r0", 4 }, { "r1", 4 }, { "r2", 4 }, { "r3", 4 },
	{ "r4", 4 }, { "r5", 4 }, { "r6", 4 }, { "r7", 4 },
	{ "r8", 4 }, { "r9", 4 }, { "r10", 4 }, { "r11", 4 },
	{ "r12", 4 }, { "sp", 4 }, { "lr", 4 }, { "pc", 4 },
	{ "f0", 12 }, { "f1", 12 }, { "f2", 12 }, { "f3", 12 },
	{ "f4", 12 }, { "f5", 12 }, { "f6", 12 }, { "f7", 12 },
	{ "fps", 4 }, { "cpsr", 4 },
};
const int arch_kgdb_nr_regs = NR_GDB_REGS;

/* The FPA registers are there for gdb's layout only: left at zero. */
#define CPSR_OFFSET	(16 * 4 + 8 * 12 + 4)
KGDB_REGS_FIT(CPSR_OFFSET + 4);

void arch_kgdb_get_regs(u8 *image, const struct pt_regs *r)
{
	u32 *g = (u32 *)image;
	int i;

	for (i = 0; i < 13; i++)
		g[i] = r->r[i];
	g[SP] = r->sp;
	g[LR] = r->lr;
	g[PC] = r->pc;
	*(u32 *)(image + CPSR_OFFSET) = r->cpsr;
}

/* sp and the mode cannot change under an exception frame: they stay. */
void arch_kgdb_set_regs(struct pt_regs *r, const u8 *image)
{
	const u32 *g = (const u32 *)image;
	u32 cpsr = *(const u32 *)(image + CPSR_OFFSET);
	int i;

	for (i = 0; i < 13; i++)
		r->r[i] = g[i];
	r->lr = g[LR];
	r->pc = g[PC];
	r->cpsr = (r->cpsr & PSR_MODE_MASK) | (cpsr & ~PSR_MODE_MASK);
}

/*
 * A sleeping task stopped in __switch_to_asm (switch.S), which pushed
 * r4-r11 and lr: show it as just returned from there, in the scheduler.
 */
void arch_kgdb_sleeping_regs(u8 *image, struct task_struct *p)
{
	const unsigned long *sp = (const unsigned long *)p->thread.sp;
	u32 *g = (u32 *)image;
	int i;

	for (i = 0; i < 8; i++)
		g[4 + i] = sp[SWITCH_FRAME_R4 + i];
	g[LR] = sp[SWITCH_FRAME_LR];
	g[PC] = sp[SWITCH_FRAME_LR];
	g[SP] = (unsigned long)(sp + SWITCH_FRAME_WORDS);
	*(u32 *)(image + CPSR_OFFSET) = PSR_MODE_SVC;
}

/* ---- single steps ---- */

/*
 * A step plants breakpoints where execution may go next: one, or the
 * exits of an exclusive sequence (below). The stepping CPU runs with its
 * IRQs masked meanwhile, so that an interrupt's code (the tick takes
 * spinlocks too) cannot run into a step breakpoint; the I bit the code
 * had comes back when the step ends.
 */
#define MAX_EXCLUSIVE	16	/* instructions from an ldrex to its loop's end */

static u32 step_insn;		/* the instruction the step started at */
static bool step_emulated;	/* the stub did step_insn itself */
static u32 step_irq_bit;	/* CPSR.I of the stepped code */
static struct task_struct *step_task;	/* whose I bit step_irq_bit is */

static bool cond_passes(u32 insn, u32 cpsr)
{
	bool n = cpsr >> 31 & 1, z = cpsr >> 30 & 1;
	bool c = cpsr >> 29 & 1, v = cpsr >> 28 & 1;
	bool pass;

	switch (insn >> 29) {		/* pairs: a condition and its negation */
	case 0: pass = z; break;			/* EQ */
	case 1: pass = c; break;			/* CS */
	case 2: pass = n; break;			/* MI */
	case 3: pass = v; break;			/* VS */
	case 4: pass = c && !z; break;			/* HI */
	case 5: pass = n == v; break;			/* GE */
	case 6: pass = !z && n == v; break;		/* GT */
	default: return true;				/* AL, unconditional */
	}
	return insn >> 28 & 1 ? !pass : pass;
}

/* A register as the instruction at pc reads it: pc reads as pc + 8. */
static u32 reg_value(const struct pt_regs *r, unsigned int n)
{
	if (n < 13)
		return r->r[n];
	if (n == SP)
		return r->sp;
	if (n == LR)
		return r->lr;
	return r->pc + 8;
}

/* The word an LDM loads into pc: the highest of the registers it loads. */
static unsigned long ldm_pc_slot(const struct pt_regs *r, u32 insn)
{
	unsigned long base = reg_value(r, insn >> 16 & 15);
	unsigned int count = __builtin_popcount(insn & 0xffff);
	bool before = insn >> 24 & 1, up = insn >> 23 & 1;

	if (up)
		return base + 4 * (count - 1) + (before ? 4 : 0);
	return base - (before ? 4 : 0);
}

/* The word an LDR (immediate offset) loads into pc. */
static unsigned long ldr_pc_slot(const struct pt_regs *r, u32 insn)
{
	unsigned long base = reg_value(r, insn >> 16 & 15);
	unsigned long offset = insn & 0xfff;
	bool pre = insn >> 24 & 1, up = insn >> 23 & 1;

	if (!pre)
		return base;
	return up ? base + offset : base - offset;
}

/*
 * The word an LDR with a register offset loads into pc: a switch table,
 * ldrls pc, [pc, rX, lsl #2]. Shifts by an immediate; ROR and RRX, which
 * no compiler uses for an index, are refused.
 */
static int ldr_reg_pc_slot(const struct pt_regs *r, u32 insn,
			   unsigned long *slot)
{
	unsigned long base = reg_value(r, insn >> 16 & 15);
	u32 index = reg_value(r, insn & 15);
	unsigned int amount = insn >> 7 & 31;
	bool pre = insn >> 24 & 1, up = insn >> 23 & 1;

	switch (insn >> 5 & 3) {
	case 0:
		index <<= amount;
		break;
	case 1:
		index = amount ? index >> amount : 0;
		break;
	case 2:
		index = (s32)index >> (amount ? amount : 31);
		break;
	default:
		return -EINVAL;
	}
	*slot = !pre ? base : up ? base + index : base - index;
	return 0;
}

/* RFE{IA,IB,DA,DB} Rn: the address of the pc it loads; the cpsr follows. */
static bool is_rfe(u32 insn)
{
	return (insn & 0xfe50ffff) == 0xf8100a00;
}

static unsigned long rfe_slot(const struct pt_regs *r, u32 insn)
{
	unsigned long base = reg_value(r, insn >> 16 & 15);
	bool before = insn >> 24 & 1, up = insn >> 23 & 1;

	if (up)
		return before ? base + 4 : base;
	return before ? base - 8 : base - 4;
}

/*
 * The unconditional space: BLX to a Thumb function (libgcc's helpers)
 * runs the callee whole, since the stub decodes no Thumb, and the step
 * ends at its return; RFE returns from an exception to the pc it loads.
 */
static int next_pc_uncond(const struct pt_regs *r, u32 insn,
			  unsigned long *next)
{
	u32 loaded;

	if (is_rfe(insn)) {
		if (copy_from_kernel_nofault(&loaded, (void *)rfe_slot(r, insn), 4))
			return -EFAULT;
		*next = loaded;
	}
	return 0;
}

/* Where execution goes after the instruction at pc, or -EINVAL. */
static int next_pc(const struct pt_regs *r, unsigned long *next)
{
	u32 insn, loaded;
	unsigned long slot;

	if (copy_from_kernel_nofault(&insn, (void *)r->pc, 4))
		return -EFAULT;
	*next = r->pc + 4;
	if (insn >> 28 == 0xf)
		return next_pc_uncond(r, insn, next);
	if (!cond_passes(insn, r->cpsr))
		return 0;
	if ((insn & 0x0e000000) == 0x0a000000) {	/* B, BL */
		*next = r->pc + 8 + ((s32)(insn << 8) >> 6);
		return 0;
	}
	if ((insn & 0x0ffffff0) == 0x012fff30) {	/* BLX register */
		*next = reg_value(r, insn & 15);
		if (*next & 1)		/* to Thumb: the callee whole */
			*next = r->pc + 4;
		return 0;
	}
	if ((insn & 0x0ffffff0) == 0x012fff10 ||	/* BX */
	    (insn & 0x0feffff0) == 0x01a0f000) {	/* MOV pc, Rm */
		*next = reg_value(r, insn & 15);
		return *next & 1 ? -EINVAL : 0;		/* a jump into Thumb */
	}
	if ((insn & 0x0e108000) == 0x08108000) {	/* LDM with pc */
		slot = ldm_pc_slot(r, insn);
	} else if ((insn & 0x0e50f000) == 0x0410f000) {	/* LDR pc, imm */
		slot = ldr_pc_slot(r, insn);
	} else if ((insn & 0x0e50f010) == 0x0610f000) {	/* LDR pc, register */
		if (ldr_reg_pc_slot(r, insn, &slot))
			return -EINVAL;
	} else if ((insn & 0x0db0f000) == 0x0120f000) {	/* MSR: no pc there */
		return 0;
	} else if ((insn & 0x0c00f000) == 0x0000f000) {	/* other ALU op to pc */
		return -EINVAL;
	} else {
		return 0;
	}
	if (copy_from_kernel_nofault(&loaded, (void *)slot, 4))
		return -EFAULT;
	*next = loaded;
	return *next & 1 ? -EINVAL : 0;
}

/* LDREX{,B,H,D} and STREX{,B,H,D}, ARM encodings. */
static bool is_ldrex(u32 insn)
{
	return (insn & 0x0f900fff) == 0x01900f9f;
}

static bool is_strex(u32 insn)
{
	return (insn & 0x0f900ff0) == 0x01800f90;
}

/* Whether insn may write pc: a branch, or anything with pc as its Rd. */
static bool writes_pc(u32 insn)
{
	return insn >> 28 == 0xf ||
	       (insn & 0x0e000000) == 0x0a000000 ||	/* B, BL */
	       (insn & 0x0ffffff0) == 0x012fff10 ||	/* BX */
	       (insn & 0x0ffffff0) == 0x012fff30 ||	/* BLX register */
	       (insn & 0x0e108000) == 0x08108000 ||	/* LDM with pc */
	       ((insn & 0x0c00f000) == 0x0000f000 &&	/* ALU op to pc */
		(insn & 0x0db0f000) != 0x0120f000) ||	/* (not MSR) */
	       (insn & 0x0c10f000) == 0x0410f000;	/* LDR pc */
}

/*
 * The exits of the exclusive sequence starting at the ldrex at pc: the
 * instruction after its strex, or after the branch that retries it
 * (found within 3 instructions of the strex; conditional, or "beq out;
 * b retry"), and the targets of its other branches. A break between an
 * ldrex and its strex clears the exclusive monitor on the exception
 * return, so stepping into the sequence would make every strex fail:
 * it runs as one step.
 * The number of exits, or 0 for a sequence this cannot follow (another
 * kind of branch in it, no strex): it is then stepped one instruction
 * at a time.
 */
static int exclusive_exits(unsigned long pc, unsigned long *exits)
{
	unsigned long addr, end = 0, strex_at = 0;
	int n = 0;
	u32 insn;

	for (addr = pc + 4; addr < pc + 4 * MAX_EXCLUSIVE && !end; addr += 4) {
		if (copy_from_kernel_nofault(&insn, (void *)addr, 4) ||
		    is_ldrex(insn))
			return 0;
		if (is_strex(insn))
			strex_at = addr;
		if ((insn & 0x0f000000) == 0x0a000000 && insn >> 28 != 0xf) {
			unsigned long to = addr + 8 + ((s32)(insn << 8) >> 6);

			if (to >= pc && to <= addr && strex_at)
				end = addr;		/* the retry */
			else if (to < pc || to > addr)
				exits[n++] = to;
			else if (insn >> 28 == 0xe)
				return 0;	/* a loop with no strex */
			if (n == KGDB_MAX_STEP_BREAKS)
				return 0;
		} else if (writes_pc(insn)) {
			return 0;
		} else if (strex_at && addr == strex_at + 12) {
			end = strex_at;		/* no retry branch */
		}
	}
	if (!end)
		return 0;
	exits[n++] = end + 4;
	return n;
}

/* wfe with IRQs masked may sleep until an event nobody sends. */
static bool is_wfe(u32 insn)
{
	return (insn & 0x0fffffff) == 0x0320f002;
}

/* MRS Rd, CPSR: Rd would see the I bit the step set. */
static bool is_mrs_cpsr(u32 insn)
{
	return (insn & 0x0fff0fff) == 0x010f0000;
}

/*
 * CPSIE/CPSID without a mode change: the stub does it on the stepped
 * code's cpsr instead of running it. Run, a cpsie i takes an interrupt
 * that waits (the tick, say) before the step's breakpoint: inside the
 * stepi, and a step out of an idle CPU's tick then went round the
 * scheduler for ever. The I bit it leaves comes back when the step ends.
 */
static bool emulate_cps(struct pt_regs *regs, u32 insn)
{
	u32 bits = insn & (PSR_A | PSR_I | PSR_F);
	unsigned int imod = insn >> 18 & 3;

	if ((insn & 0xfff1fe20) != 0xf1000000 || imod < 2 || insn & (1 << 17))
		return false;
	if (imod == 2)
		regs->cpsr &= ~bits;	/* IE */
	else
		regs->cpsr |= bits;	/* ID */
	return true;
}

/* CPSID/CPSIE with i, or MSR to CPSR's control field: I is its own. */
static bool sets_irq_bit(u32 insn)
{
	return (insn & 0xfff1fe20) == 0xf1000000 ? (insn & 0x80080) == 0x80080 :
	       (insn & 0x0ff1f000) == 0x0321f000 ||	/* MSR immediate */
	       (insn & 0x0ff1fff0) == 0x0121f000;	/* MSR register */
}

/*
 * A stepped RFE returns to the code an exception interrupted, with the
 * cpsr it loads: its I bit is that code's. It is set there until the
 * step ends, so that the code takes no interrupt before the step's
 * breakpoint; the bit comes back onto it then.
 */
static int mask_rfe_irqs(const struct pt_regs *regs)
{
	u32 *cpsr = (u32 *)(rfe_slot(regs, step_insn) + 4);
	u32 loaded, masked;

	if (copy_from_kernel_nofault(&loaded, cpsr, 4))
		return -EFAULT;
	masked = loaded | PSR_I;
	if (copy_to_kernel_nofault(cpsr, &masked, 4))
		return -EFAULT;
	step_irq_bit = loaded & PSR_I;
	return 0;
}

int arch_kgdb_prepare_step(struct pt_regs *regs)
{
	unsigned long exits[KGDB_MAX_STEP_BREAKS];
	int n = 0, err = 0;

	if (regs->cpsr & PSR_T)
		return -EINVAL;		/* Thumb code: not decoded */
	if (copy_from_kernel_nofault(&step_insn, (void *)regs->pc, 4))
		return -EFAULT;
	step_task = current;
	if (is_ldrex(step_insn))
		n = exclusive_exits(regs->pc, exits);
	if (!n) {
		err = next_pc(regs, &exits[0]);
		n = 1;
	}
	if (!err)
		err = kgdb_plant_step_breaks(exits, n);
	if (err)
		return err;
	step_emulated = emulate_cps(regs, step_insn);
	if (step_emulated || is_wfe(step_insn))
		regs->pc = exits[0];	/* done here, or a hint: not run */
	step_irq_bit = regs->cpsr & PSR_I;
	if (is_rfe(step_insn) && mask_rfe_irqs(regs)) {
		kgdb_remove_step_breaks();
		return -EFAULT;
	}
	regs->cpsr |= PSR_I;
	return 0;
}

void __kgdb_nobreak arch_kgdb_end_step(struct pt_regs *regs)
{
	unsigned int rd = step_insn >> 12 & 15;

	kgdb_remove_step_breaks();
	if ((sets_irq_bit(step_insn) && !step_emulated) || current != step_task)
		return;
	if (is_mrs_cpsr(step_insn) && rd < 13 && cond_passes(step_insn, regs->cpsr))
		regs->r[rd] = (regs->r[rd] & ~PSR_I) | step_irq_bit;
	regs->cpsr = (regs->cpsr & ~PSR_I) | step_irq_bit;
}

/*
 * The undefined-instruction trap: the stub's if the instruction is its
 * breakpoint, or gdb's breakpoint was there (the stub may have put the
 * instruction back since this CPU trapped). At a breakpoint gdb planted,
 * or the end of a step, pc stays on it (gdb wants to see it there); a
 * compiled-in one (arch_kgdb_breakpoint) is passed.
 */
bool __kgdb_nobreak arm_kgdb_trap(struct pt_regs *regs)
{
	unsigned long trapped_pc = regs->pc;
	/* Thumb's udf is 2 bytes: the entry's lr - 4 is 2 before it. */
	unsigned long pc = trapped_pc + (regs->cpsr & PSR_T ? 2 : 0);
	bool planted = kgdb_planted_at(pc);
	bool step_end = kgdb_step_planted_at(pc);
	u32 insn;

	if (!planted && !step_end &&
	    (copy_from_kernel_nofault(&insn, (void *)pc, 4) ||
	     insn != BREAK_INSN))
		return false;
	regs->pc = planted || step_end ? pc : pc + 4;
	if (kgdb_handle_trap(regs, KGDB_SIGTRAP))
		return true;
	regs->pc = trapped_pc;	/* the stub is off: a fault like any other */
	return false;
}
