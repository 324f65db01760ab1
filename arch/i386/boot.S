/*
 * i386 entry from a multiboot (version 1) loader: QEMU's -kernel or GRUB.
 * The loader leaves us in 32-bit protected mode with flat segments, paging
 * off, interrupts off, EAX = the multiboot magic and EBX = the info block.
 */
#include <asm/thread_info.h>

#define MB_MAGIC	0x1BADB002
#define MB_FLAGS	0x00000003	/* page-aligned modules, memory info */

	.section .boot.header, "a"
	.balign 4
	.long MB_MAGIC
	.long MB_FLAGS
	.long -(MB_MAGIC + MB_FLAGS)

	.section .boot.text, "ax"
	.globl _start
_start:
	cld
	/* Clear .bss first: the boot stack lives there. */
	movl	%eax, %esi
	movl	$__bss_start, %edi
	movl	$__bss_end, %ecx
	subl	%edi, %ecx
	xorl	%eax, %eax
	rep stosb

	/* The boot stack is init_task's: thread_info at its base. */
	movl	$(init_thread_stack + THREAD_SIZE), %esp
	xorl	%ebp, %ebp		/* ends every backtrace */
	pushl	%ebx
	pushl	%esi
	/* For gdb (.debug_frame): the outermost frame, nothing called us. */
	.cfi_sections .debug_frame
	.cfi_startproc
	.cfi_undefined eip
	call	i386_start		/* (magic, info): never returns */
	.cfi_endproc
1:	cli
	hlt
	jmp	1b

	.bss
	.balign THREAD_SIZE
	.globl init_thread_stack
init_thread_stack:
	.skip THREAD_SIZE
