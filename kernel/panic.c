// SPDX-License-Identifier: GPL-2.0
/*
 * Ending badly: panic(), WARN_ON(), and the end of a fault report. A panic
 * stops the other CPUs from printing over it and ends the machine with a
 * failure status, which the host runner reads.
 */
#include <kernel.h>
#include <arch.h>
#include <irq.h>
#include <printk.h>
#include <mm.h>
#include <sched.h>
#include <kgdb.h>
#include <kunit/test.h>

unsigned long warn_count;
static volatile int panicking;

void __noreturn machine_exit(int status)
{
	printk("mutexos: machine exit, status %d\n", status);
	arch_exit(status);
}

void __noreturn panic(const char *fmt, ...)
{
	va_list args;

	arch_local_irq_disable();
	if (__atomic_exchange_n(&panicking, 1, __ATOMIC_SEQ_CST)) {
		for (;;)	/* another CPU is already panicking */
			arch_halt_cpu();
	}
	printk_bust_locks();
	printk("Kernel panic - not syncing: ");
	va_start(args, fmt);
	vprintk(fmt, args);
	va_end(args);
	printk("\nCPU: %u PID: %d Comm: %s\n", smp_processor_id(),
	       current ? current->pid : -1, current ? current->comm : "?");
	dump_stack();
	kgdb_report_hook();
	machine_exit(EXIT_CRASH);
}

/* Set by the test framework while a case provokes reports on purpose. */
int reports_expected;

void report_mark_start(void)
{
	if (READ_ONCE(reports_expected))
		printk("# expected report follows\n");
}

/*
 * panic_on_report= (0: off). A graded boot of the debug build fails its
 * checks on the first report nobody provoked; ending there saves waiting
 * for what a broken lock does next.
 */
unsigned int panic_on_report;

/* A report is complete: the moment to show it to gdb, if asked. */
void report_mark_end(void)
{
	if (READ_ONCE(reports_expected))
		printk("# expected report ends\n");
	else if (panic_on_report)
		panic("a report nobody provoked (panic_on_report=1)");
	kgdb_report_hook();
}

void __warn(const char *file, int line, const char *cond)
{
	warn_count++;
	report_mark_start();
	printk("WARNING: CPU: %u PID: %d at %s:%d: %s\n", smp_processor_id(),
	       current->pid, file, line, cond);
	dump_stack();
	report_mark_end();
}

void oops_begin(void)
{
	printk_bust_locks();
	printk("------------[ cut here ]------------\n");
}

/*
 * The first page is never mapped, so that a NULL pointer (or a small
 * offset from one, a member of a struct through NULL) faults: say so,
 * since that is the most common bug there is.
 */
void oops_bad_address(unsigned long addr)
{
	const char *what = addr < PAGE_SIZE ? "NULL pointer dereference" :
					      "paging request";

	printk("BUG: unable to handle kernel %s at %0*lx\n", what,
	       (int)(2 * sizeof(long)), addr);
}

/*
 * A fault in a test case fails that case and ends its task; the run goes
 * on. Anywhere else the kernel's state is unknown: stop the machine.
 */
/* The same on every arch: the walk is arch_stack_trace()'s. */
void arch_dump_stack_from(unsigned long fp, unsigned long pc)
{
	int digits = 2 * sizeof(long);
	unsigned long entries[32];
	unsigned int i, n = arch_stack_trace(fp, entries, ARRAY_SIZE(entries));

	if (pc)
		printk(" [<%0*lx>] %pS\n", digits, pc, (void *)pc);
	for (i = 0; i < n; i++)
		printk(" [<%0*lx>] %pS\n", digits, entries[i],
		       (void *)entries[i]);
}

void dump_stack(void)
{
	arch_dump_stack_from((unsigned long)__builtin_frame_address(0), 0);
}

void __noreturn oops_end(bool irqs_were_on)
{
	printk("CPU: %u PID: %d Comm: %s\n", smp_processor_id(),
	       current->pid, current->comm);
	if (current->kunit && !in_irq()) {
		printk("---[ end trace: failing the test case ]---\n");
		current_thread_info()->preempt_count = 0;
		arch_local_irq_enable();
		kunit_case_faulted();
	}
	printk("---[ end trace ]---\n");
	panic("Fatal exception");
}
