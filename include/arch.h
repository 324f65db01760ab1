/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What every arch provides to the arch-neutral kernel, in one list: a
 * port is this header's functions, the arch.mk description
 * (docs/design.md) and these headers in arch/<arch>/include/asm/:
 *
 *   atomic.h       atomic_t's operations, atomic_xchg, atomic_cmpxchg
 *                  (the type: asm-generic/atomic_t.h)
 *   barrier.h      mb, rmb, wmb and their smp_ forms, cpu_relax
 *   spinlock.h     arch_spin_lock/trylock/unlock (the ticket word:
 *                  asm-generic/ticket_spinlock.h)
 *   irqflags.h     arch_local_irq_save/restore/enable/disable,
 *                  arch_local_save_flags, arch_irqs_disabled_flags,
 *                  arch_safe_halt
 *   mutex.h        the mutex fastpath: native, or an asm-generic one
 *   switch_to.h    switch_to() (asm-generic/switch_to.h's interface) and
 *                  arch_outermost_frame()
 *   thread_info.h  THREAD_SIZE and current_stack_pointer()
 *   ptrace.h       struct pt_regs, the trap frame
 *
 * An arch's entry code sets up a boot stack (whose base is init_task's
 * thread_info), brings up its console so that arch_putc() works, fills
 * boot_command_line (setup_command_line()) and the memory map
 * (memblock_add), and calls start_kernel().
 */
#ifndef _ARCH_H
#define _ARCH_H

#include <types.h>

struct task_struct;
struct pt_regs;

/*
 * The kernel command line: up to 4 KiB of characters. A longer one is
 * refused at boot (a panic that says so), never cut: a cut would drop
 * the options at its end without a word.
 */
#define COMMAND_LINE_MAX	4096
#define COMMAND_LINE_SIZE	(COMMAND_LINE_MAX + 1)	/* and the NUL */
extern char boot_command_line[COMMAND_LINE_SIZE];
/* The arch hands over the loader's command line with this. */
void setup_command_line(const char *cmdline);

void __noreturn start_kernel(void);

/* Console: one character to the early serial port, polled. */
void arch_putc(char c);
/*
 * The results channel: the test runner's KTAP result lines, written
 * whole, to a QEMU device of their own that printk() never reaches
 * (x86: the debug console port 0xe9; arm, riscv: semihosting's
 * SYS_WRITE0). The grader counts only what comes this way. Always on; on
 * a board the write goes nowhere.
 */
void arch_results_write(const char *line);
/* Turn on the console UART's receive interrupt (boot CPU). */
void arch_console_rx_init(void);

/* Traps, interrupts and the clock, on the boot CPU. */
void arch_trap_init(void);
void arch_time_init(void);		/* calibrates the clock */
u64 arch_clock_ns(void);		/* monotonic nanoseconds */
void arch_timer_start(void);		/* this CPU's periodic tick */

/*
 * SMP: start the other CPUs (at most max_cpus in all). Each one calls
 * secondary_start_kernel() on its idle task's stack.
 */
void arch_smp_boot(unsigned int max_cpus);
void arch_send_ipi(unsigned int cpu, int ipi);

/* Tasks: the first frame of a new task, so switch_to() starts it. */
void arch_task_setup(struct task_struct *p, void (*entry)(void));

/*
 * Backtraces: walk the frame pointers from fp. arch_stack_trace() keeps
 * up to max return addresses, callee first, and returns how many.
 * arch_dump_stack_from() prints them, pc first if not 0: kernel/panic.c
 * has it for every arch.
 */
unsigned int arch_stack_trace(unsigned long fp, unsigned long *entries,
			      unsigned int max);
void arch_dump_stack_from(unsigned long fp, unsigned long pc);
unsigned long arch_task_frame(struct task_struct *p);

/*
 * Memory access that may fault (kernel/mm/maccess.c): copies byte by byte
 * until done or until a load or store faults, and returns the number of
 * bytes not copied. Its accesses are in the exception table.
 */
unsigned long arch_copy_nofault(void *dst, const void *src, size_t size);

void __noreturn arch_exit(int status);
void arch_halt_cpu(void);
/* Restart the machine, as a reset button would. */
void __noreturn arch_reboot(void);

/*
 * The kernel's gdb stub (CONFIG_KGDB, include/kgdb.h): arch/<arch>/kgdb.c.
 * gdb's register numbers and sizes are the arch's own; a register image
 * is gdb's 'g' packet in binary.
 */
struct kgdb_reg {
	const char *name;
	int size;		/* bytes in gdb's packet */
};
extern const struct kgdb_reg arch_kgdb_regs[];
extern const int arch_kgdb_nr_regs;
/*
 * The stub's room for a register image. An arch states its image's size
 * beside its table with KGDB_REGS_FIT(), which fails the build when the
 * image outgrows the room (the stub would write past it).
 */
#define KGDB_REGS_BYTES	512
#define KGDB_REGS_FIT(bytes)						\
	_Static_assert((bytes) <= KGDB_REGS_BYTES,			\
		       "gdb's register image outgrows KGDB_REGS_BYTES")

/* pt_regs to and from gdb's image; a sleeping task's image. */
void arch_kgdb_get_regs(u8 *image, const struct pt_regs *regs);
void arch_kgdb_set_regs(struct pt_regs *regs, const u8 *image);
void arch_kgdb_sleeping_regs(u8 *image, struct task_struct *p);

/* The breakpoint instruction gdb's Z0 plants, and its length. */
extern const u8 arch_kgdb_break_insn[];
extern const int arch_kgdb_break_len;
/* After instructions were written at addr: make the CPU see them. */
void arch_kgdb_sync_icache(unsigned long addr, size_t len);
/* Stop in the stub, from C: the compiled-in breakpoint. */
void arch_kgdb_breakpoint(void);
/*
 * Resume with one instruction executed then a trap (step), or plainly.
 * 0, or -EINVAL when the instruction at pc cannot be stepped.
 */
int arch_kgdb_prepare_step(struct pt_regs *regs);
void arch_kgdb_end_step(struct pt_regs *regs);

/*
 * A CPU parked for gdb sleeps, since a spinning one takes a whole host
 * CPU from the emulator while gdb looks: begin silences what would end
 * each wait at once (its tick); wait sleeps until the owner's wake
 * (arch_kgdb_park_wake) or another interrupt is pending, unless *release
 * is no longer gen, and may return early; end undoes begin with what it
 * returned. The owner wakes each other online CPU when it lets them go.
 */
unsigned long arch_kgdb_park_begin(void);
void arch_kgdb_park_wait(const volatile unsigned long *release,
			 unsigned long gen);
void arch_kgdb_park_end(unsigned long saved);
void arch_kgdb_park_wake(unsigned int cpu);

/* The stub's own serial port: polled, never by interrupt; its name. */
extern const char arch_kgdb_port_name[];
void arch_kgdb_io_init(void);
int arch_kgdb_io_getc(void);		/* -1: nothing waiting */
void arch_kgdb_io_putc(char c);

#endif
