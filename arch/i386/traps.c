// SPDX-License-Identifier: GPL-2.0
/*
 * i386 traps: the IDT and the register dump; the rest of the trap code
 * is shared with x86_64 in arch/x86/traps.c.
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
		u32 stub = (u32)trap_stubs + TRAP_STUB_BYTES * i;

		idt[i].offset_lo = stub & 0xffff;
		idt[i].offset_hi = stub >> 16;
		idt[i].selector = 0x08;
		idt[i].zero = 0;
		idt[i].type_attr = 0x8e;	/* present, ring 0, irq gate */
	}
	x86_load_idt();
}

void x86_show_regs(struct pt_regs *r)
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

/* A sleeping task's frame: switch_to saved edi, esi, ebx, ebp there. */
unsigned long arch_task_frame(struct task_struct *p)
{
	unsigned long *sp = (unsigned long *)((struct task_struct *)p)->thread.sp;

	return sp[3];
}
