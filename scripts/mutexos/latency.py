"""bench=latency on the host: its options, CSVs, table and histograms.

The kernel (kernel/bench/latency.c) prints, per load and wake path,

  bench: latency path=P load=L cpus=N samples=S min_ns= median_ns=
      p99_ns= max_ns= mean_ns= [late=K] tick_ns=T [FAILED]
  bench: latency-hist path=P load=L lo_ns=A hi_ns=B count=C

one latency-hist line per bucket that holds samples.  bench.py collects
them with the other benchmarks' lines and prints their table; here they
become latency.csv and latency-hist.csv (every boot), and with gnuplot
latency-ARCH-cpusN.png: a panel per wake path with the histogram of
each load in it, the counts of all boots of that configuration added up.
"""

import math
import os

# In the kernel's order (enum latency_path, enum latency_load).
PATHS = ("timer", "wake_up_process", "complete", "wake_up", "up",
         "mutex_unlock", "rt_mutex_unlock", "cross_cpu")
LOADS = ("none", "hog")
LOAD_TITLES = {"none": "idle machine", "hog": "a SCHED_NORMAL hog on every CPU"}
# A turn per tick and load (HZ=100), both loads: guest seconds per turn.
SECS_PER_TURN = 2 / 100
DEFAULT_LOOPS = 200


def options(arch, accel, loops=None):
    """The latency.* options of a boot; and a note to print, or None.

    riscv's pause ends no turn in QEMU's one-thread icount machine, so
    beside a hog that spins the machine stalls (docs/benchmarks.md): there
    the hog's run is left out.
    """
    opts = [f"latency.loops={loops}"] if loops else []
    if accel == "icount" and not arch.tcg_turns:
        return opts + ["latency.hog=0"], (
            f"{arch.name}: no latency run beside a hog under icount "
            f"(a CPU's pause ends no turn there: the machine stalls)")
    return opts, None


def guest_secs(loops=None):
    """The guest seconds that the latency test takes, both loads."""
    return (loops or DEFAULT_LOOPS) * SECS_PER_TURN


def histograms(rows):
    """{(arch, cpus): {load: {path: {lo_ns: count}}}}, every boot added up."""
    out = {}
    for r in rows:
        if r["kind"] != "latency-hist":
            continue
        by_path = out.setdefault((r["arch"], int(r["cpus"])), {}) \
                     .setdefault(r["load"], {}).setdefault(r["path"], {})
        lo = int(r["lo_ns"])
        by_path[lo] = by_path.get(lo, 0) + int(r["count"])
        by_path.setdefault("hi", {})[lo] = int(r["hi_ns"])
    return out


def outline(buckets):
    """A histogram's outline, (us, % of samples) points to draw with lines:
    each bucket a step from its lower bound to its upper one, down to 0
    where buckets between hold nothing."""
    his = buckets["hi"]
    los = sorted(k for k in buckets if k != "hi")
    total = sum(buckets[lo] for lo in los) or 1
    points, last_hi = [], None
    for lo in los:
        pct = 100 * buckets[lo] / total
        if last_hi != lo:
            points += [(last_hi, 0)] if last_hi is not None else []
            points += [(lo, 0)]
        points += [(lo, pct), (his[lo], pct)]
        last_hi = his[lo]
    points.append((last_hi, 0))
    return [(ns / 1000, pct) for ns, pct in points]


def _x_range(loads):
    """The us range that holds every bucket of every path and load."""
    edges = [ns for paths in loads.values() for b in paths.values()
             for lo, hi in b["hi"].items() for ns in (lo, hi)]
    return max(min(edges), 1) / 1000 / 1.5, max(edges) / 1000 * 1.5


def plot_script(rows, outdir, write_dat, machine=""):
    """gnuplot lines for latency-ARCH-cpusN.png of each configuration: a
    panel per path, each load's histogram in it, on one log scale; the
    title names the machine ("under icount") when given."""
    script = []
    for (arch, cpus), loads in sorted(histograms(rows).items()):
        name = f"latency-{arch}-cpus{cpus}"
        paths = [p for p in PATHS if any(p in by_path for by_path in loads.values())]
        low, high = _x_range(loads)
        script += [f"set output '{os.path.join(outdir, name + '.png')}'",
                   "set terminal pngcairo size 1200,620 font ',9' noenhanced",
                   f"set multiplot layout 2,4 title 'wakeup latency on {arch}, "
                   f"{cpus} CPU(s){' ' + machine if machine else ''}: from the wake "
                   "call to the woken task running (share of the samples per bucket, "
                   "all boots)'",
                   "set logscale x", f"set xrange [{low:.4g}:{high:.4g}]",
                   # Ticks a factor 2 apart over a short range, else 10.
                   f"set xtics {2 ** math.floor(math.log2(low)):g}, "
                   f"{2 if high / low < 100 else 10}", "set format x '%g'",
                   "set xlabel 'us (log scale)'", "set ylabel '% of samples'",
                   # Room above the highest bar for the key.
                   "set yrange [0:*]", "set offsets 0, 0, graph 0.3, 0",
                   "set key inside top right"]
        for path in paths:
            curves = []
            for load in LOADS:
                if path not in loads.get(load, {}):
                    continue
                dat = os.path.join(outdir, f"{name}-{path}-{load}.dat")
                write_dat(dat, f"{path}, load {load}: us, % of samples",
                          outline(loads[load][path]))
                curves.append(f"'{dat}' using 1:2 with lines lw 2 title '{load}'")
            script += [f"set title '{path}'", "plot " + ", ".join(curves)]
        script += ["unset multiplot", "unset logscale x", "unset title",
                   "set xrange [*:*]", "set yrange [*:*]", "set key below",
                   "set xtics autofreq", "set offsets 0, 0, 0, 0", "set format x '% h'",
                   "set terminal pngcairo size 1000,440 font ',10' noenhanced"]
    return script


def pngs(rows, outdir):
    """The PNG paths plot_script() draws for these rows."""
    return [os.path.join(outdir, f"latency-{arch}-cpus{cpus}.png")
            for arch, cpus in sorted(histograms(rows))]


def write_csvs(rows, outdir, write_csv):
    """latency.csv and latency-hist.csv: the latency rows of every boot."""
    written = []
    for kind in ("latency", "latency-hist"):
        got = [r for r in rows if r["kind"] == kind]
        if got:
            path = os.path.join(outdir, f"{kind}.csv")
            write_csv(got, path)
            written.append(path)
    return written
