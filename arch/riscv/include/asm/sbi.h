/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The Supervisor Binary Interface: what the kernel asks of the M-mode
 * firmware (OpenSBI) by ecall. An extension is named by its ID in a7, a
 * function by its number in a6, the arguments go in a0-a5; the firmware
 * answers with an error code in a0 and a value in a1.
 */
#ifndef _ASM_RISCV_SBI_H
#define _ASM_RISCV_SBI_H

#include <types.h>

#define SBI_EXT_TIME	0x54494d45	/* "TIME" */
#define SBI_EXT_IPI	0x735049	/* "sPI" */
#define SBI_IPI_SEND_IPI	0		/* its send function */
#define SBI_EXT_HSM	0x48534d	/* "HSM": hart state management */
#define SBI_EXT_SRST	0x53525354	/* "SRST": system reset */

struct sbiret {
	long error;
	long value;
};

struct sbiret sbi_ecall(unsigned long ext, unsigned long fid,
			unsigned long a0, unsigned long a1, unsigned long a2);

/* The timer interrupt at time stime (of the time CSR); clears a pending one. */
void sbi_set_timer(u64 stime);
/* A supervisor software interrupt on each hart of the mask. */
void sbi_send_ipi(unsigned long hart_mask);
/* Start a stopped hart at start in S-mode, a0 = its hart ID, a1 = opaque. */
long sbi_hart_start(unsigned long hartid, unsigned long start,
		    unsigned long opaque);
/* A hart's HSM state (0 started, 1 stopped, ...), or an error below 0. */
long sbi_hart_get_status(unsigned long hartid);
/* Reset the system: SBI_RESET_SHUTDOWN or SBI_RESET_COLD. */
#define SBI_RESET_SHUTDOWN	0
#define SBI_RESET_COLD		1
void sbi_system_reset(unsigned long type);

#endif
