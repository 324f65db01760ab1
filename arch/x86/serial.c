// SPDX-License-Identifier: GPL-2.0
/*
 * The 16550 UART on COM1, polled: the console of both x86 arches. 115200
 * baud, 8 data bits, no parity, one stop bit.
 */
#include <kernel.h>
#include <arch.h>
#include <asm/io.h>
#include <asm/x86.h>

#define COM1		0x3f8
#define UART_THR	0	/* transmit holding register */
#define UART_IER	1	/* interrupt enable */
#define UART_DLL	0	/* divisor latch, with DLAB set */
#define UART_DLM	1
#define UART_FCR	2	/* FIFO control */
#define UART_LCR	3	/* line control */
#define UART_MCR	4	/* modem control */
#define UART_LSR	5	/* line status */
#define LSR_THRE	0x20	/* transmitter ready for a byte */
#define LCR_DLAB	0x80

void x86_serial_init(void)
{
	outb(0x00, COM1 + UART_IER);		/* polled: no interrupts */
	outb(LCR_DLAB, COM1 + UART_LCR);
	outb(1, COM1 + UART_DLL);		/* 115200 / 1 */
	outb(0, COM1 + UART_DLM);
	outb(0x03, COM1 + UART_LCR);		/* 8N1 */
	outb(0xc7, COM1 + UART_FCR);		/* FIFOs on and cleared */
	outb(0x03, COM1 + UART_MCR);		/* DTR, RTS */
}

static void serial_putb(char c)
{
	while (!(inb(COM1 + UART_LSR) & LSR_THRE))
		;
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
