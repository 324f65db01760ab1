"""The host tools of MutexOS: PYTHONPATH=scripts python3 -m mutexos COMMAND.

  run           boot one kernel, its serial console on this terminal; exit with its status
  gdb           QEMU halted with its gdb stub, gdb-multiarch attached
  kgdb          boot with the kernel's own gdb stub on a socket; the gdb command
  test          the test matrix, or the part of it selected
  torture       the lock suites, many times the work of test
  bench         the benchmarks: CSV, plots, a table
  check-runner  the runner checks itself
  check-det-bench  two deterministic (icount) boots agree exactly; the mutex's gate;
                   the latency gate
  check-debug-cost  the debug build's and the validator's price against native (icount)
  trace         a lock scenario's timeline: Chrome trace-event JSON and PNGs
  check-iso     the kernel boots from a GRUB ISO and passes
  check-verdicts  runs that test nothing (test=list, ...) must not pass
  lab           write a lab's student tree (make lab LAB=n DEST=dir)
  student-repo  write the students' repository, a branch per lab (make student-repo DEST=dir)
  autograder    write a lab's Gradescope zip (make autograder LAB=n [DEST=zip])
  grade         grade a lab: a line per check, a score, results.json
  grade-all     grade a folder of submissions from the instructor's tree
  check-labs    every lab: its tree builds, its skeleton fails, the reference passes
  check-kgdb-fuzz  gdb against the kernel's stub through random operations (REPLAY=, OPS=)

--arch, --mutex and --cpus take one value or a comma list and may be
repeated; one left out means all of its values.  Bad input exits with 2
before anything is built.  Commands are run from the top of the source
tree, whatever the current folder.
"""

import argparse
import json
import os
import random
import signal
import sys
import traceback

from . import arches as arches_mod
from . import (bench, checks, debugcost, detbench, gdb, grade, kgdbfuzz, labcheck, labs,
               latency, load, matrix, qemu)
from . import runner, stuckcheck
from . import trace
from .build import MUTEXES
from .verdict import exit_code, total_line

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
# Where we were started: paths on the command line are relative to it.
START = os.getcwd()


def _words(values):
    """The values of a repeatable, comma-separated option, in order, once each."""
    if values is None:
        return None
    words = [w for value in values for w in value.split(",") if w]
    return tuple(dict.fromkeys(words))


def _add_selection(ap, cpus_help):
    ap.add_argument("--arch", action="append", metavar="ARCH",
                    help="arch(es) to use (default: every arch)")
    ap.add_argument("--mutex", action="append", metavar="BUILD",
                    help=f"mutex build(s): {', '.join(MUTEXES)} (default: all)")
    ap.add_argument("--cpus", action="append", metavar="N", help=cpus_help)


def _add_accel(ap):
    ap.add_argument("--accel", choices=qemu.ACCELS, default="tcg",
                    help="kvm where the arch allows it and /dev/kvm works; icount: "
                    "deterministic, guest time counts instructions (default tcg)")


def _add_jobs(ap):
    ap.add_argument("-j", dest="jobs", type=int, default=runner.default_jobs(),
                    metavar="N", help="QEMUs at once (default: the host's cores "
                    f"plus one, {runner.default_jobs()} here)")


def parser():
    """The command line."""
    ap = argparse.ArgumentParser(prog="python3 -m mutexos",
                                 description=__doc__.splitlines()[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter,
                                 epilog="\n".join(__doc__.splitlines()[2:]))
    sub = ap.add_subparsers(dest="command", required=True, metavar="COMMAND")
    _add_run(sub)
    _add_gdb(sub)
    _add_kgdb(sub)
    _add_test(sub)
    _add_bench(sub)
    p = sub.add_parser("check-runner", help="the runner checks itself")
    _add_jobs(p)
    _add_accel(p)
    p = sub.add_parser("check-stuck", help="no stuck verdict on correct kernels, boot "
                       "after boot")
    p.add_argument("--boots", type=int, default=stuckcheck.DEFAULT_BOOTS,
                   help="boots of each build and CPU count (default "
                   f"{stuckcheck.DEFAULT_BOOTS})")
    _add_jobs(p)
    _add_accel(p)
    sub.add_parser("check-det-bench", help="deterministic benchmarks: exact, and the gate")
    sub.add_parser("check-debug-cost", help="the debug build's price, exact, and its gate")
    p = sub.add_parser("trace", help="a lock scenario's timeline for Perfetto, and PNGs")
    p.add_argument("--arch", required=True, help="the arch")
    p.add_argument("--mutex", default="spin", help="the mutex build (default spin)")
    p.add_argument("--scenario", required=True,
                   help=f"what to trace: {', '.join(trace.SCENARIOS)}")
    p.add_argument("--outdir", default="build/trace", help="JSON, PNGs and the log "
                   "(default build/trace)")
    _add_accel(p)
    p = sub.add_parser("check-verdicts", help="runs that test nothing must not pass")
    _add_accel(p)
    p = sub.add_parser("check-iso", help="boot from a GRUB ISO")
    p.add_argument("--timeout", type=int, default=checks.ISO_TIMEOUT, metavar="SECONDS")
    _add_accel(p)
    _add_labs(sub)
    _add_kgdb_fuzz(sub)
    return ap


def _add_kgdb_fuzz(sub):
    p = sub.add_parser("check-kgdb-fuzz", help="gdb against the kernel's stub, "
                       "random operations")
    p.add_argument("--arch", action="append", metavar="ARCH",
                   help="arch(es) (default: every arch with a port for the stub)")
    p.add_argument("--cpus", action="append", metavar="N",
                   help="CPU count(s) (default: " +
                   ",".join(str(c) for c in kgdbfuzz.CPU_COUNTS) + ")")
    p.add_argument("--replay", type=int, help="the run number, from which the "
                   "operations follow (default: a random one, printed)")
    p.add_argument("--ops", type=int, default=kgdbfuzz.DEFAULT_OPS,
                   help=f"operations per arch (default {kgdbfuzz.DEFAULT_OPS})")
    _add_accel(p)


def _add_labs(sub):
    p = sub.add_parser("lab", help="write a lab's student tree")
    p.add_argument("--lab", required=True, help="the lab's number")
    p.add_argument("--dest", required=True, help="a new or empty folder")
    p = sub.add_parser("student-repo", help="write the students' repository")
    p.add_argument("--dest", required=True, help="a new or empty folder")
    p = sub.add_parser("autograder", help="write a lab's Gradescope zip")
    p.add_argument("--lab", required=True, help="the lab's number")
    p.add_argument("--dest", required=True, help="the zip to write")
    p = sub.add_parser("grade", help="grade a lab")
    p.add_argument("--lab", help="the lab's number (a student tree knows its own)")
    p.add_argument("--arch", action="append", metavar="ARCH",
                   help="grade on these of the lab's arches only (default: all of them)")
    p.add_argument("--tree", metavar="DIR",
                   help="from the full tree: grade this submission's lab files "
                        "in the instructor's tree, with every check")
    p.add_argument("--results", default="results.json", metavar="PATH",
                   help="where to write Gradescope's results.json (default: "
                        "results.json at the top of the tree)")
    _add_accel(p)
    p = sub.add_parser("grade-all", help="grade every submission of a folder")
    p.add_argument("--lab", required=True, help="the lab's number")
    p.add_argument("--submissions", required=True, metavar="DIR",
                   help="a folder of submissions, one folder each")
    p.add_argument("--arch", action="append", metavar="ARCH",
                   help="grade on these of the lab's arches only (default: all of them)")
    _add_accel(p)
    p = sub.add_parser("check-labs", help="check every lab's trees")
    p.add_argument("--entry", action="append", metavar="NAME",
                   help="grade only these bank entries (labN-what, or labN-reference), "
                   "nothing else")
    _add_accel(p)


def _add_run(sub):
    p = sub.add_parser("run", help="boot one kernel, serial console on this terminal")
    p.add_argument("--arch", required=True)
    where = p.add_mutually_exclusive_group(required=True)
    where.add_argument("--builddir", help="boot the arch's boot image of this build folder")
    where.add_argument("--image", help="boot this kernel image")
    p.add_argument("--cpus", default="2", help="CPU count (default 2)")
    p.add_argument("--append", default="", help="kernel command line")
    p.add_argument("--turns", action="store_true",
                   help="the CPUs take turns on one host thread (tcg only)")
    _add_accel(p)


def _add_stub_options(p, cpus, port_help, append_help):
    """What make gdb and make kgdb both take."""
    p.add_argument("--arch", required=True)
    p.add_argument("--builddir", required=True, help="the build folder (symbols, image)")
    p.add_argument("--cpus", default=cpus, help=f"CPU count (default {cpus})")
    p.add_argument("--port", type=int, help=port_help)
    p.add_argument("--append", default="", help=append_help)


def _add_gdb(sub):
    p = sub.add_parser("gdb", help="QEMU halted, gdb-multiarch attached")
    _add_stub_options(p, "1", "gdb stub port (default: a free one)", "kernel command line")
    p.add_argument("--batch", action="store_true",
                   help="stop at start_kernel, print pc and a backtrace, end")


def _add_kgdb(sub):
    p = sub.add_parser("kgdb", help="the kernel's gdb stub on a socket, the gdb command")
    _add_stub_options(p, "2", "the stub's port (default: a free one)",
                      "kernel command line (kgdb is added)")
    p.add_argument("--gdb", action="store_true",
                   help="boot with kgdbwait, the console to a log, and start gdb here")
    _add_accel(p)


def _add_test(sub):
    p = sub.add_parser("test", help="the test matrix, or the part selected")
    _add_selection(p, "CPU count(s) (default: the arch's ARCH_TEST_CPUS*)")
    _add_jobs(p)
    p.add_argument("--timeout", type=int, default=1200, metavar="SECONDS",
                   help="time allowed per boot (default 1200)")
    p.add_argument("--load", type=int, default=0, metavar="N",
                   help="run N CPU hogs per host core meanwhile (default 0)")
    _add_accel(p)
    p = sub.add_parser("torture", help="long stress run of the lock suites")
    _add_selection(p, "CPU count(s) (default 4)")
    p.add_argument("--factor", type=int, default=20,
                   help="times the work of make test (default 20)")
    _add_jobs(p)
    _add_accel(p)


def _add_bench(sub):
    p = sub.add_parser("bench", help="benchmarks: CSV, plots and a table")
    p.add_argument("--arch", action="append", metavar="ARCH",
                   help="arch(es) (default: every arch that builds)")
    p.add_argument("--cpus", action="append", metavar="N",
                   help="CPU count(s) (default: the arch's ARCH_BENCH_CPUS)")
    p.add_argument("--mutex", default="native", help="the mutex build (default native)")
    p.add_argument("--secs", type=int, help="run time of both benchmarks "
                   f"(default: VFS {bench.VFS_SECS}, synchro {bench.SYNCHRO_SECS})")
    p.add_argument("--tasks", type=int, default=bench.VFS_TASKS,
                   help=f"tasks of the VFS test (default {bench.VFS_TASKS})")
    p.add_argument("--which", choices=bench.BENCHMARKS, default="all",
                   help="the benchmark(s) each boot runs (default all)")
    p.add_argument("--loops", type=int,
                   help=f"turns of the latency test per load "
                   f"(default {latency.DEFAULT_LOOPS})")
    p.add_argument("--runs", type=int,
                   help=f"boots per configuration, for the median and range "
                   f"(default {bench.RUNS}; 1 with --accel icount)")
    _add_accel(p)
    p.add_argument("--outdir", help="logs, CSV, plots (default build/bench, "
                   "build/bench-icount with --accel icount)")
    p.add_argument("--from-logs", action="store_true",
                   help="boot nothing: read the logs already in OUTDIR")


# ---------------------------------------------------------------- checking input

def _check_arches(ap, arches, names):
    unknown = [n for n in names or () if n not in arches]
    if unknown:
        ap.error(f"unknown arch '{unknown[0]}' (known: {', '.join(arches)})")


def _check_mutexes(ap, names):
    unknown = [n for n in names or () if n not in MUTEXES]
    if unknown:
        ap.error(f"unknown mutex build '{unknown[0]}' (known: {', '.join(MUTEXES)})")


def _check_cpus(ap, arches, names, words):
    """The CPU counts as ints, each within every selected arch's limit."""
    if words is None:
        return None
    counts = []
    for word in words:
        if not word.isdigit() or int(word) < 1:
            ap.error(f"CPU count '{word}' is not a number of at least 1")
        counts.append(int(word))
    for name in names or tuple(arches):
        limit = arches[name].max_cpus
        if max(counts) > limit:
            ap.error(f"{name} has at most {limit} CPUs (ARCH_MAX_CPUS of "
                     f"{arches[name].path}), not {max(counts)}")
    return tuple(counts)


def _check_positive(ap, **values):
    for name, value in values.items():
        if value is not None and value < 1:
            ap.error(f"{name} must be at least 1, not {value}")


def _selection(ap, arches, opts):
    names, mutexes = _words(opts.arch), _words(opts.mutex)
    _check_arches(ap, arches, names)
    _check_mutexes(ap, mutexes)
    cpus = _check_cpus(ap, arches, names, _words(opts.cpus))
    return matrix.Selection(names, mutexes, cpus)


def _path(value):
    """A path given relative to where we were started, made relative to ROOT."""
    return os.path.relpath(os.path.join(START, value), ROOT)


# ---------------------------------------------------------------- commands

def cmd_run(ap, arches, opts):
    """One boot, interactive."""
    _check_arches(ap, arches, [opts.arch])
    arch = arches[opts.arch]
    cpus = _check_cpus(ap, arches, [opts.arch], [opts.cpus])[0]
    image = _path(opts.image) if opts.image \
        else os.path.join(_path(opts.builddir), arch.boot_image)
    limit = qemu.command_line_max(ROOT)
    if len(opts.append) > limit:
        ap.error(f"the kernel command line has {len(opts.append)} characters; "
                 f"the kernel takes at most {limit}")
    if opts.turns and opts.accel != "tcg":
        why = "icount runs the CPUs in turns anyway" if opts.accel == "icount" \
            else "KVM gives each CPU a thread of its own"
        ap.error(f"--turns is for --accel tcg ({why})")
    if opts.turns and not arch.tcg_turns:
        ap.error(f"{arch.name}'s CPUs cannot take turns: its cpu_relax() ends none in "
                 f"QEMU (ARCH_TCG_TURNS in {os.path.relpath(arch.path, ROOT)})")
    accel, note = qemu.choose_accel(opts.accel, arch)
    if note:
        print(note, file=sys.stderr)
    session = not qemu.runs_to_an_end(opts.append)
    boot = qemu.Boot(image, cpus, opts.append, console=True, reboot=session,
                     turns=opts.turns)
    argv = qemu.command(arch, boot, accel)
    return qemu.run_interactive(argv, arch, session)


def _check_stub_options(ap, arches, opts, append):
    """The CPU count of make gdb's or make kgdb's options, or exit 2."""
    _check_arches(ap, arches, [opts.arch])
    cpus = _check_cpus(ap, arches, [opts.arch], [opts.cpus])[0]
    if opts.port is not None and not 0 < opts.port < 65536:
        ap.error(f"port {opts.port} is not a TCP port")
    limit = qemu.command_line_max(ROOT)
    if len(append) > limit:
        ap.error(f"the kernel command line has {len(append)} characters; "
                 f"the kernel takes at most {limit}")
    return cpus


def cmd_gdb(ap, arches, opts):
    """QEMU and gdb."""
    cpus = _check_stub_options(ap, arches, opts, opts.append)
    return gdb.run(arches[opts.arch], _path(opts.builddir), cpus, opts.port, opts.batch,
                   append=opts.append)


def cmd_kgdb(ap, arches, opts):
    """The kernel's stub on a socket; gdb's command printed or run."""
    if opts.arch in arches and arches[opts.arch].kgdb_port == "none":
        ap.error(f"ARCH={opts.arch} has no serial port for the kernel's gdb stub "
                 "(ARCH_KGDB_PORT none); make gdb uses QEMU's")
    cpus = _check_stub_options(ap, arches, opts, gdb.kgdb_append(opts.append, opts.gdb))
    accel, note = qemu.choose_accel(opts.accel, arches[opts.arch])
    if note:
        print(note, file=sys.stderr)
    return gdb.run_kgdb(arches[opts.arch], _path(opts.builddir), cpus, opts.port,
                        opts.gdb, accel, opts.append)


def cmd_test(ap, arches, opts):
    """The test matrix."""
    sel = _selection(ap, arches, opts)
    _check_positive(ap, j=opts.jobs, timeout=opts.timeout)
    if opts.load < 0:
        ap.error(f"--load must be 0 or more, not {opts.load}")
    plan = matrix.test_plan(arches, sel, opts.timeout,
                            with_labs=not labs.is_student_tree("."))
    with load.cpu_hogs(opts.load):
        return matrix.run_plan(".", arches, plan, opts.jobs, opts.accel)


def cmd_torture(ap, arches, opts):
    """The torture run."""
    sel = _selection(ap, arches, opts)
    _check_positive(ap, j=opts.jobs, factor=opts.factor)
    if sel.cpus is None:
        _check_cpus(ap, arches, sel.arches, ["4"])
    plan = matrix.torture_plan(arches, sel, opts.factor)
    return matrix.run_plan(".", arches, plan, opts.jobs, opts.accel)


def cmd_bench(ap, arches, opts):
    """The benchmarks."""
    names = _words(opts.arch)
    _check_arches(ap, arches, names)
    _check_mutexes(ap, [opts.mutex])
    cpus = _check_cpus(ap, arches, names, _words(opts.cpus))
    _check_positive(ap, secs=opts.secs, tasks=opts.tasks, runs=opts.runs,
                    loops=opts.loops)
    settings = bench.Settings(opts.secs or bench.VFS_SECS,
                              opts.secs or bench.SYNCHRO_SECS, opts.tasks,
                              opts.which, opts.loops)
    return bench.run(".", arches, names, cpus, opts.mutex, settings, opts.accel,
                     opts.outdir and _path(opts.outdir), opts.from_logs, opts.runs)


def cmd_check_runner(ap, arches, opts):
    """The runner's own check."""
    _check_positive(ap, j=opts.jobs)
    accel, _ = qemu.choose_accel(opts.accel, arches[checks.SELFTEST_BUILD.arch])
    result = checks.check_runner(".", arches, opts.jobs, accel)
    print(result.report(), flush=True)
    return exit_code([result])


def cmd_check_stuck(ap, arches, opts):
    """No stuck verdict on correct kernels, boot after boot."""
    _check_positive(ap, j=opts.jobs, boots=opts.boots)
    accel, _ = qemu.choose_accel(opts.accel, arches["i386"])
    result = stuckcheck.check(".", arches, opts.jobs, accel, opts.boots)
    print(result.report(), flush=True)
    return exit_code([result])


def cmd_check_det_bench(ap, arches, opts):
    """Two icount boots agree exactly; the mutex's regression gate; the
    latency gate."""
    results = []
    for check in (detbench.check, detbench.check_latency):
        results.append(check(".", arches))
        print(results[-1].report(), flush=True)
    return exit_code(results)


def cmd_check_debug_cost(ap, arches, opts):
    """The debug build's and the validator's price against native."""
    result = debugcost.check(".", arches)
    print(result.report(), flush=True)
    return exit_code([result])


def cmd_trace(ap, arches, opts):
    """make trace: one scenario's timeline."""
    if opts.arch not in arches:
        ap.error(f"--arch {opts.arch}: not one of {', '.join(arches)}")
    if opts.mutex not in MUTEXES:
        ap.error(f"--mutex {opts.mutex}: not one of {', '.join(MUTEXES)}")
    if opts.scenario not in trace.SCENARIOS:
        ap.error(f"--scenario '{opts.scenario}': give one of "
                 f"{', '.join(trace.SCENARIOS)} (make trace SCENARIO=vfs)")
    accel, _ = qemu.choose_accel(opts.accel, arches[opts.arch])
    return trace.run(".", arches[opts.arch], opts.mutex, opts.scenario, accel,
                     os.path.join(START, opts.outdir))


def cmd_check_verdicts(ap, arches, opts):
    """The verdict check."""
    accel, _ = qemu.choose_accel(opts.accel, arches[checks.ISO_BUILD.arch])
    result = checks.check_verdicts(".", arches, accel)
    print(result.report(), flush=True)
    return exit_code([result])


def cmd_check_iso(ap, arches, opts):
    """The GRUB check."""
    _check_positive(ap, timeout=opts.timeout)
    accel, note = qemu.choose_accel(opts.accel, arches[checks.ISO_BUILD.arch])
    if note:
        print(note)
    result = checks.check_iso(".", arches, accel, opts.timeout)
    print(result.report())
    print(total_line([result]), flush=True)
    return exit_code([result])


def cmd_lab(ap, arches, opts):
    """A lab's student tree."""
    try:
        dest = labs.generate(".", opts.lab, _path(opts.dest))
    except labs.LabError as e:
        print(f"make lab: {e}", file=sys.stderr)
        return 2
    lab = labs.get(opts.lab)
    print(f"lab {lab.number} ({lab.title}): {dest}\n"
          f"  handout: {dest}/{labs.handout(lab)}; grade it there with: make grade")
    return 0


def cmd_student_repo(ap, arches, opts):
    """The students' repository: a branch per lab."""
    try:
        dest = labs.student_repo(".", _path(opts.dest))
    except labs.LabError as e:
        print(f"make student-repo: {e}", file=sys.stderr)
        return 2
    names = " ".join(labs.branch(lab) for _, lab in sorted(labs.LABS.items()))
    print(f"the students' repository: {dest}\n  branches: {names}\n"
          "  publish one branch at a time: docs/labs/instructor.md says in which order")


def cmd_autograder(ap, arches, opts):
    """A lab's Gradescope zip."""
    try:
        if labs.is_student_tree("."):
            raise labs.LabError("make autograder runs in the full tree")
        dest = labs.write_autograder(".", opts.lab, _path(opts.dest))
    except (labs.LabError, OSError) as e:
        print(f"make autograder: {e}", file=sys.stderr)
        return 2
    print(f"lab {opts.lab}'s autograder: {dest} (Gradescope: upload it as the "
          "assignment's autograder zip)")
    return 0


def cmd_grade(ap, arches, opts):
    """Grade a lab in this tree, or a submission from it (--tree)."""
    results = os.path.join(START, opts.results) if opts.results else ""
    # Whatever stops this grade, an earlier one's results must not stay.
    grade.forget(results)
    try:
        lab, own, tree = _what_to_grade(opts)
    except labs.LabError as e:
        print(f"make grade: {e}", file=sys.stderr)
        grade.write_not_graded(results, f"not graded: {e}", _named_lab(opts.lab),
                               student=labs.is_student_tree("."))
        return 2
    names = _lab_arches(ap, lab, opts.arch)
    if tree:
        return grade.run_submission(".", arches, lab, tree, names, opts.accel, results)
    if own is not None:
        print("grade: this tree grades itself, with its own tests and scripts: a "
              "check for you. The grade of record is given from the instructor's "
              "tree, which takes only this lab's files from yours.")
    return grade.run(".", arches, lab, names, opts.accel, results, own is not None)


def _what_to_grade(opts):
    """(the lab, it if this is a student tree, the submission or None); LabError."""
    if labs.autograder_lab("."):
        lab = _autograder_lab(opts)
        return lab, None, os.path.join(START, opts.tree)
    try:
        own = labs.student_lab(".")
    except labs.LabError as e:
        raise labs.LabError(f"{e}; 'git checkout {labs.LAB_FILE}' puts it back") from None
    if opts.tree and own is not None:
        raise labs.LabError("TREE= is for the full tree, which has the "
                            "instructor's tests")
    tree = os.path.join(START, opts.tree) if opts.tree else None
    if own is not None and opts.lab is not None and labs.get(opts.lab) != own:
        raise labs.LabError(f"this is lab {own.number}'s tree, not lab {opts.lab}'s")
    return own or _submission_lab(opts.lab, tree), own, tree


def _autograder_lab(opts):
    """The lab of this autograder tree (make autograder), which grades it
    as submissions only (TREE=)."""
    lab = labs.autograder_lab(".")
    if not opts.tree:
        raise labs.LabError("an autograder's tree grades a submission: TREE=dir")
    if opts.lab is not None and labs.get(opts.lab) != lab:
        raise labs.LabError(f"this is lab {lab.number}'s autograder, not lab {opts.lab}'s")
    return lab


def _submission_lab(number, tree):
    """The lab to grade in the full tree: LAB=, else the submission's LAB file."""
    if number is not None:
        return labs.get(number)
    why = "the full tree has them all"
    if tree:
        try:
            return labs.submission_lab(tree)
        except labs.LabError as e:
            why = str(e)
    raise labs.LabError(f"LAB=n: which lab to grade ({why})")


def _named_lab(number):
    """The lab LAB= names, or None."""
    try:
        return labs.get(number)
    except labs.LabError:
        return None


def _lab_arches(ap, lab, values):
    names = _words(values)
    if names:
        wrong = [n for n in names if n not in lab.arches]
        if wrong:
            ap.error(f"lab {lab.number} runs on {', '.join(lab.arches)}, not {', '.join(wrong)}")
    return names


def _score_line(tree, code):
    """A submission's line of grade-all: its score, and whether it was graded."""
    if code is None:
        return "not graded (see above)"
    try:
        with open(os.path.join(tree, "results.json"), encoding="utf-8") as f:
            data = json.load(f)
        score, total = data["score"], sum(t["max_score"] for t in data["tests"])
    except (OSError, ValueError, KeyError, TypeError):
        return "not graded (see grade.txt)"
    what = " (nothing graded, see grade.txt)" if code not in (0, 1) else ""
    return f"Score: {score}/{total}{what}"


def _grade_one(arches, lab, tree, names, accel):
    """Grade the submission at tree into its grade.txt, results.json and
    grade-logs/ (grade.LOGS); the exit code of its grade, None if it broke."""
    if os.path.islink(tree):
        # Its results would be written wherever it leads.
        print(f"grade-all: {tree}: a symbolic link, not a submission's folder; "
              "not graded", file=sys.stderr)
        return None
    try:
        with grade.new_file(os.path.join(tree, "grade.txt")) as out:
            def say(text):
                out.write(text + "\n")
                out.flush()
            return grade.run_submission(".", arches, lab, tree, names, accel,
                                        os.path.join(tree, "results.json"), say)
    except OSError as e:
        print(f"grade-all: {tree}: not graded: {e}", file=sys.stderr)
    except Exception:
        # A fault of the grader's own: the others are still graded.
        print(f"grade-all: {tree}: the grader failed:\n{traceback.format_exc()}",
              file=sys.stderr)
    return None


def cmd_grade_all(ap, arches, opts):
    """Grade every submission in a folder, one at a time, from this tree."""
    try:
        if labs.is_student_tree("."):
            raise labs.LabError("grade-all runs in the full tree")
        lab = labs.get(opts.lab)
        folder = os.path.join(START, opts.submissions)
        subs = sorted(d for d in os.listdir(folder)
                      if os.path.isdir(os.path.join(folder, d)))
    except (labs.LabError, OSError) as e:
        print(f"make grade-all: {e}", file=sys.stderr)
        return 2
    names = _lab_arches(ap, lab, opts.arch)
    ungraded = 0
    for sub in subs:
        tree = os.path.join(folder, sub)
        code = _grade_one(arches, lab, tree, names, opts.accel)
        ungraded += code not in (0, 1)
        print(f"{sub}: {_score_line(tree, code)}", flush=True)
    print(f"grade-all: lab {lab.number}, {len(subs)} submission(s) in {folder}; "
          f"each has grade.txt, results.json and, if it was built, grade-logs/")
    return 2 if ungraded else 0


def cmd_check_labs(ap, arches, opts):
    """The labs' own check, its parts one after another."""
    results = []
    if opts.entry:
        results.append(labcheck.check_labs(".", arches, opts.accel, "bank", opts.entry))
        print(results[-1].report(), flush=True)
        return exit_code(results)
    for part in labcheck.CHECK_PARTS:
        results.append(labcheck.check_labs(".", arches, opts.accel, part))
        print(results[-1].report(), flush=True)
    return exit_code(results)


def cmd_check_kgdb_fuzz(ap, arches, opts):
    """The debugger fuzzer on each arch's debug build."""
    names = _words(opts.arch) or tuple(n for n in arches if arches[n].kgdb_port != "none")
    _check_arches(ap, arches, names)
    without = [n for n in names if arches[n].kgdb_port == "none"]
    if without:
        ap.error(f"ARCH={without[0]} has no port for the kernel's gdb stub")
    counts = _check_cpus(ap, arches, names, _words(opts.cpus)) or kgdbfuzz.CPU_COUNTS
    _check_positive(ap, ops=opts.ops)
    run = opts.replay if opts.replay is not None else random.randrange(1 << 32)
    results = kgdbfuzz.run(".", arches, names, counts, run, opts.ops, opts.accel)
    print(total_line(results), flush=True)
    return exit_code(results)


COMMANDS = {
    "run": cmd_run, "gdb": cmd_gdb, "kgdb": cmd_kgdb, "test": cmd_test, "torture": cmd_torture,
    "bench": cmd_bench, "check-runner": cmd_check_runner, "check-iso": cmd_check_iso,
    "check-stuck": cmd_check_stuck,
    "check-det-bench": cmd_check_det_bench, "check-debug-cost": cmd_check_debug_cost,
    "check-verdicts": cmd_check_verdicts, "trace": cmd_trace, "lab": cmd_lab,
    "student-repo": cmd_student_repo, "grade": cmd_grade, "grade-all": cmd_grade_all,
    "check-labs": cmd_check_labs, "autograder": cmd_autograder,
    "check-kgdb-fuzz": cmd_check_kgdb_fuzz,
}


def _interrupt(signum, frame):
    # SIGTERM (say, make killed) cleans up as Ctrl-C does.
    raise KeyboardInterrupt


def main(argv=None):
    """Run one command; its exit code."""
    ap = parser()
    opts = ap.parse_args(argv)
    os.chdir(ROOT)
    try:
        arches = arches_mod.load_all(".")
    except (OSError, arches_mod.ArchError) as e:
        print(f"mutexos: {e}", file=sys.stderr)
        return 2
    if opts.command not in ("run", "gdb", "kgdb"):
        signal.signal(signal.SIGTERM, _interrupt)
    try:
        return COMMANDS[opts.command](ap, arches, opts)
    except KeyboardInterrupt:
        qemu.EMULATORS.stop_all()
        print("interrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())
