// SPDX-License-Identifier: GPL-2.0
/*
 * Reading and writing kernel memory that may not be there: a debugger
 * (the gdb stub) asks for whatever address its user typed, and a bad one
 * must come back as an error, not as a fault report that kills the
 * kernel. The arch's copy routine lists its loads and stores in the
 * exception table, so a fault in it returns early instead of oopsing.
 */
#include <kernel.h>
#include <arch.h>
#include <mm.h>

/* A range that wraps past the top of the address space is never valid. */
static bool __kgdb_nobreak range_wraps(const void *p, size_t size)
{
	return size && (uintptr)p + size - 1 < (uintptr)p;
}

static long __kgdb_nobreak copy_nofault(void *dst, const void *src, size_t size)
{
	if (range_wraps(dst, size) || range_wraps(src, size))
		return -EFAULT;
	return arch_copy_nofault(dst, src, size) ? -EFAULT : 0;
}

/* src may be any address; dst must be valid. */
long __kgdb_nobreak copy_from_kernel_nofault(void *dst, const void *src, size_t size)
{
	return copy_nofault(dst, src, size);
}

/* dst may be any address; src must be valid. */
long __kgdb_nobreak copy_to_kernel_nofault(void *dst, const void *src, size_t size)
{
	return copy_nofault(dst, src, size);
}
