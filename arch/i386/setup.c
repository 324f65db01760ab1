// SPDX-License-Identifier: GPL-2.0
/*
 * i386 early setup: from the multiboot loader's hand-off to start_kernel().
 * Reads the command line and the memory map from the multiboot info block
 * and loads our own GDT (the loader's may be anywhere).
 */
#include <kernel.h>
#include <string.h>
#include <arch.h>
#include <mm.h>
#include <asm/io.h>
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

static void parse_memory_map(const struct multiboot_info *mbi)
{
	u32 p = mbi->mmap_addr, end = p + mbi->mmap_length;

	if (!(mbi->flags & MBI_FLAG_MMAP)) {
		/* Only the sizes: low memory and what lies above 1 MiB. */
		if (mbi->flags & MBI_FLAG_MEM)
			memblock_add(0x100000, (u64)mbi->mem_upper * 1024);
		return;
	}
	while (p < end) {
		const struct multiboot_mmap_entry *e = (const void *)p;

		if (e->type == MMAP_TYPE_RAM)
			memblock_add(e->addr, e->len);
		p += e->size + sizeof(e->size);
	}
}

void __noreturn i386_start(u32 magic, const struct multiboot_info *mbi)
{
	x86_serial_init();
	x86_load_gdt();
	if (magic != MULTIBOOT_LOADER_MAGIC)
		panic("not started by a multiboot loader (magic %#x)", magic);

	if (mbi->flags & MBI_FLAG_CMDLINE)
		strlcpy(boot_command_line, (const char *)mbi->cmdline,
			COMMAND_LINE_SIZE);
	parse_memory_map(mbi);
	/* The first MiB holds the BIOS, the trampoline and the tables. */
	memblock_reserve(0, 0x100000);
	memblock_reserve((uintptr)__kernel_start,
			 (uintptr)__kernel_end - (uintptr)__kernel_start);
	start_kernel();
}
