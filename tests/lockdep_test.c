// SPDX-License-Identifier: GPL-2.0
/*
 * The lock-order validator (CONFIG_PROVE_LOCKING).
 *
 * lockdep_selftest, in the manner of Linux's locking self-tests: scenarios
 * (AA, ABBA, ..., a double unlock, an irq inversion) crossed with the lock
 * kinds (spinlock, mutex, semaphore, and mutexes and semaphores mixed).
 * Every cell takes its locks in this one task, in sequence: the validator
 * proves a deadlock from the order alone, so none is ever real. Each cell
 * starts from classes that no earlier cell has seen, and checks that
 * exactly the expected reports were made, the validator's and those of the
 * debug build's own checks, and nothing else. The suite prints the table.
 *
 * lockdep: what the table cannot show. An ABBA in two tasks that never
 * overlap (no deadlock happens, so the deadlock detector is silent), the
 * classes of completions' wait locks, and full tables switching the
 * validator off.
 */
#include <kernel.h>
#include <string.h>
#include <irq.h>
#include <mutex.h>
#include <semaphore.h>
#include <completion.h>
#include <printk.h>
#include "helpers.h"

#define NONE		(-1)
#define NR_LETTERS	5	/* A to E */

/*
 * The class keys of every lock here: one per letter, and one for the
 * deep stack. Each row is an object of its own, so its address is a key
 * no other lock has; all in one array, so one call forgets them all.
 */
static const char keys[NR_LETTERS + 1][28] = {
	"A (lockdep self-test)", "B (lockdep self-test)",
	"C (lockdep self-test)", "D (lockdep self-test)",
	"E (lockdep self-test)", "deep (lockdep self-test)",
};
#define DEEP_KEY	keys[NR_LETTERS]

enum kind { SPIN, MUTEX, SEM, MIXED, NR_KINDS };

static const char *const kind_name[NR_KINDS] = {
	"spin", "mutex", "sem", "mixed",
};

#define ALL_KINDS	((1 << NR_KINDS) - 1)
#define ONE_KIND_EACH	((1 << SPIN) | (1 << MUTEX) | (1 << SEM))

/* Two locks per letter and kind: "AA" takes two locks of one class. */
struct test_lock {
	spinlock_t spin;
	struct mutex mutex;
	struct semaphore sem;
};

static struct test_lock locks[NR_LETTERS][2];

/* Forgets what the validator learnt, and gives every lock its class. */
static void fresh_locks(void)
{
	lockdep_reset_keys(keys, sizeof(keys));
	for (int l = 0; l < NR_LETTERS; l++) {
		for (int i = 0; i < 2; i++) {
			struct test_lock *t = &locks[l][i];

			__spin_lock_init(&t->spin, keys[l], keys[l]);
			__mutex_init(&t->mutex, keys[l], keys[l]);
			__sema_init(&t->sem, 1, keys[l]);
		}
	}
}

/* In the mixed column, letters alternate: A a mutex, B a semaphore, ... */
static enum kind kind_of(enum kind kind, int letter)
{
	if (kind != MIXED)
		return kind;
	return letter % 2 ? SEM : MUTEX;
}

static void lock(enum kind kind, int letter, int i)
{
	struct test_lock *t = &locks[letter][i];

	switch (kind_of(kind, letter)) {
	case SPIN:
		spin_lock(&t->spin);
		break;
	case MUTEX:
		mutex_lock(&t->mutex);
		break;
	default:
		down(&t->sem);
		break;
	}
}

static void lock_nested(enum kind kind, int letter, int i,
			unsigned int subclass)
{
	struct test_lock *t = &locks[letter][i];

	if (kind == SPIN)
		spin_lock_nested(&t->spin, subclass);
	else
		mutex_lock_nested(&t->mutex, subclass);
}

static bool trylock(enum kind kind, int letter, int i)
{
	struct test_lock *t = &locks[letter][i];

	switch (kind_of(kind, letter)) {
	case SPIN:
		return spin_trylock(&t->spin);
	case MUTEX:
		return mutex_trylock(&t->mutex);
	default:
		return down_trylock(&t->sem) == 0;
	}
}

static void unlock(enum kind kind, int letter, int i)
{
	struct test_lock *t = &locks[letter][i];

	switch (kind_of(kind, letter)) {
	case SPIN:
		spin_unlock(&t->spin);
		break;
	case MUTEX:
		mutex_unlock(&t->mutex);
		break;
	default:
		up(&t->sem);
		break;
	}
}

static void reinit(enum kind kind, int letter)
{
	struct test_lock *t = &locks[letter][0];

	switch (kind) {
	case SPIN:
		__spin_lock_init(&t->spin, keys[letter], keys[letter]);
		break;
	case MUTEX:
		__mutex_init(&t->mutex, keys[letter], keys[letter]);
		break;
	default:
		__sema_init(&t->sem, 1, keys[letter]);
		break;
	}
}

/* ---- counting reports: every kind the kernel counts ---- */

enum {
	C_LOCKDEP,
	C_MUTEX = C_LOCKDEP + LOCKDEP_BUG_NR,
	C_SPIN_RECURSION = C_MUTEX + MUTEX_BUG_NR,
	C_SPIN_BAD_UNLOCK,
	C_MIGHT_SLEEP,
	C_WARN,
	NR_COUNTS,
};

static void snap(unsigned long *c)
{
	memcpy(c + C_LOCKDEP, lockdep_reports, sizeof(lockdep_reports));
	memcpy(c + C_MUTEX, mutex_debug_reports, sizeof(mutex_debug_reports));
	c[C_SPIN_RECURSION] = spin_debug_stats.recursion;
	c[C_SPIN_BAD_UNLOCK] = spin_debug_stats.bad_unlock;
	c[C_MIGHT_SLEEP] = might_sleep_reports;
	c[C_WARN] = warn_count;
}

static const char *count_name(int i)
{
	if (i < C_MUTEX)
		return lockdep_bug_title[i - C_LOCKDEP];
	if (i < C_SPIN_RECURSION)
		return mutex_bug_title[i - C_MUTEX];
	switch (i) {
	case C_SPIN_RECURSION:
		return "BUG: spinlock recursion";
	case C_SPIN_BAD_UNLOCK:
		return "BUG: spinlock bad unlock";
	case C_MIGHT_SLEEP:
		return "BUG: sleeping function called from invalid context";
	default:
		return "WARNING: (WARN_ON)";
	}
}

/* Exactly want[i] new reports of each kind i since before: none else. */
static bool check_counts(struct kunit *test, const char *what,
			 const unsigned long *before, const unsigned long *want)
{
	unsigned long now[NR_COUNTS];
	bool ok = true;

	snap(now);
	for (int i = 0; i < NR_COUNTS; i++) {
		if (now[i] - before[i] == want[i])
			continue;
		KUNIT_FAIL(test, "%s: %lu \"%s\" reports, expected %lu", what,
			   now[i] - before[i], count_name(i), want[i]);
		ok = false;
	}
	return ok;
}

/* ---- the scenarios ---- */

struct scenario;

/* One cell of the table being run: a scenario, with one kind of lock. */
struct cell {
	struct kunit *test;
	const struct scenario *sc;
	enum kind kind;
	unsigned long want[NR_COUNTS];	/* the reports it must make */
};

struct scenario {
	const char *name;
	void (*run)(struct cell *c);
	unsigned int kinds;	/* a bit per kind it applies to */
	const char *pairs;	/* run_pairs: "ABBA" is A then B, B then A */
	int expect;		/* run_pairs: the report expected, or NONE */
};

/*
 * Each pair of letters: take the first, then the second, release both.
 * A letter twice in a pair ("AA") means two locks of that class.
 */
static void run_pairs(struct cell *c)
{
	for (const char *p = c->sc->pairs; p[0] && p[1]; p += 2) {
		int a = p[0] - 'A', b = p[1] - 'A';

		lock(c->kind, a, 0);
		lock(c->kind, b, a == b);
		unlock(c->kind, b, a == b);
		unlock(c->kind, a, 0);
	}
	if (c->sc->expect != NONE)
		c->want[C_LOCKDEP + c->sc->expect] = 1;
}

/* Two locks of one class, the second annotated as nested: no report. */
static void run_nested(struct cell *c)
{
	lock(c->kind, 0, 0);
	lock_nested(c->kind, 0, 1, 1);
	unlock(c->kind, 0, 1);
	unlock(c->kind, 0, 0);
}

/* A then B; later B, then A only by trylock: a trylock orders nothing. */
static void run_trylock(struct cell *c)
{
	lock(c->kind, 0, 0);
	lock(c->kind, 1, 0);
	unlock(c->kind, 1, 0);
	unlock(c->kind, 0, 0);
	lock(c->kind, 1, 0);
	if (trylock(c->kind, 0, 0))
		unlock(c->kind, 0, 0);
	else
		KUNIT_FAIL(c->test, "trylock of a free lock failed");
	unlock(c->kind, 1, 0);
}

static void run_double_unlock(struct cell *c)
{
	lock(c->kind, 0, 0);
	unlock(c->kind, 0, 0);
	unlock(c->kind, 0, 0);
	c->want[C_LOCKDEP + LOCKDEP_BUG_UNLOCK_BALANCE] = 1;
	/* The debug build's own check reports it too. */
	if (c->kind == SPIN)
		c->want[C_SPIN_BAD_UNLOCK] = 1;
	else if (c->kind == MUTEX)
		c->want[C_MUTEX + MUTEX_BUG_DOUBLE_UNLOCK] = 1;
}

/* Refused after one report; the lock stays held and unlocks cleanly. */
static void run_init_held(struct cell *c)
{
	lock(c->kind, 0, 0);
	reinit(c->kind, 0);
	unlock(c->kind, 0, 0);
	/* The mutex's debug code refuses it before the validator sees it. */
	if (c->kind == MUTEX)
		c->want[C_MUTEX + MUTEX_BUG_INIT_HELD] = 1;
	else
		c->want[C_LOCKDEP + LOCKDEP_BUG_INIT_HELD] = 1;
}

/*
 * A, B, and A released first: legal, no report. B is still held, so C
 * comes after B, and C then B later is the one report. (A validator that
 * dropped the top lock, B, would find B's release unbalanced, and would
 * have put C after A instead: no cycle.)
 */
static void run_unlock_order(struct cell *c)
{
	lock(c->kind, 0, 0);
	lock(c->kind, 1, 0);
	unlock(c->kind, 0, 0);
	lock(c->kind, 2, 0);
	unlock(c->kind, 2, 0);
	unlock(c->kind, 1, 0);
	lock(c->kind, 2, 0);
	lock(c->kind, 1, 0);
	unlock(c->kind, 1, 0);
	unlock(c->kind, 2, 0);
	c->want[C_LOCKDEP + LOCKDEP_BUG_CIRCULAR] = 1;
}

/* ---- interrupts: spinlocks only; a hardirq is entered by hand ---- */

static spinlock_t *spin(int letter)
{
	return &locks[letter][0].spin;
}

static unsigned long fake_irq_enter(void)
{
	unsigned long flags;

	local_irq_save(flags);
	irq_enter();
	return flags;
}

static void fake_irq_exit(unsigned long flags)
{
	irq_exit(false);
	local_irq_restore(flags);
}

/* What an interrupt handler that takes the lock does. */
static void lock_in_irq(int letter)
{
	unsigned long flags = fake_irq_enter();

	spin_lock(spin(letter));
	spin_unlock(spin(letter));
	fake_irq_exit(flags);
}

static void lock_irqs_on(int letter)
{
	spin_lock(spin(letter));
	spin_unlock(spin(letter));
}

/* A then B with interrupts off: orders them, marks neither. */
static void lock_pair_irqs_off(int a, int b)
{
	unsigned long flags;

	spin_lock_irqsave(spin(a), flags);
	spin_lock(spin(b));
	spin_unlock(spin(b));
	spin_unlock_irqrestore(spin(a), flags);
}

/* A in an interrupt, and A with interrupts on. */
static void run_irq_inconsistent(struct cell *c)
{
	lock_in_irq(0);
	lock_irqs_on(0);
	c->want[C_LOCKDEP + LOCKDEP_BUG_INCONSISTENT] = 1;
}

/* A is irq-safe, B irq-unsafe; then the new order A -> B. */
static void run_irq_safe_to_unsafe(struct cell *c)
{
	lock_in_irq(0);
	lock_irqs_on(1);
	lock_pair_irqs_off(0, 1);
	c->want[C_LOCKDEP + LOCKDEP_BUG_IRQ_INVERSION] = 1;
}

/* The order A -> B first; B becomes irq-unsafe, then A irq-safe. */
static void run_irq_inversion(struct cell *c)
{
	lock_pair_irqs_off(0, 1);
	lock_irqs_on(1);
	lock_in_irq(0);
	c->want[C_LOCKDEP + LOCKDEP_BUG_IRQ_INVERSION] = 1;
}

/* Irq-safe, and taken with interrupts off elsewhere: right. */
static void run_irq_safe_irqsave(struct cell *c)
{
	unsigned long flags;

	lock_in_irq(0);
	spin_lock_irqsave(spin(0), flags);
	spin_unlock_irqrestore(spin(0), flags);
}

/*
 * An interrupt takes B while its task holds A: that orders nothing, the
 * interrupt did not wait for A. So B, then A, later is no cycle.
 */
static void run_irq_other_context(struct cell *c)
{
	local_irq_disable();
	spin_lock(spin(0));
	irq_enter();
	spin_lock(spin(1));
	spin_unlock(spin(1));
	irq_exit(false);
	spin_unlock(spin(0));
	local_irq_enable();
	lock_pair_irqs_off(1, 0);
}

static const struct scenario scenarios[] = {
	{ "AA", run_pairs, ONE_KIND_EACH, "AA", LOCKDEP_BUG_RECURSIVE },
	{ "AA_nested", run_nested, (1 << SPIN) | (1 << MUTEX) },
	{ "ABBA", run_pairs, ALL_KINDS, "ABBA", LOCKDEP_BUG_CIRCULAR },
	{ "ABBCCA", run_pairs, ALL_KINDS, "ABBCCA", LOCKDEP_BUG_CIRCULAR },
	{ "ABCABC", run_pairs, ALL_KINDS, "ABCABC", LOCKDEP_BUG_CIRCULAR },
	{ "ABBCCDDA", run_pairs, ALL_KINDS, "ABBCCDDA", LOCKDEP_BUG_CIRCULAR },
	{ "ABCDBDDA", run_pairs, ALL_KINDS, "ABCDBDDA", LOCKDEP_BUG_CIRCULAR },
	{ "ABCDBCDA", run_pairs, ALL_KINDS, "ABCDBCDA", LOCKDEP_BUG_CIRCULAR },
	{ "ABBA_twice", run_pairs, ALL_KINDS, "ABBAABBA",
	  LOCKDEP_BUG_CIRCULAR },
	{ "ABCDE_no_cycle", run_pairs, ALL_KINDS, "ABBCCDDEAE", NONE },
	{ "ABBA_trylock", run_trylock, ALL_KINDS },
	{ "double_unlock", run_double_unlock, ONE_KIND_EACH },
	{ "init_held", run_init_held, ONE_KIND_EACH },
	{ "unlock_order", run_unlock_order, ALL_KINDS },
	{ "irq_inconsistent", run_irq_inconsistent, 1 << SPIN },
	{ "irq_safe_to_unsafe", run_irq_safe_to_unsafe, 1 << SPIN },
	{ "irq_inversion", run_irq_inversion, 1 << SPIN },
	{ "irq_safe_irqsave", run_irq_safe_irqsave, 1 << SPIN },
	{ "irq_other_context", run_irq_other_context, 1 << SPIN },
};

/* ---- the table ---- */

static const char *cell_result[ARRAY_SIZE(scenarios)][NR_KINDS];

static bool run_cell(struct kunit *test, const struct scenario *sc,
		     enum kind kind)
{
	struct cell c = { .test = test, .sc = sc, .kind = kind };
	unsigned long before[NR_COUNTS];
	unsigned int failures = test->failures;
	char what[40];

	fresh_locks();
	snap(before);
	sc->run(&c);
	snprintf(what, sizeof(what), "%s/%s", sc->name, kind_name[kind]);
	return check_counts(test, what, before, c.want) &&
	       test->failures == failures;
}

/* One case per row: its name is the scenario's. */
static void run_row(struct kunit *test)
{
	for (size_t r = 0; r < ARRAY_SIZE(scenarios); r++) {
		const struct scenario *sc = &scenarios[r];

		if (strcmp(sc->name, test->name))
			continue;
		for (int k = 0; k < NR_KINDS; k++) {
			if (!(sc->kinds & (1 << k)))
				cell_result[r][k] = "-";
			else
				cell_result[r][k] = run_cell(test, sc, k) ? "ok"
								   : "FAILED";
		}
		return;
	}
	KUNIT_FAIL(test, "no scenario named %s", test->name);
}

static void print_table(struct kunit_suite *suite)
{
	printk("    # lock-order validator self-test:\n");
	printk("    # %-20s", "");
	for (int k = 0; k < NR_KINDS; k++)
		printk(" %7s", kind_name[k]);
	printk("\n");
	for (size_t r = 0; r < ARRAY_SIZE(scenarios); r++) {
		printk("    # %-20s", scenarios[r].name);
		for (int k = 0; k < NR_KINDS; k++) {
			const char *result = cell_result[r][k];

			printk(" %7s", result ? result : "");
		}
		printk("\n");
	}
	/* What is left in the graph is the kernel's own. */
	lockdep_reset_keys(keys, sizeof(keys));
}

/* Every cell may provoke a report: that is what they are for. */
static int provokes_reports(struct kunit *test)
{
	kunit_expect_reports(test);
	return 0;
}

#define ROW(row)	{ .run_case = run_row, .name = row }

static struct kunit_case selftest_cases[] = {
	ROW("AA"),
	ROW("AA_nested"),
	ROW("ABBA"),
	ROW("ABBCCA"),
	ROW("ABCABC"),
	ROW("ABBCCDDA"),
	ROW("ABCDBDDA"),
	ROW("ABCDBCDA"),
	ROW("ABBA_twice"),
	ROW("ABCDE_no_cycle"),
	ROW("ABBA_trylock"),
	ROW("double_unlock"),
	ROW("init_held"),
	ROW("unlock_order"),
	ROW("irq_inconsistent"),
	ROW("irq_safe_to_unsafe"),
	ROW("irq_inversion"),
	ROW("irq_safe_irqsave"),
	ROW("irq_other_context"),
	{}
};

static struct kunit_suite selftest_suite = {
	.name = "lockdep_selftest",
	.test_cases = selftest_cases,
	.init = provokes_reports,
	.suite_exit = print_table,
};

/* ---- what the deadlock detector cannot see ---- */

static DEFINE_MUTEX(dir_lock);
static DEFINE_MUTEX(file_lock);

/* A rename: the directory, then the file in it. */
static int rename_fn(void *unused)
{
	mutex_lock(&dir_lock);
	mutex_lock(&file_lock);
	mutex_unlock(&file_lock);
	mutex_unlock(&dir_lock);
	return 0;
}

/* A write that updates the directory's times: the file, then the dir. */
static int write_fn(void *unused)
{
	mutex_lock(&file_lock);
	mutex_lock(&dir_lock);
	mutex_unlock(&dir_lock);
	mutex_unlock(&file_lock);
	return 0;
}

/*
 * The two tasks run one after the other and never wait for each other:
 * no deadlock happens, and the debug build's detector, which looks at
 * tasks that are blocked, has nothing to see. The validator proves from
 * the two orders that it could happen.
 */
static void abba_without_deadlock(struct kunit *test)
{
	unsigned long before[NR_COUNTS], want[NR_COUNTS] = { 0 };
	unsigned long pos = printk_log_pos();
	struct task_struct *t;

	snap(before);
	t = kthread_run(rename_fn, NULL, "rename");
	KUNIT_ASSERT_NOT_NULL(test, t);
	kthread_join(t);
	t = kthread_run(write_fn, NULL, "write");
	KUNIT_ASSERT_NOT_NULL(test, t);
	kthread_join(t);
	want[C_LOCKDEP + LOCKDEP_BUG_CIRCULAR] = 1;
	check_counts(test, "ABBA in two tasks", before, want);
	/* The report shows both orders, each where it was taken. */
	KUNIT_EXPECT_TRUE(test, printk_log_find(pos, "rename_fn+"));
	KUNIT_EXPECT_TRUE(test, printk_log_find(pos, "write_fn+"));
	KUNIT_EXPECT_TRUE(test, printk_log_find(pos, "*** DEADLOCK ***"));
}

/* ---- classes come from where a lock is initialised ---- */

static void nest_wait_locks(struct completion *outer, struct completion *inner)
{
	unsigned long flags;

	spin_lock_irqsave(&outer->wait.lock, flags);
	spin_lock(&inner->wait.lock);
	spin_unlock(&inner->wait.lock);
	spin_unlock_irqrestore(&outer->wait.lock, flags);
}

/*
 * Completions initialised on two lines are two classes: their wait locks
 * may nest. Two initialised on one line are one class: nesting them is
 * the recursion the validator reports, by that line.
 */
static void completion_classes_by_init_site(struct kunit *test)
{
	unsigned long before[NR_COUNTS], want[NR_COUNTS] = { 0 };
	unsigned long pos = printk_log_pos();
	struct completion a, b, c[2];

	init_completion(&a);
	init_completion(&b);
	for (int i = 0; i < 2; i++)
		init_completion(&c[i]);
	snap(before);
	nest_wait_locks(&a, &b);
	nest_wait_locks(&c[0], &c[1]);
	want[C_LOCKDEP + LOCKDEP_BUG_RECURSIVE] = 1;
	check_counts(test, "completion wait locks", before, want);
	KUNIT_EXPECT_TRUE(test, printk_log_find(pos,
		"{(&c[i])->wait.lock (tests/lockdep_test.c:"));
}

/* ---- full tables: a report, then the validator is off ---- */

/* The limit was hit once; then everything works again after a reset. */
static void expect_switched_off(struct kunit *test, const char *what,
				unsigned long *before, unsigned long pos,
				const char *message)
{
	unsigned long want[NR_COUNTS] = { 0 };

	KUNIT_EXPECT_FALSE(test, lockdep_on);
	KUNIT_EXPECT_TRUE(test, printk_log_find(pos, message));
	fresh_locks();
	KUNIT_EXPECT_TRUE(test, lockdep_on);
	lock_pair_irqs_off(0, 1);
	lock_pair_irqs_off(1, 0);
	want[C_LOCKDEP + LOCKDEP_BUG_CIRCULAR] = 1;
	want[C_LOCKDEP + LOCKDEP_BUG_LIMIT] = 1;
	check_counts(test, what, before, want);
}

static void class_table_full(struct kunit *test)
{
	unsigned long before[NR_COUNTS], pos = printk_log_pos();
	unsigned int saved = lockdep_max_classes;

	fresh_locks();
	snap(before);
	lockdep_max_classes = 0;
	lock_irqs_on(0);		/* a class never seen: no room */
	lockdep_max_classes = saved;
	expect_switched_off(test, "class table", before, pos,
			    "BUG: MAX_LOCKDEP_KEYS too low!");
}

static void dependency_table_full(struct kunit *test)
{
	unsigned long before[NR_COUNTS], pos = printk_log_pos();
	unsigned int saved = lockdep_max_deps;

	fresh_locks();
	snap(before);
	lockdep_max_deps = 0;
	lock_pair_irqs_off(0, 1);	/* an order never seen: no room */
	lockdep_max_deps = saved;
	expect_switched_off(test, "dependency table", before, pos,
			    "BUG: MAX_LOCKDEP_ENTRIES too low!");
}

static spinlock_t deep[MAX_LOCK_DEPTH + 1];

/* One more lock than a task can hold: its own stack overflows. */
static void held_stack_full(struct kunit *test)
{
	unsigned long before[NR_COUNTS], pos = printk_log_pos();

	fresh_locks();
	for (int i = 0; i <= MAX_LOCK_DEPTH; i++)
		__spin_lock_init(&deep[i], DEEP_KEY, DEEP_KEY);
	snap(before);
	/* Interrupts off: the overflow is this task's, not a handler's. */
	local_irq_disable();
	for (int i = 0; i <= MAX_LOCK_DEPTH; i++)
		spin_lock_nested(&deep[i], i);
	for (int i = MAX_LOCK_DEPTH; i >= 0; i--)
		spin_unlock(&deep[i]);
	local_irq_enable();
	expect_switched_off(test, "held-lock stack", before, pos,
			    "BUG: MAX_LOCK_DEPTH too low!");
}

static struct kunit_case lockdep_cases[] = {
	KUNIT_CASE(abba_without_deadlock),
	KUNIT_CASE(completion_classes_by_init_site),
	KUNIT_CASE(class_table_full),
	KUNIT_CASE(dependency_table_full),
	KUNIT_CASE(held_stack_full),
	{}
};

static void forget_test_classes(struct kunit_suite *suite)
{
	lockdep_reset_keys(keys, sizeof(keys));
}

static struct kunit_suite lockdep_suite = {
	.name = "lockdep",
	.test_cases = lockdep_cases,
	.init = provokes_reports,
	.suite_exit = forget_test_classes,
};

kunit_test_suites(&selftest_suite, &lockdep_suite);
