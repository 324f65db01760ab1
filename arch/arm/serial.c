// SPDX-License-Identifier: GPL-2.0
/*
 * The console: the PL011 UART (UART0) at 0x3F201000, 115200 baud 8N1
 * from its 48 MHz reference clock (init_uart_clock in config.txt).
 * Output is polled; input comes by interrupt once the console asks for
 * it. And the ends of the machine: semihosting SYS_EXIT_EXTENDED, which
 * makes QEMU exit with the kernel's status, and the watchdog's reset.
 */
#include <kernel.h>
#include <arch.h>
#include <console.h>
#include <irqflags.h>
#include <asm/rpi.h>

#define UART_DR		(UART0_BASE + 0x00)
#define UART_FR		(UART0_BASE + 0x18)
#define UART_IBRD	(UART0_BASE + 0x24)
#define UART_FBRD	(UART0_BASE + 0x28)
#define UART_LCRH	(UART0_BASE + 0x2c)
#define UART_CR		(UART0_BASE + 0x30)
#define UART_IMSC	(UART0_BASE + 0x38)
#define UART_ICR	(UART0_BASE + 0x44)
#define DR_BREAK	(1 << 10)	/* this byte is a break */
#define FR_BUSY		(1 << 3)
#define FR_RXFE		(1 << 4)	/* receive FIFO empty */
#define FR_TXFF		(1 << 5)	/* transmit FIFO full */
#define INT_RX		(1 << 4)	/* the FIFO reached its trigger level */
#define INT_RT		(1 << 6)	/* bytes wait below it, line quiet */
#define INT_BE		(1 << 9)	/* a break */
#define LCRH_FEN	(1 << 4)
#define LCRH_WLEN8	(3 << 5)
#define CR_UARTEN	(1 << 0)
#define CR_TXE		(1 << 8)
#define CR_RXE		(1 << 9)

#define GPFSEL(pin)	(GPIO_BASE + 4 * ((pin) / 10))

#define UART_CLOCK	48000000
#define UART_BAUD	115200

/* Three bits per pin, ten pins per register. */
void rpi_gpio_set_function(unsigned int pin, unsigned int fn)
{
	unsigned int shift = 3 * (pin % 10);
	u32 sel = readl(GPFSEL(pin));

	sel &= ~(7U << shift);
	sel |= fn << shift;
	writel(sel, GPFSEL(pin));
}

/* GPIO 14 (TX) and 15 (RX) to their PL011 function, whatever came before. */
static void uart_pins_init(void)
{
	rpi_gpio_set_function(14, GPIO_ALT0);
	rpi_gpio_set_function(15, GPIO_ALT0);
}

void arm_serial_init(void)
{
	/* Divisor in 1/64ths: clock / (16 * baud), rounded. */
	u32 div64 = (4 * UART_CLOCK + UART_BAUD / 2) / UART_BAUD;

	writel(0, UART_CR);		/* off while it is set up */
	while (readl(UART_FR) & FR_BUSY)
		;
	uart_pins_init();
	writel(0x7ff, UART_ICR);
	writel(0, UART_IMSC);		/* polled: no interrupts */
	writel(div64 >> 6, UART_IBRD);
	writel(div64 & 63, UART_FBRD);
	writel(LCRH_WLEN8 | LCRH_FEN, UART_LCRH);	/* 8N1, FIFOs on */
	writel(CR_UARTEN | CR_TXE | CR_RXE, UART_CR);
}

static void serial_putb(char c)
{
	while (readl(UART_FR) & FR_TXFF)
		;
	writel(c, UART_DR);
}

/*
 * The receive interrupts, through the BCM2835 controller's line 57 and
 * the GPU interrupt, which the local block sends to core 0. Both the
 * level and the timeout interrupt: on the board a single key stays below
 * the FIFO's trigger level and arrives by the timeout.
 */
void arch_console_rx_init(void)
{
	writel(INT_RX | INT_RT | INT_BE, UART_ICR);
	writel(INT_RX | INT_RT | INT_BE, UART_IMSC);
	writel(0, LOCAL_GPU_ROUTING);
	writel(1U << (IRQ_UART0 - 32), IC_ENABLE2);
}

/*
 * Clear first, then empty the FIFO: a byte that comes after the last
 * look raises its interrupt again, instead of being cleared unseen.
 */
void arm_serial_interrupt(void)
{
	writel(INT_RX | INT_RT | INT_BE, UART_ICR);
	while (!(readl(UART_FR) & FR_RXFE)) {
		u32 dr = readl(UART_DR);

		console_receive(dr & DR_BREAK ? CONSOLE_BREAK : dr & 0xff);
	}
}

/* A terminal wants CR LF; the host runner drops the CR. */
void arch_putc(char c)
{
	if (c == '\n')
		serial_putb('\r');
	serial_putb(c);
}

/*
 * A semihosting call: "svc 0x123456" in ARM state, operation in r0,
 * argument in r1, result in r0. QEMU with -semihosting carries it out;
 * anywhere else it reaches our SVC vector, which returns -1. The svc
 * overwrites lr of SVC mode, hence the clobber.
 */
long arm_semihost(unsigned long op, void *arg)
{
	register unsigned long r0 asm("r0") = op;
	register void *r1 asm("r1") = arg;

	asm volatile("svc 0x123456"
		     : "+r" (r0) : "r" (r1) : "memory", "lr", "cc");
	return r0;
}

/*
 * To the chardev QEMU's -semihosting-config names (qemu.py); on the board
 * the call fails, as every semihosting call does there.
 */
void arch_results_write(const char *line)
{
	arm_semihost(SEMIHOST_SYS_WRITE0, (void *)line);
}

#define ADP_STOPPED_APPLICATION_EXIT	0x20026

/*
 * SYS_EXIT_EXTENDED passes the status itself; plain SYS_EXIT only tells
 * success from failure. On the board nothing takes the call: stop here.
 */
void __noreturn arch_exit(int status)
{
	unsigned long block[2] = { ADP_STOPPED_APPLICATION_EXIT, status };

	while (readl(UART_FR) & FR_BUSY)
		;			/* let the last line leave the UART */
	arm_semihost(SEMIHOST_SYS_EXIT_EXTENDED, block);
	arch_local_irq_disable();
	for (;;)
		arch_halt_cpu();
}

void arch_halt_cpu(void)
{
	asm volatile("dsb sy\n\twfi" ::: "memory");
}

/* The power manager's watchdog: every write carries its password. */
#define PM_RSTC			(PM_BASE + 0x1c)
#define PM_WDOG			(PM_BASE + 0x24)
#define PM_PASSWORD		0x5a000000
#define PM_PASSWORD_MASK	0xff000000
#define PM_RSTC_WRCFG_MASK	0x30
#define PM_RSTC_FULL_RESET	0x20
#define PM_WDOG_TICKS		10	/* of about 16 us */

/* Arm the watchdog for a moment from now and let it reset the chip. */
void __noreturn arch_reboot(void)
{
	u32 rstc = readl(PM_RSTC) & ~(PM_PASSWORD_MASK | PM_RSTC_WRCFG_MASK);

	arch_local_irq_disable();
	writel(PM_PASSWORD | PM_WDOG_TICKS, PM_WDOG);
	writel(PM_PASSWORD | rstc | PM_RSTC_FULL_RESET, PM_RSTC);
	for (;;)
		arch_halt_cpu();
}
