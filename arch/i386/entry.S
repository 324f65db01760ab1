/*
 * Trap and interrupt entry. The stubs (asm/trap_stubs.h) push an error
 * code and the vector number; the common code below saves the registers
 * as struct pt_regs and calls x86_handle_trap(regs).
 */
	.text

#include <asm/trap_stubs.h>

trap_common:
	pushal
	cld
	pushl	%esp			/* struct pt_regs * */
	call	x86_handle_trap
	addl	$4, %esp
	popal
	addl	$8, %esp		/* vector and error code */
	iret
