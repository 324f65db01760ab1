// SPDX-License-Identifier: GPL-2.0
/*
 * Bringing up the other CPUs, and the inter-processor interrupts: a
 * reschedule kick, a function call on another CPU, and a backtrace request.
 */
#include <kernel.h>
#include <arch.h>
#include <smp.h>
#include <sched.h>
#include <kgdb.h>

unsigned int nr_cpu_ids = 1;
volatile unsigned long cpu_online_mask = 1;
unsigned int setup_max_cpus = NR_CPUS;
unsigned int expected_cpus;

static struct task_struct *idle_tasks[NR_CPUS];

struct task_struct *idle_task_create(unsigned int cpu);
void sched_init_secondary(unsigned int cpu);

struct task_struct *idle_task_for(unsigned int cpu)
{
	if (!idle_tasks[cpu])
		idle_tasks[cpu] = idle_task_create(cpu);
	return idle_tasks[cpu];
}

void __noreturn secondary_start_kernel(void)
{
	unsigned int cpu = smp_processor_id();

	sched_init_secondary(cpu);
	arch_timer_start();
	__atomic_fetch_or(&cpu_online_mask, 1UL << cpu, __ATOMIC_SEQ_CST);
	arch_local_irq_enable();
	cpu_idle();
}

void smp_init(void)
{
	unsigned int max = setup_max_cpus < NR_CPUS ? setup_max_cpus : NR_CPUS;

#ifdef CONFIG_SMP
	arch_smp_boot(max);
#else
	(void)max;
#endif
	nr_cpu_ids = num_online_cpus();
	printk("smp: %u CPU%s online\n", nr_cpu_ids, nr_cpu_ids > 1 ? "s" : "");
}

/* One call in flight at a time: enough for tests and debug reports. */
static DEFINE_SPINLOCK(call_lock);
static struct {
	void (*fn)(void *info);
	void *info;
	volatile int done;
	volatile int target;
} call_data = { .target = -1 };

int smp_call_function_single(unsigned int cpu, void (*fn)(void *info),
			     void *info, int wait)
{
	unsigned long flags;

	if (cpu == smp_processor_id()) {
		local_irq_save(flags);
		fn(info);
		local_irq_restore(flags);
		return 0;
	}
	if (cpu >= NR_CPUS || !cpu_online(cpu))
		return -EINVAL;
	WARN_ON(irqs_disabled());
	spin_lock(&call_lock);
	call_data.fn = fn;
	call_data.info = info;
	call_data.done = 0;
	smp_wmb();
	call_data.target = cpu;
	arch_send_ipi(cpu, IPI_CALL_FUNC);
	/* Even without wait, the slot must be free before the next call. */
	while (!call_data.done)
		cpu_relax();
	spin_unlock(&call_lock);
	(void)wait;
	return 0;
}

static void handle_call_function(void)
{
	if (call_data.target != (int)smp_processor_id())
		return;
	smp_rmb();
	call_data.target = -1;
	call_data.fn(call_data.info);
	smp_mb();
	call_data.done = 1;
}

static void show_cpu_backtrace(void)
{
	printk("Backtrace of CPU %u (%s/%d):\n", smp_processor_id(),
	       current->comm, current->pid);
	dump_stack();
}

/*
 * This CPU's backtrace, then each other online CPU prints its own from
 * the IPI, as soon as it takes interrupts: a CPU spinning with them off
 * does not answer.
 */
void trigger_all_cpu_backtrace(void)
{
	unsigned int cpu, self = smp_processor_id();

	show_cpu_backtrace();
	for (cpu = 0; cpu < NR_CPUS; cpu++)
		if (cpu != self && cpu_online(cpu))
			arch_send_ipi(cpu, IPI_BACKTRACE);
}

void smp_handle_ipi(enum ipi_type type, struct pt_regs *regs)
{
	switch (type) {
	case IPI_RESCHEDULE:
		/* irq_exit() sees TIF_NEED_RESCHED and schedules. */
		break;
	case IPI_CALL_FUNC:
		handle_call_function();
		break;
	case IPI_BACKTRACE:
		show_cpu_backtrace();
		break;
	case IPI_KGDB:
		kgdb_park_cpu(regs);
		break;
	case IPI_WAKE:
		/* The wfi it ended is over: nothing else to do. */
		break;
	default:
		break;
	}
}

void smp_send_reschedule(unsigned int cpu)
{
	arch_send_ipi(cpu, IPI_RESCHEDULE);
}
