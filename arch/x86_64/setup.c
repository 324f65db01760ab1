// SPDX-License-Identifier: GPL-2.0
/*
 * x86_64 early setup: from boot.S, already in long mode on the 1:1 map, to
 * start_kernel(). Reads the command line and the memory map from the
 * multiboot info block; the loader gave only 32-bit physical addresses,
 * which the 1:1 map makes usable as pointers.
 */
#include <kernel.h>
#include <string.h>
#include <arch.h>
#include <mm.h>
#include <asm/boot.h>
#include <asm/x86.h>

#define MULTIBOOT_LOADER_MAGIC	0x2BADB002
#define MBI_FLAG_MEM		(1 << 0)
#define MBI_FLAG_CMDLINE	(1 << 2)
#define MBI_FLAG_MMAP		(1 << 6)
#define MMAP_TYPE_RAM		1

struct multiboot_info {
	u32 flags;
	u32 mem_lower, mem_upper;
	u32 boot_device;
	u32 cmdline;
	u32 mods_count, mods_addr;
	u32 syms[4];
	u32 mmap_length, mmap_addr;
} __packed;

struct multiboot_mmap_entry {
	u32 size;		/* of the rest of the entry */
	u64 addr, len;
	u32 type;
} __packed;

extern char __kernel_start[], __kernel_end[];
extern char gdt64_desc[];

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

/* RAM above the 1:1 map would be unreachable: report only what lies below. */
static void add_ram(u64 base, u64 len)
{
	if (base >= IDENTITY_MAP_END)
		return;
	if (len > IDENTITY_MAP_END - base)
		len = IDENTITY_MAP_END - base;
	memblock_add(base, len);
}

static void parse_memory_map(const struct multiboot_info *mbi)
{
	uintptr p = mbi->mmap_addr, end = p + mbi->mmap_length;

	if (!(mbi->flags & MBI_FLAG_MMAP)) {
		/* Only the sizes: low memory and what lies above 1 MiB. */
		if (mbi->flags & MBI_FLAG_MEM)
			add_ram(0x100000, (u64)mbi->mem_upper * 1024);
		return;
	}
	while (p < end) {
		const struct multiboot_mmap_entry *e = (const void *)p;

		if (e->type == MMAP_TYPE_RAM)
			add_ram(e->addr, e->len);
		p += e->size + sizeof(e->size);
	}
}

void __noreturn x86_64_start(u32 magic, u32 info)
{
	const struct multiboot_info *mbi = (const void *)(uintptr)info;

	x86_serial_init();
	x86_load_gdt();
	if (magic != MULTIBOOT_LOADER_MAGIC)
		panic("not started by a multiboot loader (magic %#x)", magic);

	if (mbi->flags & MBI_FLAG_CMDLINE)
		strlcpy(boot_command_line, (const char *)(uintptr)mbi->cmdline,
			COMMAND_LINE_SIZE);
	parse_memory_map(mbi);
	/* The first MiB holds the BIOS, the trampoline and the tables. */
	memblock_reserve(0, 0x100000);
	/* The kernel's image, with the boot page tables in its .bss. */
	memblock_reserve((uintptr)__kernel_start,
			 (uintptr)__kernel_end - (uintptr)__kernel_start);
	start_kernel();
}
