// SPDX-License-Identifier: GPL-2.0
/*
 * The console on QEMU virt's ns16550 UART (drivers/uart16550.c), at
 * 0x10000000 with byte-wide registers; its receive interrupt comes
 * through the PLIC. virt has no other UART: the gdb stub shares this
 * one with the console (below). And the ends of the machine: semihosting's
 * SYS_EXIT_EXTENDED makes QEMU exit with the kernel's status, SBI's
 * system reset reboots.
 */
#include <kernel.h>
#include <arch.h>
#include <console.h>
#include <uart16550.h>
#include <thread_info.h>
#include <asm/riscv.h>
#include <asm/csr.h>
#include <asm/sbi.h>
#include <asm/spinlock.h>
#include <kgdb.h>

/*
 * The PLIC: a priority per interrupt source, and per context (a hart in
 * one mode; on virt, hart h's S-mode is context 2h + 1) an enable bit per
 * source, a priority threshold, and the claim/complete register.
 */
#define PLIC_PRIORITY(irq)	(VIRT_PLIC_BASE + 4 * (irq))
#define PLIC_ENABLE(ctx)	(VIRT_PLIC_BASE + 0x2000 + 0x80 * (ctx))
#define PLIC_THRESHOLD(ctx)	(VIRT_PLIC_BASE + 0x200000 + 0x1000 * (ctx))
#define PLIC_CLAIM(ctx)		(PLIC_THRESHOLD(ctx) + 4)

static unsigned int plic_context(unsigned int cpu)
{
	return 2 * cpu_hartid[cpu] + 1;
}

static u8 mmio_readb(unsigned long addr)
{
	return readb(addr);
}

static void mmio_writeb(u8 val, unsigned long addr)
{
	writeb(val, addr);
}

static struct uart16550 uart0 = {
	.base = VIRT_UART0_BASE,
	.read = mmio_readb,
	.write = mmio_writeb,
};

/* The baud rate is the firmware's (OpenSBI set it up for its own output). */
void riscv_serial_init(void)
{
	uart16550_setup(&uart0, 0);
}

/*
 * What marks gdb's bytes on the line the console shares with the gdb
 * stub (below): the console never sends it, so a console line can hold
 * no false mark.
 */
#define KGDB_MARK	0x10	/* DLE, "data link escape" */

/* A terminal wants CR LF; the host runner drops the CR. */
void arch_putc(char c)
{
	if (c == '\n')
		uart16550_putc(&uart0, '\r');
	uart16550_putc(&uart0, c == KGDB_MARK ? '?' : c);
}

/*
 * A context lets through the sources it enables whose priority is above
 * its threshold: threshold 0, and each source enabled on its own.
 */
void riscv_plic_init_cpu(unsigned int cpu)
{
	writel(0, PLIC_THRESHOLD(plic_context(cpu)));
}

/* To the boot CPU, which is the one calling. */
void arch_console_rx_init(void)
{
	unsigned int ctx = plic_context(smp_processor_id());

	writel(1, PLIC_PRIORITY(VIRT_UART0_IRQ));
	writel(readl(PLIC_ENABLE(ctx)) | 1U << VIRT_UART0_IRQ, PLIC_ENABLE(ctx));
	uart16550_enable_rx_irq(&uart0, 0);
	csr_set(sie, IE_SEIE);
}

/*
 * The receive FIFO's readers: the console's interrupt, and the gdb
 * stub's polls from any CPU. A raw lock: gdb may plant a breakpoint in
 * the spinlock code, and the stub's poll must never trap holding this.
 */
static arch_spinlock_t rx_lock = __ARCH_SPIN_LOCK_UNLOCKED;

/* Claim, serve, complete: the PLIC raises the line again for the next. */
void riscv_serial_interrupt(void)
{
	unsigned int ctx = plic_context(smp_processor_id());
	u32 irq;

	while ((irq = readl(PLIC_CLAIM(ctx))) != 0) {
		if (irq == VIRT_UART0_IRQ) {
			arch_spin_lock(&rx_lock);
			uart16550_rx_interrupt(&uart0);
			arch_spin_unlock(&rx_lock);
		}
		writel(irq, PLIC_CLAIM(ctx));
	}
}

#ifdef CONFIG_KGDB
/*
 * The gdb stub on the console's UART, as Linux's kgdboc shares a tty.
 * While the kernel runs, the console's interrupt reads the UART and
 * hands gdb's two ways in, a break (0x03) and a packet's '$', to the
 * stub (the tick's poll takes it from here: kgdb_poll_break); every
 * other byte stays the console's, but the rest of a packet whose '$'
 * went to the stub, which asks gdb to send it again. A CPU whose tick
 * polls reads the UART too (the one the interrupt goes to may have its
 * interrupts off), and passes the console's bytes on the same way.
 * While the kernel is stopped for gdb, every byte is gdb's.
 *
 * Output is not split, but marked: each packet and each ack the stub
 * sends follows a KGDB_MARK, by which the host's splitter
 * (scripts/mutexos/portsplit.py) tells them from the console's text
 * wherever they fall: after the prompt, or in a line that a breakpoint
 * stopped half-way. gdb itself skips the mark as it skips the text.
 */
static int handed = -1;		/* a break or '$' for the stub, or -1 */
/*
 * The rest of a packet whose '$' the stub took, dropped: 1 in its body,
 * then 2 and 3 at its checksum's digits.
 */
static int dropping;

static bool for_stub(unsigned int c)
{
	return c == 0x03 || c == '$';
}

static bool drop_packet_byte(unsigned int c)
{
	if (!dropping)
		return false;
	if (dropping == 1 && c != '#')
		return true;
	dropping = dropping == 3 ? 0 : dropping + 1;
	return true;
}

/* The console's receive path while the stub listens; rx_lock held. */
static void receive_shared(unsigned int c)
{
	if (drop_packet_byte(c))
		return;
	if (for_stub(c)) {
		handed = c;
		dropping = c == '$';
	} else {
		console_receive(c);
	}
}

const char arch_kgdb_port_name[] = "the console's UART, shared (gdb's packets marked in the console's text)";

void arch_kgdb_io_init(void)
{
	arch_spin_lock(&rx_lock);
	uart0.receive = receive_shared;
	arch_spin_unlock(&rx_lock);
}

/*
 * Stopped, the stub reads alone: the other CPUs are parked (or spin with
 * interrupts off), and no interrupt comes. It takes no lock then, since
 * it may have stopped in the port's code, holding rx_lock (a breakpoint
 * on uart16550_getc).
 */
int arch_kgdb_io_getc(void)
{
	int c;

	if (kgdb_stopped()) {
		dropping = 0;
		c = handed;
		handed = -1;
		return c >= 0 ? c : uart16550_getc(&uart0);
	}
	arch_spin_lock(&rx_lock);
	c = handed;
	handed = -1;
	if (c < 0) {
		c = uart16550_getc(&uart0);
		if (c >= 0 && drop_packet_byte(c))
			c = -1;
		else if (c == '$')
			dropping = 1;
	}
	arch_spin_unlock(&rx_lock);
	if (c >= 0 && !for_stub(c)) {
		console_receive(c);
		return -1;
	}
	return c;
}

/* Where the stub is in what it sends: a packet's body, its checksum. */
static bool sending_body;
static int checksum_digits;

void arch_kgdb_io_putc(char c)
{
	if (checksum_digits) {
		checksum_digits--;
	} else if (sending_body) {
		if (c == '#') {
			sending_body = false;
			checksum_digits = 2;
		}
	} else {
		uart16550_putc(&uart0, KGDB_MARK);	/* a packet's '$' or an ack */
		sending_body = c == '$';
	}
	uart16550_putc(&uart0, c);
}
#endif

#define SEMIHOST_SYS_WRITE0		0x04
#define SEMIHOST_SYS_EXIT_EXTENDED	0x20
#define ADP_STOPPED_APPLICATION_EXIT	0x20026

/*
 * The semihosting call: an ebreak between two no-op shifts, which QEMU
 * recognizes as a whole; uncompressed, and in one page (QEMU reads the
 * instructions around the ebreak).
 */
static int riscv_semihost(unsigned long op, void *param)
{
	register unsigned long a0 asm("a0") = op;
	register unsigned long a1 asm("a1") = (unsigned long)param;

	asm volatile(".option push\n\t"
		     ".option norvc\n\t"
		     ".balign 16\n\t"
		     "slli zero, zero, 0x1f\n\t"
		     "ebreak\n\t"
		     "srai zero, zero, 7\n\t"
		     ".option pop"
		     : "+r" (a0) : "r" (a1) : "memory");
	return a0;
}

/*
 * To the chardev QEMU's -semihosting-config names (qemu.py). virt is the
 * only machine: QEMU always has semihosting on (arch.mk).
 */
void arch_results_write(const char *line)
{
	riscv_semihost(SEMIHOST_SYS_WRITE0, (void *)line);
}

void __noreturn arch_exit(int status)
{
	unsigned long block[2] = { ADP_STOPPED_APPLICATION_EXIT, status };

	riscv_semihost(SEMIHOST_SYS_EXIT_EXTENDED, block);
	/* No semihosting host (a board): the firmware powers off. */
	sbi_system_reset(SBI_RESET_SHUTDOWN);
	for (;;)
		asm volatile("wfi");
}

void arch_halt_cpu(void)
{
	asm volatile("wfi" ::: "memory");
}

void __noreturn arch_reboot(void)
{
	sbi_system_reset(SBI_RESET_COLD);
	panic("reboot: the firmware has no SBI system reset");
}
