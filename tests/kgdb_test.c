// SPDX-License-Identifier: GPL-2.0
/*
 * The gdb stub with CPU 0 stuck with interrupts off, the very deadlock
 * one most wants to look at. The gdb check drives it (kgdb.py, booted
 * with kgdbwait): through the stub it sets kgdb_test_spin to CHECK_HERE
 * before the tests start, later to SPIN, and a thread bound to CPU 0
 * spins with interrupts off; gdb breaks in (another CPU's tick takes the
 * break) and lists that thread; RELEASE lets it go. Without the check
 * the case is skipped at once.
 */
#include <kernel.h>
#include <errno.h>
#include <irqflags.h>
#include "helpers.h"

enum { CHECK_HERE = 1, SPIN, RELEASE };

#define ASK_WAIT_SECS	300	/* for the check to ask: its rounds come first */
#define SPIN_LIMIT_NS	(300 * NSEC_PER_SEC)	/* a check that never lets go */

volatile int kgdb_test_spin;	/* written by the gdb check through the stub */

static int spin_irqs_off(void *unused)
{
	u64 end = ktime_get_ns() + SPIN_LIMIT_NS;
	unsigned long flags;

	local_irq_save(flags);
	printk("kgdb_test: CPU %u spins with interrupts off\n",
	       smp_processor_id());
	while (READ_ONCE(kgdb_test_spin) < RELEASE && ktime_get_ns() < end)
		cpu_relax();
	local_irq_restore(flags);
	return READ_ONCE(kgdb_test_spin) < RELEASE ? -ETIMEDOUT : 0;
}

static void cpu0_irqs_off(struct kunit *test)
{
	struct task_struct *t;

	if (!READ_ONCE(kgdb_test_spin))
		kunit_skip(test, "for the gdb check, which sets kgdb_test_spin at kgdbwait");
	KUNIT_ASSERT_TRUE(test, num_online_cpus() >= 2);
	KUNIT_ASSERT_TRUE(test, wait_for_count(&kgdb_test_spin, SPIN,
					       ASK_WAIT_SECS));
	t = kthread_create(spin_irqs_off, NULL, "kgdb-spin");
	KUNIT_ASSERT_NOT_NULL(test, t);
	kthread_bind(t, 0);
	wake_up_process(t);
	KUNIT_EXPECT_EQ(test, kthread_join(t), 0);
}

static struct kunit_case kgdb_cases[] = {
	KUNIT_CASE_SLOW(cpu0_irqs_off, ASK_WAIT_SECS + 300),
	{}
};

static struct kunit_suite kgdb_suite = {
	.name = "kgdb",
	.test_cases = kgdb_cases,
};
kunit_test_suite(kgdb_suite);
