// SPDX-License-Identifier: GPL-2.0
/*
 * i386 paging. The kernel was written for paging off, where a pointer is a
 * physical address, so paging keeps that: an identity map (virtual ==
 * physical) of the whole 4 GiB, minus two pages left out on purpose:
 *
 *  - page 0, so that a NULL pointer, or a member reached through one,
 *    faults instead of reading the real-mode vectors and BIOS data there;
 *  - the last page (0xfffff000), where ERR_PTR(-errno) values point.
 *
 * 4 MiB pages (PSE) map the 4 GiB with one page directory; the first and
 * the last 4 MiB go through a page table of 4 KiB pages each, so that
 * those two pages can be left out. That is 12 KiB of tables in all. Every
 * CPU loads the same page directory: the boot CPU here, the others in the
 * trampoline, before they run any C code but this file's.
 */
#include <kernel.h>
#include <mm.h>
#include <asm/x86.h>

#define ENTRIES		1024
#define PTE_PRESENT	0x001
#define PTE_WRITE	0x002
#define PDE_4M		0x080	/* PS: a 4 MiB page, no page table */
#define LAST_4M		0xffc00000UL
#define CR0_PG		0x80000000UL
#define CR4_PSE		0x00000010UL
#define CPUID1_EDX_PSE	(1 << 3)

static u32 page_dir[ENTRIES] __aligned(PAGE_SIZE);
static u32 pt_first[ENTRIES] __aligned(PAGE_SIZE);	/* 0 - 4 MiB */
static u32 pt_last[ENTRIES] __aligned(PAGE_SIZE);	/* the last 4 MiB */

static void build_page_tables(void)
{
	const u32 rw = PTE_PRESENT | PTE_WRITE;
	u32 i;

	for (i = 0; i < ENTRIES; i++) {
		page_dir[i] = (i << 22) | rw | PDE_4M;
		pt_first[i] = i * PAGE_SIZE | rw;
		pt_last[i] = (LAST_4M + i * PAGE_SIZE) | rw;
	}
	pt_first[0] = 0;
	pt_last[ENTRIES - 1] = 0;
	page_dir[0] = (u32)pt_first | rw;
	page_dir[ENTRIES - 1] = (u32)pt_last | rw;
}

/*
 * Turns paging on for the calling CPU. Called from the trampoline with
 * paging off; the code and stack it runs on are mapped 1:1, so it returns
 * to where it was called from.
 */
void i386_paging_enable(void)
{
	unsigned long cr;

	asm volatile("mov %%cr4, %0" : "=r" (cr));
	asm volatile("mov %0, %%cr4" : : "r" (cr | CR4_PSE));
	asm volatile("mov %0, %%cr3" : : "r" (page_dir) : "memory");
	asm volatile("mov %%cr0, %0" : "=r" (cr));
	asm volatile("mov %0, %%cr0" : : "r" (cr | CR0_PG) : "memory");
}

static bool cpu_has_pse(void)
{
	u32 eax = 1, ebx, ecx = 0, edx;

	asm volatile("cpuid" : "+a" (eax), "=b" (ebx), "+c" (ecx), "=d" (edx));
	return edx & CPUID1_EDX_PSE;
}

/* After this, page 0 and the top page are gone. */
void x86_paging_init(void)
{
	if (!cpu_has_pse())
		panic("i386: this CPU has no 4 MiB pages (PSE)");
	build_page_tables();
	i386_paging_enable();
}
