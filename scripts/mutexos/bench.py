"""make bench: the in-kernel benchmarks in QEMU, as CSV, plots and a table.

The MUTEX build (default native) of each arch boots RUNS times (default 3)
per CPU count (the arch's ARCH_BENCH_CPUS unless counts are given) with
"bench=all": synchro-test, then the VFS test with the semaphore, the 2006
mutex and, in the spin build, the spinning mutex without and with handoff,
the overhead test, the wakeup latencies (latency.py), the rt-mutex's
chain walk and the ww_mutex transactions against one global mutex;
Settings.which picks one instead.  Each boot keeps its serial log as
OUTDIR/ARCH-cpusN-runK.log.  The boots run one after another, never side
by side: they measure time.

The kernel prints its results as "bench: KIND key=value ..." lines (see
kernel/bench/bench.c).  They all go to OUTDIR/bench.csv, one row per line and
boot, with the columns arch, cpus, run, kind and the union of the keys.
The runs of one configuration are then summed up: OUTDIR/bench-summary.csv
has, for every figure, its median over the runs and its min and max
(KEY, KEY_min, KEY_max).  Then:
  - a table of the VFS, synchro, latency, chain walk and ww results is
    printed, each
    figure as "median (min-max)",
  - the latency rows of every boot also go to OUTDIR/latency.csv and
    OUTDIR/latency-hist.csv,
  - gnuplot draws OUTDIR/vfs-ARCH.png (loops per second and CPU use
    against the CPU count, per lock) and OUTDIR/synchro-ARCH.png
    (acquisitions per second against the CPU count, and each thread's
    share at the largest count), the medians with min-max error bars,
    and OUTDIR/latency-ARCH-cpusN.png (the latency histograms).

With from_logs the builds and boots are skipped and the logs already in
OUTDIR are read.  The exit code is 0, or 1 if a boot failed or a run broke
an invariant.
"""

import csv
import os
import re
import shutil
import subprocess
import sys
from dataclasses import dataclass

from . import build, latency, qemu
from .build import BuildConfig
from .runner import at
from .verdict import STATUS_BENCH_DONE, STATUS_MEANING

LINE = re.compile(r"bench: ([a-z-]+)((?: [a-z][a-z0-9_]*=[^ ]+)*)( FAILED)?\s*$")
VFS_SECS = 10           # as the 2006 patches' "test-mutex V 16 10"
SYNCHRO_SECS = 5
VFS_TASKS = 16
RUNS = 3
# The VFS test's locks, in the order the kernel runs them (kernel/bench).
VFS_LOCKS = ("sem", "mutex", "spin", "handoff", "rt")
VFS_LOCK_TITLES = {"sem": "semaphore", "mutex": "mutex (2006)",
                   "spin": "spinning mutex", "handoff": "spinning mutex + handoff",
                   "rt": "rt-mutex (vfs.rt_mutex=1)"}
# What names a result rather than measures it: the runs of a configuration
# with the same values of these are summed up together.
IDENTITY = ("arch", "cpus", "kind", "lock", "base", "thread", "path", "load",
            "lo_ns", "owners")
BENCHMARKS = ("all", "synchro", "vfs", "overhead", "latency", "piwalk", "ww")
OVERHEAD_SECS = 3 * 2       # three loops of overhead.secs=2
PIWALK_SECS = 2             # five chains of each length, made and unwound
WW_SECS = 3 * 2 + 1         # three rounds of ww.secs=2, and the warm-up


@dataclass(frozen=True)
class Settings:
    """What each boot runs (bench=which) and the benchmarks' sizes.

    loops: latency.loops, or None for the kernel's default.
    """

    vfs_secs: int = VFS_SECS
    synchro_secs: int = SYNCHRO_SECS
    vfs_tasks: int = VFS_TASKS
    which: str = "all"
    loops: int = None

    def append(self, arch, accel):
        """The kernel command line; and a note to print, or None."""
        opts, note = latency.options(arch, accel, self.loops)
        return " ".join([f"bench={self.which} synchro.secs={self.synchro_secs} "
                         f"vfs.secs={self.vfs_secs} vfs.tasks={self.vfs_tasks}"]
                        + opts), note

    def guest_secs(self):
        """Guest seconds of what runs: up to four VFS runs and their
        half-second warm-ups, synchro-test, overhead, latency, piwalk, ww."""
        secs = {"synchro": self.synchro_secs, "vfs": 4 * (self.vfs_secs + 1),
                "overhead": OVERHEAD_SECS, "latency": latency.guest_secs(self.loops),
                "piwalk": PIWALK_SECS, "ww": WW_SECS}
        if self.which == "all":
            return sum(secs.values())
        return secs[self.which]


def parse_log(path, arch, cpus, run=1):
    """The bench lines of one serial log as dicts; and whether it ended well."""
    rows, ended, failed = [], False, False
    with open(path, encoding="utf-8", errors="replace") as f:
        for line in f:
            m = LINE.search(line.rstrip("\r\n"))
            if not m:
                continue
            kind = m.group(1)
            fields = dict(item.split("=", 1) for item in m.group(2).split())
            if m.group(3):
                failed = True
            if kind == "end":
                ended = fields.get("status") == "0"
                continue
            if kind in ("start", "synchro-progress"):
                continue
            if kind == "synchro":
                secs = max(float(fields["secs"]), 0.01)
                fields["acq_per_sec"] = f"{int(fields['total']) / secs:.0f}"
            rows.append({"arch": arch, "cpus": cpus, "run": run, "kind": kind, **fields})
    return rows, ended and not failed


def _number(value):
    try:
        return float(value)
    except (TypeError, ValueError):
        return None


def median(values):
    """The median of a non-empty list of numbers."""
    ordered = sorted(values)
    mid = len(ordered) // 2
    if len(ordered) % 2:
        return ordered[mid]
    return (ordered[mid - 1] + ordered[mid]) / 2


def _plain(x):
    """A number as the kernel would print it: no ".0" for a whole one."""
    return str(int(x)) if x == int(x) else f"{x:.4f}".rstrip("0")


def summarize(rows):
    """One row per result over the runs: each figure's median, min and max.

    Rows with the same IDENTITY values are runs of the same result.  A
    numeric field KEY becomes KEY (the median), KEY_min and KEY_max; runs
    says how many runs there were.  Other fields keep the first run's value.
    """
    groups = {}
    for row in rows:
        key = tuple(str(row.get(k, "")) for k in IDENTITY)
        groups.setdefault(key, []).append(row)
    out = []
    for runs in groups.values():
        summary = {k: runs[0][k] for k in IDENTITY if k in runs[0]}
        summary["runs"] = len(runs)
        for field in runs[0]:
            if field in IDENTITY or field == "run":
                continue
            values = [_number(r.get(field)) for r in runs]
            if any(v is None for v in values):
                summary[field] = runs[0][field]
                continue
            summary[field] = _plain(median(values))
            summary[f"{field}_min"] = _plain(min(values))
            summary[f"{field}_max"] = _plain(max(values))
        out.append(summary)
    return out


def spread(row, key, fmt):
    """A summary figure as "median (min-max)", or the median of one run."""
    med = format(float(row[key]), fmt)
    if int(row.get("runs", 1)) < 2:
        return med
    return f"{med} ({format(float(row[key + '_min']), fmt)}-{format(float(row[key + '_max']), fmt)})"


def scaled(row, key, factor):
    """A summary figure (median, min, max) times factor, for spread()."""
    return {"runs": row.get("runs", 1),
            **{k: float(row[k]) * factor for k in (key, f"{key}_min", f"{key}_max")
               if k in row}}


def write_csv(rows, path):
    columns = ["arch", "cpus", "kind"] + [k for k in ("run", "runs") if rows and k in rows[0]]
    for row in rows:
        columns += [key for key in row if key not in columns]
    with open(path, "w", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=columns, restval="")
        writer.writeheader()
        writer.writerows(rows)


def select(rows, kind, **match):
    return [r for r in rows if r["kind"] == kind
            and all(str(r.get(k)) == str(v) for k, v in match.items())]


def print_table(rows):
    """The tables of the summary rows: medians (min-max) over the runs."""
    vfs = select(rows, "vfs")
    if vfs:
        runs = max(int(r.get("runs", 1)) for r in vfs)
        print(f"VFS test: create+close+unlink of per-task files in one directory"
              f" (median (min-max) of {runs} boot(s))")
        print(f"{'arch':<7}{'cpus':>4}{'tasks':>6}  {'lock':<8}{'loops/s':>24}"
              f"{'cpu%':>20}{'loops/s/cpu%':>22}{'cs/loop':>26}")
        for r in vfs:
            print(f"{r['arch']:<7}{r['cpus']:>4}{r['tasks']:>6}  {r['lock']:<8}"
                  f"{spread(r, 'loops_per_sec', '.0f'):>24}{spread(r, 'cpu_pct', '.1f'):>20}"
                  f"{spread(r, 'loops_per_cpu_pct', '.0f'):>22}"
                  f"{spread(r, 'cs_per_loop', '.4f'):>26}")
        print()
        print("per loop (two lock acquisitions), fairness among the tasks, longest wait")
        print(f"{'arch':<7}{'cpus':>4}  {'lock':<8}{'cpu_us':>20}{'wait_us':>24}"
              f"{'jain':>22}{'max_wait_ms':>22}")
        for r in vfs:
            if "jain" not in r:
                continue
            print(f"{r['arch']:<7}{r['cpus']:>4}  {r['lock']:<8}"
                  f"{spread(r, 'cpu_us_per_loop', '.1f'):>20}"
                  f"{spread(r, 'wait_us_per_loop', '.1f'):>24}"
                  f"{spread(r, 'jain', '.3f'):>22}"
                  f"{spread(scaled(r, 'max_wait_us', 0.001), 'max_wait_us', '.0f'):>22}")
        print()
        print("ratios, each from the same boot: lock / base")
        print(f"{'arch':<7}{'cpus':>4}  {'lock/base':<15}{'throughput':>20}{'cpu':>20}"
              f"{'efficiency':>20}")
        for r in select(rows, "vfs-ratio"):
            print(f"{r['arch']:<7}{r['cpus']:>4}  {r['lock'] + '/' + r['base']:<15}"
                  f"{spread(r, 'throughput', '.2f'):>20}{spread(r, 'cpu', '.2f'):>20}"
                  f"{spread(r, 'efficiency', '.2f'):>20}")
        print()
    syn = select(rows, "synchro")
    if syn:
        print("synchro-test: acquisitions, fairness (share of the total per thread)")
        print(f"{'arch':<7}{'cpus':>4}  {'lock':<6}{'threads':>8}{'acq/s':>24}"
              f"{'min%':>20}{'max%':>20}{'jain':>22}")
        for r in syn:
            print(f"{r['arch']:<7}{r['cpus']:>4}  {r['lock']:<6}{r['threads']:>8}"
                  f"{spread(r, 'acq_per_sec', '.0f'):>24}{spread(r, 'min_share', '.1f'):>20}"
                  f"{spread(r, 'max_share', '.1f'):>20}{spread(r, 'jain', '.3f'):>22}")
        print()


def us_figures(row, keys):
    """A summary row's ns figures in us, each "median (min-max)", right-
    aligned: keys are (key, width) pairs."""
    return "".join(f"{spread(scaled(row, key, 0.001), key, '.1f'):>{width}}"
                   for key, width in keys)


def print_latency_table(rows):
    """The latency rows of the summary, in us: medians (min-max) over the runs."""
    rows = select(rows, "latency")
    if not rows:
        return
    runs = max(int(r.get("runs", 1)) for r in rows)
    print("wakeup latency: from the wake call to the woken task's first "
          f"instruction, us (median (min-max) of {runs} boot(s))")
    print(f"{'arch':<7}{'cpus':>4}  {'load':<5} {'path':<16}{'samples':>8}"
          f"{'min':>18}{'median':>22}{'p99':>28}{'max':>28}{'late':>6}")
    for r in rows:
        figures = us_figures(r, (("min_ns", 18), ("median_ns", 22), ("p99_ns", 28),
                                 ("max_ns", 28)))
        print(f"{r['arch']:<7}{r['cpus']:>4}  {r['load']:<5} {r['path']:<16}"
              f"{r['samples']:>8}{figures}{r.get('late', '-'):>6}")
    print()


def print_piwalk_table(rows):
    """The chain walk rows of the summary, in us: medians (min-max) over the runs."""
    walks = select(rows, "piwalk")
    if not walks:
        return
    runs = max(int(r.get("runs", 1)) for r in walks)
    print("rt-mutex chain walk: rt_mutex_lock() at the end of a chain of owners, "
          f"with interrupts off, us (median (min-max) of {runs} boot(s))")
    print(f"{'arch':<7}{'cpus':>4}{'owners':>8}{'min':>22}{'median':>22}{'max':>22}")
    for r in walks:
        figures = us_figures(r, (("min_ns", 22), ("median_ns", 22), ("max_ns", 22)))
        print(f"{r['arch']:<7}{r['cpus']:>4}{r['owners']:>8}{figures}")
    for r in select(rows, "piwalk-owner"):
        print(f"{r['arch']:<7}{r['cpus']:>4}  each owner more: "
              f"{spread(r, 'ns_per_owner', '.0f')} ns")
    print()


def print_ww_table(rows):
    """The ww rows of the summary: medians (min-max) over the runs."""
    ww = select(rows, "ww")
    if not ww:
        return
    runs = max(int(r.get("runs", 1)) for r in ww)
    first = ww[0]
    print(f"ww_mutex: {first['tasks']} tasks, each transaction 1 to {first['held']} of "
          f"{first['locks']} objects, {first['work_us']} us of work per object "
          f"(median (min-max) of {runs} boot(s))")
    print(f"{'arch':<7}{'cpus':>4}  {'lock':<11}{'txn/s':>22}{'backoffs/txn':>26}"
          f"{'vs global':>22}")
    ratios = {(r["arch"], str(r["cpus"]), r["lock"]): r for r in select(rows, "ww-ratio")}
    for r in ww:
        ratio = ratios.get((r["arch"], str(r["cpus"]), r["lock"]))
        print(f"{r['arch']:<7}{r['cpus']:>4}  {r['lock']:<11}"
              f"{spread(r, 'txn_per_sec', '.0f'):>22}"
              f"{spread(r, 'backoffs_per_txn', '.4f'):>26}"
              f"{spread(ratio, 'throughput', '.2f') if ratio else '1':>22}")
    print()


def write_dat(path, header, lines):
    with open(path, "w") as f:
        f.write("# " + header + "\n")
        for line in lines:
            f.write(" ".join(str(x) for x in line) + "\n")


def _errorbars(row, key):
    """median min max of a summary figure (all three the same for one run)."""
    return (row[key], row.get(f"{key}_min", row[key]), row.get(f"{key}_max", row[key]))


def plot_arch(rows, arch, outdir):
    """Writes the .dat files and gnuplot script of one arch; returns the script.

    rows are summary rows: each point is a median, its error bar the min
    and max over the runs.
    """
    vfs = {}
    for r in select(rows, "vfs", arch=arch):
        vfs.setdefault(int(r["cpus"]), {})[r["lock"]] = r
    syn = {}
    for r in select(rows, "synchro", arch=arch):
        syn.setdefault(int(r["cpus"]), {})[r["lock"]] = r
    script = []
    if vfs:
        locks = [lock for lock in VFS_LOCKS if all(lock in v for v in vfs.values())]
        dat = os.path.join(outdir, f"vfs-{arch}.dat")
        write_dat(dat, "cpus, then per lock (" + " ".join(locks) + "): loops_per_sec "
                  "median min max, cpu_pct median min max",
                  [(c, *[x for lock in locks for key in ("loops_per_sec", "cpu_pct")
                         for x in _errorbars(v[lock], key)])
                   for c, v in sorted(vfs.items())])
        tasks = next(iter(vfs.values()))[locks[0]]["tasks"]
        runs = next(iter(vfs.values()))[locks[0]].get("runs", 1)

        def curves(offset):
            return ", ".join(
                f"'{dat}' using 1:{2 + 6 * i + offset}:{3 + 6 * i + offset}:"
                f"{4 + 6 * i + offset} with yerrorlines title '{VFS_LOCK_TITLES[lock]}'"
                for i, lock in enumerate(locks))
        script += [
            f"set output '{os.path.join(outdir, f'vfs-{arch}.png')}'",
            f"set multiplot layout 1,2 title 'VFS test on {arch}: {tasks} tasks, "
            f"create+close+unlink in one directory (median, min-max of {runs} boots)'",
            "set xlabel 'CPUs'", "set xtics (1,2,4,8)",
            "set ylabel 'loops per second'", "set yrange [0:*]",
            f"plot {curves(0)}",
            "set ylabel 'CPU utilization (%)'", "set yrange [0:100]",
            f"plot {curves(3)}",
            "unset multiplot", "set yrange [*:*]",
        ]
    if syn:
        dat = os.path.join(outdir, f"synchro-{arch}.dat")
        write_dat(dat, "cpus mutex_acq_per_sec(median min max) sem_acq_per_sec(median min max)",
                  [(c, *_errorbars(v["mutex"], "acq_per_sec"), *_errorbars(v["sem"], "acq_per_sec"))
                   for c, v in sorted(syn.items()) if "sem" in v and "mutex" in v])
        top = max(syn)
        shares = {}
        for r in select(rows, "synchro-share", arch=arch, cpus=top):
            shares.setdefault(int(r["thread"]), {})[r["lock"]] = _errorbars(r, "share")
        sdat = os.path.join(outdir, f"synchro-shares-{arch}.dat")
        zero = (0, 0, 0)
        write_dat(sdat, "thread mutex_share(median min max) sem_share(median min max)",
                  [(t, *s.get("mutex", zero), *s.get("sem", zero))
                   for t, s in sorted(shares.items())])
        fair = 100.0 / max(len(shares), 1)
        script += [
            f"set output '{os.path.join(outdir, f'synchro-{arch}.png')}'",
            f"set multiplot layout 1,2 title 'synchro-test on {arch}: "
            "one mutex thread and one semaphore thread per CPU (median, min-max)'",
            "set xlabel 'CPUs'", "set xtics (1,2,4,8)",
            "set ylabel 'acquisitions per second'", "set yrange [0:*]",
            f"plot '{dat}' using 1:2:3:4 with yerrorlines title 'mutex', "
            "'' using 1:5:6:7 with yerrorlines title 'semaphore'",
            f"set xlabel 'thread ({top} CPUs)'", "set xtics 1",
            "set ylabel 'share of all acquisitions (%)'",
            "set style data histogram", "set style histogram errorbars gap 1 lw 1",
            "set style fill solid 0.6 border -1", "set boxwidth 0.9",
            f"plot '{sdat}' using 2:3:4:xtic(1) title 'mutex', "
            f"'' using 5:6:7 title 'semaphore', "
            f"{fair} with lines dashtype 2 title 'equal share'",
            "unset multiplot", "set style data linespoints", "set yrange [*:*]",
        ]
    return script


def plot(rows, outdir, every_boot=(), machine=""):
    """Draws the summary rows' plots, and the latency histograms of the
    rows of every boot, their titles naming the machine."""
    if not shutil.which("gnuplot"):
        print("gnuplot not found: no plots (apt-get install gnuplot-nox)", file=sys.stderr)
        return False
    script = ["set terminal pngcairo size 1000,440 font ',10' noenhanced", "set grid",
              "set key below"]
    arches = []
    for r in rows:
        if r["arch"] not in arches:
            arches.append(r["arch"])
    for arch in arches:
        script += plot_arch(rows, arch, outdir)
    script += latency.plot_script(every_boot, outdir, write_dat, machine)
    path = os.path.join(outdir, "plots.gp")
    with open(path, "w") as f:
        f.write("\n".join(script) + "\n")
    result = subprocess.run(["gnuplot", path], capture_output=True, text=True)
    if result.returncode:
        print(f"gnuplot failed:\n{result.stderr}", file=sys.stderr)
        return False
    pngs = [os.path.join(outdir, f"{kind}-{arch}.png")
            for arch in arches for kind in ("vfs", "synchro")]
    pngs += latency.pngs(every_boot, outdir)
    drawn = [p for p in pngs if os.path.exists(p)]
    if drawn:
        print("plots: " + ", ".join(drawn))
    return True



def boot(arch, image, cpus, settings, accel, log_path):
    """Boot image as settings say; the serial output goes to log_path.

    Returns the kernel's exit status, or None if it set none.
    """
    append, _ = settings.append(arch, accel)
    argv = qemu.command(arch, qemu.Boot(image, cpus, append), accel)
    # The guest's own timing plus boot and thread start-up, generously.
    timeout = int(3 * settings.guest_secs()) + 120
    try:
        with open(log_path, "wb") as log:
            code = qemu.run_to_file(argv, log, timeout)
    except OSError as e:
        print(f"cannot start {argv[0]}: {e.strerror}{qemu.install_hint(arch, argv[0])}",
              file=sys.stderr)
        return None
    if code is None:
        print(f"{arch.name}-cpus{cpus}: no end after {timeout}s, killed", file=sys.stderr)
        return None
    return qemu.decode_status(arch, code)


def build_targets(root, arches, names, mutex, given):
    """Build each arch's mutex build; the (arch, image) pairs that built.

    An arch that does not build is skipped with a note, unless it was
    asked for by name: then there is nothing to measure and we fail.
    """
    targets = []
    for name in names:
        cfg = BuildConfig(name, mutex)
        why = build.build(root, cfg)
        if why and given:
            print(f"bench: {why}", file=sys.stderr)
            return None
        if why:
            print(f"bench: {name} does not build, skipped")
            continue
        folder = at(root, build.builddir(root, cfg))
        targets.append((arches[name], os.path.join(folder, arches[name].boot_image)))
    return targets


def run(root, arches, names=None, cpus=None, mutex="native", settings=Settings(),
        accel="tcg", outdir=None, from_logs=False, runs=None):
    """The whole of make bench; its exit code.

    Under icount a boot gives the same figures every time: one boot per
    configuration is enough, and its results go to a folder of their own,
    beside the parallel machine's.
    """
    deterministic = accel == "icount"
    runs = runs or (1 if deterministic else RUNS)
    outdir = outdir or ("build/bench-icount" if deterministic else "build/bench")
    given = names is not None
    names = names or tuple(arches)
    if from_logs:
        targets = [(arches[name], None) for name in names
                   if given or logged_counts(outdir, name)]
    else:
        targets = build_targets(root, arches, names, mutex, given)
        if not targets:
            print("bench: nothing to run")
            return 1
    os.makedirs(outdir, exist_ok=True)
    rows, bad = [], []
    for arch, image in targets:
        use, note = qemu.choose_accel(accel, arch)
        if note and not from_logs:
            print(note, file=sys.stderr)
        _, note = settings.append(arch, use)
        if note and not from_logs and settings.which in ("all", "latency"):
            print(f"bench: {note}", file=sys.stderr)
        counts = cpus or (logged_counts(outdir, arch.name) if from_logs
                          else arch.bench_cpus)
        for count in counts:
            for k in (logged_runs(outdir, arch.name, count) if from_logs
                      else range(1, runs + 1)):
                name = f"{arch.name}-cpus{count}-run{k}"
                log = os.path.join(outdir, f"{name}.log")
                if not from_logs:
                    print(f"bench: {arch.name}, {count} CPU(s), run {k} of {runs} ... "
                          f"(log: {log})", flush=True)
                    status = boot(arch, image, count, settings, use, log)
                    if status != STATUS_BENCH_DONE:
                        meaning = STATUS_MEANING.get(status, "no status from the kernel")
                        bad.append(f"{name}: exit status {status} ({meaning})")
                rows += _collect(log, name, (arch.name, count, k), bad)
    return _report(rows, outdir, bad, "under icount" if deterministic else "under TCG")


LOG_NAME = r"-cpus(\d+)-run(\d+)\.log"


def _logs(outdir, arch_name):
    found = re.compile(re.escape(arch_name) + LOG_NAME)
    names = os.listdir(outdir) if os.path.isdir(outdir) else []
    return [(int(m.group(1)), int(m.group(2))) for m in map(found.fullmatch, names) if m]


def logged_counts(outdir, arch_name):
    """The CPU counts of arch_name's logs in outdir (ARCH-cpusN-runK.log), in order."""
    return sorted({count for count, _ in _logs(outdir, arch_name)})


def logged_runs(outdir, arch_name, cpus):
    """The run numbers of arch_name's logs at cpus CPUs in outdir, in order."""
    return sorted(k for count, k in _logs(outdir, arch_name) if count == cpus)


def _collect(log, name, where, bad):
    """The rows of one log; a line in bad when it is missing or incomplete."""
    if not os.path.exists(log):
        bad.append(f"{name}: no log {log}")
        return []
    got, ok = parse_log(log, *where)
    if not ok:
        bad.append(f"{name}: incomplete, or an invariant broke (see {log})")
    return got


def _report(rows, outdir, bad, machine):
    csv_path = os.path.join(outdir, "bench.csv")
    write_csv(rows, csv_path)
    summary = summarize(rows)
    summary_path = os.path.join(outdir, "bench-summary.csv")
    write_csv(summary, summary_path)
    print()
    print_table(summary)
    print_latency_table(summary)
    print_piwalk_table(summary)
    print_ww_table(summary)
    print(f"csv: {csv_path} (every boot), {summary_path} (median, min, max)")
    latency_csvs = latency.write_csvs(rows, outdir, write_csv)
    if latency_csvs:
        print(f"csv: {', '.join(latency_csvs)} (the latency rows of every boot)")
    plot(summary, outdir, rows, machine)
    for line in dict.fromkeys(bad):
        print(f"FAILED: {line}")
    return 1 if bad else 0
