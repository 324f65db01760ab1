// SPDX-License-Identifier: GPL-2.0
/*
 * The scheduler: one run queue shared by every CPU, round robin with a time
 * slice, preemptive. See docs/scheduler.md for why one queue.
 *
 * rq_lock protects the run queue and every task's state transitions
 * between runnable and not. It is held across the context switch itself
 * and released by the task that the switch continues (finish_task_switch),
 * so that no other CPU can pick a task whose stack is still in use.
 */
#include <kernel.h>
#include <sched.h>
#include <smp.h>
#include <time.h>
#include <timer.h>
#include <irqflags.h>
#include <arch.h>
#include <trace.h>
#include <asm/spinlock.h>
#include <rtmutex.h>

struct cpu_rq {
	struct task_struct *curr;
	struct task_struct *idle;
	u64 last_switch;		/* clock at the last switch */
	u64 idle_ns, busy_ns;
	unsigned long switches;
	unsigned long nr_wakeups;	/* tasks this CPU made runnable */
	unsigned int resched_ticks;	/* ticks since need_resched went unmet */
};

static arch_spinlock_t rq_lock = __ARCH_SPIN_LOCK_UNLOCKED;
static LIST_HEAD(runqueue);
static struct cpu_rq cpu_rqs[NR_CPUS];
static bool scheduler_running;
unsigned long sched_atomic_reports;
/*
 * softlockup_secs= (0, the default: off). A task that was asked to give
 * up its CPU and still holds it that much later is stuck where it may not
 * be preempted, most likely spinning on a spinlock that nobody will
 * release. The kernel then panics: a graded boot of such a bug ends in
 * seconds instead of waiting for the host to notice its silence.
 */
unsigned int softlockup_secs;

static void rq_lock_irqsave(unsigned long *flags)
{
	*flags = arch_local_irq_save();
	arch_spin_lock(&rq_lock);
}

static void rq_unlock_irqrestore(unsigned long flags)
{
	arch_spin_unlock(&rq_lock);
	arch_local_irq_restore(flags);
}

/* A SCHED_NORMAL task's slice at nice 0, in ticks. */
#define NICE_0_SLICE	2

/*
 * The ticks a task runs before the tick asks it to make room: 2 from
 * nice -9 to 9, 1 from nice 10 to 19, 3 from -10 to -19, 4 at -20 (the
 * division truncates towards 0); SCHED_RR's 100 ms. docs/scheduler.md
 * states the same, and sched_rt.normal_slice_by_nice counts them.
 */
static int task_slice(struct task_struct *p)
{
	if (p->policy == SCHED_RR)
		return RR_TIMESLICE;
	return NICE_0_SLICE - (p->static_prio - DEFAULT_PRIO) / 10;
}

static bool allowed_on(struct task_struct *p, unsigned int cpu)
{
	return p->cpus_allowed < 0 || p->cpus_allowed == (int)cpu;
}

/*
 * Where a task stands in the queue: its priority if real-time, and one
 * rank below every real-time level for all SCHED_NORMAL tasks, which so
 * keep their first-come first-served order among themselves.
 */
static int queue_rank(struct task_struct *p)
{
	return rt_task(p) ? p->prio : MAX_RT_PRIO;
}

/*
 * The queue is kept in rank order, FIFO among equals; at_head puts p
 * before its equals instead. The walk starts at the tail, where a
 * SCHED_NORMAL task goes, so that it costs those nothing.
 */
static void enqueue(struct task_struct *p, bool at_head)
{
	int rank = queue_rank(p);
	struct list_head *pos;

	for (pos = runqueue.prev; pos != &runqueue; pos = pos->prev) {
		struct task_struct *q = list_entry(pos, struct task_struct,
						   run_list);
		int r = queue_rank(q);

		if (r < rank || (r == rank && !at_head))
			break;
	}
	list_add(&p->run_list, pos);
}

/* Tell a CPU to reschedule; an IPI when it is another one. */
static void resched_curr(unsigned int cpu)
{
	struct task_struct *curr = cpu_rqs[cpu].curr;

	if (!curr)
		return;
	set_ti_thread_flag(curr->thread_info, TIF_NEED_RESCHED);
	if (cpu != smp_processor_id())
		arch_send_ipi(cpu, IPI_RESCHEDULE);
}

/* This CPU reschedules at the preempt_enable(), another at its IPI. */
void resched_cpu(unsigned int cpu)
{
	unsigned long flags;

	preempt_disable();
	rq_lock_irqsave(&flags);
	resched_curr(cpu);
	rq_unlock_irqrestore(flags);
	preempt_enable();
}

/* An idle CPU outranks nothing; one already asked to reschedule is busy. */
static int cpu_rank(unsigned int cpu)
{
	struct task_struct *curr = cpu_rqs[cpu].curr;

	if (!curr || test_ti_thread_flag(curr->thread_info, TIF_NEED_RESCHED))
		return -1;
	return curr->idle ? MAX_PRIO : queue_rank(curr);
}

/*
 * A task was queued: have the CPU that may run it and runs the least
 * urgent thing (idle first, this CPU first among equals) reschedule,
 * when that is less urgent than p. SCHED_NORMAL tasks only ever take an
 * idle CPU this way; a real-time one preempts at once.
 */
static void check_preempt(struct task_struct *p)
{
	unsigned int cpu, self = smp_processor_id(), target = self;
	int worst = -1;

	if (allowed_on(p, self))
		worst = cpu_rank(self);
	for (cpu = 0; cpu < NR_CPUS; cpu++) {
		if (cpu_online(cpu) && allowed_on(p, cpu) &&
		    cpu_rank(cpu) > worst) {
			worst = cpu_rank(cpu);
			target = cpu;
		}
	}
	if (worst > queue_rank(p))
		resched_curr(target);
}

/* Who woke p last, and when: what a stuck verdict prints (lib/kunit). */
static void note_wakeup(struct task_struct *p, unsigned long ip)
{
	p->last_woken = jiffies;
	p->last_waker = in_interrupt() ? -1 : current->pid;
	p->last_wake_ip = ip;
}

static int try_to_wake_up(struct task_struct *p, unsigned int state,
			  unsigned long ip)
{
	unsigned long flags;
	int woken = 0;

	/* Order the waker's condition store before reading p->state. */
	smp_mb();
	/* A more urgent task woken here runs at the preempt_enable(). */
	preempt_disable();
	rq_lock_irqsave(&flags);
	if (p->state & state) {
		trace_sched_wakeup(p);
		note_wakeup(p, ip);
		WRITE_ONCE(p->state, TASK_RUNNING);
		woken = 1;
		cpu_rqs[smp_processor_id()].nr_wakeups++;
		if (!p->on_rq) {
			WRITE_ONCE(p->on_rq, 1);
			enqueue(p, false);
			check_preempt(p);
		}
	}
	rq_unlock_irqrestore(flags);
	preempt_enable();
	return woken;
}

int wake_up_state(struct task_struct *p, unsigned int state)
{
	return try_to_wake_up(p, state, _RET_IP_);
}

int wake_up_process(struct task_struct *p)
{
	return try_to_wake_up(p, TASK_NORMAL, _RET_IP_);
}

/*
 * A real-time task that was preempted stays first among its equals, as
 * in Linux; one that used up its SCHED_RR slice or yielded (time_slice
 * 0) goes behind them, and so does one whose priority dropped while it
 * ran (__set_prio()). SCHED_NORMAL tasks always go to the tail.
 */
static bool keeps_its_place(struct task_struct *p)
{
	return rt_task(p) && p->time_slice > 0 && !p->lowered;
}

static struct task_struct *pick_next(unsigned int cpu)
{
	struct task_struct *p;

	list_for_each_entry(p, &runqueue, run_list) {
		if (allowed_on(p, cpu)) {
			list_del_init(&p->run_list);
			return p;
		}
	}
	return cpu_rqs[cpu].idle;
}

static void account_switch(struct cpu_rq *rq, struct task_struct *prev)
{
	u64 now = ktime_get_ns(), delta = now - rq->last_switch;

	rq->last_switch = now;
	prev->sum_exec_ns += delta;
	if (prev->idle)
		rq->idle_ns += delta;
	else
		rq->busy_ns += delta;
	rq->switches++;
}

/*
 * Runs in the task that a switch continues, with rq_lock still held. A
 * task that exited is off its CPU for good only now: its end is told
 * here, so that whoever waits for it to free its stack sleeps until
 * then instead of polling, which a reaper more urgent than it would do
 * for ever on its CPU.
 */
static void finish_task_switch(struct task_struct *prev)
{
	bool dead = prev->state == EXIT_ZOMBIE;

	WRITE_ONCE(prev->on_cpu, 0);
	arch_spin_unlock(&rq_lock);
	arch_local_irq_enable();
	if (dead)
		complete_all(&prev->exited);
}

asmlinkage void schedule_tail(struct task_struct *prev)
{
	finish_task_switch(prev);
	preempt_enable();
}

/* Puts prev aside (if it is going to sleep) and runs the next task. */
static void __schedule(void)
{
	struct task_struct *prev, *next;
	struct cpu_rq *rq;
	unsigned int cpu;

	arch_local_irq_disable();
	arch_spin_lock(&rq_lock);
	prev = current;
	cpu = smp_processor_id();
	rq = &cpu_rqs[cpu];
	clear_ti_thread_flag(prev->thread_info, TIF_NEED_RESCHED);
	rq->resched_ticks = 0;

	if (prev->state != TASK_RUNNING &&
	    !(preempt_count() & PREEMPT_ACTIVE)) {
		if ((prev->state & TASK_INTERRUPTIBLE) && signal_pending(prev)) {
			WRITE_ONCE(prev->state, TASK_RUNNING);
		} else {
			WRITE_ONCE(prev->on_rq, 0);
			WRITE_ONCE(prev->sleep_start, jiffies);
		}
	}
	if (prev->on_rq && !prev->idle)
		enqueue(prev, keeps_its_place(prev));
	prev->lowered = 0;
	next = pick_next(cpu);
	/*
	 * Only a slice that ran out (or a yield, or a new task's) is
	 * refilled: a task switched back in after a preemption goes on with
	 * what it had left, or an RR task preempted often enough would never
	 * give its equals their turn.
	 */
	if (next->time_slice <= 0)
		next->time_slice = task_slice(next);

	if (next == prev) {
		arch_spin_unlock(&rq_lock);
		arch_local_irq_enable();
		return;
	}
	/* A real-time task pushed off this CPU may outrank another's. */
	if (prev->on_rq && rt_task(prev))
		check_preempt(prev);
	/* WRITE_ONCE: khungtaskd and tests read the counts unlocked. */
	if (prev->on_rq)
		WRITE_ONCE(prev->nivcsw, prev->nivcsw + 1);
	else
		WRITE_ONCE(prev->nvcsw, prev->nvcsw + 1);
	account_switch(rq, prev);
	WRITE_ONCE(next->on_cpu, 1);
	next->thread_info->cpu = cpu;
	rq->curr = next;
	trace_sched_switch(prev, next);
	prev = switch_to(prev, next);
	finish_task_switch(prev);
}

static void schedule_bug(void)
{
	sched_atomic_reports++;
	report_mark_start();
	printk("BUG: scheduling while atomic: %s/%d/0x%08x\n",
	       current->comm, current->pid, preempt_count());
	dump_stack();
	report_mark_end();
}

void schedule(void)
{
	if (unlikely(in_atomic() && scheduler_running))
		schedule_bug();
	do {
		preempt_disable();
		__schedule();
		preempt_enable_no_resched();
	} while (need_resched());
}

/* Preemption from preempt_enable(). */
void preempt_schedule(void)
{
	if (preempt_count() || irqs_disabled())
		return;
	do {
		preempt_count_add(PREEMPT_ACTIVE);
		__schedule();
		preempt_count_sub(PREEMPT_ACTIVE);
	} while (need_resched());
}

/* Preemption at the end of an interrupt that came with interrupts on. */
void preempt_schedule_irq(void)
{
	do {
		preempt_count_add(PREEMPT_ACTIVE);
		arch_local_irq_enable();
		__schedule();
		arch_local_irq_disable();
		preempt_count_sub(PREEMPT_ACTIVE);
	} while (need_resched());
}

/*
 * Whether the tick counts p's slice down. By the priority p runs at, as
 * every scheduling decision: a task at a real-time priority, its own or
 * one an rt-mutex's waiter lends it, runs until it sleeps, yields or
 * meets a more urgent task, and only SCHED_RR's own slice ends its turn
 * early. So a boosted SCHED_NORMAL owner runs as FIFO until it unlocks.
 */
static bool sliced(struct task_struct *p)
{
	return !rt_task(p) || p->policy == SCHED_RR;
}

/*
 * From the tick: one tick less of current's slice, what is left. The
 * task itself stores its slice in yield() with interrupts on, so the
 * tick may land on either side of that store: both orders end the slice
 * (0, or 0 less a tick), but each access is a single one, marked.
 */
static int tick_slice(struct task_struct *p)
{
	int left = READ_ONCE(p->time_slice) - 1;

	WRITE_ONCE(p->time_slice, left);
	return left;
}

/* From the tick: a request to reschedule unmet for softlockup_secs. */
static void check_softlockup(struct cpu_rq *rq, struct task_struct *p)
{
	if (!softlockup_secs ||
	    !test_ti_thread_flag(p->thread_info, TIF_NEED_RESCHED))
		return;
	if (++rq->resched_ticks > softlockup_secs * HZ)
		panic("soft lockup: CPU#%u stuck for %us with preemption off (%s/%d)",
		      smp_processor_id(), softlockup_secs, p->comm, p->pid);
}

void scheduler_tick(void)
{
	unsigned int cpu = smp_processor_id();
	struct task_struct *p = current;

	if (!scheduler_running)
		return;
	if (p->idle) {
		/* A missed kick: work is queued that this CPU could run. */
		if (!list_empty(&runqueue))
			set_ti_thread_flag(p->thread_info, TIF_NEED_RESCHED);
		return;
	}
	check_softlockup(&cpu_rqs[cpu], p);
	if (sliced(p) && tick_slice(p) <= 0)
		set_ti_thread_flag(p->thread_info, TIF_NEED_RESCHED);
}

void yield(void)
{
	set_current_state(TASK_RUNNING);
	/* Behind its equals, real-time or not (keeps_its_place()). */
	WRITE_ONCE(current->time_slice, 0);
	schedule();
}

int cond_resched(void)
{
	if (need_resched() && !preempt_count()) {
		schedule();
		return 1;
	}
	return 0;
}

const char *sched_policy_name(int policy)
{
	switch (policy) {
	case SCHED_NORMAL:	return "NORMAL";
	case SCHED_FIFO:	return "FIFO";
	case SCHED_RR:		return "RR";
	default:		return "?";
	}
}

/* What p runs at when nothing boosts it. */
static int normal_prio(struct task_struct *p)
{
	if (p->policy == SCHED_NORMAL)
		return p->static_prio;
	return MAX_RT_PRIO - 1 - p->rt_priority;
}

/*
 * Sets what p runs at, under rq_lock: a queued task moves to its new
 * place (behind its new equals), and a more urgent one may preempt. A
 * running task made less urgent goes behind its new equals too, as
 * POSIX has it for sched_setscheduler() and Linux 2.6.18 for that and
 * the end of a boost: its CPU reschedules, and the switch queues it at
 * their tail, so an equal that waits runs first.
 */
static void __set_prio(struct task_struct *p, int prio)
{
	int old = p->prio;

	if (prio == old)
		return;
	WRITE_ONCE(p->prio, prio);	/* tests poll it unlocked */
	if (p->on_rq && !p->on_cpu) {
		list_del(&p->run_list);
		enqueue(p, false);
		check_preempt(p);
	} else if (p->on_cpu && prio > old) {
		p->lowered = 1;
		resched_curr(p->thread_info->cpu);
	}
}

void rt_mutex_setprio(struct task_struct *p, int prio)
{
	unsigned long flags;

	preempt_disable();
	rq_lock_irqsave(&flags);
	__set_prio(p, prio);
	rq_unlock_irqrestore(flags);
	preempt_enable();
}

/*
 * Under rq_lock, as sched_setscheduler() writes the policy: normal_prio
 * is computed from the policy and static_prio, and a change of either
 * from another CPU, or an interrupt's look at the task in between, would
 * otherwise find the two out of step.
 */
void set_user_nice(struct task_struct *p, int nice)
{
	unsigned long flags;

	if (nice < MIN_NICE)
		nice = MIN_NICE;
	if (nice > MAX_NICE)
		nice = MAX_NICE;
	rq_lock_irqsave(&flags);
	p->static_prio = DEFAULT_PRIO + nice;
	p->normal_prio = normal_prio(p);
	rq_unlock_irqrestore(flags);
	/* What it runs at follows, unless a waiter boosts it above. */
	rt_mutex_adjust_pi(p);
}

static int check_sched_param(struct task_struct *p, int policy, int prio)
{
	if (policy != SCHED_NORMAL && policy != SCHED_FIFO &&
	    policy != SCHED_RR) {
		printk("sched_setscheduler: %s/%d: unknown policy %d "
		       "(SCHED_NORMAL 0, SCHED_FIFO 1, SCHED_RR 2)\n",
		       p->comm, p->pid, policy);
		return -EINVAL;
	}
	if (policy == SCHED_NORMAL && prio != 0) {
		printk("sched_setscheduler: %s/%d: SCHED_NORMAL takes priority "
		       "0, not %d\n", p->comm, p->pid, prio);
		return -EINVAL;
	}
	if (policy != SCHED_NORMAL &&
	    (prio < 1 || prio > MAX_USER_RT_PRIO - 1)) {
		printk("sched_setscheduler: %s/%d: SCHED_%s priority %d out of "
		       "range 1..%d\n", p->comm, p->pid,
		       sched_policy_name(policy), prio, MAX_USER_RT_PRIO - 1);
		return -EINVAL;
	}
	return 0;
}

/*
 * Gives p a policy and, for FIFO and RR, a static priority. A task that
 * an rt-mutex boosts keeps the boost while it is above its new priority;
 * rt_mutex_adjust_pi() passes the change on along the chain it blocks.
 */
int sched_setscheduler(struct task_struct *p, int policy,
		       const struct sched_param *param)
{
	unsigned long flags;
	int ret = check_sched_param(p, policy, param->sched_priority);

	if (ret)
		return ret;
	preempt_disable();
	rq_lock_irqsave(&flags);
	p->policy = policy;
	p->rt_priority = param->sched_priority;
	p->normal_prio = normal_prio(p);
	rq_unlock_irqrestore(flags);
	preempt_enable();
	rt_mutex_adjust_pi(p);
	return 0;
}

void __noreturn cpu_idle(void)
{
	for (;;) {
		arch_local_irq_disable();
		if (!need_resched()) {
			arch_safe_halt();
			continue;
		}
		arch_local_irq_enable();
		schedule();
	}
}

void cpu_stat_read(unsigned int cpu, struct cpu_stat *st)
{
	struct cpu_rq *rq = &cpu_rqs[cpu];
	unsigned long flags;
	u64 delta;

	rq_lock_irqsave(&flags);
	delta = ktime_get_ns() - rq->last_switch;
	st->idle_ns = rq->idle_ns;
	st->busy_ns = rq->busy_ns;
	if (rq->curr == rq->idle)
		st->idle_ns += delta;
	else if (rq->curr)
		st->busy_ns += delta;
	st->switches = rq->switches;
	st->nr_wakeups = rq->nr_wakeups;
	rq_unlock_irqrestore(flags);
}

/*
 * Under rq_lock: whether self is the only task that runs or waits to
 * run: the run queue is empty and every other CPU idles.
 */
static bool only_runner(struct task_struct *self)
{
	if (!list_empty(&runqueue))
		return false;
	for (unsigned int cpu = 0; cpu < NR_CPUS; cpu++) {
		struct task_struct *curr = cpu_rqs[cpu].curr;

		if (curr && curr != cpu_rqs[cpu].idle && curr != self)
			return false;
	}
	return true;
}

static bool only_runner_now(void *self)
{
	unsigned long flags;
	bool alone;

	rq_lock_irqsave(&flags);
	alone = only_runner(self);
	rq_unlock_irqrestore(flags);
	return alone;
}

/*
 * Whether nothing can ever wake the tasks that sleep, as self sees it:
 * no task but self runs or waits to run, and no timer that is not
 * deferrable is armed or running, at one instant (both locks held), so
 * that a task cannot arm a timer and fall asleep between the two looks.
 * docs/testing.md has the argument.
 */
bool sched_machine_stuck(struct task_struct *self)
{
	return timer_quiet_and(only_runner_now, self);
}

/* For a person checking a stuck verdict: each CPU and the run queue. */
void sched_show_queue(void)
{
	struct task_struct *p;
	unsigned long flags;

	rq_lock_irqsave(&flags);
	for (unsigned int cpu = 0; cpu < NR_CPUS; cpu++) {
		p = cpu_rqs[cpu].curr;
		if (!p)
			continue;
		if (p == cpu_rqs[cpu].idle)
			printk("    # CPU%u idles\n", cpu);
		else
			printk("    # CPU%u runs %s/%d\n", cpu, p->comm, p->pid);
	}
	if (list_empty(&runqueue))
		printk("    # run queue empty\n");
	list_for_each_entry(p, &runqueue, run_list)
		printk("    # queued to run: %s/%d prio %d\n", p->comm, p->pid,
		       p->prio);
	rq_unlock_irqrestore(flags);
}

/* Called with interrupts off by do_exit(): never returns. */
void __noreturn sched_exit_current(void)
{
	WRITE_ONCE(current->state, EXIT_ZOMBIE);
	preempt_disable();
	__schedule();
	panic("a dead task was scheduled again");
}

/* The boot CPU's boot stack becomes init_task, then its idle task. */
void sched_init(void)
{
	struct cpu_rq *rq = &cpu_rqs[0];

	rq->curr = rq->idle = &init_task;
	rq->last_switch = ktime_get_ns();
	init_task.on_cpu = 1;
}

void sched_start(void)
{
	scheduler_running = true;
}

void sched_init_secondary(unsigned int cpu)
{
	struct cpu_rq *rq = &cpu_rqs[cpu];

	rq->curr = rq->idle = current;
	rq->last_switch = ktime_get_ns();
	current->on_cpu = 1;
}

unsigned long might_sleep_reports;

/*
 * A function that may sleep was called where sleeping is a bug: holding a
 * spinlock (preempt_count raised), in an interrupt, or with interrupts off.
 */
void __might_sleep(const char *file, int line)
{
	if (!scheduler_running || (!in_atomic() && !irqs_disabled()))
		return;
	might_sleep_reports++;
	report_mark_start();
	printk("BUG: sleeping function called from invalid context at %s:%d\n",
	       file, line);
	printk("in_atomic(): %d, irqs_disabled(): %d, pid: %d, name: %s\n",
	       in_atomic(), irqs_disabled(), current->pid, current->comm);
	dump_stack();
	report_mark_end();
}
