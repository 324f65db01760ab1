/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The exception table: for each instruction that is allowed to fault (the
 * loads and stores of copy_from_kernel_nofault() and friends), the address
 * to continue at instead. The page-fault (x86) or data-abort (ARM) handler
 * looks up the faulting pc here before it reports anything: a hit means
 * the fault was expected, and the code at the fixup address returns an
 * error to its caller.
 */
#ifndef _EXTABLE_H
#define _EXTABLE_H

#include <compiler.h>

/*
 * One entry, emitted from inline assembly next to the instruction that may
 * fault: EX_TABLE(1b, 2b) says "a fault at label 1 continues at label 2".
 * .dc.a is an address-sized word on every arch (4 or 8 bytes).
 */
#define EX_TABLE(insn, fixup)					\
	".pushsection __ex_table, \"a\"\n\t"			\
	".balign " __stringify(__SIZEOF_POINTER__) "\n\t"	\
	".dc.a " #insn ", " #fixup "\n\t"			\
	".popsection\n\t"

#ifndef __ASSEMBLY__
struct exception_table_entry {
	unsigned long insn;
	unsigned long fixup;
};

/* The fixup address for a fault at pc, or 0 when the fault is a bug. */
unsigned long search_exception_table(unsigned long pc);
#endif

#endif
