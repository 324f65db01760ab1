/*
 * Trap and interrupt entry. The stubs (asm/trap_stubs.h) push an error
 * code and the vector number; the common code below saves the registers
 * as struct pt_regs and calls x86_handle_trap(regs).
 *
 * In long mode the CPU always pushes SS, RSP, RFLAGS, CS, RIP, after
 * aligning RSP down to 16 bytes. With the two words of the stub and the 15
 * registers below, RSP is 16-byte aligned again at the call, as the ABI
 * wants.
 */
	.text

#include <asm/trap_stubs.h>

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
