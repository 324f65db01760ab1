// SPDX-License-Identifier: GPL-2.0
/*
 * gdb's hardware breakpoints and watchpoints (Z1..Z4): the table of the
 * arch's slots, which gdb changes while the kernel is stopped, and its
 * loading into every CPU's debug registers (the arch's half writes one
 * slot: arch/<arch>/hw_breakpoint.c).
 *
 * The table only changes on the CPU in the stub. Each CPU compares the
 * table's generation with the one it loaded: as it leaves a stop (the
 * parked CPUs and the owner) and at every tick, so that a CPU that did
 * not stop, or came up later, has it by its next tick.
 */
#include <kernel.h>
#include <smp.h>
#include <kgdb.h>
#include "kgdb.h"

static struct {
	enum kgdb_hw_type type;		/* 0: free */
	unsigned long addr;
	unsigned long len;
} slots[KGDB_MAX_HW_SLOTS];

static unsigned long table_gen = 1;		/* bumped at each change */
static unsigned long loaded_gen[NR_CPUS];	/* 0: this CPU's are off */

static int find_slot(enum kgdb_hw_type type, unsigned long addr,
		     unsigned long len)
{
	int n;

	for (n = 0; n < arch_kgdb_nr_hw_slots; n++)
		if (slots[n].type == type && slots[n].addr == addr &&
		    slots[n].len == len)
			return n;
	return -1;
}

int __kgdb_nobreak kgdb_hw_slot_at(enum kgdb_hw_type type, unsigned long addr)
{
	int n;

	for (n = 0; n < arch_kgdb_nr_hw_slots; n++)
		if (slots[n].type == type && slots[n].addr == addr)
			return n;
	return -1;
}

static int free_slot_for(enum kgdb_hw_type type)
{
	int n;

	for (n = 0; n < arch_kgdb_nr_hw_slots; n++)
		if (!slots[n].type && arch_kgdb_hw_slot_takes(n, type))
			return n;
	return -ENOSPC;
}

int kgdb_set_hw_breakpoint(enum kgdb_hw_type type, unsigned long addr,
			   unsigned long len)
{
	int n, err = arch_kgdb_hw_bp_valid(type, addr, len);

	if (err || find_slot(type, addr, len) >= 0)
		return err;
	n = free_slot_for(type);
	if (n < 0)
		return n;
	slots[n].type = type;
	slots[n].addr = addr;
	slots[n].len = len;
	table_gen++;
	return 0;
}

int kgdb_remove_hw_breakpoint(enum kgdb_hw_type type, unsigned long addr,
			      unsigned long len)
{
	int n = find_slot(type, addr, len);
	int err = arch_kgdb_hw_bp_valid(type, addr, len);

	if (err == -ENOSYS)
		return err;
	if (n < 0)
		return -ENOENT;
	slots[n].type = 0;
	table_gen++;
	return 0;
}

void kgdb_remove_all_hw_breakpoints(void)
{
	int n;

	for (n = 0; n < arch_kgdb_nr_hw_slots; n++)
		slots[n].type = 0;
	table_gen++;
}

/*
 * The generation is read first: were the table to change while we load
 * it, what we loaded would stay marked stale, and the next call loads
 * again.
 */
void __kgdb_nobreak kgdb_sync_hw_breakpoints(void)
{
	unsigned int cpu = smp_processor_id();
	unsigned long gen = READ_ONCE(table_gen);
	int n;

	if (loaded_gen[cpu] == gen)
		return;
	for (n = 0; n < arch_kgdb_nr_hw_slots; n++)
		arch_kgdb_load_hw_slot(n, slots[n].type, slots[n].addr,
				       slots[n].len);
	loaded_gen[cpu] = gen;
}

void __kgdb_nobreak kgdb_unload_hw_breakpoints(void)
{
	arch_kgdb_hw_slots_off();
	loaded_gen[smp_processor_id()] = 0;
}

static bool __kgdb_nobreak slot_holds(int slot, enum kgdb_hw_type type,
				       unsigned long addr)
{
	return READ_ONCE(slots[slot].type) == type &&
	       READ_ONCE(slots[slot].addr) == addr;
}

/*
 * A stop like a breakpoint's, whose reply names a data watchpoint. A hit
 * that will not come back (replays false) is tried again after another
 * CPU's stop, for as long as gdb keeps the slot.
 *
 * A CPU whose registers are older than the table (it did not stop, or
 * has not ticked since gdb changed it) may hit a slot gdb has removed:
 * that hit is stale. The CPU loads the table and goes on; once, the
 * trap was left to the kernel's "Oops: debug" (a watchpoint deleted and
 * gdb detached while three of four CPUs missed the stop).
 */
enum kgdb_hw_hit __kgdb_nobreak kgdb_handle_hw_trap(struct pt_regs *regs,
						    int slot, bool replays)
{
	struct kgdb_cpu *me = &kgdb_cpus[smp_processor_id()];
	enum kgdb_hw_type type;
	unsigned long addr;
	bool stopped;

	if (slot < 0 || slot >= arch_kgdb_nr_hw_slots)
		return KGDB_HW_NOT_GDBS;
	if (loaded_gen[smp_processor_id()] != READ_ONCE(table_gen)) {
		kgdb_sync_hw_breakpoints();
		return KGDB_HW_PARKED;
	}
	if (!slots[slot].type)
		return KGDB_HW_NOT_GDBS;
	type = slots[slot].type;
	addr = slots[slot].addr;
	do {
		me->watch_type = type;
		me->watch_addr = addr;
		stopped = kgdb_trap(regs, KGDB_SIGTRAP);
		me->watch_type = 0;
	} while (!stopped && !replays && slot_holds(slot, type, addr));
	return stopped ? KGDB_HW_STOPPED : KGDB_HW_PARKED;
}
