/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A reader of the flattened device tree (lib/fdt.c) that a loader hands
 * an arch's entry code: the Raspberry Pi firmware and QEMU on ARM,
 * OpenSBI on RISC-V. It finds a property of a node just below the root,
 * which is all the kernel asks of it (/chosen/bootargs, /memory/reg).
 */
#ifndef _FDT_H
#define _FDT_H

#include <types.h>

#define FDT_MAGIC	0xd00dfeed

/* The tree's big-endian cells. */
u32 fdt32(const void *p);
u64 fdt64(const void *p);

/* Whether blob starts with a device tree header. */
bool fdt_valid(const void *blob);

/*
 * The value of property prop of the node node just below the root; a
 * node name matches with or without its unit address ("memory" finds
 * memory@80000000). NULL if there is none; *len gets its bytes.
 */
const void *fdt_root_child_prop(const void *blob, const char *node,
				const char *prop, u32 *len);

#endif
