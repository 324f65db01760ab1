"""make check-labs (and a step of the full make test): the labs check themselves.

For every lab:
  - its student tree is generated (build/labs/labN) and builds on every
    arch: the native build on each, and each build its checks use on the
    arch its skeleton is graded on. Each tree's build folders start as
    copies of the full tree's, so make rebuilds only what the stubs change;
  - its skeleton is graded on one of its arches (lab N on arch N mod the
    count, so that every arch takes its turn): 0 < score < full, the
    stubs fail the lab's graded tests without hanging the grader;
  - lab 3's skeleton, tampered (tests, kunit, Makefile, scripts, its LAB
    file), graded from the instructor's tree scores as the untouched one;
  - the reference of each lab with code, taken as a submission, gets full
    marks in the instructor's tree (the later labs' stubs do not break
    it), and every known-wrong solution (docs/labs/solutions/wrong/, a
    patch over the reference) loses points within WRONG_BOUND seconds;
    both graded on one arch, with the skeleton's short case limit.
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
import subprocess
import tempfile
import time

from . import answers, build, grade, labmarks, labs, qemu
from .build import BuildConfig
from .logs import open_log
from .runner import at
from .verdict import StepResult

WORK = os.path.join("build", "labs")
LIST_BUILD = BuildConfig("i386", "debug")
LIST_TIMEOUT = 300
# A skeleton's stubbed cases wait until the kernel ends them: briefly here
# (a lab's own shorter limit still applies). The cases that pass in a
# skeleton take about a second each, but lab 3's stress, slowed by the
# stub's queueing, ran out 5 s at load 18: its check was the skeleton's
# only points; and lab 4's reference, its mutual_exclusion 1.4 s on a
# quiet host, ran out 5 s in make test.
SKELETON_CASE_TIMEOUT = 15
# A reference must never lose a point to a slow host: it gets what a
# grade gives every case.
REFERENCE_CASE_TIMEOUT = grade.CASE_TIMEOUT
# The known-wrong solutions, kept with the instructor's material (never in
# a student tree): docs/labs/solutions/wrong/labN-what.patch.
BANK = os.path.join("docs", "labs", "solutions", "wrong")
# Seconds a grade of one wrong solution on one arch may take. Here its
# cases get the skeleton's short limit (a case that hangs fails either
# way), so the bound catches a boot that hangs whole. It runs beside the
# boots of make test: lab3-queue-outside-wait-lock took 123 s there on
# i386 once (three boots, the race detector's among them), against the
# quiet host's figures of docs/labs/instructor.md.
WRONG_BOUND = 180
# Where a wrong solution is written as a submission.
SUBMISSION = os.path.join(WORK, "submission")
# The lab whose skeleton is also graded tampered.
TAMPERED_LAB = 3
VERDICT = re.compile(r"^.* \[\w+\]: (OK|FAIL) \(\d+/\d+\)$")


class CheckLog:
    """A part's log (path): what it says, and make's output.

    The check runs beside the boots, whose tables go to the terminal:
    nothing of its own may go there.
    """

    def __init__(self, file, path):
        self.file = file
        self.path = path

    def say(self, text):
        self.file.write((text + "\n").encode())
        self.file.flush()


def check_labs(root, arches, accel, part, only=None):
    """One part of the lab check (PARTS): a StepResult with a reason per
    problem, its log build/lab-check-<part>.log. only: the bank's part
    grades these entries alone (check_bank())."""
    run, note = PARTS[part]
    log, log_path = open_log(at(root, "build"), f"lab-check-{part}")
    with log:
        out = CheckLog(log, log_path)
        problems = run(root, arches, accel, out, only) if only is not None \
            else run(root, arches, accel, out)
    return StepResult(f"lab check ({part})", problems, log_path,
                      note=note.format(labs=len(labs.LABS)))


def root_builds():
    """The full tree's builds the check boots or copies: make test builds
    them with the matrix's, before any check starts, so that no part
    builds in the full tree while another copies its folders."""
    cfgs = []
    for lab in labs.LABS.values():
        graded = lab.arches[lab.number % len(lab.arches)]
        for name in (graded, lab.arches[0]):
            cfgs += [c.build(name) for c in lab.checks] + [BuildConfig(name, "native")]
        cfgs += [list_build(c) for c in lab.checks if c.tests]
        cfgs += [c.build(name) for c in lab.checks if c.kind == "insns"
                 for name in filter(c.runs_on, lab.arches)]
    return list(dict.fromkeys(cfgs))


def check_skeletons(root, arches, accel, out):
    """Every lab's tree and skeleton (check_skeleton)."""
    problems = []
    for _, lab in sorted(labs.LABS.items()):
        problems += check_skeleton(root, arches, lab, accel, out)
    return problems


def check_reference(root, arches, accel, out):
    """The reference's side: globs resolve, instruction checks and lab 8 answers pass."""
    problems, listed = [], {}
    for lab in labs.LABS.values():
        for check in (c for c in lab.checks if c.tests):
            cfg = list_build(check)
            if cfg not in listed:
                listed[cfg] = listed_cases(root, arches, accel, out, cfg)
            if listed[cfg] is None:
                return [f"the reference's test=list boot of {cfg.label()} failed "
                        "(see the log)"]
            for glob in filter(None, check.tests.split(",")):
                if not any(fnmatch.fnmatchcase(c, glob) for c in listed[cfg]):
                    problems.append(f"lab {lab.number}: '{glob}' selects no test case")
    for lab in labs.LABS.values():
        for check in (c for c in lab.checks if c.kind == "insns"):
            for name in filter(check.runs_on, lab.arches):
                cfg = check.build(name)
                why = build.build(root, cfg, jobs=2, log=out.file)
                ok, output = (False, why) if why else \
                    grade.judge_insns(root, arches[name], cfg, check.insns)
                if not ok:
                    problems.append(f"lab {lab.number} reference on {name}: {output}")
    ok, output = answers.judge(root)
    if not ok:
        problems.append(f"lab 8 reference answers: {output}")
    listed_now = ", ".join(f"{cfg.label()} {len(cases)}" for cfg, cases in listed.items())
    out.say(f"reference: cases listed ({listed_now}); {len(problems)} problem(s)")
    return problems


def list_build(check):
    """The build whose cases check's globs must select: the debug build,
    which has every case but those of an option (CONF=) of the check's."""
    if not check.conf:
        return LIST_BUILD
    return BuildConfig(LIST_BUILD.arch, check.mutex, check.conf)


def listed_cases(root, arches, accel, out, cfg):
    """Every test case of the build cfg (test=list), or None."""
    why = build.build(root, cfg, jobs=2, log=out.file)
    if why:
        out.say(why)
        return None
    folder = at(root, build.builddir(root, cfg))
    arch = arches[cfg.arch]
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


# What grade says of a case its boot never reported (judge_boot()).
BOOT_GAVE_NOTHING = re.compile(r"never reported:|no result for ")


def check_skeleton(root, arches, lab, accel, out):
    """Lab's tree builds on every arch; its skeleton is graded, under full.

    0 is a fair score: a stub that leaves tasks asleep for good fails the
    rest of its suite too (the runner does not run a case on what a stuck
    one holds). A stub must still boot: a skeleton not graded at all, or
    one that scores 0 with cases its boot never reported, fails here.
    """
    dest = at(root, WORK, f"lab{lab.number}")
    shutil.rmtree(dest, ignore_errors=True)
    os.makedirs(os.path.dirname(dest), exist_ok=True)
    try:
        labs.generate(root, lab.number, dest)
    except labs.LabError as e:
        return [f"lab {lab.number}: make lab: {e}"]
    problems = []
    graded_arch = lab.arches[lab.number % len(lab.arches)]
    # The other arches build the native kernel: the lab regions an arch
    # changes (atomics, fastpaths) are in it. The checks' other builds
    # differ by options in arch-neutral code: grading builds them.
    for name in arches:
        if name == graded_arch:
            continue
        why = build_from_copy(root, dest, BuildConfig(name, "native"))
        if why:
            problems.append(f"lab {lab.number}: {why}")
    if problems:
        return problems
    for cfg in {c.build(graded_arch) for c in lab.checks} | \
            {BuildConfig(graded_arch, "native")}:
        labs.copy_build_folder(root, dest, cfg)
    said = []

    def keep(text):
        said.append(text)
        out.say(text)
    results = os.path.join(dest, "results.json")
    if lab.planted:
        # A design lab's student tree holds only the student's tests, which
        # its skeleton passes: the instructor's hidden tests fail it.
        code = grade.run_submission(root, arches, lab, dest, [graded_arch], accel,
                                    results, keep, case_timeout=SKELETON_CASE_TIMEOUT)
    else:
        code = grade.run(dest, arches, lab, [graded_arch], accel, results_path=results,
                         student=True, case_timeout=SKELETON_CASE_TIMEOUT, say=keep)
    score = re.search(r"^Score: (\d+)/(\d+)$", "\n".join(said), re.M)
    if code == 2 or not score:
        return [f"lab {lab.number}: the skeleton was not graded on {graded_arch} "
                f"(log: {out.path})"]
    got, full = int(score.group(1)), int(score.group(2))
    if got >= full:
        problems.append(f"lab {lab.number}: the skeleton scores {got}/{full} on "
                        f"{graded_arch}; it must be less than full")
    if not got and any(BOOT_GAVE_NOTHING.search(text) for text in said):
        problems.append(f"lab {lab.number}: a boot of the skeleton on {graded_arch} "
                        "gave no result for some cases: a stub must boot and "
                        f"let every case report (log: {out.path})")
    if lab.number == TAMPERED_LAB:
        problems += check_tampered(root, arches, lab, dest, graded_arch, accel,
                                   [v for v in said if VERDICT.match(v)], out)
    return problems


def tamper(tree):
    """Forge full marks in the student tree at tree, every way it offers."""
    edits = (
        # A failed expectation no longer fails its case.
        ("lib/kunit/kunit.c", "\tWRITE_ONCE(test->status, KUNIT_FAILURE);\n", ""),
        ("tests/mutex_test.c", "KUNIT_EXPECT_EQ(test, fifo_order[i], i);", ";"),
        ("tests/mutex_states_test.c", "KUNIT_EXPECT_EQ(", "(void)("),
        ("scripts/mutexos/grade.py", "return 0 if score == total else 1", "return 0"),
    )
    for path, old, new in edits:
        with open(os.path.join(tree, path), encoding="utf-8") as f:
            text = f.read()
        with open(os.path.join(tree, path), "w", encoding="utf-8") as f:
            f.write(text.replace(old, new))
    with open(os.path.join(tree, "Makefile"), "a", encoding="utf-8") as f:
        f.write("\ngrade:\n\t@echo Score: 39/39\n")
    with open(os.path.join(tree, labs.LAB_FILE), "w", encoding="utf-8") as f:
        f.write("0\n")


def check_tampered(root, arches, lab, tree, arch, accel, verdicts, out):
    """The tampered tree, graded from the instructor's, scores as it did untouched."""
    tamper(tree)
    said = []

    def keep(text):
        said.append(text)
        out.say(text)
    # The untouched grade's case limit: a slow case must not pass here
    # only because it had longer.
    grade.run_submission(root, arches, lab, tree, [arch], accel,
                         os.path.join(tree, "results-tampered.json"), keep,
                         case_timeout=SKELETON_CASE_TIMEOUT)
    got = [v for v in said if VERDICT.match(v)]
    if got != verdicts:
        return [f"lab {lab.number}: tampering changed the grade from the instructor's "
                f"tree: {got} instead of {verdicts}"]
    return []


def bank_entries(root):
    """[(name, patch)]: each lab's reference (patch None), then the bank's entries."""
    graded = set(labs.regions(root)) | {n for n, lab in labs.LABS.items() if answered(lab)}
    cases = [(f"lab{n}-reference", None) for n in sorted(graded)]
    bank = os.path.abspath(at(root, BANK))
    return cases + [(name[:-len(".patch")], os.path.join(bank, name))
                    for name in sorted(os.listdir(bank)) if name.endswith(".patch")]


def check_bank(root, arches, accel, out, only=None):
    """Each lab's reference gets full marks, each wrong solution loses
    points; only: the names of the entries to grade (None: all)."""
    problems = []
    cases = bank_entries(root)
    if only is not None:
        unknown = set(only) - {name for name, _ in cases}
        if unknown:
            return [f"no such bank entry: {', '.join(sorted(unknown))} "
                    f"(the entries are {BANK}/*.patch and labN-reference)"]
        cases = [(name, patch) for name, patch in cases if name in only]
    for name, patch in cases:
        m = re.match(r"^lab(\d+)-", name)
        if not m:
            problems.append(f"{BANK}/{name}.patch: the name must start with labN-")
            continue
        problems += grade_wrong(root, arches, labs.get(m.group(1)), name, patch,
                                accel, out)
    return problems


def grade_wrong(root, arches, lab, name, patch, accel, out):
    """Grade the reference of lab, patch applied if any, as a submission."""
    sub = at(root, SUBMISSION)
    why = write_submission(root, lab, patch, sub)
    if why:
        return [f"{name}: {why}"]
    arch = lab.arches[0]
    said = []

    def keep(text):
        said.append(text)
        out.say(text)
    started = time.monotonic()
    code = grade.run_submission(root, arches, lab, sub, [arch], accel,
                                os.path.join(sub, "results.json"), keep,
                                case_timeout=SKELETON_CASE_TIMEOUT if patch
                                else REFERENCE_CASE_TIMEOUT)
    took = time.monotonic() - started
    out.say(f"{name}: exit {code} in {took:.0f} s on {arch}")
    wanted = 0 if patch is None else 1
    problems = []
    if code != wanted:
        what = {0: "full marks", 1: "a partial score", 2: "nothing graded"}[code]
        problems.append(f"{name}: {what} on {arch} (log: {out.path})")
    if took > WRONG_BOUND:
        problems.append(f"{name}: graded in {took:.0f} s on {arch}, over {WRONG_BOUND} s")
    return problems


# Each part is a task of its own in make test, beside the boots: (what
# it runs, its line when it passed). The longest first: make test starts
# them in this order.
PARTS = {
    "bank": (check_bank, "the references get full marks and the wrong solutions "
             "lose points, as submissions"),
    "skeletons": (check_skeletons, "{labs} labs: trees build on every arch, skeletons "
                  "score under full (a 0 with every case reported), tampering changes nothing"),
    "reference": (check_reference, "every graded glob selects a case, the "
                  "instruction checks and lab 8's answers pass on the reference"),
}


def answered(lab):
    """Whether lab grades answers.md against its bench.log (lab 8)."""
    return any(c.kind == "answers" for c in lab.checks)


def reference_files(root, lab):
    """{path in a submission: its reference in the full tree at root}: the
    lab's source files and, for a lab graded on its answers, the
    reference answers and the log they were taken from."""
    files = {p: p for p in labs.submitted_files(root, lab)
             if p.endswith(labmarks.SOURCE_SUFFIXES)}
    if answered(lab):
        files.update(zip((labs.ANSWERS_FILE, *lab.files), answers.paths(root)))
    return files


def write_submission(root, lab, patch, sub):
    """sub: lab's files as a student who wrote the reference (patched) hands in."""
    shutil.rmtree(sub, ignore_errors=True)
    os.makedirs(sub)
    files = reference_files(root, lab)
    with tempfile.TemporaryDirectory() as tmp:
        for path, src in files.items():
            os.makedirs(os.path.join(tmp, os.path.dirname(path)), exist_ok=True)
            shutil.copy2(os.path.join(root, src), os.path.join(tmp, path))
        if patch:
            # No fuzz: a patch whose context moved must be made again, not
            # land somewhere near and grade another bug than its name says.
            proc = subprocess.run(["patch", "-p1", "-s", "--fuzz=0", "-d", tmp,
                                   "-i", patch],
                                  capture_output=True, text=True, check=False)
            if proc.returncode:
                return f"the patch does not apply: {proc.stdout}{proc.stderr}".strip()
        for path in files:
            with open(os.path.join(tmp, path), encoding="utf-8") as f:
                text = f.read()
            if path.endswith(labmarks.SOURCE_SUFFIXES):
                # Solved up to lab, the later labs' stubs: what a student has.
                text = labmarks.render(text, lab.number + 1, path)
            os.makedirs(os.path.join(sub, os.path.dirname(path)), exist_ok=True)
            with open(os.path.join(sub, path), "w", encoding="utf-8") as f:
                f.write(text)
    return None


def build_from_copy(root, dest, cfg):
    """Build cfg in the tree dest, its build folder first copied from root; None or why it failed."""
    labs.copy_build_folder(root, dest, cfg)
    proc = build.make(dest, cfg, "all", jobs=2, capture_output=True, text=True)
    if proc.returncode:
        tail = "\n".join(proc.stdout.splitlines()[-5:] + proc.stderr.splitlines()[-5:])
        return f"its tree does not build ({cfg.label()}):\n{tail}"
    return None
