/* SPDX-License-Identifier: GPL-2.0 */
/* The tick (jiffies, HZ) and the monotonic nanosecond clock. */
#ifndef _TIME_H
#define _TIME_H

#include <types.h>

#define HZ			CONFIG_HZ
#define NSEC_PER_USEC		1000ULL
#define NSEC_PER_MSEC		1000000ULL
#define NSEC_PER_SEC		1000000000ULL

/* Ticks since boot, counted by the boot CPU's timer interrupt. */
extern volatile unsigned long jiffies;

/* Wrap-safe comparisons of jiffies values. */
#define time_after(a, b)	((long)((b) - (a)) < 0)
#define time_before(a, b)	time_after(b, a)
#define time_after_eq(a, b)	((long)((a) - (b)) >= 0)
#define time_before_eq(a, b)	time_after_eq(b, a)

static inline unsigned long msecs_to_jiffies(unsigned int ms)
{
	return ((unsigned long)ms * HZ + 999) / 1000;
}

static inline unsigned int jiffies_to_msecs(unsigned long j)
{
	return j * (1000 / HZ);
}

/*
 * A counter's ticks at hz as nanoseconds (an arch's clock), split so
 * that ticks * 10^9 cannot overflow 64 bits.
 */
static inline u64 ticks_to_ns(u64 ticks, u64 hz)
{
	return ticks / hz * NSEC_PER_SEC + ticks % hz * NSEC_PER_SEC / hz;
}

/* Nanoseconds since boot; never goes back, on any CPU. */
u64 ktime_get_ns(void);

/* Spin for a while without sleeping (calibrated against the clock). */
void ndelay(unsigned long ns);
void udelay(unsigned long us);
void mdelay(unsigned long ms);

#endif
