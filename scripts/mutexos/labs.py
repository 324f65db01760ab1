"""The coursework labs: what each one grades, and its student trees.

Each lab names the arches it runs on and its checks. A check is worth
points on each of those arches:
  - "boot": the in-kernel test cases that its test= globs select, in one
    boot of the lab's build (MUTEX) at 2 CPUs; it passes when at least one
    case ran and every case it selects passed;
  - "insns": instructions that functions of the built kernel must have, in
    order (objdump): x86's atomics, whose missing lock prefix an emulator
    seldom shows as a race, and the native mutex fastpath;
  - "answers": the figures of answers.md against the benchmark log that
    the student took them from (lab 8, see answers.py);
  - "planted": the student's own tests (test= globs) booted with a planted
    version of the lab's code (Lab.planted) in place of the student's:
    the reference (planted "") must pass them, a wrong version must fail
    them, and catching one counts only if the reference passes.
Checks marked instructor run only in the full tree: their test files
(INSTRUCTOR_FILES) are not copied into the student trees.

make lab LAB=n DEST=dir writes lab n's student tree (generate()); the
regions in the source are rewritten as labmarks.py says. A grade of
record never runs the student's tests, scripts or Makefile: grading_tree()
takes only the files the lab's regions live in (and the answers) out of
the submission, into a fresh copy of the lab's starting tree with the
instructor's tests. make autograder LAB=n zips that starting tree alone
(write_autograder()), which then grades as the full tree does.
"""

import os
import re
import shutil
import subprocess
import tempfile
import zipfile
from dataclasses import dataclass

from . import arches, build, labmarks
from .build import KCSAN, BuildConfig

# The file at the top of a student tree: the number of its lab.
LAB_FILE = "LAB"
# A LAB file holds a number and a newline: one longer is not a LAB file,
# and is never read whole.
LAB_FILE_MAX = 16
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
# Every arch of the tree (arch/*/arch.mk), i386 first: labcheck.py grades
# the wrong solutions on the first, the quickest to boot.
ALL_ARCHES = tuple(sorted(arches.load_all(ROOT), key=lambda name: name != "i386"))
X86 = ("i386", "x86_64")
# Only the full tree has it: a tree without it is a student tree, even
# one whose LAB file was deleted.
INSTRUCTOR_PAGE = "docs/labs/instructor.md"
# Not copied into student trees: instructor-only tests and pages.
INSTRUCTOR_FILES = (
    "tests/wait_window_test.c",
    "tests/rwsem_test.c",
    INSTRUCTOR_PAGE,
    "docs/labs/solutions/",
)

# What every lab's code may use: the spinlock, sleeping and waking, the
# compiler's helpers, and the race detector's hooks in its build (its
# entry points, and the ASSERT_EXCLUSIVE_*() of the reference's lock
# code outside the lab regions). Never
# kunit_*, machine_exit, printk (but where the lab prints), the command
# line (boot_command_line) or kallsyms_lookup_name (precheck.py).
# The race detector's hooks, which its build compiles into every file.
RACE_DETECTOR = ("__tsan_*",)
SLEEPING = ("__spin_lock_init", "_spin_lock", "_spin_trylock", "_spin_unlock*",
            "schedule", "schedule_timeout", "wake_up_process", "__might_sleep",
            "preempt_schedule", "kcsan_check_access", "__udivmoddi4",
            "__aeabi_*") + RACE_DETECTOR
# What lab 2's macros (wait_event(), wake_up(), ...) expand to in their
# callers.
WAITING = ("prepare_to_wait", "finish_wait", "autoremove_wake_function",
           "default_wake_function", "__init_waitqueue_head", "__wake_up")
# A use of each function-like macro of a lab's headers, so that the check
# before running sees what the macro's body does: the header alone
# compiles none of it (Lab.probe).
ATOMIC_PROBE = "void lab_probe(atomic_t *v)\n{\n\tatomic_inc(v);\n\tatomic_dec(v);\n}\n"
WAIT_EVENT_PROBE = ("DECLARE_WAIT_QUEUE_HEAD(lab_probe_head);\n"
                    "long lab_probe(wait_queue_head_t *q, int *c)\n{\n"
                    "\tDECLARE_WAITQUEUE(e, current);\n\tDEFINE_WAIT(w);\n"
                    "\t(void)&e;\n\t(void)&w;\n\tinit_waitqueue_head(q);\n"
                    "\twake_up(q);\n\twake_up_nr(q, 2);\n\twake_up_all(q);\n"
                    "\twake_up_interruptible(q);\n\twake_up_interruptible_all(q);\n"
                    "\twait_event(*q, *c);\n"
                    "\treturn wait_event_interruptible(*q, *c) +\n"
                    "\t       wait_event_timeout(*q, *c, 1) +\n"
                    "\t       wait_event_interruptible_timeout(*q, *c, 1);\n}\n")
FASTPATH_PROBE = "int lab_probe(void)\n{\n\treturn __mutex_slowpath_needs_to_unlock();\n}\n"
WW_CLASS_PROBE = "DEFINE_WW_CLASS(lab_probe_wound);\nDEFINE_WD_CLASS(lab_probe_die);\n"
# The debug build's hooks in the mutex code (kernel/locking/mutex-debug.c).
MUTEX_DEBUG = ("__debug_mutex_enter", "debug_mutex_*", "spin_assert_held")

# No graded case may take longer, whatever it declares: a grade must end
# in bounded time (one lab on three arches in about two minutes).
MAX_CASE_SECS = 60


@dataclass(frozen=True)
class Check:
    """One graded check: its name, points per arch, and what it runs."""

    name: str
    points: int
    tests: str = ""             # test= globs of a boot check
    kind: str = "boot"
    insns: tuple = ()           # an "insns" check: (function, (mnemonics...))
    mutex: str = "native"
    instructor: bool = False
    conf: str = ""              # CONF= of its build: KCSAN for the race detector
    case_secs: int = 0          # its cases may take this long, whatever the grade's limit
    arches: tuple = ()          # only on these of the lab's arches (): all
    planted: str = ""           # a "planted" check: the wrong version's name

    def __post_init__(self):
        if self.case_secs > MAX_CASE_SECS:
            raise ValueError(f"check {self.name!r}: case_secs {self.case_secs} "
                             f"over the {MAX_CASE_SECS} s any graded case may take")

    def build(self, arch):
        """The BuildConfig of this check on arch."""
        return BuildConfig(arch, self.mutex, self.conf)

    def reports_fail(self):
        """Whether a report nobody provoked fails it: the debug build and
        the race detector's report what they find."""
        return self.mutex == "debug" or KCSAN in self.conf.split()

    def runs_on(self, arch):
        """Whether the check is graded on the arch named arch."""
        return not self.arches or arch in self.arches


@dataclass(frozen=True)
class Lab:
    """A lab: its number, title, arches and checks.

    files: what grading takes from a submission besides the files of the
    lab's regions and answers.md. case_timeout: the seconds each of its
    graded cases may take, when less than the grader's (0: the grader's).
    planted: (the file "planted" checks replace, the folder of the wrong
    versions of it as patches over the reference). allowed and asm: what
    its files may use, checked before they run (precheck.py); its
    handout says the same in one line. own_suites: the test suites that
    are the lab's own code (lab 9's tests), whose case functions are in
    its files (grade.wrong_calls()).
    """

    number: int
    title: str
    arches: tuple
    checks: tuple
    files: tuple = ()
    case_timeout: int = 0
    planted: tuple = ()
    allowed: tuple = ()         # symbols its files may use (precheck.py), fnmatch patterns
    asm: bool = False           # its handout asks for inline asm
    probe: str = ""             # C code that uses its headers' macros (precheck.py)
    own_suites: tuple = ()      # suites of its files' own tests (lab 9's)

    def checks_for(self, student):
        """The checks a tree runs: a student tree leaves out the instructor's."""
        return [c for c in self.checks if not (student and c.instructor)]


LABS = {lab.number: lab for lab in (
    Lab(0, "Boot, printk and gdb", ALL_ARCHES, (
        # The handed-out tree passes what the lab does not change: a
        # point, so that the skeleton's score stays at 10 %.
        Check("kernel boots, runs its tests, prints numbers and strings", 1,
              "kernel.*,vsnprintf.vsnprintf_decimal_test,"
              "vsnprintf.vsnprintf_string_char_test"),
        Check("vsnprintf: %p", 9, "vsnprintf.vsnprintf_pointer_test"),
    # %pS names a symbol: kallsyms_lookup() and sprint_symbol().
    ), allowed=("strlen", "strnlen", "kallsyms_lookup", "sprint_symbol", "__udivmoddi4",
                "__aeabi_*") + RACE_DETECTOR),
    Lab(1, "Atomics and the ticket spinlock", ALL_ARCHES, (
        # The stubs are right on one CPU, and the spinlock is not the
        # lab's code: a point each, so that the skeleton keeps 10 %.
        Check("atomic: one CPU", 1,
              "atomic.arithmetic,atomic.return_values,atomic.exchange"),
        # atomic_inc() is x86's own incl, outside the lab's regions but
        # in its file: a student may rewrite it too. Half the lab: an
        # atomic that is not one is a lost update, and in assembly (an
        # xadd without lock) only these checks see it every time; the
        # contended test sees it by chance.
        Check("atomic: one locked instruction each", 10, kind="insns", insns=(
            ("atomic_test_add_return", ("lock xadd",)), ("atomic_test_xchg", ("xchg",)),
            ("atomic_test_cmpxchg", ("lock cmpxchg",)), ("atomic_test_inc", ("lock incl",))),
              arches=X86),
        # An exclusive pair a retry loop closes: QEMU seldom shows the race
        # of a plain load and store, so the instructions are checked.
        Check("atomic: ldrex/strex loops", 10, kind="insns", insns=(
            ("atomic_test_add_return", ("ldrex", "add", "strex", "bne")),
            ("atomic_test_xchg", ("ldrex", "strex", "bne")),
            ("atomic_test_cmpxchg", ("ldrex", "strexeq"))), arches=("arm",)),
        # One AMO each where there is one; compare-and-swap has none.
        Check("atomic: one AMO each, an lr/sc loop for cmpxchg", 10, kind="insns", insns=(
            ("atomic_test_add_return", ("amoadd.w.aqrl",)),
            ("atomic_test_xchg", ("amoswap.w.aqrl",)),
            ("atomic_test_cmpxchg", ("lr.w", "bne", "sc.w.rl", "bnez", "fence rw,rw"))),
              arches=("riscv",)),
        Check("atomic: every CPU at once", 4, "atomic.contended"),
        # Every access to the atomics' counter watched: a load and a store
        # in C are seen between another CPU's, the assembly is not seen.
        Check("atomic: no CPU between load and store (race detector)", 4,
              "kcsan.atomic_ops_are_one_access", conf=KCSAN),
        Check("spinlock: mutual exclusion and irq forms", 1,
              "spinlock.mutual_exclusion,spinlock.irq_forms,spinlock.trylock_and_state"),
    ), asm=True, probe=ATOMIC_PROBE, allowed=RACE_DETECTOR),
    Lab(2, "Sleep and wakeup", ALL_ARCHES, (
        # The handed-out wait_event() tests after it sleeps: it sleeps
        # until its condition, under stress too, losing only the wakeup
        # that comes in the window. A point for what it passes, the rest
        # for the window.
        Check("wait_event sleeps until its condition, under stress", 1,
              "wait.wait_event_sleeps_until_condition,wait.wait_event_timeout_results,"
              "sched.sleep_wakeup_stress"),
        Check("no lost wakeup between test and sleep", 7,
              "wait.wakeup_between_test_and_sleep"),
        Check("no lost wakeup, interruptible", 2, "wait_window.*", instructor=True),
    ), allowed=SLEEPING + WAITING, probe=WAIT_EVENT_PROBE),
    Lab(3, "The mutex slowpath", ALL_ARCHES, (
        Check("mutex API", 1, "mutex.api_contract,mutex.define_mutex_is_unlocked"),
        Check("waiters get the mutex in FIFO order", 1, "mutex.fifo_order_of_waiters"),
        Check("counter states 1/0/-1", 1,
              "mutex_states.uncontended,mutex_states.handoff_to_the_last_waiter"),
        Check("unlock slowpath wakes the next waiter", 1, "mutex.no_lost_wakeup_stress"),
        Check("an unlock wakes one waiter; the count stays -1 while others wait", 1,
              "mutex_states.unlock_wakes_one_count_stays_negative"),
        Check("a woken waiter that lost goes back to the head", 1,
              "mutex_states.woken_waiter_that_lost_requeues_at_head"),
        # Most of the points: every case of the slowpath, in the build
        # that asserts wait_lock is held where it must be, that forces
        # the lost wakeup between wait_lock and sleep, and that holds
        # wait_lock while a woken waiter comes back to it and preempts an
        # unlock as it lets go of it (a list_del() or a wakeup outside
        # wait_lock: a lost waiter, a lost wakeup). A lost wakeup fails
        # it, and loses more than half the lab; the handed-out tree fails
        # it, and keeps only the two checks it passes (the stress, whose
        # stub unlock always wakes, and the race detector's, its list
        # touched under wait_lock): 2 of 20 on i386. Every pass through
        # the slowpath asserts wait_lock, so these cases are enough. Not
        # the stress: 10 s in this build on a quiet host, and a lost
        # wakeup there runs to the case's limit while the workers still
        # awake finish their share.
        Check("the slowpath in the debug build", 13,
              "mutex.fifo_order_of_waiters,mutex_states.*",
              mutex="debug"),
        # The race detector sees the wait list touched outside wait_lock.
        # Its one case took 5 to 30 s on a loaded host (docs/kcsan.md):
        # it gets the most any graded case may take. On i386 alone: the
        # wait list is the same C on every arch, and this boot is the
        # longest of the grade (12, 21 and 44 s on i386, x86_64 and arm
        # at load 5), which must end in about two minutes.
        Check("the wait list only under wait_lock (race detector)", 1,
              "kcsan.mutex_wait_list_is_not_a_race", conf=KCSAN,
              case_secs=MAX_CASE_SECS, arches=("i386",)),
    ), allowed=SLEEPING + MUTEX_DEBUG),
    Lab(4, "Interruptible locking and trylock", ALL_ARCHES, (
        # Lab 3's, which the handed-out tree passes: a point.
        Check("mutex API and FIFO order", 1, "mutex.api_contract,mutex.fifo_order_of_waiters"),
        # mutual_exclusion: a third of its workers take the lock by trylock
        Check("trylock returns 1 when taken", 5,
              "mutex.trylock_conventions,mutex.mutual_exclusion"),
        # Its cases catch a wakeup an interrupted waiter does not pass
        # on: half the lab.
        Check("a signal ends mutex_lock_interruptible", 6,
              "mutex.interruptible_gets_eintr,mutex.interrupted_waiter_passes_wakeup_on"),
    # No limit of its own: at 5 s and at 10 s the reference's
    # mutual_exclusion (1.4 s on a quiet host) ran out under load. A waiter
    # deaf to signals fails interruptible_gets_eintr after its own bound.
    ), allowed=SLEEPING + MUTEX_DEBUG),
    Lab(5, "The fastpath", ALL_ARCHES, (
        Check("native fastpath: lock decl/js, lock incl/jle", 9, kind="insns", insns=(
            ("mutex_lock", ("lock decl", "js")), ("mutex_unlock", ("lock incl", "jle"))),
              arches=X86),
        Check("native fastpath: ldrex/sub/strex then dmb; dmb then ldrex/add/strex", 9,
              kind="insns", insns=(
                  ("mutex_lock", ("ldrex", "sub", "strex", "dmb")),
                  ("mutex_unlock", ("dmb", "ldrex", "add", "strex"))), arches=("arm",)),
        Check("native fastpath: amoadd.w.aq/blez, amoadd.w.rl/bltz", 9, kind="insns", insns=(
            ("mutex_lock", ("amoadd.w.aq", "blez")),
            ("mutex_unlock", ("amoadd.w.rl", "bltz"))), arches=("riscv",)),
        # The stubs always take the slowpath, which passes the suite: a
        # point for it, so that the handed-out tree keeps 10 %. The dec
        # and xchg fastpaths are generic code the lab does not change
        # (make test runs them): graded, they were points for nothing.
        Check("mutex suite, native fastpath", 1,
              "mutex.api_contract,mutex.fifo_order_of_waiters,mutex_states.*"),
    ), asm=True, probe=FASTPATH_PROBE, allowed=RACE_DETECTOR),
    Lab(6, "Completions", ALL_ARCHES, (
        Check("complete and wait", 3,
              "completion.complete_before_wait,completion.complete_counts,"
              "completion.complete_releases_one_in_fifo_order"),
        Check("complete_all releases every waiter", 5, "completion.complete_all_wakes_all"),
        Check("timeouts and signals", 2, "completion.timeouts,completion.interruptible_wait"),
    # As lab 4's: the whole suite takes seconds; a waiter never released
    # waits out the limit.
    ), case_timeout=10, allowed=SLEEPING + (
        "__init_waitqueue_head", "__wake_up_locked", "default_wake_function")),
    Lab(7, "The deadlock detector", ALL_ARCHES, (
        # Not the lab's code: the handed-out tree passes them.
        Check("misuse reports", 1,
              "mutex_debug.double_unlock,mutex_debug.unlock_by_non_owner,"
              "mutex_debug.unlock_unlocked", mutex="debug"),
        Check("recursion and AB-BA", 4, "mutex_debug.AA,mutex_debug.ABBA", mutex="debug"),
        Check("longer cycles and the chain limit", 4,
              "mutex_debug.ABBCCA,mutex_debug.ABCABC,mutex_debug.cycle_of_25,"
              "mutex_debug.chain_over_limit", mutex="debug"),
        Check("the whole debug suite", 5, "mutex_debug.*", mutex="debug"),
    # The detector prints its reports, and the tasks' stacks.
    ), allowed=SLEEPING + ("__warn", "dump_stack", "show_stack", "mdelay", "printk",
                           "report_mark_*", "task_list", "task_list_lock",
                           "task_state_char")),
    # Graded on the figures alone: a boot of the benchmark would grade
    # the handed-out tree, which earned points with nothing done.
    # bench.log is the student's, from i386, the arch of the handout's
    # command.
    Lab(8, "Measure", ("i386",), (
        Check("answers.md: figures from bench.log", 10, kind="answers"),
    ), files=("bench.log",)),
    # A design lab: the hidden tests grade the code, the planted wrong
    # versions grade the student's tests (docs/labs/lab9.md).
    Lab(9, "Design: a reader-writer semaphore", ALL_ARCHES, (
        # A writer beside readers breaks mutual exclusion: with this
        # check and the two it fails with it, it loses half the lab.
        Check("readers share, a writer is alone", 10,
              "rwsem.readers_share,rwsem.writer_is_alone,"
              "rwsem.writer_waits_for_every_reader", instructor=True),
        Check("a late reader waits behind a waiting writer", 3,
              "rwsem.reader_queues_behind_waiting_writer", instructor=True),
        Check("the readers at the head enter together", 3,
              "rwsem.readers_at_the_head_enter_together", instructor=True),
        Check("many readers and writers at once", 2, "rwsem.stress", instructor=True),
        # The handed-out example test passes on the stub and on the
        # reference: a point each, so that the stub keeps under 10 %.
        Check("your tests pass on your rwsem", 1, "rwsem_student.*"),
        *(Check(title, 1 if not name else 2, "rwsem_student.*", kind="planted",
                planted=name, instructor=True, arches=("i386",)) for name, title in (
            ("", "your tests pass on a correct rwsem"),
            ("readers-exclusive", "your tests catch: readers never share"),
            ("writer-ignores-readers", "your tests catch: a writer beside readers"),
            ("reader-passes-writer", "your tests catch: a reader passes a waiting writer"),
            ("one-reader-per-release", "your tests catch: one reader let in per release"))),
    ), planted=("kernel/locking/rwsem.c", "docs/labs/solutions/lab9-mutants"),
        own_suites=("rwsem_student",),
        # The student's tests fail their cases as every test does, and
        # call the semaphore's API (the stub's example does).
        allowed=SLEEPING + ("strlen", "rwsem_holder_*") + tuple(
            f"tests/rwsem_student_test.c:{s}" for s in (
                "kunit_abort", "kunit_fail_current", "init_rwsem", "down_read", "up_read",
                "down_write", "up_write"))),
    # The boost and its chain (docs/labs/lab10.md): each case checks
    # priorities and order, and a stub fails them at once, never hangs.
    Lab(10, "Priority inversion and inheritance", ALL_ARCHES, (
        # The stub passes these: a point, so that it keeps under 10 %.
        Check("the API, waiters by priority, deadlocks refused", 1,
              "rtmutex.api_contract,rtmutex.waiters_by_priority_fifo_among_equals,"
              "rtmutex.deadlock_refused,rtmutex.unlock_by_other_refused"),
        Check("the owner runs at its top waiter's priority", 4,
              "rtmutex.donation_from_one_waiter,rtmutex.donation_from_several"),
        Check("boosts follow the chain", 4, "rtmutex.chain_of_3,rtmutex.chain_of_8"),
        Check("boosts taken back: a waiter leaves, a priority changes", 4,
              "rtmutex.donation_lowered_when_waiter_leaves_on_signal,"
              "rtmutex.priority_changed_while_boosted,"
              "rtmutex.top_waiter_lowered_below_another"),
        Check("priority inversion bounded", 3, "rtmutex.inversion_with_rt_mutex"),
        Check("the rt-mutex and real-time suites, debug build", 2,
              "rtmutex.*,sched_rt.*", mutex="debug"),
    # Its reports print, and walk the task list.
    ), allowed=SLEEPING + ("printk", "rt_mutex_*", "debug_rt_mutex_*", "task_list",
                           "task_list_lock")),
    # The bank's back-off loop and wait-die's stamp comparison
    # (docs/labs/lab11.md). The scripted cases fail a wrong loop at
    # once, without a hang: a loop that goes on without a lock it was
    # refused (mutual exclusion broken) fails them and the debug build's
    # rule checks, more than half the lab. The skeleton passes nothing.
    Lab(11, "Deadlock avoidance: the wound/wait mutex", ALL_ARCHES, (
        Check("wait-die: the younger dies, the older waits, stamps wrap", 4,
              "ww_lab.wait_die_decisions"),
        Check("a transfer and an audit alone", 1, "ww_lab.transfer_and_audit"),
        Check("back off: let all go, sleep on the contended one, same stamp", 6,
              "ww_lab.back_off_once,ww_lab.back_off_twice"),
        Check("transfers and audits at once keep the total", 4,
              "ww_lab.transfers_and_audits"),
        Check("the bank in the debug build, which checks the ww_mutex rules", 5,
              "ww_lab.*", mutex="debug"),
    # BUG_ON() of a bank too large panics.
    ), allowed=SLEEPING + ("ww_mutex_*", "ww_acquire_*", "panic"),
        probe=WW_CLASS_PROBE),
)}


class LabError(Exception):
    """Bad input to make lab or make grade: the message says what."""


class SubmissionError(LabError):
    """A submission that cannot be graded as handed in: the message says why."""


def get(number):
    """The lab numbered number (an int or a string)."""
    try:
        lab = LABS[int(number)]
    except (TypeError, ValueError, KeyError):
        known = ", ".join(str(n) for n in LABS)
        raise LabError(f"LAB={number}: there is no such lab (the labs are {known})") from None
    return lab


def is_student_tree(root):
    """Whether root is a student tree: it has a LAB file, whatever that
    says, or lacks the page only the full tree has."""
    return os.path.lexists(os.path.join(root, LAB_FILE)) or \
        not os.path.exists(os.path.join(root, INSTRUCTOR_PAGE))


def student_lab(root):
    """The lab of the student tree at root, or None for the full tree.

    LabError when its LAB file is missing or names no lab.
    """
    if not is_student_tree(root):
        return None
    return read_lab_file(os.path.normpath(os.path.join(root, LAB_FILE)))


def read_lab_file(path):
    """The lab that the LAB file at path names; LabError says what is wrong."""
    if not os.path.lexists(path):
        raise LabError(f"{path}: no such file (it holds the lab's number)")
    if not os.path.isfile(path):
        raise LabError(f"{path} is not a file (it holds the lab's number)")
    with open(path, "rb") as f:
        data = f.read(LAB_FILE_MAX + 1)
    if len(data) > LAB_FILE_MAX:
        raise LabError(f"{path} is more than {LAB_FILE_MAX} bytes long: "
                       "it holds only the lab's number")
    try:
        text = data.decode("ascii").strip()
    except UnicodeDecodeError:
        text = None
    if not text or not text.isprintable():
        what = "is empty" if not data.strip() else "is not text"
        raise LabError(f"{path} {what}: it holds the lab's number")
    try:
        return get(text)
    except LabError:
        raise LabError(f"{path} says '{text}', which names no lab "
                       f"(the labs are {', '.join(map(str, LABS))})") from None


# ---------------------------------------------------------------- generator

def source_files(root):
    """The files of the full tree at root that a student tree starts from."""
    if not os.path.isdir(os.path.join(root, ".git")) and \
            not os.path.isfile(os.path.join(root, ".git")):
        raise LabError("make lab runs in the full MutexOS tree (a git checkout)")
    out = subprocess.run(["git", "ls-files", "-z", "--cached", "--others",
                          "--exclude-standard"], cwd=root, check=True,
                         capture_output=True).stdout.decode()
    return sorted(p for p in out.split("\0") if p and not is_instructor(p)
                  and os.path.isfile(os.path.join(root, p)))


def is_instructor(path):
    """Whether path is instructor-only (not copied into student trees)."""
    return any(path == f or (f.endswith("/") and path.startswith(f))
               for f in INSTRUCTOR_FILES)


def generate(root, number, dest):
    """Write lab number's student tree to dest, which must be new or empty.

    The tree is written in a temporary folder beside dest and moved in
    place only when complete: an error leaves dest as it was.
    """
    lab = get(number)
    dest = _new_dest(root, dest, "make lab")
    parent = os.path.dirname(dest)
    files = source_files(root)
    work = tempfile.mkdtemp(prefix=".lab-", dir=parent)
    try:
        write_tree(root, files, lab, work)
        _git_init(work, lab)
        _move_in(work, dest)
    except BaseException:
        shutil.rmtree(work, ignore_errors=True)
        raise
    return dest


def _new_dest(root, dest, what):
    """dest made absolute, after checking that what (make lab, make
    student-repo) may write it: LabError says why not."""
    if is_student_tree(root):
        raise LabError(f"this is a student tree: {what} runs in the full tree")
    dest = os.path.abspath(dest)
    if os.path.exists(dest) and (not os.path.isdir(dest) or os.listdir(dest)):
        raise LabError(f"DEST={dest} exists and is not an empty folder: "
                       "nothing written")
    parent = os.path.dirname(dest)
    if not os.path.isdir(parent):
        raise LabError(f"DEST={dest}: its parent folder {parent} does not exist")
    return dest


def _move_in(work, dest):
    if os.path.isdir(dest):
        os.rmdir(dest)
    os.rename(work, dest)


def write_tree(root, files, lab, work):
    """Write lab's student tree of files (source_files(root)) into work."""
    for path in files:
        _copy(root, path, work, lab.number)
    _write(work, LAB_FILE, f"{lab.number}\n")
    _write(work, "answers.md", answers_template(root, lab))


def _copy(root, path, work, lab):
    src = os.path.join(root, path)
    dst = os.path.join(work, path)
    os.makedirs(os.path.dirname(dst), exist_ok=True)
    if path.endswith(labmarks.SOURCE_SUFFIXES):
        with open(src, encoding="utf-8") as f:
            text = f.read()
        new = labmarks.render(text, lab, path)
        if new != text:
            _write(work, path, new)
            if max(labmarks.labs_in(text, path)) >= lab:
                shutil.copymode(src, dst)
            else:
                # Only markers went: the code is the reference's, so the
                # file keeps its time and a build folder copied from the
                # full tree need not rebuild what it includes.
                shutil.copystat(src, dst)
            return
    shutil.copy2(src, dst)


def _write(work, path, text):
    with open(os.path.join(work, path), "w", encoding="utf-8") as f:
        f.write(text)


def handout(lab):
    """The handout of lab, relative to the tree's root."""
    return f"docs/labs/lab{lab.number}.md"


def answers_template(root, lab):
    """answers.md of a new tree: the handout's Questions section."""
    with open(os.path.join(root, handout(lab)), encoding="utf-8") as f:
        text = f.read()
    start = text.find("\n## Questions")
    if start < 0:
        raise LabError(f"{handout(lab)} has no '## Questions' section")
    end = text.find("\n## ", start + 1)
    body = text[start + 1:end if end > 0 else len(text)].rstrip()
    return (f"# Lab {lab.number}: {lab.title}: answers\n\n"
            f"Answer below each question ({handout(lab)}).\n\n{body}\n")


def _git(repo, *args, work_tree=None):
    """Run git in the repository at repo (on work_tree's files if given);
    its output. LabError, with git's own message, if it fails."""
    tree = ["--work-tree", work_tree] if work_tree else []
    proc = subprocess.run(["git", "-c", "user.name=MutexOS labs",
                           "-c", "user.email=labs@mutexos.invalid", *tree, *args],
                          cwd=repo, check=False, capture_output=True, text=True)
    if proc.returncode:
        raise LabError(f"git {args[0]} failed: {proc.stderr.strip() or proc.stdout.strip()}")
    return proc.stdout.strip()


def _commit_message(lab):
    return f"Lab {lab.number} ({lab.title}): the starting tree"


def _git_init(work, lab):
    # A repository of its own: the student's changes are "git diff".
    _git(work, "init", "-q")
    _git(work, "add", "-A")
    _git(work, "commit", "-q", "-m", _commit_message(lab))


def branch(lab):
    """The student repository's branch of lab."""
    return f"lab{lab.number}"


def student_repo(root, dest):
    """Write the students' repository to dest, which must be new or empty.

    A branch per lab (branch()) holds that lab's student tree, in one
    commit whose parent is the previous lab's: "git diff lab3 lab4" shows
    what lab 4 hands out. Lab 0's branch is checked out. Each tree holds
    the reference of the labs before its own, so a branch is published
    only once the lab before it is closed (docs/labs/instructor.md).
    Written beside dest and moved in whole, as generate() does.
    """
    dest = _new_dest(root, dest, "make student-repo")
    files = source_files(root)
    work = tempfile.mkdtemp(prefix=".student-repo-", dir=os.path.dirname(dest))
    try:
        _git(work, "init", "-q")
        parent = []
        for lab in sorted(LABS.values(), key=lambda lab: lab.number):
            parent = ["-p", _commit_lab(root, files, lab, work, parent)]
        _git(work, "symbolic-ref", "HEAD", f"refs/heads/{branch(LABS[min(LABS)])}")
        _git(work, "reset", "-q", "--hard")
        _move_in(work, dest)
    except BaseException:
        shutil.rmtree(work, ignore_errors=True)
        raise
    return dest


def _commit_lab(root, files, lab, repo, parent):
    """Commit lab's student tree in repo on its branch, after parent
    (["-p", commit] or []); the commit."""
    with tempfile.TemporaryDirectory(prefix=".tree-", dir=os.path.dirname(repo)) as tree:
        write_tree(root, files, lab, tree)
        _git(repo, "read-tree", "--empty")
        # --force: the tree is exactly what the student gets, whatever
        # its .gitignore says.
        _git(repo, "add", "-A", "--force", ".", work_tree=tree)
        sha = _git(repo, "commit-tree", _git(repo, "write-tree"), *parent,
                   "-m", _commit_message(lab))
    _git(repo, "update-ref", f"refs/heads/{branch(lab)}", sha)
    return sha


ANSWERS_FILE = "answers.md"
# The largest file grading takes from a submission (1 MB): a lab's
# sources are tens of KB, and bench.log a few.
SUBMITTED_MAX = 1 << 20


def submitted_files(root, lab):
    """The files grading takes from a submission of lab (the full tree or
    lab's autograder tree at root)."""
    if autograder_lab(root):
        with open(os.path.join(root, AUTOGRADER_FILE), encoding="utf-8") as f:
            return f.read().split()[1:]
    paths = sorted({path for path, _ in regions(root).get(lab.number, ())})
    return paths + [ANSWERS_FILE, *lab.files]


# The file at the top of a lab's autograder tree (make autograder): the
# lab's number, then the files a grade takes from a submission, a line each.
AUTOGRADER_FILE = "AUTOGRADER"


def autograder_lab(root):
    """The lab whose autograder tree root is, or None."""
    path = os.path.join(root, AUTOGRADER_FILE)
    if not os.path.isfile(path):
        return None
    with open(path, encoding="utf-8") as f:
        return get(f.readline().strip())


def starting_tree(root, lab, dest):
    """Write dest, new: what lab's grades start from, the lab's student
    tree with the instructor's tests."""
    generate(root, lab.number, dest)
    for path in INSTRUCTOR_FILES:
        if path.startswith("tests/"):
            shutil.copy2(os.path.join(root, path), os.path.join(dest, path))


def write_autograder(root, number, dest):
    """Write Gradescope's zip for lab number at dest: lab's starting tree
    (none of the full tree) with setup.sh and run_autograder on top."""
    lab = get(number)
    dest = os.path.abspath(dest)
    if not os.path.isdir(os.path.dirname(dest)):
        raise LabError(f"DEST={dest}: its folder does not exist")
    with tempfile.TemporaryDirectory() as tmp:
        tree = os.path.join(tmp, "source")
        starting_tree(root, lab, tree)
        shutil.rmtree(os.path.join(tree, ".git"))
        write_planted(root, lab, os.path.join(tree, PLANTED))
        _write(tree, AUTOGRADER_FILE,
               "\n".join([str(lab.number), *submitted_files(root, lab)]) + "\n")
        with zipfile.ZipFile(dest, "w", zipfile.ZIP_DEFLATED) as z:
            for top, dirs, files in os.walk(tree):
                dirs.sort()
                for name in sorted(files):
                    path = os.path.join(top, name)
                    z.write(path, os.path.relpath(path, tree))
            for name, text in autograder_scripts(lab).items():
                info = zipfile.ZipInfo(name)
                info.external_attr = 0o100755 << 16
                z.writestr(info, text)
    return dest


def autograder_scripts(lab):
    """Gradescope's setup.sh and run_autograder for lab, by name. Gradescope
    unpacks the zip into /autograder/source and runs both as root."""
    arches = " ".join(lab.arches)
    return {
        "setup.sh": "#!/bin/sh\n# The tools the grade of record builds and boots with.\n"
                    f"exec /autograder/source/scripts/check-tools.sh --with grade {arches}\n",
        "run_autograder": "#!/bin/sh\n"
                          f"exec /autograder/source/scripts/run_autograder {lab.number}\n",
    }


def grading_tree(root, tree, lab, dest):
    """Write dest: lab's starting tree with the submission at tree graded in it.

    dest gets lab's student tree, the instructor's test files, and from
    tree only submitted_files(): its tests, Makefile and scripts are never
    used. Returns notes for the report (files the submission lacks);
    SubmissionError, before dest is touched, for files it will not take
    (submitted_path()).
    """
    tree = os.path.abspath(tree)
    if not os.path.isdir(tree):
        raise SubmissionError(f"TREE={tree} is not a folder")
    found, problems = {}, []
    for path in submitted_files(root, lab):
        try:
            found[path] = submitted_path(tree, path)
        except SubmissionError as e:
            problems.append(str(e))
    if problems:
        raise SubmissionError("; ".join(problems))
    shutil.rmtree(dest, ignore_errors=True)
    shutil.rmtree(planted_folder(dest), ignore_errors=True)
    if autograder_lab(root):
        shutil.copytree(root, dest, symlinks=True,
                        ignore=lambda top, names: ["build"] if top == root else [])
        if lab.planted:
            shutil.copytree(os.path.join(root, PLANTED), planted_folder(dest))
    else:
        starting_tree(root, lab, dest)
        write_planted(root, lab, planted_folder(dest))
    notes = []
    for path, src in found.items():
        if src is None:
            notes.append(f"{path}: not a file in the submission; graded as handed out")
            continue
        # copyfile, not copy2: a new time, so make rebuilds what it feeds.
        shutil.copyfile(src, os.path.join(dest, path))
    return notes


def submission_lab(tree):
    """The lab that the LAB file of the submission at tree names; LabError
    says why none does (it has none, it leads out of the submission, ...)."""
    path = submitted_path(tree, LAB_FILE)
    if path is None:
        raise SubmissionError(f"the submission has no {LAB_FILE} file")
    return read_lab_file(path)


def submitted_path(tree, path):
    """Where file path of the submission at tree really is; None if it has none.

    SubmissionError if it leads out of the submission (a symbolic link to
    the instructor's reference, say), is not a regular file (a pipe would
    hang the grade) or is over SUBMITTED_MAX bytes.
    """
    top = os.path.realpath(tree)
    src = os.path.join(top, path)
    if not os.path.lexists(src):
        return None
    real = os.path.realpath(src)
    if os.path.commonpath([top, real]) != top:
        raise SubmissionError(f"{path} leads out of the submission, to {real} "
                              "(a symbolic link): hand in the file itself")
    if not os.path.isfile(real):
        raise SubmissionError(f"{path} is not a file")
    size = os.path.getsize(real)
    if size > SUBMITTED_MAX:
        raise SubmissionError(f"{path} is {size} bytes, over the 1 MB "
                              f"({SUBMITTED_MAX} bytes) a file handed in may have")
    return real


# Where an autograder's tree (make autograder) keeps the planted versions
# of a lab's file, by name ("reference.c" for the reference): outside
# its grading tree, build/grade-tree.
PLANTED = os.path.join("build", "planted")


def planted_folder(tree):
    """Where the grade of the grading tree at tree finds the planted
    versions: beside it, never in it, where the sandbox would show the
    reference to every build of the lab (grade_planted() copies each
    version into the tree for its own boot)."""
    return os.path.normpath(tree) + ".planted"


def planted_source(tree, name):
    """The planted version name ("": the reference) of the tree being graded."""
    return os.path.join(planted_folder(tree), f"{name or 'reference'}.c")


def write_planted(root, lab, folder):
    """Write lab's planted versions of its file from the full tree at root
    into folder, new."""
    if not lab.planted:
        return
    path, patches_folder = lab.planted
    shutil.rmtree(folder, ignore_errors=True)
    os.makedirs(folder)
    patches = sorted(n for n in os.listdir(os.path.join(root, patches_folder))
                     if n.endswith(".patch"))
    for name in [""] + [n[:-len(".patch")] for n in patches]:
        out = os.path.join(folder, f"{name or 'reference'}.c")
        shutil.copyfile(os.path.join(root, path), out)
        if name:
            proc = subprocess.run(["patch", "-s", "--no-backup-if-mismatch", out,
                                   os.path.join(root, patches_folder, f"{name}.patch")],
                                  capture_output=True, text=True, check=False)
            if proc.returncode:
                raise LabError(f"{patches_folder}/{name}.patch does not apply to {path}: "
                               f"{proc.stdout}{proc.stderr}".strip())
        with open(out, encoding="utf-8") as f:
            text = labmarks.render(f.read(), lab.number + 1, path)
        _write(folder, os.path.basename(out), text)


def copy_build_folder(root, dest, cfg):
    """Start dest's build folder of cfg as a copy of the full tree's.

    The student tree's files that equal the reference keep their times
    (_copy), so make rebuilds only what the lab changes. What the copy
    would hold of the reference of the lab or a later one is left out
    (drop_reference_builds()): the grade's sandbox shows dest whole.
    """
    folder = build.builddir(root, cfg)
    src, dst = os.path.join(root, folder), os.path.join(dest, folder)
    if os.path.isdir(src) and not os.path.exists(dst):
        shutil.copytree(src, dst, symlinks=True,
                        ignore=shutil.ignore_patterns("*.log", ".link.*"))
        drop_reference_builds(root, dest, dst)


# What of a build folder holds no code: its configuration, generated
# headers, object list and linker script.
BUILD_CONFIG = (".config", ".objects", ".cflags", "include", "linker.lds")


def drop_reference_builds(root, dest, folder):
    """Remove from the build folder folder of the tree dest each object
    (and its .d) built from a file that dest has anew, or of sources
    unknown (no .d), and all else but BUILD_CONFIG: the linked images, a
    compiled reference in any form.

    A file of dest is as root's when it has its time: generate() keeps
    the time of one whose code is root's (the labs before the tree's,
    their markers gone), and gives one with a stub, or a submission's, a
    new time, so that make rebuilds what it feeds anyway.
    """
    same = {}

    def unchanged(path):
        if path not in same:
            theirs, ours = os.path.join(root, path), os.path.join(dest, path)
            same[path] = os.path.isfile(ours) and os.path.isfile(theirs) and \
                os.stat(ours).st_mtime_ns == os.stat(theirs).st_mtime_ns
        return same[path]

    def kept(stem):
        sources = object_sources(stem + ".d")
        return os.path.isfile(stem + ".o") and bool(sources) and \
            all(unchanged(p) for p in sources)
    for top, dirs, files in os.walk(folder):
        if top == folder:
            dirs[:] = [d for d in dirs if d not in BUILD_CONFIG]
            files = [f for f in files if f not in BUILD_CONFIG]
        for name in files:
            stem, ext = os.path.splitext(os.path.join(top, name))
            if ext not in (".o", ".d") or not kept(stem):
                os.remove(stem + ext)


def object_sources(dep):
    """The files a dependency file (gcc -MMD -MP, then scripts/fixdep.py)
    says its object was built from, relative to the tree; [] if it has
    none. The options' stamps ($(wildcard ...)) are no source."""
    try:
        with open(dep, encoding="utf-8") as f:
            text = f.read().replace("\\\n", " ")
    except (OSError, UnicodeDecodeError):
        return []
    words = re.sub(r"\$\(wildcard [^)]*\)", " ", text).split()
    return [w for w in words if not w.endswith(":")]


def regions(root):
    """{lab: [(path, title)]} of every marked region of the tree at root."""
    found = {}
    for path in source_files(root):
        if not path.endswith(labmarks.SOURCE_SUFFIXES):
            continue
        with open(os.path.join(root, path), encoding="utf-8") as f:
            text = f.read()
        for lab, titles in labmarks.labs_in(text, path).items():
            found.setdefault(lab, []).extend((path, t) for t in titles)
    return found
