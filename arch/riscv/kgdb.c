// SPDX-License-Identifier: GPL-2.0
/*
 * The gdb stub's RISC-V half (QEMU virt): the registers in gdb's order,
 * the breakpoint instruction, single steps and the break trap. Its port
 * is the console's UART, shared (serial.c).
 *
 * The kernel is built with the C extension, so any instruction may be
 * 2 bytes long: every breakpoint is a c.ebreak, 2 bytes, which fits over
 * a compressed instruction and over the first half of a full one alike.
 *
 * S-mode has no single-step bit, so a step plants a breakpoint at the
 * instruction that runs next, decoding the jumps and branches (jal,
 * jalr, the six compares, and their compressed forms). The trap entry
 * drops any lr reservation, so an lr..sc loop stepped one instruction
 * at a time would fail every sc: it runs as one step (below).
 */
#include <kernel.h>
#include <errno.h>
#include <mm.h>
#include <sched.h>
#include <kgdb.h>
#include <asm/ptrace.h>
#include <asm/switch_to.h>

#define C_EBREAK	0x9002
#define EBREAK		0x00100073
const u8 arch_kgdb_break_insn[] = { 0x02, 0x90 };	/* c.ebreak */
const int arch_kgdb_break_len = 2;

void arch_kgdb_breakpoint(void)
{
	asm volatile("ebreak");
}

/*
 * fence.i reaches only this hart's fetches; SBI's remote fence.i (the
 * RFENCE extension, all harts) reaches the parked ones too. An ecall of
 * its own here: the shared SBI code may hold one of gdb's breakpoints.
 */
#define SBI_EXT_RFENCE		0x52464e43
#define SBI_RFENCE_FENCE_I	0

void __kgdb_nobreak arch_kgdb_sync_icache(unsigned long addr, size_t len)
{
	register unsigned long a0 asm("a0") = 0;		/* hart mask... */
	register unsigned long a1 asm("a1") = -1UL;		/* ...base -1: all */
	register unsigned long a6 asm("a6") = SBI_RFENCE_FENCE_I;
	register unsigned long a7 asm("a7") = SBI_EXT_RFENCE;

	asm volatile("fence.i\n\tecall"
		     : "+r" (a0), "+r" (a1) : "r" (a6), "r" (a7) : "memory");
}

/* ---- registers: x0-x31, then pc ---- */

enum { PC = 32, NR_GDB_REGS };

const struct kgdb_reg arch_kgdb_regs[] = {
	{ "zero", 8 }, { "ra", 8 }, { "sp", 8 }, { "gp", 8 },
	{ "tp", 8 }, { "t0", 8 }, { "t1", 8 }, { "t2", 8 },
	{ "fp", 8 }, { "s1", 8 }, { "a0", 8 }, { "a1", 8 },
	{ "a2", 8 }, { "a3", 8 }, { "a4", 8 }, { "a5", 8 },
	{ "a6", 8 }, { "a7", 8 }, { "s2", 8 }, { "s3", 8 },
	{ "s4", 8 }, { "s5", 8 }, { "s6", 8 }, { "s7", 8 },
	{ "s8", 8 }, { "s9", 8 }, { "s10", 8 }, { "s11", 8 },
	{ "t3", 8 }, { "t4", 8 }, { "t5", 8 }, { "t6", 8 },
	{ "pc", 8 },
};
const int arch_kgdb_nr_regs = NR_GDB_REGS;

KGDB_REGS_FIT(NR_GDB_REGS * 8);

void arch_kgdb_get_regs(u8 *image, const struct pt_regs *r)
{
	u64 *g = (u64 *)image;
	int n;

	g[0] = 0;
	for (n = 1; n < 32; n++)
		g[n] = regs_reg(r, n);
	g[PC] = r->epc;
}

/* The trap's return reloads sp from the frame's place, not its slot. */
void arch_kgdb_set_regs(struct pt_regs *r, const u8 *image)
{
	const u64 *g = (const u64 *)image;
	int n;

	for (n = 1; n < 32; n++)
		if (n != REG_SP)
			regs_reg(r, n) = g[n];
	r->epc = g[PC];
}

/*
 * A sleeping task stopped in __switch_to_asm (switch.S), which pushed
 * ra and s0-s11: show it as just returned from there, in the scheduler.
 */
void arch_kgdb_sleeping_regs(u8 *image, struct task_struct *p)
{
	static const u8 s_regs[12] = { 8, 9, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27 };
	const unsigned long *sp = (const unsigned long *)p->thread.sp;
	u64 *g = (u64 *)image;
	int i;

	for (i = 0; i < 12; i++)
		g[s_regs[i]] = sp[SWITCH_FRAME_S0 + i];
	g[REG_RA] = sp[SWITCH_FRAME_RA];
	g[PC] = sp[SWITCH_FRAME_RA];
	g[REG_SP] = (unsigned long)(sp + SWITCH_FRAME_WORDS);
}

/* ---- decoding ---- */

/* The instruction at pc, 2 or 4 bytes (its low bits say); its length. */
static int fetch(unsigned long pc, u32 *insn)
{
	u16 half[2];

	if (copy_from_kernel_nofault(&half[0], (void *)pc, 2))
		return -EFAULT;
	if ((half[0] & 3) != 3) {
		*insn = half[0];
		return 2;
	}
	if (copy_from_kernel_nofault(&half[1], (void *)(pc + 2), 2))
		return -EFAULT;
	*insn = half[0] | (u32)half[1] << 16;
	return 4;
}

static unsigned long reg_value(const struct pt_regs *r, unsigned int n)
{
	return n ? regs_reg(r, n) : 0;
}

static unsigned int bits(u32 insn, int hi, int lo)
{
	return insn >> lo & ((1U << (hi - lo + 1)) - 1);
}

/* Sign-extended from bit top. */
static long sext(unsigned long v, int top)
{
	return (long)(v << (63 - top)) >> (63 - top);
}

static long branch_offset(u32 insn)
{
	return sext(bits(insn, 31, 31) << 12 | bits(insn, 7, 7) << 11 |
		    bits(insn, 30, 25) << 5 | bits(insn, 11, 8) << 1, 12);
}

static long jal_offset(u32 insn)
{
	return sext(bits(insn, 31, 31) << 20 | bits(insn, 19, 12) << 12 |
		    bits(insn, 20, 20) << 11 | bits(insn, 30, 21) << 1, 20);
}

static long c_j_offset(u32 insn)
{
	return sext(bits(insn, 12, 12) << 11 | bits(insn, 8, 8) << 10 |
		    bits(insn, 10, 9) << 8 | bits(insn, 6, 6) << 7 |
		    bits(insn, 7, 7) << 6 | bits(insn, 2, 2) << 5 |
		    bits(insn, 11, 11) << 4 | bits(insn, 5, 3) << 1, 11);
}

static long c_b_offset(u32 insn)
{
	return sext(bits(insn, 12, 12) << 8 | bits(insn, 6, 5) << 6 |
		    bits(insn, 2, 2) << 5 | bits(insn, 11, 10) << 3 |
		    bits(insn, 4, 3) << 1, 8);
}

#define OP_BRANCH	0x63
#define OP_JALR		0x67
#define OP_JAL		0x6f
#define OP_AMO		0x2f

static bool is_branch(u32 insn, int len)
{
	if (len == 2)	/* c.beqz, c.bnez */
		return (insn & 3) == 1 && bits(insn, 15, 13) >= 6;
	return (insn & 0x7f) == OP_BRANCH;
}

/* Where a conditional branch goes if taken. */
static unsigned long branch_target(unsigned long pc, u32 insn, int len)
{
	return pc + (len == 2 ? c_b_offset(insn) : branch_offset(insn));
}

static bool branch_taken(const struct pt_regs *r, u32 insn, int len)
{
	unsigned long a, b;

	if (len == 2) {
		a = reg_value(r, 8 + bits(insn, 9, 7));
		return bits(insn, 15, 13) == 6 ? a == 0 : a != 0;
	}
	a = reg_value(r, bits(insn, 19, 15));
	b = reg_value(r, bits(insn, 24, 20));
	switch (bits(insn, 14, 12)) {
	case 0: return a == b;				/* beq */
	case 1: return a != b;				/* bne */
	case 4: return (long)a < (long)b;		/* blt */
	case 5: return (long)a >= (long)b;		/* bge */
	case 6: return a < b;				/* bltu */
	case 7: return a >= b;				/* bgeu */
	}
	return false;
}

/* jal, jalr, c.j, c.jr, c.jalr: the unconditional jumps. */
static bool is_jump(u32 insn, int len)
{
	if (len == 4)
		return (insn & 0x7f) == OP_JAL || (insn & 0x7f) == OP_JALR;
	return ((insn & 3) == 1 && bits(insn, 15, 13) == 5) ||		/* c.j */
	       ((insn & 3) == 2 && bits(insn, 15, 13) == 4 &&		/* c.jr, */
		bits(insn, 6, 2) == 0 && bits(insn, 11, 7) != 0);	/* c.jalr */
}

static unsigned long jump_target(const struct pt_regs *r, unsigned long pc,
				 u32 insn, int len)
{
	if (len == 2 && (insn & 3) == 1)
		return pc + c_j_offset(insn);
	if (len == 2)
		return reg_value(r, bits(insn, 11, 7));
	if ((insn & 0x7f) == OP_JAL)
		return pc + jal_offset(insn);
	return (reg_value(r, bits(insn, 19, 15)) +
		sext(bits(insn, 31, 20), 11)) & ~1UL;
}

/* Where execution goes after the instruction at pc. */
static int next_pc(const struct pt_regs *r, unsigned long *next)
{
	unsigned long pc = r->epc;
	u32 insn;
	int len = fetch(pc, &insn);

	if (len < 0)
		return len;
	if (is_jump(insn, len))
		*next = jump_target(r, pc, insn, len);
	else if (is_branch(insn, len) && branch_taken(r, insn, len))
		*next = branch_target(pc, insn, len);
	else
		*next = pc + len;
	return 0;
}

/* ---- single steps ---- */

/*
 * A step plants breakpoints where execution may go next: one, or the
 * exits of an lr..sc loop. The stepping hart takes no interrupt meanwhile
 * (the tick takes spinlocks, which may hold a step breakpoint): sie,
 * which enables each source, is clear until the step ends. The code's
 * own SIE is left as it is, so that a csrr of sstatus reads it and a
 * csrs that sets it (every local_irq_enable()) takes no interrupt that
 * waits before the step's ebreak. A wfi would then wait for ever, and
 * is stepped as the hint it is.
 */
#define MAX_EXCLUSIVE	16	/* instructions from an lr to its loop's end */

static unsigned long step_sie;		/* the hart's sie before the step */

static bool is_wfi(u32 insn, int len)
{
	return len == 4 && insn == 0x10500073;
}

static bool is_lr(u32 insn, int len)
{
	return len == 4 && (insn & 0x7f) == OP_AMO && bits(insn, 31, 27) == 2;
}

static bool is_sc(u32 insn, int len)
{
	return len == 4 && (insn & 0x7f) == OP_AMO && bits(insn, 31, 27) == 3;
}

/*
 * The exits of the lr..sc loop starting at the lr at pc: past the branch
 * that retries it (back to the lr, after the sc), and the targets of its
 * other branches (a compare that failed). The number of exits, or 0 for
 * a loop this cannot follow (a jump in it, no retry): it is then stepped
 * one instruction at a time.
 */
static int exclusive_exits(unsigned long pc, unsigned long *exits)
{
	unsigned long addr = pc, to;
	bool sc_seen = false;
	int i, len, n = 0;
	u32 insn;

	for (i = 0; i < MAX_EXCLUSIVE; i++, addr += len) {
		len = fetch(addr, &insn);
		if (len < 0 || (i && is_lr(insn, len)) || is_jump(insn, len))
			return 0;
		sc_seen |= is_sc(insn, len);
		if (!is_branch(insn, len))
			continue;
		to = branch_target(addr, insn, len);
		if (to == pc && sc_seen) {
			exits[n++] = addr + len;	/* the retry: past it */
			return n;
		}
		if ((to < pc || to > addr) && n < KGDB_MAX_STEP_BREAKS - 1)
			exits[n++] = to;
		else
			return 0;
	}
	return 0;
}

/*
 * A step into the trap's way out (entry.S) runs it to its sret: a step
 * breakpoint there would stop the stub's own return first, and a step
 * trap further in would overwrite the sepc and sstatus it has written
 * (sret then went where the step trapped, or to U-mode). The step goes
 * on to the frame's epc, the frame being where sp points as the way out
 * begins.
 */
extern const unsigned long riscv_trap_exit[2];

static void into_trap_exit(struct pt_regs *regs, unsigned long *next)
{
	struct pt_regs *frame = (struct pt_regs *)regs_reg(regs, REG_SP);
	unsigned long epc;

	if (*next >= riscv_trap_exit[0] && *next < riscv_trap_exit[1] &&
	    !copy_from_kernel_nofault(&epc, &frame->epc, sizeof(epc)))
		*next = epc;
}

int arch_kgdb_prepare_step(struct pt_regs *regs)
{
	unsigned long exits[KGDB_MAX_STEP_BREAKS];
	int len, n = 0, err = 0;
	u32 insn;

	len = fetch(regs->epc, &insn);
	if (len < 0)
		return len;
	if (is_lr(insn, len))
		n = exclusive_exits(regs->epc, exits);
	if (!n) {
		err = next_pc(regs, &exits[0]);
		n = 1;
	}
	if (!err && n == 1)
		into_trap_exit(regs, &exits[0]);
	if (!err)
		err = kgdb_plant_step_breaks(exits, n);
	if (err)
		return err;
	if (is_wfi(insn, len))
		regs->epc = exits[0];
	step_sie = csr_read_clear(sie, IE_SSIE | IE_STIE | IE_SEIE);
	return 0;
}

/* The hart's interrupt sources come back, whichever task the step ended in. */
void __kgdb_nobreak arch_kgdb_end_step(struct pt_regs *regs)
{
	kgdb_remove_step_breaks();
	csr_set(sie, step_sie);
}

/*
 * The breakpoint trap: the stub's if the instruction is an ebreak, or
 * gdb's breakpoint was there (the stub may have put the instruction back
 * since this hart trapped). At a breakpoint gdb planted, or the end of a
 * step, pc stays on it (gdb wants to see it there); a compiled-in one
 * (arch_kgdb_breakpoint) is passed.
 */
bool __kgdb_nobreak riscv_kgdb_trap(struct pt_regs *regs)
{
	unsigned long pc = regs->epc;
	u16 half;
	u32 word;

	if (!kgdb_planted_at(pc) && !kgdb_step_planted_at(pc)) {
		if (copy_from_kernel_nofault(&half, (void *)pc, 2))
			return false;
		if (half == C_EBREAK)
			regs->epc += 2;
		else if (!copy_from_kernel_nofault(&word, (void *)pc, 4) &&
			 word == EBREAK)
			regs->epc += 4;
		else
			return false;
	}
	if (kgdb_handle_trap(regs, KGDB_SIGTRAP))
		return true;
	regs->epc = pc;		/* the stub is off: a fault like any other */
	return false;
}
