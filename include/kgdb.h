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
/*
 * For the wall-clock watchdogs (a spinlock's lockup check): true while
 * the kernel is stopped for gdb, or when a stop began or ended since the
 * count in *stops, which it then updates (start with 0). The time around
 * it is gdb's, not the watched code's: the watchdog starts its clock again.
 */
bool kgdb_stopped_since(unsigned long *stops);
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
 * gdb's hardware breakpoints and watchpoints: Z1..Z4 and their types,
 * where the arch has them (CONFIG_HAVE_KGDB_HW_BREAKPOINTS). gdb changes
 * the table while the kernel is stopped (kernel/debug/hw_breakpoint.c);
 * each CPU loads it as it leaves the stop, or at its next tick (a CPU
 * that did not stop, or came up since). The CPU in the stub unloads it
 * first: the stub reads and writes what gdb watches.
 */
enum kgdb_hw_type {
	KGDB_HW_EXEC = 1,	/* hbreak */
	KGDB_HW_WRITE,		/* watch */
	KGDB_HW_READ,		/* rwatch */
	KGDB_HW_ACCESS,		/* awatch */
};
#define KGDB_MAX_HW_SLOTS	8
#ifdef CONFIG_HAVE_KGDB_HW_BREAKPOINTS
/* 0; -ENOSYS for a type the arch cannot watch (gdb hears "not supported"). */
int kgdb_set_hw_breakpoint(enum kgdb_hw_type type, unsigned long addr,
			   unsigned long len);
int kgdb_remove_hw_breakpoint(enum kgdb_hw_type type, unsigned long addr,
			      unsigned long len);
void kgdb_remove_all_hw_breakpoints(void);
void kgdb_sync_hw_breakpoints(void);
void kgdb_unload_hw_breakpoints(void);
enum kgdb_hw_hit {
	KGDB_HW_NOT_GDBS,	/* the slot holds nothing of gdb's */
	KGDB_HW_STOPPED,	/* this CPU stopped the kernel for it */
	KGDB_HW_PARKED,		/* no stop: another CPU's came first, or stale */
};
/*
 * From the arch's trap code: its slot fired, before the access or the
 * instruction (ARM; an x86 instruction breakpoint), which then traps
 * again when it runs again (replays), or after it (an x86 data
 * watchpoint), which the stub then reports once the other CPU's stop
 * is over, if gdb still watches there.
 * A hit of registers older than gdb's table is stale: the CPU loads the
 * table and goes on (KGDB_HW_PARKED, no stop).
 */
enum kgdb_hw_hit kgdb_handle_hw_trap(struct pt_regs *regs, int slot,
				     bool replays);
/* The slot that holds a hardware breakpoint of type at addr, or -1. */
int kgdb_hw_slot_at(enum kgdb_hw_type type, unsigned long addr);

/*
 * The arch's half: its slots, which types each can hold, whether it can
 * watch len bytes at addr (0, -ENOSYS, -EINVAL), a slot loaded on this
 * CPU (type 0: off), and all of them off on this CPU.
 */
extern const int arch_kgdb_nr_hw_slots;
bool arch_kgdb_hw_slot_takes(int slot, enum kgdb_hw_type type);
int arch_kgdb_hw_bp_valid(enum kgdb_hw_type type, unsigned long addr,
			  unsigned long len);
void arch_kgdb_load_hw_slot(int slot, enum kgdb_hw_type type,
			    unsigned long addr, unsigned long len);
void arch_kgdb_hw_slots_off(void);
#else
static inline int kgdb_set_hw_breakpoint(enum kgdb_hw_type type,
					 unsigned long addr, unsigned long len)
{
	return -ENOSYS;
}
static inline int kgdb_remove_hw_breakpoint(enum kgdb_hw_type type,
					    unsigned long addr,
					    unsigned long len)
{
	return -ENOSYS;
}
static inline void kgdb_remove_all_hw_breakpoints(void) { }
static inline void kgdb_sync_hw_breakpoints(void) { }
static inline void kgdb_unload_hw_breakpoints(void) { }
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
static inline bool kgdb_stopped_since(unsigned long *stops)
{
	return false;
}
#endif

#endif
