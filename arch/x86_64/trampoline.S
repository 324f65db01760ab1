/*
 * The x86_64 start-up trampoline for the other CPUs. It is copied to
 * TRAMPOLINE_ADDR (0x8000), where a CPU starts in 16-bit real mode after
 * STARTUP. It climbs one mode at a time: to 32-bit protected mode with a
 * small flat GDT of its own, then through enter_long_mode (boot.S: the
 * kernel's GDT, PAE, the boot page tables, EFER.LME, paging) into 64-bit
 * code, and calls x86_secondary_entry() on the stack the boot CPU left in
 * tramp_stack (the idle task's). Addresses inside the copy are computed
 * relative to it, not to where the code was linked.
 */
#include <asm/boot.h>

#define TRAMPOLINE_ADDR	0x8000
#define REL(x)		((x) - tramp_start + TRAMPOLINE_ADDR)

	.section .rodata
	.globl tramp_start, tramp_end, tramp_stack
	.code16
tramp_start:
	cli
	cld
	xorw	%ax, %ax
	movw	%ax, %ds
	lgdtl	REL(tramp_gdtr)
	movl	%cr0, %eax
	orl	$CR0_PE, %eax
	movl	%eax, %cr0
	ljmpl	$0x08, $REL(tramp32)

	.code32
tramp32:
	movw	$0x10, %ax
	movw	%ax, %ds
	movw	%ax, %es
	movw	%ax, %ss
	movl	REL(tramp_stack), %esp
	/* Absolute calls: a relative one would be off in the copy. */
	movl	$enter_long_mode, %eax
	call	*%eax
	ljmp	$GDT_KERNEL_CS, $secondary_start64

	.balign 8
tramp_gdt:
	.quad	0
	.quad	0x00cf9a000000ffff	/* 0x08: code, 32-bit, flat */
	.quad	0x00cf92000000ffff	/* 0x10: data, flat */
tramp_gdtr:
	.word	3 * 8 - 1
	.long	REL(tramp_gdt)
	.balign 8
tramp_stack:
	.quad	0
tramp_end:

/* Not copied: reached by the far jump above, in 64-bit mode. */
	.text
	.code64
secondary_start64:
	movw	$GDT_KERNEL_DS, %ax
	movw	%ax, %ds
	movw	%ax, %es
	movw	%ax, %ss
	xorl	%eax, %eax
	movw	%ax, %fs
	movw	%ax, %gs
	movl	%esp, %esp		/* the upper half is undefined here */
	xorl	%ebp, %ebp		/* ends every backtrace */
	call	x86_secondary_entry	/* never returns */
1:	cli
	hlt
	jmp	1b
