/*
 * ARM entry, for both ways the Raspberry Pi 2 kernel gets started:
 *
 *  - the Pi firmware (and QEMU with -kernel kernel7.img) enters core 0 at
 *    the image's first byte, in non-secure HYP mode on the board, with
 *    r2 = ATAGS or a device tree; cores 1-3 wait in the loader's own loop
 *    on their mailbox 3. The firmware loads the image at 0x8000, QEMU at
 *    0x10000, so the code below runs wherever it was put until it has
 *    copied the image to the address it was linked at (0x8000).
 *  - QEMU with the ELF starts all four cores here, in Secure SVC mode, at
 *    the link address. Cores 1-3 then park themselves in the same mailbox
 *    loop, so that SMP start-up is the same in both cases.
 *
 * Then core 0 clears .bss, builds the page tables, turns on the MMU and
 * caches, installs the exception vectors (VBAR: they stay in the kernel's
 * text, not at 0) and calls arm_start(r2) on the boot stack (init_task's),
 * which never returns.
 */
#include <asm/thread_info.h>
#include <asm/ptrace.h>
#include <asm/rpi.h>

	.arch_extension virt		@ eret and the HYP registers

/* Short-descriptor first-level entries: 1 MiB sections. */
#define SECT		0x2
#define SECT_B		(1 << 2)
#define SECT_C		(1 << 3)
#define SECT_XN		(1 << 4)
#define SECT_AP_RW	(3 << 10)	/* read/write at PL1 (and PL0) */
#define SECT_TEX1	(1 << 12)
#define SECT_S		(1 << 16)
/* Normal, inner and outer write-back write-allocate, shareable: needed
 * for ldrex/strex between cores on the board. */
#define SECT_NORMAL	(SECT | SECT_TEX1 | SECT_C | SECT_B | SECT_AP_RW | SECT_S)
/* Shareable device: no caching, no speculation, no execution. */
#define SECT_DEVICE	(SECT | SECT_B | SECT_XN | SECT_AP_RW)

/*
 * A first-level entry pointing to a second-level ("coarse") table, and
 * that table's 4 KiB small pages, with the same attributes as SECT_NORMAL.
 */
#define PDE_COARSE	0x1
#define PAGE_SMALL	0x2
#define PAGE_B		(1 << 2)
#define PAGE_C		(1 << 3)
#define PAGE_AP_RW	(3 << 4)
#define PAGE_TEX1	(1 << 6)
#define PAGE_S		(1 << 10)
#define PAGE_NORMAL	(PAGE_SMALL | PAGE_TEX1 | PAGE_C | PAGE_B | PAGE_AP_RW | \
			 PAGE_S)

/* TTBR0: table walks inner/outer write-back write-allocate, shareable. */
#define TTBR_WALK	((1 << 6) | (1 << 3) | (1 << 1))

#define SCTLR_M		(1 << 0)
#define SCTLR_A		(1 << 1)
#define SCTLR_C		(1 << 2)
#define SCTLR_Z		(1 << 11)
#define SCTLR_I		(1 << 12)
#define SCTLR_V		(1 << 13)
#define SCTLR_TRE	(1 << 28)
#define SCTLR_AFE	(1 << 29)
#define SCTLR_TE	(1 << 30)
#define ACTLR_SMP	(1 << 6)

/* Where a misplaced image is copied first (see _start): above both. */
#define RELOC_SCRATCH	0x02000000

	.section .boot.text, "ax"
	.arm
	.globl _start
_start:
	mov	r10, r2			@ ATAGS or DTB: kept for arm_start
	bl	enter_svc
	mrc	p15, 0, r0, c0, c0, 5	@ MPIDR: which core is this
	ands	r0, r0, #3
	bne	park_secondary

	/*
	 * Move the image to its link address if it was loaded elsewhere.
	 * QEMU loads it 32 KiB above that address, so a direct copy would
	 * overwrite this very code half-way: the image first goes to a
	 * scratch area clear of both, continues there, and is copied to its
	 * link address from that copy.
	 */
	adr	r0, _start		@ where we run
	ldr	r1, =_start		@ where we were linked
	cmp	r0, r1
	beq	relocated
	ldr	r2, =__bss_start
	sub	r2, r2, r1		@ bytes in the image
	ldr	r3, =RELOC_SCRATCH
	cmp	r0, r3
	beq	copy_to_link		@ this is the scratch copy
	bl	copy_words
	adr	r4, copy_to_link	@ the same code, in the scratch copy
	sub	r4, r4, r0
	add	r4, r4, r3
	bx	r4
copy_to_link:
	mov	r3, r1
	bl	copy_words
	ldr	pc, =relocated		@ continue in the linked copy

/* Copies r2 bytes (a multiple of 4) from r0 to r3, which do not overlap. */
copy_words:
	mov	r4, r0
	mov	r5, r3
	mov	r6, r2
1:	ldr	r7, [r4], #4
	str	r7, [r5], #4
	subs	r6, r6, #4
	bne	1b
	bx	lr

relocated:
	/* Clear .bss: the boot stack and the page table are in it. */
	ldr	r0, =__bss_start
	ldr	r1, =__bss_end
	mov	r2, #0
1:	cmp	r0, r1
	strlo	r2, [r0], #4
	blo	1b

	bl	build_page_table
	bl	cpu_setup

	/* 8 bytes below the top: sp & ~(THREAD_SIZE - 1) must name this
	 * stack's thread_info even before the first push. */
	ldr	sp, =init_thread_stack + THREAD_SIZE - 8
	mov	fp, #0			@ ends every backtrace
	mov	r0, r10
	@ For gdb (.debug_frame): the outermost frame, nothing called us.
	.cfi_sections .debug_frame
	.cfi_startproc
	.cfi_undefined lr
	bl	arm_start		@ never returns
	.cfi_endproc
2:	wfi
	b	2b

/*
 * A core that QEMU started here waits for the boot core to write its
 * start address to this core's mailbox 3, as the firmware's loop does.
 * r0 = core number.
 */
park_secondary:
	ldr	r1, =LOCAL_MBOX_CLR(0, MBOX_START)
	add	r1, r1, r0, lsl #4
1:	ldr	r2, [r1]
	cmp	r2, #0
	bne	2f
	wfe
	b	1b
2:	str	r2, [r1]		@ clear it: bits written here are cleared
	bx	r2

/*
 * Where arch_smp_boot() sends the cores that maxcpus= leaves out, so that
 * they do not wait in a mailbox loop for the whole boot: QEMU runs wfe as
 * a no-op, and each such core took a host CPU (a boot at maxcpus=1 used
 * almost two). wfi sleeps on the board and in QEMU alike, and no
 * interrupt is routed to these cores, so they sleep for good.
 */
	.globl cpu_park
cpu_park:
	cpsid	if
1:	wfi
	b	1b

/*
 * Where arch_smp_boot() sends cores 1-3 (through mailbox 3): in HYP or
 * SVC mode, MMU off. The MMU goes on before anything in memory is read:
 * the boot core wrote secondary_stack through its cache.
 */
	.globl secondary_startup
secondary_startup:
	bl	enter_svc
	bl	cpu_setup
	ldr	r0, =secondary_stack
	ldr	sp, [r0]
	sub	sp, sp, #8		@ as for the boot stack
	mov	fp, #0
	.cfi_startproc			@ the outermost frame, for gdb
	.cfi_undefined lr
	bl	arm_secondary_entry	@ never returns
	.cfi_endproc
1:	wfi
	b	1b

/*
 * Leave HYP for SVC, with all of A, I, F masked. The virtual counter
 * offset can only be set from HYP: zero it, so that every core's CNTVCT
 * reads the same. Clobbers r0-r3.
 */
enter_svc:
	mrs	r0, cpsr
	and	r1, r0, #PSR_MODE_MASK
	cmp	r1, #PSR_MODE_HYP
	bne	1f
	mov	r2, #0
	mov	r3, #0
	mcrr	p15, 4, r2, r3, c14	@ CNTVOFF = 0
	mrc	p15, 4, r2, c14, c1, 0	@ CNTHCTL: let PL1 use the counters
	orr	r2, r2, #3
	mcr	p15, 4, r2, c14, c1, 0
	bic	r0, r0, #PSR_MODE_MASK
	orr	r0, r0, #(PSR_MODE_SVC | PSR_I | PSR_F)
	orr	r0, r0, #PSR_A
	/*
	 * HYP's own SPSR, by its plain name: the banked form (spsr_hyp) is
	 * for Monitor mode, and from HYP it is undefined (QEMU traps it).
	 * ELR_hyp has no plain name and may be written from HYP.
	 */
	msr	spsr_cxsf, r0
	msr	elr_hyp, lr
	eret				@ "returns" to lr, in SVC
1:	cpsid	aif, #PSR_MODE_SVC
	bx	lr

/*
 * An identity map of the first 4 GiB in 1 MiB sections: RAM (and the
 * VideoCore's part, never touched) as normal memory, the peripherals and
 * the local block as device memory, the rest unmapped so that a stray
 * pointer faults. The first MiB goes through a second-level table of
 * 4 KiB pages instead (page_table_low), so that arm_start() can unmap
 * page 0 once it has read the loader's ATAGS or device tree there.
 * Written with the caches off, so it is in memory when the other cores'
 * table walks read it.
 */
build_page_table:
	ldr	r0, =page_table
	mov	r1, #0			@ section index
	ldr	r4, =SECT_NORMAL
	ldr	r5, =SECT_DEVICE
1:	mov	r2, #0
	cmp	r1, #(DEVICE_START >> 20)
	orrlo	r2, r4, r1, lsl #20
	blo	2f
	cmp	r1, #(DEVICE_END >> 20)
	orrlo	r2, r5, r1, lsl #20
2:	str	r2, [r0, r1, lsl #2]
	add	r1, r1, #1
	cmp	r1, #4096
	bne	1b

	ldr	r3, =page_table_low
	ldr	r4, =PAGE_NORMAL
	mov	r1, #0			@ page index
3:	orr	r2, r4, r1, lsl #12
	str	r2, [r3, r1, lsl #2]
	add	r1, r1, #1
	cmp	r1, #256
	bne	3b
	orr	r2, r3, #PDE_COARSE
	str	r2, [r0]		@ the first MiB: through the small pages
	dsb	sy
	bx	lr

/*
 * Per core: join the coherency domain, turn on the MMU and the caches,
 * install the vectors. The L1 and L2 caches of the Cortex-A7 come out of
 * reset invalid and nothing before us turned them on, so only the TLBs,
 * the instruction cache and the branch predictor need invalidating.
 */
cpu_setup:
	mrc	p15, 0, r0, c1, c0, 1	@ ACTLR
	tst	r0, #ACTLR_SMP
	orreq	r0, r0, #ACTLR_SMP	@ written only if clear: it may be
	mcreq	p15, 0, r0, c1, c0, 1	@ read-only in the non-secure state
	mov	r0, #0
	mcr	p15, 0, r0, c8, c7, 0	@ TLBIALL
	mcr	p15, 0, r0, c7, c5, 0	@ ICIALLU
	mcr	p15, 0, r0, c7, c5, 6	@ BPIALL
	mcr	p15, 0, r0, c2, c0, 2	@ TTBCR: TTBR0 only, short descriptors
	ldr	r0, =page_table + TTBR_WALK
	mcr	p15, 0, r0, c2, c0, 0	@ TTBR0
	mov	r0, #1			@ domain 0: client, the AP bits apply
	mcr	p15, 0, r0, c3, c0, 0	@ DACR
	ldr	r0, =vectors
	mcr	p15, 0, r0, c12, c0, 0	@ VBAR
	dsb	sy
	isb
	mrc	p15, 0, r0, c1, c0, 0	@ SCTLR
	ldr	r1, =(SCTLR_A | SCTLR_V | SCTLR_TRE | SCTLR_AFE | SCTLR_TE)
	bic	r0, r0, r1
	ldr	r1, =(SCTLR_M | SCTLR_C | SCTLR_I | SCTLR_Z)
	orr	r0, r0, r1
	mcr	p15, 0, r0, c1, c0, 0
	isb
	bx	lr

	.ltorg

	.bss
	.balign 16384			@ TTBR0 needs the table 16 KiB aligned
page_table:
	.skip 16384
	.globl page_table_low		@ setup.c unmaps its page 0
page_table_low:				@ 256 entries: 1 KiB, 1 KiB aligned
	.skip 1024

	.balign THREAD_SIZE
	.globl init_thread_stack
init_thread_stack:
	.skip THREAD_SIZE
