/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The kernel log. printk() writes whole lines to the serial console and
 * keeps the last LOG_BUF_SIZE bytes, so that a test can check what a
 * report said (printk_log_pos() before, printk_log_find() after).
 */
#ifndef _PRINTK_H
#define _PRINTK_H

#include <types.h>

#define LOG_BUF_SIZE	32768

unsigned long printk_log_pos(void);
/* Whether str was printed since pos (and is still in the buffer). */
bool printk_log_find(unsigned long pos, const char *str);
/* During a crash: take the console even if another CPU holds it. */
void printk_bust_locks(void);

#endif
