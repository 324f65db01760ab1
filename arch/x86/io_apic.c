// SPDX-License-Identifier: GPL-2.0
/*
 * The I/O APIC: it turns the PC's external interrupt lines (the ISA IRQs
 * of the old 8259 PICs, which stay masked) into vectors sent to a local
 * APIC. Only the console's COM1 uses it. A redirection table entry per
 * pin says which vector, to which CPU, and how the line signals.
 */
#include <kernel.h>
#include <asm/io.h>
#include <asm/x86.h>

#define IOAPIC_REGSEL		0x00	/* which register the window shows */
#define IOAPIC_WINDOW		0x10
#define IOAPIC_REDIR(pin)	(0x10 + 2 * (pin))	/* low; high at + 1 */
#define REDIR_ACTIVE_LOW	(1 << 13)
#define REDIR_LEVEL		(1 << 15)

static void io_apic_write(volatile u8 *base, u32 reg, u32 v)
{
	writel(reg, base + IOAPIC_REGSEL);
	writel(v, base + IOAPIC_WINDOW);
}

/* Fixed delivery, physical destination, unmasked. */
void io_apic_route_isa_irq(unsigned int isa_irq, u8 vector, u32 apic_id)
{
	struct x86_irq_route r;
	u32 low = vector, pin;

	x86_find_isa_irq(isa_irq, &r);
	pin = r.gsi - r.gsi_base;
	if ((r.flags & MADT_POLARITY_LOW) == MADT_POLARITY_LOW)
		low |= REDIR_ACTIVE_LOW;
	if ((r.flags & MADT_TRIGGER_LEVEL) == MADT_TRIGGER_LEVEL)
		low |= REDIR_LEVEL;
	/* The destination first: the entry goes live with its low word. */
	io_apic_write(r.io_apic, IOAPIC_REDIR(pin) + 1, apic_id << 24);
	io_apic_write(r.io_apic, IOAPIC_REDIR(pin), low);
}
