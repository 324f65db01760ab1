// SPDX-License-Identifier: GPL-2.0
/*
 * Finding the CPUs: each enabled local APIC in the ACPI MADT, or, on
 * firmware without ACPI, each processor entry of the Intel MP table. The
 * MADT also says where the I/O APIC is and where an ISA IRQ reaches it. With
 * QEMU 7.2 and SeaBIOS only the MADT lists every CPU of "-smp N", so it is
 * read first. The FADT gives one thing more: the port of the ACPI PM timer,
 * the clock the TSC is calibrated against. Physical memory below 4 GiB is reachable as is on both x86
 * arches (both map it 1:1), except page 0, which holds the BIOS data area:
 * x86_read_bios_data() copies what we need from it before it goes.
 */
#include <kernel.h>
#include <string.h>
#include <asm/x86.h>

struct acpi_rsdp {
	char signature[8];		/* "RSD PTR " */
	u8 checksum;
	char oem_id[6];
	u8 revision;
	u32 rsdt_address;
} __packed;

struct acpi_header {
	char signature[4];
	u32 length;
	u8 revision, checksum;
	char oem_id[6], oem_table_id[8];
	u32 oem_revision, creator_id, creator_revision;
} __packed;

struct acpi_madt {
	struct acpi_header header;
	u32 lapic_address;
	u32 flags;
} __packed;

#define MADT_LOCAL_APIC		0
#define MADT_IO_APIC		1	/* [.., .., id, 0, address, gsi base] */
#define MADT_IRQ_OVERRIDE	2	/* [.., .., bus, irq, gsi, flags] */
#define MADT_LAPIC_ENABLED	1

/*
 * The few FADT fields we read, as byte offsets: the table has grown with
 * every ACPI revision, and its length says how much of it there is.
 */
#define FADT_PM_TMR_BLK		76	/* u32: the PM timer's I/O port */
#define FADT_PM_TMR_LEN		91	/* u8: 4 when there is one */
#define FADT_FLAGS		112	/* u32 */
#define FADT_TMR_VAL_EXT	(1 << 8)	/* the PM timer has 32 bits, not 24 */
#define FADT_X_PM_TMR_BLK	208	/* generic address: space id, ..., u64 at +4 */
#define GAS_SYSTEM_IO		1

struct mp_floating {
	char signature[4];		/* "_MP_" */
	u32 config_table;
	u8 length, revision, checksum, features[5];
} __packed;

struct mp_config {
	char signature[4];		/* "PCMP" */
	u16 length;
	u8 revision, checksum;
	char oem[8], product[12];
	u32 oem_table;
	u16 oem_size, entry_count;
	u32 lapic_address;
} __packed;

#define MP_PROCESSOR		0
#define MP_CPU_ENABLED		1

#define BIOS_EBDA_SEGMENT	0x40e

u32 x86_cpu_apic_id[X86_MAX_CPUS];
unsigned int x86_nr_cpus_found;

/* The empty asm hides the constant from gcc's array-bounds analysis. */
static void *phys(unsigned long addr)
{
	asm("" : "+r" (addr));
	return (void *)addr;
}

static bool checksum_ok(const void *p, size_t len)
{
	const u8 *b = p;
	u8 sum = 0;

	while (len--)
		sum += *b++;
	return sum == 0;
}

/* Look for a 16-byte aligned signature with a good checksum. */
static void *scan(unsigned long start, unsigned long len, const char *sig,
		  size_t siglen, size_t csum_len)
{
	for (unsigned long a = start; a < start + len; a += 16)
		if (!memcmp(phys(a), sig, siglen) && checksum_ok(phys(a), csum_len))
			return phys(a);
	return NULL;
}

/*
 * Where the EBDA starts, from its segment in the BIOS data area at 0x40e.
 * That word lies in page 0, which is unmapped before the CPUs are looked
 * for, so it is read early, once.
 */
static unsigned long ebda_base;

void x86_read_bios_data(void)
{
	ebda_base = (unsigned long)*(u16 *)phys(BIOS_EBDA_SEGMENT) << 4;
}

/* The tables lie in the EBDA's first KiB or in the BIOS ROM area. */
static void *find_in_bios(const char *sig, size_t siglen, size_t csum_len)
{
	void *p = NULL;

	if (ebda_base)
		p = scan(ebda_base, 1024, sig, siglen, csum_len);
	return p ? p : scan(0xe0000, 0x20000, sig, siglen, csum_len);
}

static void add_cpu(u32 apic_id)
{
	if (x86_nr_cpus_found < X86_MAX_CPUS)
		x86_cpu_apic_id[x86_nr_cpus_found++] = apic_id;
}

static void parse_madt(const struct acpi_madt *madt)
{
	const u8 *p = (const u8 *)(madt + 1);
	const u8 *end = (const u8 *)madt + madt->header.length;

	lapic_base = phys(madt->lapic_address);
	while (p + 2 <= end && p[1]) {
		/* type 0: [type, len, acpi id, apic id, flags (4 bytes)] */
		if (p[0] == MADT_LOCAL_APIC && (p[4] & MADT_LAPIC_ENABLED))
			add_cpu(p[3]);
		p += p[1];
	}
}

/* The table with signature sig that the RSDT lists, or NULL. */
static const struct acpi_header *acpi_find_table(const char *sig)
{
	const struct acpi_rsdp *rsdp = find_in_bios("RSD PTR ", 8, 20);
	const struct acpi_header *rsdt;
	const u32 *entries;
	u32 n;

	if (!rsdp)
		return NULL;
	rsdt = phys(rsdp->rsdt_address);
	entries = (const u32 *)(rsdt + 1);
	n = (rsdt->length - sizeof(*rsdt)) / 4;
	for (u32 i = 0; i < n; i++) {
		const struct acpi_header *h = phys(entries[i]);

		if (!memcmp(h->signature, sig, 4))
			return h;
	}
	return NULL;
}

static u32 get_u32(const u8 *p)
{
	return p[0] | p[1] << 8 | p[2] << 16 | (u32)p[3] << 24;
}

/* Calls fn(entry, data) for each MADT entry; false without a MADT. */
static bool madt_for_each(void (*fn)(const u8 *entry, void *data), void *data)
{
	const struct acpi_header *madt = acpi_find_table("APIC");
	const u8 *p, *end;

	if (!madt)
		return false;
	p = (const u8 *)madt + sizeof(struct acpi_madt);
	end = (const u8 *)madt + madt->length;
	for (; p + 2 <= end && p[1]; p += p[1])
		fn(p, data);
	return true;
}

/* An override moves an ISA IRQ to another GSI, or changes its trigger. */
static void note_override(const u8 *e, void *data)
{
	struct x86_irq_route *r = data;

	if (e[0] == MADT_IRQ_OVERRIDE && e[2] == 0 && e[3] == r->isa_irq) {
		r->gsi = get_u32(e + 4);
		r->flags = e[8] | e[9] << 8;
	}
}

/* Of the I/O APICs, the one whose GSIs start last at or below ours. */
static void note_io_apic(const u8 *e, void *data)
{
	struct x86_irq_route *r = data;
	u32 base = get_u32(e + 8);

	if (e[0] == MADT_IO_APIC && base <= r->gsi &&
	    (!r->io_apic || base >= r->gsi_base)) {
		r->io_apic = phys(get_u32(e + 4));
		r->gsi_base = base;
	}
}

/*
 * Where ISA IRQ isa_irq arrives: an I/O APIC and its pin. Without a MADT
 * (or without an I/O APIC in it) the PC defaults hold: one I/O APIC at
 * 0xfec00000, ISA IRQ n on its pin n, edge-triggered, active high.
 */
void x86_find_isa_irq(unsigned int isa_irq, struct x86_irq_route *r)
{
	*r = (struct x86_irq_route){ .isa_irq = isa_irq, .gsi = isa_irq };
	if (madt_for_each(note_override, r))
		madt_for_each(note_io_apic, r);
	if (!r->io_apic) {
		r->io_apic = phys(X86_IO_APIC_DEFAULT);
		r->gsi_base = 0;
	}
}

static bool find_cpus_acpi(void)
{
	const struct acpi_header *madt = acpi_find_table("APIC");

	if (!madt)
		return false;
	parse_madt((const struct acpi_madt *)madt);
	return x86_nr_cpus_found > 0;
}

static u32 fadt_u32(const struct acpi_header *fadt, u32 offset)
{
	return *(const u32 *)((const u8 *)fadt + offset);
}

/*
 * The ACPI PM timer: its I/O port and width from the FADT. Older tables
 * give the port in PM_TMR_BLK; newer ones may leave that zero and give it
 * only in X_PM_TMR_BLK, which then must name an I/O port, not memory.
 */
bool x86_find_pm_timer(u16 *port, unsigned int *bits)
{
	const struct acpi_header *fadt = acpi_find_table("FACP");
	const u8 *p = (const u8 *)fadt;
	u64 addr;

	if (!fadt || fadt->length < FADT_FLAGS + 4 || p[FADT_PM_TMR_LEN] != 4)
		return false;
	addr = fadt_u32(fadt, FADT_PM_TMR_BLK);
	if (!addr && fadt->length >= FADT_X_PM_TMR_BLK + 12 &&
	    p[FADT_X_PM_TMR_BLK] == GAS_SYSTEM_IO)
		addr = *(const u64 *)(p + FADT_X_PM_TMR_BLK + 4);
	if (!addr || addr > 0xffff)
		return false;
	*port = addr;
	*bits = fadt_u32(fadt, FADT_FLAGS) & FADT_TMR_VAL_EXT ? 32 : 24;
	return true;
}

static bool find_cpus_mptable(void)
{
	const struct mp_floating *mpf = find_in_bios("_MP_", 4, 16);
	const struct mp_config *cfg;
	const u8 *p;

	if (!mpf || !mpf->config_table)
		return false;
	cfg = phys(mpf->config_table);
	lapic_base = phys(cfg->lapic_address);
	p = (const u8 *)(cfg + 1);
	for (u16 i = 0; i < cfg->entry_count; i++) {
		/* processors are 20-byte entries, everything else 8 */
		if (p[0] == MP_PROCESSOR) {
			if (p[3] & MP_CPU_ENABLED)
				add_cpu(p[1]);
			p += 20;
		} else {
			p += 8;
		}
	}
	return x86_nr_cpus_found > 0;
}

void x86_find_cpus(void)
{
	const char *src = "ACPI MADT";

	if (!find_cpus_acpi()) {
		x86_nr_cpus_found = 0;
		src = "MP table";
		if (!find_cpus_mptable()) {
			src = "none: boot CPU only";
			x86_nr_cpus_found = 0;
			add_cpu(lapic_id());
		}
	}
	printk("smp: %u CPUs found (%s)\n", x86_nr_cpus_found, src);
}
