/*
 * Exception vectors. Every exception is handled on the SVC stack of the
 * task it interrupted: the stub stores the return address and the saved
 * CPSR there with srsdb, switches to SVC mode and saves the rest as
 * struct pt_regs (asm/ptrace.h). The IRQ, UND and ABT modes therefore
 * need no stacks of their own, and an interrupt handler may schedule
 * (irq_exit() preempts): the interrupted context waits on its own stack
 * until its task runs again, and IRQ mode's banked lr and spsr are free
 * for the next interrupt as soon as the stub has saved them.
 *
 * The CFI (in .debug_frame) lets gdb unwind from the handler through the
 * frame into the interrupted code: a signal frame (the saved pc is the
 * instruction to run next, not a return address) whose registers are
 * in the struct pt_regs that r4 points to while the handler runs.
 */
#include <asm/ptrace.h>

#define FAULT_UNDEF	0
#define FAULT_PABT	1
#define FAULT_DABT	2
#define FAULT_OTHER	3

/* lr_adjust turns the banked lr into the address of the instruction
 * to return to (IRQ) or that faulted (aborts, undefined). */
.macro save_regs lr_adjust
	.if \lr_adjust
	sub	lr, lr, #\lr_adjust
	.endif
	srsdb	sp!, #PSR_MODE_SVC	@ pc and cpsr, on the SVC stack
	cps	#PSR_MODE_SVC
	sub	sp, sp, #PT_PC
	stmia	sp, {r0-r12}
	add	r0, sp, #PT_REGS_SIZE	@ the interrupted sp
	str	r0, [sp, #PT_SP]
	str	lr, [sp, #PT_LR]
.endm

/* From the call's setup to its return: the frame's registers, for gdb. */
.macro frame_cfi
	.cfi_def_cfa r4, PT_REGS_SIZE	@ the interrupted sp
	.irp reg, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12
	.cfi_offset r\reg, PT_R0 + 4 * \reg - PT_REGS_SIZE
	.endr
	.cfi_offset lr, PT_LR - PT_REGS_SIZE
	.cfi_offset pc, PT_PC - PT_REGS_SIZE
.endm

/* Back to the interrupted code, with the pc and cpsr in the frame. */
.macro restore_regs
	clrex				@ no ldrex of the interrupted code survives
	ldr	lr, [sp, #PT_LR]
	ldmia	sp, {r0-r12}
	add	sp, sp, #PT_PC
	rfeia	sp!			@ pc and cpsr back in one step
.endm

/*
 * arm_handle_fault() returns only when the exception table knew the
 * faulting instruction and moved the frame's pc to its fixup.
 */
.macro fault kind, lr_adjust
	.cfi_startproc simple
	.cfi_signal_frame
	.cfi_return_column pc
	save_regs \lr_adjust
	mov	r4, sp			@ r4 survives the call
	frame_cfi
	bic	sp, sp, #7		@ the AAPCS wants an 8-byte aligned sp
	mov	r0, r4
	mov	r1, #\kind
	bl	arm_handle_fault
	mov	sp, r4
	restore_regs
	.cfi_endproc
.endm

	.cfi_sections .debug_frame
	.text
	.arm
	.balign 32
	.globl vectors
vectors:
	b	vec_other		@ reset: never taken through VBAR
	b	vec_undef
	b	vec_svc
	b	vec_pabt
	b	vec_dabt
	b	vec_other		@ HYP trap: not used
	b	vec_irq
	b	vec_other		@ FIQ: never enabled

vec_undef:
	fault	FAULT_UNDEF, 4
vec_pabt:
	fault	FAULT_PABT, 4
vec_dabt:
	fault	FAULT_DABT, 8
vec_other:
	fault	FAULT_OTHER, 0

/*
 * The kernel makes no system calls. An svc reaching here is a
 * semihosting call that no debugger or QEMU took (the real board, or
 * QEMU without -semihosting): fail it, as a host without support would.
 */
vec_svc:
	mvn	r0, #0
	movs	pc, lr

vec_irq:
	.cfi_startproc simple
	.cfi_signal_frame
	.cfi_return_column pc
	save_regs 4
	mov	r4, sp			@ r4 survives the call
	frame_cfi
	bic	sp, sp, #7
	mov	r0, r4
	bl	arm_handle_irq
	mov	sp, r4
	restore_regs
	.cfi_endproc
