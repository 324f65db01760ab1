"""The checks that are not boots of the matrix: build, runner, GRUB, SD card.

model: spin checks the Promela models of the mutex and of the test
  runner's stuck check (make verify).
build: the first build on a fresh machine, replayed with a stand-in
  installer, and CONF overrides that must be refused (scripts/check-build.sh).

runner: a runner that passes a broken kernel would make every green make
  test meaningless, so it checks itself: its unit tests, then a kernel
  whose test cases fail on purpose (a false expectation, a false
  assertion, a fault, a hang, a panic), each booted alone; every one of
  them must be judged failed.
verdicts: runs that did not test must never look green: a test= that
  selects nothing, test=list, a bad bench=, an unknown option, a QEMU
  that refuses to start; each must end the way it should.
GRUB: the kernel boots from an ISO through GRUB and passes a few suites.
SD card: the layout of the SD card image of an arch with a raw image.
"""

import os
import subprocess
import sys
from functools import partial

from . import build, qemu
from .build import BuildConfig
from .logs import open_log
from .runner import BootSpec, at, run_parallel, run_spec
from .verdict import Result, StepResult, total_line

SELFTEST_BUILD = BuildConfig("i386", "native", "CONFIG_KUNIT_SELFTEST_FAIL=y "
                             "CONFIG_KUNIT_STUCK_CHECK=y")
SELFTEST_CASES = ("expect_fail", "assert_fail", "fault", "hang", "stuck", "panic")
SELFTEST_TIMEOUT = 120
# Booted together: a case that times out while it expects reports, then
# one that must pass, as it starts with no report expected.
AFTER_TIMEOUT = ("hang_expecting_reports", "nothing_expected_after")
# Booted together: a deadlock of two tasks the case joins; the verdict
# must show both asleep in the mutex, and the case after it not run.
AFTER_STUCK = ("stuck_deadlock", "after_stuck")
STUCK_SAW = ("what the runner saw", "deadlock/ab/", "deadlock/ba/",
             "__mutex_lock_slowpath", "3 tasks of this case asleep for good",
             "not ok 1 stuck_deadlock # STUCK",
             "not ok 2 after_stuck # not run: a case before it is stuck")
# Quiet machines that still move on: none may be called stuck.
NOT_STUCK_CPUS = 4

ISO_BUILD = BuildConfig("i386", "native")
ISO_APPEND = "test=smp*,kernel*,mutex.* hung_task_timeout=0"
ISO_CPUS = 2
ISO_TIMEOUT = 600

HERE = os.path.dirname(os.path.abspath(__file__))


def unit_tests(log):
    """Run the package's unit tests with their output in log; whether they pass."""
    scripts = os.path.dirname(HERE)
    env = dict(os.environ, PYTHONPATH=scripts)
    argv = [sys.executable, "-m", "unittest", "discover",
            "-s", os.path.join(HERE, "tests"), "-t", scripts]
    return subprocess.run(argv, stdout=log, stderr=subprocess.STDOUT, env=env,
                          stdin=subprocess.DEVNULL, check=False).returncode == 0


def check_runner(root, arches, jobs, accel):
    """The runner's check: unit tests, then five broken kernels, all failed."""
    title = "runner check"
    log, unit_log = open_log(at(root, "build"), "runner-selftest")
    with log:
        passed = unit_tests(log)
    if not passed:
        _show(unit_log)
        return StepResult(title, ["the runner's unit tests failed"], unit_log)
    why = build.build(root, SELFTEST_BUILD)
    if why:
        return StepResult(title, [why])
    arch = arches[SELFTEST_BUILD.arch]
    specs = [BootSpec(f"selftest-{case}", SELFTEST_BUILD, arch.boot_image, 2,
                      f"test=selftest_fail.{case}", SELFTEST_TIMEOUT)
             for case in SELFTEST_CASES]
    specs.append(BootSpec("selftest-after-timeout", SELFTEST_BUILD,
                          arch.boot_image, 2, "test=" + ",".join(
                              f"selftest_fail.{case}" for case in AFTER_TIMEOUT),
                          SELFTEST_TIMEOUT))
    after_stuck = BootSpec("selftest-after-stuck", SELFTEST_BUILD,
                           arch.boot_image, 2, "test=" + ",".join(
                               f"selftest_fail.{case}" for case in AFTER_STUCK),
                           SELFTEST_TIMEOUT)
    not_stuck = BootSpec("selftest-not-stuck", SELFTEST_BUILD, arch.boot_image,
                         NOT_STUCK_CPUS, "test=stuck_check.* hung_task_timeout=0",
                         SELFTEST_TIMEOUT)
    out, boots_log = open_log(at(root, "build"), "runner-check")
    with out:
        results = run_parallel(jobs, [partial(run_spec, root, arch, spec, accel)
                                      for spec in specs + [after_stuck, not_stuck]],
                               partial(_write, out))
        _write(out, total_line(results))
    by_title = {r.title: r for r in results}
    passed = by_title.pop(not_stuck.title(arch.name))
    results = list(by_title.values())
    missed = missed_failures(results)
    if missed:
        _show(boots_log)
        return StepResult(title, [f"expected a failure, but these passed: "
                                  f"{', '.join(missed)}"], boots_log)
    stuck = specs[SELFTEST_CASES.index("stuck")]
    if not given_up_as_stuck(by_title[stuck.title(arch.name)]):
        _show(boots_log)
        return StepResult(title, ["a case asleep for good with no timer armed "
                                  "was not given up on as stuck"], boots_log)
    if not case_passed(by_title[specs[-1].title(arch.name)],
                       f"selftest_fail.{AFTER_TIMEOUT[1]}"):
        _show(boots_log)
        return StepResult(title, ["after a case timed out expecting reports, "
                                  "the next case still had reports expected"],
                          boots_log)
    unseen = lines_missing(by_title[after_stuck.title(arch.name)], STUCK_SAW)
    if unseen:
        _show(boots_log)
        return StepResult(title, ["a stuck verdict on two deadlocked tasks "
                                  f"did not print: {'; '.join(unseen)}"], boots_log)
    if passed.failed_config:
        _show(boots_log)
        return StepResult(title, ["a quiet machine that still moves on was "
                                  "judged failed (stuck_check)"], boots_log)
    return StepResult(title, note=(
        "its unit tests pass, and a failing expectation, a failed assertion, "
        "a fault, a hang, a stuck machine and a panic are each reported as "
        "failed; the case "
        "after a timed-out one expects no report; a stuck verdict shows the "
        "deadlocked tasks and runs no more cases of their suite; quiet "
        "machines that move on are not called stuck; logs: "
        f"{unit_log}, {boots_log}"))


def missed_failures(results):
    """The titles of the broken kernels that were judged passed."""
    return [r.title for r in results if not r.failed_config]


def given_up_as_stuck(result):
    """Whether the boot's runner gave up on selftest_fail.stuck as stuck
    (its limit is an hour: only the stuck check ends it within the boot's)."""
    try:
        with open(result.log, encoding="utf-8", errors="replace") as f:
            return any(line.strip() == "not ok 1 stuck # STUCK" for line in f)
    except OSError:
        return False


def lines_missing(result, wanted):
    """The strings of wanted that no line of the boot's log holds."""
    try:
        with open(result.log, encoding="utf-8", errors="replace") as f:
            text = f.read()
    except OSError:
        return list(wanted)
    return [w for w in wanted if w not in text]


def case_passed(result, name):
    """Whether the boot's result lists case name ("suite.case") as ok."""
    return (name, True) in [case for suite in result.suites
                            for case in suite.cases]


def _write(out, result):
    text = result if isinstance(result, str) else result.report()
    out.write((text + "\n").encode())
    out.flush()


def _show(path):
    """Print a log whose lines explain a failure."""
    with open(path, encoding="utf-8", errors="replace") as f:
        sys.stdout.write(f.read())


def check_iso(root, arches, accel, timeout=ISO_TIMEOUT):
    """Boot the kernel from a GRUB ISO; it must pass, mutex suite included."""
    arch = arches[ISO_BUILD.arch]
    title = f"iso-boot ({arch.name}, {ISO_CPUS} CPUs, GRUB)"
    why = build.build(root, ISO_BUILD)
    if why:
        return StepResult("GRUB check", [why])
    folder = at(root, build.builddir(root, ISO_BUILD))
    log, path = open_log(folder, "iso-boot")
    with log:
        # The ISO is named after the log, so a second run does not
        # rewrite the image the first one is booting.
        iso = path[:-len(".log")] + ".iso"
        why = build.build(root, ISO_BUILD, target="iso",
                          extra=[f"APPEND={ISO_APPEND}", f"ISO={os.path.abspath(iso)}"])
        if why:
            return Result.not_started(title, path, why)
        argv = qemu.command(arch, qemu.Boot(iso, ISO_CPUS, cdrom=True), accel)
        result = qemu.boot(title, argv, arch, timeout, log)
    if not any(suite.name == "mutex" for suite in result.suites):
        result.add_reason("the mutex suite reported no results")
    return result


def _run_script(root, script, logname):
    """Run scripts/<script> with its output in build/<logname>.log; (ok, log)."""
    log, path = open_log(at(root, "build"), logname)
    with log:
        code = subprocess.run([os.path.join(root, "scripts", script)],
                              cwd=root, stdout=log, stderr=subprocess.STDOUT,
                              stdin=subprocess.DEVNULL, env=build.make_env(),
                              check=False).returncode
    if code:
        _show(path)
    return code == 0, path


def check_model(root):
    """scripts/verify-model.sh: spin checks the Promela models of the mutex
    and of the stuck check."""
    ok, path = _run_script(root, "verify-model.sh", "verify-model")
    if not ok:
        return StepResult("model check", ["spin did not give the expected answer"], path)
    return StepResult("model check", note=(
        "spin proves mutual exclusion and no stranded waiter for every "
        "fastpath, and a stuck verdict never false, and finds every planted "
        f"bug; log: {path}"))


def check_build(root):
    """scripts/check-build.sh: the first build on a fresh machine, bad CONF."""
    ok, path = _run_script(root, "check-build.sh", "check-build")
    if not ok:
        return StepResult("build check", ["scripts/check-build.sh failed"], path)
    return StepResult("build check", note=(
        "a fresh machine's first build installs its tools and links, and "
        f"bad CONF overrides are refused; log: {path}"))


# (name, command line, CPUs, the status it must end with, a line its log
# must hold). None: QEMU itself must refuse, with no status.
VERDICT_CASES = (
    ("glob-matches-nothing", "test=doesnotexist", 2, 3, "selects no test case"),
    ("empty-glob", "test=", 2, 3, "selects no test case"),
    ("list", "test=list", 2, 4, "mutex."),
    ("bad-bench", "bench=nosuch", 2, 3, "unknown benchmark"),
    ("unknown-option", "foo=bar maxcpus=abc test=kernel.*", 2, 0,
     "Unknown kernel command line parameter 'foo=bar'"),
    ("qemu-refuses", "test=kernel.*", 300, None, ""),
)


def check_verdicts(root, arches, accel):
    """Each run of VERDICT_CASES ends as it must, and only a test run passes."""
    title = "verdict check"
    arch = arches[ISO_BUILD.arch]
    why = build.build(root, ISO_BUILD)
    if why:
        return StepResult(title, [why])
    image = os.path.join(at(root, build.builddir(root, ISO_BUILD)), arch.boot_image)
    folder = at(root, "build", "verdicts")
    problems = []
    for name, append, cpus, status, line in VERDICT_CASES:
        log, path = open_log(folder, name)
        with log:
            argv = qemu.command(arch, qemu.Boot(image, cpus, append), accel)
            result = qemu.boot(name, argv, arch, ISO_TIMEOUT, log)
        problems += _verdict_problems(name, result, status, line, path)
    if problems:
        return StepResult(title, problems)
    return StepResult(title, note=(
        f"{len(VERDICT_CASES)} runs that test nothing (an empty selection, "
        "test=list, a bad bench=, a QEMU that refuses) each end as they "
        f"must; logs in {folder}"))


def _verdict_problems(name, result, status, line, path):
    """What is wrong with one verdict run; empty when nothing."""
    with open(path, encoding="utf-8", errors="replace") as f:
        text = f.read()
    if result.status != status:
        return [f"{name}: status {result.status}, expected {status} (log: {path})"]
    if line and line not in text:
        return [f"{name}: no line '{line}' (log: {path})"]
    passed = not result.failed_config
    if passed != (status == 0):
        return [f"{name}: judged {'passed' if passed else 'failed'} (log: {path})"]
    return []


def check_sdcard(root, arch_name):
    """make sdcard-check for arch_name's native build."""
    cfg = BuildConfig(arch_name, "native")
    why = build.build(root, cfg, jobs=1, target="sdcard-check")
    return StepResult(f"sdcard-check {arch_name}", [why] if why else [],
                      note="the SD card image has the expected files")
