/*
 * The RISC-V trap entry: every exception and interrupt comes to
 * trap_entry (stvec, direct mode). The kernel runs only in S-mode, so a
 * trap always arrives on a kernel stack it can push onto: struct pt_regs
 * goes there (asm/ptrace.h), riscv_handle_trap() (an exception) or
 * riscv_handle_irq() (an interrupt) gets it, and sret goes
 * back to the pc and sstatus it holds.
 */
#include <asm/ptrace.h>

/* Stores (or loads) x1 and x3-x31 at slot n = their number. */
.macro for_saved_regs op
	\op	x1, 1 * 8(sp)
	.irp n, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, \
		20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31
	\op	x\n, \n * 8(sp)
	.endr
.endm

/*
 * For gdb (the kernel's stub, docs/gdb.md): the frame's registers, from
 * the call on. The trap is a signal frame ("<signal handler called>"),
 * its return address sepc in a column of its own (64, past x0-x31 and
 * f0-f31): ra is the interrupted code's, which a leaf still needs.
 */
#define RETURN_COLUMN	64
.macro frame_cfi
	.cfi_def_cfa sp, PT_REGS_SIZE	/* the interrupted sp */
	.irp n, 1, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, \
		19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31
	.cfi_offset x\n, \n * 8 - PT_REGS_SIZE
	.endr
	.cfi_offset RETURN_COLUMN, PT_EPC - PT_REGS_SIZE
.endm

	.text
	.cfi_sections .debug_frame
	.balign 4
	.globl trap_entry
trap_entry:
	.cfi_startproc simple
	.cfi_signal_frame
	.cfi_return_column RETURN_COLUMN
	addi	sp, sp, -PT_REGS_SIZE
	for_saved_regs sd
	addi	t0, sp, PT_REGS_SIZE	/* the interrupted sp */
	sd	t0, 2 * 8(sp)
	csrr	t0, sepc
	sd	t0, PT_EPC(sp)
	csrr	t0, sstatus
	sd	t0, PT_STATUS(sp)
	csrr	t0, stval
	sd	t0, PT_BADADDR(sp)
	csrr	t0, scause
	sd	t0, PT_CAUSE(sp)
	/*
	 * A reservation of the interrupted code's lr must not survive into
	 * the handler's own lr/sc, nor the handler's back into it: a dummy
	 * sc drops it (it stores sepc where it already is, if at all).
	 */
	ld	t0, PT_EPC(sp)
	sc.d	zero, t0, PT_EPC(sp)
	mv	a0, sp
	frame_cfi
	ld	t0, PT_CAUSE(sp)
	bltz	t0, 3f			/* an interrupt: scause's top bit */
	call	riscv_handle_trap
	j	1f
3:	call	riscv_handle_irq
	/* sstatus first: its SIE is clear, so nothing interrupts from here */
1:	ld	t0, PT_STATUS(sp)
	csrw	sstatus, t0
	ld	t0, PT_EPC(sp)
	csrw	sepc, t0
	for_saved_regs ld
	addi	sp, sp, PT_REGS_SIZE
	sret
2:
	.cfi_endproc

/*
 * The way out, from the frame's reload to sret, for the gdb stub: a trap
 * in there (a step's own) would overwrite the sepc and sstatus it has
 * written, so a step runs it whole (kgdb.c).
 */
	.section .rodata
	.balign 8
	.globl riscv_trap_exit
riscv_trap_exit:
	.dword	1b, 2b
