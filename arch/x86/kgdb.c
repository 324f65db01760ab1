// SPDX-License-Identifier: GPL-2.0
/*
 * The gdb stub's x86 half, for i386 and x86_64: its port, COM2 (the
 * PC's second 16550 at 0x2f8, QEMU's second -serial), kept apart from
 * the console on COM1 so that printk and gdb's packets never share a
 * line; the int3 breakpoint; the trap flag for single steps. The
 * register layouts are each arch's kgdb_regs.c.
 */
#include <kernel.h>
#include <kgdb.h>
#include <uart16550.h>
#include <asm/ptrace.h>
#include <asm/x86.h>

#define COM2		0x2f8
#define EFLAGS_TF	0x100	/* trap after the next instruction */

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

int arch_kgdb_prepare_step(struct pt_regs *regs)
{
	regs_flags(regs) |= EFLAGS_TF;
	return 0;
}

void arch_kgdb_end_step(struct pt_regs *regs)
{
	regs_flags(regs) &= ~EFLAGS_TF;
}

/*
 * int3 traps with the pc after it. At a breakpoint gdb planted (even
 * one the stub has just taken out again), gdb wants to see the pc at
 * the breakpoint, and the original instruction runs from there once
 * the text is clean; a compiled-in int3
 * (arch_kgdb_breakpoint) is passed. A debug trap is a hardware
 * breakpoint's or watchpoint's (hw_breakpoint.c), or with TF set ends a
 * step.
 */
bool __kgdb_nobreak x86_kgdb_trap(struct pt_regs *regs)
{
	if (regs->vector == X86_TRAP_BP) {
		if (kgdb_planted_at(regs_pc(regs) - 1))
			regs_pc(regs)--;
		return kgdb_handle_trap(regs, KGDB_SIGTRAP);
	}
	if (regs->vector == X86_TRAP_DB && x86_kgdb_watch_trap(regs))
		return true;
	if (regs->vector == X86_TRAP_DB && (regs_flags(regs) & EFLAGS_TF))
		return kgdb_handle_trap(regs, KGDB_SIGTRAP);
	return false;
}
