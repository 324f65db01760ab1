/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The kernel's gdb stub (kernel/debug/, docs/gdb.md): the GDB remote
 * serial protocol on a serial port of its own, so that gdb can debug the
 * kernel on a board or a PC, where there is no QEMU stub.
 *
 * It sleeps until the command line wakes it: "kgdb" listens (a break from
 * gdb stops the kernel), "kgdbwait" also stops at boot, "kgdb.on_bug=1"
 * also stops after a BUG:/WARNING: report and on panic. Asleep, it costs
 * one test per tick and nothing else.
 */
#ifndef _KGDB_H
#define _KGDB_H

#include <types.h>
#include <errno.h>
#include <arch.h>

struct pt_regs;
struct task_struct;

/* Why the stub was entered: the signal number gdb is told. */
#define KGDB_SIGINT	2	/* a break from gdb */
#define KGDB_SIGTRAP	5	/* a breakpoint, a step, kgdbwait */

#ifdef CONFIG_KGDB
/* The command line's kgdb options; false if opt is none of them. */
bool kgdb_parse_option(const char *opt);
/* At boot, once every CPU is up: open the port, wait if kgdbwait. */
void kgdb_init(void);
/* From every CPU's tick: a break (0x03) from gdb stops the kernel. */
void kgdb_poll_break(void);
/* After a BUG:/WARNING: report and in panic(), with kgdb.on_bug=1. */
void kgdb_report_hook(void);
/*
 * From the arch's trap code: a breakpoint or step trap with its pc
 * already pointing where gdb must see it. False when the stub is off
 * (the trap is then a fault like any other).
 */
bool kgdb_handle_trap(struct pt_regs *regs, int signo);
/*
 * On the CPU at the stub's port: true while the kernel is stopped for
 * gdb (every byte is gdb's), false while its tick only looks for a break
 * (a port shared with the console then passes the console's bytes on).
 */
bool kgdb_stopped(void);
/* From the IPI handler: park this CPU until gdb lets the kernel go. */
void kgdb_park_cpu(struct pt_regs *regs);
/*
 * Whether a breakpoint gdb planted is, or lately was, at addr (the arch's
 * trap code): a trap there is the stub's even if the text is clean again.
 */
bool kgdb_planted_at(unsigned long addr);
/* Write instructions at addr (the CPU then fetches them): 0 or -EFAULT. */
int kgdb_patch_text(unsigned long addr, const void *bytes, size_t len);
/*
 * A step on an arch without a single-step bit (ARM, RISC-V): breakpoints
 * at the n places where execution may go next, all planted or none (0
 * or an error); whether one is at addr (the arch's trap code); out again
 * when the step ends.
 */
#define KGDB_MAX_STEP_BREAKS	4
int kgdb_plant_step_breaks(const unsigned long *addrs, int n);
bool kgdb_step_planted_at(unsigned long addr);
void kgdb_remove_step_breaks(void);

/*
 * gdb's hardware breakpoints and watchpoints: Z1..Z4 and their types.
 * The arch's trap code reports a hit with kgdb_handle_watch_trap(): the
 * watchpoint's type and the address it watches (gdb's stop reply names
 * them), after the access (a data watchpoint) or before the instruction.
 */
enum kgdb_hw_type {
	KGDB_HW_EXEC = 1,	/* hbreak */
	KGDB_HW_WRITE,		/* watch */
	KGDB_HW_READ,		/* rwatch */
	KGDB_HW_ACCESS,		/* awatch */
};
bool kgdb_handle_watch_trap(struct pt_regs *regs, enum kgdb_hw_type type,
			    unsigned long addr);
#ifdef CONFIG_HAVE_KGDB_HW_BREAKPOINTS
/*
 * The arch's table, changed while the kernel is stopped: 0, -ENOSYS for
 * a type it cannot watch (gdb hears "not supported"), or another error.
 * Each CPU loads it into its registers with arch_kgdb_sync_hw_bps(): as
 * it leaves a stop, and at each tick (a CPU that did not stop, or came
 * up since); a CPU whose registers hold the table already does nothing.
 */
int arch_kgdb_set_hw_bp(enum kgdb_hw_type type, unsigned long addr,
			unsigned long len);
int arch_kgdb_remove_hw_bp(enum kgdb_hw_type type, unsigned long addr,
			   unsigned long len);
void arch_kgdb_remove_all_hw_bps(void);
void arch_kgdb_sync_hw_bps(void);
#else
static inline int arch_kgdb_set_hw_bp(enum kgdb_hw_type type,
				      unsigned long addr, unsigned long len)
{
	return -ENOSYS;
}
static inline int arch_kgdb_remove_hw_bp(enum kgdb_hw_type type,
					 unsigned long addr, unsigned long len)
{
	return -ENOSYS;
}
static inline void arch_kgdb_remove_all_hw_bps(void) { }
static inline void arch_kgdb_sync_hw_bps(void) { }
#endif
#else
static inline bool kgdb_parse_option(const char *opt) { return false; }
static inline void kgdb_init(void) { }
static inline void kgdb_poll_break(void) { }
static inline void kgdb_report_hook(void) { }
static inline bool kgdb_handle_trap(struct pt_regs *regs, int signo)
{
	return false;
}
static inline void kgdb_park_cpu(struct pt_regs *regs) { }
#endif

#endif
