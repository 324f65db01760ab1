/* SPDX-License-Identifier: GPL-2.0 */
/* Compiler attributes and helpers, named as in Linux. */
#ifndef _COMPILER_H
#define _COMPILER_H

#define __used			__attribute__((__used__))
#define __unused		__attribute__((__unused__))
#define __section(s)		__attribute__((__section__(s)))
#define __aligned(x)		__attribute__((__aligned__(x)))
#define __packed		__attribute__((__packed__))
#define __noreturn		__attribute__((__noreturn__))
#define __noinline		__attribute__((__noinline__))
#define __always_inline		inline __attribute__((__always_inline__))
#define __weak			__attribute__((__weak__))
#define __printf(a, b)		__attribute__((__format__(printf, a, b)))
#define __maybe_unused		__attribute__((__unused__))
#define noinline		__noinline

#define likely(x)		__builtin_expect(!!(x), 1)
#define unlikely(x)		__builtin_expect(!!(x), 0)

/*
 * Code the kernel's gdb stub runs on a trap before it can tell a trap of
 * its own (kernel/debug/kgdb.c): gdb may plant no breakpoint in it.
 */
#define __kgdb_nobreak		__section(".text.kgdb_nobreak")

#define barrier()		__asm__ __volatile__("" ::: "memory")

/* The caller's return address: where a lock was taken, for the debug code. */
#define _RET_IP_		((unsigned long)__builtin_return_address(0))
#define _THIS_IP_		({ __label__ __here; __here: \
				   (unsigned long)&&__here; })

/*
 * Marked accesses: one load or store the compiler must not tear, merge or
 * invent. Under CONFIG_KCSAN a volatile access is instrumented as
 * __tsan_volatile_*, which the race detector never counts as a data race
 * with another marked access (docs/kcsan.md).
 */
#define READ_ONCE(x)		(*(const volatile typeof(x) *)&(x))
#define WRITE_ONCE(x, val)	do { *(volatile typeof(x) *)&(x) = (val); } while (0)

/*
 * The race detector (kernel/kcsan/): __no_kcsan keeps a function's own
 * accesses out of it; data_race(expr) marks a race that is intended, and
 * the comment beside it says why it is harmless.
 */
#ifdef CONFIG_KCSAN
#define __no_kcsan		__attribute__((__no_sanitize_thread__))
void kcsan_disable_current(void);
void kcsan_enable_current(void);
#define data_race(expr) ({						\
	typeof(({ expr; })) __v = ({ kcsan_disable_current(); expr; });\
	kcsan_enable_current();						\
	__v;								\
})
#else
#define __no_kcsan
#define data_race(expr)		(expr)
#endif

/*
 * The mutex entry points take their argument in a register on i386, as the
 * 2006 patches' FASTCALL did, so the fastpath needs no stack access at all.
 */
#ifdef __i386__
#define fastcall		__attribute__((regparm(3)))
#else
#define fastcall
#endif

/*
 * Called from assembly, which passes the arguments on the stack: on i386
 * that stays so when CONFIG_X86_REGPARM makes registers the default.
 */
#ifdef __i386__
#define asmlinkage		__attribute__((regparm(0)))
#else
#define asmlinkage
#endif

#define __stringify_1(x)	#x
#define __stringify(x)		__stringify_1(x)

#endif
