"""make check-kgdb-fuzz: gdb against the kernel's own stub through random
operations while the kernel runs its tests (docs/gdb.md).

Each boot is the arch's debug build with kgdbwait, the stub's port on a
socket as in the gdb check (kgdb.py), and the mutex suites followed by
kgdb.busy_until_released, which keeps a mutex busy on every CPU until
the fuzzer lets it go.  gdb-multiarch runs under its machine interface
(MI, over pipes) and is driven through OPS random operations (Op), each
from a stop and back to one: break on a function of the symbol table
that is not in the stub's nobreak list, delete, continue (with Ctrl-C
after a random wait, unless a breakpoint is on a function the tests
certainly run), stepi N, next, finish, thread switches, watchpoints
(where the arch's stub has them), detach and re-attach.

A run fails on a hang (no reply or stop within OP_SECS), a lost stop, a
stop in the wrong thread (a breakpoint's stop whose thread's pc is not
at it, or a SIGTRAP that no breakpoint or step explains), an error gdb
should not give, a panic or Oops on the console, or, at the end (all
breakpoints deleted, the busy case let go, gdb detached), a kernel that
does not end its tests passing (the usual KTAP judgement).

The operations come from the run number alone (generate()), so REPLAY=
replays them; the kernel's timing differs from run to run, so a replay
runs the same operations, not always into the same stops. Each boot's
operations and gdb's answers are logged in its build folder
(kgdbfuzz-cpusN-K.ops.log, the console in kgdbfuzz-cpusN-K.log).
"""

import bisect
import contextlib
import os
import queue
import random
import re
import subprocess
import threading
import time
from dataclasses import dataclass

from . import gdb as qemu_gdb
from . import build, kgdb, ktap, qemu
from .logs import open_log
from .verdict import StepResult

CPU_COUNTS = (1, 4)
DEFAULT_OPS = 200
# A boot's operations at most: its busy case gives up after 600 s
# (tests/kgdb_test.c), and a mutex case stopped for long would reach its
# time limit.
BOOT_OPS = 250
OP_SECS = 60            # for any reply or stop: longer is a hang
TESTS = "test=mutex.*,kgdb.busy_until_released"
BOOT_SECS = 1200        # the whole boot, fuzz and the rest of its tests
BUSY_SECS = 1.0         # the busy case runs at least this long, at the end
# Functions every CPU or the busy case runs again and again: a continue
# with a breakpoint on one of them must stop.
CERTAIN = ("scheduler_tick", "mutex_lock", "mutex_unlock")
# What a watchpoint watches: the tick writes it, and sleeps read it.
WATCHED = "jiffies"
MAX_BREAKPOINTS = 4

# (kind, weight): how often each operation comes.
WEIGHTS = (("break", 4), ("delete", 1), ("continue", 6), ("stepi", 3),
           ("next", 2), ("finish", 2), ("thread", 3), ("watch", 1),
           ("detach", 1))


@dataclass(frozen=True)
class Op:
    """One operation: its kind and its argument (a function, a count, a
    wait in seconds, a watch command, a pick among what exists then)."""

    kind: str
    arg: object = None

    def __str__(self):
        if isinstance(self.arg, float):
            return f"{self.kind} {self.arg:.2f}"
        return self.kind if self.arg is None else f"{self.kind} {self.arg}"


def generate(run, count, functions, watchpoints):
    """count operations from run alone: functions (sorted) are the ones
    a breakpoint may go on; watchpoints, whether the stub has them."""
    rng = random.Random(run)
    kinds = [(k, w) for k, w in WEIGHTS if watchpoints or k != "watch"]
    names, weights = zip(*kinds)
    ops = []
    for _ in range(count):
        kind = rng.choices(names, weights)[0]
        ops.append(Op(kind, _argument(rng, kind, functions)))
    return ops


def _argument(rng, kind, functions):
    if kind == "break":
        # One in four on a function that certainly runs: a lost stop shows.
        if rng.random() < 0.25:
            return rng.choice(CERTAIN)
        return rng.choice(functions)
    if kind == "stepi":
        return rng.randint(1, 20)
    if kind in ("continue", "next", "finish"):
        return rng.uniform(0.05, 1.0)    # then Ctrl-C, if still running
    if kind == "detach":
        return rng.uniform(0.0, 1.5)     # away, the kernel running
    if kind == "watch":
        return rng.choice(("watch", "rwatch", "awatch"))
    if kind in ("thread", "delete"):
        return rng.randrange(1000)       # which one, among those there are
    return None


def nobreak_lookup(arch, symbols):
    """A test of an address: is it in a function of the stub's nobreak
    list (kgdb.nobreak_functions)?"""
    out = subprocess.run([f"{arch.cross}nm", "-n", symbols], stdout=subprocess.PIPE,
                         stderr=subprocess.DEVNULL, text=True, check=True).stdout
    starts = [(int(p[0], 16), p[2]) for p in (line.split() for line in out.splitlines())
              if len(p) == 3 and p[1] in "tT" and not p[2].startswith("$")]
    nobreak = set(kgdb.nobreak_functions(arch, symbols))

    def in_nobreak(addr):
        i = bisect.bisect_right(starts, (addr, "\uffff")) - 1
        return i >= 0 and starts[i][1] in nobreak
    return in_nobreak


def breakable_functions(arch, symbols):
    """The functions a breakpoint may go on, sorted: "name@address" of
    every function of the symbol table but the stub's nobreak list
    (kgdb.nobreak_functions). By address: gdb puts a breakpoint by name
    on each copy inlined elsewhere too, and some are in the nobreak
    list's code; two static functions may share a name."""
    out = subprocess.run([f"{arch.cross}nm", symbols], stdout=subprocess.PIPE,
                         stderr=subprocess.DEVNULL, text=True, check=True).stdout
    nobreak = set(kgdb.nobreak_functions(arch, symbols).values())
    return sorted({f"{p[2]}@{p[0].lstrip('0')}" for p in
                   (line.split() for line in out.splitlines())
                   if len(p) == 3 and p[1] in "tT" and not p[2].startswith("$")
                   and "." not in p[2] and int(p[0], 16) not in nobreak})


# ---- gdb's machine interface ----

class MiError(Exception):
    """gdb said nothing in time, or ended."""


def parse_mi(text):
    """The results of an MI record ('a="1",b={c="2"},d=[...]') as a dict
    of str, dict and list."""
    value, rest = _results(text, 0, "")
    if rest != len(text):
        raise ValueError(f"MI: junk at {rest} of {text!r}")
    return value


def _results(text, i, end):
    out = {}
    while i < len(text) and text[i] != end:
        name_end = text.index("=", i)
        name = text[i:name_end]
        out[name], i = _value(text, name_end + 1)
        if i < len(text) and text[i] == ",":
            i += 1
    return out, i


def _value(text, i):
    if text[i] == '"':
        return _c_string(text, i)
    if text[i] == "{":
        value, i = _results(text, i + 1, "}")
        return value, i + 1
    if text[i] == "[":
        items, i = [], i + 1
        while text[i] != "]":
            if text[i] in '"{[':
                item, i = _value(text, i)
            else:           # a list of results: name=value
                name_end = text.index("=", i)
                item, i = _value(text, name_end + 1)
            items.append(item)
            if text[i] == ",":
                i += 1
        return items, i + 1
    raise ValueError(f"MI: no value at {i} of {text!r}")


def _c_string(text, i):
    out, i = [], i + 1
    while text[i] != '"':
        if text[i] == "\\":
            i += 1
            out.append({"n": "\n", "t": "\t"}.get(text[i], text[i]))
        else:
            out.append(text[i])
        i += 1
    return "".join(out), i + 1


def record(line):
    """(token or None, the record's mark and class, its results) of one
    MI line: '12^done,...' gives ('12', '^done', {...})."""
    m = re.match(r"(\d*)([\^*=+~@&])([\w-]*),?(.*)$", line)
    if not m:
        return None, "", {}
    token, mark, cls, rest = m.groups()
    if mark in "~@&":
        text = cls + rest
        return None, mark, {"text": _c_string(text, 0)[0] if text[:1] == '"' else text}
    return token or None, mark + cls, parse_mi(rest) if rest else {}


class Mi:
    """gdb under MI on pipes: commands with a token, each with a timeout."""

    def __init__(self, argv, log, cwd):
        self.log = log
        self.proc = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.STDOUT, text=True, bufsize=1,
                                     cwd=cwd, start_new_session=True)
        self.lines = queue.Queue()
        self.token = 0
        self.stops = []         # *stopped records not yet taken
        self.warnings = ""
        self.resumed = None     # the token of the last command but Ctrl-C
        self.gave_up = None
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        for line in self.proc.stdout:
            self.lines.put(line.rstrip("\n"))
        self.lines.put(None)

    def _next_line(self, deadline):
        try:
            line = self.lines.get(timeout=max(0.0, deadline - time.monotonic()))
        except queue.Empty:
            return ""
        if line is None:
            raise MiError(f"gdb ended (exit code {self.proc.wait()})")
        self.log.write(f"  < {line}\n")
        return line

    def _record(self, deadline):
        line = self._next_line(deadline)
        try:
            return record(line)
        except (ValueError, IndexError) as e:
            raise MiError(f"gdb's MI line not understood ({e}): {line!r}") from None

    def command(self, text, timeout=OP_SECS):
        """Send text; (its result class, results) once gdb answers."""
        self.token += 1
        self.stops = []         # a stop before this command is no answer to it
        if not text.startswith("-exec-interrupt"):
            self.warnings = ""  # gdb's messages (&) since the command sent
            self.resumed = str(self.token)
            self.gave_up = None  # its ^error after its ^running
        self.log.write(f"  > {text}\n")
        self.log.flush()
        self.proc.stdin.write(f"{self.token}{text}\n")
        self.proc.stdin.flush()
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            token, cls, results = self._record(deadline)
            if cls == "*stopped":
                self.stops.append(results)
            elif cls == "&":
                self.warnings += results["text"]
            elif token == str(self.token) and cls.startswith("^"):
                return cls, results
            elif token == self.resumed and cls == "^error":
                self.gave_up = results.get("msg", "")
        raise MiError(f"hang: no answer to '{text}' within {timeout} s")

    def wait_stop(self, timeout):
        """The next *stopped record, or None after timeout. A resume that
        gdb gave up after its ^running ('Cannot insert breakpoint') ends
        with an ^error of its token: that is returned as {"error": msg}."""
        deadline = time.monotonic() + timeout
        while not self.stops and self.gave_up is None and time.monotonic() < deadline:
            token, cls, results = self._record(deadline)
            if cls == "*stopped":
                self.stops.append(results)
            elif token == self.resumed and cls == "^error":
                self.gave_up = results.get("msg", "")
            elif cls == "&":
                self.warnings += results["text"]
        if self.gave_up is not None:
            return {"error": self.gave_up, "warnings": self.warnings}
        return self.stops.pop(0) if self.stops else None

    def close(self):
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.wait()


# ---- judging a stop ----

# Where a stepi that went through a task switch ends, in the task that
# came in: gdb, which stepped the other, calls it a SIGTRAP there.
SWITCH_LANDINGS = ("__switch_to_asm", *kgdb.OUTERMOST)


def stop_problems(stop, breakpoints, stepping_thread=None):
    """What is wrong with one *stopped record: breakpoints maps gdb's
    breakpoint numbers to addresses; stepping_thread, the thread a stepi
    stepped (its end must be in it)."""
    reason = stop.get("reason", "")
    thread = stop.get("thread-id")
    pc = stop.get("frame", {}).get("addr", "?")
    if reason.startswith("exited"):
        return [f"the target exited ({reason})"]
    if reason == "breakpoint-hit":
        want = breakpoints.get(stop.get("bkptno"))
        if want is not None and int(pc, 16) != want:
            return [f"wrong thread: breakpoint {stop.get('bkptno')} at {want:#x} "
                    f"stopped thread {thread}, whose pc is {pc}"]
    func = stop.get("frame", {}).get("func")
    switched = stepping_thread not in (None, thread)
    if reason == "signal-received" and stop.get("signal-name") == "SIGTRAP" and \
            not (switched and func in SWITCH_LANDINGS):
        return [f"wrong thread: a SIGTRAP in thread {thread} at {pc} ({func}), "
                "where no breakpoint or step of gdb's is"]
    if reason == "end-stepping-range" and switched:
        return [f"wrong thread: a stepi of thread {stepping_thread} ended in "
                f"thread {thread}"]
    return []


# gdb's errors that are answers, not failures: finish from the outermost
# frame.
EXPECTED_ERRORS = re.compile(r"not meaningful in the outermost frame")
# A thread whose CPU missed the stop ("on CPU n, not stopped"): the stub
# sends its registers as unavailable (docs/gdb.md), so gdb has no frames
# to list for it.
NOT_STOPPED = ", not stopped"
UNAVAILABLE = re.compile(r"Register \d+ is not available")


class Fuzzer:
    """One boot's operations through gdb (Mi), with what each found."""

    def __init__(self, mi, target, console_path, log):
        self.mi, self.target = mi, target
        self.console_path, self.log = console_path, log
        self.breakpoints = {}   # gdb's number -> address
        self.watchpoint = None  # gdb's number
        self.stopped_thread = None
        self.console_seen = 0
        self.done = 0           # ops that passed

    def resume(self, command, patience, must_stop=False):
        """command (a resume), then a stop: after patience seconds a
        Ctrl-C, unless must_stop (a breakpoint that the tests certainly
        run), which waits OP_SECS. The problems."""
        cls, results = self.mi.command(command)
        if cls == "^error":
            return self._error(command, results)
        stop = self.mi.wait_stop(OP_SECS if must_stop else patience)
        if stop is None and must_stop:
            return [f"lost stop: '{command}' with a breakpoint on one of "
                    f"{', '.join(self._certain_set())} and no stop in {OP_SECS} s"]
        if stop is None:
            self.mi.command("-exec-interrupt")
            stop = self.mi.wait_stop(OP_SECS)
            if stop is None:
                return [f"hang: Ctrl-C during '{command}' and no stop in {OP_SECS} s"]
        return self._took(stop, command)

    def _took(self, stop, command, stepping_thread=None):
        if "error" in stop:
            return self._refused(command, stop)
        self.stopped_thread = stop.get("thread-id", self.stopped_thread)
        return stop_problems(stop, self.breakpoints, stepping_thread)

    def _refused(self, command, stop):
        """A resume gdb gave up: fine when the breakpoint it could not
        insert (a step's, a finish's) is in code the stub takes none in."""
        where = re.search(r"Cannot insert breakpoint -?\d+\.\s+Cannot access "
                          r"memory at address (0x[0-9a-f]+)", stop["warnings"])
        if where and self.target["in_nobreak"](int(where.group(1), 16)):
            return []
        return [f"gdb: '{command}': {stop['error']} {stop['warnings']!r}"]

    def _error(self, command, results):
        msg = results.get("msg", "")
        if EXPECTED_ERRORS.search(msg):
            return []
        return [f"gdb: '{command}': {msg}"]

    def _certain_set(self):
        return [n for n in CERTAIN if self._address(n) in self.breakpoints.values()]

    def _address(self, name):
        return self.target["addresses"].get(name)

    # -- the operations: each begins and ends at a stop --

    def op_break(self, function):
        problems = self.op_delete(0) if len(self.breakpoints) >= MAX_BREAKPOINTS else []
        name, _, addr = function.partition("@")
        where = f"*0x{addr}" if addr else f"*{self._address(name):#x}"
        cls, results = self.mi.command(f"-break-insert {where}")
        if cls == "^error":
            return problems + self._error(f"break {function}", results)
        bkpt = results["bkpt"]
        self.breakpoints[bkpt["number"]] = int(bkpt["addr"], 16)
        return problems

    def op_delete(self, pick):
        if not self.breakpoints:
            return []
        number = sorted(self.breakpoints, key=int)[pick % len(self.breakpoints)]
        del self.breakpoints[number]
        return self._expect_done(f"-break-delete {number}")

    def op_continue(self, patience):
        return self.resume("-exec-continue", patience, bool(self._certain_set()))

    def op_stepi(self, count):
        thread = self.stopped_thread     # the thread ops leave it selected
        cls, results = self.mi.command(f'-interpreter-exec console "stepi {count}"')
        if cls == "^error":
            return self._error(f"stepi {count}", results)
        stop = self.mi.wait_stop(OP_SECS)
        if stop is None:
            return [f"hang: stepi {count} in thread {thread}: no stop in {OP_SECS} s"]
        return self._took(stop, f"stepi {count}", thread)

    def op_next(self, patience):
        return self.resume("-exec-next", patience)

    def op_finish(self, patience):
        return self.resume("-exec-finish", patience)

    def op_thread(self, pick):
        cls, results = self.mi.command("-thread-info")
        if cls != "^done" or not results.get("threads"):
            return [f"info threads: {cls} {results}"]
        info = results["threads"][pick % len(results["threads"])]
        problems = self._expect_done(f"-thread-select {info['id']}")
        problems += self._frames(info.get("details", "").endswith(NOT_STOPPED))
        # Back to the thread that stopped: the stub steps no other
        # (docs/gdb.md), and gdb 13 takes its E03 for a running target.
        return problems + self._expect_done(f"-thread-select {self.stopped_thread}")

    def op_watch(self, kind):
        # One at a time: x86 has four debug registers, ARM's stub may
        # have fewer; too many would be gdb's refusal, not a bug.
        problems = self._expect_done(f"-break-delete {self.watchpoint}") \
            if self.watchpoint else []
        flag = {"watch": "", "rwatch": "-r ", "awatch": "-a "}[kind]
        cls, results = self.mi.command(f"-break-watch {flag}{WATCHED}")
        if cls == "^error":
            return problems + self._error(f"{kind} {WATCHED}", results)
        self.watchpoint = next(iter(results.values()))["number"]
        return problems

    def op_detach(self, away):
        problems = self._expect_done("-target-detach")
        time.sleep(away)
        return problems + self.attach(f"re-attach after {away:.2f} s away")

    def attach(self, what):
        """gdb attached to the stub (the kernel stops); the problems."""
        cls, results = self.mi.command(f"-target-select remote {self.target['port']}")
        if cls != "^connected":
            return [f"{what}: {cls} {results}"]
        stop = self.mi.stops.pop(0) if self.mi.stops else {}
        self.stopped_thread = stop.get("thread-id") or self._selected_thread()
        return []

    def _selected_thread(self):
        cls, results = self.mi.command("-thread-info")
        return results.get("current-thread-id") if cls == "^done" else None

    def _frames(self, not_stopped):
        """The selected thread's frames: an error only for a thread whose
        CPU did not stop, and only that its registers are unavailable."""
        cls, results = self.mi.command("-stack-list-frames 0 3")
        if cls == "^done" or (not_stopped and
                              UNAVAILABLE.search(results.get("msg", ""))):
            return []
        return [f"gdb: '-stack-list-frames 0 3': {cls} {results}"]

    def _expect_done(self, command):
        cls, results = self.mi.command(command)
        return [] if cls == "^done" else [f"gdb: '{command}': {cls} {results}"]

    def console_problems(self):
        """A panic or Oops on the console since the last look."""
        with open(self.console_path, "rb") as f:
            f.seek(self.console_seen)
            text = f.read().decode("utf-8", "replace")
        self.console_seen += len(text.encode("utf-8", "replace"))
        crash = ktap.CRASH.search(text)
        if crash:
            line = text[text.rfind("\n", 0, crash.start()) + 1:].splitlines()[0]
            return [f"the console: {line.strip()}"]
        return []

    def run(self, ops):
        """Each op in turn; the problems of the first that failed, which
        is self.done, the count of ops that passed."""
        started = time.monotonic()
        for op in ops:
            self.log.write(f"{self.done} {op} (at {time.monotonic() - started:.1f} s)\n")
            problems = getattr(self, f"op_{op.kind}")(op.arg)
            problems += self.console_problems()
            if problems:
                return problems
            self.done += 1
        return []

    def finish(self, proc):
        """All breakpoints deleted, the busy case let go once it has run
        (a short run may end before it starts: its lockers must have
        taken the mutex), gdb detached."""
        problems = self._expect_done("-break-delete") or self._let_busy_run(proc)
        problems += self._expect_done(f"-gdb-set var kgdb_test_busy = {kgdb.RELEASE}")
        return problems + self._expect_done("-target-detach")

    def _let_busy_run(self, proc):
        """The kernel runs until the busy case says it is busy, and
        BUSY_SECS more; then Ctrl-C. The problems."""
        cls, results = self.mi.command("-exec-continue")
        if cls != "^running":
            return [f"gdb: 'continue' at the end: {cls} {results}"]
        try:
            kgdb.wait_for_line(self.console_path, kgdb.BUSY, proc, OP_SECS * 2)
        except kgdb.RspError as e:
            return [f"at the end: {e}"]
        time.sleep(BUSY_SECS)
        self.mi.command("-exec-interrupt")
        if self.mi.wait_stop(OP_SECS) is None:
            return [f"hang: Ctrl-C at the end and no stop in {OP_SECS} s"]
        return []


# ---- a boot ----

def boot_append(cpus):
    """The command line of a boot of the fuzzer at cpus CPUs."""
    return f"{TESTS} kgdbwait hung_task_timeout=0 expect_cpus={cpus}"


def mi_argv(arch, symbols):
    return ["gdb-multiarch", "--interpreter=mi3", "-q", "-nx",
            *qemu_gdb.kernel_stub_setup(arch), "-ex", f"file {symbols}",
            "-ex", "set mi-async on", "-ex", "set pagination off",
            "-ex", "set confirm off"]


@dataclass(frozen=True)
class Plan:
    """One boot of the fuzzer: its arch, CPUs, operations: run number and count."""

    arch: str
    cpus: int
    run: str
    ops: int
    name: str


def plan(arch, counts, run, ops, boot_ops=BOOT_OPS):
    """The boots of ops operations on arch over the CPU counts: each count
    its share, in boots of at most boot_ops; each boot's run from run."""
    boots = []
    for k, cpus in enumerate(counts):
        share = ops // len(counts) + (k < ops % len(counts))
        for n in range((share + boot_ops - 1) // boot_ops):
            count = min(boot_ops, share - n * boot_ops)
            boots.append(Plan(arch, cpus, f"{run}/{arch}/{cpus}/{n}", count,
                              f"kgdbfuzz-cpus{cpus}-{n + 1}"))
    return boots


def run_boot(root, arch, folder, accel, boot, replay, log=None, title=None):
    """One boot's fuzz: a Result (the boot's tests judged, the fuzzer's
    problems first among its reasons). Its console goes to log (an open
    file), else to the build folder's <boot.name>.log."""
    symbols = os.path.join(folder, arch.symbols)
    image = os.path.join(folder, arch.boot_image)
    port = qemu_gdb.free_port()
    append = boot_append(boot.cpus)
    argv = kgdb.with_stub_port(arch, qemu.command(
        arch, qemu.Boot(image, boot.cpus, append), accel), port)
    functions = breakable_functions(arch, symbols)
    ops = generate(boot.run, boot.ops, functions, arch.kgdb_watchpoints)
    title = title or f"kgdb fuzz {arch.name} {boot.cpus} CPU(s), {boot.ops} ops ({boot.name})"
    # A log given is its owner's to close.
    owned = contextlib.nullcontext(log) if log else open_log(folder, boot.name)[0]
    with owned as log, open(log.name[:-len(".log")] + ".ops.log", "w",
                            encoding="utf-8") as ops_log:
        ops_path, log_path, problems, done = ops_log.name, log.name, [], [0]
        ops_log.write(f"# run {boot.run}, {boot.ops} ops; replay: {replay}\n")

        drivers = []

        def drive(proc):
            drivers.append(threading.Thread(target=_drive, daemon=True, args=(
                root, arch, symbols, port, proc, log_path, ops, ops_log,
                problems, done)))
            drivers[0].start()
        started = time.monotonic()
        result = qemu.boot(title, argv, arch, BOOT_SECS, log, on_start=drive)
        for driver in drivers:      # a QEMU that died leaves gdb waiting
            driver.join(OP_SECS * 2)
        seconds = time.monotonic() - started
        ops_log.write(f"# {done[0]} ops in {seconds:.1f} s\n")
    for problem in reversed(problems):
        result.add_reason(problem, first=True)
    result.ops_done, result.seconds, result.ops_path = done[0], seconds, ops_path
    return result


def _drive(root, arch, symbols, port, proc, console_path, ops, ops_log, problems, done):
    """gdb attached at kgdbwait, the ops, the end; problems collects what
    failed (then QEMU is killed), done[0] the ops that passed."""
    fuzzer = None
    target = {"port": f"127.0.0.1:{port}",
              "addresses": kgdb.symbol_addresses(arch, symbols, CERTAIN),
              "in_nobreak": nobreak_lookup(arch, symbols)}
    mi = None
    try:
        kgdb.wait_for_line(console_path, kgdb.WAITING, proc, timeout=OP_SECS * 2)
        mi = Mi(mi_argv(arch, symbols), ops_log, root)
        fuzzer = Fuzzer(mi, target, console_path, ops_log)
        problems += fuzzer.attach("attaching at kgdbwait")
        if problems:
            return
        problems += fuzzer._expect_done(f"-gdb-set var kgdb_test_busy = {kgdb.CHECK_HERE}")
        found = fuzzer.run(ops)
        if found:
            problems += [f"op {fuzzer.done} ({ops[fuzzer.done]}): {p}" for p in found]
        else:
            problems += fuzzer.finish(proc)
    except (MiError, kgdb.RspError, OSError, ValueError, KeyError) as e:
        where = f"op {fuzzer.done} ({ops[fuzzer.done]})" \
            if fuzzer and fuzzer.done < len(ops) else "attaching or detaching"
        problems.append(f"{where}: {e}")
    finally:
        done[0] = fuzzer.done if fuzzer else 0
        ops_log.flush()
        if mi:
            mi.close()
        if problems:
            qemu.kill_group(proc)


# make test's short run (matrix.py): a constant run number, so that a failure
# replays with the command it prints and two runs of one tree do the same
# operations (the search for new failures is check-kgdb-fuzz's, with a
# random run number); the gdb check's CPU count; ops per arch within ~30 s of
# wall on the 2-core machine, where arm's stub is the slowest (measured
# 15 to 24 s a boot, docs/gdb.md).
TEST_RUN = 38
TEST_CPUS = kgdb.CPUS
TEST_OPS = {"i386": 40, "x86_64": 40, "riscv": 20, "arm": 10}


def run_in_test(title, root, arch, folder, accel, log):
    """make test's short run on arch: a Result."""
    boot = plan(arch.name, (TEST_CPUS,), TEST_RUN, TEST_OPS.get(arch.name, 10))[0]
    replay = replay_command((arch.name,), TEST_RUN, boot.ops, (TEST_CPUS,))
    result = run_boot(root, arch, folder, accel, boot, replay, log, title)
    if result.failed_config:
        result.add_reason(f"replay: {replay} (operations: {result.ops_path})")
    return result


def replay_command(names, run, ops, counts):
    """The make command of a run: its lists as make takes them."""
    def value(words):
        words = [str(w) for w in words]
        return words[0] if len(words) == 1 else '"' + " ".join(words) + '"'
    return (f"make check-kgdb-fuzz ARCH={value(names)} REPLAY={run} OPS={ops} "
            f"CPUS={value(counts)}")


def run(root, arches, names, counts, number, ops, accel):
    """make check-kgdb-fuzz: build each arch's debug kernel, fuzz it; the
    results, one per boot."""
    replay = replay_command(names, number, ops, counts)
    print(f"kgdb fuzz: run {number}, {ops} ops per arch on {', '.join(names)} at "
          f"{' and '.join(str(c) for c in counts)} CPU(s); replay: {replay}", flush=True)
    results = []
    for name in names:
        arch = arches[name]
        cfg = build.BuildConfig(name, "debug")
        why = build.build(root, cfg)
        if why:
            results.append(StepResult(f"kgdb fuzz {name}", [why]))
            print(results[-1].report(), flush=True)
            continue
        folder = os.path.join(root, build.builddir(root, cfg))
        for boot in plan(name, counts, number, ops):
            accel_used, _ = qemu.choose_accel(accel, arch)
            result = run_boot(root, arch, folder, accel_used, boot, replay)
            results.append(result)
            print(result.report(), flush=True)
            print(f"  {result.ops_done} of {boot.ops} ops in {result.seconds:.1f} s; "
                  f"operations: {result.ops_path}", flush=True)
            if result.failed_config:
                print(f"  replay: {replay}", flush=True)
    return results
