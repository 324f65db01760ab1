// SPDX-License-Identifier: GPL-2.0
/*
 * The gdb stub with CPU 0 stuck with interrupts off, the very deadlock
 * one most wants to look at. The gdb check drives it (kgdb.py, booted
 * with kgdbwait): through the stub it sets kgdb_test_spin to 1, and a
 * thread bound to CPU 0 spins with interrupts off; gdb breaks in (another
 * CPU's tick takes the break) and lists that thread; 2 lets it go. Any
 * other boot skips it.
 */
#include <kernel.h>
#include <errno.h>
#include <irqflags.h>
#include <kgdb.h>
#include "helpers.h"

#define ASK_WAIT_SECS	600	/* for the gdb check to ask: its rounds first */
#define SPIN_LIMIT_NS	(600 * NSEC_PER_SEC)	/* a check that never lets go */

volatile int kgdb_test_spin;	/* written by the gdb check through the stub */

static int spin_irqs_off(void *unused)
{
	u64 end = ktime_get_ns() + SPIN_LIMIT_NS;
	unsigned long flags;

	local_irq_save(flags);
	printk("kgdb_test: CPU %u spins with interrupts off\n",
	       smp_processor_id());
	while (READ_ONCE(kgdb_test_spin) < 2 && ktime_get_ns() < end)
		cpu_relax();
	local_irq_restore(flags);
	return READ_ONCE(kgdb_test_spin) < 2 ? -ETIMEDOUT : 0;
}

static void cpu0_irqs_off(struct kunit *test)
{
	struct task_struct *t;

	if (!kgdb_listening())
		kunit_skip(test, "for the gdb check: needs kgdb on the command line");
	if (num_online_cpus() < 2)
		kunit_skip(test, "needs a second CPU to take gdb's break");
	if (!wait_for_count(&kgdb_test_spin, 1, ASK_WAIT_SECS))
		kunit_skip(test, "nothing set kgdb_test_spin through the stub");
	t = kthread_create(spin_irqs_off, NULL, "kgdb-spin");
	KUNIT_ASSERT_NOT_NULL(test, t);
	kthread_bind(t, 0);
	wake_up_process(t);
	KUNIT_EXPECT_EQ(test, kthread_join(t), 0);
}

static struct kunit_case kgdb_cases[] = {
	KUNIT_CASE(cpu0_irqs_off),
	{}
};

static struct kunit_suite kgdb_suite = {
	.name = "kgdb",
	.test_cases = kgdb_cases,
};
kunit_test_suite(kgdb_suite);
