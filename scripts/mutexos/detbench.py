"""The deterministic benchmark check of make test: exact, and a regression gate.

Under icount (qemu.ICOUNT) a boot is a function of the kernel and its
command line: the figures of two boots agree to the last digit, whatever
the host's load, so they can be checked without statistics.

reproducible: the spin build boots twice with the same short VFS test;
  the CSV rows of the two boots must agree byte for byte.
gate: the VFS test at each of TASKS task counts measures the semaphore,
  the 2006 mutex, and the spinning mutex without and with handoff. Over
  those boots, the median of the 2006 mutex's CPU per loop against the
  semaphore's must stay at most 1, and the spinning mutex's against the
  2006 mutex's at most SPIN_CPU_LIMIT. One boot would not do: exact as it
  is, a change anywhere in the kernel (a tick that checks one more flag)
  moves where each task happens to meet the lock, and one task count's
  ratio with it: spin/2006 mutex was 1.13, 1.44 and 1.95 at 16 tasks in
  three trees with the same lock code, the median of the five 1.11, 1.46
  and 1.23.
The figures the gate judged and its thresholds go into the check's line.
"""

import filecmp
import os
import statistics

from . import bench, build, qemu
from .build import BuildConfig
from .logs import open_log
from .runner import at
from .verdict import STATUS_BENCH_DONE, StepResult

ARCH = "i386"
CPUS = 4
# 8 to 24 tasks on 4 CPUs contend; one guest second per lock keeps the
# check short (a boot takes seconds of host time: an idle guest costs
# nothing). The first count is booted twice, for the exact comparison.
APPEND = "bench=vfs vfs.secs=1"
TASKS = (16, 8, 12, 20, 24)
BUILD = BuildConfig(ARCH, "spin")
# A boot takes seconds of host time even on a loaded host; one that runs
# for minutes has stalled (docs/benchmarks.md, "Where icount got stuck").
TIMEOUT = 300
# The mutex loses when it keeps more CPUs busy per loop than the
# semaphore. Not loops per second: on icount's one host thread they
# count instructions per loop, nearly the same for every lock, and a
# change anywhere in the kernel moves them by a few per cent either way
# (0.94 to 1.00 of the semaphore's for the same lock code).
MUTEX_CPU_OVER_SEM_MAX = 1.0
# On icount's one host thread a spinner spends its whole turn on an owner
# whose vCPU is not executing, so spinning costs CPU here by construction:
# 1.19 (spin) and 1.32 (handoff) times the 2006 mutex's per loop when the
# limit was set, and about 2.0 before a queued spinner could leave the
# spin queue (docs/benchmarks.md). The limit catches spinning that gets
# worse, such as a spinner that no longer gives up.
SPIN_CPU_LIMIT = 1.75


def check(root, arches):
    """Both parts; a StepResult that says what was judged."""
    title = "deterministic bench check"
    why = build.build(root, BUILD)
    if why:
        return StepResult(title, [why])
    runs = []
    # One boot after the other: a stall waits out the timeout once.
    for tasks in TASKS + TASKS[:1]:
        runs.append(_boot(root, arches[ARCH], tasks, f"det-bench-{len(runs) + 1}"))
        if runs[-1][2]:
            return StepResult(title, [runs[-1][2]])
    first, again = runs[0][0], runs[-1][0]
    if not filecmp.cmp(first, again, shallow=False):
        return StepResult(title, [f"two boots of the same kernel differ: "
                                  f"{first_difference(first, again)}"])
    reasons, figures = gate([rows for _, rows, _ in runs[:-1]])
    return StepResult(title, reasons, note=(
        f"{BUILD.label()} at {CPUS} CPUs under icount, '{APPEND} vfs.tasks="
        f"{','.join(map(str, TASKS))}': two boots at {TASKS[0]} tasks gave "
        f"identical rows ({first}); {figures}"))


def _boot(root, arch, tasks, name):
    """One boot under icount: (its CSV, its rows, what went wrong)."""
    folder = at(root, build.builddir(root, BUILD))
    image = os.path.join(folder, arch.boot_image)
    argv = qemu.command(arch, qemu.Boot(image, CPUS, f"{APPEND} vfs.tasks={tasks}"),
                        "icount")
    log, path = open_log(folder, name)
    with log:
        code = qemu.run_to_file(argv, log, TIMEOUT)
    status = qemu.decode_status(arch, code)
    rows, ended = bench.parse_log(path, arch.name, CPUS)
    csv_path = path[:-len(".log")] + ".csv"
    bench.write_csv(rows, csv_path)
    if code is None:
        return csv_path, rows, (f"{BUILD.label()}: the boot did not end within "
                                f"{TIMEOUT} s: stalled (log: {path})")
    if status != STATUS_BENCH_DONE or not ended:
        return csv_path, rows, (f"{BUILD.label()}: no complete run (status {status}, "
                                f"log: {path})")
    return csv_path, rows, None


def first_difference(a, b):
    """The first line where files a and b differ, both versions."""
    with open(a, encoding="utf-8") as fa, open(b, encoding="utf-8") as fb:
        left, right = fa.read().splitlines(), fb.read().splitlines()
    for n, (x, y) in enumerate(zip(left, right), 1):
        if x != y:
            return f"line {n}: {a}: '{x}'; {b}: '{y}'"
    return f"{a} has {len(left)} lines, {b} has {len(right)}"


def _vfs(rows, lock, key):
    found = bench.select(rows, "vfs", lock=lock)
    if not found:
        raise KeyError(f"no VFS row for lock={lock}")
    return float(found[0][key])


# What each ratio of CPU per loop may be, and what it says when it is more.
LIMITS = {
    "mutex/sem": (MUTEX_CPU_OVER_SEM_MAX, "the 2006 mutex loses to the semaphore"),
    "spin/2006 mutex": (SPIN_CPU_LIMIT, "the spin build uses too much CPU per loop"),
    "handoff/2006 mutex": (SPIN_CPU_LIMIT, "the spin build uses too much CPU per loop"),
}


def _ratios(rows):
    """One boot's ratios of CPU per loop, by LIMITS' names."""
    mutex = _vfs(rows, "mutex", "cpu_us_per_loop")
    return {"mutex/sem": mutex / _vfs(rows, "sem", "cpu_us_per_loop"),
            "spin/2006 mutex": _vfs(rows, "spin", "cpu_us_per_loop") / mutex,
            "handoff/2006 mutex": _vfs(rows, "handoff", "cpu_us_per_loop") / mutex}


def gate(runs):
    """(reasons it failed, the figures judged with their thresholds), from
    the rows of each boot in runs: each ratio's median against its limit."""
    try:
        ratios = [_ratios(rows) for rows in runs]
    except KeyError as e:
        return [f"gate: {e.args[0]}"], ""
    reasons, figures = [], []
    for name, (limit, why) in LIMITS.items():
        values = sorted(r[name] for r in ratios)
        median = statistics.median(values)
        line = (f"{name} CPU per loop {median:.2f} (median of {len(values)} "
                f"boots, {values[0]:.2f}-{values[-1]:.2f}; at most {limit})")
        figures.append(line)
        if median > limit:
            reasons.append(f"{why}: {line}")
    return reasons, "; ".join(figures)
