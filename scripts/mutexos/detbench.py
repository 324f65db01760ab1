"""The deterministic benchmark check of make test: exact, and a regression gate.

Under icount (qemu.ICOUNT) a boot is a function of the kernel and its
command line: the figures of two boots agree to the last digit, whatever
the host's load, so they can be checked without statistics.

reproducible: the spin build boots twice with a short VFS test; the CSV
  rows of the two boots must agree byte for byte.
gate: in the first boot (its VFS test measures the semaphore, the 2006
  mutex, and the spinning mutex without and with handoff), the 2006
  mutex must not lose to the semaphore (CPU per loop), and the spinning
  mutex must not spend more than SPIN_CPU_LIMIT times the 2006 mutex's
  CPU per loop.
The figures the gate judged and its thresholds go into the check's line.
"""

import filecmp
import os

from . import bench, build, qemu
from .build import BuildConfig
from .logs import open_log
from .runner import at
from .verdict import STATUS_BENCH_DONE, StepResult

ARCH = "i386"
CPUS = 4
# 16 tasks on 4 CPUs contend; one guest second per lock keeps the check
# short (a boot takes seconds of host time: an idle guest costs nothing).
APPEND = "bench=vfs vfs.secs=1 vfs.tasks=16"
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
    # The second boot only after a complete first: a stall waits out the
    # timeout once.
    for k in (1, 2):
        runs.append(_boot(root, arches[ARCH], f"det-bench-{k}"))
        if runs[-1][2]:
            return StepResult(title, [runs[-1][2]])
    (first, rows, _), (second, _, _) = runs
    if not filecmp.cmp(first, second, shallow=False):
        return StepResult(title, [f"two boots of the same kernel differ: "
                                  f"{first_difference(first, second)}"])
    reasons, figures = gate(rows)
    return StepResult(title, reasons, note=(
        f"{BUILD.label()} at {CPUS} CPUs under icount, '{APPEND}': two boots "
        f"gave identical rows ({first}); {figures}"))


def _boot(root, arch, name):
    """One boot under icount: (its CSV, its rows, what went wrong)."""
    folder = at(root, build.builddir(root, BUILD))
    image = os.path.join(folder, arch.boot_image)
    argv = qemu.command(arch, qemu.Boot(image, CPUS, APPEND), "icount")
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


def gate(rows):
    """(reasons it failed, the figures judged with their thresholds)."""
    try:
        mutex = _vfs(rows, "mutex", "loops_per_sec")
        sem = _vfs(rows, "sem", "loops_per_sec")
        base = _vfs(rows, "mutex", "cpu_us_per_loop")
        sem_cpu = _vfs(rows, "sem", "cpu_us_per_loop")
        spin = {lock: _vfs(rows, lock, "cpu_us_per_loop")
                for lock in ("spin", "handoff")}
    except KeyError as e:
        return [f"gate: {e.args[0]}"], ""
    reasons = []
    ratio = base / sem_cpu
    figures = [f"mutex/sem CPU per loop {base:.2f}/{sem_cpu:.2f} us = {ratio:.2f} "
               f"(at most {MUTEX_CPU_OVER_SEM_MAX}; loops per second "
               f"{mutex:.2f}/{sem:.2f}, not judged)"]
    if ratio > MUTEX_CPU_OVER_SEM_MAX:
        reasons.append(f"the 2006 mutex loses to the semaphore: {figures[0]}")
    for lock, cpu in spin.items():
        line = (f"{lock}/2006 mutex CPU per loop {cpu:.2f}/{base:.2f} us = "
                f"{cpu / base:.2f} (at most {SPIN_CPU_LIMIT})")
        figures.append(line)
        if cpu / base > SPIN_CPU_LIMIT:
            reasons.append(f"the spin build uses too much CPU per loop: {line}")
    return reasons, "; ".join(figures)
