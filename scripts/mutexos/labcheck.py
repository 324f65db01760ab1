"""make check-labs (and a step of the full make test): the labs check themselves.

For every lab:
  - its student tree is generated (build/labs/labN) and builds on every
    arch: the native build, and on the lab's arches each build its checks
    use. Each tree's build folders start as copies of the full tree's, so
    make rebuilds only what the stubs change;
  - its skeleton is graded on one of its arches (lab N on arch N mod the
    count, so that every arch takes its turn): 0 < score < full, the
    stubs fail the lab's graded tests without hanging the grader.
The reference's full marks rest on the full matrix: every graded test
case is one of the cases that make test runs on every arch and build, so
here each boot check's globs must select cases that exist (the debug
build's test=list, which lists the instructor's too), the instruction
checks pass on the reference builds, and lab 8's reference answers match
their log.
"""

import fnmatch
import os
import re
import shutil

from . import answers, build, grade, labs, qemu
from .build import BuildConfig
from .logs import open_log
from .runner import at
from .verdict import StepResult

WORK = os.path.join("build", "labs")
LIST_BUILD = BuildConfig("i386", "debug")
LIST_TIMEOUT = 300
# A skeleton's stubbed cases wait until the kernel ends them: briefly here.
# The cases that pass in a skeleton take well under a second each; one
# that runs out on a loaded host costs its check, never the whole score.
SKELETON_CASE_TIMEOUT = 5


class CheckLog:
    """The lab check's log: what it says, and make's output.

    The check runs beside the boots, whose tables go to the terminal:
    nothing of its own may go there.
    """

    def __init__(self, file):
        self.file = file

    def say(self, text):
        self.file.write((text + "\n").encode())
        self.file.flush()


def check_labs(root, arches, accel):
    """The lab check: a StepResult with a reason per problem."""
    title = "lab check"
    log, log_path = open_log(at(root, "build"), "lab-check")
    problems = []
    with log:
        out = CheckLog(log)
        problems += check_reference(root, arches, accel, out)
        for number, lab in sorted(labs.LABS.items()):
            problems += check_skeleton(root, arches, lab, accel, out)
    return StepResult(title, problems, log_path,
                      note=f"{len(labs.LABS)} labs: trees build on every arch, "
                           "skeletons score 0 < N < full, reference checks hold")


def check_reference(root, arches, accel, out):
    """The reference's side: globs resolve, instruction checks and lab 8 answers pass."""
    problems = []
    cases = listed_cases(root, arches, accel, out)
    if cases is None:
        return ["the reference's test=list boot failed (see the log)"]
    for lab in labs.LABS.values():
        for check in lab.checks:
            for glob in filter(None, check.tests.split(",")):
                if not any(fnmatch.fnmatchcase(c, glob) for c in cases):
                    problems.append(f"lab {lab.number}: '{glob}' selects no test case")
    for lab in labs.LABS.values():
        for check in (c for c in lab.checks if c.kind == "insns"):
            for name in lab.arches:
                cfg = BuildConfig(name, check.mutex)
                why = build.build(root, cfg, jobs=2, log=out.file)
                ok, output = (False, why) if why else \
                    grade.judge_insns(root, arches[name], cfg, check.insns)
                if not ok:
                    problems.append(f"lab {lab.number} reference on {name}: {output}")
    ok, output = answers.judge(root)
    if not ok:
        problems.append(f"lab 8 reference answers: {output}")
    out.say(f"reference: {len(cases)} cases listed; {len(problems)} problem(s)")
    return problems


def listed_cases(root, arches, accel, out):
    """Every test case of the debug build (test=list), or None."""
    why = build.build(root, LIST_BUILD, jobs=2, log=out.file)
    if why:
        out.say(why)
        return None
    folder = at(root, build.builddir(root, LIST_BUILD))
    arch = arches[LIST_BUILD.arch]
    argv = qemu.command(arch, qemu.Boot(os.path.join(folder, arch.boot_image), 1,
                                        "test=list"), accel)
    log, path = open_log(folder, "lab-check-list")
    with log:
        code = qemu.run_to_file(argv, log, LIST_TIMEOUT)
    if code is None or qemu.decode_status(arch, code) != 4:
        out.say(f"test=list: exit code {code} (log: {path})")
        return None
    with open(path, encoding="utf-8", errors="replace") as f:
        return [line.strip() for line in f
                if re.match(r"^[a-z0-9_]+\.[A-Za-z0-9_]+\s*$", line.strip())]


def check_skeleton(root, arches, lab, accel, out):
    """Lab's tree builds on every arch; its skeleton scores 0 < N < full."""
    dest = at(root, WORK, f"lab{lab.number}")
    shutil.rmtree(dest, ignore_errors=True)
    os.makedirs(os.path.dirname(dest), exist_ok=True)
    try:
        labs.generate(root, lab.number, dest)
    except labs.LabError as e:
        return [f"lab {lab.number}: make lab: {e}"]
    problems = []
    graded_arch = lab.arches[lab.number % len(lab.arches)]
    for name in arches:
        mutexes = {"native"}
        if name in lab.arches:
            mutexes |= {c.mutex for c in lab.checks if c.kind in ("boot", "insns")}
        for mutex in sorted(mutexes):
            if name == graded_arch:
                continue        # grading builds these
            cfg = BuildConfig(name, mutex)
            why = build_from_copy(root, dest, cfg)
            if why:
                problems.append(f"lab {lab.number}: {why}")
    if problems:
        return problems
    for cfg in {BuildConfig(graded_arch, c.mutex) for c in lab.checks} | \
            {BuildConfig(graded_arch, "native")}:
        labs.copy_build_folder(root, dest, cfg)
    said = []

    def keep(text):
        said.append(text)
        out.say(text)
    code = grade.run(dest, arches, lab, [graded_arch], accel,
                     results_path=os.path.join(dest, "results.json"), student=True,
                     case_timeout=SKELETON_CASE_TIMEOUT, say=keep)
    score = re.search(r"^Score: (\d+)/(\d+)$", "\n".join(said), re.M)
    if code == 2 or not score:
        return [f"lab {lab.number}: the skeleton was not graded on {graded_arch} "
                f"(log: build/lab-check.log)"]
    got, full = int(score.group(1)), int(score.group(2))
    if not 0 < got < full:
        problems.append(f"lab {lab.number}: the skeleton scores {got}/{full} on "
                        f"{graded_arch}; it must be more than 0 and less than full")
    return problems


def build_from_copy(root, dest, cfg):
    """Build cfg in the tree dest, its build folder first copied from root; None or why it failed."""
    labs.copy_build_folder(root, dest, cfg)
    proc = build.make(dest, cfg, "all", jobs=2, capture_output=True, text=True)
    if proc.returncode:
        tail = "\n".join(proc.stdout.splitlines()[-5:] + proc.stderr.splitlines()[-5:])
        return f"its tree does not build ({cfg.label()}):\n{tail}"
    return None
