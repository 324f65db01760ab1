// SPDX-License-Identifier: GPL-2.0
/*
 * The x86 trap code both arches share: the exception report (registers,
 * then a symbolic backtrace along the frame-pointer chain), and the hand-off
 * of interrupts to the common code. Each arch supplies its IDT, its
 * register dump (x86_show_regs) and its struct pt_regs.
 */
#include <kernel.h>
#include <arch.h>
#include <irq.h>
#include <sched.h>
#include <extable.h>
#include <asm/ptrace.h>
#include <asm/x86.h>

static const char *const exception_names[32] = {
	"divide error", "debug", "NMI", "breakpoint", "overflow",
	"bound range", "invalid opcode", "device not available",
	"double fault", "coprocessor overrun", "invalid TSS",
	"segment not present", "stack fault", "general protection",
	"page fault", "reserved", "x87 FPU error", "alignment check",
	"machine check", "SIMD exception", "virtualization",
	"control protection",
};

static unsigned long read_cr2(void)
{
	unsigned long cr2;

	asm volatile("mov %%cr2, %0" : "=r" (cr2));
	return cr2;
}

static void do_exception(struct pt_regs *regs)
{
	const char *name = regs->vector < 32 ?
		exception_names[regs->vector] : NULL;

	oops_begin();
	printk("Oops: %s (exception %lu), error code %#lx\n",
	       name ? name : "unknown", regs->vector, regs->error_code);
	if (regs->vector == X86_TRAP_PF)
		oops_bad_address(read_cr2());
	x86_show_regs(regs);
	printk("Call Trace:\n");
	arch_dump_stack_from(regs_fp(regs), regs_pc(regs));
	oops_end(regs_irqs_on(regs));
}

/*
 * A page fault, or a general protection fault (x86_64: a non-canonical
 * address), at an instruction listed in the exception table was expected:
 * continue at its fixup, which reports the error to the caller.
 */
static bool fixup_exception(struct pt_regs *regs)
{
	unsigned long fixup;

	if (regs->vector != X86_TRAP_PF && regs->vector != X86_TRAP_GP)
		return false;
	fixup = search_exception_table(regs_pc(regs));
	if (!fixup)
		return false;
	regs_pc(regs) = fixup;
	return true;
}

asmlinkage void __kgdb_nobreak x86_handle_trap(struct pt_regs *regs)
{
	if (regs->vector < 32) {
		if (x86_kgdb_trap(regs))
			return;
		if (!fixup_exception(regs))
			do_exception(regs);
		return;
	}
	irq_enter();
	x86_handle_irq(regs->vector, regs);
	irq_exit(regs_irqs_on(regs));
}

/*
 * Follow the saved frame-pointer chain; each frame is [saved fp][return
 * address]. Only plausible addresses are followed, so that a corrupt chain
 * ends the trace instead of faulting inside the fault report.
 */
unsigned int arch_stack_trace(unsigned long fp, unsigned long *entries,
			      unsigned int max)
{
	unsigned int n = 0;

	while (fp && n < max) {
		unsigned long *frame = (unsigned long *)fp;
		unsigned long ret;

		if (fp & (sizeof(long) - 1) || fp < 0x1000 ||
		    fp >= KERNEL_ADDR_END - 2 * sizeof(long))
			break;
		ret = frame[1];
		if (!ret)
			break;
		entries[n++] = ret;
		if (frame[0] <= fp)	/* stacks grow down: callers are above */
			break;
		fp = frame[0];
	}
	return n;
}

