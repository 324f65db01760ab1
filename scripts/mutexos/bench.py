"""make bench: the in-kernel benchmarks in QEMU, as CSV, plots and a table.

The MUTEX build (default native) of each arch boots once per CPU count
(the arch's ARCH_BENCH_CPUS unless counts are given) with "bench=all":
synchro-test, then the VFS test with the semaphore and with the mutex.
Each boot keeps its serial log as OUTDIR/ARCH-cpusN.log.  The boots run
one after another, never side by side: they measure time.

The kernel prints its results as "bench: KIND key=value ..." lines (see
kernel/bench.c).  They all go to OUTDIR/bench.csv, one row per line, with
the columns arch, cpus, kind and the union of the keys.  Then:
  - a table of the VFS and synchro results is printed,
  - gnuplot draws OUTDIR/vfs-ARCH.png (loops per second and CPU use
    against the CPU count, semaphore and mutex) and
    OUTDIR/synchro-ARCH.png (acquisitions per second against the CPU
    count, and each thread's share at the largest count).

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

from . import build, qemu
from .build import BuildConfig
from .runner import at
from .verdict import STATUS_BENCH_DONE, STATUS_MEANING

LINE = re.compile(r"bench: ([a-z-]+)(?: mutex/sem)?((?: [a-z_]+=[^ ]+)*)( FAILED)?\s*$")
VFS_SECS = 10           # as the 2006 patches' "test-mutex V 16 10"
SYNCHRO_SECS = 5
VFS_TASKS = 16


def parse_log(path, arch, cpus):
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
            rows.append({"arch": arch, "cpus": cpus, "kind": kind, **fields})
    return rows, ended and not failed


def write_csv(rows, path):
    columns = ["arch", "cpus", "kind"]
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
    vfs = select(rows, "vfs")
    if vfs:
        print("VFS test: create+close+unlink of per-task files in one directory")
        head = (f"{'arch':<7}{'cpus':>4}{'tasks':>6}  {'lock':<6}{'loops/s':>10}"
                f"{'cpu%':>7}{'loops/s/cpu%':>13}{'cs/loop':>8}{'wake/loop':>10}")
        print(head)
        for r in vfs:
            print(f"{r['arch']:<7}{r['cpus']:>4}{r['tasks']:>6}  {r['lock']:<6}"
                  f"{float(r['loops_per_sec']):>10.0f}{r['cpu_pct']:>7}"
                  f"{float(r['loops_per_cpu_pct']):>13.1f}{r['cs_per_loop']:>8}"
                  f"{r['wakeups_per_loop']:>10}")
        print()
        if any("cpu_us_per_loop" in r for r in vfs):
            print("where the time goes, per loop (two lock acquisitions)")
            print(f"{'arch':<7}{'cpus':>4}  {'lock':<6}{'cpu_us':>8}{'wait_us':>9}"
                  f"{'hold_us':>9}{'contended%':>11}")
            for r in vfs:
                print(f"{r['arch']:<7}{r['cpus']:>4}  {r['lock']:<6}"
                      f"{r.get('cpu_us_per_loop', ''):>8}{r.get('wait_us_per_loop', ''):>9}"
                      f"{r.get('hold_us_per_loop', ''):>9}{r.get('contended_pct', ''):>11}")
            print()
        print("mutex/semaphore, same boot")
        print(f"{'arch':<7}{'cpus':>4}{'throughput':>11}{'cpu':>6}{'efficiency':>11}")
        for r in select(rows, "vfs-ratio"):
            print(f"{r['arch']:<7}{r['cpus']:>4}{r['throughput']:>11}{r['cpu']:>6}"
                  f"{r['efficiency']:>11}")
        print()
    syn = select(rows, "synchro")
    if syn:
        print("synchro-test: acquisitions, fairness (share of the total per thread)")
        print(f"{'arch':<7}{'cpus':>4}  {'lock':<6}{'threads':>8}{'total':>10}"
              f"{'acq/s':>9}{'min%':>7}{'max%':>7}{'jain':>8}{'max_in':>7}")
        for r in syn:
            rate = int(r["total"]) / max(float(r["secs"]), 0.01)
            print(f"{r['arch']:<7}{r['cpus']:>4}  {r['lock']:<6}{r['threads']:>8}"
                  f"{r['total']:>10}{rate:>9.0f}{r['min_share']:>7}"
                  f"{r['max_share']:>7}{r['jain']:>8}{r['max_inside']:>7}")
        print()


def write_dat(path, header, lines):
    with open(path, "w") as f:
        f.write("# " + header + "\n")
        for line in lines:
            f.write(" ".join(str(x) for x in line) + "\n")


def plot_arch(rows, arch, outdir):
    """Writes the .dat files and gnuplot script of one arch; returns the script."""
    vfs = {}
    for r in select(rows, "vfs", arch=arch):
        vfs.setdefault(int(r["cpus"]), {})[r["lock"]] = r
    syn = {}
    for r in select(rows, "synchro", arch=arch):
        syn.setdefault(int(r["cpus"]), {})[r["lock"]] = r
    script = []
    if vfs:
        dat = os.path.join(outdir, f"vfs-{arch}.dat")
        write_dat(dat, "cpus sem_loops_per_sec mutex_loops_per_sec sem_cpu_pct mutex_cpu_pct",
                  [(c, v["sem"]["loops_per_sec"], v["mutex"]["loops_per_sec"],
                    v["sem"]["cpu_pct"], v["mutex"]["cpu_pct"])
                   for c, v in sorted(vfs.items()) if "sem" in v and "mutex" in v])
        tasks = next(iter(vfs.values()))["sem"]["tasks"]
        script += [
            f"set output '{os.path.join(outdir, f'vfs-{arch}.png')}'",
            f"set multiplot layout 1,2 title 'VFS test on {arch}: {tasks} tasks, "
            "create+close+unlink in one directory'",
            "set xlabel 'CPUs'", "set xtics (1,2,4,8)",
            "set ylabel 'loops per second'", "set yrange [0:*]",
            f"plot '{dat}' using 1:2 with linespoints title 'semaphore', "
            f"'' using 1:3 with linespoints title 'mutex'",
            "set ylabel 'CPU utilization (%)'", "set yrange [0:100]",
            f"plot '{dat}' using 1:4 with linespoints title 'semaphore', "
            f"'' using 1:5 with linespoints title 'mutex'",
            "unset multiplot", "set yrange [*:*]",
        ]
    if syn:
        dat = os.path.join(outdir, f"synchro-{arch}.dat")
        write_dat(dat, "cpus mutex_acq_per_sec sem_acq_per_sec",
                  [(c, int(v["mutex"]["total"]) / float(v["mutex"]["secs"]),
                    int(v["sem"]["total"]) / float(v["sem"]["secs"]))
                   for c, v in sorted(syn.items()) if "sem" in v and "mutex" in v])
        top = max(syn)
        shares = {}
        for r in select(rows, "synchro-share", arch=arch, cpus=top):
            shares.setdefault(int(r["thread"]), {})[r["lock"]] = r["share"]
        sdat = os.path.join(outdir, f"synchro-shares-{arch}.dat")
        write_dat(sdat, "thread mutex_share sem_share",
                  [(t, s.get("mutex", 0), s.get("sem", 0)) for t, s in sorted(shares.items())])
        fair = 100.0 / max(len(shares), 1)
        script += [
            f"set output '{os.path.join(outdir, f'synchro-{arch}.png')}'",
            f"set multiplot layout 1,2 title 'synchro-test on {arch}: "
            "one mutex thread and one semaphore thread per CPU'",
            "set xlabel 'CPUs'", "set xtics (1,2,4,8)",
            "set ylabel 'acquisitions per second'", "set yrange [0:*]",
            "set style data linespoints",
            f"plot '{dat}' using 1:2 title 'mutex', '' using 1:3 title 'semaphore'",
            f"set xlabel 'thread ({top} CPUs)'", "set xtics 1",
            "set ylabel 'share of all acquisitions (%)'",
            "set style data histogram", "set style histogram clustered",
            "set style fill solid 0.6 border -1", "set boxwidth 0.9",
            f"plot '{sdat}' using 2:xtic(1) title 'mutex', '' using 3 title 'semaphore', "
            f"{fair} with lines dashtype 2 title 'equal share'",
            "unset multiplot", "set style data linespoints", "set yrange [*:*]",
        ]
    return script


def plot(rows, outdir):
    if not shutil.which("gnuplot"):
        print("gnuplot not found: no plots (apt-get install gnuplot-nox)", file=sys.stderr)
        return False
    script = ["set terminal pngcairo size 1000,440 font ',10'", "set grid",
              "set key below"]
    arches = []
    for r in rows:
        if r["arch"] not in arches:
            arches.append(r["arch"])
    for arch in arches:
        script += plot_arch(rows, arch, outdir)
    path = os.path.join(outdir, "plots.gp")
    with open(path, "w") as f:
        f.write("\n".join(script) + "\n")
    result = subprocess.run(["gnuplot", path], capture_output=True, text=True)
    if result.returncode:
        print(f"gnuplot failed:\n{result.stderr}", file=sys.stderr)
        return False
    pngs = [os.path.join(outdir, f"{kind}-{arch}.png")
            for arch in arches for kind in ("vfs", "synchro")]
    print("plots: " + ", ".join(p for p in pngs if os.path.exists(p)))
    return True



def boot(arch, image, cpus, settings, accel, log_path):
    """Boot image with bench=all; the serial output goes to log_path.

    settings is (vfs_secs, synchro_secs, vfs_tasks).  Returns the kernel's
    exit status, or None if it set none.
    """
    vfs_secs, synchro_secs, vfs_tasks = settings
    append = (f"bench=all synchro.secs={synchro_secs} "
              f"vfs.secs={vfs_secs} vfs.tasks={vfs_tasks}")
    argv = qemu.command(arch, qemu.Boot(image, cpus, append), accel)
    # The guest's own timing plus boot and thread start-up, generously.
    timeout = 3 * (synchro_secs + 2 * vfs_secs) + 120
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


def run(root, arches, names=None, cpus=None, mutex="native", secs=None,
        tasks=VFS_TASKS, accel="tcg", outdir="build/bench", from_logs=False):
    """The whole of make bench; its exit code."""
    given = names is not None
    names = names or tuple(arches)
    settings = (secs or VFS_SECS, secs or SYNCHRO_SECS, tasks)
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
        counts = cpus or (logged_counts(outdir, arch.name) if from_logs
                          else arch.bench_cpus)
        for count in counts:
            log = os.path.join(outdir, f"{arch.name}-cpus{count}.log")
            if not from_logs:
                print(f"bench: {arch.name}, {count} CPU(s) ... (log: {log})", flush=True)
                status = boot(arch, image, count, settings, use, log)
                if status != STATUS_BENCH_DONE:
                    meaning = STATUS_MEANING.get(status, "no status from the kernel")
                    bad.append(f"{arch.name}-cpus{count}: exit status {status} ({meaning})")
            rows += _collect(log, arch.name, count, bad)
    return _report(rows, outdir, bad)


def logged_counts(outdir, arch_name):
    """The CPU counts of arch_name's logs in outdir (ARCH-cpusN.log), in order."""
    found = re.compile(re.escape(arch_name) + r"-cpus(\d+)\.log")
    names = os.listdir(outdir) if os.path.isdir(outdir) else []
    return sorted(int(m.group(1)) for m in map(found.fullmatch, names) if m)


def _collect(log, arch_name, cpus, bad):
    """The rows of one log; a line in bad when it is missing or incomplete."""
    if not os.path.exists(log):
        bad.append(f"{arch_name}-cpus{cpus}: no log {log}")
        return []
    got, ok = parse_log(log, arch_name, cpus)
    if not ok:
        bad.append(f"{arch_name}-cpus{cpus}: incomplete, or an invariant broke (see {log})")
    return got


def _report(rows, outdir, bad):
    csv_path = os.path.join(outdir, "bench.csv")
    write_csv(rows, csv_path)
    print()
    print_table(rows)
    print(f"csv: {csv_path}")
    plot(rows, outdir)
    for line in dict.fromkeys(bad):
        print(f"FAILED: {line}")
    return 1 if bad else 0
