// SPDX-License-Identifier: GPL-2.0
/*
 * The RISC-V copy that may fault, for kernel/mm/maccess.c: a byte loop
 * whose load and store are both in the exception table. The pointers and
 * the count move only after the store, so at the fixup the count still
 * includes the byte that faulted and every byte after it.
 */
#include <kernel.h>
#include <arch.h>
#include <extable.h>

unsigned long __kgdb_nobreak arch_copy_nofault(void *dst, const void *src, size_t size)
{
	unsigned long byte;

	asm volatile("1:	beqz	%2, 4f\n"
		     "2:	lbu	%3, 0(%1)\n"
		     "3:	sb	%3, 0(%0)\n"
		     "	addi	%0, %0, 1\n"
		     "	addi	%1, %1, 1\n"
		     "	addi	%2, %2, -1\n"
		     "	j	1b\n"
		     "4:\n\t"
		     EX_TABLE(2b, 4b)
		     EX_TABLE(3b, 4b)
		     : "+r" (dst), "+r" (src), "+r" (size), "=&r" (byte)
		     : : "memory");
	return size;
}
