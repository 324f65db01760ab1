// SPDX-License-Identifier: GPL-2.0
/*
 * x86_64 early setup: from boot.S, already in long mode on the 1:1 map, to
 * start_kernel(): the 64-bit GDT, the multiboot info (arch/x86/multiboot.c)
 * and the BIOS data in page 0, then page 0 is unmapped.
 */
#include <kernel.h>
#include <arch.h>
#include <asm/boot.h>
#include <asm/x86.h>

extern char gdt64_desc[];
extern u64 boot_pt[];

/*
 * Load the kernel's GDT (boot.S) and reload every segment register. CS
 * can only change by a far transfer: push the selector and the address,
 * and "return" to it.
 */
void x86_load_gdt(void)
{
	unsigned long tmp;

	asm volatile("lgdt %1\n\t"
		     "pushq %2\n\t"
		     "leaq 1f(%%rip), %0\n\t"
		     "pushq %0\n\t"
		     "lretq\n"
		     "1:\n\t"
		     "movl %3, %k0\n\t"
		     "movw %w0, %%ds\n\t"
		     "movw %w0, %%es\n\t"
		     "movw %w0, %%ss\n\t"
		     "xorl %k0, %k0\n\t"
		     "movw %w0, %%fs\n\t"
		     "movw %w0, %%gs"
		     : "=&r" (tmp)
		     : "m" (*gdt64_desc), "i" (GDT_KERNEL_CS), "i" (GDT_KERNEL_DS)
		     : "memory");
}

/*
 * Page 0 leaves the 1:1 map, so that a NULL pointer faults. boot.S mapped
 * it in a page table of its own (boot_pt); every CPU shares these tables,
 * and the others start only later, so one invlpg here is enough.
 */
void x86_paging_init(void)
{
	boot_pt[0] = 0;
	asm volatile("invlpg (%0)" : : "r" (0UL) : "memory");
}

void __noreturn x86_64_start(u32 magic, u32 info)
{
	x86_serial_init();
	x86_load_gdt();
	/* RAM above the 1:1 map would be unreachable. */
	x86_multiboot_setup(magic, info, IDENTITY_MAP_END);
	x86_read_bios_data();
	x86_paging_init();	/* nothing reads page 0 after this */
	start_kernel();
}
