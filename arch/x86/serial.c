// SPDX-License-Identifier: GPL-2.0
/*
 * The 16550 UART on COM1: the console of both x86 arches. 115200 baud,
 * 8 data bits, no parity, one stop bit. Output is polled; input comes by
 * interrupt (ISA IRQ 4, through the I/O APIC) once the console asks for
 * it. And the ends of the machine: its exit status, a reboot.
 */
#include <kernel.h>
#include <arch.h>
#include <console.h>
#include <irqflags.h>
#include <asm/io.h>
#include <asm/x86.h>

#define COM1		0x3f8
#define COM1_IRQ	4
#define UART_RBR	0	/* receive buffer */
#define UART_THR	0	/* transmit holding register */
#define UART_IER	1	/* interrupt enable */
#define UART_DLL	0	/* divisor latch, with DLAB set */
#define UART_DLM	1
#define UART_FCR	2	/* FIFO control */
#define UART_LCR	3	/* line control */
#define UART_MCR	4	/* modem control */
#define UART_LSR	5	/* line status */
#define IER_RDI		0x01	/* received data (or the FIFO timed out) */
#define IER_RLSI	0x04	/* line status: a break, an overrun */
#define MCR_DTR		0x01
#define MCR_RTS		0x02
#define MCR_OUT2	0x08	/* on a PC, connects the IRQ line */
#define LSR_DR		0x01	/* a byte to read */
#define LSR_BI		0x10	/* the byte on top is a break */
#define LSR_THRE	0x20	/* transmitter ready for a byte */
#define LCR_DLAB	0x80

/*
 * Reading LSR clears its break bit, and output polls LSR: a break seen
 * there is kept for the receive interrupt, which would miss it otherwise.
 */
static u8 lsr_break_seen;

/* COM1 here, COM2 for the gdb stub (arch/x86/kgdb.c). */
void x86_uart_setup(u16 base)
{
	outb(0x00, base + UART_IER);		/* polled: no interrupts */
	outb(LCR_DLAB, base + UART_LCR);
	outb(1, base + UART_DLL);		/* 115200 / 1 */
	outb(0, base + UART_DLM);
	outb(0x03, base + UART_LCR);		/* 8N1 */
	outb(0xc7, base + UART_FCR);		/* FIFOs on and cleared */
	outb(MCR_DTR | MCR_RTS, base + UART_MCR);
}

int x86_uart_getc(u16 base)
{
	return inb(base + UART_LSR) & LSR_DR ? inb(base + UART_RBR) : -1;
}

void x86_uart_putc(u16 base, char c)
{
	while (!(inb(base + UART_LSR) & LSR_THRE))
		;
	outb(c, base + UART_THR);
}

void x86_serial_init(void)
{
	x86_uart_setup(COM1);
}

/* To the boot CPU, which is the one calling. */
void arch_console_rx_init(void)
{
	io_apic_route_isa_irq(COM1_IRQ, VEC_SERIAL, lapic_id());
	outb(MCR_DTR | MCR_RTS | MCR_OUT2, COM1 + UART_MCR);
	outb(IER_RDI | IER_RLSI, COM1 + UART_IER);
}

/*
 * Everything the FIFO holds, so that the interrupt line drops and the
 * next byte raises a new edge. A break arrives as a NUL byte with BI set,
 * here or in an output poll before.
 */
void x86_serial_interrupt(void)
{
	u8 lsr;

	while ((lsr = inb(COM1 + UART_LSR)) & LSR_DR) {
		u8 c = inb(COM1 + UART_RBR);

		lsr |= __atomic_exchange_n(&lsr_break_seen, 0,
					   __ATOMIC_RELAXED);
		console_receive(lsr & LSR_BI && !c ? CONSOLE_BREAK : c);
	}
}

static void serial_putb(char c)
{
	u8 lsr;

	do {
		lsr = inb(COM1 + UART_LSR);
		__atomic_fetch_or(&lsr_break_seen, lsr & LSR_BI,
				  __ATOMIC_RELAXED);
	} while (!(lsr & LSR_THRE));
	outb(c, COM1 + UART_THR);
}

/* A terminal wants CR LF; the host runner drops the CR. */
void arch_putc(char c)
{
	if (c == '\n')
		serial_putb('\r');
	serial_putb(c);
}

/*
 * QEMU's isa-debug-exit device turns a value v into exit code (v << 1) | 1.
 * QEMU's own errors exit with 1, the code of v = 0, so the status goes out
 * as 16 + status: codes 33 and up come from the kernel, and a QEMU that
 * failed can never pass for a kernel that passed (scripts/mutexos/qemu.py
 * decodes it).
 */
#define DEBUG_EXIT_BIAS	16
void __noreturn arch_exit(int status)
{
	outl(DEBUG_EXIT_BIAS + status, 0xf4);
	for (;;)
		asm volatile("cli; hlt");
}

void arch_halt_cpu(void)
{
	asm volatile("cli; hlt");
}

#define KBC_STATUS	0x64
#define KBC_INPUT_FULL	0x02
#define KBC_PULSE_RESET	0xfe

/*
 * The keyboard controller's reset line, which every PC has. Should it do
 * nothing, a triple fault resets the CPU: with an empty IDT, the
 * breakpoint cannot be delivered, nor the faults that follow.
 */
void __noreturn arch_reboot(void)
{
	struct {
		u16 limit;
		unsigned long base;
	} __packed no_idt = { 0, 0 };

	arch_local_irq_disable();
	for (int i = 0; i < 100000 && (inb(KBC_STATUS) & KBC_INPUT_FULL); i++)
		;
	outb(KBC_PULSE_RESET, KBC_STATUS);
	x86_udelay(100000);
	asm volatile("lidt %0; int3" :: "m" (no_idt));
	for (;;)
		arch_halt_cpu();
}
