// SPDX-License-Identifier: GPL-2.0
/*
 * The SBI calls the kernel makes (asm/sbi.h): the timer, IPIs, starting
 * harts and resetting the system, each one ecall to OpenSBI.
 */
#include <kernel.h>
#include <asm/sbi.h>

#define SBI_TIME_SET_TIMER	0
#define SBI_HSM_HART_START	0
#define SBI_HSM_HART_STATUS	2
#define SBI_SRST_RESET		0

struct sbiret sbi_ecall(unsigned long ext, unsigned long fid,
			unsigned long a0, unsigned long a1, unsigned long a2)
{
	register unsigned long r0 asm("a0") = a0;
	register unsigned long r1 asm("a1") = a1;
	register unsigned long r2 asm("a2") = a2;
	register unsigned long r6 asm("a6") = fid;
	register unsigned long r7 asm("a7") = ext;

	asm volatile("ecall"
		     : "+r" (r0), "+r" (r1)
		     : "r" (r2), "r" (r6), "r" (r7)
		     : "memory");
	return (struct sbiret){ .error = r0, .value = r1 };
}

void sbi_set_timer(u64 stime)
{
	sbi_ecall(SBI_EXT_TIME, SBI_TIME_SET_TIMER, stime, 0, 0);
}

void sbi_send_ipi(unsigned long hart_mask)
{
	/* hart_mask_base 0: bit n of the mask is hart n */
	sbi_ecall(SBI_EXT_IPI, SBI_IPI_SEND_IPI, hart_mask, 0, 0);
}

long sbi_hart_start(unsigned long hartid, unsigned long start,
		    unsigned long opaque)
{
	return sbi_ecall(SBI_EXT_HSM, SBI_HSM_HART_START, hartid, start,
			 opaque).error;
}

long sbi_hart_get_status(unsigned long hartid)
{
	struct sbiret r = sbi_ecall(SBI_EXT_HSM, SBI_HSM_HART_STATUS,
				    hartid, 0, 0);

	return r.error ? r.error : r.value;
}

void sbi_system_reset(unsigned long type)
{
	sbi_ecall(SBI_EXT_SRST, SBI_SRST_RESET, type, 0, 0);
}
