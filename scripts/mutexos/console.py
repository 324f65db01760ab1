"""The console check: the runner types into the kernel's serial console.

A console boot (qemu.Boot with console=True) puts QEMU's serial line on
a pipe both ways.  A Session copies everything QEMU prints to the log and
to the KTAP parser, as a test boot does, and waits for patterns in it;
send() types through QEMU's multiplexer, so a Ctrl-A byte goes doubled and
a break is Ctrl-A b.

A script is a function of a Session that raises ConsoleError at the first
step that does not see what it should.  SCRIPTS has two:
  debug: for the debug build of every arch: ps lists the idle tasks, bad
    input (an unknown command, an over-long line, binary garbage, a flood)
    leaves a working prompt, test mutex* prints KTAP, Ctrl-C ends a
    command, demo abba is reported and the SysRq keys show the deadlock
    while it stands, demo ww's deadlock is reported and its ww_mutex
    rounds finish, reboot comes back to a prompt, halt ends the machine.
  plain: for a build without mutex debugging: locks and ps say what they
    cannot show, demo abba deadlocks without a report, demo ww says which
    build reports what, and the prompt comes back.
The session is judged by verdict.judge_console: its script's problems, a
crash or a report nobody provoked, and an end other than its own halt.
"""

import codecs
import os
import random
import re
import select
import subprocess
import tempfile
import threading
import time

from . import qemu
from .ktap import KtapParser
from .verdict import Result, judge_console

PROMPT = "mutexos> "
BOOT_SECS = 120         # boot to the first prompt
STEP_SECS = 60          # one command, on a busy emulated machine
TESTS_SECS = 900        # test mutex*: the debug build's lock suites
LINE_MAX = 255          # the shell's longest line (kernel/console/shell.c)
MUX_ESCAPE = b"\x01"    # Ctrl-A, QEMU's multiplexer
SYSRQ_ESCAPE = b"\x1c"  # Ctrl-\, the kernel's other way to a SysRq key


class ConsoleError(Exception):
    """A step that did not see what it should."""


class Session:
    """One console boot: QEMU's output read as it comes, input typed to it."""

    def __init__(self, proc, log, parser):
        self.proc = proc
        self.log = log
        self.parser = parser
        self.text = ""          # all output so far, without CRs
        self.pos = 0            # where the next expect() starts looking
        self.ended = False
        self._cond = threading.Condition()
        os.set_blocking(proc.stdin.fileno(), False)
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()

    def _read(self):
        decoder = codecs.getincrementaldecoder("utf-8")("replace")
        partial = ""
        while True:
            data = os.read(self.proc.stdout.fileno(), 4096)
            if not data:
                break
            self.log.write(data)
            self.log.flush()
            chunk = decoder.decode(data).replace("\r", "")
            lines = (partial + chunk).split("\n")
            partial = lines.pop()
            for line in lines:
                self.parser.feed(line + "\n")
            with self._cond:
                self.text += chunk
                self._cond.notify_all()
        if partial:
            self.parser.feed(partial)
        with self._cond:
            self.ended = True
            self._cond.notify_all()

    def wait_end(self, timeout):
        """Wait for QEMU to end and for its last output to be read."""
        self.proc.wait(timeout)
        self._reader.join(timeout)

    def expect(self, pattern, what, timeout=STEP_SECS):
        """The first match of pattern in the output after the last one."""
        regex = re.compile(pattern, re.DOTALL)
        deadline = time.monotonic() + timeout
        with self._cond:
            while True:
                m = regex.search(self.text, self.pos)
                if m:
                    self.pos = m.end()
                    return m
                left = deadline - time.monotonic()
                if self.ended:
                    raise ConsoleError(f"{what}: QEMU ended before '{pattern}' came")
                if left <= 0:
                    raise ConsoleError(f"{what}: no '{pattern}' within {timeout}s")
                self._cond.wait(left)

    def send(self, data):
        """Type data; a Ctrl-A in it is doubled, as the multiplexer wants."""
        self._write(data.replace(MUX_ESCAPE, MUX_ESCAPE * 2))

    def send_break(self):
        """A break on the line: Ctrl-A b to the multiplexer."""
        self._write(MUX_ESCAPE + b"b")

    def _write(self, data, timeout=STEP_SECS):
        fd = self.proc.stdin.fileno()
        deadline = time.monotonic() + timeout
        while data:
            left = deadline - time.monotonic()
            ready = select.select([], [fd], [], max(left, 0))[1] if left > 0 else []
            if not ready:
                raise ConsoleError(f"the kernel read no input for {timeout}s")
            try:
                data = data[os.write(fd, data):]
            except BrokenPipeError:
                raise ConsoleError("QEMU ended while we typed") from None

    def command(self, line, timeout=STEP_SECS):
        """Run a command line; what it printed up to the next prompt."""
        self.send(line.encode() + b"\r")
        start = self.pos
        # The prompt alone: a pattern that starts with "(.*?)" is retried
        # from every position of the output at each chunk read, which made
        # a long test command cost the host seconds of CPU per chunk.
        m = self.expect(re.escape(PROMPT), f"'{line}'", timeout)
        return self.text[start:m.start()]


def need(output, pattern, what):
    """pattern must be in output."""
    if not re.search(pattern, output):
        raise ConsoleError(f"{what}: no '{pattern}' in:\n{output.strip()[-800:]}")


def run_checked(s, line, *patterns, timeout=STEP_SECS):
    """Run line; each of patterns must be in what it printed."""
    out = s.command(line, timeout)
    for pattern in patterns:
        need(out, pattern, f"'{line}'")
    return out


# ---------------------------------------------------------------- steps

def check_basics(s, arch, cpus, debug):
    """Every command that only reports, and the tasks every kernel has."""
    run_checked(s, "help", r"\bps\b", r"\bdemo\b", r"\bhalt\b", r"SysRq")
    run_checked(s, "ps", *[rf"\bswapper/{cpu}\b" for cpu in range(cpus)],
                r"\bkhungtaskd\b")
    run_checked(s, "cpus", rf"\b{cpus} of \d+ CPUs online")
    run_checked(s, "mem", r"\d+ free")
    run_checked(s, "uptime", r"up \d+:\d\d:\d\d\.\d{3}")
    run_checked(s, "config", rf'CONFIG_ARCH_NAME="{arch}"',
                r"CONFIG_DEBUG_MUTEXES=y" if debug else
                r"# CONFIG_DEBUG_MUTEXES is not set")


def check_editing(s):
    """Backspace, Ctrl-U and the up arrow."""
    uptime = r"up \d+:\d\d:\d\d"
    run_checked(s, "upx\x7ftime", uptime)
    run_checked(s, "nonsense\x15uptime", uptime)
    run_checked(s, "\x1b[A", uptime)


def garbage(stream=13, size=3000):
    """Random bytes, the same each run for one stream number, but no Enter
    (a random command could be any command) and no SysRq escape (its
    output would only be noise here)."""
    rng = random.Random(stream)
    banned = {0x0a, 0x0d, SYSRQ_ESCAPE[0]}
    return bytes(b for b in rng.randbytes(size) if b not in banned)


def check_bad_input(s):
    """Each bad input gets a clear message or is dropped; the prompt lives."""
    run_checked(s, "frobnicate", r"frobnicate: unknown command")
    # An over-long line, typed no faster than it is read (the ring holds
    # 256 bytes): the shell rings the bell once it is full.
    s.send(b"x" * 200)
    s.expect("x" * 200, "the echo of a long line")
    s.send(b"x" * (LINE_MAX - 200 + 45))
    s.expect("\x07", "the bell at a full line")
    s.send(b"\r")
    s.expect(rf"line longer than {LINE_MAX} characters: ignored\n{re.escape(PROMPT)}",
             "an over-long line")
    s.send(garbage())
    recover(s, "binary garbage")
    # A flood: more than the input ring holds, faster than the shell reads.
    # Its Enter may be dropped with the rest: send more until one counts,
    # soon (a spare Enter is an empty line; a wait of 10 s was most of
    # this check's time whenever the first one was dropped).
    s.send(b"y" * 20000)
    retry(s, b"\r", r"line longer than \d+ characters|characters dropped",
          "the flood's Enter")
    recover(s, "a flood")


def retry(s, keys, pattern, what, tries=30, wait=2):
    """Type keys until pattern appears, waiting wait seconds each time
    (what came before may be dropped)."""
    for _ in range(tries):
        s.send(keys)
        try:
            return s.expect(pattern, what, wait)
        except ConsoleError:
            continue
    raise ConsoleError(f"{what}: no '{pattern}' after {tries} tries")


def recover(s, after, tries=30):
    """Back in step after input the kernel may have dropped, then a
    working uptime. Each try types a word of its own, an unknown command:
    the reply to that word ends what the earlier tries caused, so they
    can be retried every 2 s (a reply to a repeated uptime could not be
    told from the one before)."""
    for attempt in range(tries):
        word = f"resync{attempt}"
        s.send(f"\x15{word}\r".encode())
        try:
            s.expect(rf"\n{word}: unknown command[^\n]*\n{re.escape(PROMPT)}",
                     f"the shell after {after}", 2)
            break
        except ConsoleError:
            continue
    else:
        raise ConsoleError(f"the shell after {after}: no reply to {tries} lines")
    run_checked(s, "uptime", r"up \d+:\d\d:\d\d\.\d{3}")


def check_tests(s, glob):
    """The test command prints KTAP and the end line, and everything passes."""
    run_checked(s, f"test {glob}", r"KTAP version 1",
                r"# mutexos: end of tests, status 0", timeout=TESTS_SECS)


def check_ctrl_c(s):
    """Ctrl-C ends a long command within seconds."""
    s.send(b"bench synchro secs=600\r")
    s.expect(r"bench: start", "bench synchro")
    s.send(b"\x03")
    s.expect(r"bench: interrupted.*?\(interrupted\)\n" + re.escape(PROMPT),
             "Ctrl-C on bench synchro")


def check_deadlock_report(s, cpus):
    """demo abba: the report, ps, locks and the SysRq keys while it stands."""
    run_checked(s, "demo abba", r"BUG: circular locking deadlock detected",
                r"demo: 2 tasks deadlocked")
    run_checked(s, "ps", r"demo-A\s+demo\.B\n", r"demo-B\s+demo\.A\n")
    run_checked(s, "locks", r"Showing all held mutexes", held_by("A"), held_by("B"))
    s.send(SYSRQ_ESCAPE + b"d")
    s.expect(r"SysRq: show every held mutex.*?Showing all held mutexes:"
             r"(?:(?!=====).)*" + held_by("A"), "SysRq d (Ctrl-\\ d)")
    s.send_break()
    s.send(b"t")
    s.expect(r"SysRq: show every task.*?demo-B\s+S pid.*?"
             r"__mutex_lock_interruptible_slowpath", "SysRq t (break, t)")
    s.send(SYSRQ_ESCAPE + b"l")
    for cpu in range(cpus):
        s.expect(rf"Backtrace of CPU {cpu}\b", "SysRq l")
    s.send(SYSRQ_ESCAPE + b"h")
    s.expect(r"SysRq keys", "SysRq h")
    run_checked(s, "demo stop", r"demo: 1 deadlock ended")
    run_checked(s, "ps", r"swapper/0")
    out = s.command("locks")
    if "demo." in out:
        raise ConsoleError(f"locks: demo mutexes still held after demo stop:\n{out}")


def held_by(name):
    """The lines of the debug build's lock listing for mutex demo.<name>."""
    return rf"\{{demo\.{name}\}}\s*\n\s*\.\. held by:\s+demo-{name}/"


def check_other_demos(s):
    """aa, interrupt, starve, inversion and race, in the debug build."""
    run_checked(s, "demo aa", r"BUG: lock recursion deadlock detected",
                r"demo: 1 task deadlocked")
    run_checked(s, "demo stop", r"demo: 1 deadlock ended")
    run_checked(s, "demo interrupt", r"BUG: mutex used in interrupt context",
                r"refused the mutex in interrupt context")
    run_checked(s, "demo starve", r"the waiter blocked \d+ times")
    run_checked(s, "demo inversion",
                r"demo: mutex   : high waited \d+ ms, and got the lock after",
                r"demo: rt-mutex: high waited \d+ ms, and got the lock before",
                r"demo: the rt-mutex lent low high's priority")
    run_checked(s, "demo race",
                r"demo: without a lock: \d+ increments made, the counter reached \d+: \d+ lost",
                r"demo: with the spinlock: 2000000 increments made, the counter "
                r"reached 2000000: 0 lost;")


# demo ww, round 3: the older task never backs off, the younger must.
WW_AVOIDED = (r"demo: 3\. ww_mutex \({}\): .*both finished; demo-A \(older\) "
              r"backed off 0 times, demo-B \(younger\) [1-9]\d* times?\.")


def check_ww_demo(s, debug):
    """demo ww: the deadlock, its proof (another build), its avoidance."""
    if debug:
        first = (r"BUG: circular locking deadlock detected",
                 r"demo: 1\. mutexes: .* deadlocked\.",
                 r"the deadlock detector reported 1 deadlock\.")
        second = r"demo: 2\. .*both finished\.\s+demo:   the deadlock detector reported 0"
    else:
        first = (r"demo: 1\. mutexes: .* deadlocked\.",
                 r"no deadlock report: only the debug build")
        second = r"demo: 2\. .*both finished\.\s+demo:   no deadlock report"
    run_checked(s, "demo ww", *first,
                r"only the validator's build .* proves it",
                r"a signal to each ended their waits", second,
                WW_AVOIDED.format("wait-die"), WW_AVOIDED.format("wound-wait"))


def check_reboot(s):
    """reboot restarts the machine, back to a prompt."""
    s.send(b"reboot\r")
    s.expect(r"rebooting", "reboot")
    s.expect(r"MutexOS on ", "the banner after reboot", BOOT_SECS)
    s.expect(re.escape(PROMPT), "the prompt after reboot", BOOT_SECS)


def halt(s):
    """halt ends the machine; the judge checks its status."""
    s.send(b"halt\r")
    s.expect(r"halting", "halt")
    s.wait_end(STEP_SECS)


def debug_script(s, arch, cpus):
    """The console check of a debug build (see the module's doc)."""
    s.expect(re.escape(PROMPT), "the first prompt", BOOT_SECS)
    check_basics(s, arch, cpus, debug=True)
    check_editing(s)
    check_bad_input(s)
    check_tests(s, "mutex*")
    check_ctrl_c(s)
    check_deadlock_report(s, cpus)
    check_other_demos(s)
    check_ww_demo(s, debug=True)
    check_reboot(s)
    halt(s)


def plain_script(s, arch, cpus):
    """The console check of a build without mutex debugging."""
    s.expect(re.escape(PROMPT), "the first prompt", BOOT_SECS)
    check_basics(s, arch, cpus, debug=False)
    run_checked(s, "locks", r"tracked by the debug build only")
    run_checked(s, "ps", r"tracked by the debug build only")
    run_checked(s, "demo abba", r"demo: 2 tasks deadlocked",
                r"no report: only the debug build")
    run_checked(s, "demo interrupt", r"nothing stopped it")
    run_checked(s, "demo stop", r"demo: 1 deadlock ended")
    check_ww_demo(s, debug=False)
    check_tests(s, "kernel.*")
    halt(s)


SCRIPTS = {"debug": debug_script, "plain": plain_script}


# ---------------------------------------------------------------- a session

def run(title, argv, arch, script, cpus, timeout, log):
    """Boot argv, run script on its console, and judge it; a Result."""
    parser = KtapParser()
    with tempfile.TemporaryFile() as errors:
        proc, failed = qemu.start(title, argv, arch, log, errors,
                                  stdin=subprocess.PIPE)
        if failed:
            return failed
        problems, timed_out = _drive(proc, log, parser, script, arch.name,
                                     cpus, timeout)
        parser.finish()
        qemu.keep_stderr(log, errors)
    status = None if timed_out else qemu.decode_status(arch, proc.returncode)
    reasons = judge_console(parser, status, timeout if timed_out else None,
                            problems)
    return Result(title, parser, status, log.name,
                  timeout=timeout if timed_out else None, reasons=reasons)


def _drive(proc, log, parser, script, arch_name, cpus, timeout):
    """Run the script against proc; (problems, whether the timeout hit)."""
    expired = threading.Event()

    def expire():
        expired.set()
        qemu.kill_group(proc)

    watchdog = threading.Timer(timeout, expire)
    watchdog.daemon = True
    watchdog.start()
    session = Session(proc, log, parser)
    problems = []
    try:
        SCRIPTS[script](session, arch_name, cpus)
    except ConsoleError as e:
        if not expired.is_set():
            problems.append(str(e))
    except BaseException:
        qemu.kill_group(proc)
        raise
    finally:
        if proc.poll() is None:
            qemu.kill_group(proc)
        proc.wait()
        session.wait_end(STEP_SECS)
        watchdog.cancel()
        proc.stdin.close()
        proc.stdout.close()
        qemu.EMULATORS.forget(proc)
    return problems, expired.is_set()
