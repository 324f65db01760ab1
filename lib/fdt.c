// SPDX-License-Identifier: GPL-2.0
/*
 * The flattened device tree, read in place. Its header gives the offsets
 * of the structure block, a stream of big-endian tokens (a node begins
 * with its name, holds properties and nodes, and ends), and of the
 * strings block that holds the property names. The root node is depth
 * 1, so its children are the nodes at depth 2.
 */
#include <kernel.h>
#include <string.h>
#include <fdt.h>

#define FDT_BEGIN_NODE	1
#define FDT_END_NODE	2
#define FDT_PROP	3
#define FDT_NOP		4

u32 fdt32(const void *p)
{
	const u8 *b = p;

	return (u32)b[0] << 24 | b[1] << 16 | b[2] << 8 | b[3];
}

u64 fdt64(const void *p)
{
	return (u64)fdt32(p) << 32 | fdt32((const u8 *)p + 4);
}

bool fdt_valid(const void *blob)
{
	return fdt32(blob) == FDT_MAGIC;
}

/* "memory@80000000" is the node "memory". */
static bool node_named(const char *name, const char *wanted)
{
	size_t n = strlen(wanted);

	return !strncmp(name, wanted, n) && (name[n] == '\0' || name[n] == '@');
}

const void *fdt_root_child_prop(const void *blob, const char *node,
				const char *prop, u32 *len)
{
	const u8 *fdt = blob;
	const u8 *p = fdt + fdt32(fdt + 8), *end = fdt + fdt32(fdt + 4);
	const char *strings = (const char *)fdt + fdt32(fdt + 12);
	int depth = 0;
	bool inside = false;

	while (p + 4 <= end) {
		u32 token = fdt32(p);

		p += 4;
		switch (token) {
		case FDT_BEGIN_NODE:
			depth++;
			if (depth == 2)
				inside = node_named((const char *)p, node);
			p += ALIGN(strlen((const char *)p) + 1, 4);
			break;
		case FDT_END_NODE:
			depth--;
			break;
		case FDT_PROP:
			if (depth == 2 && inside &&
			    !strcmp(strings + fdt32(p + 4), prop)) {
				*len = fdt32(p);
				return p + 8;
			}
			p += 8 + ALIGN(fdt32(p), 4);
			break;
		case FDT_NOP:
			break;
		default:
			return NULL;
		}
	}
	return NULL;
}
