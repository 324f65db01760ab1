/*
 * Trap and interrupt entry. The stubs (asm/trap_stubs.h) push an error
 * code and the vector number; the common code below saves the registers
 * as struct pt_regs and calls x86_handle_trap(regs).
 *
 * In long mode the CPU always pushes SS, RSP, RFLAGS, CS, RIP, after
 * aligning RSP down to 16 bytes. With the two words of the stub and the 15
 * registers below, RSP is 16-byte aligned again at the call, as the ABI
 * wants.
 *
 * The CFI (in .debug_frame) lets gdb unwind through the frame into the
 * code the trap interrupted: a signal frame (the interrupted rip is the
 * next instruction to run, not a return address), with the interrupted
 * rsp taken from the frame, since the CPU aligned it.
 */
	.text

#include <asm/trap_stubs.h>

/* A push or pop, and where the CFA now is from %rsp. */
.macro save reg
	pushq	%\reg
	.cfi_adjust_cfa_offset 8
	.cfi_rel_offset \reg, 0
.endm

.macro restore reg
	popq	%\reg
	.cfi_adjust_cfa_offset -8
.endm

	.cfi_sections .debug_frame
/* The push order is struct pt_regs read backwards (asm/ptrace.h). */
trap_common:
	.cfi_startproc simple
	.cfi_signal_frame
	.cfi_def_cfa rsp, 56		/* vector ... ss */
	.cfi_offset rip, -40
	.cfi_offset rflags, -24
	.cfi_offset rsp, -16
	save	rax
	save	rbx
	save	rcx
	save	rdx
	save	rsi
	save	rdi
	save	rbp
	save	r8
	save	r9
	save	r10
	save	r11
	save	r12
	save	r13
	save	r14
	save	r15
	cld
	movq	%rsp, %rdi		/* struct pt_regs * */
	call	x86_handle_trap
	restore	r15
	restore	r14
	restore	r13
	restore	r12
	restore	r11
	restore	r10
	restore	r9
	restore	r8
	restore	rbp
	restore	rdi
	restore	rsi
	restore	rdx
	restore	rcx
	restore	rbx
	restore	rax
	addq	$16, %rsp		/* vector and error code */
	.cfi_adjust_cfa_offset -16
	iretq
	.cfi_endproc
