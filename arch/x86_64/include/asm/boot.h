/* SPDX-License-Identifier: GPL-2.0 */
/*
 * x86_64 boot constants, shared by the assembly entry, the trampoline and
 * the C setup: GDT selectors, page table bits, control register bits.
 */
#ifndef _ASM_X86_64_BOOT_H
#define _ASM_X86_64_BOOT_H

/* Selectors in gdt64 (boot.S). */
#define GDT_KERNEL_CS	0x08
#define GDT_KERNEL_DS	0x10

/* Page table entry bits. */
#define PTE_PRESENT	0x001
#define PTE_WRITE	0x002
#define PTE_LARGE	0x080	/* in a page directory: a 2 MiB page */

#define CR0_PE		0x00000001
#define CR0_PG		0x80000000
#define CR4_PAE		0x00000020
#define MSR_EFER	0xc0000080
#define EFER_LME	0x00000100

/* The 1:1 map boot.S builds: everything below this is reachable. */
#define IDENTITY_MAP_END	0x100000000ULL

#endif
