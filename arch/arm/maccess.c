// SPDX-License-Identifier: GPL-2.0
/*
 * The ARM copy that may fault, for kernel/mm/maccess.c: a byte loop whose
 * load and store are both in the exception table. An aborted ldrb/strb
 * leaves its base register unchanged (ARMv7 restores it), and the count is
 * decremented only after the store, so at the fixup it still counts the
 * byte that faulted and every byte after it.
 */
#include <kernel.h>
#include <arch.h>
#include <extable.h>

unsigned long __kgdb_nobreak arch_copy_nofault(void *dst, const void *src, size_t size)
{
	unsigned long byte;

	asm volatile("1:	cmp	%2, #0\n"
		     "	beq	4f\n"
		     "2:	ldrb	%3, [%1], #1\n"
		     "3:	strb	%3, [%0], #1\n"
		     "	sub	%2, %2, #1\n"
		     "	b	1b\n"
		     "4:\n\t"
		     EX_TABLE(2b, 4b)
		     EX_TABLE(3b, 4b)
		     : "+r" (dst), "+r" (src), "+r" (size), "=&r" (byte)
		     : : "cc", "memory");
	return size;
}
