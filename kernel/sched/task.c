// SPDX-License-Identifier: GPL-2.0
/*
 * Creating, ending and freeing tasks. A task's kernel stack comes from the
 * page allocator, THREAD_SIZE-aligned, with its thread_info at the base.
 * An ended task stays a zombie until someone collects its exit code with
 * task_reap(), which sleeps until it is off its CPU for good, then frees
 * it.
 */
#include <kernel.h>
#include <string.h>
#include <sched.h>
#include <mm.h>
#include <arch.h>
#include <mutex.h>
#include <rtmutex.h>

#define THREAD_ORDER	(__builtin_ctz(THREAD_SIZE) - PAGE_SHIFT)

struct task_struct init_task = {
	.state = TASK_RUNNING,
	.comm = "swapper/0",
	.prio = DEFAULT_PRIO,
	.static_prio = DEFAULT_PRIO,
	.normal_prio = DEFAULT_PRIO,
	.policy = SCHED_NORMAL,
	.cpus_allowed = 0,
	.idle = 1,
	.on_rq = 0,
	.run_list = LIST_HEAD_INIT(init_task.run_list),
	.pi_waiters = LIST_HEAD_INIT(init_task.pi_waiters),
	.held_rt_mutexes = LIST_HEAD_INIT(init_task.held_rt_mutexes),
};

LIST_HEAD(task_list);
DEFINE_SPINLOCK(task_list_lock);
static int next_pid = 1;

void __noreturn sched_exit_current(void);

static void task_list_add(struct task_struct *p)
{
	unsigned long flags, dflags;

	spin_lock_irqsave(&task_list_lock, flags);
	p->pid = next_pid++;
	dflags = mutex_debug_task_list_lock();
	list_add_tail(&p->tasks, &task_list);
	mutex_debug_task_list_unlock(dflags);
	spin_unlock_irqrestore(&task_list_lock, flags);
}

/* Sets up a thread_info at the base of stack for task p on cpu. */
static void thread_info_init(struct thread_info *ti, struct task_struct *p,
			     unsigned int cpu, int preempt)
{
	memset(ti, 0, sizeof(*ti));
	ti->task = p;
	ti->cpu = cpu;
	ti->preempt_count = preempt;
	ti->magic = STACK_END_MAGIC;
	p->thread_info = ti;
}

static void task_struct_init(struct task_struct *p, const char *name)
{
	p->prio = p->static_prio = p->normal_prio = DEFAULT_PRIO;
	p->policy = SCHED_NORMAL;
	p->cpus_allowed = -1;
	INIT_LIST_HEAD(&p->run_list);
	INIT_LIST_HEAD(&p->pi_waiters);
	INIT_LIST_HEAD(&p->held_rt_mutexes);
	init_completion(&p->exited);
	strlcpy(p->comm, name, sizeof(p->comm));
#ifdef CONFIG_DEBUG_MUTEXES
	INIT_LIST_HEAD(&p->held_locks);
	p->held_locks_lock = (arch_spinlock_t)__ARCH_SPIN_LOCK_UNLOCKED;
#endif
}

/*
 * The size of a task's stack, as the gdb helpers (scripts/gdb/) read it
 * from the build: mx-current finds a task from its stack pointer.
 */
const unsigned long thread_size = THREAD_SIZE;

/* The boot task: the stack the arch entry code is running on. */
void task_init_boot(void)
{
	extern char init_thread_stack[];

	thread_info_init((struct thread_info *)init_thread_stack, &init_task,
			 0, 0);
	init_task.pid = 0;
	INIT_LIST_HEAD(&init_task.tasks);
	init_completion(&init_task.exited);
#ifdef CONFIG_DEBUG_MUTEXES
	INIT_LIST_HEAD(&init_task.held_locks);
	init_task.held_locks_lock = (arch_spinlock_t)__ARCH_SPIN_LOCK_UNLOCKED;
#endif
	list_add_tail(&init_task.tasks, &task_list);
}

static struct task_struct *task_alloc(const char *name, unsigned int cpu,
				      int preempt)
{
	struct task_struct *p = kzalloc(sizeof(*p));
	void *stack;

	if (!p)
		return NULL;
	stack = alloc_pages(THREAD_ORDER);
	if (!stack) {
		kfree(p);
		return NULL;
	}
	task_struct_init(p, name);
	thread_info_init(stack, p, cpu, preempt);
	return p;
}

/* Every new task starts here, after its first context switch. */
static void __noreturn task_entry(void)
{
	struct task_struct *p = current;

	arch_outermost_frame();		/* a task's backtrace ends here */
	do_exit(p->threadfn(p->data));
}

/*
 * A new task, not yet runnable (state TASK_UNINTERRUPTIBLE, as a new
 * kthread in Linux): wake_up_process() starts it. It begins with
 * preempt_count 1, which schedule_tail() drops.
 */
struct task_struct *task_create(int (*fn)(void *), void *data,
				const char *name)
{
	struct task_struct *p = task_alloc(name, 0, 1);

	if (!p)
		return NULL;
	p->threadfn = fn;
	p->data = data;
	p->state = TASK_UNINTERRUPTIBLE;
	arch_task_setup(p, task_entry);
	task_list_add(p);
	return p;
}

/* The idle task of a secondary CPU; the CPU starts on its stack. */
struct task_struct *idle_task_create(unsigned int cpu)
{
	char name[TASK_COMM_LEN];
	struct task_struct *p;

	snprintf(name, sizeof(name), "swapper/%u", cpu);
	p = task_alloc(name, cpu, 0);
	if (!p)
		panic("no memory for the idle task of CPU %u", cpu);
	p->idle = 1;
	p->cpus_allowed = cpu;
	p->state = TASK_RUNNING;
	task_list_add(p);
	return p;
}

void __noreturn do_exit(int code)
{
	struct task_struct *p = current;

	if (p->idle)
		panic("the idle task of CPU %u tried to exit",
		      smp_processor_id());
	mutex_debug_check_no_locks_held(p);
	rt_mutex_check_no_locks_held(p);
	p->exit_code = code;
	/*
	 * p->exited is completed by the switch away from us, once this
	 * stack is no longer in use (finish_task_switch()): a reaper woken
	 * earlier could find us still on it, and one more urgent than us
	 * would keep us off our CPU while it waited.
	 */
	arch_local_irq_disable();
	sched_exit_current();
}

int task_reap(struct task_struct *p)
{
	unsigned long flags, dflags;
	int code;

	/* Off its CPU for good: its stack can go. */
	wait_for_completion(&p->exited);
	code = p->exit_code;
	spin_lock_irqsave(&task_list_lock, flags);
	dflags = mutex_debug_task_list_lock();
	list_del(&p->tasks);
	mutex_debug_task_list_unlock(dflags);
	spin_unlock_irqrestore(&task_list_lock, flags);
	free_pages(p->thread_info, THREAD_ORDER);
	kfree(p);
	return code;
}

char task_state_char(struct task_struct *p)
{
	switch (p->state) {
	case TASK_RUNNING:		return 'R';
	case TASK_INTERRUPTIBLE:	return 'S';
	case TASK_UNINTERRUPTIBLE:	return 'D';
	case TASK_STOPPED:		return 'T';
	case EXIT_ZOMBIE:		return 'Z';
	case EXIT_DEAD:			return 'X';
	default:			return '?';
	}
}

void show_task(struct task_struct *p)
{
	/* A '*' after the priority: an rt-mutex's waiter boosts the task. */
	printk("%-16s %c pid %d %s prio %d%s cpu %u switches %lu+%lu\n",
	       p->comm, task_state_char(p), p->pid, sched_policy_name(p->policy),
	       p->prio, p->prio < p->normal_prio ? "*" : "",
	       p->thread_info->cpu, p->nvcsw, p->nivcsw);
}

/* A task that is not running: walk its stack from its saved frame. */
void show_stack(struct task_struct *p)
{
	if (p == current)
		dump_stack();
	else if (!p->on_cpu)
		arch_dump_stack_from(arch_task_frame(p), 0);
	else
		printk(" (running on CPU %u)\n", p->thread_info->cpu);
}

/*
 * Every task and where it is: SysRq t, and tests that hang. The list lock
 * keeps a task that ends meanwhile from being freed under us.
 */
void show_state(void)
{
	struct task_struct *p;
	unsigned long flags;

	spin_lock_irqsave(&task_list_lock, flags);
	list_for_each_entry(p, &task_list, tasks) {
		show_task(p);
		show_stack(p);
	}
	spin_unlock_irqrestore(&task_list_lock, flags);
}
