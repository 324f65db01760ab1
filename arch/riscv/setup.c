// SPDX-License-Identifier: GPL-2.0
/*
 * RISC-V early setup: from head.S to start_kernel(). Everything the
 * kernel needs to know about the machine comes from the device tree
 * OpenSBI passes on (QEMU writes it): the command line (/chosen/bootargs,
 * QEMU's -append), the RAM (/memory) and the timer's frequency (/cpus).
 */
#include <kernel.h>
#include <arch.h>
#include <fdt.h>
#include <mm.h>
#include <asm/riscv.h>

extern char __kernel_start[], __kernel_end[];

/* The value of a property that must be there, with its length checked. */
static const void *required_prop(const void *fdt, const char *node,
				 const char *prop, u32 len)
{
	u32 found;
	const void *p = fdt_root_child_prop(fdt, node, prop, &found);

	if (!p)
		panic("device tree: no /%s %s", node, prop);
	if (found != len)
		panic("device tree: /%s %s has %u bytes, not %u (its cells "
		      "are not the two address and two size cells of QEMU virt)",
		      node, prop, found, len);
	return p;
}

/* /memory's reg: one bank, a 64-bit base and size. */
static void add_memory(const void *fdt)
{
	const u8 *reg = required_prop(fdt, "memory", "reg", 16);
	u64 base = fdt64(reg), size = fdt64(reg + 8);

	memblock_add(base, size);
	/* OpenSBI below the kernel, then the kernel itself. */
	memblock_reserve(base, (uintptr)__kernel_end - base);
}

void __noreturn riscv_start(unsigned long hartid, const void *fdt)
{
	u32 len;
	const char *bootargs;

	cpu_hartid[0] = hartid;
	riscv_serial_init();
	if (!fdt_valid(fdt))
		panic("no device tree at %p from the firmware (a1)", fdt);
	bootargs = fdt_root_child_prop(fdt, "chosen", "bootargs", &len);
	if (bootargs)
		setup_command_line(bootargs);
	riscv_set_timebase(fdt32(required_prop(fdt, "cpus",
					       "timebase-frequency", 4)));
	add_memory(fdt);
	start_kernel();
}
