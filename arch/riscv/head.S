/*
 * The RISC-V entry: OpenSBI's fw_dynamic starts one hart here, the one
 * that won its boot lottery (any hart ID), in S-mode at 0x80200000 with
 * the MMU off, a0 = its hart ID, a1 = the device tree. The other harts
 * wait in the firmware, stopped, until arch_smp_boot() starts them one
 * by one at secondary_startup (SBI HSM hart_start).
 */
#include <asm/thread_info.h>

	.section .boot.text, "ax"
	.globl _start
_start:
	csrw	sie, zero		/* no interrupt source until asked */
	la	t0, trap_entry
	csrw	stvec, t0
	/* .bss holds the boot stack: clear it first, keeping a0 and a1 */
	la	t0, __bss_start
	la	t1, __bss_end
1:	bgeu	t0, t1, 2f
	sd	zero, 0(t0)
	addi	t0, t0, 8
	j	1b
2:
	/* 16 bytes below the top: sp & ~(THREAD_SIZE - 1) must name this
	 * stack's thread_info even before the first push. */
	la	sp, init_thread_stack + THREAD_SIZE - 16
	li	s0, 0			/* ends every backtrace */
	.cfi_sections .debug_frame
	.cfi_startproc			/* for gdb: the outermost frame */
	.cfi_undefined ra
	call	riscv_start		/* never returns */
	.cfi_endproc
3:	wfi
	j	3b

/*
 * Where SBI hart_start sends every other hart: S-mode, MMU off,
 * interrupts off, a0 = the hart ID, a1 = its CPU number (the opaque
 * argument; the CPU learns it from its idle task's thread_info).
 */
	.globl secondary_startup
secondary_startup:
	csrw	sie, zero
	la	t0, trap_entry
	csrw	stvec, t0
	la	t0, secondary_stack
	ld	sp, 0(t0)
	addi	sp, sp, -16		/* as for the boot stack */
	li	s0, 0
	.cfi_startproc			/* the outermost frame, for gdb */
	.cfi_undefined ra
	call	riscv_secondary_entry	/* never returns */
	.cfi_endproc
4:	wfi
	j	4b

	.bss
	.balign THREAD_SIZE
	.globl init_thread_stack
init_thread_stack:
	.skip THREAD_SIZE
