/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The serial console: output is printk(), input comes from each arch's
 * receive interrupt, and a shell reads it (kernel/console/). A kernel
 * booted without test= or bench= ends in that shell. docs/console.md
 * lists its commands and keys.
 */
#ifndef _CONSOLE_H
#define _CONSOLE_H

#include <types.h>

struct task_struct;

/* What the receive interrupt hands over besides bytes: a break on the line. */
#define CONSOLE_BREAK		0x100
/* Ctrl-\: like a break, it makes the next key a SysRq key. */
#define CONSOLE_SYSRQ_ESCAPE	0x1c
/* Bytes the input ring holds; what comes while it is full is dropped. */
#define CONSOLE_RX_RING_SIZE	256

/*
 * From the receive interrupt, one call per byte received (or
 * CONSOLE_BREAK). Never sleeps.
 */
void console_receive(unsigned int c);

/*
 * The next byte typed, sleeping until there is one: 0..255, or
 * -ERESTARTSYS when a signal came first.
 */
int console_getc(void);
/* Bytes thrown away so far because the input ring was full. */
unsigned long console_rx_dropped(void);
/*
 * The task running a command, or NULL at the prompt: Ctrl-C typed while
 * a command runs is a SIGINT to it instead of a byte to read. Returns the
 * one set before.
 */
struct task_struct *console_set_foreground(struct task_struct *p);

/* A SysRq key, in the receive interrupt: t, d, l, h. */
void sysrq_handle(unsigned int key);

/* The shell on the console, run by the init task: never returns. */
void __noreturn console_run(void);

#endif
