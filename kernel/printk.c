// SPDX-License-Identifier: GPL-2.0
/*
 * printk: format into a buffer, then write it to the console and the log
 * under one lock, so that lines from different CPUs never mix.
 */
#include <kernel.h>
#include <string.h>
#include <printk.h>
#include <arch.h>
#include <irqflags.h>
#include <thread_info.h>
#include <asm/spinlock.h>
#include <asm/barrier.h>

static arch_spinlock_t console_lock = __ARCH_SPIN_LOCK_UNLOCKED;
static int console_owner = -1;		/* CPU holding it, for recursion */
static bool busting;
static char log_buf[LOG_BUF_SIZE];
static unsigned long log_end;		/* bytes ever logged */

unsigned long printk_log_pos(void)
{
	return READ_ONCE(log_end);
}

bool printk_log_find(unsigned long pos, const char *str)
{
	size_t len = strlen(str), matched = 0;
	unsigned long end = READ_ONCE(log_end), i;

	if (end - pos > LOG_BUF_SIZE)
		pos = end - LOG_BUF_SIZE;
	for (i = pos; i < end; i++) {
		char c = log_buf[i % LOG_BUF_SIZE];

		if (c == str[matched]) {
			if (++matched == len)
				return true;
		} else {
			/* restart, re-checking this character */
			matched = (c == str[0]);
			if (matched == len)
				return true;
		}
	}
	return false;
}

void printk_bust_locks(void)
{
	busting = true;
}

/*
 * The console lock is a raw arch lock: printk must work inside the
 * spinlock debugging code, and before the scheduler exists. A CPU that
 * already holds it (a fault inside printk) or a crash does not wait.
 */
static bool console_take(void)
{
	unsigned int cpu = smp_processor_id();

	if (console_owner == (int)cpu)
		return false;
	if (busting) {
		for (long spins = 0; spins < 20000000; spins++) {
			if (arch_spin_trylock(&console_lock))
				goto took;
			cpu_relax();
		}
		return false;
	}
	arch_spin_lock(&console_lock);
took:
	console_owner = cpu;
	return true;
}

static void console_release(bool took)
{
	if (!took)
		return;
	console_owner = -1;
	arch_spin_unlock(&console_lock);
}

int vprintk(const char *fmt, va_list args)
{
	char buf[512];
	unsigned long flags;
	bool took;
	int len, i;

	len = vsnprintf(buf, sizeof(buf), fmt, args);
	if (len >= (int)sizeof(buf)) {
		/* Cut: still end the line, or the next message joins it. */
		len = sizeof(buf) - 1;
		buf[len - 1] = '\n';
	}
	flags = arch_local_irq_save();
	took = console_take();
	for (i = 0; i < len; i++) {
		arch_putc(buf[i]);
		log_buf[log_end % LOG_BUF_SIZE] = buf[i];
		log_end++;
	}
	console_release(took);
	arch_local_irq_restore(flags);
	return len;
}

int printk(const char *fmt, ...)
{
	va_list args;
	int r;

	va_start(args, fmt);
	r = vprintk(fmt, args);
	va_end(args);
	return r;
}
