"""make check-stuck: the stuck verdict, boot after boot, on correct kernels.

The runner gives a case up as stuck when nothing can wake its tasks any
more (lib/kunit, docs/testing.md), and the lab grader relies on it: a
verdict on a correct kernel takes points from a correct student. This
boots the debug build and the validator's (CONFIG_PROVE_LOCKING) at 2
and 4 CPUs (alternately in turns and with a thread per CPU: make test
boots both ways), each with the stuck check's own suite (quiet machines
that still move on), the debug suite's 25-task chain unwinding under a
deferrable poll, and the suites whose waits the lab graders use; BOOTS
boots of each. Every boot must pass, and no case may be called stuck.
"""

from functools import partial

from . import build
from .build import BuildConfig
from .logs import open_log
from .runner import BootSpec, at, run_parallel, run_spec, thread_budget
from .verdict import StepResult, total_line

STUCK_CHECK = "CONFIG_KUNIT_STUCK_CHECK=y"
BUILDS = (BuildConfig("i386", "debug", STUCK_CHECK),
          BuildConfig("i386", "debug", "CONFIG_PROVE_LOCKING=y " + STUCK_CHECK))
CPUS = (2, 4)
SUITES = ("test=stuck_check.*,mutex_debug.*,mutex_states.*,completion.*,"
          "wait.*,wait_window.*,rtmutex.* hung_task_timeout=0")
TIMEOUT = 600
DEFAULT_BOOTS = 3
VERDICT = "# STUCK"


def plan(arch, boots):
    """The boots: BOOTS of each build at each CPU count."""
    specs = []
    for cfg in BUILDS:
        lane = "validator" if "PROVE_LOCKING" in cfg.conf else "debug"
        for cpus in CPUS:
            for n in range(boots):
                turns = cpus > 1 and arch.tcg_turns and n % 2 == 0
                specs.append(BootSpec(f"stuck-{lane}-cpus{cpus}-{n + 1}", cfg,
                                      arch.boot_image, cpus, SUITES, TIMEOUT,
                                      turns=turns))
    return specs


def stuck_lines(result):
    """The lines of a boot's log that give a case up as stuck."""
    try:
        with open(result.log, encoding="utf-8", errors="replace") as f:
            return [line.strip() for line in f if VERDICT in line]
    except OSError:
        return []


def check(root, arches, jobs, accel, boots=DEFAULT_BOOTS):
    """Boot every lane boots times; a StepResult with the figures."""
    title = "stuck check"
    arch = arches["i386"]
    for cfg in BUILDS:
        why = build.build(root, cfg)
        if why:
            return StepResult(title, [why])
    specs = plan(arch, boots)
    out, path = open_log(at(root, "build"), "stuck-check")
    with out:
        results = run_parallel(
            jobs, [(spec.host_threads(accel), partial(run_spec, root, arch, spec, accel))
                   for spec in specs],
            lambda r: _write(out, r.report()), thread_budget())
        verdicts = {r.title: stuck_lines(r) for r in results}
        _write(out, total_line(results))
    failed = [r.title for r in results if r.failed_config]
    stuck = sorted(t for t, lines in verdicts.items() if lines)
    cases = sum(len(s.cases) for r in results for s in r.suites)
    figures = (f"{len(results)} boots, {cases} cases, "
               f"{sum(len(v) for v in verdicts.values())} stuck verdicts")
    print(f"check-stuck: {figures}; log: {path}", flush=True)
    if stuck:
        return StepResult(title, [f"a correct kernel was called stuck in: "
                                  f"{', '.join(stuck)}"], path)
    if failed:
        return StepResult(title, [f"boots failed: {', '.join(failed)}"], path)
    return StepResult(title, note=f"{figures}; log: {path}")


def _write(out, text):
    out.write((text + "\n").encode())
    out.flush()

