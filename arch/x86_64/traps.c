// SPDX-License-Identifier: GPL-2.0
/*
 * x86_64 traps: the IDT and the register dump; the rest of the trap code
 * is shared with i386 in arch/x86/traps.c.
 */
#include <kernel.h>
#include <arch.h>
#include <irq.h>
#include <sched.h>
#include <asm/boot.h>
#include <asm/ptrace.h>
#include <asm/x86.h>

/* A long-mode gate is 16 bytes: the handler address is 64-bit. */
struct idt_gate {
	u16 offset_lo;
	u16 selector;
	u8 ist;			/* 0: stay on the current stack */
	u8 type_attr;
	u16 offset_mid;
	u32 offset_hi;
	u32 reserved;
} __packed;

static struct idt_gate idt[256] __aligned(16);

void x86_load_idt(void)
{
	struct {
		u16 limit;
		u64 base;
	} __packed idtr = { sizeof(idt) - 1, (u64)idt };

	asm volatile("lidt %0" :: "m" (idtr));
}

void arch_trap_init(void)
{
	unsigned int i;

	for (i = 0; i < 256; i++) {
		u64 stub = (u64)trap_stubs + TRAP_STUB_BYTES * i;

		idt[i].offset_lo = stub & 0xffff;
		idt[i].offset_mid = (stub >> 16) & 0xffff;
		idt[i].offset_hi = stub >> 32;
		idt[i].selector = GDT_KERNEL_CS;
		idt[i].ist = 0;
		idt[i].type_attr = 0x8e;	/* present, ring 0, irq gate */
		idt[i].reserved = 0;
	}
	x86_load_idt();
}

void x86_show_regs(struct pt_regs *r)
{
	unsigned long cr0, cr2, cr3, cr4;

	asm volatile("mov %%cr0, %0; mov %%cr2, %1; mov %%cr3, %2; mov %%cr4, %3"
		     : "=r" (cr0), "=r" (cr2), "=r" (cr3), "=r" (cr4));
	printk("RIP: %04lx:%016lx  %pS\n", r->cs, r->rip, (void *)r->rip);
	printk("RSP: %04lx:%016lx EFLAGS: %08lx\n", r->ss, r->rsp, r->rflags);
	printk("RAX: %016lx RBX: %016lx RCX: %016lx\n", r->rax, r->rbx, r->rcx);
	printk("RDX: %016lx RSI: %016lx RDI: %016lx\n", r->rdx, r->rsi, r->rdi);
	printk("RBP: %016lx R08: %016lx R09: %016lx\n", r->rbp, r->r8, r->r9);
	printk("R10: %016lx R11: %016lx R12: %016lx\n", r->r10, r->r11, r->r12);
	printk("R13: %016lx R14: %016lx R15: %016lx\n", r->r13, r->r14, r->r15);
	printk("CR0: %016lx CR2: %016lx CR3: %016lx CR4: %016lx\n",
	       cr0, cr2, cr3, cr4);
}

/* A sleeping task's frame: __switch_to_asm pushed RBP first, R15 last. */
unsigned long arch_task_frame(struct task_struct *p)
{
	unsigned long *sp = (unsigned long *)p->thread.sp;

	return sp[5];
}
