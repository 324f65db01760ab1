/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What every arch provides to the arch-neutral kernel. An arch's entry code
 * sets up a boot stack (whose base is init_task's thread_info), calls
 * arch_console_init(), fills boot_command_line (setup_command_line()) and
 * the memory map (memblock_add), and calls start_kernel().
 */
#ifndef _ARCH_H
#define _ARCH_H

#include <types.h>

struct task_struct;

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

#endif
