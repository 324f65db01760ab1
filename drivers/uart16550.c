// SPDX-License-Identifier: GPL-2.0
/*
 * The 16550 UART: 8 data bits, no parity, one stop bit, FIFOs on. Output
 * is polled; input is polled too (the gdb stub's port) or comes by
 * interrupt (the console's), with a break on the line handed to the
 * console as CONSOLE_BREAK (SysRq).
 */
#include <kernel.h>
#include <console.h>
#include <uart16550.h>

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
#define FCR_ON_CLEARED	0xc7	/* FIFOs on and cleared, 14-byte trigger */
#define LCR_8N1		0x03
#define LCR_DLAB	0x80
#define MCR_DTR		0x01
#define MCR_RTS		0x02
#define LSR_DR		0x01	/* a byte to read */
#define LSR_BI		0x10	/* the byte on top is a break */
#define LSR_THRE	0x20	/* transmitter ready for a byte */

static u8 uart_in(struct uart16550 *u, int reg)
{
	return u->read(u->base + ((unsigned long)reg << u->reg_shift));
}

static void uart_out(struct uart16550 *u, int reg, u8 val)
{
	u->write(val, u->base + ((unsigned long)reg << u->reg_shift));
}

void uart16550_setup(struct uart16550 *u, unsigned int divisor)
{
	uart_out(u, UART_IER, 0);
	if (divisor) {
		uart_out(u, UART_LCR, LCR_DLAB);
		uart_out(u, UART_DLL, divisor & 0xff);
		uart_out(u, UART_DLM, divisor >> 8);
	}
	uart_out(u, UART_LCR, LCR_8N1);
	uart_out(u, UART_FCR, FCR_ON_CLEARED);
	uart_out(u, UART_MCR, MCR_DTR | MCR_RTS);
}

int uart16550_getc(struct uart16550 *u)
{
	return uart_in(u, UART_LSR) & LSR_DR ? uart_in(u, UART_RBR) : -1;
}

void uart16550_putc(struct uart16550 *u, char c)
{
	u8 lsr;

	do {
		lsr = uart_in(u, UART_LSR);
		__atomic_fetch_or(&u->break_seen, lsr & LSR_BI,
				  __ATOMIC_RELAXED);
	} while (!(lsr & LSR_THRE));
	uart_out(u, UART_THR, c);
}

void uart16550_enable_rx_irq(struct uart16550 *u, u8 mcr_extra)
{
	uart_out(u, UART_MCR, MCR_DTR | MCR_RTS | mcr_extra);
	uart_out(u, UART_IER, IER_RDI | IER_RLSI);
}

/*
 * The FIFO is emptied, so that the interrupt line drops and the next
 * byte raises it again. A break arrives as a NUL byte with BI set, seen
 * here or by an output poll before.
 */
void uart16550_rx_interrupt(struct uart16550 *u)
{
	u8 lsr;

	while ((lsr = uart_in(u, UART_LSR)) & LSR_DR) {
		u8 c = uart_in(u, UART_RBR);
		unsigned int in;

		lsr |= __atomic_exchange_n(&u->break_seen, 0, __ATOMIC_RELAXED);
		in = lsr & LSR_BI && !c ? CONSOLE_BREAK : c;
		if (u->receive)
			u->receive(in);
		else
			console_receive(in);
	}
}
