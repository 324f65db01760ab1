// SPDX-License-Identifier: GPL-2.0
/*
 * The firmware stand-in's device tree: as small as the kernel can read,
 * a root node with /chosen/bootargs. The firmware makes its tree from a
 * .dtb file and cmdline.txt; here the command line is QEMU's -append,
 * asked for by semihosting (SYS_GET_CMDLINE answers "<file> <append>").
 * A flattened device tree is big-endian: a header, an empty memory
 * reservation map, a structure block of tokens, a strings block.
 */
#include <types.h>

#define FDT_MAGIC	0xd00dfeed
#define FDT_BEGIN_NODE	1
#define FDT_END_NODE	2
#define FDT_PROP	3
#define FDT_END		9
#define FDT_HEADER_SIZE	40
#define FDT_RSVMAP_SIZE	16	/* one terminating entry */

#define SYS_GET_CMDLINE	0x15
#define SCRATCH_ROOM	8192	/* QEMU's file name, then the command line */

/*
 * From fwshim.lds: the tree at 0x100, where the firmware puts its ATAGS
 * or tree, and a scratch buffer for QEMU's answer in RAM the kernel will
 * reuse (it is read before the kernel starts).
 */
extern u8 fwshim_dtb[];
extern char fwshim_scratch[];

static long semihost(unsigned long op, void *arg)
{
	register unsigned long r0 asm("r0") = op;
	register void *r1 asm("r1") = arg;

	asm volatile("svc 0x123456" : "+r" (r0) : "r" (r1) : "memory", "lr");
	return r0;
}

static const char *get_cmdline(void)
{
	struct {
		char *buf;
		unsigned long size;
	} block = { fwshim_scratch, SCRATCH_ROOM };
	const char *p = fwshim_scratch;

	if (semihost(SYS_GET_CMDLINE, &block))
		return "";
	while (*p && *p != ' ')		/* the file name */
		p++;
	return *p ? p + 1 : p;
}

static u8 *put32(u8 *p, u32 v)
{
	p[0] = v >> 24;
	p[1] = v >> 16;
	p[2] = v >> 8;
	p[3] = v;
	return p + 4;
}

/* A string with its NUL, padded with NULs to a multiple of 4 bytes. */
static u8 *put_padded(u8 *p, const char *s, u32 len)
{
	u32 i;

	for (i = 0; i < len; i++)
		*p++ = s[i];
	do {
		*p++ = 0;
	} while (++i & 3);
	return p;
}

static u32 length(const char *s)
{
	u32 n = 0;

	while (s[n])
		n++;
	return n;
}

static u8 *put_structure(u8 *p, const char *args)
{
	u32 len = length(args);

	p = put32(p, FDT_BEGIN_NODE);
	p = put_padded(p, "", 0);		/* the root's name is empty */
	p = put32(p, FDT_BEGIN_NODE);
	p = put_padded(p, "chosen", 6);
	p = put32(p, FDT_PROP);
	p = put32(p, len + 1);			/* the value's size, NUL in */
	p = put32(p, 0);		/* its name: "bootargs", at offset 0 */
	p = put_padded(p, args, len);
	p = put32(p, FDT_END_NODE);
	p = put32(p, FDT_END_NODE);
	return put32(p, FDT_END);
}

void fwshim_write_dtb(void)
{
	static const char strings[] = "bootargs";
	u8 *dt = fwshim_dtb;
	u8 *structure = dt + FDT_HEADER_SIZE + FDT_RSVMAP_SIZE;
	u8 *end = put_structure(structure, get_cmdline());
	u32 size_struct = end - structure;

	end = put_padded(end, strings, sizeof(strings) - 1);
	put32(dt, FDT_MAGIC);
	put32(dt + 4, end - dt);			/* totalsize */
	put32(dt + 8, structure - dt);			/* off_dt_struct */
	put32(dt + 12, structure + size_struct - dt);	/* off_dt_strings */
	put32(dt + 16, FDT_HEADER_SIZE);		/* off_mem_rsvmap */
	put32(dt + 20, 17);				/* version */
	put32(dt + 24, 16);				/* last compatible */
	put32(dt + 28, 0);				/* boot CPU */
	put32(dt + 32, sizeof(strings));		/* size_dt_strings */
	put32(dt + 36, size_struct);			/* size_dt_struct */
	for (int i = 0; i < FDT_RSVMAP_SIZE; i++)
		dt[FDT_HEADER_SIZE + i] = 0;
}
