/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The kernel's own symbol table, linked into the image by a second link
 * pass (scripts/kallsyms.py), so that backtraces and the debug code can
 * print "function+0xoff/0xsize" instead of bare addresses.
 */
#ifndef _KALLSYMS_H
#define _KALLSYMS_H

#include <types.h>

/*
 * Finds the function containing addr. Returns its name, or NULL when addr is
 * outside the kernel's text; *size and *offset are set when not NULL.
 */
const char *kallsyms_lookup(unsigned long addr, unsigned long *size,
			    unsigned long *offset);

/* Writes "name+0xoff/0xsize" (or the bare address) into buf; returns length. */
int sprint_symbol(char *buf, size_t size, unsigned long addr);

/* Address of a function by name, 0 if unknown (used by tests). */
unsigned long kallsyms_lookup_name(const char *name);

#endif
