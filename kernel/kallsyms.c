// SPDX-License-Identifier: GPL-2.0
/*
 * Address to symbol, from the table scripts/kallsyms.py generates at link
 * time: offsets of every text symbol from kallsyms_base, sorted, and their
 * names, NUL-separated, in the same order.
 */
#include <kernel.h>
#include <string.h>
#include <kallsyms.h>

/* Weak and empty in the first link, before the table exists. */
extern const unsigned long kallsyms_base __weak;
extern const u32 kallsyms_num __weak;
extern const u32 kallsyms_end __weak;
extern const u32 kallsyms_offsets[] __weak;
extern const char kallsyms_names[] __weak;

static const char *name_of(u32 index)
{
	const char *p = kallsyms_names;

	while (index--)
		p += strlen(p) + 1;
	return p;
}

/* Index of the last symbol at or below addr, or -1. */
static long find_index(unsigned long addr)
{
	long lo = 0, hi;
	unsigned long off;

	if (!&kallsyms_num || !kallsyms_num || addr < kallsyms_base)
		return -1;
	off = addr - kallsyms_base;
	if (off >= kallsyms_end)
		return -1;
	hi = kallsyms_num - 1;
	while (lo < hi) {
		long mid = (lo + hi + 1) / 2;

		if (kallsyms_offsets[mid] <= off)
			lo = mid;
		else
			hi = mid - 1;
	}
	return lo;
}

const char *kallsyms_lookup(unsigned long addr, unsigned long *size,
			    unsigned long *offset)
{
	long i = find_index(addr);
	u32 start, end;

	if (i < 0)
		return NULL;
	start = kallsyms_offsets[i];
	end = (u32)i + 1 < kallsyms_num ? kallsyms_offsets[i + 1] : kallsyms_end;
	if (size)
		*size = end - start;
	if (offset)
		*offset = addr - kallsyms_base - start;
	return name_of(i);
}

int sprint_symbol(char *buf, size_t size, unsigned long addr)
{
	unsigned long symsize, offset;
	const char *name = kallsyms_lookup(addr, &symsize, &offset);

	if (!name)
		return scnprintf(buf, size, "%#lx", addr);
	return scnprintf(buf, size, "%s+%#lx/%#lx", name, offset, symsize);
}

unsigned long kallsyms_lookup_name(const char *name)
{
	const char *p = kallsyms_names;

	if (!&kallsyms_num)
		return 0;
	for (u32 i = 0; i < kallsyms_num; i++) {
		if (!strcmp(p, name))
			return kallsyms_base + kallsyms_offsets[i];
		p += strlen(p) + 1;
	}
	return 0;
}
