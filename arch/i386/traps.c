// SPDX-License-Identifier: GPL-2.0
/*
 * i386 traps: the IDT, the exception report (registers and a symbolic
 * backtrace), and the hand-off of interrupts to the common code.
 */
#include <kernel.h>
#include <arch.h>
#include <irq.h>
#include <sched.h>
#include <asm/ptrace.h>
#include <asm/x86.h>

struct idt_gate {
	u16 offset_lo;
	u16 selector;
	u8 zero;
	u8 type_attr;
	u16 offset_hi;
} __packed;

static struct idt_gate idt[256] __aligned(8);
extern char trap_stubs[];

static const char *const exception_names[32] = {
	"divide error", "debug", "NMI", "breakpoint", "overflow",
	"bound range", "invalid opcode", "device not available",
	"double fault", "coprocessor overrun", "invalid TSS",
	"segment not present", "stack fault", "general protection",
	"page fault", "reserved", "x87 FPU error", "alignment check",
	"machine check", "SIMD exception", "virtualization",
	"control protection",
};

void x86_load_idt(void)
{
	struct {
		u16 limit;
		u32 base;
	} __packed idtr = { sizeof(idt) - 1, (u32)idt };

	asm volatile("lidt %0" :: "m" (idtr));
}

void arch_trap_init(void)
{
	unsigned int i;

	for (i = 0; i < 256; i++) {
		u32 stub = (u32)trap_stubs + 16 * i;

		idt[i].offset_lo = stub & 0xffff;
		idt[i].offset_hi = stub >> 16;
		idt[i].selector = 0x08;
		idt[i].zero = 0;
		idt[i].type_attr = 0x8e;	/* present, ring 0, irq gate */
	}
	x86_load_idt();
}

static void show_regs(struct pt_regs *r)
{
	unsigned long cr2, cr0, cr3;

	asm volatile("mov %%cr2, %0; mov %%cr0, %1; mov %%cr3, %2"
		     : "=r" (cr2), "=r" (cr0), "=r" (cr3));
	printk("EIP: %08lx  %pS\n", r->eip, (void *)r->eip);
	printk("EAX: %08lx EBX: %08lx ECX: %08lx EDX: %08lx\n",
	       r->eax, r->ebx, r->ecx, r->edx);
	printk("ESI: %08lx EDI: %08lx EBP: %08lx ESP: %08lx\n",
	       r->esi, r->edi, r->ebp, (unsigned long)&r->eflags + 4);
	printk("CS: %04lx EFLAGS: %08lx CR0: %08lx CR2: %08lx CR3: %08lx\n",
	       r->cs, r->eflags, cr0, cr2, cr3);
}

static void do_exception(struct pt_regs *regs)
{
	const char *name = regs->vector < 32 ?
		exception_names[regs->vector] : NULL;

	oops_begin();
	printk("Oops: %s (exception %lu), error code %#lx\n",
	       name ? name : "unknown", regs->vector, regs->error_code);
	if (regs->vector == 14) {
		unsigned long cr2;

		asm volatile("mov %%cr2, %0" : "=r" (cr2));
		printk("BUG: unable to handle kernel access at address %08lx\n",
		       cr2);
	}
	show_regs(regs);
	printk("Call Trace:\n");
	arch_dump_stack_from(regs->ebp, regs->eip);
	oops_end(regs_irqs_on(regs));
}

void x86_handle_trap(struct pt_regs *regs)
{
	if (regs->vector < 32) {
		do_exception(regs);
		return;
	}
	irq_enter();
	x86_handle_irq(regs->vector);
	irq_exit(regs_irqs_on(regs));
}

/* Follow the saved-EBP chain; each frame is [saved ebp][return address]. */
void arch_dump_stack_from(unsigned long fp, unsigned long pc)
{
	int depth = 0;

	if (pc)
		printk(" [<%08lx>] %pS\n", pc, (void *)pc);
	while (fp && depth++ < 32) {
		unsigned long *frame = (unsigned long *)fp;
		unsigned long ret = frame[1];

		if (fp & 3 || fp < 0x1000)
			break;
		if (!ret)
			break;
		printk(" [<%08lx>] %pS\n", ret, (void *)ret);
		if (frame[0] <= fp)	/* stacks grow down: callers are above */
			break;
		fp = frame[0];
	}
}

void dump_stack(void)
{
	arch_dump_stack_from((unsigned long)__builtin_frame_address(0), 0);
}

/* A sleeping task's frame: switch_to saved edi, esi, ebx, ebp there. */
unsigned long arch_task_frame(struct task_struct *p)
{
	unsigned long *sp = (unsigned long *)((struct task_struct *)p)->thread.sp;

	return sp[3];
}
