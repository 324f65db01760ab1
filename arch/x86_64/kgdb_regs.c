// SPDX-License-Identifier: GPL-2.0
/*
 * x86_64 registers in gdb's order (its 'g' packet without a target
 * description): rax..r15 and rip, 8 bytes each, then eflags and the six
 * segment registers, 4 bytes each. gdb's FPU and SSE registers follow in
 * its layout; the kernel uses none (-mgeneral-regs-only), and a shorter
 * packet leaves them "unavailable".
 */
#include <kernel.h>
#include <string.h>
#include <sched.h>
#include <kgdb.h>
#include <asm/boot.h>
#include <asm/ptrace.h>

enum { RAX, RBX, RCX, RDX, RSI, RDI, RBP, RSP, R8, R9, R10, R11, R12,
       R13, R14, R15, RIP, NR_LONG_REGS };
enum { EFLAGS, CS, SS, DS, ES, FS, GS, NR_INT_REGS };

const struct kgdb_reg arch_kgdb_regs[] = {
	{ "rax", 8 }, { "rbx", 8 }, { "rcx", 8 }, { "rdx", 8 },
	{ "rsi", 8 }, { "rdi", 8 }, { "rbp", 8 }, { "rsp", 8 },
	{ "r8", 8 }, { "r9", 8 }, { "r10", 8 }, { "r11", 8 },
	{ "r12", 8 }, { "r13", 8 }, { "r14", 8 }, { "r15", 8 },
	{ "rip", 8 }, { "eflags", 4 }, { "cs", 4 }, { "ss", 4 },
	{ "ds", 4 }, { "es", 4 }, { "fs", 4 }, { "gs", 4 },
};
const int arch_kgdb_nr_regs = NR_LONG_REGS + NR_INT_REGS;
KGDB_REGS_FIT(NR_LONG_REGS * 8 + NR_INT_REGS * 4);

static u32 *int_regs(u8 *image)
{
	return (u32 *)(image + 8 * NR_LONG_REGS);
}

void arch_kgdb_get_regs(u8 *image, const struct pt_regs *r)
{
	u64 *g = (u64 *)image;
	u32 *s = int_regs(image);

	g[RAX] = r->rax;
	g[RBX] = r->rbx;
	g[RCX] = r->rcx;
	g[RDX] = r->rdx;
	g[RSI] = r->rsi;
	g[RDI] = r->rdi;
	g[RBP] = r->rbp;
	g[RSP] = r->rsp;
	g[R8] = r->r8;
	g[R9] = r->r9;
	g[R10] = r->r10;
	g[R11] = r->r11;
	g[R12] = r->r12;
	g[R13] = r->r13;
	g[R14] = r->r14;
	g[R15] = r->r15;
	g[RIP] = r->rip;
	s[EFLAGS] = r->rflags;
	s[CS] = r->cs;
	s[SS] = r->ss;
}

/* rsp and the segments cannot change under a trap frame: they stay. */
void arch_kgdb_set_regs(struct pt_regs *r, const u8 *image)
{
	const u64 *g = (const u64 *)image;

	r->rax = g[RAX];
	r->rbx = g[RBX];
	r->rcx = g[RCX];
	r->rdx = g[RDX];
	r->rsi = g[RSI];
	r->rdi = g[RDI];
	r->rbp = g[RBP];
	r->r8 = g[R8];
	r->r9 = g[R9];
	r->r10 = g[R10];
	r->r11 = g[R11];
	r->r12 = g[R12];
	r->r13 = g[R13];
	r->r14 = g[R14];
	r->r15 = g[R15];
	r->rip = g[RIP];
	r->rflags = int_regs((u8 *)image)[EFLAGS];
}

/*
 * A sleeping task stopped in __switch_to_asm (switch.S), which pushed
 * rbp, rbx, r12..r15 on its stack: show it as just returned from there,
 * in the scheduler, with the callee-saved registers it will get back.
 */
void arch_kgdb_sleeping_regs(u8 *image, struct task_struct *p)
{
	const unsigned long *sp = (const unsigned long *)p->thread.sp;
	u64 *g = (u64 *)image;
	u32 *s = int_regs(image);

	g[R15] = sp[0];
	g[R14] = sp[1];
	g[R13] = sp[2];
	g[R12] = sp[3];
	g[RBX] = sp[4];
	g[RBP] = sp[5];
	g[RIP] = sp[6];
	g[RSP] = (unsigned long)(sp + 7);
	s[CS] = GDT_KERNEL_CS;
}
