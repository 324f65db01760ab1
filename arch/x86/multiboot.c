// SPDX-License-Identifier: GPL-2.0
/*
 * The multiboot (version 1) hand-off both x86 arches boot with, from QEMU's
 * -kernel or GRUB: the command line and the memory map of the info block
 * the loader left, as 32-bit physical addresses (usable as pointers: both
 * arches map the first 4 GiB 1:1). It runs before page 0 is unmapped.
 */
#include <kernel.h>
#include <arch.h>
#include <mm.h>
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

/* RAM the kernel cannot reach (at or above ram_end) is left out. */
static void add_ram(u64 base, u64 len, u64 ram_end)
{
	if (base >= ram_end)
		return;
	if (len > ram_end - base)
		len = ram_end - base;
	memblock_add(base, len);
}

static void parse_memory_map(const struct multiboot_info *mbi, u64 ram_end)
{
	uintptr p = mbi->mmap_addr, end = p + mbi->mmap_length;

	if (!(mbi->flags & MBI_FLAG_MMAP)) {
		/* Only the sizes: low memory and what lies above 1 MiB. */
		if (mbi->flags & MBI_FLAG_MEM)
			add_ram(0x100000, (u64)mbi->mem_upper * 1024, ram_end);
		return;
	}
	while (p < end) {
		const struct multiboot_mmap_entry *e = (const void *)p;

		if (e->type == MMAP_TYPE_RAM)
			add_ram(e->addr, e->len, ram_end);
		p += e->size + sizeof(e->size);
	}
}

/*
 * QEMU's -kernel puts the image's file name before the options; GRUB
 * passes the options alone. Every option has an '=', so a first word
 * without one is the name, and not an option.
 */
static const char *skip_image_name(const char *cmdline)
{
	const char *p = cmdline;

	while (*p && *p != ' ' && *p != '=')
		p++;
	if (*p == '=')
		return cmdline;
	while (*p == ' ')
		p++;
	return p;
}

void x86_multiboot_setup(u32 magic, u32 info, u64 ram_end)
{
	const struct multiboot_info *mbi = (const void *)(uintptr)info;

	if (magic != MULTIBOOT_LOADER_MAGIC)
		panic("not started by a multiboot loader (magic %#x)", magic);
	if (mbi->flags & MBI_FLAG_CMDLINE)
		setup_command_line(skip_image_name((const char *)(uintptr)mbi->cmdline));
	parse_memory_map(mbi, ram_end);
	/* The first MiB holds the BIOS, the trampoline and the tables. */
	memblock_reserve(0, 0x100000);
	/* The kernel's image (on x86_64 with the boot page tables). */
	memblock_reserve((uintptr)__kernel_start,
			 (uintptr)__kernel_end - (uintptr)__kernel_start);
}
