// SPDX-License-Identifier: GPL-2.0
/*
 * The gdb stub's x86 half, for i386 and x86_64: its port, COM2 (the
 * PC's second 16550 at 0x2f8, QEMU's second -serial), kept apart from
 * the console on COM1 so that printk and gdb's packets never share a
 * line; the int3 breakpoint; the trap flag for single steps. The
 * register layouts are each arch's kgdb_regs.c.
 */
#include <kernel.h>
#include <errno.h>
#include <kgdb.h>
#include <mm.h>
#include <sched.h>
#include <uart16550.h>
#include <asm/ptrace.h>
#include <asm/x86.h>

#define COM2		0x2f8
#define EFLAGS_TF	0x100	/* trap after the next instruction */
#define EFLAGS_IF	0x200	/* interrupts on */
#define DR6_BS		0x4000	/* the debug trap is a single step's */

const char arch_kgdb_port_name[] = "COM2 (ttyS1, I/O port 0x2f8), 115200 8N1";
const u8 arch_kgdb_break_insn[] = { 0xcc };	/* int3 */
const int arch_kgdb_break_len = 1;

static struct uart16550 com2 = X86_UART(COM2);

void arch_kgdb_io_init(void)
{
	uart16550_setup(&com2, 1);		/* 115200 / 1 */
}

int arch_kgdb_io_getc(void)
{
	return uart16550_getc(&com2);
}

void arch_kgdb_io_putc(char c)
{
	uart16550_putc(&com2, c);
}

void arch_kgdb_breakpoint(void)
{
	asm volatile("int3");
}

/* x86 fetches what was written: code and data caches are coherent. */
void __kgdb_nobreak arch_kgdb_sync_icache(unsigned long addr, size_t len)
{
}

/*
 * A step runs with interrupts off on the stepping CPU, so that neither
 * the tick nor a task switch happens inside one stepi; the stepped
 * task's own IF comes back when the step ends. An instruction that sets
 * IF itself (sti, cli, popf, iret: iret returns from an interrupt into
 * the code it interrupted, whose flags it pops) keeps what it set, and
 * hlt keeps IF on, or it would wait for ever.
 */
#define OP_PUSHF	0x9c
#define OP_POPF		0x9d
#define OP_IRET		0xcf
#define OP_HLT		0xf4
#define OP_CLI		0xfa
#define OP_STI		0xfb

static struct task_struct *step_task;	/* whose IF step_irq_flag is */
static unsigned long step_irq_flag;
static int step_op;

/* The opcode at pc past an operand-size or REX.W prefix (iretq: 48 cf). */
static int opcode_at(unsigned long pc)
{
	u8 insn[2];

	if (copy_from_kernel_nofault(insn, (void *)pc, sizeof(insn)))
		return -EFAULT;
	return insn[0] == 0x48 || insn[0] == 0x66 ? insn[1] : insn[0];
}

int arch_kgdb_prepare_step(struct pt_regs *regs)
{
	step_op = opcode_at(regs_pc(regs));
	if (step_op < 0)
		return step_op;
	step_task = current;
	step_irq_flag = regs_flags(regs) & EFLAGS_IF;
	if (step_op != OP_HLT)
		regs_flags(regs) &= ~EFLAGS_IF;
	regs_flags(regs) |= EFLAGS_TF;
	return 0;
}

/* A stepped pushf pushed the step's TF and IF: the task's go there. */
static void __kgdb_nobreak fix_pushed_flags(struct pt_regs *regs)
{
	unsigned long *pushed = (unsigned long *)regs_sp(regs);

	*pushed = (*pushed & ~(EFLAGS_TF | EFLAGS_IF)) | step_irq_flag;
}

void __kgdb_nobreak arch_kgdb_end_step(struct pt_regs *regs)
{
	regs_flags(regs) &= ~EFLAGS_TF;
	if (current != step_task)
		return;		/* the flags there are another task's */
	if (step_op == OP_PUSHF)
		fix_pushed_flags(regs);
	if (step_op != OP_STI && step_op != OP_CLI && step_op != OP_POPF &&
	    step_op != OP_IRET)
		regs_flags(regs) = (regs_flags(regs) & ~EFLAGS_IF) | step_irq_flag;
}

/*
 * Whether a debug trap is a single step's (DR6.BS), which is sticky:
 * cleared here. TF cannot tell: a step of iret traps with the flags it
 * popped, TF clear.
 */
static bool __kgdb_nobreak single_stepped(void)
{
	unsigned long dr6;

	asm volatile("mov %%db6, %0" : "=r" (dr6));
	asm volatile("mov %0, %%db6" :: "r" (dr6 & ~DR6_BS));
	return dr6 & DR6_BS;
}

/*
 * A stepped instruction that fires a data watchpoint traps once on real
 * hardware, DR6 saying both. QEMU traps twice: for the watchpoint, after
 * the instruction (its frame has the step's TF), then for the step, at
 * the first instruction of the debug trap's own stub, nested in it. The
 * inner trap is no stop: its step bit is taken, and the outer trap
 * reports the watchpoint and ends the step in the stepped code, TF
 * cleared there. Stopped at the inner one, gdb once saw the stub's entry,
 * and the outer trap, its step bit gone, was an "Oops: debug".
 */
static bool __kgdb_nobreak step_nested_in_debug_trap(struct pt_regs *regs)
{
	unsigned long entry = (unsigned long)trap_stubs +
			      X86_TRAP_DB * TRAP_STUB_BYTES;

	return regs_pc(regs) == entry && single_stepped();
}

/*
 * A parked CPU sleeps in hlt with its interrupts off, as every gate of
 * the IDT leaves them: only the owner's NMI ends it (below), and the
 * tick and the IPIs wait in the local APIC until the CPU is let go.
 * There is nothing to silence.
 */
unsigned long __kgdb_nobreak arch_kgdb_park_begin(void)
{
	return 0;
}

/*
 * The look at the release and the hlt in one piece of asm, which the
 * NMI sends back to its start when it comes before the hlt ran: else
 * the hlt, run after the NMI, would sleep through it for ever.
 */
void __kgdb_nobreak arch_kgdb_park_wait(const volatile unsigned long *release,
					unsigned long gen)
{
	asm volatile("kgdb_park_look:\n\t"
		     "cmp %1, %0\n\t"
		     "jne 1f\n"
		     "kgdb_park_hlt:\n\t"
		     "hlt\n"
		     "1:"
		     :: "m" (*release), "r" (gen) : "memory", "cc");
}

void __kgdb_nobreak arch_kgdb_park_end(unsigned long saved)
{
}

void __kgdb_nobreak arch_kgdb_park_wake(unsigned int cpu)
{
	lapic_send_nmi(x86_cpu_apic_id[cpu]);
}

/*
 * The NMI of arch_kgdb_park_wake(). One that came between the park's
 * look at the release and its hlt (the hlt not run yet) sends it back
 * to the look, which sees the release the owner made before the NMI.
 */
static bool __kgdb_nobreak park_woken(struct pt_regs *regs)
{
	extern char kgdb_park_look[], kgdb_park_hlt[];
	unsigned long pc = regs_pc(regs);

	if (pc >= (unsigned long)kgdb_park_look &&
	    pc <= (unsigned long)kgdb_park_hlt)
		regs_pc(regs) = (unsigned long)kgdb_park_look;
	return true;
}

/*
 * int3 traps with the pc after it. At a breakpoint gdb planted (even
 * one the stub has just taken out again), gdb wants to see the pc at
 * the breakpoint, and the original instruction runs from there once
 * the text is clean; a compiled-in int3
 * (arch_kgdb_breakpoint) is passed. A debug trap is a hardware
 * breakpoint's or watchpoint's (hw_breakpoint.c), or a single step's,
 * which ends a step. An NMI is the owner's wake of a parked CPU.
 */
bool __kgdb_nobreak x86_kgdb_trap(struct pt_regs *regs)
{
	if (regs->vector == X86_TRAP_BP) {
		if (kgdb_planted_at(regs_pc(regs) - 1))
			regs_pc(regs)--;
		return kgdb_handle_trap(regs, KGDB_SIGTRAP);
	}
	if (regs->vector == X86_TRAP_DB && step_nested_in_debug_trap(regs))
		return true;
	if (regs->vector == X86_TRAP_DB && x86_kgdb_watch_trap(regs))
		return true;
	if (regs->vector == X86_TRAP_DB && single_stepped())
		return kgdb_handle_trap(regs, KGDB_SIGTRAP);
	if (regs->vector == X86_TRAP_NMI)
		return park_woken(regs);
	return false;
}
