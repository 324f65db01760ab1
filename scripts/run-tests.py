#!/usr/bin/env python3
"""Boot MutexOS test kernels in QEMU, read their KTAP results, report.

Usage: scripts/run-tests.py [options] CONFIG...

  CONFIG is name=NAME,arch=ARCH,kernel=PATH,cpus=N[,append=CMDLINE]
  ARCH is i386, x86_64 or arm.  append must come last: it takes the rest of
  the string, spaces and commas included.

Each configuration boots in its own QEMU (-j of them at once).  The serial
line is read as KTAP and kept whole in LOGDIR/NAME.log; when a configuration
ends, a table of its suites is printed, and the last line of the output is
"N passed, N failed" (", N skipped" when any were skipped), counting the
leaf test cases of every configuration.

How the kernel's exit status reaches us
  The kernel ends the machine with a status s:
    0  the run is complete and every test passed
    1  the run is complete and some tests failed
    2  panic or fault
    3  any other error
  x86 (i386, x86_64): the kernel writes s to I/O port 0xf4, QEMU's
    isa-debug-exit device, and QEMU exits with code (s << 1) | 1.  An odd
    code c therefore means s = c >> 1; an even code means QEMU ended some
    other way (its own error, a signal), and there is no status.
  arm (raspi2b): semihosting SYS_EXIT_EXTENDED makes QEMU exit with s.

A configuration fails when
  - a test case reports "not ok" (a "# TIMEOUT" case included),
  - a line contains "Kernel panic - not syncing", "Oops:" or "Unhandled
    exception" (a "BUG:" line is not a failure: the debug tests provoke
    those reports on purpose),
  - the top-level plan is missing, or a plan does not match the number of
    results that follow it (each missing case counts as a failed case),
  - the "# mutexos: end of tests" line never comes,
  - the status is not 0 (status 1 with no "not ok" line still fails),
  - or the timeout expires, in which case QEMU is killed.
A failed configuration counts at least one failed case, so that the last
line never says "0 failed" when the exit status says otherwise.

Exit status: 0 when nothing failed, 1 otherwise, 2 for bad usage.  With
--expect-fail (the runner's self-check against a broken kernel), 0 only
when a failure was detected in every configuration.

Hidden options for scripts/test-runner-selftest.sh:
  --parse-log FILE --status S   parse FILE as if QEMU had printed it and
                                the kernel had exited with status S
  --emulator-cmd 'CMD'          run CMD (split like a shell would) instead
                                of QEMU; its exit code is decoded as QEMU's
"""

import argparse
import concurrent.futures
import os
import re
import shlex
import signal
import subprocess
import sys
import tempfile
import threading

# Everything QEMU needs to know per arch, in one place.  "cpus" says how the
# number of CPUs is given: "smp" as -smp N, "maxcpus" on the kernel command
# line, because the raspi2b board always has four cores.
# The two x86 arches boot the same way; only the emulator differs (the
# x86_64 image handed over is already a 32-bit multiboot ELF).
X86 = {
    "package": "qemu-system-x86",
    "machine": [],
    "memory": ["-m", "256M"],
    "cpus": "smp",
    "exit_device": ["-device", "isa-debug-exit,iobase=0xf4,iosize=0x04"],
    "exit_via": "isa-debug-exit",
    "kvm": True,
}
ARCHES = {
    "i386": dict(X86, qemu="qemu-system-i386"),
    "x86_64": dict(X86, qemu="qemu-system-x86_64"),
    "arm": {
        "qemu": "qemu-system-arm",
        "package": "qemu-system-arm",
        "machine": ["-M", "raspi2b"],
        "memory": [],
        "cpus": "maxcpus",
        "exit_device": ["-semihosting-config", "enable=on,target=native"],
        "exit_via": "semihosting",
        "kvm": False,
    },
}

STATUS_MEANING = {
    0: "every test passed",
    1: "some tests failed",
    2: "panic or fault",
    3: "error",
}

CONFIG_KEYS = ("name", "arch", "kernel", "cpus")


class Config:
    """One kernel image booted with one number of CPUs."""

    def __init__(self, name, arch, kernel, cpus, append=""):
        self.name = name
        self.arch = arch
        self.kernel = kernel
        self.cpus = cpus
        self.append = append
        self.accel = "tcg"

    def describe(self):
        unit = "CPU" if self.cpus == 1 else "CPUs"
        return f"{self.arch}, {self.cpus} {unit}"


def parse_config(text):
    """Parse a CONFIG argument (argparse type function)."""
    # append comes last and keeps everything after it: a kernel command
    # line may hold commas and spaces.
    m = re.search(r"(?:^|,)append=", text)
    head, append = (text[:m.start()], text[m.end():]) if m else (text, "")
    fields = {}
    for item in filter(None, head.split(",")):
        key, eq, value = item.partition("=")
        if not eq or key not in CONFIG_KEYS:
            raise argparse.ArgumentTypeError(f"unknown field '{item}' in '{text}'")
        if key in fields:
            raise argparse.ArgumentTypeError(f"'{key}' given twice in '{text}'")
        fields[key] = value
    missing = [key for key in CONFIG_KEYS if not fields.get(key)]
    if missing:
        raise argparse.ArgumentTypeError(f"'{text}' lacks {', '.join(missing)}")
    if fields["arch"] not in ARCHES:
        raise argparse.ArgumentTypeError(
            f"unknown arch '{fields['arch']}' (known: {', '.join(ARCHES)})")
    if "/" in fields["name"]:
        raise argparse.ArgumentTypeError(f"name '{fields['name']}' is used as a file name")
    if not fields["cpus"].isdigit() or int(fields["cpus"]) < 1:
        raise argparse.ArgumentTypeError(f"cpus must be a positive number in '{text}'")
    return Config(fields["name"], fields["arch"], fields["kernel"],
                  int(fields["cpus"]), append.strip())


def qemu_command(cfg, gdb=False):
    """The QEMU command line booting cfg with its serial console on stdio."""
    arch = ARCHES[cfg.arch]
    cmdline = cfg.append
    cpus = []
    if arch["cpus"] == "smp":
        cpus = ["-smp", str(cfg.cpus)]
    elif not re.search(r"(^|\s)maxcpus=", cmdline):
        cmdline = f"{cmdline} maxcpus={cfg.cpus}".strip()
    argv = [arch["qemu"], *arch["machine"], "-kernel", cfg.kernel,
            "-append", cmdline, *cpus, *arch["memory"],
            "-display", "none", "-serial", "stdio", "-monitor", "none",
            "-no-reboot", *arch["exit_device"]]
    if cfg.accel == "kvm":
        argv += ["-accel", "kvm", "-cpu", "host"]
    else:
        argv += ["-accel", "tcg"]
    if gdb:
        # -s: gdb stub on tcp::1234; -S: stay halted until gdb says continue.
        argv += ["-s", "-S"]
    return argv


def choose_accel(requested, arch):
    """The accelerator to use for arch, and a note when it is not the one asked for."""
    if requested != "kvm":
        return "tcg", None
    if not ARCHES[arch]["kvm"]:
        return "tcg", f"note: kvm cannot run {arch} guests; using tcg"
    if not os.access("/dev/kvm", os.R_OK | os.W_OK):
        return "tcg", "note: /dev/kvm is missing or not usable; using tcg"
    return "kvm", None


def decode_status(arch, code):
    """The kernel's exit status from QEMU's exit code; None when it set none."""
    if code is None or code < 0:
        return None             # killed by a signal
    if ARCHES[arch]["exit_via"] == "isa-debug-exit":
        return code >> 1 if code & 1 else None
    return code


# ---------------------------------------------------------------- KTAP

KTAP_HEADER = re.compile(r"K?TAP version \d+$")
SUBTEST = re.compile(r"# Subtest: (.*)$")
PLAN = re.compile(r"1\.\.(\d+)\b")
RESULT = re.compile(r"(not ok|ok)\s+(\d+)(?:\s+-)?(?:\s+([^#]*?))?\s*(?:#\s*(.*?))?\s*$")
END_OF_TESTS = re.compile(r"# mutexos: end of tests(?:, status (\d+))?")
CRASH = re.compile(r"Kernel panic - not syncing|Oops:|Unhandled exception")
# printk may put a timestamp before a line; the KTAP indentation follows it.
TIMESTAMP = re.compile(r"\[\s*\d+\.\d+\] ?")


class Block:
    """One KTAP test list at one nesting depth: its plan and its results so far."""

    def __init__(self, name=None):
        self.name = name
        self.plan = None
        self.seen = 0           # result lines at this depth
        self.leaves = []        # (path, ok, directive) of leaf cases below
        self.missing = 0        # planned cases that never reported


class Suite:
    """A top-level test with the counts of its leaf cases: one table row."""

    def __init__(self, name):
        self.name = name
        self.passed = 0
        self.failed = 0
        self.skipped = 0
        self.not_ok = []        # "suite.case # directive" of each failed case

    def add(self, path, ok, directive):
        if not ok:
            self.failed += 1
            name = f"{self.name}.{path}" if path else self.name
            self.not_ok.append(f"{name} # {directive}" if directive else name)
        elif directive and directive.upper().startswith("SKIP"):
            self.skipped += 1
        else:
            self.passed += 1


class KtapParser:
    """Reads serial lines one at a time; finish() when the line goes quiet.

    Nesting is told by indentation (4 spaces a level).  A result line
    closes the list one level deeper if one is open (it is then a summary);
    otherwise it is a leaf case.  Lines that are not KTAP are ignored, since
    other CPUs' printk output may land between any two lines.
    """

    def __init__(self):
        self.stack = []         # Block per depth; stack[0] is the top level
        self.suites = []
        self.problems = []      # why the KTAP stream is incomplete or wrong
        self.crash = None       # the first line that reports a crash
        self.end_seen = False
        self.missing_suites = 0

    def feed(self, line):
        line = line.replace("\r", "").rstrip()
        if self.crash is None and CRASH.search(line):
            self.crash = line.strip()
        stamp = TIMESTAMP.match(line)
        if stamp:
            line = line[stamp.end():]
        text = line.lstrip(" ")
        depth = (len(line) - len(text)) // 4
        if END_OF_TESTS.match(text):
            self.end_seen = True
        elif KTAP_HEADER.match(text):
            self._open(depth)
        elif SUBTEST.match(text):
            block = self._open(depth)
            block.name = block.name or SUBTEST.match(text).group(1).strip()
        elif PLAN.match(text):
            self._plan(depth, int(PLAN.match(text).group(1)))
        elif RESULT.match(text):
            m = RESULT.match(text)
            self._result(depth, m.group(1) == "ok", m.group(3) or f"case{m.group(2)}",
                         m.group(4) or "")

    def finish(self):
        """The stream ended: close what is open and check the top-level plan."""
        # Without the end line the stream was cut short, which is reported
        # once already; a missing summary line would only repeat that.
        self._close_deeper(0, report=self.end_seen)
        if not self.stack or self.stack[0].plan is None:
            self.problems.append("no top-level KTAP plan")
            return
        root = self.stack[0]
        if root.seen < root.plan:
            self.missing_suites = root.plan - root.seen
            self.problems.append(f"{self.missing_suites} of {root.plan} suites never reported")
        elif root.seen > root.plan:
            self.problems.append(f"{root.seen} suites reported, {root.plan} planned")

    def _ensure(self, depth):
        """Make up the blocks down to depth whose headers were lost."""
        while len(self.stack) <= depth:
            self.stack.append(Block())

    def _open(self, depth):
        """The block a header or "# Subtest:" line starts at depth.

        Both lines open the same list, so a block that has seen nothing yet
        is reused.
        """
        if len(self.stack) == depth + 1 and self.stack[depth].seen == 0 \
                and self.stack[depth].plan is None:
            return self.stack[depth]
        if depth == 0 and self.stack:
            self.problems.append("a second top-level KTAP header (did the kernel restart?)")
            self._close_deeper(0, report=False)
            self.stack = []
        elif depth > 0:
            self._ensure(depth - 1)
            self._close_deeper(depth - 1, report=True)
        self.stack.append(Block())
        return self.stack[depth]

    def _plan(self, depth, count):
        self._ensure(depth)
        self._close_deeper(depth, report=True)
        if self.stack[depth].plan is not None:
            self.problems.append(f"a second plan '1..{count}' at depth {depth}")
        self.stack[depth].plan = count

    def _result(self, depth, ok, name, directive):
        self._ensure(depth)
        self._close_deeper(depth + 1, report=True)
        if len(self.stack) > depth + 1:
            self._fold(name, ok, directive)     # the summary of the list below
        elif depth == 0:
            # A top-level test without cases of its own: a row of one.
            suite = Suite(name)
            suite.add("", ok, directive)
            self.suites.append(suite)
            self.stack[0].seen += 1
        else:
            self.stack[depth].leaves.append((name, ok, directive))
            self.stack[depth].seen += 1

    def _close_deeper(self, depth, report):
        """Close the blocks deeper than depth that never got a summary line."""
        while len(self.stack) > depth + 1:
            block = self.stack[-1]
            if block.seen == 0 and block.plan is None:
                # Only its header came out: the parent's plan counts it missing.
                self.stack.pop()
                if block.name:
                    self.problems.append(f"{block.name}: started, reported nothing")
                continue
            if report:
                self.problems.append(f"{block.name or '?'}: no result line after its cases")
            self._fold(None, True, "")

    def _fold(self, name, ok, directive):
        """Close the innermost block into its parent, given its summary line."""
        depth = len(self.stack) - 1
        child = self.stack.pop()
        name = child.name or name or "?"
        if child.plan is None:
            self.problems.append(f"{name}: no plan")
        elif child.seen < child.plan:
            child.missing += child.plan - child.seen
            self.problems.append(f"{name}: {child.seen} of {child.plan} cases reported")
        elif child.seen > child.plan:
            self.problems.append(f"{name}: {child.seen} cases reported, {child.plan} planned")
        failed_below = child.missing or any(not leaf_ok for _, leaf_ok, _ in child.leaves)
        if not ok and not failed_below:
            # The summary says failed though no case did (say, suite init failed).
            child.leaves.append(("", False, directive))
        parent = self.stack[depth - 1]
        parent.seen += 1
        if depth == 1:
            self.suites.append(self._suite(name, child))
            return
        for path, leaf_ok, leaf_directive in child.leaves:
            parent.leaves.append((f"{name}.{path}" if path else name, leaf_ok, leaf_directive))
        parent.missing += child.missing

    @staticmethod
    def _suite(name, block):
        suite = Suite(name)
        for leaf in block.leaves:
            suite.add(*leaf)
        suite.failed += block.missing
        return suite


# ---------------------------------------------------------------- results

class Result:
    """What one configuration did, judged."""

    def __init__(self, title, parser, status, log, timeout=None, exit_note=None):
        self.title = title
        self.suites = parser.suites
        self.status = status
        self.log = log
        self.timeout = timeout
        self.reasons = judge(parser, status, timeout, exit_note)
        self.not_ok = [case for suite in self.suites for case in suite.not_ok]
        self.failed_config = bool(self.reasons or self.not_ok)
        # Unreported suites and a failure no case explains go to one extra row.
        self.extra_failed = parser.missing_suites
        if self.failed_config and not self.extra_failed \
                and not any(s.failed for s in self.suites):
            self.extra_failed = 1

    @classmethod
    def not_started(cls, title, log, why):
        """A configuration whose emulator never ran: why is the only reason."""
        result = cls(title, KtapParser(), None, log, exit_note=why)
        result.reasons = [why]
        return result

    def totals(self):
        passed = sum(s.passed for s in self.suites)
        failed = sum(s.failed for s in self.suites) + self.extra_failed
        skipped = sum(s.skipped for s in self.suites)
        return passed, failed, skipped


def judge(parser, status, timeout, exit_note):
    """Why a run failed, apart from its "not ok" cases; empty when it did not."""
    reasons = []
    if parser.crash:
        reasons.append(f"crashed: {parser.crash}")
    if status is None:
        if not timeout:
            reasons.append(exit_note or "the kernel set no exit status")
    elif status == 1:
        if not any(s.not_ok for s in parser.suites):
            reasons.append("status 1 (some tests failed) but no case reported 'not ok'")
    elif status != 0 and not (status == 2 and parser.crash):
        meaning = STATUS_MEANING.get(status, "unknown status")
        reasons.append(f"status {status}: {meaning}")
    reasons += parser.problems
    # A crash or a timeout already says why the end line is missing.
    if not parser.end_seen and not parser.crash and not timeout:
        reasons.append("no '# mutexos: end of tests' line")
    return reasons


def format_report(res):
    """The whole table of one configuration, as one string."""
    rows = [(s.name, s.passed, s.failed, s.skipped) for s in res.suites]
    if res.extra_failed:
        rows.append(("(run)", 0, res.extra_failed, 0))
    width = max([16] + [len(row[0]) for row in rows])
    lines = [f"== {res.title} ==",
             f"{'suite':<{width}} {'passed':>6} {'failed':>6} {'skipped':>7}"]
    lines += [f"{n:<{width}} {p:>6} {f:>6} {s:>7}" for n, p, f, s in rows]
    if res.timeout:
        how = f"TIMEOUT after {res.timeout}s"
    elif res.status is not None:
        how = f"status {res.status}"
    else:
        how = "no status"
    if res.failed_config and os.path.exists(res.log):
        lines.append(f"result: FAILED ({how}) log: {res.log}")
    elif res.failed_config:
        lines.append(f"result: FAILED ({how})")
    else:
        lines.append(f"result: passed ({how})")
    lines += [f"  not ok: {case}" for case in res.not_ok]
    lines += [f"  reason: {reason}" for reason in res.reasons]
    return "\n".join(lines)


# ---------------------------------------------------------------- running

# Emulators still running, so that Ctrl-C can stop every one of them.
running = set()
running_lock = threading.Lock()
stopping = False


def kill_group(proc):
    # The emulator leads its own process group: a wrapper's children (as in
    # a fake emulator "sh -c ...") would otherwise keep the pipe open.
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass


def stop_all():
    global stopping
    with running_lock:
        stopping = True
        for proc in running:
            kill_group(proc)


def emulator_argv(cfg, opts, gdb=False):
    if opts.emulator_cmd:
        return shlex.split(opts.emulator_cmd)
    return qemu_command(cfg, gdb)


def start_emulator(argv, stderr):
    """Popen argv with the serial line on a pipe; None if the run is being stopped."""
    with running_lock:
        if stopping:
            return None
        proc = subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                stderr=stderr, start_new_session=True)
        running.add(proc)
        return proc


def run_config(cfg, opts):
    """Boot cfg, parse its serial line into the log and the parser, judge it."""
    logdir = opts.logdir or os.path.dirname(cfg.kernel) or "."
    log_path = os.path.join(logdir, cfg.name + ".log")
    title = f"{cfg.name} ({cfg.describe()})"
    parser = KtapParser()
    argv = emulator_argv(cfg, opts)
    if not opts.emulator_cmd and not os.path.isfile(cfg.kernel):
        return Result.not_started(title, log_path, f"kernel image {cfg.kernel} not found")
    os.makedirs(logdir, exist_ok=True)
    with open(log_path, "wb") as log, tempfile.TemporaryFile() as errors:
        try:
            proc = start_emulator(argv, errors)
        except OSError as e:
            return Result.not_started(
                title, log_path, f"cannot start {argv[0]}: {e.strerror}{install_hint(cfg, opts)}")
        if proc is None:
            return Result.not_started(title, log_path, "interrupted")
        code, timed_out = read_serial(proc, opts.timeout, log, parser)
        parser.finish()
        errors.seek(0)
        stderr_text = errors.read()
        if stderr_text:
            # Kept after the serial output so that the log stays parseable.
            log.write(b"\n--- emulator stderr ---\n" + stderr_text)
    status = None if timed_out else decode_status(cfg.arch, code)
    result = Result(title, parser, status, log_path,
                    timeout=opts.timeout if timed_out else None,
                    exit_note=f"QEMU exited with code {code}, not through the kernel's exit device")
    # QEMU's own complaint (a bad option, an unloadable kernel) says most.
    complaint = stderr_text.decode("utf-8", "replace").strip().splitlines()
    if result.failed_config and complaint:
        result.reasons.insert(0, f"emulator: {complaint[-1]}")
    return result


def install_hint(cfg, opts):
    if opts.emulator_cmd:
        return ""
    return f" (apt-get install {ARCHES[cfg.arch]['package']})"


def read_serial(proc, timeout, log, parser):
    """Copy proc's output to log and parser until it ends or timeout expires.

    Returns (exit code, whether the timeout killed it).
    """
    expired = threading.Event()

    def expire():
        expired.set()
        kill_group(proc)

    watchdog = threading.Timer(timeout, expire)
    watchdog.daemon = True
    watchdog.start()
    try:
        for raw in proc.stdout:
            log.write(raw)
            log.flush()         # so that the log can be followed live
            parser.feed(raw.decode("utf-8", "replace"))
        code = proc.wait()
    finally:
        watchdog.cancel()
        with running_lock:
            running.discard(proc)
    return code, expired.is_set()


def run_all(configs, opts):
    """Run every configuration, -j at a time; print each table as it completes."""
    results = []
    pool = concurrent.futures.ThreadPoolExecutor(max_workers=opts.jobs)
    try:
        futures = [pool.submit(run_config, cfg, opts) for cfg in configs]
        for future in concurrent.futures.as_completed(futures):
            result = future.result()
            print(format_report(result), flush=True)
            results.append(result)
    except KeyboardInterrupt:
        stop_all()
        pool.shutdown(wait=False, cancel_futures=True)
        raise
    pool.shutdown()
    return results


def parse_log(opts):
    """--parse-log: judge a saved serial log as if QEMU had just printed it."""
    cfg = opts.configs[0] if opts.configs else None
    name = cfg.name if cfg else os.path.splitext(os.path.basename(opts.parse_log))[0]
    title = f"{name} ({cfg.describe()})" if cfg else f"{name} (parsed log)"
    parser = KtapParser()
    with open(opts.parse_log, "rb") as log:
        for raw in log:
            parser.feed(raw.decode("utf-8", "replace"))
    parser.finish()
    result = Result(title, parser, opts.status, opts.parse_log)
    print(format_report(result), flush=True)
    return [result]


def run_interactive(cfg, opts):
    """make run / make gdb: the serial console on this terminal, no parsing."""
    argv = emulator_argv(cfg, opts, gdb=opts.gdb)
    if opts.gdb:
        print("QEMU waits halted for gdb on tcp::1234 (gdb: target remote :1234)",
              file=sys.stderr, flush=True)
    try:
        proc = subprocess.Popen(argv)
    except OSError as e:
        print(f"cannot start {argv[0]}: {e.strerror}{install_hint(cfg, opts)}", file=sys.stderr)
        return 3
    while True:
        try:
            code = proc.wait()
            break
        except KeyboardInterrupt:
            # Ctrl-C belongs to QEMU (it quits on it); wait for it to go.
            continue
    status = decode_status(cfg.arch, code)
    if status is None:
        print(f"\nQEMU exited with code {code}, without a status from the kernel",
              file=sys.stderr)
        return 3
    print(f"\nkernel exited with status {status} ({STATUS_MEANING.get(status, 'unknown')})",
          file=sys.stderr)
    return status


def summary(results, expect_fail):
    """Print the closing lines; return the exit status."""
    passed = sum(r.totals()[0] for r in results)
    failed = sum(r.totals()[1] for r in results)
    skipped = sum(r.totals()[2] for r in results)
    any_failed = any(r.failed_config for r in results)
    code = 1 if any_failed else 0
    if expect_fail:
        passing = [r.title for r in results if not r.failed_config]
        if passing:
            print(f"expected a failure, but these passed: {', '.join(passing)}")
            code = 1
        else:
            print("the runner detected the expected failure in every configuration")
            code = 0
    line = f"{passed} passed, {failed} failed"
    if skipped:
        line += f", {skipped} skipped"
    print(line, flush=True)
    return code


def parse_args(argv):
    ap = argparse.ArgumentParser(
        description="Boot MutexOS kernels in QEMU and report their KTAP test results.",
        epilog="CONFIG: name=NAME,arch=i386|x86_64|arm,kernel=PATH,cpus=N[,append=CMDLINE]")
    ap.add_argument("configs", metavar="CONFIG", nargs="*", type=parse_config)
    ap.add_argument("-j", dest="jobs", type=int, default=2, metavar="N",
                    help="how many QEMUs run at once (default 2)")
    ap.add_argument("--timeout", type=int, default=300, metavar="SECONDS",
                    help="time allowed per configuration (default 300)")
    ap.add_argument("--logdir", metavar="DIR",
                    help="where DIR/NAME.log keeps each serial log (default: the kernel's folder)")
    ap.add_argument("--accel", choices=("tcg", "kvm"), default="tcg",
                    help="kvm is used only for x86 with /dev/kvm (default tcg)")
    ap.add_argument("--expect-fail", action="store_true",
                    help="succeed only if every configuration fails (runner self-check)")
    ap.add_argument("--interactive", action="store_true",
                    help="one CONFIG, serial console on the terminal, exit with the kernel's status")
    ap.add_argument("--gdb", action="store_true",
                    help="with --interactive: QEMU waits halted for gdb on tcp::1234")
    ap.add_argument("--print-cmd", action="store_true",
                    help="print the QEMU command lines and exit")
    ap.add_argument("--parse-log", metavar="FILE", help=argparse.SUPPRESS)
    ap.add_argument("--status", type=int, help=argparse.SUPPRESS)
    ap.add_argument("--emulator-cmd", metavar="CMD", help=argparse.SUPPRESS)
    opts = ap.parse_args(argv)
    if opts.parse_log:
        if opts.status is None:
            ap.error("--parse-log needs --status S")
        if len(opts.configs) > 1:
            ap.error("--parse-log takes at most one CONFIG (for its name)")
    elif not opts.configs:
        ap.error("no CONFIG given")
    if opts.interactive and len(opts.configs) != 1:
        ap.error("--interactive runs exactly one CONFIG")
    if opts.gdb and not opts.interactive:
        ap.error("--gdb goes with --interactive")
    if opts.jobs < 1 or opts.timeout < 1:
        ap.error("-j and --timeout must be at least 1")
    return opts


def set_accels(configs, requested):
    """Choose each configuration's accelerator; say once why kvm was not used."""
    notes = []
    for cfg in configs:
        cfg.accel, note = choose_accel(requested, cfg.arch)
        if note and note not in notes:
            notes.append(note)
            print(note, file=sys.stderr)


def main(argv=None):
    opts = parse_args(argv)
    if opts.parse_log:
        return summary(parse_log(opts), opts.expect_fail)
    set_accels(opts.configs, opts.accel)
    if opts.print_cmd:
        for cfg in opts.configs:
            print(shlex.join(emulator_argv(cfg, opts, gdb=opts.gdb)))
        return 0
    if opts.interactive:
        return run_interactive(opts.configs[0], opts)
    try:
        results = run_all(opts.configs, opts)
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
    return summary(results, opts.expect_fail)


if __name__ == "__main__":
    sys.exit(main())
