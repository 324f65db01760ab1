// SPDX-License-Identifier: GPL-2.0
/*
 * Console input. The UART's receive interrupt hands each byte to
 * console_receive(), which puts it in a small ring; the shell sleeps on
 * a wait queue until the ring has a byte for it.
 *
 * Some bytes never reach the ring, because they must work while the shell
 * is busy or stuck: Ctrl-C typed while a command runs becomes a SIGINT to
 * the task running it, and the key after a break (or Ctrl-\) is a SysRq
 * key, handled here in the interrupt. When input comes faster than the
 * shell reads it, a full ring drops the bytes that do not fit and counts
 * them: the interrupt never waits.
 */
#include <kernel.h>
#include <sched.h>
#include <wait.h>
#include <console.h>

#define RX_RING_SIZE	CONSOLE_RX_RING_SIZE
#define CTRL_C		0x03

static char rx_ring[RX_RING_SIZE];
_Static_assert(!(RX_RING_SIZE & (RX_RING_SIZE - 1)),
	       "a power of two: the free-running indices wrap cleanly");
static unsigned int rx_head, rx_tail;	/* free-running: head - tail queued */
static unsigned long rx_dropped;
static DEFINE_SPINLOCK(rx_lock);
static DECLARE_WAIT_QUEUE_HEAD(rx_wait);
static struct task_struct *foreground;
/* Only the receive interrupt of one CPU touches it. */
static bool sysrq_pending;

static void rx_put(char c)
{
	unsigned long flags;

	spin_lock_irqsave(&rx_lock, flags);
	if (rx_head - rx_tail < RX_RING_SIZE)
		rx_ring[rx_head++ % RX_RING_SIZE] = c;
	else
		rx_dropped++;
	spin_unlock_irqrestore(&rx_lock, flags);
	wake_up_interruptible(&rx_wait);
}

static bool rx_get(char *c)
{
	unsigned long flags;
	bool got = false;

	spin_lock_irqsave(&rx_lock, flags);
	if (rx_tail != rx_head) {
		*c = rx_ring[rx_tail++ % RX_RING_SIZE];
		got = true;
	}
	spin_unlock_irqrestore(&rx_lock, flags);
	return got;
}

void console_receive(unsigned int c)
{
	struct task_struct *fg;

	if (sysrq_pending && c != CONSOLE_BREAK) {
		sysrq_pending = false;
		sysrq_handle(c);
		return;
	}
	if (c == CONSOLE_BREAK || c == CONSOLE_SYSRQ_ESCAPE) {
		sysrq_pending = true;
		return;
	}
	fg = READ_ONCE(foreground);
	if (c == CTRL_C && fg) {
		send_sig(SIGINT, fg, 0);
		return;
	}
	rx_put(c);
}

/*
 * The wait condition takes the byte: it runs once more after every
 * wakeup, and the byte it took is the one we return.
 */
int console_getc(void)
{
	char c = 0;	/* set when err is 0; GCC 12 for rv64 cannot see it */
	int err = wait_event_interruptible(rx_wait, rx_get(&c));

	return err ? err : (unsigned char)c;
}

unsigned long console_rx_dropped(void)
{
	return READ_ONCE(rx_dropped);
}

struct task_struct *console_set_foreground(struct task_struct *p)
{
	return __atomic_exchange_n(&foreground, p, __ATOMIC_SEQ_CST);
}
