"""make grade: a lab's checks, one line each with its points, and a total.

For each arch of the lab: build each mutex build its checks use, boot it
once with the test= globs of all its boot checks, and judge each check on
that boot's KTAP results (labs.py says what passes). Every case is
bounded: kunit.max_timeout= ends even a case that asks for more, so the
boot goes on to the next case, and a boot that hangs is killed at its
timeout, every case it did not report counting as failed. A lab with
"planted" checks (labs.py) then boots the student's own tests once more
per planted version of its code.

The result is printed as xv6's grader does ("name [arch]: OK (4/4)") with
"Score: N/M" last, a failed check followed by the expectations that
failed, and written as Gradescope's results.json. A tree that does not
build is graded 0 with the compiler's or linker's first error, and a
submission with a file grading will not take (labs.submitted_path()) 0
with why, each check failed on each arch it runs on. A submission's logs
are copied into its own folder and cited there. Every build and boot
runs in a sandbox that shows the graded tree alone (sandbox.py); where
it cannot run, nothing is graded. Exit codes: 0 full marks, 1 partial,
2 nothing graded (a build error, bad input, no sandbox).
"""

import collections
import fcntl
import fnmatch
import glob
import json
import os
import re
import shutil
import subprocess
import tempfile

from . import answers, build, labs, precheck, sandbox
from .build import BuildConfig
from .runner import BootSpec, run_spec

GRADE_CPUS = 2
# Seconds a test case may run in a graded boot, whatever it asks for
# (kunit.max_timeout=): a stub that makes a case wait for ever costs this.
# The reference's slowest graded case takes a few seconds under TCG.
CASE_TIMEOUT = 30
# A whole graded boot of the reference takes seconds; this bounds one
# whose cases all run out their time.
BOOT_TIMEOUT = 150
# A kernel silent this much longer than a case may take is hung (every
# CPU spinning): the case limit would have printed a TIMEOUT line.
SILENCE_MARGIN = 20
# verdict's reason for a "BUG:" or "WARNING:" outside the expected ones.
UNPROVOKED = "a report nobody provoked"
# Expectation lines kept per failed case: the first ones say what broke.
DIAG_LINES = 6
# A kernel stuck spinning (a spinlock never released) panics after
# softlockup_secs instead of costing the silence limit; no correct case
# keeps a CPU from rescheduling for that long.
APPEND = "hung_task_timeout=0 softlockup_secs=10"
# A report nobody provoked fails every check of a debug build's boot
# (judge_boot): the boot may end there.
DEBUG_APPEND = "panic_on_report=1"


class Outcome:
    """One check on one arch: points earned and what the student should read.

    log: the log that output cites as "(log: cited)", if any.
    """

    def __init__(self, check, arch, ok, output, log=None, flags=()):
        self.name = f"{check.name} [{arch}]"
        self.max_score = check.points
        self.score = check.points if ok else 0
        self.output = output
        self.log = self.cited = log
        # Why a person should look at the grade: results forged at run time.
        self.flags = list(flags)

    def ok_output(self):
        """(passed, output, log): what judged it."""
        return self.score == self.max_score, self.output, self.log

    def cite(self, log, cited):
        """Cite the copy at log of the log its output cites, as cited."""
        self.output = self.output.replace(f"(log: {self.cited})", f"(log: {cited})")
        self.log, self.cited = log, cited

    def line(self):
        verdict = "OK" if self.score == self.max_score else "FAIL"
        return f"{self.name}: {verdict} ({self.score}/{self.max_score})"


def boot_globs(checks):
    """The test= value of a boot that runs every check of checks."""
    return ",".join(dict.fromkeys(g for c in checks for g in c.tests.split(",")))


def judge_boot(check, result, log, diags=None, forged=None):
    """(ok, output) of a boot check from a Result of that boot.

    diags: {case: its expectation lines} (failure_lines()) for the output.
    forged: {case: why} of the cases whose results were forged at run time
    (forged_cases()), each failed.
    """
    globs = check.tests.split(",")
    cases = [(name, ok) for suite in result.suites for name, ok in suite.cases
             if any(fnmatch.fnmatchcase(name, g) for g in globs)]
    failed = [name for name, ok in cases if not ok]
    # The results channel's results count; a case the console says
    # otherwise of (a result line printed by the lab's code) fails, and
    # so does a case the channel's records show forged.
    disputed = {name: why for name, why in {**result.disagreements,
                                            **(forged or {})}.items()
                if any(fnmatch.fnmatchcase(name, g) for g in globs)}
    failed += [name for name in disputed if name not in failed]
    # The debug build's and the race detector's checks report what they
    # find: a report nobody provoked (say, wait_lock not held, a data
    # race) fails the checks of that build.
    unprovoked = [r for r in result.reasons if r.startswith(UNPROVOKED)]
    if check.reports_fail() and unprovoked:
        return False, f"{unprovoked[0]} (log: {log})"
    cut = unreported(globs, result)
    if cut and cut not in disputed:
        failed += [f"{cut} (never reported: {'; '.join(result.reasons) or 'no reason'})"]
    if failed:
        lines = [f"failed: {', '.join(failed)} (log: {log})"]
        for name in failed:
            if name in disputed:
                lines.append(f"{name}: {disputed[name]}")
            lines += [f"{name}: {d}" for d in (diags or {}).get(name, ())]
        return False, "\n".join(lines)
    if not cases:
        why = "; ".join(result.reasons) or "no result"
        return False, f"no result for {check.tests}: {why} (log: {log})"
    return True, f"{len(cases)} case(s) passed"


def unreported(globs, result):
    """A glob of globs that selects a case the boot never reported, or None.

    Such a case counts as failed: a boot cut short (a panic, a hang) may
    have run only the cases that passed. A glob naming one case needs that
    case; a wildcard needs each suite it selects reported whole.
    """
    reported = {name for suite in result.suites for name, _ in suite.cases}
    for glob in globs:
        if not any(c in glob for c in "*?["):
            if glob not in reported:
                return glob
            continue
        suites = [s for s in result.suites
                  if fnmatch.fnmatchcase(s.name, glob.split(".")[0])]
        if any(s.failed > sum(1 for _, ok in s.cases if not ok) for s in suites):
            return glob
        if not suites and result.missing_suites:
            return glob
    return None


def failure_lines(log):
    """{suite.case: the first DIAG_LINES "# ..." lines before its "not ok",
    and how many more there were} of a KTAP log."""
    found, suite, pending = {}, None, []
    subtest = re.compile(r"^\s*# Subtest: (\S+)")
    diag = re.compile(r"^\s+# (.*)")
    verdict = re.compile(r"^(\s*)(not )?ok \d+ (\S+)")
    with open(log, encoding="utf-8", errors="replace") as f:
        for line in f:
            m = subtest.match(line)
            if m:
                suite, pending = m.group(1), []
                continue
            m = verdict.match(line)
            if m:
                if m.group(2) and m.group(1) and suite:
                    found[f"{suite}.{m.group(3)}"] = first_lines(pending)
                pending = []
                continue
            m = diag.match(line)
            if m:
                add_diag(pending, m.group(1).rstrip())
    return found


def add_diag(lines, text):
    """Add a diagnostic line's text to lines: to the last one if that ends in
    a backslash, where the kernel went on to this line (print_diag())."""
    if lines and lines[-1].endswith("\\"):
        lines[-1] = lines[-1][:-1] + text
    else:
        lines.append(text.strip())


def first_lines(lines):
    """The first DIAG_LINES of lines, and a line that says how many more."""
    more = len(lines) - DIAG_LINES
    return lines[:DIAG_LINES] + ([f"... and {more} more line(s) in the log"]
                                 if more > 0 else [])


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
        # "address:<tab>mnemonic operands"; ARM's has a tab before its operands
        insn = " ".join(line.split("\t", 1)[-1].split())
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
        student=None, case_timeout=CASE_TIMEOUT, say=say_on_terminal, shown=None):
    """Grade lab on its arches (or names of them); the exit code.

    case_timeout: the seconds a case may take, what a stub that made it
    wait for ever costs. say: what prints each line of the report.
    shown: what makes the outcomes ones the student can follow, before
    they are said (a submission's: its logs in the student's folder).
    """
    forget(results_path)
    if student is None:
        student = labs.is_student_tree(root)
    if lab.planted and not labs.is_student_tree(root):
        # Planted checks swap a file of the tree they grade: never the
        # full tree's own. Its files are graded as a submission instead.
        return run_submission(root, arches, lab, root, names, accel, results_path,
                              say, case_timeout)
    checks = lab.checks_for(student)
    names = names or lab.arches
    try:
        sandbox.check()
    except sandbox.Unavailable as e:
        return report_not_graded(lab, failed_outcomes(checks, names, f"not graded: "
                                                      f"no sandbox to grade in: {e}"),
                                 results_path, say, "make the sandbox run here "
                                 "(docs/labs/instructor.md, \"The sandbox\")")
    with sandbox.confined(root):
        return _run(root, arches, lab, checks, names, accel, results_path,
                    case_timeout, say, shown)


def _run(root, arches, lab, checks, names, accel, results_path, case_timeout, say,
         shown):
    outcomes, failed = [], None
    flagged = check_before_running(root, arches, lab, checks, names, say)
    if isinstance(flagged, BuildError):
        failed, outcomes = flagged, failed_outcomes(checks, names, flagged.text, flagged.log)
        names = []
    elif flagged:
        return report_flagged(root, lab, checks, names, flagged, results_path, say)
    for name in names:
        got = grade_arch(root, arches[name], lab, checks, accel, case_timeout, say)
        if isinstance(got, BuildError):
            failed = got
            outcomes = failed_outcomes(checks, names, got.text, got.log)
            break
        outcomes += got
    outcomes = shown(outcomes) if shown else outcomes
    if failed:
        return report_not_graded(lab, outcomes, results_path, say,
                                 "fix the build and grade again")
    return report(lab, outcomes, results_path, say)


def check_before_running(root, arches, lab, checks, names, say):
    """Build every configuration the checks use and check the lab's files
    in each (precheck.py), before any boot: the Violations found, or the
    BuildError of a build that failed. The first configuration with a
    violation ends it: the submission is flagged either way, and the
    other builds would only cost time (a person reads the files)."""
    files = labs.submitted_files(labs.ROOT, lab)
    for name in names:
        cfgs = dict.fromkeys(c.build(name) for c in checks if c.runs_on(name)
                             and c.kind in ("boot", "insns", "planted"))
        for cfg in cfgs:
            failed = build_for_grade(root, cfg)
            if failed:
                return failed
            found = precheck.check(root, cfg, f"{arches[name].cross}nm", lab, files)
            if found:
                return list(dict.fromkeys(found))
    say(f"grade: lab {lab.number}'s files use only what the lab allows")
    return []


# The checks a violation fails: every one that runs the lab's code.
CODE_KINDS = ("boot", "insns", "planted")


def report_flagged(root, lab, checks, names, violations, results_path, say):
    """The lab's files broke a rule of precheck.py: its code checks graded
    0 without running, each saying why, and results.json flagged for a
    person to look at; exit 1 (the answers may still score)."""
    why = "not run: the lab's files use what the lab does not allow:\n" + \
        "\n".join(str(v) for v in violations)
    outcomes = []
    for name in names:
        for check in (c for c in checks if c.runs_on(name)):
            if check.kind in CODE_KINDS:
                outcomes.append(Outcome(check, name, False, why))
            else:
                outcomes.append(Outcome(check, name, *answers.judge(root)))
    say(f"grade: FLAGGED for a person to look at: {why}")
    code = report(lab, outcomes, results_path, say)
    if results_path:
        with open(results_path, encoding="utf-8") as f:
            data = json.load(f)
        data["flagged"] = True
        data["flagged_reasons"] = [str(v) for v in violations]
        data["output"] = f"FLAGGED for a person to look at: {why}\n\n" + \
            data.get("output", "")
        write_json(results_path, data)
    return max(code, 1)


# Where the full tree grades a submission (grading_tree()).
GRADING_TREE = os.path.join("build", "grade-tree")


def run_submission(root, arches, lab, tree, names=None, accel="tcg",
                   results_path="results.json", say=say_on_terminal,
                   case_timeout=CASE_TIMEOUT):
    """Grade the submission at tree from the full tree at root; the exit code.

    Only the lab's files are taken from tree (labs.grading_tree()): its
    own tests, scripts and Makefile change nothing. A submission whose
    files cannot be taken is graded 0, each check failed with why.
    """
    forget(results_path)
    # Absolute: the sandbox names the tree /grade, and rewrites the
    # tree's path where a command names it (sandbox.py).
    dest = os.path.abspath(os.path.join(root, GRADING_TREE))
    os.makedirs(os.path.dirname(dest), exist_ok=True)
    # One grade at a time uses the folder (make check-labs grades there too).
    with open(f"{dest}.lock", "w", encoding="utf-8") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        return _run_submission(root, arches, lab, tree, dest, names, accel,
                               results_path, say, case_timeout)


def _run_submission(root, arches, lab, tree, dest, names, accel, results_path, say,
                    case_timeout):
    # Nothing of the last submission's grade may pass for this one's, nor
    # of this submission's last grade.
    shutil.rmtree(dest, ignore_errors=True)
    try:
        forget(os.path.join(tree, LOGS))
        notes = labs.grading_tree(root, tree, lab, dest)
    except (labs.LabError, OSError) as e:
        why = f"{tree}: not graded: {e}"
        return report_not_graded(lab, failed_outcomes(lab.checks, names or lab.arches, why),
                                 results_path, say, "none of the submission's files was built")
    notes += filter(None, [lab_file_note(tree, lab)])
    for name in names or lab.arches:
        for cfg in {c.build(name) for c in lab.checks} | {BuildConfig(name, "native")}:
            labs.copy_build_folder(root, dest, cfg)
    say(f"grade: {tree}: lab {lab.number}'s files graded in the instructor's "
        f"tree ({GRADING_TREE})")
    for note in notes:
        say(f"grade: {note}")
    return run(dest, arches, lab, names, accel, results_path, student=False,
               case_timeout=case_timeout, say=say,
               shown=lambda outcomes: keep_logs(dest, tree, outcomes, say))


# Where a submission's grade leaves its build and boot logs, in the
# submission's folder: the student gets that folder back (grade-all), and
# the outputs cite them there, never in the grading tree.
LOGS = "grade-logs"


def keep_logs(dest, tree, outcomes, say):
    """Copy the logs of the grade in the grading tree dest into the
    submission's LOGS folder; outcomes that cite the copies, and name the
    files of dest by their path in a lab tree."""
    keep = os.path.join(tree, LOGS)
    copies = {}
    try:
        os.makedirs(keep)
        for log in glob.glob(os.path.join(dest, "build", "**", "*.log"), recursive=True):
            name = os.path.relpath(log, os.path.join(dest, "build")).replace(os.sep, "-")
            shutil.copyfile(log, os.path.join(keep, name))
            copies[os.path.abspath(log)] = name
    except OSError as e:
        say(f"grade: the logs stay in the instructor's tree: {e}")
    prefixes = sorted({os.path.join(d, "") for d in (dest, os.path.normpath(dest),
                                                      os.path.abspath(dest))},
                      key=len, reverse=True)
    for o in outcomes:
        name = copies.get(os.path.abspath(o.log)) if o.log else None
        if name:
            o.cite(os.path.join(keep, name), f"{LOGS}/{name}")
        for prefix in prefixes:
            o.output = o.output.replace(prefix, "")
    return outcomes


def lab_file_note(tree, lab):
    """What to say of the LAB file of the submission at tree, graded as lab;
    None when it names lab. Grading never takes that file: whatever it
    holds changes nothing."""
    graded = f"graded as lab {lab.number}"
    try:
        claimed = labs.submission_lab(tree)
    except labs.LabError as e:
        return f"{e}; {graded}"
    if claimed != lab:
        return f"the submission says it is lab {claimed.number}; {graded}"
    return None


class BuildError:
    """A build that failed: its configuration, first error and log."""

    def __init__(self, cfg, first_error, log):
        self.text = f"{cfg.label()} does not build: {first_error} (log: {log})"
        self.log = log


# The most a grade's build may take: ten times the longest from nothing
# (the race detector's on arm, about a minute at -j2 on a loaded host).
# A file that makes the compiler read for ever (#include "/dev/zero")
# ends there, its grade a build that failed.
BUILD_SECS = 600


def build_for_grade(root, cfg):
    """Build cfg into a log of its own; None, or a BuildError."""
    folder = os.path.basename(build.builddir(root, cfg))
    log = os.path.join(root, "build", f"grade-{folder}.log")
    os.makedirs(os.path.dirname(log), exist_ok=True)
    with open(log, "wb") as f:
        why = build.build(root, cfg, jobs=2, log=f, timeout=BUILD_SECS)
    if not why:
        return None
    # The linker names the files of a submission by their path in the
    # grading tree, and those built in the full tree by theirs.
    return BuildError(cfg, first_error(log, (root, labs.ROOT)) or why, log)


# A line that says why a build failed: the compiler's "error:", the
# assembler's "Error:", the linker's own lines, but not the "in function"
# line over the one that says what is wrong there, nor a warning.
TOOL_ERROR = re.compile(r"\b(error|Error):|undefined reference|multiple definition|"
                        r"^[\w.+-]*ld(\.bfd)?: (?!.*(warning:|: in function))")
# make's own "*** [...] Error 1" says only that a command failed.
MAKE_ERROR = re.compile(r"^make(\[\d+\])?: \*\*\*")


def first_error(log, trees=()):
    """The first line of a build log with the compiler's, assembler's or
    linker's error (make's when none has), or None.

    trees: folders left out of the paths the line names.
    """
    found = None
    with open(log, encoding="utf-8", errors="replace") as f:
        for line in f:
            if TOOL_ERROR.search(line):
                found = line.strip()
                break
            if found is None and MAKE_ERROR.match(line):
                found = line.strip()
    for tree in sorted((os.path.abspath(t) + os.sep for t in trees), key=len,
                       reverse=True):
        found = found and found.replace(tree, "")
    return found


def grade_arch(root, arch, lab, checks, accel, case_timeout, say):
    """The outcomes of checks on arch, or the BuildError of a failed build."""
    outcomes = []
    checks = [c for c in checks if c.runs_on(arch.name)]
    cfgs = dict.fromkeys(c.build(arch.name) for c in checks
                         if c.kind in ("boot", "insns", "planted"))
    for cfg in cfgs:
        failed = build_for_grade(root, cfg)
        if failed:
            return failed
        booted = [c for c in checks if c.kind == "boot" and c.build(arch.name) == cfg]
        if booted:
            outcomes += grade_boot(root, arch, lab, cfg, booted, accel,
                                   case_timeout, say)
        for check in checks:
            if check.kind == "insns" and check.build(arch.name) == cfg:
                outcomes.append(Outcome(check, arch.name,
                                        *judge_insns(root, arch, cfg, check.insns)))
        planted = [c for c in checks
                   if c.kind == "planted" and c.build(arch.name) == cfg]
        if planted:
            outcomes += grade_planted(root, arch, lab, cfg, planted, accel,
                                      case_timeout, say)
    for check in checks:
        if check.kind == "answers":
            outcomes.append(Outcome(check, arch.name, *answers.judge(root)))
    return outcomes


def grade_boot(root, arch, lab, cfg, booted, accel, case_timeout, say,
               name="grade"):
    """The outcomes of the boot checks booted, from one boot of cfg.

    name: what its log is called after the lab (lab3-grade.log).
    """
    globs = boot_globs(booted)
    case_timeout = min(case_timeout, lab.case_timeout or case_timeout)
    case_timeout = max([case_timeout] + [c.case_secs for c in booted])
    spec = BootSpec(f"lab{lab.number}-{name}", cfg, arch.boot_image, GRADE_CPUS,
                    f"test={globs} kunit.timeout={case_timeout} "
                    f"kunit.max_timeout={case_timeout} {APPEND}"
                    f"{' ' + DEBUG_APPEND if cfg.mutex == 'debug' else ''}", BOOT_TIMEOUT,
                    silence=case_timeout + SILENCE_MARGIN)
    say(f"grade: lab {lab.number}, {cfg.label()}: booting test={globs}")
    result = run_spec(root, arch, spec, accel)
    diags = failure_lines(result.log) if os.path.isfile(result.log) else {}
    forged = forged_cases(root, arch, lab, cfg, result)
    return [Outcome(check, arch.name,
                    *judge_boot(check, result, result.log, diags, forged),
                    log=result.log, flags=selected(check, forged))
            for check in booted]


def selected(check, found):
    """"case: why" of each case of found ({case: why}) that check grades."""
    globs = check.tests.split(",")
    return [f"{name}: {why}" for name, why in found.items()
            if any(fnmatch.fnmatchcase(name, g) for g in globs)]


def forged_cases(root, arch, lab, cfg, result):
    """{case: why} of the cases of result whose results the lab's code
    forged at run time: one that failed and ended 'ok' (the results
    channel's failure records), one whose case table was changed."""
    elf = os.path.join(root, build.builddir(root, cfg), "kernel.elf")
    return {**result.forged, **wrong_calls(f"{arch.cross}nm", elf, result.calls,
                                           labs.submitted_files(labs.ROOT, lab),
                                           lab.own_suites)}


def wrong_calls(nm, elf, calls, lab_files, own_suites=()):
    """{case: why} of each case of calls ({"suite.case": address}, the
    results channel's call records) whose function at address is not the
    one its name says (KUNIT_CASE(name) runs name) in the tests: the
    kernel's symbols (elf, nm -l) hold none of that name there, or one in
    a lab's file (lab_files) named like the case. The cases of own_suites
    are the lab's own tests (lab 9's): theirs are in a lab's file."""
    if not calls:
        return {}
    functions = [(address, name, where.rpartition(":")[0])
                 for address, kind, name, where in build.elf_symbols(nm, elf, lines=True)
                 if kind in "tTW"]
    found = {}
    for case, address in calls.items():
        suite, _, name = case.rpartition(".")
        mine = suite in own_suites
        if not any(a == address and n == name and in_files(where, lab_files) == mine
                   for a, n, where in functions):
            found[case] = (f"the runner called {symbol_at(functions, address)} for it, "
                           f"not the test's {name}(): its case table was changed "
                           "while the tests ran")
    return found


def in_files(where, paths):
    """Whether where (an absolute path) is one of paths (relative to a tree)."""
    return any(where.endswith("/" + p) for p in paths)


def symbol_at(functions, address):
    """"name+0xN (file)" of the function of functions that address is in."""
    below = [f for f in functions if f[0] <= address]
    if not below:
        return f"0x{address:x}, in no function"
    start, name, where = max(below)
    offset = f"+0x{address - start:x}" if address != start else ""
    return f"{name}{offset} at 0x{address:x} ({os.path.basename(where) or 'no file'})"


def grade_planted(root, arch, lab, cfg, planted, accel, case_timeout, say):
    """The outcomes of the planted checks: the student's tests on each version.

    The lab's file is swapped for each planted version in turn (the
    reference first) and put back at the end; a version is caught when a
    case of the student's tests fails, which counts only if none failed
    on the reference.
    """
    target = os.path.join(root, lab.planted[0])
    # Bytes: the student's file is put back as it was, UTF-8 or not.
    with open(target, "rb") as f:
        students = f.read()
    outcomes, reference_ok = [], None
    try:
        for check in sorted(planted, key=lambda c: bool(c.planted)):
            ok, output, log, flags = run_planted(root, arch, lab, cfg, check, accel,
                                                 case_timeout, say, target)
            if not check.planted:
                reference_ok = ok
            elif reference_ok is False:
                ok, output = False, "your tests fail on the correct version: " \
                    "catching a wrong one counts only when they pass on it"
            outcomes.append(Outcome(check, arch.name, ok, output, log, flags))
    finally:
        with open(target, "wb") as f:
            f.write(students)
    return outcomes


def run_planted(root, arch, lab, cfg, check, accel, case_timeout, say, target):
    """(ok, output, log, flags) of the student's tests booted with one
    planted version; flags: the cases whose results the channel's records
    show forged (a failure kept from a mutant is a forge too)."""
    source = labs.planted_source(root, check.planted)
    if not os.path.isfile(source):
        return False, f"{source}: no planted version (grade from the instructor's tree)", \
            None, []
    shutil.copyfile(source, target)
    failed = build_for_grade(root, cfg)
    if failed:
        return False, failed.text, failed.log, []
    say(f"grade: lab {lab.number}, {cfg.label()}: planted "
        f"'{check.planted or 'reference'}', booting test={check.tests}")
    booted = grade_boot(root, arch, lab, cfg, [check], accel, case_timeout,
                        lambda text: None, f"planted-{check.planted or 'reference'}")[0]
    ok, output, log = booted.ok_output()
    if not check.planted:
        return ok, output, log, booted.flags
    if booted.flags:
        # A forged case fails, which on a wrong version would score.
        return False, "the results channel shows your tests' results forged: " + \
            "; ".join(booted.flags), log, booted.flags
    if ok:
        return False, f"your tests pass on it: {os.path.basename(source)} " \
            f"({check.name.split(': ', 1)[-1]})", None, booted.flags
    return True, "your tests fail on it", log, booted.flags


def report_not_graded(lab, outcomes, results_path, say, remedy):
    """Nothing graded: outcomes (failed_outcomes()) reported, why said
    first; exit 2. remedy: what to do before grading again."""
    say(f"grade: {outcomes[0].output}")
    report(lab, outcomes, results_path, say)
    say(f"grade: nothing graded: {remedy}")
    return 2


def failed_outcomes(checks, names, why, log=None):
    """Each check of checks failed with why on each arch of names it runs on."""
    return [Outcome(c, name, False, why, log) for name in names for c in checks
            if c.runs_on(name)]


def write_not_graded(path, why, lab=None, names=None, student=False):
    """results.json of a grade refused before it began: score 0, why said,
    and each check failed if the lab is known (student: in a student tree)."""
    if not path:
        return
    outcomes = failed_outcomes(lab.checks_for(student), names or lab.arches, why) \
        if lab else []
    write_results(path, 0, outcomes, why)


def report(lab, outcomes, results_path, say=say_on_terminal):
    """Say the lines and the score, write results.json; the exit code."""
    score = sum(o.score for o in outcomes)
    total = sum(o.max_score for o in outcomes)
    say(f"== lab {lab.number}: {lab.title} ==")
    said = None
    for o in outcomes:
        say(o.line())
        # A build error fails every check alike: its text is said once.
        if o.score < o.max_score and o.output != said:
            for line in o.output.splitlines():
                say(f"    {line}")
            said = o.output
    say(f"Score: {score}/{total}")
    for o in outcomes:
        for flag in o.flags:
            say(f"grade: FLAGGED for a person to look at: {o.name}: {flag}")
    if results_path:
        write_results(results_path, score, outcomes, log_tails(outcomes))
        say(f"results: {results_path}")
    return 0 if score == total else 1


# The lines of each log a failed check cites that results.json holds as
# its output: where it is all the student gets back (Gradescope), they
# say how a boot ended (a panic and its backtrace) or a build failed.
LOG_TAIL = 25


def log_tails(outcomes):
    """The last LOG_TAIL lines of each log a failed check cites, or None."""
    parts = []
    logs = dict.fromkeys((o.log, o.cited) for o in outcomes
                         if o.log and o.score < o.max_score)
    for log, cited in logs:
        try:
            with open(log, encoding="utf-8", errors="replace") as f:
                lines = collections.deque((line for line in f
                                           if not line.startswith("runner: ")), LOG_TAIL)
        except OSError:
            continue
        tail = "".join(lines).strip("\n")
        parts.append(f"== the end of {cited} ==\n{tail}\n")
    return "\n".join(parts) or None


def write_results(path, score, outcomes, output=None):
    """Gradescope's results.json: a total score and one entry per check;
    output: what it says above them, if anything."""
    data = {
        "score": score,
        "tests": [{"name": o.name, "score": o.score, "max_score": o.max_score,
                   "output": o.output} for o in outcomes],
    }
    if output:
        data["output"] = output
    flags = [f"{o.name}: {flag}" for o in outcomes for flag in o.flags]
    if flags:
        data["flagged"] = True
        data["flagged_reasons"] = flags
    write_json(path, data)


def write_json(path, data):
    """Write data as JSON at path."""
    # A new file of our own, renamed over whatever path is: a link the
    # submission put there is replaced, never written through.
    fd, tmp = tempfile.mkstemp(prefix=".results-", dir=os.path.dirname(path) or ".")
    os.fchmod(fd, 0o644)        # mkstemp's is private: this one is to be read
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            json.dump(data, f, indent=2)
            f.write("\n")
        forget(path)
        os.replace(tmp, path)
    except BaseException:
        forget(tmp)
        raise


def new_file(path):
    """A text file written new at path: what was there is removed first, a
    link itself, so that nothing is ever written through one."""
    forget(path)
    return open(path, "x", encoding="utf-8")


def forget(path):
    """Remove what is at path if anything, a link and not what it points to:
    an earlier grade's results must never pass for this one's."""
    if not path or not os.path.lexists(path):
        return
    if os.path.isdir(path) and not os.path.islink(path):
        shutil.rmtree(path)
    else:
        os.remove(path)
