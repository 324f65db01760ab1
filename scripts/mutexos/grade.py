"""make grade: a lab's checks, one line each with its points, and a total.

For each arch of the lab: build each mutex build its checks use, boot it
once with the test= globs of all its boot checks, and judge each check on
that boot's KTAP results (labs.py says what passes). A boot that hangs is
killed at its timeout and every case it did not report counts as failed;
a stub that loops in a test case is ended by the kernel's own case time
limit (kunit.timeout=), so the boot goes on to the next case.

The result is printed as xv6's grader does ("name [arch]: OK (4/4)") with
"Score: N/M" last, and written as Gradescope's results.json. The exit
code is 0 only on full marks.
"""

import fnmatch
import json
import os
import re
import subprocess

from . import answers, bench, build, labs
from .build import BuildConfig
from .runner import BootSpec, run_spec

GRADE_CPUS = 2
# Seconds a test case may run in a graded boot: a stub that makes a case
# wait forever costs this, not the kernel's default of 300.
CASE_TIMEOUT = 60
BOOT_TIMEOUT = 900
APPEND = "hung_task_timeout=0"
# Lab 8's benchmark boot: short runs, the figures only need to exist.
BENCH_APPEND = "bench=vfs vfs.secs=1 vfs.tasks=8"
BENCH_DONE = 5


class Outcome:
    """One check on one arch: points earned and what the student should read."""

    def __init__(self, check, arch, ok, output):
        self.name = f"{check.name} [{arch}]"
        self.max_score = check.points
        self.score = check.points if ok else 0
        self.output = output

    def line(self):
        verdict = "OK" if self.score == self.max_score else "FAIL"
        return f"{self.name}: {verdict} ({self.score}/{self.max_score})"


def boot_globs(checks):
    """The test= value of a boot that runs every check of checks."""
    return ",".join(dict.fromkeys(g for c in checks for g in c.tests.split(",")))


def judge_boot(check, result, log):
    """(ok, output) of a boot check from a Result of that boot."""
    globs = check.tests.split(",")
    cases = [(name, ok) for suite in result.suites for name, ok in suite.cases
             if any(fnmatch.fnmatchcase(name, g) for g in globs)]
    failed = [name for name, ok in cases if not ok]
    if failed:
        return False, f"failed: {', '.join(failed)} (log: {log})"
    if not cases:
        why = "; ".join(result.reasons) or "no result"
        return False, f"no result for {check.tests}: {why} (log: {log})"
    return True, f"{len(cases)} case(s) passed"


def judge_insns(root, arch, cfg, insns):
    """(ok, output): each function has its instructions, in order (objdump)."""
    elf = os.path.join(root, build.builddir(root, cfg), "kernel.elf")
    proc = subprocess.run([f"{arch.cross}objdump", "-d", "--no-show-raw-insn", elf],
                          capture_output=True, text=True, check=False)
    if proc.returncode:
        return False, f"objdump of {elf} failed: {proc.stderr.strip()}"
    missing = []
    for func, wanted in insns:
        if not has_in_order(function_body(proc.stdout, func), wanted):
            missing.append(f"{func}() has no {' then '.join(wanted)}")
    if missing:
        return False, "; ".join(missing) + f" (objdump -d {elf})"
    return True, "; ".join(f"{f}: {', '.join(w)}" for f, w in insns)


def has_in_order(body, wanted):
    """Whether the instruction lines body hold the mnemonics wanted, in order."""
    rest = list(wanted)
    for line in body:
        insn = " ".join(line.split("\t")[-1].split())
        if rest and (insn == rest[0] or insn.startswith(rest[0] + " ")):
            rest.pop(0)
    return not rest


def function_body(disassembly, name):
    """The instruction lines of function name in objdump -d output."""
    lines, inside = [], False
    head = re.compile(r"^[0-9a-f]+ <(.+)>:$")
    for line in disassembly.splitlines():
        m = head.match(line)
        if m:
            inside = m.group(1) == name
            continue
        if inside and line.strip():
            lines.append(line)
    return lines


def say_on_terminal(text):
    """Where grading says what it does, unless told otherwise."""
    print(text, flush=True)


def run(root, arches, lab, names=None, accel="tcg", results_path="results.json",
        student=None, case_timeout=CASE_TIMEOUT, say=say_on_terminal,
        build_log=None):
    """Grade lab on its arches (or names of them); the exit code.

    case_timeout: kunit.timeout= of the boots, the seconds a case that a
    stub made wait for ever costs. say: what prints each line of the
    report; build_log: a file for make's output (default: the terminal).
    The lab check, a thread beside the boots, gives its log for both.
    """
    if student is None:
        student = labs.student_lab(root) is not None
    checks = lab.checks_for(student)
    names = names or lab.arches
    outcomes = []
    for name in names:
        got = grade_arch(root, arches[name], lab, checks, accel, case_timeout,
                         say, build_log)
        if got is None:
            return 2
        outcomes += got
    return report(lab, outcomes, results_path, say)


def grade_arch(root, arch, lab, checks, accel, case_timeout, say, build_log):
    """The outcomes of checks on arch; None if a build failed."""
    outcomes = []
    mutexes = dict.fromkeys(c.mutex for c in checks
                            if c.kind in ("boot", "insns"))
    for mutex in mutexes:
        cfg = BuildConfig(arch.name, mutex)
        why = build.build(root, cfg, jobs=2, log=build_log)
        if why:
            say(f"grade: the tree does not build ({why}); fix the errors "
                "above and grade again. Nothing graded, no results written.")
            return None
        booted = [c for c in checks if c.kind == "boot" and c.mutex == mutex]
        if booted:
            spec = BootSpec(f"lab{lab.number}-grade", cfg, arch.boot_image,
                            GRADE_CPUS, f"test={boot_globs(booted)} "
                            f"kunit.timeout={case_timeout} {APPEND}",
                            BOOT_TIMEOUT)
            say(f"grade: lab {lab.number}, {cfg.label()}: booting "
                f"test={boot_globs(booted)}")
            result = run_spec(root, arch, spec, accel)
            for check in booted:
                outcomes.append(Outcome(check, arch.name, *judge_boot(check, result, result.log)))
        for check in checks:
            if check.kind == "insns" and check.mutex == mutex:
                outcomes.append(Outcome(check, arch.name,
                                        *judge_insns(root, arch, cfg, check.insns)))
    for check in checks:
        if check.kind == "bench":
            outcomes.append(Outcome(check, arch.name,
                                    *run_bench(root, arch, accel, say, build_log)))
        elif check.kind == "answers":
            outcomes.append(Outcome(check, arch.name, *answers.judge(root)))
    return outcomes


def run_bench(root, arch, accel, say, build_log):
    """(ok, output): a short benchmark boot of the native build ends well."""
    cfg = BuildConfig(arch.name, "native")
    why = build.build(root, cfg, jobs=2, log=build_log)
    if why:
        return False, why
    spec = BootSpec("lab8-bench", cfg, arch.boot_image, GRADE_CPUS, BENCH_APPEND,
                    BOOT_TIMEOUT)
    say(f"grade: lab 8, {cfg.label()}: {BENCH_APPEND}")
    result = run_spec(root, arch, spec, accel)
    if result.status != BENCH_DONE:
        return False, f"the benchmark boot ended with status {result.status} (log: {result.log})"
    rows, _ = bench.parse_log(result.log, arch.name, GRADE_CPUS)
    if not any(r["kind"] == "vfs-ratio" for r in rows):
        return False, f"no 'bench: vfs-ratio' line (log: {result.log})"
    return True, "the VFS test ran with the semaphore and the mutex"


def report(lab, outcomes, results_path, say=say_on_terminal):
    """Say the lines and the score, write results.json; the exit code."""
    score = sum(o.score for o in outcomes)
    total = sum(o.max_score for o in outcomes)
    say(f"== lab {lab.number}: {lab.title} ==")
    for o in outcomes:
        say(o.line())
        if o.score < o.max_score:
            say(f"    {o.output}")
    say(f"Score: {score}/{total}")
    if results_path:
        write_results(results_path, score, outcomes)
        say(f"results: {results_path}")
    return 0 if score == total else 1


def write_results(path, score, outcomes):
    """Gradescope's results.json: a total score and one entry per check."""
    data = {
        "score": score,
        "tests": [{"name": o.name, "score": o.score, "max_score": o.max_score,
                   "output": o.output} for o in outcomes],
    }
    tmp = f"{path}.tmp"
    with open(tmp, "w", encoding="utf-8") as f:
        json.dump(data, f, indent=2)
        f.write("\n")
    os.replace(tmp, path)
