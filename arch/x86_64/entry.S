/*
 * Trap and interrupt entry. Each vector has a 16-byte stub that pushes an
 * error code (the CPU pushes one for some exceptions; the stub pushes 0
 * for the others, so the frame is always the same) and the vector number,
 * then jumps to the common code, which saves the registers as struct
 * pt_regs and calls x86_handle_trap(regs).
 *
 * In long mode the CPU always pushes SS, RSP, RFLAGS, CS, RIP, after
 * aligning RSP down to 16 bytes. With the two words of the stub and the 15
 * registers below, RSP is 16-byte aligned again at the call, as the ABI
 * wants.
 */
	.text

.macro TRAP_NOERR vec
	.balign 16
	pushq	$0
	pushq	$\vec
	jmp	trap_common
.endm

.macro TRAP_ERR vec
	.balign 16
	pushq	$\vec
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

/* The push order is struct pt_regs read backwards (asm/ptrace.h). */
trap_common:
	pushq	%rax
	pushq	%rbx
	pushq	%rcx
	pushq	%rdx
	pushq	%rsi
	pushq	%rdi
	pushq	%rbp
	pushq	%r8
	pushq	%r9
	pushq	%r10
	pushq	%r11
	pushq	%r12
	pushq	%r13
	pushq	%r14
	pushq	%r15
	cld
	movq	%rsp, %rdi		/* struct pt_regs * */
	call	x86_handle_trap
	popq	%r15
	popq	%r14
	popq	%r13
	popq	%r12
	popq	%r11
	popq	%r10
	popq	%r9
	popq	%r8
	popq	%rbp
	popq	%rdi
	popq	%rsi
	popq	%rdx
	popq	%rcx
	popq	%rbx
	popq	%rax
	addq	$16, %rsp		/* vector and error code */
	iretq
