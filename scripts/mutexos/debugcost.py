"""make check-debug-cost: the debug build's price, exact, and its gate.

Under icount (qemu.ICOUNT) guest time counts instructions, so the
overhead benchmark's figure for an uncontended mutex_lock() +
mutex_unlock() pair is exact: the same in every boot of a kernel,
whatever the host's load. One boot each of the native build, the debug
build and the debug build with the validator, on i386 at one CPU, must
keep the debug pair under DEBUG_LIMIT times the native one and the
validated pair under LOCKDEP_LIMIT times (docs/mutex-debug.md). Each
boot takes a few seconds of host time.
"""

import os

from . import bench, build, qemu
from .logs import open_log
from .matrix import DEBUG_COST_BUILDS
from .runner import at
from .verdict import STATUS_BENCH_DONE, StepResult

ARCH = "i386"
CPUS = 1
APPEND = "bench=overhead overhead.secs=1"
NATIVE, DEBUG, VALIDATOR = DEBUG_COST_BUILDS
GATED = ((DEBUG, 10), (VALIDATOR, 25))
TIMEOUT = 300
# Guest nanoseconds per instruction under icount (shift=3).
NS_PER_INSN = 8


def check(root, arches):
    """Boot each build; a StepResult with the figures judged."""
    title = "debug build cost check"
    pairs, problems = {}, []
    for cfg in [NATIVE] + [cfg for cfg, _ in GATED]:
        ns, why = _pair_ns(root, arches[ARCH], cfg)
        if why:
            problems.append(why)
        pairs[cfg] = ns
    if problems:
        return StepResult(title, problems)
    native = pairs[NATIVE]
    figures = [f"native {native / NS_PER_INSN:.1f} instructions per pair"]
    for cfg, limit in GATED:
        ratio = pairs[cfg] / native
        line = (f"{cfg.label()} {pairs[cfg] / NS_PER_INSN:.1f} = {ratio:.2f} "
                f"times native (under {limit})")
        figures.append(line)
        if ratio >= limit:
            problems.append(f"too slow: {line}")
    return StepResult(title, problems, note=(
        f"{ARCH} at {CPUS} CPU under icount, '{APPEND}': " + "; ".join(figures)))


def _pair_ns(root, arch, cfg):
    """(the guest ns of one mutex pair in cfg's boot, what went wrong)."""
    why = build.build(root, cfg)
    if why:
        return None, why
    folder = at(root, build.builddir(root, cfg))
    argv = qemu.command(arch, qemu.Boot(os.path.join(folder, arch.boot_image),
                                        CPUS, APPEND), "icount")
    log, path = open_log(folder, "debug-cost")
    with log:
        code = qemu.run_to_file(argv, log, TIMEOUT)
    rows, ended = bench.parse_log(path, arch.name, CPUS)
    found = bench.select(rows, "overhead")
    if qemu.decode_status(arch, code) != STATUS_BENCH_DONE or not ended or not found:
        return None, f"{cfg.label()}: no complete overhead run (log: {path})"
    return float(found[0]["mutex_pair_ns"]), None
