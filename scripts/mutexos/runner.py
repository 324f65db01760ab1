"""Booting the configurations of a plan, -j at a time, and judging each."""

import concurrent.futures
import os
import time
from dataclasses import dataclass

from . import build, console, kgdb, kgdbfuzz, qemu, sandbox
from .logs import open_log
from .verdict import Result


@dataclass(frozen=True)
class BootSpec:
    """One boot of a test plan: an image of a build, a CPU count, a command line.

    image is a file name in the build folder; the log is <name>.log there.
    script: a console session (console.SCRIPTS) instead of a test run.
    firmware: a file of the build folder that QEMU starts in place of the
    board's firmware, with image loaded where the firmware loads it.
    turns: the CPUs take turns on one host thread under TCG (qemu.Boot).
    gdb: the gdb check (kgdb.py) drives it; fuzz: the debugger fuzzer's
    short run (kgdbfuzz.py) does.
    """

    name: str
    config: build.BuildConfig
    image: str
    cpus: int
    append: str
    timeout: int
    script: str = ""
    firmware: str = ""
    gdb: bool = False
    fuzz: bool = False
    silence: int = 0            # seconds without output: hung (0: no limit)
    turns: bool = False

    def title(self, arch_name):
        """The heading of this boot's table: "NAME (ARCH, N CPUs)"."""
        unit = "CPU" if self.cpus == 1 else "CPUs"
        how = " in turns" if self.turns else ""
        return f"{self.name} ({arch_name}, {self.cpus} {unit}{how})"

    def host_threads(self, accel):
        """The host threads its boot keeps busy: one per CPU, or one when
        they take turns (asked for, or under icount, which always does)."""
        return 1 if accel == "icount" or (self.turns and accel == "tcg") else self.cpus


def at(root, *parts):
    """A path under root, short when root is the current folder."""
    return os.path.normpath(os.path.join(root, *parts))


def choose_accels(arches, names, requested):
    """The accelerator per arch; each note (kvm not used) printed once."""
    accels, notes = {}, []
    for name in names:
        accels[name], note = qemu.choose_accel(requested, arches[name])
        if note and note not in notes:
            notes.append(note)
            print(note, flush=True)
    return accels


def results_path(log):
    """Where a boot whose log is log gets its results channel: NAME.results."""
    return os.path.splitext(log)[0] + ".results"


def run_spec(root, arch, spec, accel, unbuilt=frozenset()):
    """Boot spec on arch and judge it; its log is taken in the build folder."""
    folder = at(root, build.builddir(root, spec.config))
    image = os.path.join(folder, spec.image)
    title = spec.title(arch.name)
    log, path = open_log(folder, spec.name)
    with log:
        if spec.config in unbuilt:
            return Result.not_started(title, path, f"not booted: the build of "
                                      f"{spec.config.label()} failed")
        firmware = os.path.join(folder, spec.firmware) if spec.firmware else ""
        for needed in filter(None, (image, firmware)):
            if not os.path.isfile(needed):
                return Result.not_started(title, path, f"kernel image {needed} not found")
        results = "" if spec.script or spec.gdb else results_path(path)
        boot = qemu.Boot(image, spec.cpus, spec.append, console=bool(spec.script),
                         reboot=bool(spec.script), firmware=firmware, turns=spec.turns,
                         results=results)
        # A graded tree's boot sees only that tree, read-only (sandbox.py),
        # but for the file of its results channel (qemu.boot() makes it).
        argv = sandbox.command(root, qemu.command(arch, boot, accel), os.getcwd(),
                               writable=False, outputs=[results] if results else [])
        started = time.monotonic()
        if spec.gdb:
            result = kgdb.run(title, root, arch, folder, accel, spec.timeout, log)
        elif spec.fuzz:
            result = kgdbfuzz.run_in_test(title, root, arch, folder, accel, log)
        elif spec.script:
            result = console.run(title, argv, arch, spec.script, spec.cpus,
                                 spec.timeout, log)
        else:
            result = qemu.boot(title, argv, arch, spec.timeout, log,
                               silence=spec.silence or None, results=results)
        # The log's last line: where make test's time goes, boot by boot.
        log.write(f"\nrunner: {spec.name} took {time.monotonic() - started:.1f} s\n"
                  .encode())
        return result


# The busy host threads per host core that the tasks of a run may have
# in all: a boot's CPUs, each on a thread of its own, or one for CPUs in
# turns (qemu.Boot.turns). Past that, a guest spins on locks whose
# holder's thread the host has preempted: make test ARCH=x86_64 with two
# 4-CPU boots side by side on 2 cores took 214 s of host CPU and 125 s;
# kept to 6 threads, 3 tasks at once, 141 s and 107 s (docs/testing.md).
THREADS_PER_CORE = 3


def default_jobs():
    """Tasks at once when -j is not given: one more than the host's cores,
    so that a boot waiting on its guest's timers leaves no core idle."""
    return (os.cpu_count() or 1) + 1


def thread_budget():
    """The busy host threads a run may have: THREADS_PER_CORE per core."""
    return THREADS_PER_CORE * (os.cpu_count() or 1)


def run_parallel(jobs, tasks, on_result, threads=None):
    """Run each task (a callable returning a result) -j at a time.

    With threads, a budget of busy host threads, tasks are (threads,
    callable) pairs: a task starts when the running ones leave it room,
    the first in the list that fits (a wide one waits for room while
    narrower ones go by), and one wider than the budget runs alone.
    on_result gets each result as soon as its task ends, so that a table
    is printed as its configuration completes. On Ctrl-C every QEMU is
    killed and no further task starts.
    """
    if threads is None:
        threads = float("inf")
        tasks = [(0, task) for task in tasks]
    pending = [(min(width, threads), task) for width, task in tasks]
    running, used, results = {}, 0, []
    pool = concurrent.futures.ThreadPoolExecutor(max_workers=jobs)
    try:
        while pending or running:
            for item in list(pending):
                if len(running) < jobs and used + item[0] <= threads:
                    pending.remove(item)
                    running[pool.submit(item[1])] = item[0]
                    used += item[0]
            done, _ = concurrent.futures.wait(
                running, return_when=concurrent.futures.FIRST_COMPLETED)
            for future in done:
                used -= running.pop(future)
                result = future.result()
                on_result(result)
                results.append(result)
    except BaseException:
        qemu.EMULATORS.stop_all()
        pool.shutdown(wait=False, cancel_futures=True)
        raise
    pool.shutdown()
    return results


def print_report(result):
    """on_result for the terminal."""
    print(result.report(), flush=True)


def boot_tasks(root, arches, specs, accels, unbuilt=frozenset()):
    """A (host threads, task) pair for run_parallel per spec: its boot."""
    def task(spec):
        name = spec.config.arch
        return (spec.host_threads(accels[name]),
                lambda: run_spec(root, arches[name], spec, accels[name], unbuilt))
    return [task(spec) for spec in specs]
