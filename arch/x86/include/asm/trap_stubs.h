/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The 256 trap and interrupt stubs of i386 and x86_64 (assembly only,
 * included by each arch's entry.S, which then defines trap_common).
 *
 * Each stub is 16 bytes apart, so the IDT code finds stub n at
 * trap_stubs + 16 * n. It pushes an error code (the CPU pushes one itself
 * for vectors 8, 10-14, 17 and 21; the stub pushes 0 for the others, so
 * the frame is always the same) and the vector number, then jumps to
 * trap_common. "push" takes the width of the mode: 4 bytes on i386, 8 on
 * x86_64.
 */
#ifndef _ASM_X86_TRAP_STUBS_H
#define _ASM_X86_TRAP_STUBS_H

.macro TRAP_NOERR vec
	.balign 16
	push	$0
	push	$\vec
	jmp	trap_common
.endm

.macro TRAP_ERR vec
	.balign 16
	push	$\vec
	jmp	trap_common
.endm

	.balign 16
	.globl trap_stubs
trap_stubs:
	.set vec, 0
	.rept 32
	.if vec == 8 || (vec >= 10 && vec <= 14) || vec == 17 || vec == 21
	TRAP_ERR vec
	.else
	TRAP_NOERR vec
	.endif
	.set vec, vec + 1
	.endr
	.rept 256 - 32
	TRAP_NOERR vec
	.set vec, vec + 1
	.endr

#endif
