"""make check-labs (and, its TEST_PARTS, a step of the full make test):
the labs check themselves.

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
    both graded on one arch, with the skeleton's short case limit;
  - the students' repository (make student-repo): no branch holds an
    instructor's file or the reference of its lab or a later one, and a
    lab done on its branch gets full marks (check_student_repo()).
The reference's full marks rest on the full matrix: every graded test
case is one of the cases that make test runs on every arch and build, so
here each boot check's globs must select cases that exist (the debug
build's test=list, which lists the instructor's too), the instruction
checks pass on the reference builds, and lab 8's reference answers match
their log.
"""

import fnmatch
import io
import json
import os
import re
import shutil
import subprocess
import tarfile
import tempfile
import time
import zipfile

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
# Seconds a grade of one wrong solution on one arch may take in make
# check-labs' bank part. Its cases get the skeleton's short limit (a case
# that hangs fails either way), so the bound catches a boot that hangs
# whole; lab3-queue-outside-wait-lock took 123 s once beside make test's
# boots (three boots, the race detector's among them), against the quiet
# host's figures of docs/labs/instructor.md. make test's forges part has
# no bound (check_forges()).
WRONG_BOUND = 180
# The parts of make check-labs and of make test (PARTS below).
CHECK_PARTS = ("bank", "skeletons", "reference", "student-repo")
TEST_PARTS = ("forges", "reference", "student-repo")
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


def root_builds(parts):
    """The full tree's builds the check's parts boot or copy: make test
    builds them with the matrix's, before any check starts, so that no
    part builds in the full tree while another copies its folders. The
    skeletons are graded on an arch of their own each; the submissions
    on their lab's first arch."""
    cfgs = []
    for lab in labs.LABS.values():
        graded = (lab.arches[lab.number % len(lab.arches)],) \
            if "skeletons" in parts else ()
        for name in (*graded, lab.arches[0]):
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
    """The reference's side: globs resolve, the autograder zips hold none of
    it, instruction checks and lab 8 answers pass."""
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
    problems += check_autograders(root, out)
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


def is_forge(name):
    """Whether the bank entry name is a forge: an attack on the grade
    itself (reading the reference, printing or faking results), not a
    wrong answer. make test grades the forges alone; make check-labs
    grades every entry (docs/testing.md says why)."""
    return "-forge-" in name


def check_forges(root, arches, accel, out):
    """Each forge of the bank loses points, as a submission. make test's
    part: beside its boots the grades take what the host leaves them, so
    no bound on their time (a forge took 216 s with one more QEMU
    running); the bank part of make check-labs keeps WRONG_BOUND."""
    return check_bank(root, arches, accel, out,
                      [name for name, _ in bank_entries(root) if is_forge(name)],
                      bound=None)


def check_bank(root, arches, accel, out, only=None, bound=WRONG_BOUND):
    """Each lab's reference gets full marks, each wrong solution loses
    points, within bound seconds (None: no bound); only: the names of the
    entries to grade (None: all)."""
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
                                accel, out, bound)
    return problems


def grade_wrong(root, arches, lab, name, patch, accel, out, bound=WRONG_BOUND):
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
    # A wrong solution loses points: a partial score, or none when its
    # build fails (a forge whose include the sandbox hides).
    wanted = (0,) if patch is None else (1, 2)
    problems = []
    if code not in wanted:
        what = {0: "full marks", 1: "a partial score", 2: "nothing graded"}[code]
        problems.append(f"{name}: {what} on {arch} (log: {out.path})")
    if bound is not None and took > bound:
        problems.append(f"{name}: graded in {took:.0f} s on {arch}, over {bound} s")
    if is_forge(name) and code == 1:
        problems += forge_kept_points(name, os.path.join(sub, "results.json"), arch, out)
    return problems


# A forge may keep at most a skeleton's share of its lab (issue 36: the
# handed-out tree scores at most 10 % of every lab), unless it is flagged.
FORGE_SHARE = 0.1


def forge_kept_points(name, results, arch, out):
    """The problem of a forge graded at results (results.json) that kept
    more than a skeleton's share of its points and was not flagged."""
    with open(results, encoding="utf-8") as f:
        data = json.load(f)
    total = sum(t["max_score"] for t in data["tests"])
    if data.get("flagged") or data["score"] <= FORGE_SHARE * total:
        return []
    return [f"{name}: {data['score']}/{total} on {arch}, unflagged: a forge may keep "
            f"no more than a skeleton's {FORGE_SHARE:.0%} (log: {out.path})"]


# Where the check writes the student repository, and clones a branch of
# it to do its lab.
STUDENT_REPO = os.path.join(WORK, "student-repo")
REPO_CLONE = os.path.join(WORK, "repo-clone")
# The labs done on their branch and graded from the instructor's tree, on
# one arch: lab 0, the first branch released, and lab 4, whose file
# (kernel/locking/mutex.c) holds lab 3's solved regions beside its own
# TODOs. Each is one boot of the native build; i386 boots the quickest.
# Every lab's reference is graded as a submission by the bank part: this
# checks that the branches hand out what the grader takes back.
REPO_DONE_LABS = (0, 4)
REPO_ARCH = "i386"


def check_student_repo(root, arches, accel, out):
    """make student-repo: no branch holds an answer of its lab or a later
    one, and a lab done on its branch gets full marks as a submission."""
    repo = at(root, STUDENT_REPO)
    shutil.rmtree(repo, ignore_errors=True)
    os.makedirs(os.path.dirname(repo), exist_ok=True)
    try:
        labs.student_repo(root, repo)
    except labs.LabError as e:
        return [f"make student-repo: {e}"]
    problems = []
    refs = references(root)
    for _, lab in sorted(labs.LABS.items()):
        problems += answers_on_branch(repo, lab, refs)
    out.say(f"student repository: {len(labs.LABS)} branches, {len(refs)} reference "
            f"regions looked for; {len(problems)} problem(s)")
    for number in REPO_DONE_LABS:
        problems += grade_done_on_branch(root, arches, labs.get(number), repo, accel, out)
    return problems


def references(root):
    """[(lab, path, title, text)]: the reference code of every lab region
    of the full tree at root, as normalized() has it."""
    found = []
    for path in labs.source_files(root):
        if not path.endswith(labmarks.SOURCE_SUFFIXES):
            continue
        with open(os.path.join(root, path), encoding="utf-8") as f:
            items = labmarks.parse(f.read(), path)
        found += [(r.lab, path, r.title, normalized(r.code))
                  for r in items if isinstance(r, labmarks.Region)]
    return found


def normalized(lines):
    """lines without their indent, a macro's backslashes and blank lines:
    the reference is found however a copy of it was laid out."""
    kept = (line.strip().removesuffix("\\").strip() for line in lines)
    return "\n".join(line for line in kept if line)


def answers_on_branch(repo, lab, refs):
    """What lab's branch of the repository at repo holds that it must not:
    an instructor's file (the solutions and the bank in them, instructor.md),
    a reference region of lab or a later one, in any file."""
    name = labs.branch(lab)
    archive = subprocess.run(["git", "archive", name], cwd=repo, check=True,
                             capture_output=True).stdout
    problems, texts = [], {}
    with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
        for member in tar:
            if labs.is_instructor(member.name):
                problems.append(f"branch {name} holds {member.name}, the instructor's")
            if member.isfile():
                data = tar.extractfile(member).read().decode("utf-8", "replace")
                texts[member.name] = normalized(data.split("\n"))
    everything = "\n\0\n".join(texts.values())
    for number, path, title, text in refs:
        if number >= lab.number and text in everything:
            where = [p for p, t in texts.items() if text in t]
            problems.append(f"branch {name} holds lab {number}'s reference "
                            f"'{title}' ({path}) in {', '.join(where)}")
    return problems


def grade_done_on_branch(root, arches, lab, repo, accel, out):
    """Clone lab's branch, do the lab there (each of its TODOs replaced by
    the reference), and grade the clone from the full tree: full marks."""
    clone = at(root, REPO_CLONE)
    shutil.rmtree(clone, ignore_errors=True)
    subprocess.run(["git", "clone", "-q", "-b", labs.branch(lab), repo, clone],
                   check=True, capture_output=True)
    problems = []
    for path in sorted({p for p, _ in labs.regions(root).get(lab.number, ())}):
        problems += do_lab(root, lab, clone, path)
    if problems:
        return problems
    said = []

    def keep(text):
        said.append(text)
        out.say(text)
    code = grade.run_submission(root, arches, lab, clone, [REPO_ARCH], accel,
                                os.path.join(clone, "results.json"), keep,
                                case_timeout=REFERENCE_CASE_TIMEOUT)
    out.say(f"lab {lab.number} done on its branch: exit {code} on {REPO_ARCH}")
    if code != 0:
        return [f"lab {lab.number} done on branch {labs.branch(lab)}: not full marks "
                f"on {REPO_ARCH} (log: {out.path})"]
    return []


def do_lab(root, lab, clone, path):
    """Replace each TODO of lab in the clone's file path by the reference,
    as a student who wrote it would; the problems found."""
    with open(os.path.join(root, path), encoding="utf-8") as f:
        regions = [r for r in labmarks.parse(f.read(), path)
                   if isinstance(r, labmarks.Region) and r.lab == lab.number]
    with open(os.path.join(clone, path), encoding="utf-8") as f:
        text = f.read()
    for region in regions:
        todo = "\n".join(labmarks.stub_lines(region))
        if text.count(todo) != 1:
            return [f"branch {labs.branch(lab)}: {path} does not hold the TODO of "
                    f"'{region.title}' once ({text.count(todo)} times)"]
        text = text.replace(todo, "\n".join(region.code))
    with open(os.path.join(clone, path), "w", encoding="utf-8") as f:
        f.write(text)
    return []


# The parts of the lab check: (what it runs, its line when it passed).
# make check-labs runs CHECK_PARTS one after another; make test runs
# TEST_PARTS, each a task of its own beside the boots, the longest first
# (it starts them in order). The bank's wrong answers and references,
# and the skeletons, are make check-labs' alone: 110 grades and 33
# builds, about 20 minutes of the 2-core machine (docs/testing.md).
PARTS = {
    "bank": (check_bank, "the references get full marks and the wrong solutions "
             "lose points, as submissions"),
    "forges": (check_forges, "the forges of the grade lose points, as submissions "
               "(make check-labs grades the references and the wrong solutions too)"),
    "skeletons": (check_skeletons, "{labs} labs: trees build on every arch, skeletons "
                  "score under full (a 0 with every case reported), tampering changes nothing"),
    "reference": (check_reference, "every graded glob selects a case, the "
                  "instruction checks and lab 8's answers pass on the reference, "
                  "no autograder zip holds a reference of its lab or a later one"),
    "student-repo": (check_student_repo, "the student repository: no branch holds "
                     "an answer of its lab or a later one, labs "
                     + " and ".join(map(str, REPO_DONE_LABS)) + " done on their branch "
                     "get full marks on " + REPO_ARCH),
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


def check_autograders(root, out):
    """Every lab's autograder zip holds no reference of it or a later lab."""
    problems = []
    with tempfile.TemporaryDirectory() as tmp:
        for lab in labs.LABS.values():
            path = os.path.join(tmp, f"autograder-lab{lab.number}.zip")
            try:
                labs.write_autograder(root, lab.number, path)
            except (labs.LabError, OSError) as e:
                problems.append(f"lab {lab.number}: make autograder: {e}")
                continue
            leaks = autograder_leaks(root, lab, path)
            out.say(f"lab {lab.number}'s autograder zip: {len(leaks)} reference region(s)")
            problems += [f"lab {lab.number}'s autograder zip: {leak}" for leak in leaks]
    return problems


def autograder_leaks(root, lab, path):
    """What of the zip at path holds reference code of lab or a later one:
    a line per file and region whose code (its lines, blanks and
    indentation aside) the file holds; a region whose code is its stub's
    gives nothing away. A planted lab's planted versions (labs.PLANTED,
    outside the zip's grading tree) are its reference by design."""
    regions = list(reference_bodies(root, lab))
    found = []
    with zipfile.ZipFile(path) as z:
        for name in z.namelist():
            if lab.planted and name.startswith(labs.PLANTED + "/"):
                continue
            try:
                held = code_lines(z.read(name).decode("utf-8"))
            except UnicodeDecodeError:
                continue        # a binary file: no source in it
            found += [f"{name} holds lab {r.lab}'s '{r.title}' ({where})"
                      for where, r, body in regions if holds_lines(held, body)]
    return found


def reference_bodies(root, lab):
    """(path, Region, its code's lines) of each region of lab or a later one."""
    for path in labs.source_files(root):
        if not path.endswith(labmarks.SOURCE_SUFFIXES):
            continue
        with open(os.path.join(root, path), encoding="utf-8") as f:
            items = labmarks.parse(f.read(), path)
        for r in items:
            if isinstance(r, labmarks.Region) and r.lab >= lab.number:
                body = code_lines("\n".join(r.code))
                if body and body != code_lines("\n".join(r.stub)):
                    yield path, r, body


def code_lines(text):
    """text's lines that hold something, without their indentation."""
    return [line.strip() for line in text.split("\n") if line.strip()]


def holds_lines(lines, block):
    """Whether block is a run of lines."""
    return any(lines[i:i + len(block)] == block
               for i in range(len(lines) - len(block) + 1))


def build_from_copy(root, dest, cfg):
    """Build cfg in the tree dest, its build folder first copied from root; None or why it failed."""
    labs.copy_build_folder(root, dest, cfg)
    proc = build.make(dest, cfg, "all", jobs=2, capture_output=True, text=True)
    if proc.returncode:
        tail = "\n".join(proc.stdout.splitlines()[-5:] + proc.stderr.splitlines()[-5:])
        return f"its tree does not build ({cfg.label()}):\n{tail}"
    return None
