// SPDX-License-Identifier: GPL-2.0
/*
 * ARM traps: the fault report (registers and a symbolic backtrace) and
 * the hand-off of interrupts to the common code. entry.S calls in here
 * on the interrupted task's SVC stack with a struct pt_regs.
 */
#include <kernel.h>
#include <arch.h>
#include <irq.h>
#include <sched.h>
#include <smp.h>
#include <extable.h>
#include <asm/ptrace.h>
#include <asm/rpi.h>

enum fault_kind { FAULT_UNDEF, FAULT_PABT, FAULT_DABT, FAULT_OTHER };

static const char *const fault_names[] = {
	[FAULT_UNDEF] = "undefined instruction",
	[FAULT_PABT] = "prefetch abort",
	[FAULT_DABT] = "data abort",
	[FAULT_OTHER] = "unexpected exception",
};

/* Every core's vectors are installed by head.S, before any C code. */
void arch_trap_init(void)
{
	arm_irq_init_cpu();
}

static void show_regs(struct pt_regs *r)
{
	unsigned long *g = r->r;

	printk("PC is at %pS\n", (void *)r->pc);
	printk("LR is at %pS\n", (void *)r->lr);
	printk("pc : %08lx  lr : %08lx  psr: %08lx\n", r->pc, r->lr, r->cpsr);
	printk("sp : %08lx  ip : %08lx  fp : %08lx\n", r->sp, g[12], g[11]);
	printk("r10: %08lx  r9 : %08lx  r8 : %08lx\n", g[10], g[9], g[8]);
	printk("r7 : %08lx  r6 : %08lx  r5 : %08lx  r4 : %08lx\n",
	       g[7], g[6], g[5], g[4]);
	printk("r3 : %08lx  r2 : %08lx  r1 : %08lx  r0 : %08lx\n",
	       g[3], g[2], g[1], g[0]);
}

/* Fault status bit 11 (DFSR.WnR): the abort was a write. */
#define DFSR_WRITE	(1 << 11)

/*
 * A data abort at an instruction listed in the exception table was
 * expected (copy_from_kernel_nofault and friends): continue at its fixup,
 * which reports the error to the caller.
 */
static bool __kgdb_nobreak fixup_exception(struct pt_regs *regs, unsigned int kind)
{
	unsigned long fixup;

	if (kind != FAULT_DABT)
		return false;
	fixup = search_exception_table(regs->pc);
	if (!fixup)
		return false;
	regs->pc = fixup;
	return true;
}

/* The faulting address: DFAR for a load or store, IFAR for a fetch. */
static void show_fault_address(unsigned int kind)
{
	unsigned long far, fsr;

	if (kind == FAULT_DABT) {
		asm volatile("mrc p15, 0, %0, c6, c0, 0" : "=r" (far));
		asm volatile("mrc p15, 0, %0, c5, c0, 0" : "=r" (fsr));
		oops_bad_address(far);
		printk("DFSR %08lx (%s)\n", fsr,
		       fsr & DFSR_WRITE ? "write" : "read");
	} else if (kind == FAULT_PABT) {
		asm volatile("mrc p15, 0, %0, c6, c0, 2" : "=r" (far));
		asm volatile("mrc p15, 0, %0, c5, c0, 1" : "=r" (fsr));
		oops_bad_address(far);
		printk("IFSR %08lx (instruction fetch)\n", fsr);
	}
}

/* Returns only when the fault was expected and regs->pc now fixes it up. */
void __kgdb_nobreak arm_handle_fault(struct pt_regs *regs, unsigned int kind)
{
	if ((kind == FAULT_PABT || kind == FAULT_DABT) &&
	    arm_kgdb_debug_trap(regs, kind == FAULT_PABT))
		return;
	if (fixup_exception(regs, kind))
		return;
	if (kind == FAULT_UNDEF && arm_kgdb_trap(regs))
		return;
	oops_begin();
	printk("Oops: %s at %08lx\n", fault_names[kind], regs->pc);
	show_fault_address(kind);
	show_regs(regs);
	printk("Call Trace:\n");
	arch_dump_stack_from(regs_fp(regs), regs->pc);
	oops_end(regs_irqs_on(regs));
}

/*
 * The sources of this core's interrupt: its timer, its IPI mailbox, and
 * on core 0 the peripherals (the GPU interrupt), of which only the
 * console's UART is enabled.
 */
void arm_handle_irq(struct pt_regs *regs)
{
	unsigned int core = arm_cpu_id();
	u32 pending = readl(LOCAL_IRQ_SOURCE(core));

	irq_enter();
	if (pending & IRQ_SRC_MBOX0) {
		u32 ipis = readl(LOCAL_MBOX_CLR(core, MBOX_IPI));

		/* Clear first: an IPI sent while we handle this one stays. */
		writel(ipis, LOCAL_MBOX_CLR(core, MBOX_IPI));
		while (ipis) {
			int ipi = __builtin_ctz(ipis);

			ipis &= ipis - 1;
			smp_handle_ipi(ipi, regs);
		}
	}
	if (pending & IRQ_SRC_CNTV)
		arm_handle_timer();
	if ((pending & IRQ_SRC_GPU) &&
	    (readl(IC_PENDING2) & (1U << (IRQ_UART0 - 32))))
		arm_serial_interrupt();
	irq_exit(regs_irqs_on(regs));
}

/* This core's IPI mailbox: emptied, then allowed to interrupt. */
void arm_irq_init_cpu(void)
{
	unsigned int core = arm_cpu_id();

	writel(~0U, LOCAL_MBOX_CLR(core, MBOX_IPI));
	writel(1 << MBOX_IPI, LOCAL_MBOX_INT_CTRL(core));
}

void arch_send_ipi(unsigned int cpu, int ipi)
{
	writel(1U << ipi, LOCAL_MBOX_SET(cpu, MBOX_IPI));
}

/*
 * With -mapcs-frame every function saves {fp, sp, lr, pc} and points fp
 * at the saved pc: the return address is at fp - 4 and the caller's fp
 * at fp - 12. A frame that leaves the stack it started on ends the walk.
 */
unsigned int arch_stack_trace(unsigned long fp, unsigned long *entries,
			      unsigned int max)
{
	unsigned long stack = fp & ~(THREAD_SIZE - 1UL);
	unsigned int n = 0;

	while (fp && n < max) {
		unsigned long *frame = (unsigned long *)fp;
		unsigned long ret, next;

		if (fp & 3 || fp - 12 < stack || fp >= stack + THREAD_SIZE)
			break;
		ret = frame[-1];
		next = frame[-3];
		if (!ret)
			break;
		entries[n++] = ret;
		if (next <= fp)		/* stacks grow down: callers are above */
			break;
		fp = next;
	}
	return n;
}

/* A sleeping task's frame: __switch_to_asm saved its fp (r11). */
unsigned long arch_task_frame(struct task_struct *p)
{
	unsigned long *sp = (unsigned long *)p->thread.sp;

	return sp[SWITCH_FRAME_FP];
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
	 * Two, so that sp stays 8-byte aligned as the AAPCS wants.
	 */
	sp -= 2 + SWITCH_FRAME_WORDS;
	for (i = 0; i < SWITCH_FRAME_WORDS; i++)
		sp[i] = 0;			/* fp = 0 ends backtraces */
	sp[SWITCH_FRAME_R4] = (unsigned long)entry;
	sp[SWITCH_FRAME_LR] = (unsigned long)ret_from_fork;
	p->thread.sp = (unsigned long)sp;
}
