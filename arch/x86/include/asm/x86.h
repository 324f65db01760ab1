/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the x86 arches (i386, x86_64) share in arch/x86/: the 16550 UART,
 * the local APIC, the ACPI/MP tables, the TSC calibration, and the
 * SMP start-up sequence.
 */
#ifndef _ASM_X86_X86_H
#define _ASM_X86_X86_H

#include <types.h>

/* Interrupt vectors. 0-31 are the CPU's exceptions. */
#define X86_TRAP_DB		1	/* debug: a single step */
#define X86_TRAP_NMI		2	/* only kgdb's wake sends one */
#define X86_TRAP_BP		3	/* breakpoint: int3 */
#define X86_TRAP_GP		13	/* general protection */
#define X86_TRAP_PF		14	/* page fault */
#define VEC_SERIAL		0x30	/* COM1, through the I/O APIC */
#define VEC_TIMER		0xef
#define VEC_IPI_BASE		0xf0	/* + enum ipi_type */
#define VEC_SPURIOUS		0xff

/* The stub of vector n is at trap_stubs + n * TRAP_STUB_BYTES (entry.S). */
#define TRAP_STUB_BYTES		16
extern char trap_stubs[];

void x86_serial_init(void);
void x86_serial_interrupt(void);
/* A 16550 at I/O port base: 115200 8N1, FIFOs on, polled. */
/* A 16550 on the I/O ports (drivers/uart16550.c): COM1 and COM2. */
u8 x86_uart_inb(unsigned long port);
void x86_uart_outb(u8 val, unsigned long port);
#define X86_UART(port)	{ .base = (port), .read = x86_uart_inb, \
			  .write = x86_uart_outb }

struct pt_regs;
#ifdef CONFIG_KGDB
/* A breakpoint or single-step trap for the gdb stub: true if handled. */
bool x86_kgdb_trap(struct pt_regs *regs);
/* A debug trap from gdb's hardware breakpoints or watchpoints (DR0-DR3). */
bool x86_kgdb_watch_trap(struct pt_regs *regs);
#else
static inline bool x86_kgdb_trap(struct pt_regs *regs) { return false; }
#endif
/*
 * Reads the multiboot info at physical address info: the command line and
 * the RAM below ram_end; reserves low memory and the kernel image.
 */
void x86_multiboot_setup(u32 magic, u32 info, u64 ram_end);
void x86_load_gdt(void);
void x86_load_idt(void);

/* Local APIC (xAPIC, memory-mapped). */
extern volatile u8 *lapic_base;
void lapic_init(void);			/* this CPU */
void lapic_eoi(void);
u32 lapic_id(void);
void lapic_send_ipi(u32 apic_id, u32 vector);
void lapic_send_nmi(u32 apic_id);
void lapic_send_init_sipi(u32 apic_id, u32 start_page);
void lapic_timer_start(void);
void lapic_timer_calibrate(void);

/*
 * An ISA IRQ as it reaches an I/O APIC: its global system interrupt
 * (GSI), the I/O APIC whose pins start at gsi_base, and the MADT's
 * polarity and trigger flags (0: the ISA default, active high, edge).
 */
struct x86_irq_route {
	unsigned int isa_irq;
	u32 gsi;
	u16 flags;
	volatile u8 *io_apic;
	u32 gsi_base;
};
#define X86_IO_APIC_DEFAULT	0xfec00000UL
#define MADT_POLARITY_LOW	0x3	/* flags bits 0-1 */
#define MADT_TRIGGER_LEVEL	0xc	/* flags bits 2-3 */
void x86_find_isa_irq(unsigned int isa_irq, struct x86_irq_route *r);
/* Sends ISA IRQ isa_irq to the local APIC apic_id as vector. */
void io_apic_route_isa_irq(unsigned int isa_irq, u8 vector, u32 apic_id);

/* CPUs found in the firmware tables. */
#define X86_MAX_CPUS		8
extern u32 x86_cpu_apic_id[X86_MAX_CPUS];
extern unsigned int x86_nr_cpus_found;
void x86_find_cpus(void);
/* Reads what x86_find_cpus() needs from page 0, before it is unmapped. */
void x86_read_bios_data(void);
/* Unmaps page 0 on this arch's page tables (i386: turns paging on). */
void x86_paging_init(void);

/*
 * Calibration (calibrate.c): a free-running counter measured against the
 * TSC. read() returns its raw value, of which mask (2^bits - 1) counts;
 * restart(), if given, runs before each window. period_tsc, if known, is
 * how many TSC ticks the counter takes to wrap.
 */
struct x86_counter {
	const char *name;
	u32 (*read)(void);
	void (*restart)(void);
	u32 mask;
	bool counts_down;
	u64 period_tsc;
};

/* One measurement: TSC ticks and counts between two bracketed readings. */
struct x86_window {
	u64 tsc;
	u64 counts;
	u32 err_ppm;		/* the ratio is off by no more than this */
};

/* Each window lasts about this long. */
#define CALIBRATE_MS		25

/*
 * Fills w with up to n windows of at least min_counts and min_tsc each;
 * returns how many (0, with a line saying why: none could be measured).
 */
int x86_measure(const struct x86_counter *c, u64 min_counts, u64 min_tsc,
		struct x86_window *w, int n);
u64 x86_median(u64 *v, int n);

/* The ACPI PM timer's port and width (24 or 32), from the FADT. */
bool x86_find_pm_timer(u16 *port, unsigned int *bits);

/* TSC-based clock. */
extern u64 tsc_khz;
void tsc_calibrate(void);
void x86_udelay(unsigned long us);

/* The per-arch part of SMP start-up (trampoline and long jump). */
void x86_trampoline_install(void);
void x86_trampoline_set(unsigned long stack_top);
#define TRAMPOLINE_ADDR		0x8000

/* The arch's register dump, for the exception report in arch/x86/traps.c. */
struct pt_regs;
void x86_show_regs(struct pt_regs *regs);

/* Vector to the common interrupt code. */
void x86_handle_irq(unsigned int vector, struct pt_regs *regs);

#endif
