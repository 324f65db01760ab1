/*
 * Trap and interrupt entry. Each vector has a small stub that pushes an
 * error code (the CPU pushes one for some exceptions; the stub pushes 0 for
 * the others, so the frame is always the same) and the vector number, then
 * jumps to the common code, which saves the registers as struct pt_regs
 * and calls x86_handle_trap(regs).
 */
	.text

.macro TRAP_NOERR vec
	.balign 16
	pushl	$0
	pushl	$\vec
	jmp	trap_common
.endm

.macro TRAP_ERR vec
	.balign 16
	pushl	$\vec
	jmp	trap_common
.endm

	.balign 16
	.globl trap_stubs
trap_stubs:
	TRAP_NOERR 0
	TRAP_NOERR 1
	TRAP_NOERR 2
	TRAP_NOERR 3
	TRAP_NOERR 4
	TRAP_NOERR 5
	TRAP_NOERR 6
	TRAP_NOERR 7
	TRAP_ERR 8
	TRAP_NOERR 9
	TRAP_ERR 10
	TRAP_ERR 11
	TRAP_ERR 12
	TRAP_ERR 13
	TRAP_ERR 14
	TRAP_NOERR 15
	TRAP_NOERR 16
	TRAP_ERR 17
	TRAP_NOERR 18
	TRAP_NOERR 19
	TRAP_NOERR 20
	TRAP_ERR 21
	.set vec, 22
	.rept 256 - 22
	TRAP_NOERR vec
	.set vec, vec + 1
	.endr

trap_common:
	pushal
	cld
	pushl	%esp			/* struct pt_regs * */
	call	x86_handle_trap
	addl	$4, %esp
	popal
	addl	$8, %esp		/* vector and error code */
	iret
