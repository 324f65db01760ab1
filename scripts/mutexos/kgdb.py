"""The gdb check of make test: the kernel's own gdb stub, and the gdb
helpers (scripts/gdb/) on both stubs.  docs/gdb.md describes both.

One boot per arch, the debug build at 2 CPUs, with kgdbwait and the
stub's serial port (x86: COM2, the Pi: the mini UART; QEMU's second
-serial; riscv: the console's own line, split by portsplit.py) on a TCP
socket, the console on stdout as in every test boot:
  1. a raw-protocol client (Rsp) while the kernel waits at boot: garbage
     and bad checksums get a '-' (NAK) and the stub still answers; a read
     of the unmapped first page is an error packet, not a fault;
  2. gdb-multiarch -batch: a breakpoint on mutex_lock, continue; bt shows
     the test case that called it, p *lock its count, info threads the
     kernel's task names; at mutex_unlock, mx-ps and mx-locks show the
     test's task and the mutex it holds; then gdb disconnects, leaving
     the kernel stopped there;
  3. gdb-multiarch -batch again, stepping: next and finish in
     __mutex_unlock_slowpath, and on ARM 50 stepi from _spin_lock's ldrex
     (and from scheduler_tick's "beq out; b retry" one) must leave its
     retry loop, and from a breakpoint on irq_exit stepi must go out of
     the interrupt, and (x86) a stepi that writes a
     watched jiffies stops in the tick after the write, and (x86, ARM) a
     stepi into kgdb_sync_hw_breakpoints and 4 more stop (gdb_checks.py);
     gdb disconnects; then once more
     with watchpoints (watch, rwatch, hbreak, awatch) on a variable a
     test writes on CPU 0 and on CPU 1 (kgdb_test.c), or on an arch
     whose stub has none, gdb's message that it cannot; and two stops,
     each held a while, in a call made with a spinlock held that another
     CPU spins on, parked and then with interrupts off: the case
     (kgdb_test.c) fails if the spinlock lockup check counted gdb's time;
     a third in which that CPU parks only after it saw the stop begin;
     and a stepi of CPU 0's local_irq_enable() with a tick waiting,
     which must not run the tick (jiffies stays);
  4. the raw client: 'c', once the kernel runs its last case (which keeps
     it busy until step 5 lets it end) a break (0x03), T02, and it leaves
     the kernel stopped; gdb attached there: bt goes through <signal handler
     called> into the interrupted code, and the tasks' backtraces end
     at task_entry (or the boot code) without junk, and stepi goes out of
     the tick the break stopped in; gdb disconnects;
  5. the raw client again: 'c', and right after its ack a break (0x03)
     stops the running kernel with SIGINT (T02); the last case is let go,
     'D' detaches and the run goes on to its end, whose KTAP result
     arrives on the console and is judged like any other.
Then a second boot halted under QEMU's own stub runs the helpers there
(on ARM also mx-current on a core the kernel never started: an error).
An arch without a port for the kernel's stub (ARCH_KGDB_PORT none) has
that second boot alone, after a boot of the same cases without kgdb.
On riscv, whose stub shares the console's line, a boot to the prompt
with kgdb: gdb attaches there, breaks in there, and stops on
breakpoints on the UART's code in the middle of a console line (each
packet must reach it through portsplit.py), then the console still
takes a line.
Last, the stub under stress, in a boot of its own at 2 and at 4 CPUs
(kgdbwait test=kgdb.*), all with the raw client: reads of PacketSize/2
bytes and one more (an error reply), no breakpoint in the trap path and
the stop (every __kgdb_nobreak function, kgdb_stop), a breakpoint on udelay, one on
ktime_get_ns (the stub re-enters and recovers), ROUNDS rounds of
breakpoint, continue and break (one stop each, the right signal), a step
with a break (SIGINT) and one without (SIGTRAP), a step of a thread that
did not stop (an error reply), a break between packets (the next step
stops at once, SIGINT), every CPU reporting at
once under kgdb.on_bug=1 (a stop each), and a break while CPU 0 spins
with interrupts off (its thread's registers unavailable, 'xx', not an
error).
"""

import os
import re
import socket
import subprocess
import sys
import tempfile
import threading
import time

from . import build
from . import gdb as qemu_gdb
from . import qemu

CPUS = 2
# The last case (tests/kgdb_test.c) keeps the kernel running until the
# last break is in: a run that ended meanwhile would leave it unanswered.
APPEND = ("test=mutex.*,kgdb.watched_by_gdb,kgdb.spinners_while_stopped,"
          "kgdb.unmask_stepped,kgdb.busy_until_released kgdbwait "
          "expect_cpus=2 hung_task_timeout=0")
# The same boot for an arch without a port for the stub.
NO_STUB_APPEND = "test=mutex.* expect_cpus=2 hung_task_timeout=0"
# kgdb_test.c's values of its cases' variables.
CHECK_HERE, RELEASE = 1, 3
BUSY = b"kgdb_test: busy on"
STEP_SECS = 60          # for one reply, or one gdb run
HELPERS = qemu_gdb.HELPERS


class RspError(Exception):
    """The stub said something the protocol does not allow, or nothing."""


def checksum(body):
    """The protocol's checksum: the sum of the body's bytes, modulo 256."""
    return sum(body) & 0xFF


def frame(body):
    """A packet: $body#cc."""
    return b"$" + body + b"#%02x" % checksum(body)


class Rsp:
    """A GDB remote serial protocol client over a socket, acks on."""

    def __init__(self, sock):
        self.sock = sock
        self.pending = b""

    def _byte(self):
        if not self.pending:
            chunk = self.sock.recv(4096)
            if not chunk:
                raise RspError("the stub's port closed")
            self.pending = chunk
        b, self.pending = self.pending[:1], self.pending[1:]
        return b

    def send_raw(self, data):
        self.sock.sendall(data)

    def ack(self):
        """The stub's '+' or '-' for what we sent."""
        while True:
            b = self._byte()
            if b in (b"+", b"-"):
                return b
            raise RspError(f"expected an ack, got {b!r}")

    def packet(self):
        """The next packet's body, its checksum checked, acknowledged."""
        while self._byte() != b"$":
            pass
        body = b""
        while (b := self._byte()) != b"#":
            body += b
        sent = self._byte() + self._byte()
        if int(sent, 16) != checksum(body):
            raise RspError(f"bad checksum {sent!r} on {body!r}")
        self.send_raw(b"+")
        return body

    def request(self, body, resend=0):
        """Send body, insist on its '+' (after at most resend '-'), and
        return the reply's body."""
        for _ in range(resend + 1):
            self.send_raw(frame(body))
            if self.ack() == b"+":
                return self.packet()
        raise RspError(f"{body!r} was refused with '-'")


def stub_serial(port):
    """QEMU's -serial for the stub's port: a socket that sends each byte
    at once (nodelay), or every reply would wait for the last one's ack."""
    return f"tcp:127.0.0.1:{port},server=on,wait=off,nodelay=on"


PORTSPLIT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "portsplit.py")


def with_stub_port(arch, argv, port):
    """argv (QEMU, console on stdio) with the stub's port on 127.0.0.1:port:
    QEMU's second -serial, or (a stub sharing the console's line) argv
    run under portsplit.py, which serves gdb's side of the line there."""
    if arch.kgdb_port == "console":
        return [sys.executable, PORTSPLIT, str(port), "--", *argv]
    return argv + ["-serial", stub_serial(port)]


def connect(port, proc, timeout=STEP_SECS):
    """A connection to QEMU's socket for the stub's port, once it listens."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc is not None and proc.poll() is not None:
            raise RspError("QEMU ended before its serial port listened")
        try:
            sock = socket.create_connection(("127.0.0.1", port), timeout=timeout)
            sock.settimeout(timeout)
            # Small packets and acks both ways: no Nagle wait for each.
            sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            return sock
        except OSError:
            time.sleep(0.1)
    raise RspError(f"nothing listened on port {port} within {timeout}s")


def check_line(rsp):
    """Garbage and bad checksums are refused; the stub still answers."""
    problems = []
    # As gdb does: the first '$' may reach a kernel still on its way to
    # kgdbwait; its tick stops it then, and asks for the packet again.
    rsp.request(b"?", resend=3)
    rsp.send_raw(b"garbage \x00\xff between packets+")
    for bad in (b"$?#00", b"$?#zz", b"$g#66"):
        rsp.send_raw(bad)
        if rsp.ack() != b"-":
            problems.append(f"{bad!r} (bad checksum) got no '-'")
    reply = rsp.request(b"?")
    if not re.match(rb"T05thread:[0-9a-f]+;$", reply):
        problems.append(f"'?' after the garbage: {reply!r}, not a T05 stop reply")
    reply = rsp.request(b"m0,4")
    if not re.match(rb"E[0-9a-f]{2}$", reply):
        problems.append(f"reading address 0 (unmapped): {reply!r}, not an error packet")
    return problems


def break_in(rsp, running):
    """'c', and once running() returns, a break (0x03): the problems, none
    when the break stopped the kernel (T02)."""
    rsp.send_raw(frame(b"c"))
    if rsp.ack() != b"+":
        return ["'c' (continue) was refused"]
    running()
    rsp.send_raw(b"\x03")
    try:
        reply = rsp.packet()
    except (RspError, OSError) as e:
        return [f"the break (0x03) did not stop the running kernel ({e})"]
    if not reply.startswith(b"T02"):
        return [f"after a break (0x03), the stop reply was {reply!r}, not T02"]
    return []


def check_break(rsp, busy_addr):
    """Where the backtrace check left the kernel: 'c', and right after its
    ack a break (0x03) stops it (T02); its last case is let go, and 'D'
    lets it run to the end of its tests."""
    problems = break_in(rsp, lambda: None)
    if problems:
        return problems
    problems = set_int(rsp, busy_addr, RELEASE)
    if problems:
        return problems
    reply = rsp.request(b"D")
    if reply != b"OK":
        return [f"'D' (detach) got {reply!r}, not OK"]
    return []


def gdb_argv(arch, symbols, port, commands):
    argv = ["gdb-multiarch", "-q", "-nx", "-batch",
            *qemu_gdb.kernel_stub_setup(arch), "-ex", f"file {symbols}",
            "-ex", f"source {HELPERS}", "-ex", f"target remote 127.0.0.1:{port}"]
    for command in commands:
        argv += ["-ex", command]
    return argv


# gdb against the kernel's stub: each command, and what its output must show.
KERNEL_STUB_SESSION = [
    ("break mutex_lock", None),
    ("continue", r"hit Breakpoint 1, mutex_lock \(lock="),
    ("bt", r"#1 .* in api_contract \(.*\) at tests/mutex_test\.c:\d+"),
    ("p lock->count.counter", r"\$1 = 1\b"),
    ("p *lock", r"count = 1 \(unlocked\)"),
    ("info threads", r"swapper/0.*\n(.*\n)*.*khungtaskd(.*\n)*.*kunit/api_contr"),
    ("delete", None),
    ("break mutex_unlock", None),
    ("continue", r"hit Breakpoint 2, mutex_unlock"),
    ("mx-ps", r"PID S CPU NAME(.*\n)*\s+\d+ R\s+\d kunit/api_contr"),
    ("mx-locks", r"held by kunit/api_contr/\d+, taken at api_contract\+\d+ "
                 r"\(tests/mutex_test\.c:\d+\)\n1 mutex held"),
    ("delete", None),
    ("disconnect", None),
]

# gdb against QEMU's stub, halted at reset: the helpers once tasks exist.
QEMU_STUB_SESSION = [
    ("break mutex_unlock", None),
    ("continue", r"Breakpoint 1, mutex_unlock"),
    ("mx-ps", r"PID S CPU NAME(.*\n)*.*kunit/api_contr"),
    ("mx-locks", r"held by kunit/api_contr/\d+, taken at api_contract\+"),
    ("mx-current", r"pid \d+ kunit/api_contr"),
    ("mx-dmesg", r"MutexOS on "),
    ("p *lock", r"count = 0 \(locked\), owner kunit/api_contr"),
]
# raspi2b has 4 cores whatever the CPU count: at 2 CPUs, QEMU's thread 4
# is a core the kernel never started (its task once showed at 0x0).
QEMU_STUB_OFFLINE_CPU = [
    ("thread 4", None),
    ("mx-current", r"mx-current: sp 0x[0-9a-f]+ is on no task's stack"),
]


def qemu_stub_session(arch):
    """The helpers under QEMU's stub for arch, ending with QEMU killed."""
    extra = QEMU_STUB_OFFLINE_CPU if arch.name == "arm" else []
    return QEMU_STUB_SESSION + extra + [("kill", None)]

# Steps on the kernel's stub: next and finish in the unlock slowpath (a
# contended unlock wakes a waiter but never sleeps; the debug build enters
# the lock slowpath only for a held lock, and sleeps there), and (ARM)
# stepi through a spinlock's ldrex..strex, which the stub runs as one step.
CHECKS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "gdb_checks.py")
EXCLUSIVE_STEPS = 50
STEP_SESSION = [
    (f"source {CHECKS}", None),
    ("break __mutex_unlock_slowpath", None),
    ("continue", r"hit Breakpoint \d+, __mutex_unlock_slowpath"),
    # Before stepping: another task's unlock would stop a step there.
    ("delete", None),
    ("next", r"\A\d+\t"),
    ("next", r"\A\d+\t"),
    # Back in mutex_unlock, in the fastpath inlined there, which called it.
    ("finish", r"(0x[0-9a-f]+ in )?(__mutex_fastpath_unlock|mutex_unlock) \(.*\) at "),
    # In the test's task, interrupts on: no tick inside a step.
    ("mx-check-step-no-tick 10", r"mx-step-tick: 10 stepi, no tick inside one"),
]
# scheduler_tick's second sequence ends "beq out; b retry": once stepped
# one instruction at a time for ever. vsnprintf's third switch table is
# its conversions' ('X' to 'x'), which the tests' printk runs.
STEP_SESSION_ARM = [
    (f"mx-check-step-exclusive _spin_lock {EXCLUSIVE_STEPS}",
     r"mx-step: past the strex at 0x[0-9a-f]+ after \d+ stepi"),
    (f"mx-check-step-exclusive scheduler_tick {EXCLUSIVE_STEPS} b",
     r"mx-step: past the strex at 0x[0-9a-f]+ after \d+ stepi"),
    # Once an E16: a blx into libgcc's Thumb code (every ktime_get_ns),
    # and a switch table's ldrls pc, [pc, rX, lsl #2].
    ("mx-check-step-at arch_clock_ns blx", r"mx-step-at: stepped blx at"),
    ("mx-check-step-at vsnprintf ldrls 3", r"mx-step-at: stepped ldrls at"),
]

# A step that writes a watched variable stops after the write, in the
# writer (the tick keeps jiffies on CPU 0): on x86 under QEMU it once
# stopped in the debug trap's entry, and the next continue panicked.
STEP_WATCHED = ("mx-check-step-watched timer_interrupt jiffies 40",
                r"mx-step-watched: the step that wrote jiffies stopped at "
                r"0x[0-9a-f]+ in timer_interrupt")
# Where it runs: on ARM (watchpoints before the access) its steps found
# no write in 20 entries of the tick, not yet looked into.
STEP_WATCHED_ARCHES = ("i386", "x86_64")

# Steps into the code that loads gdb's hardware breakpoints, which the
# tick calls (kgdb_poll_break): the stop runs it too, and on ARM it did
# so after the step's breakpoint had gone in there, trapped on it and
# hung (the fuzzer's stepi from the tick). An arch without hardware
# breakpoints has no such call.
STEP_INTO = ("mx-check-step-into kgdb_poll_break kgdb_sync_hw_breakpoints 4",
             r"mx-step-into: into kgdb_sync_hw_breakpoints from kgdb_poll_break")

# Out of an interrupt, one stepi at a time, from its last function: the
# exception return (iret, sret, rfe, ldm ... pc^) stepped, with the
# stepping CPU's interrupts off until the code it returns to has its own.
STEP_OUT_STEPS = 400
STEP_OUT = (f"mx-check-step-out {STEP_OUT_STEPS}",
            r"mx-step-out: out of the interrupt after \d+ stepi")
STEP_OUT_SESSION = [
    ("break irq_exit", None),
    ("continue", r"hit Breakpoint \d+, irq_exit"),
    ("delete", None),
    STEP_OUT,
]

# Hardware watchpoints and breakpoints (tests/kgdb_test.c, watched_by_gdb),
# set while the kernel is stopped in the step checks: a write on CPU 0,
# one on CPU 1 (each stop in the writer's thread, with the old and new
# value), a read, a call, a write seen by an access watchpoint. On an
# arch whose stub has none, gdb must say it cannot insert them, and the
# kernel runs on.
WATCHED = "kgdb_test_watched"
# Then a call CPU 1 makes 40 times, n = 1 to 40, storing n in WATCHED,
# while CPU 0 holds the stub's port over and over, as its tick does:
# an hbreak must stop at the first 20 calls, then a watch at the stores
# of 20 to 40 (on riscv a break at all 40 calls). On x86 a hit that came while the
# port was held was lost.
POLLED_HIT = "kgdb_test_polled_hit"


def polled_hits(expr, first, last):
    return (f"mx-check-hits {POLLED_HIT} {expr} {first} {last}",
            rf"mx-hits: {expr} = {first} to {last} in {POLLED_HIT}, none lost")



WATCH_SESSION = [
    (f"source {CHECKS}", None),
    (f"watch {WATCHED}", r"Hardware watchpoint \d+: " + WATCHED),
    ("continue", r"Hardware watchpoint \d+: " + WATCHED +
                 r"\s+Old value = 41\s+New value = 42"),
    ("mx-current", r"kgdb-watch/0 CPU 0"),
    ("continue", r"Old value = 42\s+New value = 43"),
    ("mx-current", r"kgdb-watch/1 CPU 1"),
    ("delete", None),
    # Both set at one stop: the read stops, then the call (a hit lost
    # while another CPU's tick held the port once failed this on i386:
    # POLLED_HIT below attacks that on purpose).
    (f"rwatch {WATCHED}", None),
    ("hbreak kgdb_test_watch_here", None),
    ("continue", r"Hardware read watchpoint \d+: " + WATCHED + r"\s+Value = 43"),
    # gdb calls a hardware breakpoint's hit "Breakpoint".
    ("continue", r"hit Breakpoint \d+, kgdb_test_watch_here \(value=(value@entry=)?44\)"),
    ("delete", None),
    (f"awatch {WATCHED}", None),
    ("continue", r"Hardware access \(read/write\) watchpoint \d+: " + WATCHED +
                 r"\s+Old value = 43\s+New value = 44"),
    ("delete", None),
    ("hbreak " + POLLED_HIT, None),
    polled_hits("n", 1, 20),
    ("delete", None),
    (f"watch {WATCHED}", None),
    polled_hits(WATCHED, 20, 40),
    ("delete", None),
]
WATCH_SESSION_NONE = [
    (f"source {CHECKS}", None),
    (f"watch {WATCHED}", None),
    ("continue", r"Could not insert hardware watchpoint"),
    ("delete", None),
    ("hbreak kgdb_test_watch_here", None),
    ("continue", r"(Cannot|Could not) insert hardware breakpoint"),
    ("delete", None),
    ("break " + POLLED_HIT, None),
    polled_hits("n", 1, 40),
    ("delete", None),
]
# Then (tests/kgdb_test.c, spinners_while_stopped) three stops in a
# call CPU 0 makes with a spinlock held that CPU 1 spins on: first with
# its interrupts on (the stop parks it), then off (it misses the stop).
# gdb keeps each of those stops longer than the case's lowered lockup
# limit, which the case checks does not count gdb's time (a lockup was
# reported on x86_64 after a long stop of the fuzzer's). In the third,
# CPU 1 parks only after it has seen the stop begin (a lockup CI saw).
HOLDER_STOPS = "kgdb_test_holder_stops"
STOP_HELD_SECS = 3      # twice the case's lockup limit


def holder_stops(how):
    """A continue that must stop at the holder's call in the round named
    how (enum kgdb_test_spinner)."""
    return ("continue", rf"hit Breakpoint \d+, {HOLDER_STOPS} "
                        rf"\(how=(how@entry=)?{how}\)")


# In the first stop CPU 1 is parked the whole time: it sleeps (wfi, or
# hlt on x86) until gdb resumes, and fewer than 100 of its waits end; a
# parked CPU that spun took a whole host CPU, and made millions.
PARK_WAKEUPS = ("p kgdb_park_wakeups", r"\$\d+ = \d{1,2}$")
STOPPED_SPINNERS = [
    ("break " + HOLDER_STOPS, None),
    holder_stops("SPINNER_PARKED"),
    (f"shell sleep {STOP_HELD_SECS}", None),
    PARK_WAKEUPS,
    holder_stops("SPINNER_MISSES_STOP"),
    (f"shell sleep {STOP_HELD_SECS}", None),
    holder_stops("SPINNER_PARKS_LATE"),
    ("delete", None),
]
# Then (unmask_stepped) a stepi of the instruction that turns CPU 0's
# interrupts back on while a tick waits: the tick runs after the step,
# not inside it (on arm and riscv it ran inside, and a step out of an
# idle CPU's tick went round the scheduler for ever).
UNMASK_AT = "kgdb_test_unmask_at"
UNMASK_STEP = [
    (f"break *{UNMASK_AT}", None),
    ("continue", rf"hit Breakpoint \d+, (0x[0-9a-f]+ in )?"
                 rf"(arch_local_irq_enable|unmask_at_label|{UNMASK_AT}) "),
    ("set $ticks = jiffies", None),
    ("stepi", None),
    ("p jiffies - $ticks", r"\$\d+ = 0\b"),
    ("delete", None),
]


def watch_session(arch):
    """The watchpoint checks for arch, its stub's watchpoints
    (ARCH_KGDB_WATCHPOINTS) or gdb's message that it has none, then the
    long stops with a spinner and the step of an unmask, ending with gdb
    disconnected."""
    watches = WATCH_SESSION if arch.kgdb_watchpoints else WATCH_SESSION_NONE
    return watches + STOPPED_SPINNERS + UNMASK_STEP + [("disconnect", None)]


# After a break (0x03): every task's backtrace, and the stopped one's.
# The idle tasks (gdb's threads 1 and 2), khungtaskd, init and a test's
# task cover every kind of stack; their arguments are not read: each read
# crosses the serial line, and on a loaded host a whole list takes minutes.
# Then, from that stop (always inside the tick), out of the interrupt.
BREAK_SESSION = [("mx-current", None), ("bt", None),
                 ("set print frame-arguments none", None),
                 ("thread apply 1-5 bt", None), (f"source {CHECKS}", None),
                 STEP_OUT, ("disconnect", None)]
# For a gdb run of the stepping checks or the one after the break.
LONG_GDB_SECS = STEP_SECS * 4
# Where a task's backtrace ends: its first function, or (a task that has
# not run yet) where its first context switch goes. An idle task's
# (swapper/N) ends in the boot code of its CPU.
OUTERMOST = ("task_entry", "ret_from_fork")
IDLE = re.compile(r"\bswapper/\d+\b")
FRAME = re.compile(r"^#(\d+)\s+(?:0x[0-9a-f]+ in )?(\S+)", re.M)
JUNK = ("??", "Backtrace stopped", "previous frame identical", "corrupt stack")


def step_session(arch):
    """The stepping checks for arch, ending with gdb disconnected."""
    extra = STEP_SESSION_ARM if arch.name == "arm" else []
    if arch.name in STEP_WATCHED_ARCHES:
        extra = extra + [STEP_WATCHED]
    if arch.kgdb_watchpoints:
        extra = extra + [STEP_INTO]
    return STEP_SESSION + extra + STEP_OUT_SESSION + [("disconnect", None)]


def backtrace_problems(text, interrupted):
    """What is wrong with one backtrace: junk, a task's that does not end
    at its first function, and (interrupted) no frame past the interrupt."""
    names = [name for _, name in FRAME.findall(text)]
    junk = [j for j in JUNK if j in text]
    if junk or not names:
        return [f"junk in it ({', '.join(junk) or 'no frames'})"]
    problems = []
    if names[-1] not in OUTERMOST and not IDLE.search(text):
        problems.append(f"it ends at {names[-1]}, not at {' or '.join(OUTERMOST)}")
    below = names[names.index("<signal") + 1:] if "<signal" in names else []
    if interrupted and not below:
        problems.append("it does not reach the interrupted code "
                        "(no frame below <signal handler called>)")
    return problems


def check_break_backtrace(rsp, running, run_gdb_session):
    """'c', and once running() returns, a break (0x03), and gdb attached
    there: bt goes through the interrupt the break came in by, into the
    interrupted function and on to its task's first function; every
    task's backtrace ends cleanly. The raw client leaves without 'D', so
    the kernel stays stopped."""
    problems = break_in(rsp, running)
    if problems:
        return problems
    rsp.sock.close()
    out, problems = run_gdb_session(BREAK_SESSION)
    parts = split_session(out)
    for why in backtrace_problems(parts.get(0, "") + parts.get(1, ""), True):
        problems.append(f"bt after a break: {why}")
    for thread in re.split(r"(?m)^Thread ", parts.get(3, ""))[1:]:
        for why in backtrace_problems(thread, False):
            problems.append(f"thread apply 1-5 bt: thread {thread.split(' (')[0]}: {why}")
    return problems


MARK = "=== mx-check: "


def run_gdb(arch, symbols, port, session, root, timeout=STEP_SECS * 2):
    """Run session in gdb; the problems: each output that lacks its pattern."""
    commands = []
    for i, (command, _) in enumerate(session):
        commands += [f"echo {MARK}{i}\\n", command]
    try:
        out = subprocess.run(gdb_argv(arch, symbols, port, commands), cwd=root,
                             stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                             stderr=subprocess.STDOUT,
                             text=True, timeout=timeout).stdout
    except subprocess.TimeoutExpired as e:
        out = (e.stdout or b"").decode("utf-8", "replace")
        return out, [f"gdb did not finish within {timeout}s"]
    return out, match_session(out, session)


def split_session(out):
    """Each command's output, by its index in the session."""
    parts = re.split(re.escape(MARK) + r"(\d+)\n", out)
    return {int(parts[i]): parts[i + 1] for i in range(1, len(parts) - 1, 2)}


def match_session(out, session):
    """Each command's output (between the marks) against its pattern."""
    outputs = split_session(out)
    problems = []
    for i, (command, pattern) in enumerate(session):
        if pattern is None:
            continue
        text = outputs.get(i)
        if text is None:
            problems.append(f"gdb: '{command}' never ran")
        elif not re.search(pattern, text):
            last = text.strip().splitlines()[-1:] or ["(nothing)"]
            problems.append(f"gdb: '{command}' printed no match for /{pattern}/: "
                            f"{last[0]}")
    return problems


WAITING = b"kgdb: waiting for gdb"
# A case has ended: the kernel runs on.


def wait_for_line(path, line, proc, timeout=STEP_SECS, after=0):
    """Until the serial log at path holds line past offset after (the
    kernel got there)."""
    deadline = time.monotonic() + timeout
    while True:
        ended = proc.poll() is not None     # then its last words are in
        with open(path, "rb") as f:
            f.seek(after)
            if line in f.read():
                return
        if ended or time.monotonic() > deadline:
            break
        time.sleep(0.05)
    raise RspError(f"the console never said '{line.decode()}'")


def _drive_kernel_stub(root, arch, symbols, port, problems, outputs, proc, log_path):
    """The raw checks, gdb, the break; problems collects what failed.

    Nothing is sent before the kernel waits for gdb: opening its port
    empties the port's FIFO. On a failure the kernel may sit in the stub
    for ever: QEMU is killed.
    """
    try:
        wait_for_line(log_path, WAITING, proc)
        addrs = symbol_addresses(arch, symbols, ("kgdb_test_busy", "kgdb_test_watch",
                                                 "kgdb_test_spinners",
                                                 "kgdb_test_unmask"))
        busy_addr = addrs["kgdb_test_busy"]
        with connect(port, None) as sock:
            rsp = Rsp(sock)
            problems += check_line(rsp)
            problems += set_int(rsp, busy_addr, CHECK_HERE)
            problems += set_int(rsp, addrs["kgdb_test_watch"], CHECK_HERE)
            problems += set_int(rsp, addrs["kgdb_test_spinners"], CHECK_HERE)
            problems += set_int(rsp, addrs["kgdb_test_unmask"], CHECK_HERE)
        out, found = run_gdb(arch, symbols, port, KERNEL_STUB_SESSION, root)
        outputs.append(("gdb on the kernel's stub", out))
        problems += found
        out, found = run_gdb(arch, symbols, port, step_session(arch), root,
                             LONG_GDB_SECS)
        outputs.append(("gdb stepping on the kernel's stub", out))
        problems += found
        problems += check_watchpoints(arch, symbols, port, root, outputs)
        with connect(port, proc) as sock:
            problems += check_break_backtrace(Rsp(sock), lambda: wait_for_line(
                log_path, BUSY, proc, timeout=LONG_GDB_SECS), lambda session:
                _gdb_after_break(arch, symbols, port, session, root, outputs))
        with connect(port, proc) as sock:
            problems += check_break(Rsp(sock), busy_addr)
    except (RspError, OSError) as e:
        problems.append(f"kernel stub: {e}")
    if problems:
        qemu.kill_group(proc)


def check_watchpoints(arch, symbols, port, root, outputs):
    """gdb's watchpoints and hardware breakpoints, from where the step
    checks left the kernel (watch_session): the problems."""
    out, problems = run_gdb(arch, symbols, port, watch_session(arch), root,
                            LONG_GDB_SECS)
    outputs.append(("gdb with watchpoints on the kernel's stub", out))
    return problems


def _gdb_after_break(arch, symbols, port, session, root, outputs):
    out, problems = run_gdb(arch, symbols, port, session, root, LONG_GDB_SECS)
    outputs.append(("gdb after a break", out))
    return out, problems


def _keep(log, what, text):
    log.write(f"\n--- {what} ---\n{text}\n".encode())
    log.flush()


def run(title, root, arch, folder, accel, timeout, log):
    """The check of one arch: a Result, with the gdb problems as reasons."""
    symbols = os.path.join(folder, arch.symbols)
    image = os.path.join(folder, arch.boot_image)
    if arch.kgdb_port == "none":
        return _run_without_stub(title, root, arch, image, symbols, accel,
                                 timeout, log)
    port = qemu_gdb.free_port()
    argv = with_stub_port(arch, qemu.command(arch, qemu.Boot(image, CPUS, APPEND),
                                             accel), port)
    problems, outputs, drivers = [], [], []

    def drive(proc):
        drivers.append(threading.Thread(
            target=_drive_kernel_stub, daemon=True,
            args=(root, arch, symbols, port, problems, outputs, proc, log.name)))
        drivers[0].start()

    result = qemu.boot(title, argv, arch, timeout, log, on_start=drive)
    for driver in drivers:
        driver.join(STEP_SECS)
    for what, text in outputs:      # after the serial output: no mix
        _keep(log, what, text)
    problems += helpers_on_qemu_stub(root, arch, image, symbols, accel, log)
    if arch.kgdb_port == "console":
        problems += shared_line_boot(arch, image, symbols, accel, log)
    for cpus in STRESS_CPUS:
        problems += stress_boot(arch, image, symbols, accel, cpus, log)
    for problem in reversed(problems):     # what gdb saw says most
        result.add_reason(problem, first=True)
    return result


def _run_without_stub(title, root, arch, image, symbols, accel, timeout, log):
    """The check of an arch without a port for the kernel's stub."""
    argv = qemu.command(arch, qemu.Boot(image, CPUS, NO_STUB_APPEND), accel)
    result = qemu.boot(title, argv, arch, timeout, log)
    for problem in reversed(helpers_on_qemu_stub(root, arch, image, symbols,
                                                 accel, log)):
        result.add_reason(problem, first=True)
    return result


def helpers_on_qemu_stub(root, arch, image, symbols, accel, log):
    """The helpers under QEMU's stub: the problems found."""
    port = qemu_gdb.free_port()
    argv = qemu.command(arch, qemu.Boot(image, CPUS, "test=mutex.api_contract"),
                        accel, gdb_port=port)
    with tempfile.TemporaryFile() as errors:
        proc = qemu.EMULATORS.start(argv, subprocess.DEVNULL, errors)
        if proc is None:
            return []
        try:
            why = qemu_gdb.wait_for_port(proc, port, errors)
            if why:
                return [f"QEMU's stub: {why}"]
            out, problems = run_gdb(arch, symbols, port, qemu_stub_session(arch), root)
            _keep(log, "gdb on QEMU's stub", out)
            return [f"QEMU's stub: {p}" for p in problems]
        finally:
            qemu_gdb.stop(proc)
            qemu.EMULATORS.forget(proc)


# ---- the stub under stress: a boot of its own at each STRESS_CPUS count ----

STRESS_CPUS = (2, 4)
# Its one test (tests/kgdb_test.c) sleeps until the checks ask it to
# spin on CPU 0 with interrupts off; the ticks run on every CPU meanwhile.
STRESS_APPEND = "kgdbwait kgdb.on_bug=1 test=kgdb.* hung_task_timeout=0"
ROUNDS = 200
# The stub's functions a breakpoint is put on: one the stub calls while
# gdb talks to it, one it calls before the text is clean (a re-entry),
# one every CPU's tick runs, and one to read memory from.
STRESS_SYMBOLS = ("udelay", "ktime_get_ns", "scheduler_tick", "start_kernel",
                  "kgdb_test_spin", "kgdb_test_reports", "arch_kgdb_io_getc")
SPINNING = b"kgdb_test: CPU 0 spins with interrupts off"
SPIN_ENDED = b"ok 2 cpu0_irqs_off"
REENTERED = b"kgdb: re-entered via breakpoint at ktime_get_ns, all breakpoints removed"


def symbol_addresses(arch, symbols, names):
    """{name: address} of names in the ELF symbols (nm)."""
    found = {name: address for address, _, name, _ in
             build.elf_symbols(f"{arch.cross}nm", symbols) if name in names}
    missing = [n for n in names if n not in found]
    if missing:
        raise RspError(f"{symbols} has no symbol {missing[0]}")
    return found


def breakpoint_packet(op, addr, arch):
    """Z0 or z0 at addr, with the breakpoint's kind (its length) as gdb sends."""
    return b"%s0,%x,%d" % (op, addr, arch.kgdb_break_kind)


def check_packet_size(rsp, addr):
    """The largest read gdb may ask for fills one packet; one byte more is
    refused with an error, not cut short."""
    reply = rsp.request(b"qSupported")
    m = re.search(rb"PacketSize=([0-9a-f]+)", reply)
    if not m:
        return [f"qSupported: {reply!r} names no PacketSize"]
    size = int(m.group(1), 16)
    most = size // 2
    reply = rsp.request(b"m%x,%x" % (addr, most))
    if not re.fullmatch(rb"[0-9a-f]{%d}" % size, reply):
        return [f"m of {most} bytes (PacketSize {size}): {len(reply)} characters "
                f"back ({reply[:16]!r}...), not {size} hex digits"]
    reply = rsp.request(b"m%x,%x" % (addr, most + 1))
    if not re.fullmatch(rb"E[0-9a-f]{2}", reply):
        return [f"m of {most + 1} bytes (more than PacketSize {size} holds): "
                f"{reply[:16]!r}, not an error reply"]
    return []


def stop_after(rsp, body, then=b"", after_ack=False):
    """Send body (c), and then in the same write or (after_ack) right
    after the stub's ack of body; the stop reply that follows."""
    rsp.send_raw(frame(body) + (b"" if after_ack else then))
    if rsp.ack() != b"+":
        raise RspError(f"{body!r} was refused")
    if after_ack:
        rsp.send_raw(then)
    return rsp.packet()


def check_udelay(rsp, addr, arch, console_has):
    """A breakpoint on udelay, which the stub calls while it waits for gdb's
    bytes: planting it is answered, and the stub goes on answering, never
    meeting it (the text is clean while gdb talks: no re-entry)."""
    reply = rsp.request(breakpoint_packet(b"Z", addr, arch))
    if reply != b"OK":
        return [f"Z0 at udelay: {reply!r}, not OK"]
    reply = stop_after(rsp, b"c", b"\x03")
    if not re.match(rb"T0[25]thread:", reply):
        return [f"with a breakpoint on udelay, c then a break: {reply!r}, not a stop reply"]
    for body in (b"?", b"g", breakpoint_packet(b"z", addr, arch)):
        if not rsp.request(body):
            return [f"with a breakpoint on udelay, {body!r} got an empty reply"]
    if console_has(b"re-entered via breakpoint at udelay"):
        return ["the stub ran into the breakpoint on udelay while gdb talked"]
    return []


# The stub's stop, by name: it runs before the text is clean and after
# the breakpoints are back (kgdb.c). Once, a breakpoint there re-entered
# the stop it was in, for ever.
STOP_PATH = ("kgdb_stop",)


def nobreak_functions(arch, symbols):
    """{name: address} of the functions gdb may plant no breakpoint in:
    those between __kgdb_nobreak_start and __kgdb_nobreak_end (nm -n),
    and the stop's (STOP_PATH), wherever they are."""
    out = subprocess.run([f"{arch.cross}nm", "-n", symbols], stdout=subprocess.PIPE,
                         stderr=subprocess.DEVNULL, text=True, check=True).stdout
    found, inside = {}, False
    for line in out.splitlines():
        parts = line.split()
        if len(parts) != 3:
            continue
        addr, kind, name = int(parts[0], 16), parts[1], parts[2]
        if name == "__kgdb_nobreak_start":
            inside = True
        elif name == "__kgdb_nobreak_end":
            inside = False
        elif kind in "tT" and (inside or name in STOP_PATH) and \
                not name.startswith("$"):
            found[name] = addr
    missing = [n for n in STOP_PATH if n not in found]
    if missing or len(found) == len(STOP_PATH):
        raise RspError(f"{symbols}: no __kgdb_nobreak functions or no {missing}")
    return found


# What code that takes no breakpoint (__kgdb_nobreak) may call outside
# it, and why a breakpoint there is harmless: the conversation with gdb
# and a step's end run with gdb's breakpoints out of the text; the
# kernel code the stop calls on its way in is survived by re-entry
# (kgdb_reentered); the interrupt and fault paths take breakpoints like
# any code. Anything else the trap path or the stop calls is a function
# that is missing from the section (break kgdb_stop once killed every arch).
NOBREAK_MAY_CALL = {
    "gdbstub_session", "arch_kgdb_io_getc", "cond_passes",
    "ktime_get_ns", "arch_send_ipi", "printk",
    "irq_enter", "irq_exit", "x86_handle_irq", "arm_handle_irq", "riscv_handle_irq",
    "oops_begin", "oops_end", "oops_bad_address", "x86_show_regs",
    "arch_dump_stack_from",
}
# A reference to a function's first instruction: a call, or a jump (a
# tail call); a branch within a function names an offset.
FUNCTION_REF = re.compile(r"<([\w.]+)>")


def nobreak_calls_out(arch, symbols):
    """The problems: calls and jumps from the __kgdb_nobreak section
    (objdump -d) to functions outside it that NOBREAK_MAY_CALL does not
    name."""
    out = subprocess.run([f"{arch.cross}nm", symbols], stdout=subprocess.PIPE,
                         stderr=subprocess.DEVNULL, text=True, check=True).stdout
    nm = [p for p in (line.split() for line in out.splitlines()) if len(p) == 3]
    bounds = {p[2]: p[0] for p in nm
              if p[2] in ("__kgdb_nobreak_start", "__kgdb_nobreak_end")}
    start, end = (int(bounds[b], 16) for b in ("__kgdb_nobreak_start",
                                                "__kgdb_nobreak_end"))
    outside = {p[2] for p in nm if p[1] in "tT" and not start <= int(p[0], 16) < end}
    text = subprocess.run([f"{arch.cross}objdump", "-d",
                           f"--start-address={start:#x}",
                           f"--stop-address={end:#x}", symbols],
                          stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
                          check=True).stdout
    called = (set(FUNCTION_REF.findall(text)) & outside) - NOBREAK_MAY_CALL
    return [f"the code that takes no breakpoint calls {name}, which may hold one "
            f"(add it to __kgdb_nobreak, or to NOBREAK_MAY_CALL with the reason)"
            for name in sorted(called)]


def check_no_breakpoint(rsp, functions, arch):
    """A breakpoint where the stub runs before it can tell a re-entry (the
    trap path, the stop itself) is refused: the kernel would trap there for
    ever. gdb then says it cannot insert it; the next check goes on."""
    problems = []
    for name, addr in sorted(functions.items()):
        reply = rsp.request(breakpoint_packet(b"Z", addr, arch))
        if not re.fullmatch(rb"E[0-9a-f]{2}", reply):
            problems.append(f"Z0 in {name}, where the stub stops: {reply!r}, "
                            "not an error reply")
            rsp.request(breakpoint_packet(b"z", addr, arch))
    return problems


def check_step_other_thread(rsp):
    """gdb's thread N, then stepi: vCont;s:N;c (or Hc N, then s) for a
    thread that is not the stopped one gets an error reply, which gdb
    shows, and the kernel stays stopped where it was: the stub steps the
    CPU that trapped, never another thread in its name."""
    stopped = re.match(rb"T..thread:([0-9a-f]+);", rsp.request(b"?"))
    tids = thread_ids(rsp)
    others = [t for t in tids if stopped and t != stopped.group(1)]
    if not others:
        return [f"no thread but the stopped one to step ({tids})"]
    problems = []
    for body in (b"vCont;s:%s;c" % others[0], b"Hc%s" % others[0], b"s"):
        reply = rsp.request(body)
        if body.startswith(b"H"):
            continue
        if not re.fullmatch(rb"E[0-9a-f]{2}", reply):
            problems.append(f"a step of thread {others[0].decode()}, not the "
                            f"stopped one: {body!r} got {reply!r}, not an error")
    rsp.request(b"Hc0")
    reply = rsp.request(b"?")
    if not reply.startswith(b"T") or b"thread:" + stopped.group(1) not in reply:
        problems.append(f"after the refused steps, '?' got {reply!r}")
    return problems


def check_break_between_steps(rsp):
    """A break (0x03) that comes between two packets, as Ctrl-C during a
    long next does between its steps: the next step stops at once with
    SIGINT (T02), and one more steps as usual (T05)."""
    rsp.send_raw(b"\x03")
    rsp.request(b"?")
    reply = rsp.request(b"s")
    if not reply.startswith(b"T02"):
        return [f"a break between packets, then 's': {reply!r}, not T02"]
    reply = rsp.request(b"s")
    if not reply.startswith(b"T05"):
        return [f"'s' after the break's stop: {reply!r}, not T05"]
    return []


def check_port_breakpoint(rsp, addr, arch, console_has):
    """A breakpoint on the stub's port code, which every tick's poll runs
    while the kernel runs: 'c' and a break sent at once stop at it (T05,
    the pc there), no re-entry, before the poll could read the break."""
    if rsp.request(breakpoint_packet(b"Z", addr, arch)) != b"OK":
        return ["Z0 at arch_kgdb_io_getc was refused"]
    reply = stop_after(rsp, b"c", b"\x03")
    if not reply.startswith(b"T05") or stopped_pc(rsp, arch) != addr:
        return [f"with a breakpoint on arch_kgdb_io_getc: {reply!r}, not T05 there"]
    if console_has(b"re-entered via breakpoint at arch_kgdb_io_getc"):
        return ["the poll of the port took the breakpoint on it for a re-entry"]
    if rsp.request(breakpoint_packet(b"z", addr, arch)) != b"OK":
        return ["z0 at arch_kgdb_io_getc was refused"]
    return []


def check_reentry(rsp, addr, arch, console):
    """A breakpoint on ktime_get_ns, which the stub calls before it takes
    the breakpoints out: the stop is reported, the console says the stub
    re-entered, and the session goes on (z0 for it is OK)."""
    if rsp.request(breakpoint_packet(b"Z", addr, arch)) != b"OK":
        return ["Z0 at ktime_get_ns was refused"]
    try:
        reply = stop_after(rsp, b"c")
    except (RspError, OSError) as e:
        return [f"no stop reply at ktime_get_ns, which the stub calls ({e})"]
    if not reply.startswith(b"T05"):
        return [f"at ktime_get_ns: {reply!r}, not a T05 stop reply"]
    console(REENTERED)
    if not rsp.request(b"g"):
        return ["after the re-entry, 'g' got an empty reply"]
    reply = rsp.request(breakpoint_packet(b"z", addr, arch))
    if reply != b"OK":
        return [f"after the re-entry, z0 at ktime_get_ns: {reply!r}, not OK"]
    return []


def stopped_pc(rsp, arch):
    """The pc of the thread that stopped, from its 'p' reply."""
    number, size = arch.kgdb_pc
    reply = rsp.request(b"p%x" % number)
    if not re.fullmatch(rb"[0-9a-f]{%d}" % (2 * size), reply):
        raise RspError(f"'p' of the pc: {reply!r}")
    return int.from_bytes(bytes.fromhex(reply.decode()), "little")


def check_rounds(rsp, targets, arch, kinds, rounds=ROUNDS):
    """rounds of: a breakpoint, 'c' and a break, sent in one write or
    (every other round) the break right after the ack of 'c', while the
    stub is letting the kernel go. Each round must stop exactly once: T05 at the breakpoint (its pc there) or T02
    for the break (its pc elsewhere), whichever came first; the other may
    not be lost nor stop it twice. The breakpoint is on each of targets in
    turn: one that every tick runs (mostly first) and one that the running
    kernel never calls (the break comes first). kinds counts the stops."""
    for i in range(rounds):
        addr = targets[i % len(targets)]
        if rsp.request(breakpoint_packet(b"Z", addr, arch)) != b"OK":
            return [f"round {i}: Z0 refused"]
        reply = stop_after(rsp, b"c", b"\x03", after_ack=i % 2 == 1)
        kind = reply[:3]
        if kind not in (b"T05", b"T02") or not reply[3:].startswith(b"thread:"):
            return [f"round {i}: {reply!r}, not a T05 or T02 stop reply"]
        kinds[kind] = kinds.get(kind, 0) + 1
        at_breakpoint = stopped_pc(rsp, arch) == addr
        if at_breakpoint != (kind == b"T05"):
            return [f"round {i}: a {kind.decode()} stop with the pc "
                    f"{'at' if at_breakpoint else 'away from'} the breakpoint"]
        if rsp.request(breakpoint_packet(b"z", addr, arch)) != b"OK":
            return [f"round {i}: z0 refused"]
    # A stop the rounds did not see would answer this '?' first.
    reply = rsp.request(b"?")
    if not re.match(rb"T0[25]thread:[0-9a-f]+;$", reply):
        return [f"after {rounds} rounds, '?' got {reply!r}"]
    return []


def check_step_break(rsp):
    """A step with a break (0x03) in the same write stops with SIGINT
    (T02): the break came while the step ran, and gdb must end its next
    there; a step alone stops with SIGTRAP (T05), and only once."""
    reply = stop_after(rsp, b"s", b"\x03")
    if not reply.startswith(b"T02"):
        return [f"'s' and a break in one write: {reply!r}, not T02"]
    reply = rsp.request(b"s")
    if not reply.startswith(b"T05"):
        return [f"'s' alone after it: {reply!r}, not T05"]
    reply = rsp.request(b"?")
    if not reply.startswith(b"T05"):
        return [f"'?' after the steps: {reply!r}, not the step's T05"]
    return []


def wait_for_reporters(rsp, timeout=STEP_SECS):
    """Until every reporting thread is held by the stop: they report with
    interrupts off, so each was held by its trap at the report's end."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        infos = [t for t in thread_infos(rsp) if t.startswith("kgdb-warn/")]
        if infos and not any("not stopped" in t for t in infos):
            return True
        time.sleep(0.2)
    return False


def check_reports(rsp, addr, cpus):
    """kgdb.on_bug=1, and every CPU warns at once (kgdb_test.c at GO = 2):
    one stop (T05) for each report, each in another thread. A stop lost
    would leave 'c' waiting here; one too many, the next check's break."""
    problems = set_int(rsp, addr, 2)
    threads = set()
    for i in range(cpus):
        reply = stop_after(rsp, b"c")
        if not reply.startswith(b"T05thread:"):
            return problems + [f"report {i + 1} of {cpus}: {reply!r}, not a T05 stop"]
        threads.add(reply)
        if i == 0 and not wait_for_reporters(rsp):
            return problems + ["the other reporters never trapped in the first stop"]
    if len(threads) != cpus:
        problems.append(f"{cpus} reports at once stopped in {len(threads)} threads")
    return problems


def set_int(rsp, addr, value):
    """M: a 32-bit int at addr; the problems."""
    reply = rsp.request(b"M%x,4:%s" % (addr, value.to_bytes(4, "little").hex().encode()))
    return [] if reply == b"OK" else [f"M at {addr:#x}: {reply!r}, not OK"]


def thread_ids(rsp):
    """Every thread's id, as qfThreadInfo and qsThreadInfo list them."""
    tids, reply = [], rsp.request(b"qfThreadInfo")
    while reply.startswith(b"m"):
        tids += reply[1:].split(b",")
        reply = rsp.request(b"qsThreadInfo")
    return tids


def thread_infos(rsp, tids=None):
    """What info threads shows of each thread (of tids, default all):
    qThreadExtraInfo of each."""
    return [bytes.fromhex(rsp.request(b"qThreadExtraInfo," + tid).decode())
            .decode("utf-8", "replace") for tid in tids or thread_ids(rsp)]


def check_unstopped_registers(rsp, tid):
    """'g' and 'p' of thread tid, on a CPU that did not stop: every byte
    'xx', gdb's mark for a value it cannot have. An error reply (once
    E0b) ended gdb's whole info threads and bt: "Could not read
    registers"."""
    problems = []
    rsp.request(b"Hg" + tid)
    for body in (b"g", b"p0"):
        reply = rsp.request(body)
        if not re.fullmatch(rb"(xx)+", reply):
            problems.append(f"'{body.decode()}' of thread {tid.decode()}, on a CPU "
                            f"that did not stop: {reply[:16]!r}, not all 'xx'")
    rsp.request(b"Hg0")
    return problems


def check_irqs_off(rsp, addr, console):
    """CPU 0 spins with interrupts off (kgdb_test.c: kgdb_test_spin at
    addr, 1 when the checks began, 2 to spin, 3 to stop): a break still stops the kernel (T02, another CPU's tick took
    it), the spinning thread is listed, on CPU 0; then it is let go, gdb
    detaches, and the test passes."""
    problems = set_int(rsp, addr, 2) or break_in(rsp, lambda: console(SPINNING))
    if problems:
        return [f"CPU 0 spinning with interrupts off: {p}" for p in problems]
    tids = thread_ids(rsp)
    infos = thread_infos(rsp, tids)
    spinning = [t for t, i in zip(tids, infos) if re.match(r"kgdb-spin R on CPU 0\b", i)]
    if not spinning:
        problems.append(f"CPU 0's spinning thread is not listed on CPU 0: {infos}")
    else:
        problems += check_unstopped_registers(rsp, spinning[0])
    problems += set_int(rsp, addr, 3)
    if rsp.request(b"D") != b"OK":
        problems.append("'D' after the spin: not OK")
    console(SPIN_ENDED)
    return problems


def read_file(path):
    with open(path, "rb") as f:
        return f.read()


def _drive_stress(arch, symbols, port, console_path, proc, cpus, kinds, problems):
    """The stress checks on a kernel waiting at kgdbwait; problems collects
    what failed, also when a later check raises."""
    addrs = symbol_addresses(arch, symbols, STRESS_SYMBOLS)
    wait_for_line(console_path, WAITING, proc)
    with connect(port, proc) as sock:
        rsp = Rsp(sock)
        rsp.request(b"?", resend=3)
        # Before its tests start: the kernel's case waits for the checks.
        problems += set_int(rsp, addrs["kgdb_test_spin"], 1)
        problems += set_int(rsp, addrs["kgdb_test_reports"], 1)
        problems += check_packet_size(rsp, addrs["start_kernel"])
        nobreak = nobreak_functions(arch, symbols)
        problems += nobreak_calls_out(arch, symbols)
        problems += check_no_breakpoint(rsp, nobreak, arch)
        problems += check_udelay(rsp, addrs["udelay"], arch, lambda line:
                                 line in read_file(console_path))
        problems += check_port_breakpoint(rsp, addrs["arch_kgdb_io_getc"], arch,
                                          lambda line: line in read_file(console_path))
        problems += check_reentry(rsp, addrs["ktime_get_ns"], arch, lambda line:
                                  wait_for_line(console_path, line, proc))
        problems += check_rounds(rsp, (addrs["scheduler_tick"], addrs["udelay"]),
                                 arch, kinds)
        problems += check_step_break(rsp)
        problems += check_step_other_thread(rsp)
        problems += check_break_between_steps(rsp)
        problems += check_reports(rsp, addrs["kgdb_test_reports"], cpus)
        problems += check_irqs_off(rsp, addrs["kgdb_test_spin"], lambda line:
                                   wait_for_line(console_path, line, proc))


def stress_boot(arch, image, symbols, accel, cpus, log):
    """One boot at cpus CPUs for the stress checks: the problems found."""
    port = qemu_gdb.free_port()
    argv = with_stub_port(arch, qemu.command(arch, qemu.Boot(image, cpus, STRESS_APPEND),
                                             accel), port)
    kinds = {}

    def drive(console_path, proc, problems):
        _drive_stress(arch, symbols, port, console_path, proc, cpus, kinds, problems)

    def title(seconds):
        return (f"the stub under stress, {cpus} CPUs ({seconds:.1f} s; rounds "
                f"stopped by the breakpoint: {kinds.get(b'T05', 0)}, by the "
                f"break: {kinds.get(b'T02', 0)})")
    problems = stub_boot(argv, drive, title, log)
    return [f"stub at {cpus} CPUs: {p}" for p in problems]


def stub_boot(argv, drive, title, log, stdin=subprocess.DEVNULL):
    """Start argv, a boot with the stub on a port, and let drive(console's
    path, process, problems) drive it; its console goes to log under
    title(seconds it took). The problems found (none if the run is being
    stopped before QEMU started)."""
    with tempfile.NamedTemporaryFile() as console, tempfile.TemporaryFile() as errors:
        proc = qemu.EMULATORS.start(argv, console, errors, stdin=stdin)
        if proc is None:
            return []
        started, problems = time.monotonic(), []
        try:
            drive(console.name, proc, problems)
        except (RspError, OSError, subprocess.CalledProcessError) as e:
            problems.append(str(e))
        finally:
            qemu_gdb.stop(proc)
            qemu.EMULATORS.forget(proc)
        console.seek(0)
        _keep(log, title(time.monotonic() - started),
              console.read().decode("utf-8", "replace"))
    return problems


# ---- a stub sharing the console's line: gdb at the prompt ----

# Booted to the console's prompt with the stub listening: gdb's packets
# and the kernel's replies meet the console's text in the middle of its
# lines (the prompt has no newline), and breakpoints on the UART's code
# stop the kernel as it prints or reads a byte.
LINE_APPEND = "kgdb hung_task_timeout=0"
LINE_SECS = 20          # for one reply: a lost one never comes
PROMPT = b"mutexos> "
# Each stops the kernel: arch_putc when the console echoes a key,
# uart16550_putc as that echo goes on, uart16550_getc when a tick polls
# the port (holding the lock of the UART's receive side). While the
# kernel is stopped, every byte is gdb's: the stub skips the keys typed.
LINE_BREAKPOINTS = ("arch_putc", "uart16550_putc", "uart16550_getc")


def check_attach_at_prompt(rsp, console_text):
    """gdb's first packet reaches a kernel at its prompt: the kernel stops
    and asks for it again ('-'), answers it, and the console never sees
    the packet's bytes."""
    try:
        reply = rsp.request(b"qSupported:hwbreak+", resend=3)
    except (RspError, OSError) as e:
        return [f"attaching at the prompt: no answer to qSupported ({e})"]
    problems = []
    if b"PacketSize=" not in reply:
        problems.append(f"attaching at the prompt: qSupported got {reply!r}")
    if b"qSupported" in console_text():
        problems.append("attaching at the prompt: the packet's bytes reached the console")
    return problems


def check_break_at_prompt(rsp):
    """Ctrl-C (0x03) while the kernel waits at its prompt: T02."""
    try:
        return break_in(rsp, lambda: time.sleep(0.5))
    except (RspError, OSError) as e:
        return [f"a break at the prompt: no stop reply ({e})"]


def check_line_breakpoint(rsp, name, addr, arch, type_key):
    """A breakpoint on the UART's code, 'c', a key typed on the console:
    the stop (T05, the pc there) reaches gdb, in the middle of the line."""
    try:
        if rsp.request(breakpoint_packet(b"Z", addr, arch)) != b"OK":
            return [f"Z0 at {name} was refused"]
        rsp.send_raw(frame(b"c"))
        if rsp.ack() != b"+":
            return [f"'c' with a breakpoint on {name} was refused"]
        type_key()
        reply = rsp.packet()
        if not reply.startswith(b"T05") or stopped_pc(rsp, arch) != addr:
            return [f"a breakpoint on {name}: {reply!r}, not T05 there"]
        if rsp.request(breakpoint_packet(b"z", addr, arch)) != b"OK":
            return [f"z0 at {name} was refused"]
    except (RspError, OSError) as e:
        return [f"a breakpoint on {name}: no stop reply ({e})"]
    return []


def _drive_shared_line(arch, symbols, port, console_path, proc, problems):
    """The checks at the prompt; problems collects what failed."""
    addrs = symbol_addresses(arch, symbols, LINE_BREAKPOINTS)
    wait_for_line(console_path, PROMPT, proc, timeout=LONG_GDB_SECS)

    def type_key():
        proc.stdin.write(b"x")
        proc.stdin.flush()

    with connect(port, proc, timeout=LINE_SECS) as sock:
        rsp = Rsp(sock)
        problems += check_attach_at_prompt(rsp, lambda: read_file(console_path))
        if problems:
            return
        problems += check_break_at_prompt(rsp)
        for name in LINE_BREAKPOINTS:
            if not problems:
                problems += check_line_breakpoint(rsp, name, addrs[name], arch,
                                                  type_key)
        if problems:
            return
        if rsp.request(b"D") != b"OK":
            problems.append("'D' at the prompt: not OK")
            return
    # The console still reads the keyboard: a new prompt for a line. The
    # stub may still wait for the ack of its OK, which travels apart from
    # the keys (portsplit.py) and may come later: a key before it is the
    # stub's, so the line is typed again until a prompt answers.
    prompts = read_file(console_path).count(PROMPT)
    deadline = time.monotonic() + LINE_SECS
    while read_file(console_path).count(PROMPT) <= prompts:
        if time.monotonic() > deadline:
            problems.append("after gdb detached, the console took no line")
            return
        proc.stdin.write(b"\n")
        proc.stdin.flush()
        time.sleep(1)


def shared_line_boot(arch, image, symbols, accel, log):
    """A boot to the prompt, the stub on the console's line (portsplit.py):
    the problems found."""
    port = qemu_gdb.free_port()
    argv = with_stub_port(arch, qemu.command(
        arch, qemu.Boot(image, CPUS, LINE_APPEND, console=True), accel), port)

    def drive(console_path, proc, problems):
        _drive_shared_line(arch, symbols, port, console_path, proc, problems)
    problems = stub_boot(argv, drive,
                         lambda seconds: f"gdb at the prompt, on the console's line "
                         f"({seconds:.1f} s)", log, stdin=subprocess.PIPE)
    return [f"the console's line: {p}" for p in problems]
