// SPDX-License-Identifier: GPL-2.0
/*
 * The libgcc helpers the kernel needs, for CONFIG_X86_REGPARM. GCC calls
 * its helpers (64-bit division, population count) with the calling
 * convention of -mregparm, and the toolchain's libgcc is built for the
 * stack one: so with -mregparm=3 the kernel brings its own, compiled with
 * the kernel's flags. Defined here, the linker takes none from libgcc.
 */
#include <types.h>

u64 __udivmoddi4(u64 n, u64 d, u64 *rem);
u64 __udivdi3(u64 n, u64 d);
u64 __umoddi3(u64 n, u64 d);
s64 __divdi3(s64 n, s64 d);
s64 __moddi3(s64 n, s64 d);
int __popcountsi2(u32 x);

/*
 * Quotient and remainder (GCC calls it for a / and a % of the same two
 * numbers): shift-and-subtract long division, a bit of the quotient per
 * step.
 */
u64 __udivmoddi4(u64 n, u64 d, u64 *rem)
{
	u64 q = 0, r = 0;

	if (!d)
		return 1 / (u32)d;	/* the divide error of a real division */
	if (!(d >> 32) && !(n >> 32)) {
		*rem = (u32)n % (u32)d;
		return (u32)n / (u32)d;
	}
	for (int bit = 63; bit >= 0; bit--) {
		r = (r << 1) | ((n >> bit) & 1);
		if (r >= d) {
			r -= d;
			q |= 1ULL << bit;
		}
	}
	*rem = r;
	return q;
}

u64 __udivdi3(u64 n, u64 d)
{
	u64 rem;

	return __udivmoddi4(n, d, &rem);
}

u64 __umoddi3(u64 n, u64 d)
{
	u64 rem;

	__udivmoddi4(n, d, &rem);
	return rem;
}

/* C's rules: the quotient rounds toward zero, the remainder has n's sign. */
s64 __divdi3(s64 n, s64 d)
{
	u64 rem, q = __udivmoddi4(n < 0 ? -(u64)n : n, d < 0 ? -(u64)d : d, &rem);

	return (n < 0) != (d < 0) ? -(s64)q : (s64)q;
}

s64 __moddi3(s64 n, s64 d)
{
	u64 rem;

	__udivmoddi4(n < 0 ? -(u64)n : n, d < 0 ? -(u64)d : d, &rem);
	return n < 0 ? -(s64)rem : (s64)rem;
}

int __popcountsi2(u32 x)
{
	int n = 0;

	for (; x; x &= x - 1)
		n++;
	return n;
}
