// SPDX-License-Identifier: GPL-2.0
/*
 * i386 early setup: from the multiboot loader's hand-off to start_kernel().
 * Loads our own GDT (the loader's may be anywhere), reads the multiboot
 * info (arch/x86/multiboot.c) and the BIOS data in page 0, then turns on
 * paging (paging.c), which leaves page 0 out.
 */
#include <kernel.h>
#include <arch.h>
#include <asm/x86.h>

/* Flat 4 GiB code and data segments: selectors 0x08 and 0x10. */
static u64 gdt[] __aligned(8) = {
	0,
	0x00cf9a000000ffffULL,	/* code: base 0, limit 4G, ring 0, 32-bit */
	0x00cf92000000ffffULL,	/* data */
};

void x86_load_gdt(void)
{
	struct {
		u16 limit;
		u32 base;
	} __packed gdtr = { sizeof(gdt) - 1, (u32)gdt };

	asm volatile("lgdt %0\n\t"
		     "ljmp $0x08, $1f\n"
		     "1:\n\t"
		     "mov $0x10, %%ax\n\t"
		     "mov %%ax, %%ds\n\t"
		     "mov %%ax, %%es\n\t"
		     "mov %%ax, %%ss\n\t"
		     "mov %%ax, %%fs\n\t"
		     "mov %%ax, %%gs"
		     :: "m" (gdtr) : "eax", "memory");
}

asmlinkage void __noreturn i386_start(u32 magic, u32 info)
{
	x86_serial_init();
	x86_load_gdt();
	/* All RAM below 4 GiB is reachable: paging maps it 1:1. */
	x86_multiboot_setup(magic, info, 1ULL << 32);
	x86_read_bios_data();
	x86_paging_init();	/* nothing reads page 0 after this */
	start_kernel();
}
