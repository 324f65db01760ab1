// SPDX-License-Identifier: GPL-2.0
/*
 * The 16550 UART on COM1 (drivers/uart16550.c): the console of both x86
 * arches, at 115200 baud. Output is polled; input comes by interrupt
 * (ISA IRQ 4, through the I/O APIC) once the console asks for it. And
 * the ends of the machine: its exit status, a reboot.
 */
#include <kernel.h>
#include <arch.h>
#include <console.h>
#include <irqflags.h>
#include <uart16550.h>
#include <asm/io.h>
#include <asm/x86.h>

#define COM1		0x3f8
#define COM1_IRQ	4

u8 x86_uart_inb(unsigned long port)
{
	return inb(port);
}

void x86_uart_outb(u8 val, unsigned long port)
{
	outb(val, port);
}

static struct uart16550 com1 = X86_UART(COM1);

void x86_serial_init(void)
{
	uart16550_setup(&com1, 1);		/* 115200 / 1 */
}

/* To the boot CPU, which is the one calling. */
void arch_console_rx_init(void)
{
	io_apic_route_isa_irq(COM1_IRQ, VEC_SERIAL, lapic_id());
	uart16550_enable_rx_irq(&com1, UART16550_MCR_OUT2);
}

void x86_serial_interrupt(void)
{
	uart16550_rx_interrupt(&com1);
}

/* A terminal wants CR LF; the host runner drops the CR. */
void arch_putc(char c)
{
	if (c == '\n')
		uart16550_putc(&com1, '\r');
	uart16550_putc(&com1, c);
}

/*
 * QEMU's isa-debugcon device at port 0xe9 (qemu.py attaches it) copies
 * each byte to the results file. The port is free on a PC, where the
 * bytes are dropped.
 */
#define RESULTS_PORT	0xe9
void arch_results_write(const char *line)
{
	while (*line)
		outb(*line++, RESULTS_PORT);
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
