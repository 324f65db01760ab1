"""make trace: a lock scenario's timeline, for Perfetto and as a PNG.

A console boot of a CONFIG_TRACING build runs the scenario between
"trace start lock,sched" and "trace dump"; the dump (kernel/trace/trace.c)
is read back from the serial log and written in the Chrome trace-event
format (a JSON object with "traceEvents"), which ui.perfetto.dev and
chrome://tracing open as they are:

  - one process "CPUs" with a track per CPU: which task ran when;
  - a process per task: a track "state" (running on CPU n, runnable,
    sleeping, with wakeups as instant events) and a track per lock it
    used: waiting for it (and, inside, spinning on its owner), holding
    it, and handoffs as instant events.

Each part of a scenario (the VFS test runs once per lock) is a group of
processes of its own, its time starting at 0, so that the parts stack up
on one time axis.  gnuplot draws each part as OUTDIR/<part>.png.

check() is the format's own test: every event has ph, ts, pid and tid,
the slices of a track nest, and a mutex is held by one task at a time.
"""

import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from collections import defaultdict

from . import build, qemu
from .console import PROMPT, BOOT_SECS, ConsoleError, Session
from .ktap import KtapParser
from .logs import open_log
from .runner import at
from .verdict import StepResult

# The parts of each scenario: (part, the microseconds its PNG shows,
# console commands run while tracing, commands after the dump).  The VFS
# test's lock=N: 1 semaphore, 2 mutex, 3 and 4 the spinning mutex without
# and with handoff (spin build).
SCENARIOS = {
    "vfs": [("vfs-sem", 3000, ["bench vfs tasks=16 secs=1 lock=1"], []),
            ("vfs-mutex", 3000, ["bench vfs tasks=16 secs=1 lock=2"], [])],
    "convoy": [("convoy", 3000, ["bench synchro mutexes=8 sems=0 secs=1"], [])],
    # A waiter that spins may get the lock without a handoff: three tries.
    "handoff": [("handoff", 12000, ["demo starve"] * 3, [])],
    "abba": [("abba", 30000, ["demo abba"], ["demo stop"])],
}
SPIN_VFS = [("vfs-spin", 100, ["bench vfs tasks=16 secs=1 lock=3"], []),
            ("vfs-handoff", 100, ["bench vfs tasks=16 secs=1 lock=4"], [])]
TRACE_CONF = "CONFIG_TRACING=y"
CPUS = 4
COMMAND_SECS = 300      # one scenario command, or a dump, on a loaded host

EVENT = re.compile(r"^trace: e (\d+) (\d+) (\w+) (\d+) ([0-9a-f]+) (\d+) (\S)$")
COUNTS = re.compile(r"^trace: cpu (\d+) events (\d+) dropped (\d+)$")
TASK = re.compile(r"^trace: task (\d+) (.*)$")
LOCK = re.compile(r"^trace: lock ([0-9a-f]+) ?(.*)$")
KINDS = {"m": "mutex", "s": "semaphore", "r": "rt-mutex"}


class Dump:
    """One "trace dump": its events by time, the tasks' and locks' names."""

    def __init__(self):
        self.events = []        # (ts, cpu, seq, type, pid, obj, arg, aux)
        self.counts = {}        # cpu: (events, dropped)
        self.tasks = {}
        self.locks = {}
        self.bad_lines = 0

    def task(self, pid):
        return f"{self.tasks.get(pid, 'task')}/{pid}"

    def lock(self, obj):
        return self.locks.get(obj) or f"lock@{obj:x}"

    def start(self):
        """The first time every CPU's ring covers: a ring that dropped
        events starts later than one that did not."""
        firsts = defaultdict(lambda: None)
        for ev in self.events:
            if firsts[ev[1]] is None:
                firsts[ev[1]] = ev[0]
        dropped = [firsts[cpu] for cpu, (_, d) in self.counts.items()
                   if d and firsts[cpu] is not None]
        if dropped:
            return max(dropped)
        return self.events[0][0] if self.events else 0


def parse(text):
    """The dumps in a serial log, in order."""
    dumps, cur = [], None
    for line in text.replace("\r", "").split("\n"):
        if line.startswith("trace: dump "):
            cur = Dump()
            continue
        if cur is None or not line.startswith("trace: "):
            continue
        if line == "trace: end":
            cur.events.sort()
            dumps.append(cur)
            cur = None
        elif (m := EVENT.match(line)):
            cpu, ts, typ, pid, obj, arg, aux = m.groups()
            cur.events.append((int(ts), int(cpu), len(cur.events), typ,
                               int(pid), int(obj, 16), int(arg), aux))
        elif (m := COUNTS.match(line)):
            cur.counts[int(m[1])] = (int(m[2]), int(m[3]))
        elif (m := TASK.match(line)):
            cur.tasks[int(m[1])] = m[2]
        elif (m := LOCK.match(line)):
            cur.locks[int(m[1], 16)] = m[2]
        else:
            cur.bad_lines += 1  # a line another CPU's printk cut in two
    return dumps


class Timeline:
    """A dump turned into trace events, for one part of a scenario."""

    def __init__(self, dump, label, pid_base):
        self.d = dump
        self.label = label
        self.base = pid_base
        self.t0 = dump.start()
        self.out = []
        self.open = {}          # (pid, tid, name): start ns
        self.lock_tids = defaultdict(dict)   # task pid: {obj: tid}

    def us(self, ns):
        return round((ns - self.t0) / 1000, 3)

    def proc(self, pid):
        return self.base + 1 + pid

    def meta(self, pid, tid, what, name):
        self.out.append({"name": what, "ph": "M", "ts": 0, "pid": pid,
                         "tid": tid, "args": {"name": name}})

    def slice(self, pid, tid, name, cat, start, end, args=None):
        ev = {"name": name, "cat": cat, "ph": "X", "ts": self.us(start),
              "dur": round(max(end - start, 0) / 1000, 3), "pid": pid,
              "tid": tid}
        if args:
            ev["args"] = args
        self.out.append(ev)

    def instant(self, pid, tid, name, cat, ts, args=None):
        ev = {"name": name, "cat": cat, "ph": "i", "s": "t",
              "ts": self.us(ts), "pid": pid, "tid": tid}
        if args:
            ev["args"] = args
        self.out.append(ev)

    def begin(self, key, ts, cat, args=None):
        self.open[key] = (ts, cat, args)

    def end(self, key, ts, cat=None, args=None, start=None):
        """Closes key's slice.  One that began before the trace begins at
        start, if given, as cat (else it is dropped)."""
        began, cat, args = self.open.pop(key, (start, cat, args))
        if began is not None:
            self.slice(key[0], key[1], key[2], cat, began, ts, args)

    def lock_tid(self, pid, obj):
        tids = self.lock_tids[pid]
        if obj not in tids:
            tids[obj] = len(tids) + 1
            self.meta(self.proc(pid), tids[obj], "thread_name",
                      f"lock {self.d.lock(obj)}")
        return tids[obj]

    def build(self):
        events = [ev for ev in self.d.events if ev[0] >= self.t0]
        t_end = events[-1][0] if events else self.t0
        running = {}            # cpu: (pid, since)
        seen = set()
        for ts, cpu, _, typ, pid, obj, arg, aux in events:
            for p in (pid, arg) if typ in ("switch", "wakeup") else (pid,):
                if p not in seen:
                    seen.add(p)
                    self.meta(self.proc(p), 0, "process_name",
                              f"{self.label}: {self.d.task(p)}")
                    self.meta(self.proc(p), 0, "thread_name", "state")
            if typ == "switch":
                self.switch(ts, cpu, pid, arg, aux, running)
            elif typ == "wakeup":
                self.instant(self.proc(arg), 0, f"woken by {self.d.task(pid)}",
                             "sched", ts)
            elif typ in ("irq_entry", "irq_exit"):
                continue
            else:
                self.lock_event(ts, typ, pid, obj, arg, aux)
        for cpu, (pid, since) in running.items():
            self.cpu_slice(cpu, pid, since, t_end)
        for key, (began, cat, args) in list(self.open.items()):
            self.open[key] = (began, cat, dict(args or {}, open_at_end=True))
            self.end(key, t_end)
        self.meta(self.base, 0, "process_name", f"{self.label}: CPUs")
        self.out.append({"name": "process_sort_index", "ph": "M", "ts": 0,
                         "pid": self.base, "tid": 0, "args": {"sort_index": -1}})
        for cpu in sorted(self.d.counts):
            self.meta(self.base, cpu, "thread_name", f"CPU {cpu}")
        return self.out

    def cpu_slice(self, cpu, pid, start, end):
        if not self.d.tasks.get(pid, "").startswith("swapper"):
            self.slice(self.base, cpu, self.d.task(pid), "cpu", start, end)

    def switch(self, ts, cpu, prev, nxt, state, running):
        was = running.get(cpu)
        self.cpu_slice(cpu, prev, was[1] if was else self.t0, ts)
        running[cpu] = (nxt, ts)
        self.end((self.proc(prev), 0, f"running on CPU {cpu}"), ts, "sched",
                 start=self.t0)
        rest = "runnable" if state == "R" else f"sleeping ({state})"
        self.begin((self.proc(prev), 0, rest), ts, "sched")
        for name in ("runnable", "sleeping (S)", "sleeping (D)"):
            self.end((self.proc(nxt), 0, name), ts)
        self.begin((self.proc(nxt), 0, f"running on CPU {cpu}"), ts, "sched")

    def lock_event(self, ts, typ, pid, obj, arg, aux):
        tid = self.lock_tid(pid, obj)
        name = self.d.lock(obj)
        kind = KINDS.get(aux, "mutex")
        key = lambda what: (self.proc(pid), tid, f"{what} {name}")
        # The part in the lock's key: parts reuse the heap's addresses.
        args = {"lock": f"{self.label}:{obj:#x}", "kind": kind}
        if typ == "contended":
            self.begin(key("waiting for"), ts, "wait", args)
        elif typ == "spin_start":
            self.begin(key("spinning on"), ts, "spin", args)
        elif typ == "spin_stop":
            spin = key("spinning on")
            if spin in self.open:
                began, cat, was = self.open[spin]
                self.open[spin] = (began, cat, dict(was, got=aux == "1"))
            self.end(spin, ts)
        elif typ == "acquired":
            self.end(key("waiting for"), ts)
            self.begin(key("holding"), ts, "hold", args)
        elif typ == "released":
            # Held since before the trace: a mutex only, as a semaphore
            # may be released by a task that never took it.
            self.end(key("holding"), ts, "hold", args,
                     start=self.t0 if kind == "mutex" else None)
        elif typ == "handoff":
            self.instant(self.proc(pid), tid, f"handoff of {name} to "
                         f"{self.d.task(arg)}", "handoff", ts, args)


def chrome(parts):
    """parts: [(label, Dump)] -> the trace-event JSON object."""
    events = []
    for k, (label, dump) in enumerate(parts):
        events += Timeline(dump, label, k * 1000000).build()
    return {"traceEvents": events, "displayTimeUnit": "ns",
            "otherData": {"source": "MutexOS trace dump",
                          "parts": [label for label, _ in parts]}}


# ---------------------------------------------------------------- the check

EPS = 0.0005            # µs: the rounding of ts and dur to ns
PHASES = {"X", "B", "E", "i", "I", "M", "C"}


def check(obj):
    """The problems of a trace-event object: [] if none."""
    events = obj.get("traceEvents") if isinstance(obj, dict) else None
    if not isinstance(events, list):
        return ["no traceEvents list"]
    problems = []
    tracks, holds = defaultdict(list), defaultdict(list)
    for n, ev in enumerate(events):
        missing = [k for k in ("ph", "ts", "pid", "tid") if k not in ev]
        if missing:
            problems.append(f"event {n} has no {', '.join(missing)}: {ev}")
            continue
        if ev["ph"] not in PHASES:
            problems.append(f"event {n}: unknown ph {ev['ph']!r}")
        if ev["ph"] != "X":
            continue
        if ev.get("dur", -1) < 0:
            problems.append(f"event {n}: a slice without a duration: {ev}")
            continue
        tracks[(ev["pid"], ev["tid"])].append(ev)
        if ev.get("cat") == "hold" and ev.get("args", {}).get("kind") == "mutex":
            holds[ev["args"]["lock"]].append(ev)
    for track, slices in tracks.items():
        problems += _nesting(track, slices)
    for lock, slices in holds.items():
        problems += _one_holder(lock, slices)
    return problems


def _nesting(track, slices):
    """Each slice of a track ends before its enclosing one does."""
    stack, problems = [], []
    for ev in sorted(slices, key=lambda e: (e["ts"], -e["dur"])):
        while stack and ev["ts"] >= stack[-1]["ts"] + stack[-1]["dur"] - EPS:
            stack.pop()
        if stack and ev["ts"] + ev["dur"] > stack[-1]["ts"] + stack[-1]["dur"] + EPS:
            problems.append(f"track {track}: '{ev['name']}' at {ev['ts']} "
                            f"overlaps '{stack[-1]['name']}' at {stack[-1]['ts']}")
        stack.append(ev)
    return problems


def _one_holder(lock, slices):
    """The holding slices of one mutex never overlap."""
    problems = []
    slices = sorted(slices, key=lambda e: e["ts"])
    for a, b in zip(slices, slices[1:]):
        if b["ts"] < a["ts"] + a["dur"] - EPS:
            problems.append(f"mutex {lock} held by pid {a['pid']} and pid "
                            f"{b['pid']} at once, at {b['ts']} us")
    return problems


# ---------------------------------------------------------------- the picture

COLOURS = {"running": "#4caf50", "waiting": "#e53935", "spinning": "#ff9800",
           "holding": "#1e88e5", "sleeping": "#bdbdbd"}


def _window(slices, width):
    """The width microseconds in which the most waits, spins and sleeps
    begin: where the lock is busiest, but not in the trace's last fifth,
    where the test's tasks end."""
    last = max((s["ts"] for s in slices), default=0) * 0.8
    starts = sorted(s["ts"] for s in slices if s["ts"] < last and (
        s["cat"] in ("wait", "spin") or s["name"].startswith("sleeping")))
    if not starts:
        starts = sorted(s["ts"] for s in slices if s["cat"] == "hold")[:1] or [0]
    best, j = 0, 0
    for i, t in enumerate(starts):
        while starts[j] < t - width:
            j += 1
        if i - j > best:
            best, end = i - j, t
    end = starts[0] + width if not best else end + width / 10
    return max(end - width, 0), end


def plot(obj, label, width, png):
    """gnuplot draws one part's tasks, a row each, for width microseconds."""
    if not shutil.which("gnuplot"):
        return "gnuplot not found: no PNG (apt-get install gnuplot-nox)"
    names = {ev["pid"]: ev["args"]["name"] for ev in obj["traceEvents"]
             if ev["ph"] == "M" and ev["name"] == "process_name"
             and ev["args"]["name"].startswith(label + ": ")}
    slices = [ev for ev in obj["traceEvents"] if ev["ph"] == "X"
              and ev["pid"] in names and not names[ev["pid"]].endswith(": CPUs")
              and ": swapper/" not in names[ev["pid"]]]
    handoffs = [ev for ev in obj["traceEvents"] if ev["ph"] == "i"
                and ev.get("cat") == "handoff" and ev["pid"] in names]
    if handoffs:        # from just before the first handoff: the rarest event
        lo = max(handoffs[0]["ts"] - width / 4, 0)
        hi = lo + width
    else:
        lo, hi = _window(slices, width)
    rows = {pid: k for k, pid in enumerate(sorted(
        {s["pid"] for s in slices if s["ts"] + s["dur"] >= lo and s["ts"] <= hi}))}
    handoffs = [ev for ev in handoffs if ev["pid"] in rows and lo <= ev["ts"] <= hi]
    with tempfile.TemporaryDirectory() as tmp:
        data = {}
        for what in COLOURS:
            path = os.path.join(tmp, f"{what}.dat")
            with open(path, "w") as f:
                for s in slices:
                    if s["pid"] in rows and s["name"].startswith(what):
                        a, b = max(s["ts"], lo), min(s["ts"] + s["dur"], hi)
                        if a < b:
                            # state below the row's line, each lock above
                            y = rows[s["pid"]] + 0.2 * s["tid"] - 0.2
                            h = 0.06 if s["cat"] == "spin" else 0.08
                            f.write(f"{(a + b) / 2 - lo} {y} {(b - a) / 2} {h}\n")
            data[what] = path
        hpath = os.path.join(tmp, "handoff.dat")
        with open(hpath, "w") as f:
            for ev in handoffs:
                f.write(f"{ev['ts'] - lo} {rows[ev['pid']] + 0.45}\n")
        ytics = ", ".join(f'"{names[pid].split(": ", 1)[1]}" {k}'
                          for pid, k in rows.items())
        plots = [f"'{data[w]}' using 1:2:3:4 with boxxyerror fs solid 0.9 "
                 f"noborder lc rgb '{c}' title '{w}'" for w, c in COLOURS.items()]
        plots.append(f"'{hpath}' using 1:2 with points pt 9 ps 1.5 "
                     f"lc rgb 'black' title 'handoff'")
        script = "\n".join([
            "set terminal pngcairo size 1000,%d font ',9' noenhanced" %
            (120 + 34 * max(len(rows), 1)),
            f"set output '{png}'",
            f"set title '{label}: {hi - lo:.0f} us from {lo / 1000:.1f} ms (per "
            "task: its state, then a line per lock)'",
            "set xlabel 'microseconds'", f"set xrange [0:{hi - lo}]",
            f"set yrange [-0.6:{len(rows) - 0.4}]", f"set ytics ({ytics})",
            "set key outside right top", "set grid xtics",
            "plot " + ", ".join(plots)])
        spath = os.path.join(tmp, "plot.gp")
        with open(spath, "w") as f:
            f.write(script + "\n")
        result = subprocess.run(["gnuplot", spath], capture_output=True, text=True)
    return f"gnuplot failed: {result.stderr.strip()}" if result.returncode else None


# ---------------------------------------------------------------- make trace

def parts_of(scenario, mutex):
    parts = list(SCENARIOS[scenario])
    if scenario == "vfs" and mutex == "spin":
        parts += SPIN_VFS
    return parts


def _dump(s):
    """The dumps "trace dump" prints.  Session.command() would search its
    lazy pattern from every position of a megabyte of output."""
    start = s.pos
    s.send(b"trace dump\r")
    m = s.expect(r"trace: end\n", "trace dump", COMMAND_SECS)
    text = s.text[start:m.end()]
    s.expect(re.escape(PROMPT), "the prompt after the dump")
    return parse(text)


def capture(root, arch, cfg, scenario, accel, log):
    """Boots cfg's console, runs the scenario's parts; [(part, Dump)]."""
    image = os.path.join(at(root, build.builddir(root, cfg)), arch.boot_image)
    argv = qemu.command(arch, qemu.Boot(image, CPUS, console=True), accel)
    with tempfile.TemporaryFile() as errors:
        proc, failed = qemu.start(f"trace {scenario}", argv, arch, log, errors,
                                  stdin=subprocess.PIPE)
        if failed:
            raise ConsoleError(failed.reasons[0] if failed.reasons else "no QEMU")
        s = Session(proc, log, KtapParser())
        try:
            s.expect(re.escape(PROMPT), "the first prompt", BOOT_SECS)
            got = []
            for part, _, commands, after in parts_of(scenario, cfg.mutex):
                s.command("trace start lock,sched")
                for line in commands:
                    s.command(line, COMMAND_SECS)
                dumps = _dump(s)
                if not dumps:
                    raise ConsoleError(f"{part}: no complete trace dump")
                got.append((part, dumps[-1]))
                for line in after:
                    s.command(line, COMMAND_SECS)
            s.send(b"halt\r")
            s.wait_end(COMMAND_SECS)
            return got
        finally:
            if proc.poll() is None:
                qemu.kill_group(proc)
            proc.wait()
            qemu.EMULATORS.forget(proc)


def record(root, arch, cfg, scenario, accel, outdir):
    """Boots cfg's build (built already) through the scenario and writes
    OUTDIR/<scenario>.json: (parts, the object, its problems, the log), or
    ConsoleError."""
    os.makedirs(outdir, exist_ok=True)
    log, path = open_log(outdir, f"{scenario}-{arch.name}-{cfg.mutex}")
    with log:
        try:
            parts = capture(root, arch, cfg, scenario, accel, log)
        except ConsoleError as e:
            raise ConsoleError(f"trace {scenario}: {e} (log: {path})") from None
    obj = chrome(parts)
    with open(os.path.join(outdir, f"{scenario}.json"), "w") as f:
        json.dump(obj, f)
    return parts, obj, check(obj), path


def run(root, arch, mutex, scenario, accel, outdir):
    """make trace: build, boot, write OUTDIR/<scenario>.json and a PNG per
    part; the exit status."""
    cfg = build.BuildConfig(arch.name, mutex, TRACE_CONF)
    why = build.build(root, cfg)
    if why:
        print(why, file=sys.stderr)
        return 1
    try:
        parts, obj, problems, _ = record(root, arch, cfg, scenario, accel, outdir)
    except ConsoleError as e:
        print(e, file=sys.stderr)
        return 1
    print(f"{os.path.join(outdir, scenario + '.json')}: {len(obj['traceEvents'])} "
          "events; open it in https://ui.perfetto.dev or chrome://tracing")
    widths = {part: width for part, width, _, _ in parts_of(scenario, mutex)}
    for part, dump in parts:
        kept = sum(n for n, _ in dump.counts.values())
        dropped = sum(d for _, d in dump.counts.values())
        why = plot(obj, part, widths[part], os.path.join(outdir, f"{part}.png"))
        print(f"  {part}: {kept} events kept, {dropped} dropped; "
              + (why or f"{os.path.join(outdir, part + '.png')}"))
    for p in problems:
        print(f"trace check: {p}", file=sys.stderr)
    return 1 if problems else 0


# make test's check: the abba scenario, whose story is known. The build is
# in the matrix's plan (matrix.py), so it is built before the check runs.
CHECK_BUILD = build.BuildConfig("i386", "spin", TRACE_CONF)
CHECK_SCENARIO = "abba"


def check_scenario(root, arches, accel):
    """A StepResult: the trace is valid, and shows the deadlock: each of the
    two tasks holds a mutex and waits for the other until the dump."""
    title = f"trace check ({CHECK_SCENARIO}, {CHECK_BUILD.label()})"
    try:
        _, obj, problems, path = record(root, arches[CHECK_BUILD.arch], CHECK_BUILD,
                                        CHECK_SCENARIO, accel,
                                        at(root, "build", "trace-check"))
    except ConsoleError as e:
        return StepResult(title, [str(e)])
    stuck = {ev["pid"] for ev in obj["traceEvents"] if ev["ph"] == "X"
             and ev.get("cat") == "wait" and ev.get("args", {}).get("open_at_end")}
    holding = {ev["pid"] for ev in obj["traceEvents"] if ev["ph"] == "X"
               and ev.get("cat") == "hold" and ev.get("args", {}).get("open_at_end")}
    if len(stuck) != 2 or stuck != holding:
        problems.append(f"not two tasks each holding a mutex and waiting for "
                        f"the other's: waiting {sorted(stuck)}, holding {sorted(holding)}")
    return StepResult(title, problems, path,
                      note=f"{len(obj['traceEvents'])} events, the deadlock seen")
