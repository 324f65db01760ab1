/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _ATOMIC_H
#define _ATOMIC_H

#include <asm/atomic.h>
#include <asm/barrier.h>

#endif
