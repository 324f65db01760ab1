// SPDX-License-Identifier: GPL-2.0
/*
 * i386 registers in gdb's order (its 'g' packet without a target
 * description): the eight general registers, eip, eflags and the six
 * segment registers, 4 bytes each. gdb's FPU registers follow in its
 * layout; the kernel has none to show, and a shorter packet leaves them
 * "unavailable".
 */
#include <kernel.h>
#include <string.h>
#include <sched.h>
#include <kgdb.h>
#include <asm/ptrace.h>

enum { EAX, ECX, EDX, EBX, ESP, EBP, ESI, EDI, EIP, EFLAGS,
       CS, SS, DS, ES, FS, GS, NR_GDB_REGS };

const struct kgdb_reg arch_kgdb_regs[] = {
	{ "eax", 4 }, { "ecx", 4 }, { "edx", 4 }, { "ebx", 4 },
	{ "esp", 4 }, { "ebp", 4 }, { "esi", 4 }, { "edi", 4 },
	{ "eip", 4 }, { "eflags", 4 }, { "cs", 4 }, { "ss", 4 },
	{ "ds", 4 }, { "es", 4 }, { "fs", 4 }, { "gs", 4 },
};
const int arch_kgdb_nr_regs = NR_GDB_REGS;
KGDB_REGS_FIT(NR_GDB_REGS * 4);

#define KERNEL_DS	0x10

/* A kernel trap pushes no esp: the interrupted one is just above eflags. */
void arch_kgdb_get_regs(u8 *image, const struct pt_regs *r)
{
	u32 *g = (u32 *)image;

	g[EAX] = r->eax;
	g[ECX] = r->ecx;
	g[EDX] = r->edx;
	g[EBX] = r->ebx;
	g[ESP] = (unsigned long)(&r->eflags + 1);
	g[EBP] = r->ebp;
	g[ESI] = r->esi;
	g[EDI] = r->edi;
	g[EIP] = r->eip;
	g[EFLAGS] = r->eflags;
	g[CS] = r->cs;
	g[SS] = g[DS] = g[ES] = g[FS] = g[GS] = KERNEL_DS;
}

/* esp and the segments cannot change under a trap frame: they stay. */
void arch_kgdb_set_regs(struct pt_regs *r, const u8 *image)
{
	const u32 *g = (const u32 *)image;

	r->eax = g[EAX];
	r->ecx = g[ECX];
	r->edx = g[EDX];
	r->ebx = g[EBX];
	r->ebp = g[EBP];
	r->esi = g[ESI];
	r->edi = g[EDI];
	r->eip = g[EIP];
	r->eflags = g[EFLAGS];
}

/*
 * A sleeping task stopped in __switch_to_asm (switch.S), which pushed
 * ebp, ebx, esi, edi on its stack: show it as just returned from there,
 * in the scheduler, with the callee-saved registers it will get back.
 */
void arch_kgdb_sleeping_regs(u8 *image, struct task_struct *p)
{
	const unsigned long *sp = (const unsigned long *)p->thread.sp;
	u32 *g = (u32 *)image;

	g[EDI] = sp[0];
	g[ESI] = sp[1];
	g[EBX] = sp[2];
	g[EBP] = sp[3];
	g[EIP] = sp[4];
	g[ESP] = (unsigned long)(sp + 5);
	g[CS] = 0x08;
	g[SS] = g[DS] = g[ES] = g[FS] = g[GS] = KERNEL_DS;
}
