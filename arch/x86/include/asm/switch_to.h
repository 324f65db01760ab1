/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The x86 context switch (arch/i386/switch.S, arch/x86_64/switch.S) saves
 * the callee-saved registers of the ABI: EBX, ESI, EDI, EBP on i386; RBX,
 * RBP, R12-R15 on x86_64.
 */
#ifndef _ASM_X86_SWITCH_TO_H
#define _ASM_X86_SWITCH_TO_H

#include <asm-generic/switch_to.h>

/* No caller above this point: gdb's backtrace ends in the function. */
#ifdef __x86_64__
#define arch_outermost_frame()	asm volatile(".cfi_undefined rip")
#else
#define arch_outermost_frame()	asm volatile(".cfi_undefined eip")
#endif

#endif
