"""The test matrix: which configurations a selection means, and running them.

A selection gives arches, mutex builds and CPU counts; each one left out
means all of its values (see scripts/test.mk for the history):
  - every selected arch x mutex build x CPU count boots with
    expect_cpus=N; the CPU counts are the given ones, else the arch's
    ARCH_TEST_CPUS_NATIVE for the native build, ARCH_TEST_CPUS for the
    debug build; the builds kept to compare (COMPARE_BUILDS: dec, xchg,
    null, spin) differ from the native build in the mutex alone, and
    boot at the largest of ARCH_TEST_CPUS with the suites that reach
    the mutex (COMPARE_SUITES), where the others run every suite. The
    full matrix (nothing given) boots each of them on its
    COMPARE_ARCHES only, the debug build at all but its largest
    count, which the validator's boot (below) takes, and on an arch
    whose CPUs cannot take turns the native build at no more than
    RACING_CPUS (_native_cpus());
  - an arch with a raw image (ARCH_RAW_IMAGE) also boots the native
    build's raw image, at the native CPU counts, and, if it has a firmware
    stand-in (ARCH_FIRMWARE_SHIM), once more through it with all its CPUs:
    the board's way in. These boots run the suites that a way in can
    break (WAY_IN_SUITES): past the entry the kernel is the ELF's;
  - when no CPU count was given, each selected arch whose debug build is
    selected has a console check: a session typed into its console
    (console.py), at 2 CPUs; i386's native build has a shorter one;
    and a gdb check (kgdb.py): gdb on the kernel's own stub and the gdb
    helpers on both stubs, debug build, 2 CPUs, and beside it the
    debugger fuzzer's short run (kgdbfuzz.py: TEST_OPS operations of a
    constant run number at TEST_CPUS CPUs);
  - the real-time suites (RT_SUITES) run at 1, 2 and 4 CPUs on every
    arch: an arch whose native counts lack one boots the native build
    there once more with those suites alone, when native is selected and
    no CPU count was given;
  - every other boot asks for its tests (test=): a kernel told nothing
    boots to its console instead;
  - the full matrix adds a uniprocessor kernel (CONFIG_SMP=n), built as
    the 2006 kernels were (-Os, -mregparm=3, no frame pointers), when its
    arch and the native build are selected and no CPU count was given;
  - each selected arch boots the lock-order validator's build (debug with
    CONFIG_PROVE_LOCKING=y, and the lock statistics and the event tracer,
    whose suites need it or are cheap there) once, at its largest
    ARCH_TEST_CPUS count,
    when the debug build is selected and no CPU count was given; so does
    the race detector's build (debug with CONFIG_KCSAN=y and its
    interrupt watcher, KCSAN_BOOT), twice: every suite at the largest
    ARCH_TEST_CPUS count and at 1 CPU, khungtaskd on (KCSAN_APPEND);
    x86_64 (KCSAN_SUITES_ONLY) boots it once, its own suite and the
    lock suites (KCSAN_SUITES), with CONFIG_KCSAN=y alone;
  - when nothing at all was selected: the build check, the model check
    (spin), the runner check, the deterministic bench check (detbench.py),
    the debug build's price check (debugcost.py), the trace check
    (trace.py: make trace's abba scenario, i386),
    the verdict check, the GRUB check, the SD card check of each arch
    that boots from one (ARCH_MEDIA), and, in the full tree, the labs' check
    (labcheck.py: its TEST_PARTS; make check-labs runs the rest).
A boot of more than one CPU runs them in turns on one host thread where
its arch allows it, but for the native build's at the arch's largest
ARCH_TEST_CPUS count (_in_turns() says why).
Every configuration is built first, each build folder started from the
closest one built before it (build.start_from()), then the checks and the
boots run, -j at a time, the checks first, with at most
runner.THREADS_PER_CORE busy host threads per host core among them.
Each table is printed as its configuration completes and the total line
comes last.
"""

import functools
import os
import time
from dataclasses import dataclass, field

from . import build, checks, detbench, kgdb, kgdbfuzz, labcheck, trace
from .build import KCSAN, MUTEXES, BuildConfig
from .runner import (BootSpec, at, boot_tasks, choose_accels, default_jobs,
                     print_report, run_parallel, thread_budget)
from .verdict import StepResult, exit_code, failure_recap, total_line

# The build choices of the 2006 kernels (docs/sizes.md), i386 only.
SIZE_CONF = ("CONFIG_CC_OPTIMIZE_FOR_SIZE=y CONFIG_X86_REGPARM=y "
             "CONFIG_FRAME_POINTER=n")
# The uniprocessor kernel: spinlocks are only preemption control there.
# Built with the 2006 choices, it also checks that the whole kernel works
# with them, at no extra boot.
UP_BUILD = BuildConfig("i386", "native", f"CONFIG_SMP=n {SIZE_CONF}")
# The console checks: the debug build's session on every arch, and one
# of a build without mutex debugging.
CONSOLE_CPUS = 2
PLAIN_CONSOLE_BUILD = BuildConfig("i386", "native")
# The raw image and the firmware stand-in: the suites that a way in can
# break (CPUs, command line, memory, clocks); the rest runs from the ELF.
WAY_IN_SUITES = "test=smp*,kernel*,timer*,mutex.*"
# The lock-order validator rides on the debug build (docs/lockdep.md).
PROVE_LOCKING = "CONFIG_PROVE_LOCKING=y"
# Its boot in make test also runs the suites lock_stat and trace: lock
# statistics need the validator, and the tracer is off in the other builds.
VALIDATOR_BOOT = PROVE_LOCKING + " CONFIG_LOCK_STAT=y CONFIG_TRACING=y"
# The builds debugcost.py boots (make check-debug-cost).
DEBUG_COST_BUILDS = (BuildConfig("i386", "native"), BuildConfig("i386", "debug"),
                     BuildConfig("i386", "debug", PROVE_LOCKING))
TORTURE_SUITES = "test=mutex.*,completion.*,semaphore.*"
# The race detector (docs/kcsan.md): its suite and the lock suites, whose
# workers race on purpose and must still run clean, the debug build's
# own suite with them: its repair paths run beside the slowpath.
KCSAN_SUITES = ("test=kcsan.*,mutex.*,mutex_states.*,mutex_debug.*,spinlock.*,"
                "semaphore.*,completion.*,wait.*")
# Elsewhere the whole kernel runs under it, at 1 CPU too, where only the
# interrupt watcher sees anything: a task's race with a handler.
KCSAN_BOOT = KCSAN + " CONFIG_KCSAN_INTERRUPT_WATCHER=y"
# x86_64 keeps the one boot of KCSAN_SUITES: make test's time (about 10
# minutes on a 2-core host) has no room for its whole-kernel boots.
KCSAN_SUITES_ONLY = ("x86_64",)
# khungtaskd runs in the race detector's boots, so that its unlocked
# reads of every task are checked; its limit is above the longest time
# limit of any case (mutex.no_lost_wakeup_stress, 900 s), so a loaded
# host cannot make it report: a case that long is ended by its own limit.
KCSAN_APPEND = "hung_task_timeout=1000"
TORTURE_TIMEOUT = 3600


@dataclass(frozen=True)
class Selection:
    """What was asked for; None where nothing was given (= all values)."""

    arches: tuple | None = None
    mutexes: tuple | None = None
    cpus: tuple | None = None

    def nothing_given(self):
        """The full matrix: no arch, mutex build or CPU count given."""
        return self.arches is None and self.mutexes is None and self.cpus is None


@dataclass(frozen=True)
class Check:
    """A check that is no boot of the matrix: build, model, runner,
    det-bench, det-latency, verdicts, grub, sdcard."""

    kind: str
    arch: str


@dataclass
class Plan:
    """Builds first, then checks, then boots."""

    builds: list = field(default_factory=list)
    checks: list = field(default_factory=list)
    boots: list = field(default_factory=list)

    def add_build(self, cfg):
        """Build cfg, once."""
        if cfg not in self.builds:
            self.builds.append(cfg)


def test_plan(arches, sel, timeout=1200, with_labs=True):
    """The plan of make test for the selection sel.

    with_labs: the full matrix checks the labs (not in a lab's student
    tree, which cannot write the others).
    """
    plan = Plan()
    names = sel.arches or tuple(arches)
    mutexes = sel.mutexes or MUTEXES
    full = sel.nothing_given()
    for name in names:
        arch = arches[name]
        for mutex in mutexes:
            if full and name not in COMPARE_ARCHES.get(mutex, (name,)):
                continue
            cfg = BuildConfig(name, mutex)
            plan.add_build(cfg)
            counts = sel.cpus or _test_cpus(arch, mutex, full)
            tests = COMPARE_SUITES if mutex in COMPARE_BUILDS else "test=*"
            for cpus in counts:
                plan.boots.append(_expect_boot(
                    f"{name}-{mutex}-cpus{cpus}", cfg, arch.boot_image, cpus, timeout,
                    tests, turns=_in_turns(arch, cpus, racing=_racing(arch, mutex, cpus))))
        if "native" in mutexes and sel.cpus is None:
            _add_rt_boots(plan, arch, _test_cpus(arch, "native", full), timeout)
        if arch.raw_image and "native" in mutexes:
            _add_raw_boots(plan, arch, sel, timeout)
        if "debug" in mutexes and sel.cpus is None:
            _add_console_check(plan, arch, BuildConfig(name, "debug"), "debug", timeout)
            _add_gdb_check(plan, arch, timeout)
            _add_prove_locking(plan, arch, timeout)
            _add_kcsan(plan, arch, timeout)
    if UP_BUILD.arch in names and "native" in mutexes and sel.cpus is None \
            and UP_BUILD.arch in arches:
        plan.add_build(UP_BUILD)
        plan.boots.append(_expect_boot(f"{UP_BUILD.arch}-native-up", UP_BUILD,
                                       arches[UP_BUILD.arch].boot_image, 1, timeout))
    plain = PLAIN_CONSOLE_BUILD
    if plain.arch in names and plain.mutex in mutexes and sel.cpus is None \
            and plain.arch in arches:
        _add_console_check(plan, arches[plain.arch], plain, "plain", timeout)
    if sel.nothing_given():
        _add_checks(plan, arches, names, with_labs)
    return plan


# The builds kept to compare differ from the native build in the mutex
# alone: they boot at the largest count only (where CPUs race), with the
# suites that reach the mutex; the native and debug builds run them all.
COMPARE_BUILDS = ("dec", "xchg", "null", "spin")
COMPARE_SUITES = "test=mutex*,bench.*,kernel.*,smp.*"
# The full matrix boots each of them on one arch, where make test
# ARCH=... boots them all: what they add to the native build is their
# own C over the arch's atomics, which the native and debug builds check
# on every arch. The spin build's queue of spinners depends most on
# memory order: it runs on riscv, the weakest; xchg on the other weakly
# ordered arch. On every arch they were 16 builds and boots, two
# minutes of make test.
COMPARE_ARCHES = {"dec": ("x86_64",), "xchg": ("arm",), "null": ("i386",),
                  "spin": ("riscv",)}


def _test_cpus(arch, mutex, full=False):
    """The CPU counts a mutex build boots with when none are given.

    full: the full matrix (_debug_cpus(), _native_cpus()).
    """
    if mutex == "native":
        return _native_cpus(arch, full)
    if mutex in COMPARE_BUILDS:
        return (_smp_cpus(arch),)
    if mutex == "debug":
        return _debug_cpus(arch, full)
    return arch.test_cpus


# The scheduler's real-time classes and the rt-mutex: every arch at 1, 2
# and 4 CPUs, where priorities meet CPUs (docs/rt-mutex.md).
RT_SUITES = "test=rtmutex.*,sched_rt.*"
RT_CPUS = (1, 2, 4)


def _native_cpus(arch, full):
    """The native build's CPU counts: in the full matrix, on an arch whose
    CPUs cannot take turns (riscv), none over RACING_CPUS. Their threads
    would outnumber the 2-core machine's cores, and no more CPUs than
    cores run at once: riscv's 4-hart boot of every suite took 53 s and
    about 75 s of host CPU, most of it spinning behind a preempted holder,
    as the racing boots did at 4 CPUs (_in_turns()); the real-time suites
    still run at 4 (_add_rt_boots()), and make test ARCH=riscv boots
    every suite there."""
    if full and not arch.tcg_turns:
        return tuple(c for c in arch.test_cpus_native if c <= RACING_CPUS)
    return arch.test_cpus_native


def _add_rt_boots(plan, arch, booted, timeout):
    """The real-time suites at the RT_CPUS counts the native boots
    (booted) lack."""
    cfg = BuildConfig(arch.name, "native")
    for cpus in RT_CPUS:
        if cpus not in booted and cpus <= arch.max_cpus:
            plan.boots.append(_expect_boot(f"{arch.name}-native-rt-cpus{cpus}", cfg,
                                           arch.boot_image, cpus, timeout, RT_SUITES,
                                           turns=_in_turns(arch, cpus)))


def _add_prove_locking(plan, arch, timeout):
    """One boot of the whole suite under the lock-order validator."""
    cfg = BuildConfig(arch.name, "debug", VALIDATOR_BOOT)
    cpus = _smp_cpus(arch)
    plan.add_build(cfg)
    plan.boots.append(_expect_boot(f"{arch.name}-debug-lockdep-cpus{cpus}", cfg,
                                   arch.boot_image, cpus, timeout,
                                   turns=_in_turns(arch, cpus)))


def _add_kcsan(plan, arch, timeout):
    """The race detector's boots: every suite at the largest count and at
    1 CPU, or on the KCSAN_SUITES_ONLY arches one boot of KCSAN_SUITES."""
    largest = _smp_cpus(arch)
    if arch.name in KCSAN_SUITES_ONLY:
        cfg, counts, tests = BuildConfig(arch.name, "debug", KCSAN), (largest,), KCSAN_SUITES
    else:
        cfg, counts, tests = BuildConfig(arch.name, "debug", KCSAN_BOOT), (largest, 1), "test=*"
    plan.add_build(cfg)
    for cpus in counts:
        plan.boots.append(_expect_boot(f"{arch.name}-debug-kcsan-cpus{cpus}", cfg,
                                       arch.boot_image, cpus, timeout, tests,
                                       turns=_in_turns(arch, cpus), watchdog=KCSAN_APPEND))


def _smp_cpus(arch):
    """The CPUs of a boot of several that runs once per arch (the race
    detector's, a build kept to compare): the arch's largest count in
    turns, RACING_CPUS where its CPUs cannot take turns. A thread each for
    four riscv harts on the 2-core machine made the race detector's boot
    254 s at load average 4 and 785 s at 13, its quiet cases waiting for
    a watchpoint behind a preempted hart."""
    return max(arch.test_cpus) if arch.tcg_turns else RACING_CPUS


def _debug_cpus(arch, full):
    """The debug build's CPU counts: in the full matrix, the validator's
    boot takes its largest count (on riscv, whose harts cannot take
    turns, that boot has RACING_CPUS: four harts a thread each made it a
    minute, and the native build boots at 4) and, on the arches where the
    race detector boots every suite at 1 CPU, that boot takes 1 (both are
    the debug build with more)."""
    counts = arch.test_cpus
    if full:
        taken = {max(arch.test_cpus)}
        if arch.name not in KCSAN_SUITES_ONLY:
            taken.add(1)
        counts = tuple(c for c in counts if c not in taken)
    return counts


# The boots of more than one CPU run them in turns on one host thread
# (qemu.Boot.turns) where the arch allows it (ARCH_TCG_TURNS), but for
# the racing boot: the native build at RACING_CPUS, which gives each CPU
# a host thread of its own, as many as the 2-core machine has cores.
# With a thread each, four CPUs on a 2-core host spin on locks whose
# holder's thread the host has preempted: the racing boots at 4 CPUs
# took 26 to 45 s, three times their 1-CPU boots. In turns, a CPU that spins hands the thread on
# at its cpu_relax(), which QEMU takes as the end of its turn (a turn
# also ends at an interrupt, a halt, and after 100 ms): i386's debug
# build at 4 CPUs took 16.8 s and 13.8 s of host CPU with a thread each,
# 15.0 s and 6.9 s in turns (docs/testing.md). What turns give up: no two
# CPUs run at the same instant, so a race within one instruction (xadd
# without its lock prefix) never happens there; it may in the racing
# boot. The console and gdb checks keep a thread per CPU too: they
# drive the machine from outside, as a user does.
RACING_CPUS = 2


def _racing(arch, mutex, cpus):
    return mutex == "native" and cpus == RACING_CPUS


def _in_turns(arch, cpus, racing=False):
    return arch.tcg_turns and cpus > 1 and not racing


# The hung-task watchdog is a wall-clock limit: on a loaded host a case
# that waits for its workers can sleep longer than it, and its report
# would fail the run. The test runs rely on each case's own time limit
# instead; sched.hung_task_reported turns the watchdog on for itself.
TEST_APPEND = "hung_task_timeout=0"


def _expect_boot(name, cfg, image, cpus, timeout, tests="test=*", firmware="",
                 turns=False, watchdog=TEST_APPEND):
    # expect_cpus=N: the kernel's smp suite checks that N CPUs came up.
    return BootSpec(name, cfg, image, cpus,
                    f"{tests} expect_cpus={cpus} {watchdog}", timeout,
                    firmware=firmware, turns=turns)


def _add_raw_boots(plan, arch, sel, timeout):
    cfg = BuildConfig(arch.name, "native")
    for cpus in sel.cpus or arch.test_cpus_native:
        plan.boots.append(_expect_boot(f"{arch.name}-native-img-cpus{cpus}", cfg,
                                       arch.raw_image, cpus, timeout, WAY_IN_SUITES,
                                       turns=_in_turns(arch, cpus)))
    if arch.firmware_shim:
        for cpus in sel.cpus or (arch.max_cpus,):
            plan.boots.append(_expect_boot(f"{arch.name}-native-firmware-cpus{cpus}",
                                           cfg, arch.raw_image, cpus, timeout,
                                           WAY_IN_SUITES, arch.firmware_shim,
                                           turns=_in_turns(arch, cpus)))


def _add_console_check(plan, arch, cfg, script, timeout):
    # No test= on its command line: the kernel boots to its console.
    plan.add_build(cfg)
    plan.boots.append(BootSpec(f"{arch.name}-{cfg.mutex}-console-cpus{CONSOLE_CPUS}",
                               cfg, arch.boot_image, CONSOLE_CPUS, TEST_APPEND,
                               timeout, script=script))


def _add_gdb_check(plan, arch, timeout):
    # kgdb.py: the kernel's gdb stub and the gdb helpers, driven by gdb.
    cfg = BuildConfig(arch.name, "debug")
    plan.add_build(cfg)
    plan.boots.append(BootSpec(f"{arch.name}-debug-gdb-cpus{kgdb.CPUS}", cfg,
                               arch.boot_image, kgdb.CPUS, kgdb.APPEND, timeout,
                               gdb=True))
    # kgdbfuzz.py's short run: its own row in build/test-times.log.
    if arch.kgdb_port != "none":
        cpus = kgdbfuzz.TEST_CPUS
        plan.boots.append(BootSpec(f"{arch.name}-debug-gdb-fuzz-cpus{cpus}", cfg,
                                   arch.boot_image, cpus, kgdbfuzz.boot_append(cpus),
                                   timeout,
                                   fuzz=True))


def _add_checks(plan, arches, names, with_labs):
    plan.add_build(checks.SELFTEST_BUILD)
    plan.add_build(checks.ISO_BUILD)
    plan.checks.append(Check("build", checks.SELFTEST_BUILD.arch))
    plan.checks.append(Check("model", checks.SELFTEST_BUILD.arch))
    plan.checks.append(Check("runner", checks.SELFTEST_BUILD.arch))
    plan.add_build(detbench.BUILD)
    plan.checks.append(Check("det-bench", detbench.BUILD.arch))
    plan.add_build(detbench.LATENCY_BUILD)
    plan.checks.append(Check("det-latency", detbench.LATENCY_BUILD.arch))
    for cfg in DEBUG_COST_BUILDS:
        plan.add_build(cfg)
    plan.checks.append(Check("debug-cost", DEBUG_COST_BUILDS[0].arch))
    plan.add_build(trace.CHECK_BUILD)
    plan.checks.append(Check("trace", trace.CHECK_BUILD.arch))
    plan.checks.append(Check("verdicts", checks.ISO_BUILD.arch))
    plan.checks.append(Check("grub", checks.ISO_BUILD.arch))
    for name in names:
        if arches[name].media == "sdcard":
            plan.checks.append(Check("sdcard", name))
    # The lab trees start from copies of the matrix's build folders (every
    # arch and mutex build), so their builds recompile only what a lab
    # changed. The longest tasks of the run: they start first.
    if with_labs:
        for cfg in labcheck.root_builds(labcheck.TEST_PARTS):
            plan.add_build(cfg)
        plan.checks[:0] = [Check(f"labs-{part}", checks.SELFTEST_BUILD.arch)
                           for part in labcheck.TEST_PARTS]


def torture_plan(arches, sel, factor, cpus=(4,)):
    """make torture: the lock suites, factor times the work of make test."""
    plan = Plan()
    counts = sel.cpus or cpus
    for name in sel.arches or tuple(arches):
        for mutex in sel.mutexes or MUTEXES:
            cfg = BuildConfig(name, mutex)
            plan.add_build(cfg)
            for count in counts:
                label = f"torture-{name}-{mutex}"
                if len(counts) > 1:
                    label += f"-cpus{count}"
                plan.boots.append(BootSpec(label, cfg, arches[name].boot_image, count,
                                           f"stress={factor} {TORTURE_SUITES} "
                                           f"{TEST_APPEND}",
                                           TORTURE_TIMEOUT))
    return plan


def run_plan(root, arches, plan, jobs=None, accel="tcg", build_jobs=None):
    """Build, check, boot; print the tables and the total line; the exit code."""
    jobs = jobs or default_jobs()
    results, unbuilt = [], set()
    times = Timeline()
    for i, cfg in enumerate(plan.builds):
        why = times.record(f"build {cfg.label()}", 2,
                           lambda cfg=cfg, i=i: _build_from_closest(root, cfg, plan.builds[:i],
                                                                unbuilt, build_jobs))
        if why:
            unbuilt.add(cfg)
            results.append(StepResult(f"build {cfg.label()}", [why]))
            print_report(results[-1])
    used = sorted({spec.config.arch for spec in plan.boots}
                  | {check.arch for check in plan.checks})
    accels = choose_accels(arches, used, accel)
    # The checks share the boots' slots, first in the queue: several of
    # them wait on one process (spin, a single boot), and a boot fills
    # the core they leave.
    checks_first = [(_check_threads(check),
                     functools.partial(_run_check, root, arches, check, jobs,
                                       accels, unbuilt)) for check in plan.checks]
    tasks = checks_first + boot_tasks(root, arches, plan.boots, accels,
                                      frozenset(unbuilt))
    results += run_parallel(jobs, [(width, times.timed(width, task))
                                   for width, task in tasks],
                            print_report, thread_budget())
    times.write(at(root, TIMELINE))
    recap = failure_recap(results)
    if recap:
        print(recap)
    print(total_line(results), flush=True)
    return exit_code(results)


def _build_from_closest(root, cfg, before, unbuilt, jobs):
    """Build cfg, its folder started from the closest one built before it
    in this run (build.start_from()): most configurations differ from another
    in a few objects. None, or why it failed."""
    build.start_from(root, cfg, [c for c in before if c not in unbuilt])
    return build.build(root, cfg, jobs)


# Where make test's time went: a line per build, check and boot.
TIMELINE = os.path.join("build", "test-times.log")


class Timeline:
    """When each task of a run started and ended, for TIMELINE."""

    def __init__(self):
        self.start = time.monotonic()
        self.cpu = _children_cpu()
        self.rows = []

    def record(self, label, width, task):
        """Run task, noting its times under label; its result."""
        started = time.monotonic()
        result = task()
        self.rows.append((started - self.start, time.monotonic() - self.start,
                          width, label or getattr(result, "title", "?")))
        return result

    def timed(self, width, task):
        """task, noting its times under its result's title when it runs."""
        return lambda: self.record(None, width, task)

    def write(self, path):
        """The rows by start time, then the run's wall and CPU seconds."""
        wall = time.monotonic() - self.start
        with open(path, "w", encoding="utf-8") as f:
            f.write("# start end seconds host-threads task\n")
            for start, end, width, label in sorted(self.rows):
                f.write(f"{start:7.1f} {end:7.1f} {end - start:6.1f} {width} {label}\n")
            f.write(f"# {wall:.0f} s wall, {_children_cpu() - self.cpu:.0f} s of "
                    f"host CPU ({os.cpu_count()} cores)\n")


def _children_cpu():
    """The CPU seconds of every process this one has waited for."""
    t = os.times()
    return t.children_user + t.children_system


def _check_threads(check):
    """The host threads a check keeps busy: one for the icount boots (one
    thread runs all their CPUs), the trace scenario's CPUs, two for the
    others (the model checker's two lanes, builds with -j2, boots of up
    to 2 CPUs)."""
    if check.kind in ("det-bench", "det-latency", "debug-cost"):
        return 1
    if check.kind == "trace":
        return trace.CPUS
    return 2


def _run_check(root, arches, check, jobs, accels, unbuilt):
    accel = accels[check.arch]
    if check.kind == "build":
        return checks.check_build(root)
    if check.kind == "model":
        return checks.check_model(root)
    if check.kind == "det-bench":
        return detbench.check(root, arches)
    if check.kind == "det-latency":
        return detbench.check_latency(root, arches)
    if check.kind == "debug-cost":
        from . import debugcost     # it imports this module
        return debugcost.check(root, arches)
    if check.kind == "verdicts":
        return checks.check_verdicts(root, arches, accel)
    if check.kind == "trace":
        if trace.CHECK_BUILD in unbuilt:
            return StepResult("trace check", ["its kernel did not build"])
        return trace.check_scenario(root, arches, accel)
    if check.kind == "runner":
        if checks.SELFTEST_BUILD in unbuilt:
            return StepResult("runner check", ["its kernel did not build"])
        return checks.check_runner(root, arches, jobs, accel)
    if check.kind == "grub":
        if checks.ISO_BUILD in unbuilt:
            return StepResult("GRUB check", ["its kernel did not build"])
        return checks.check_iso(root, arches, accel)
    if check.kind.startswith("labs-"):
        return labcheck.check_labs(root, arches, accel, check.kind[len("labs-"):])
    return checks.check_sdcard(root, check.arch)
