/* SPDX-License-Identifier: GPL-2.0 */
/* Fixed-width integer types and the few standard ones a freestanding kernel uses. */
#ifndef _TYPES_H
#define _TYPES_H

#include <stddef.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdarg.h>

typedef uint8_t u8;
typedef uint16_t u16;
typedef uint32_t u32;
/*
 * 64-bit types are long long on every arch, as in Linux, so that one printk
 * format (%llu, %llx) fits them on 32-bit and 64-bit arches alike.
 */
typedef unsigned long long u64;
typedef int8_t s8;
typedef int16_t s16;
typedef int32_t s32;
typedef long long s64;

typedef long ssize_t;
typedef unsigned long uintptr;
typedef u64 ktime_t;		/* nanoseconds of the monotonic clock */
typedef int pid_t;

#endif
