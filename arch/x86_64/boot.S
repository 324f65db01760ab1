/*
 * x86_64 entry from a multiboot (version 1) loader: QEMU's -kernel or GRUB.
 * Multiboot starts us like i386: 32-bit protected mode, flat segments,
 * paging off, interrupts off, EAX = the multiboot magic, EBX = the info
 * block. Long mode needs paging, so this code first builds page tables
 * that map the first 4 GiB 1:1 with 2 MiB pages (RAM, the local APIC at
 * 0xfee00000 and the ACPI tables all lie there; the first 2 MiB in 4 KiB
 * pages, so that setup.c can unmap page 0), turns on PAE, EFER.LME
 * and paging, and jumps to a 64-bit code segment. The kernel is linked at
 * the address it is loaded at, so nothing has to move.
 */
#include <asm/thread_info.h>
#include <asm/boot.h>

#define MB_MAGIC	0x1BADB002
#define MB_FLAGS	0x00000003	/* page-aligned modules, memory info */

	.section .boot.header, "a"
	.balign 4
	.long MB_MAGIC
	.long MB_FLAGS
	.long -(MB_MAGIC + MB_FLAGS)

	.section .boot.text, "ax"
	.code32
	.globl _start
_start:
	cld
	movl	%eax, %esi		/* keep magic and info over the setup */
	movl	%ebx, %edi

	/* A CPU without long mode cannot run this kernel: say so and stop. */
	movl	$0x80000000, %eax
	cpuid
	cmpl	$0x80000001, %eax
	jb	no_long_mode
	movl	$0x80000001, %eax
	cpuid
	btl	$29, %edx		/* LM */
	jnc	no_long_mode

	/* Clear .bss first: the page tables and the boot stack live there. */
	movl	%edi, %edx
	movl	$__bss_start, %edi
	movl	$__bss_end, %ecx
	subl	%edi, %ecx
	xorl	%eax, %eax
	rep stosb
	movl	%edx, %edi

	/* The loader leaves ESP undefined; borrow the boot stack. */
	movl	$(init_thread_stack + THREAD_SIZE), %esp
	call	build_page_tables
	call	enter_long_mode		/* shared with the trampoline's path */
	ljmp	$GDT_KERNEL_CS, $start64

/*
 * PML4[0] -> PDPT; PDPT[0..3] -> four page directories, each mapping 1 GiB
 * with 512 large pages, except the first 2 MiB, which go through a page
 * table of 4 KiB pages (boot_pt) so that page 0 alone can be unmapped
 * once the BIOS data in it has been read (setup.c). Clobbers EAX, EBX,
 * ECX.
 */
build_page_tables:
	movl	$boot_pdpt, %eax
	orl	$(PTE_PRESENT | PTE_WRITE), %eax
	movl	%eax, boot_pml4

	movl	$boot_pd, %eax
	orl	$(PTE_PRESENT | PTE_WRITE), %eax
	xorl	%ecx, %ecx
1:	movl	%eax, boot_pdpt(, %ecx, 8)
	addl	$4096, %eax
	incl	%ecx
	cmpl	$4, %ecx
	jb	1b

	/* 2048 entries of 2 MiB: entry i maps physical i * 2 MiB. */
	movl	$(PTE_PRESENT | PTE_WRITE | PTE_LARGE), %eax
	xorl	%ecx, %ecx
2:	movl	%eax, boot_pd(, %ecx, 8)
	addl	$0x200000, %eax
	incl	%ecx
	cmpl	$2048, %ecx
	jb	2b

	/* The first 2 MiB in 512 small pages: entry i maps i * 4 KiB. */
	movl	$boot_pt, %eax
	orl	$(PTE_PRESENT | PTE_WRITE), %eax
	movl	%eax, boot_pd
	movl	$(PTE_PRESENT | PTE_WRITE), %eax
	xorl	%ecx, %ecx
3:	movl	%eax, boot_pt(, %ecx, 8)
	addl	$4096, %eax
	incl	%ecx
	cmpl	$512, %ecx
	jb	3b
	ret

/*
 * From 32-bit protected mode to long mode (still running 32-bit code, in
 * compatibility mode, until the far jump the caller does next): our GDT,
 * PAE, the page tables, EFER.LME, then paging. Clobbers EAX, ECX, EDX.
 */
	.globl enter_long_mode
enter_long_mode:
	lgdt	gdt64_desc		/* reads the low 32 bits of the base */
	movl	%cr4, %eax
	orl	$CR4_PAE, %eax
	movl	%eax, %cr4
	movl	$boot_pml4, %eax
	movl	%eax, %cr3
	movl	$MSR_EFER, %ecx
	rdmsr
	orl	$EFER_LME, %eax
	wrmsr
	movl	%cr0, %eax
	orl	$(CR0_PG | CR0_PE), %eax
	movl	%eax, %cr0
	ret

no_long_mode:
	movl	$no_lm_msg, %ebx
	movw	$0x3f8, %dx		/* COM1: QEMU needs no UART setup */
1:	movb	(%ebx), %al
	testb	%al, %al
	jz	2f
	outb	%al, %dx
	incl	%ebx
	jmp	1b
2:	cli
	hlt
	jmp	2b

	.code64
start64:
	movl	$GDT_KERNEL_DS, %eax
	movw	%ax, %ds
	movw	%ax, %es
	movw	%ax, %ss
	xorl	%eax, %eax
	movw	%ax, %fs
	movw	%ax, %gs

	/* The boot stack is init_task's: thread_info at its base. */
	movq	$(init_thread_stack + THREAD_SIZE), %rsp
	xorl	%ebp, %ebp		/* ends every backtrace */
	xchgl	%esi, %edi		/* x86_64_start(magic, info) */
	/* For gdb (.debug_frame): the outermost frame, nothing called us. */
	.cfi_sections .debug_frame
	.cfi_startproc
	.cfi_undefined rip
	call	x86_64_start		/* never returns */
	.cfi_endproc
1:	cli
	hlt
	jmp	1b

	.section .rodata
no_lm_msg:
	.asciz	"MutexOS: this CPU has no 64-bit long mode; boot the i386 kernel\r\n"

/*
 * The kernel's GDT, the same on every CPU: a 64-bit code segment and a
 * data segment. Long mode ignores their base and limit. The descriptor's
 * base is 64-bit; 32-bit code loading it reads only the low half, which
 * is the whole address since the kernel lies below 4 GiB.
 */
	.data
	.balign 16
	.globl gdt64_desc
gdt64:
	.quad	0
	.quad	0x00af9a000000ffff	/* 0x08: code, 64-bit (L), ring 0 */
	.quad	0x00cf92000000ffff	/* 0x10: data, writable */
gdt64_end:
gdt64_desc:
	.word	gdt64_end - gdt64 - 1
	.quad	gdt64

	.bss
	.balign 4096
boot_pml4:
	.skip	4096
boot_pdpt:
	.skip	4096
boot_pd:
	.skip	4 * 4096
	.globl	boot_pt
boot_pt:
	.skip	4096

	.balign THREAD_SIZE
	.globl init_thread_stack
init_thread_stack:
	.skip	THREAD_SIZE
