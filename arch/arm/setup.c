// SPDX-License-Identifier: GPL-2.0
/*
 * ARM early setup: from head.S to start_kernel(). Finds the kernel
 * command line and reports the RAM.
 *
 * The command line comes from whatever started us: the firmware passes
 * a device tree (/chosen/bootargs, from cmdline.txt) or ATAGS in r2; QEMU
 * does the same for a raw image (-kernel kernel7.img), but gives an ELF
 * nothing at all, so then we ask QEMU through semihosting.
 */
#include <kernel.h>
#include <string.h>
#include <arch.h>
#include <mm.h>
#include <fdt.h>
#include <asm/rpi.h>

extern char __kernel_start[], __kernel_end[];
extern u32 page_table_low[];

#define ATAG_CORE	0x54410001
#define ATAG_CMDLINE	0x54410009

/*
 * The command line tag is sized to its text: the NUL lies in its last
 * word. A NUL well before that means the tag was written over after the
 * loader made it. QEMU's raspi boards do that: their boot code for the
 * other cores goes to 0x300, over the ATAGS at 0x100 when the command
 * line is longer than 467 characters. Refuse the remains.
 */
static const char *atag_cmdline_checked(const u32 *tag)
{
	const char *text = (const char *)&tag[2];
	size_t room = (tag[0] - 2) * sizeof(u32);
	size_t len = strnlen(text, room);

	if (len == room || len + sizeof(u32) < room)
		panic("ATAGS command line damaged: its tag holds %zu bytes, "
		      "its text ends after %zu (QEMU raspi: boot the ELF for "
		      "a long command line)", room, len);
	return text;
}

/* Each ATAG: its size in words, its type, its data. ATAG_CORE comes first. */
static const char *atags_cmdline(const u32 *tag)
{
	int n;

	if (tag[1] != ATAG_CORE)
		return NULL;
	for (n = 0; n < 64 && tag[0] >= 2; n++, tag += tag[0])
		if (tag[1] == ATAG_CMDLINE)
			return atag_cmdline_checked(tag);
	return NULL;
}

/* r2 from the loader, if it points at ATAGS or a device tree in RAM. */
static const char *loader_cmdline(unsigned long params)
{
	u32 len;

	if (params & 3 || params >= RAM_END - 16)
		return NULL;
	if (fdt_valid((void *)params))
		return fdt_root_child_prop((void *)params, "chosen",
					   "bootargs", &len);
	return atags_cmdline((const u32 *)params);
}

/*
 * QEMU's answer is the kernel's file name, then the -append string. The
 * buffer leaves room for a long path besides a full command line; what
 * does not fit is refused by QEMU as a whole (the call fails, errno
 * E2BIG), so refuse it here with a message instead of booting without
 * options. NULL when there is no semihosting host (the board: our own
 * vector fails every call, SYS_ERRNO included).
 */
#define SEMIHOST_PATH_ROOM	4096
#define SEMIHOST_E2BIG		7

static const char *semihost_cmdline(void)
{
	static char buf[SEMIHOST_PATH_ROOM + COMMAND_LINE_SIZE];
	struct {
		char *buf;
		unsigned long size;
	} block = { buf, sizeof(buf) };
	char *args;

	if (arm_semihost(SEMIHOST_SYS_GET_CMDLINE, &block) != 0) {
		if (arm_semihost(SEMIHOST_SYS_ERRNO, NULL) == SEMIHOST_E2BIG)
			panic("semihosting command line longer than %zu bytes "
			      "(with the kernel's file name): refused",
			      sizeof(buf) - 1);
		return NULL;
	}
	buf[sizeof(buf) - 1] = '\0';
	args = strchr(buf, ' ');
	return args ? args + 1 : "";
}

/*
 * Page 0 leaves the map, so that a NULL pointer faults: a load or store
 * as a data abort, a call as a prefetch abort, each naming address 0.
 * head.S mapped it through page_table_low. The entry is cleaned to memory
 * (table walks of cores that have not turned on their caches yet read it
 * there), and its TLB entry dropped on every core.
 */
static void unmap_page0(void)
{
	page_table_low[0] = 0;
	asm volatile("dsb ishst\n\t"
		     "mcr p15, 0, %0, c7, c10, 1\n\t"	/* DCCMVAC */
		     "dsb ish\n\t"
		     "mcr p15, 0, %1, c8, c3, 3\n\t"	/* TLBIMVAAIS */
		     "mcr p15, 0, %1, c7, c5, 6\n\t"	/* BPIALL */
		     "dsb ish\n\t"
		     "isb"
		     : : "r" (page_table_low), "r" (0UL) : "memory");
}

void __noreturn arm_start(unsigned long boot_params)
{
	const char *cmdline;

	arm_serial_init();
	cmdline = loader_cmdline(boot_params);
	if (!cmdline)
		cmdline = semihost_cmdline();
	if (cmdline)
		setup_command_line(cmdline);
	unmap_page0();		/* the ATAGS or DTB there are read */

	/* The Pi 2 has 1 GiB; the VideoCore takes the top of it. */
	memblock_add(0, RAM_END);
	/* The first pages hold the loader's ATAGS/DTB, then comes the kernel. */
	memblock_reserve(0, (uintptr)__kernel_end);
	start_kernel();
}
