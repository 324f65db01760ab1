// SPDX-License-Identifier: GPL-2.0
/*
 * RISC-V traps: the fault report (registers and a symbolic backtrace)
 * and the hand-off of interrupts to the common code. entry.S calls
 * riscv_handle_trap() (an exception) or riscv_handle_irq() (an
 * interrupt: scause's top bit) on the interrupted task's stack with a
 * struct pt_regs; stval is the address that faulted.
 *
 * The MMU stays off (satp bare): QEMU virt has nothing at address 0, so
 * a NULL pointer is an access fault without any page table.
 */
#include <kernel.h>
#include <arch.h>
#include <irq.h>
#include <sched.h>
#include <smp.h>
#include <extable.h>
#include <asm/ptrace.h>
#include <asm/riscv.h>

static const char *const exception_names[] = {
	[EXC_INSN_MISALIGNED] = "instruction address misaligned",
	[EXC_INSN_ACCESS] = "instruction access fault",
	[EXC_ILLEGAL_INSN] = "illegal instruction",
	[EXC_BREAKPOINT] = "breakpoint",
	[EXC_LOAD_MISALIGNED] = "load address misaligned",
	[EXC_LOAD_ACCESS] = "load access fault",
	[EXC_STORE_MISALIGNED] = "store address misaligned",
	[EXC_STORE_ACCESS] = "store access fault",
	[EXC_ECALL_S] = "environment call from S-mode",
	[EXC_INSN_PAGE] = "instruction page fault",
	[EXC_LOAD_PAGE] = "load page fault",
	[EXC_STORE_PAGE] = "store page fault",
};

/* stvec is set by head.S on every hart, before any C code. */
void arch_trap_init(void)
{
	riscv_irq_init_cpu();
}

static const char *exception_name(unsigned long cause)
{
	if (cause < ARRAY_SIZE(exception_names) && exception_names[cause])
		return exception_names[cause];
	return "unexpected exception";
}

/* Linux's order: the ABI names, two or three to a line. */
static void show_regs(struct pt_regs *r)
{
	static const char *const names[32] = {
		"zero", "ra", "sp", "gp", "tp", "t0", "t1", "t2",
		"s0", "s1", "a0", "a1", "a2", "a3", "a4", "a5",
		"a6", "a7", "s2", "s3", "s4", "s5", "s6", "s7",
		"s8", "s9", "s10", "s11", "t3", "t4", "t5", "t6",
	};
	int n;

	printk("epc : %pS\n", (void *)r->epc);
	printk(" ra : %pS\n", (void *)regs_reg(r, REG_RA));
	printk("epc : %016lx ra : %016lx sp : %016lx\n",
	       r->epc, regs_reg(r, REG_RA), regs_reg(r, REG_SP));
	for (n = 3; n < 32; n += 3)
		printk(" %-3s: %016lx %-3s: %016lx %-3s: %016lx\n",
		       names[n], regs_reg(r, n), names[n + 1],
		       n + 1 < 32 ? regs_reg(r, n + 1) : 0,
		       n + 2 < 32 ? names[n + 2] : "",
		       n + 2 < 32 ? regs_reg(r, n + 2) : 0);
	printk("status: %016lx badaddr: %016lx cause: %016lx\n",
	       r->status, r->badaddr, r->cause);
}

static bool is_access_fault(unsigned long cause)
{
	return cause == EXC_LOAD_ACCESS || cause == EXC_STORE_ACCESS ||
	       cause == EXC_LOAD_PAGE || cause == EXC_STORE_PAGE;
}

/*
 * A load or store fault at an instruction listed in the exception table
 * was expected (copy_from_kernel_nofault and friends): continue at its
 * fixup, which reports the error to the caller.
 */
static bool __kgdb_nobreak fixup_exception(struct pt_regs *regs)
{
	unsigned long fixup;

	if (!is_access_fault(regs->cause))
		return false;
	fixup = search_exception_table(regs->epc);
	if (!fixup)
		return false;
	regs->epc = fixup;
	return true;
}

static void __kgdb_nobreak handle_exception(struct pt_regs *regs)
{
	unsigned long cause = regs->cause;

	if (fixup_exception(regs))
		return;
	if (cause == EXC_BREAKPOINT && riscv_kgdb_trap(regs))
		return;
	oops_begin();
	printk("Oops: %s at %016lx\n", exception_name(cause), regs->epc);
	if (is_access_fault(cause) || cause == EXC_INSN_ACCESS)
		oops_bad_address(regs->badaddr);
	show_regs(regs);
	printk("Call Trace:\n");
	arch_dump_stack_from(regs_fp(regs), regs->epc);
	oops_end(regs_irqs_on(regs));
}

/*
 * Interrupts, called from the trap entry apart from the exceptions, and
 * open to gdb's breakpoints: its return goes straight to the trap's way
 * out, so that a gdb step out of an interrupt never stops in the trap
 * path (__kgdb_nobreak), which the stub's own trap runs too.
 */
void riscv_handle_irq(struct pt_regs *regs)
{
	unsigned long irq = regs->cause & ~CAUSE_IRQ;

	irq_enter();
	switch (irq) {
	case IRQ_S_SOFT:
		riscv_handle_ipi(regs);
		break;
	case IRQ_S_TIMER:
		riscv_handle_timer();
		break;
	case IRQ_S_EXT:
		riscv_serial_interrupt();
		break;
	default:
		printk("riscv: unexpected interrupt %lu\n", irq);
	}
	irq_exit(regs_irqs_on(regs));
}

void __kgdb_nobreak riscv_handle_trap(struct pt_regs *regs)
{
	handle_exception(regs);
}

/*
 * With frame pointers every function that has a frame keeps its return
 * address at fp - 8 and its caller's fp at fp - 16 (fp points just above
 * the frame). A leaf function, which calls nothing, keeps no return
 * address: its caller's fp is at fp - 8. Only the innermost frame can be
 * a leaf, and it shows as a "return address" inside the stack, where no
 * code is: the walk then goes on from there, and the leaf's caller is
 * the ra of the registers (the trap report prints them). A frame that
 * leaves the stack it started on ends the walk.
 */
unsigned int arch_stack_trace(unsigned long fp, unsigned long *entries,
			      unsigned int max)
{
	unsigned long stack = (fp - 1) & ~(THREAD_SIZE - 1UL);
	unsigned long top = stack + THREAD_SIZE;
	unsigned int n = 0;
	bool innermost = true;

	while (fp && n < max) {
		unsigned long *frame = (unsigned long *)fp;
		unsigned long ret, next;

		if (fp & 7 || fp - 16 < stack || fp > top)
			break;
		ret = frame[-1];
		next = frame[-2];
		if (innermost && ret > fp && ret <= top) {
			innermost = false;
			fp = ret;		/* a leaf: its caller's fp */
			continue;
		}
		innermost = false;
		if (!ret)
			break;
		entries[n++] = ret;
		if (next <= fp)		/* stacks grow down: callers are above */
			break;
		fp = next;
	}
	return n;
}

/* A sleeping task's frame: __switch_to_asm saved its fp (s0). */
unsigned long arch_task_frame(struct task_struct *p)
{
	unsigned long *sp = (unsigned long *)p->thread.sp;

	return sp[SWITCH_FRAME_S0];
}

extern char ret_from_fork[];

/* The first frame of a new task, as __switch_to_asm() pops it. */
void arch_task_setup(struct task_struct *p, void (*entry)(void))
{
	unsigned long *sp = (unsigned long *)
		((unsigned long)p->thread_info + THREAD_SIZE);
	int i;

	/*
	 * Two words stay free at the top: at sp == the very top, sp with its
	 * low bits cleared would name the next stack, not this thread_info.
	 * Two, so that sp stays 16-byte aligned as the ABI wants.
	 */
	sp -= 2 + SWITCH_FRAME_WORDS;
	for (i = 0; i < SWITCH_FRAME_WORDS; i++)
		sp[i] = 0;			/* s0 = 0 ends backtraces */
	sp[SWITCH_FRAME_S0 + 1] = (unsigned long)entry;		/* s1 */
	sp[SWITCH_FRAME_RA] = (unsigned long)ret_from_fork;
	p->thread.sp = (unsigned long)sp;
}
