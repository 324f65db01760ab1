// SPDX-License-Identifier: GPL-2.0
/*
 * Kernel timers and sleeping with a timeout. Pending timers sit on one list
 * under one lock; the boot CPU's tick runs the expired ones, one at a time,
 * with the lock dropped around each callback.
 */
#include <kernel.h>
#include <sched.h>
#include <timer.h>
#include <spinlock.h>

static DEFINE_SPINLOCK(timer_lock);
static LIST_HEAD(timer_list_head);
static struct timer_list *volatile running_timer;

void timer_setup(struct timer_list *t, void (*fn)(struct timer_list *),
		 unsigned int flags)
{
	INIT_LIST_HEAD(&t->entry);
	t->function = fn;
	t->expires = 0;
	t->flags = flags;
}

int timer_pending(const struct timer_list *t)
{
	return !list_empty(&t->entry);
}

int mod_timer(struct timer_list *t, unsigned long expires)
{
	unsigned long flags;
	int was_pending;

	spin_lock_irqsave(&timer_lock, flags);
	was_pending = timer_pending(t);
	if (was_pending)
		list_del_init(&t->entry);
	t->expires = expires;
	list_add_tail(&t->entry, &timer_list_head);
	spin_unlock_irqrestore(&timer_lock, flags);
	return was_pending;
}

void add_timer(struct timer_list *t)
{
	mod_timer(t, t->expires);
}

int del_timer(struct timer_list *t)
{
	unsigned long flags;
	int was_pending;

	spin_lock_irqsave(&timer_lock, flags);
	was_pending = timer_pending(t);
	if (was_pending)
		list_del_init(&t->entry);
	spin_unlock_irqrestore(&timer_lock, flags);
	return was_pending;
}

int del_timer_sync(struct timer_list *t)
{
	int was_pending;

	for (;;) {
		was_pending = del_timer(t);
		if (running_timer != t)
			return was_pending;
		cpu_relax();
	}
}

/*
 * Under timer_lock: whether a timer that is not deferrable is armed, or
 * a callback is running (run_timers() sets running_timer before it drops
 * the lock and clears it after taking it back, so one of the two shows).
 */
static bool wakeup_pending_locked(void)
{
	struct timer_list *t;

	if (running_timer)
		return true;
	list_for_each_entry(t, &timer_list_head, entry)
		if (!(t->flags & TIMER_DEFERRABLE))
			return true;
	return false;
}

bool timer_quiet_and(bool (*quiet)(void *arg), void *arg)
{
	unsigned long flags;
	bool pending;

	spin_lock_irqsave(&timer_lock, flags);
	pending = wakeup_pending_locked() || !quiet(arg);
	spin_unlock_irqrestore(&timer_lock, flags);
	return !pending;
}

static struct timer_list *first_expired(void)
{
	struct timer_list *t;

	list_for_each_entry(t, &timer_list_head, entry)
		if (time_after_eq(jiffies, t->expires))
			return t;
	return NULL;
}

/* From the boot CPU's tick, in interrupt context. */
void run_timers(void)
{
	struct timer_list *t;

	spin_lock(&timer_lock);
	while ((t = first_expired())) {
		list_del_init(&t->entry);
		running_timer = t;
		spin_unlock(&timer_lock);
		t->function(t);
		spin_lock(&timer_lock);
		running_timer = NULL;
	}
	spin_unlock(&timer_lock);
}

struct sleeper {
	struct timer_list timer;
	struct task_struct *task;
};

static void process_timeout(struct timer_list *t)
{
	struct sleeper *s = container_of(t, struct sleeper, timer);

	wake_up_process(s->task);
}

/* schedule_timeout() on a timer of the given timer_setup() flags. */
static long __schedule_timeout(long timeout, unsigned int timer_flags)
{
	struct sleeper s;
	unsigned long expire;
	long left;

	if (timeout == MAX_SCHEDULE_TIMEOUT) {
		schedule();
		return timeout;
	}
	if (timeout < 0) {
		__set_current_state(TASK_RUNNING);
		return 0;
	}
	expire = jiffies + timeout;
	timer_setup(&s.timer, process_timeout, timer_flags);
	s.task = current;
	mod_timer(&s.timer, expire);
	schedule();
	del_timer_sync(&s.timer);
	left = (long)(expire - jiffies);
	return left < 0 ? 0 : left;
}

/*
 * Sleeps (in the state the caller set) for up to timeout jiffies. Returns
 * the jiffies left when woken early, else 0.
 */
long schedule_timeout(long timeout)
{
	return __schedule_timeout(timeout, 0);
}

long schedule_timeout_interruptible(long timeout)
{
	__set_current_state(TASK_INTERRUPTIBLE);
	return schedule_timeout(timeout);
}

long schedule_timeout_uninterruptible(long timeout)
{
	__set_current_state(TASK_UNINTERRUPTIBLE);
	return schedule_timeout(timeout);
}

/* One extra tick: the current one is already partly gone. */
void msleep(unsigned int msecs)
{
	long timeout = msecs_to_jiffies(msecs) + 1;

	might_sleep();
	while (timeout)
		timeout = schedule_timeout_uninterruptible(timeout);
}

void msleep_poll(unsigned int msecs)
{
	long timeout = msecs_to_jiffies(msecs) + 1;

	might_sleep();
	while (timeout) {
		__set_current_state(TASK_UNINTERRUPTIBLE);
		timeout = __schedule_timeout(timeout, TIMER_DEFERRABLE);
	}
}

unsigned long msleep_interruptible(unsigned int msecs)
{
	long timeout = msecs_to_jiffies(msecs) + 1;

	might_sleep();
	while (timeout && !signal_pending(current))
		timeout = schedule_timeout_interruptible(timeout);
	return jiffies_to_msecs(timeout);
}

static void show_timer(struct timer_list *t)
{
	printk("    # timer %pS due in %ld ticks%s", t->function,
	       (long)(t->expires - jiffies),
	       t->flags & TIMER_DEFERRABLE ? " (deferrable)" : "");
	if (t->function == process_timeout) {
		struct task_struct *p = container_of(t, struct sleeper,
						     timer)->task;

		printk(": wakes %s/%d", p->comm, p->pid);
	}
	printk("\n");
}

/* For a person checking a stuck verdict: the timers, armed and running. */
void show_timers(void)
{
	struct timer_list *t;
	unsigned long flags;
	unsigned int n = 0;

	spin_lock_irqsave(&timer_lock, flags);
	if (running_timer)
		printk("    # timer running: %pS\n", running_timer->function);
	list_for_each_entry(t, &timer_list_head, entry) {
		show_timer(t);
		n++;
	}
	spin_unlock_irqrestore(&timer_lock, flags);
	if (!n)
		printk("    # no timer armed\n");
}
