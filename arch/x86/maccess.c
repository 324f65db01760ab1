// SPDX-License-Identifier: GPL-2.0
/*
 * The x86 copy that may fault, for kernel/mm/maccess.c. One "rep movsb"
 * does it: the string instruction stops at a faulting byte with ESI, EDI
 * and ECX (RSI, RDI, RCX) already advanced past the bytes it copied, so
 * the fixup, the very next instruction, finds the count not copied in
 * the count register.
 */
#include <kernel.h>
#include <arch.h>
#include <extable.h>

unsigned long __kgdb_nobreak arch_copy_nofault(void *dst, const void *src, size_t size)
{
	asm volatile("1:	rep movsb\n"
		     "2:\n\t"
		     EX_TABLE(1b, 2b)
		     : "+D" (dst), "+S" (src), "+c" (size)
		     : : "memory");
	return size;
}
