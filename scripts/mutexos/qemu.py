"""QEMU: its command line, the kernel's exit status, and its processes.

How the kernel's exit status reaches us (ARCH_EXIT of arch.mk)
  The kernel ends the machine with a status s (verdict.STATUS_MEANING).
  isa-debug-exit: the kernel writes 16 + s to I/O port 0xf4 and QEMU
    exits with code ((16 + s) << 1) | 1, that is 33 + 2s.  Any other code
    (QEMU's own errors exit with 1, a signal with something else) means QEMU
    ended some other way, and there is no status.
  semihosting: SYS_EXIT_EXTENDED makes QEMU exit with s itself.

The results channel (ARCH_RESULTS of arch.mk)
  The test runner writes its KTAP result lines a second time, to a device
  of their own that the console's printk never reaches, and QEMU copies
  them to a file: isa-debugcon at I/O port 0xe9 on x86, semihosting's
  SYS_WRITE0 on arm and riscv.  A test boot reads that file after QEMU
  ends (boot(): results=), and its results are those (verdict.Result);
  every other boot sends the channel to a null chardev, which drops it.

The serial line
  A test boot only reads it: QEMU's stdio, stdin closed.  A console boot
  (make run, the console check) also types into it, through QEMU's
  multiplexer: Ctrl-A b sends a break, Ctrl-A x quits QEMU, Ctrl-A Ctrl-A
  sends a Ctrl-A, and everything else, Ctrl-C included, goes to the
  kernel (signal=off: a Ctrl-C on the terminal is no signal to QEMU).

Every QEMU of a test run leads its own process group, so that a Ctrl-C on
the terminal reaches us alone and we stop them all (stop_all), and so that
killing the group also kills a wrapper's children.
"""

import os
import re
import signal
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass

from .ktap import KtapParser
from .verdict import STATUS_DONE, STATUS_MEANING, Result


@dataclass(frozen=True)
class Boot:
    """What to boot: a kernel image with a command line, or a CD image.

    A CD image brings its own boot loader and command line, so a -cdrom
    boot takes no append and only an arch that counts CPUs with -smp.
    console: the serial line goes both ways, through QEMU's multiplexer.
    reboot: a reset of the machine restarts it; otherwise QEMU exits.
    firmware: a program QEMU starts in place of the kernel, as the board's
    firmware would be (the arch's ARCH_FIRMWARE_SHIM); it finds the image
    loaded at ARCH_FIRMWARE_LOAD.
    turns: under TCG, the CPUs take turns on one host thread (QEMU's
    thread=single) instead of running on a thread each (matrix.py says
    which boots do, and why).
    results: the file QEMU writes the results channel to ("": dropped).
    """

    image: str
    cpus: int
    append: str = ""
    cdrom: bool = False
    console: bool = False
    reboot: bool = False
    firmware: str = ""
    turns: bool = False
    results: str = ""


def command(arch, boot, accel="tcg", gdb_port=None):
    """The QEMU command line booting boot on arch, serial console on stdio.

    With gdb_port, QEMU stays halted (-S) with its gdb stub listening on
    127.0.0.1:gdb_port.
    """
    cmdline, cpus = _cpu_options(arch, boot)
    if boot.cdrom:
        if cmdline:
            raise ValueError(f"{arch.name}: a -cdrom boot cannot take the kernel "
                             f"command line '{cmdline}'")
        argv = [arch.qemu, "-cdrom", boot.image]
    elif boot.firmware:
        argv = [arch.qemu, "-kernel", boot.firmware, "-append", cmdline,
                "-device", f"loader,file={boot.image},addr={arch.firmware_load},"
                "force-raw=on"]
    else:
        argv = [arch.qemu, "-kernel", boot.image, "-append", cmdline]
    argv += [*cpus, *arch.qemu_opts, *results_options(arch, boot.results),
             "-display", "none", *_serial_options(boot)]
    if not boot.reboot:
        argv.append("-no-reboot")
    if accel == "kvm":
        argv += ["-accel", "kvm", "-cpu", "host"]
    elif boot.turns and accel == "tcg":
        argv += ["-accel", "tcg,thread=single"]
    else:
        argv += ["-accel", "tcg"]
    if accel == "icount":
        argv += ["-icount", ICOUNT]
    if gdb_port is not None:
        argv += ["-gdb", f"tcp:127.0.0.1:{gdb_port}", "-S"]
    return argv


# The chardev id of the results channel.
RESULTS_ID = "results"


def results_options(arch, path):
    """QEMU's options that copy the results channel to the file at path, or
    drop it ("").  A semihosting arch's own -semihosting-config (arch.mk)
    and this one merge into one; without a chardev, semihosting would
    write the channel to QEMU's stderr."""
    if path:
        # QEMU's option syntax: a comma in a value is written twice.
        chardev = f"file,id={RESULTS_ID},path={path.replace(',', ',,')}"
    else:
        chardev = f"null,id={RESULTS_ID}"
    if arch.results == "debugcon":
        device = ["-device", f"isa-debugcon,iobase=0xe9,chardev={RESULTS_ID}"]
    else:
        device = ["-semihosting-config", f"enable=on,target=native,chardev={RESULTS_ID}"]
    return ["-chardev", chardev, *device]


def _serial_options(boot):
    """The serial line: to stdout alone, or both ways through the multiplexer."""
    if not boot.console:
        return ["-serial", "stdio", "-monitor", "none"]
    return ["-chardev", "stdio,id=console,mux=on,signal=off",
            "-serial", "chardev:console", "-monitor", "none"]


def _cpu_options(arch, boot):
    """The kernel command line and QEMU options that give the CPU count."""
    cmdline = boot.append.strip()
    if arch.qemu_cpus == "smp":
        return cmdline, ["-smp", str(boot.cpus)]
    # The board has a fixed number of cores: the kernel starts only N.
    if not re.search(r"(^|\s)maxcpus=", cmdline):
        cmdline = f"{cmdline} maxcpus={boot.cpus}".strip()
    return cmdline, []


# accel "icount": guest time is the count of instructions executed, 2^3 ns
# each, and an idle machine jumps to its next timer instead of waiting
# (sleep=off), so the host's speed and load never reach the guest: a boot
# is a function of the kernel and its command line alone. The vCPUs then
# take turns on one host thread (docs/benchmarks.md says what that
# machine measures). A fixed shift: "auto" would adapt it to the host.
# No align=on: it paces the guest to the host's clock, changes no figure,
# and QEMU refuses it with sleep=off.
ICOUNT = "shift=3,sleep=off"
ACCELS = ("tcg", "kvm", "icount")


def kvm_usable():
    """Whether /dev/kvm is there and ours to use."""
    return os.access("/dev/kvm", os.R_OK | os.W_OK)


def choose_accel(requested, arch):
    """The accelerator for arch, and a note when it is not the one asked for."""
    if requested != "kvm":
        return requested, None
    if not arch.kvm:
        return "tcg", f"note: kvm cannot run {arch.name} guests; using tcg"
    if not kvm_usable():
        return "tcg", "note: /dev/kvm is missing or not usable; using tcg"
    return "kvm", None


def command_line_max(root):
    """The longest command line the kernel takes: COMMAND_LINE_MAX of
    include/arch.h, read from there so that it is written once."""
    with open(os.path.join(root, "include", "arch.h"), encoding="utf-8") as f:
        for line in f:
            m = re.match(r"#define\s+COMMAND_LINE_MAX\s+(\d+)", line)
            if m:
                return int(m.group(1))
    raise RuntimeError("include/arch.h defines no COMMAND_LINE_MAX")


# The exit code of status 0 through isa-debug-exit (arch/x86/serial.c).
DEBUG_EXIT_CODE0 = (16 << 1) | 1


def decode_status(arch, code):
    """The kernel's exit status from QEMU's exit code; None when it set none."""
    if code is None or code < 0:
        return None             # killed by a signal
    if arch.exit == "isa-debug-exit":
        status = (code - DEBUG_EXIT_CODE0) // 2
        return status if code >= DEBUG_EXIT_CODE0 and code & 1 else None
    return code


def install_hint(arch, program):
    """" (apt-get install PACKAGE)" when arch.mk names program's package."""
    package = arch.package_of(os.path.basename(program))
    return f" (apt-get install {package})" if package else ""


# ---------------------------------------------------------------- processes

class Emulators:
    """The QEMUs running now, so that one call can stop every one of them."""

    def __init__(self):
        self._lock = threading.Lock()
        self._running = set()
        self.stopping = False

    def start(self, argv, stdout, stderr, stdin=subprocess.DEVNULL):
        """Popen argv in a process group of its own; None once stopping."""
        with self._lock:
            if self.stopping:
                return None
            proc = subprocess.Popen(argv, stdin=stdin, stdout=stdout,
                                    stderr=stderr, start_new_session=True)
            self._running.add(proc)
            return proc

    def forget(self, proc):
        """proc has ended."""
        with self._lock:
            self._running.discard(proc)

    def stop_all(self):
        """Kill every QEMU and start no more (Ctrl-C, SIGTERM)."""
        with self._lock:
            self.stopping = True
            for proc in self._running:
                kill_group(proc)


EMULATORS = Emulators()


def kill_group(proc, sig=signal.SIGKILL):
    """Signal proc's whole process group (it leads one: start_new_session)."""
    try:
        os.killpg(proc.pid, sig)
    except (ProcessLookupError, PermissionError):
        pass


def start(title, argv, arch, log, errors, stdin=subprocess.DEVNULL):
    """Start argv with its stdout piped and stderr in errors: (proc, None),
    or (None, a Result saying why it did not start)."""
    try:
        proc = EMULATORS.start(argv, subprocess.PIPE, errors, stdin=stdin)
    except OSError as e:
        why = f"cannot start {argv[0]}: {e.strerror}{install_hint(arch, argv[0])}"
        return None, Result.not_started(title, log.name, why)
    if proc is None:
        return None, Result.not_started(title, log.name, "interrupted")
    return proc, None


def keep_stderr(log, errors):
    """Append the emulator's stderr to log, after the serial output so that
    the log stays parseable; the stderr, as bytes."""
    errors.seek(0)
    text = errors.read()
    if text:
        log.write(b"\n--- emulator stderr ---\n" + text)
        log.flush()
    return text


def boot(title, argv, arch, timeout, log, on_start=None, silence=None,
         results=None):
    """Run argv, read its serial output as KTAP into log, and judge it.

    log is an open binary file; arch decodes the exit status.  argv is
    normally command()'s, but any program that prints a serial log will do.
    on_start(proc), if given, is called once QEMU runs (the gdb check drives
    it meanwhile, and kills it when it fails). silence: seconds without a
    line of output after which the kernel counts as hung and is killed.
    results: the file argv writes the results channel to (Boot.results),
    whose results then count; an earlier boot's records there are dropped
    first (the file is kept: a sandbox may have bound it in argv).
    """
    parser = KtapParser()
    if results:
        empty_results(results)
    with tempfile.TemporaryFile() as errors:
        proc, failed = start(title, argv, arch, log, errors)
        if failed:
            return failed
        if on_start:
            on_start(proc)
        code, timed_out, silent = _read_serial(proc, timeout, log, parser, silence)
        timed_out = timed_out or silent
        parser.finish()
        stderr_text = keep_stderr(log, errors)
    status = None if timed_out else decode_status(arch, code)
    result = Result(title, parser, status, log.name,
                    timeout=timeout if timed_out else None,
                    exit_note=f"QEMU exited with code {code}, "
                              "not through the kernel's exit device",
                    channel=read_results(results) if results else None)
    # QEMU's own complaint (a bad option, an unloadable kernel) says most.
    complaint = stderr_text.decode("utf-8", "replace").strip().splitlines()
    if result.failed_config and complaint:
        result.add_reason(f"emulator: {complaint[-1]}", first=True)
    if silent:
        result.add_reason(f"no output for {silence}s: killed as hung", first=True)
    return result


def empty_results(path):
    """The results channel's file, there and empty."""
    with open(path, "wb"):
        pass


def read_results(path):
    """A finished KtapParser of the results channel's file (empty when
    QEMU wrote none)."""
    parser = KtapParser()
    try:
        with open(path, "rb") as f:
            for raw in f:
                parser.feed(raw.decode("utf-8", "replace"))
    except FileNotFoundError:
        pass
    parser.finish()
    return parser


def _read_serial(proc, timeout, log, parser, silence=None):
    """Copy proc's output to log and parser until it ends or a limit expires.

    Returns (exit code, whether the timeout killed it, whether silence did).
    """
    expired, silent, ended = threading.Event(), threading.Event(), threading.Event()
    last_line = [time.monotonic()]

    def expire():
        expired.set()
        kill_group(proc)

    def watch_silence():
        while not ended.wait(1):
            if time.monotonic() - last_line[0] > silence:
                silent.set()
                kill_group(proc)
                return

    watchdog = threading.Timer(timeout, expire)
    watchdog.daemon = True
    watchdog.start()
    if silence:
        threading.Thread(target=watch_silence, daemon=True).start()
    try:
        for raw in proc.stdout:
            last_line[0] = time.monotonic()
            log.write(raw)
            log.flush()         # so that the log can be followed live
            parser.feed(raw.decode("utf-8", "replace"))
        code = proc.wait()
    except BaseException:
        # Ctrl-C in the thread that reads: this QEMU must not outlive us.
        kill_group(proc)
        proc.wait()
        raise
    finally:
        watchdog.cancel()
        ended.set()
        proc.stdout.close()
        EMULATORS.forget(proc)
    return code, expired.is_set(), silent.is_set()


def run_to_file(argv, out, timeout):
    """Run argv with stdout and stderr in out; its exit code, None on timeout.

    For boots that are measured, not judged (make bench).
    """
    proc = EMULATORS.start(argv, out, subprocess.STDOUT)
    if proc is None:
        return None
    try:
        return proc.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        kill_group(proc)
        proc.wait()
        return None
    except BaseException:
        kill_group(proc)
        proc.wait()
        raise
    finally:
        EMULATORS.forget(proc)


def runs_to_an_end(append):
    """Whether a command line asks for tests or benchmarks, which end the
    machine with their status; without either the kernel runs its console."""
    return re.search(r"(^|\s)(test|bench)=", append) is not None


def run_interactive(argv, arch, session):
    """make run: the serial console on this terminal; the kernel's status.

    The terminal is QEMU's (raw: Ctrl-C goes to the kernel), and we wait
    for QEMU to end.  A console session (session: no test= or bench=) ends
    with halt, or with Ctrl-A x, which makes QEMU exit with 0: that is no
    error.  3 (error) when QEMU ends without a status from the kernel.
    """
    try:
        proc = subprocess.Popen(argv)
    except OSError as e:
        print(f"cannot start {argv[0]}: {e.strerror}{install_hint(arch, argv[0])}",
              file=sys.stderr)
        return 3
    while True:
        try:
            code = proc.wait()
            break
        except KeyboardInterrupt:
            continue
    if session and code == 0:
        print("\nQEMU quit (Ctrl-A x)", file=sys.stderr)
        return 0
    status = decode_status(arch, code)
    if status is None:
        print(f"\nQEMU exited with code {code}, without a status from the kernel",
              file=sys.stderr)
        return 3
    print(f"\nkernel exited with status {status} "
          f"({STATUS_MEANING.get(status, 'unknown')})", file=sys.stderr)
    return 0 if status in STATUS_DONE else max(status, 1)
