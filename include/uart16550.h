/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The 16550 UART (drivers/uart16550.c), wherever it sits: on a PC's I/O
 * ports (COM1, COM2), memory-mapped on RISC-V's QEMU virt. The arch says
 * how a register is reached; the driver knows the chip.
 */
#ifndef _UART16550_H
#define _UART16550_H

#include <types.h>

struct uart16550 {
	unsigned long base;
	unsigned int reg_shift;		/* register i at base + (i << shift) */
	u8 (*read)(unsigned long addr);
	void (*write)(u8 val, unsigned long addr);
	/*
	 * Reading the line status clears its break bit, and output polls
	 * it: a break seen there is kept for the receive interrupt. A word,
	 * not a byte: RISC-V has no byte-wide atomics.
	 */
	unsigned int break_seen;
	/* Where received bytes go: NULL for the console (console_receive). */
	void (*receive)(unsigned int c);
};

/* Polled, 8N1; divisor 0 keeps the baud rate the firmware set. */
void uart16550_setup(struct uart16550 *u, unsigned int divisor);
int uart16550_getc(struct uart16550 *u);	/* -1: nothing received */
void uart16550_putc(struct uart16550 *u, char c);
/* Receive interrupts on; mcr_extra: what else the modem control needs. */
void uart16550_enable_rx_irq(struct uart16550 *u, u8 mcr_extra);
/* Everything the FIFO holds to the console; a break as CONSOLE_BREAK. */
void uart16550_rx_interrupt(struct uart16550 *u);

#define UART16550_MCR_OUT2	0x08	/* on a PC, connects the IRQ line */

#endif
