// SPDX-License-Identifier: GPL-2.0
/*
 * Finding the CPUs: each enabled local APIC in the ACPI MADT, or, on
 * firmware without ACPI, each processor entry of the Intel MP table. With
 * QEMU 7.2 and SeaBIOS only the MADT lists every CPU of "-smp N", so it is
 * read first. Physical memory below 4 GiB is reachable as is on both x86
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
#define MADT_LAPIC_ENABLED	1

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

static bool find_cpus_acpi(void)
{
	const struct acpi_rsdp *rsdp = find_in_bios("RSD PTR ", 8, 20);
	const struct acpi_header *rsdt;
	u32 n;

	if (!rsdp)
		return false;
	rsdt = phys(rsdp->rsdt_address);
	n = (rsdt->length - sizeof(*rsdt)) / 4;
	for (u32 i = 0; i < n; i++) {
		const u32 *entries = (const u32 *)(rsdt + 1);
		const struct acpi_header *h = phys(entries[i]);

		if (!memcmp(h->signature, "APIC", 4)) {
			parse_madt((const struct acpi_madt *)h);
			return x86_nr_cpus_found > 0;
		}
	}
	return false;
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
