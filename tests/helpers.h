/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Small helpers shared by the test suites: starting one worker per CPU (or
 * N workers spread over the CPUs), waiting for them with a watchdog, and
 * waiting until a task has gone to sleep.
 */
#ifndef _TESTS_HELPERS_H
#define _TESTS_HELPERS_H

#include <kunit/test.h>
#include <kthread.h>
#include <smp.h>
#include <time.h>
#include <mutex.h>

#define MAX_WORKERS	64

/*
 * stress= on the command line multiplies the work of the stress cases
 * (default 1, a short run for make test; make torture uses more).
 */
extern unsigned int stress_factor;

struct workers {
	struct task_struct *task[MAX_WORKERS];
	int n;
};

/*
 * Starts n workers running fn(arg_i) where arg_i = args + i * size;
 * worker i is bound to CPU i % online CPUs when bind is true.
 */
int workers_start(struct workers *w, int n, int (*fn)(void *), void *args,
		  size_t size, bool bind, const char *name);
/* Reaps them all; returns how many returned non-zero. */
int workers_join(struct workers *w);

/*
 * Runs a(arg) bound to CPU 0 and b(arg) bound to CPU 1, woken in that
 * order, and reaps both: how many returned non-zero, or -ENOMEM when one
 * could not be created (then neither runs).
 */
int run_pair(int (*a)(void *), int (*b)(void *), void *arg,
	     const char *name);

/*
 * Waits (sleeping) up to secs seconds for *flag to become at least want.
 * A generous limit: it only catches a real hang, never a slow emulator.
 */
bool wait_for_count(volatile int *flag, int want, unsigned int secs);
/*
 * The same for a count that something outside the machine raises (the
 * gdb check, writing through the kernel's stub): it polls with msleep(),
 * whose timer counts, so that the runner's stuck check, which sees only
 * tasks and timers, does not give the case up while the host is on its
 * way.
 */
bool wait_for_host(volatile int *flag, int want, unsigned int secs);

/* How many tasks are queued on m. */
int wait_list_len(struct mutex *m);
/* Waits (sleeping, up to a minute) until n tasks are queued on m. */
bool wait_for_waiters(struct mutex *m, int n);

/* Waits until p sleeps in state (off its CPU). */
bool wait_for_sleep(struct task_struct *p, long state, unsigned int secs);

/*
 * Task bodies on a flag (a volatile int): spin_until_set() never sleeps
 * nor yields until the flag is set, so only preemption shares its CPU;
 * set_flag() sets it.
 */
int spin_until_set(void *flag);
int set_flag(void *flag);

/* wait_for_count() without sleeping: for a case that must keep its CPU. */
bool spin_for_count(volatile int *flag, int want, unsigned int secs);

/*
 * Runs fn(arg) as FIFO 50 on CPU 0, above every task a case starts: what
 * the driver wakes there waits until it sleeps or ends, and it can wait
 * for another CPU without sleeping. Returns fn's result, or -ENOMEM.
 */
int run_driver(int (*fn)(void *), void *arg);
/* A driver's fn: wakes each task of a NULL-ended array, in order. */
int wake_all(void *tasks);

/* Events in the order tasks logged them, from any CPU. */
#define ORDER_LOG_MAX	64
struct order_log {
	atomic_t n;
	int ev[ORDER_LOG_MAX];
};

void order_log_init(struct order_log *log);
void order_log_add(struct order_log *log, int ev);
/* The position of the first ev logged, or -1. */
int order_log_find(struct order_log *log, int ev);

#endif
