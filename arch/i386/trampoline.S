/*
 * The i386 start-up trampoline for the other CPUs. It is copied to
 * TRAMPOLINE_ADDR (0x8000), where a CPU starts in 16-bit real mode after
 * STARTUP. It switches to 32-bit protected mode with a flat GDT of its own,
 * loads the stack the boot CPU left in tramp_stack, turns on paging with
 * the boot CPU's page directory (paging.c) and calls into the kernel.
 * Addresses are computed relative to the copy, not the link.
 */
#define TRAMPOLINE_ADDR	0x8000
#define REL(x)		((x) - tramp_start + TRAMPOLINE_ADDR)

	.section .rodata
	.globl tramp_start, tramp_end, tramp_stack
	.code16
tramp_start:
	cli
	xorw	%ax, %ax
	movw	%ax, %ds
	lgdtl	REL(tramp_gdtr)
	movl	%cr0, %eax
	orl	$1, %eax		/* PE */
	movl	%eax, %cr0
	ljmpl	$0x08, $REL(tramp32)

	.code32
tramp32:
	movw	$0x10, %ax
	movw	%ax, %ds
	movw	%ax, %es
	movw	%ax, %ss
	movw	%ax, %fs
	movw	%ax, %gs
	movl	REL(tramp_stack), %esp
	xorl	%ebp, %ebp
	/* Absolute calls: a relative one would be off in the copy. */
	movl	$i386_paging_enable, %eax	/* the boot CPU's page tables */
	call	*%eax
	movl	$x86_secondary_entry, %eax
	call	*%eax
1:	hlt
	jmp	1b

	.balign 8
tramp_gdt:
	.quad 0
	.quad 0x00cf9a000000ffff
	.quad 0x00cf92000000ffff
tramp_gdtr:
	.word 3 * 8 - 1
	.long REL(tramp_gdt)
tramp_stack:
	.long 0
tramp_end:
