/*
 * A stand-in for the Raspberry Pi 2 firmware, so that QEMU enters
 * kernel7.img the way the board does (make test boots it; arch.mk builds
 * it as fwshim.elf). QEMU starts every core here, in Secure SVC mode, with
 * kernel7.img already loaded at 0x8000 (-device loader). Then, like the
 * firmware:
 *
 *  - every core sets ACTLR.SMP while it still may (the non-secure side
 *    may not), and goes to non-secure HYP mode through Monitor mode;
 *  - core 0 writes a device tree whose /chosen/bootargs is the command
 *    line (fdt.c, which asks QEMU for it by semihosting, while still
 *    Secure) and enters the kernel at 0x8000 with r0 = 0, r1 = the
 *    machine type, r2 = the device tree;
 *  - cores 1-3 wait, in wfe, until a start address appears in their
 *    mailbox 3, clear it, and jump there in HYP mode.
 *
 * Linked at 0x4000, below the kernel: the kernel reserves everything up
 * to its end, so the parked cores' loop is never overwritten.
 */
#include <asm/ptrace.h>
#include <asm/rpi.h>

#define PSR_MODE_MON	0x16
#define SCR_NS		(1 << 0)	/* below Monitor mode: non-secure */
#define SCR_FW		(1 << 4)	/* non-secure may mask FIQs */
#define SCR_AW		(1 << 5)	/* and asynchronous aborts */
#define SCR_HCE		(1 << 8)	/* hvc is allowed */
#define ACTLR_SMP	(1 << 6)
#define KERNEL_ENTRY	0x8000
#define MACH_BCM2709	0xc42

	.arch_extension sec
	.text
	.arm
	.globl _start
_start:
	mrc	p15, 0, r0, c1, c0, 1	@ ACTLR: take part in coherency
	orr	r0, r0, #ACTLR_SMP
	mcr	p15, 0, r0, c1, c0, 1
	mrc	p15, 0, r4, c0, c0, 5	@ MPIDR
	ands	r4, r4, #3		@ this core's number, kept in r4
	bne	to_hyp
	ldr	sp, =shim_stack_top
	bl	fwshim_write_dtb	@ Secure still: semihosting works
to_hyp:
	cps	#PSR_MODE_MON
	ldr	r0, =(SCR_NS | SCR_FW | SCR_AW | SCR_HCE)
	mcr	p15, 0, r0, c1, c1, 0	@ SCR
	isb
	mov	r0, #(PSR_MODE_HYP | PSR_A | PSR_I | PSR_F)
	msr	spsr_cxsf, r0
	adr	lr, in_hyp
	movs	pc, lr			@ to non-secure HYP, at in_hyp

in_hyp:
	cmp	r4, #0
	bne	park
	mov	r0, #0
	ldr	r1, =MACH_BCM2709
	ldr	r2, =fwshim_dtb
	ldr	pc, =KERNEL_ENTRY

/* r4 = core number: wait for an address in its mailbox 3. */
park:
	ldr	r1, =LOCAL_MBOX_CLR(0, MBOX_START)
	add	r1, r1, r4, lsl #4
1:	wfe
	ldr	r2, [r1]
	cmp	r2, #0
	beq	1b
	str	r2, [r1]		@ clear it: written bits clear here
	bx	r2

	.ltorg

	.bss
	.balign 8
	.skip	2048
shim_stack_top:
