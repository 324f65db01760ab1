/*
 * Trap and interrupt entry. The stubs (asm/trap_stubs.h) push an error
 * code and the vector number; the common code below saves the registers
 * as struct pt_regs and calls x86_handle_trap(regs).
 *
 * The CFI (in .debug_frame) lets gdb unwind through the frame into the
 * code the trap interrupted: a signal frame (the interrupted eip is the
 * next instruction to run, not a return address), its CFA the
 * interrupted esp, which in ring 0 is just above the eflags the CPU
 * pushed.
 */
	.text

#include <asm/trap_stubs.h>

	.cfi_sections .debug_frame
trap_common:
	.cfi_startproc simple
	.cfi_signal_frame
	.cfi_def_cfa %esp, 20		/* vector, error code, eip, cs, eflags */
	.cfi_offset %eip, -12
	.cfi_offset %eflags, -4
	pushal
	.cfi_adjust_cfa_offset 32
	.cfi_offset %eax, -24
	.cfi_offset %ecx, -28
	.cfi_offset %edx, -32
	.cfi_offset %ebx, -36
	.cfi_offset %ebp, -44
	.cfi_offset %esi, -48
	.cfi_offset %edi, -52
	cld
	pushl	%esp			/* struct pt_regs * */
	.cfi_adjust_cfa_offset 4
	call	x86_handle_trap
	addl	$4, %esp
	.cfi_adjust_cfa_offset -4
	popal
	.cfi_adjust_cfa_offset -32
	addl	$8, %esp		/* vector and error code */
	.cfi_adjust_cfa_offset -8
	iret
	.cfi_endproc
