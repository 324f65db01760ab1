// SPDX-License-Identifier: GPL-2.0
/* x86_64 part of SMP start-up: placing the trampoline and its stack. */
#include <kernel.h>
#include <string.h>
#include <asm/x86.h>

extern char tramp_start[], tramp_end[], tramp_stack[];

void x86_trampoline_install(void)
{
	memcpy((void *)TRAMPOLINE_ADDR, tramp_start, tramp_end - tramp_start);
}

/* The trampoline loads it as ESP, in 32-bit mode: stacks lie below 4 GiB. */
void x86_trampoline_set(unsigned long stack_top)
{
	u64 *slot = (u64 *)(TRAMPOLINE_ADDR + (tramp_stack - tramp_start));

	*slot = stack_top;
}
