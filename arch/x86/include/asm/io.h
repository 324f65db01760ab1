/* SPDX-License-Identifier: GPL-2.0 */
/* x86 port I/O and memory-mapped register access. */
#ifndef _ASM_X86_IO_H
#define _ASM_X86_IO_H

#include <types.h>

static inline void outb(u8 v, u16 port)
{
	asm volatile("outb %0, %1" :: "a" (v), "Nd" (port));
}

static inline u8 inb(u16 port)
{
	u8 v;

	asm volatile("inb %1, %0" : "=a" (v) : "Nd" (port));
	return v;
}

static inline void outw(u16 v, u16 port)
{
	asm volatile("outw %0, %1" :: "a" (v), "Nd" (port));
}

static inline u32 inl(u16 port)
{
	u32 v;

	asm volatile("inl %1, %0" : "=a" (v) : "Nd" (port));
	return v;
}

static inline void outl(u32 v, u16 port)
{
	asm volatile("outl %0, %1" :: "a" (v), "Nd" (port));
}

static inline u32 readl(const volatile void *addr)
{
	return *(const volatile u32 *)addr;
}

static inline void writel(u32 v, volatile void *addr)
{
	*(volatile u32 *)addr = v;
}

static inline u64 rdtsc(void)
{
	u32 lo, hi;

	asm volatile("rdtsc" : "=a" (lo), "=d" (hi));
	return ((u64)hi << 32) | lo;
}

#endif
