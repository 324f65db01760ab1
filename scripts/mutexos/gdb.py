"""make gdb: QEMU halted with its gdb stub, gdb-multiarch attached.
make kgdb: the kernel's own stub on a socket, and the gdb command for it.

QEMU starts with -S (halted) and its stub on 127.0.0.1:PORT; once the port
takes a connection, gdb loads the symbols, connects and runs to
start_kernel.  QEMU must never outlive gdb, however gdb ends: an orphan
would hold the port and the CPU.  So QEMU runs in a process group of its
own (a Ctrl-C meant for gdb must not kill it), is killed in a finally
block, on SIGTERM and SIGHUP, and is told by the kernel to die with us if
we are killed outright (PR_SET_PDEATHSIG).
"""

import ctypes
import os
import shlex
import signal
import socket
import subprocess
import sys
import tempfile
import time

from . import qemu

# The gdb helpers (mx-ps, mx-locks, ...): docs/gdb.md.
HELPERS = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                       "gdb", "mutexos_gdb.py")
PR_SET_PDEATHSIG = 1
START_TIMEOUT = 30      # seconds for QEMU's stub to listen


def free_port():
    """A TCP port that is free now: the one the kernel picks for port 0."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _die_with_parent():
    """In the QEMU child: SIGKILL when our parent (this Python) dies."""
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
    except (OSError, AttributeError):
        pass            # not Linux: the finally block still covers most ends


def wait_for_port(proc, port, errors, timeout=START_TIMEOUT):
    """Poll until port takes a connection; None, or why QEMU never listened."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            return f"QEMU exited with code {proc.returncode}: {_tail(errors)}"
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                return None
        except OSError:
            time.sleep(0.1)
    return f"QEMU's gdb stub did not listen on port {port} within {timeout}s"


def _tail(errors):
    errors.seek(0)
    lines = errors.read().decode("utf-8", "replace").strip().splitlines()
    return lines[-1] if lines else "(nothing on stderr)"


def gdb_argv(arch, symbols, port, batch):
    """The gdb-multiarch command line."""
    argv = ["gdb-multiarch", "-q",
            "-ex", f"set architecture {arch.gdb}",
            "-ex", f"file {symbols}",
            "-ex", f"source {HELPERS}",
            "-ex", f"target remote 127.0.0.1:{port}",
            "-ex", "break start_kernel",
            "-ex", "continue"]
    if batch:
        argv += ["-batch", "-ex", "info registers pc", "-ex", "bt", "-ex", "kill"]
    return argv


class _Ended(Exception):
    """SIGTERM or SIGHUP: leave through the finally blocks."""


def _raise_ended(signum, frame):
    raise _Ended(signum)


def stop(proc):
    """End QEMU: politely, then for sure."""
    if proc.poll() is None:
        qemu.kill_group(proc, signal.SIGTERM)
        try:
            proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            qemu.kill_group(proc)
            proc.wait()


def run(arch, builddir, cpus, port=None, batch=False, accel="tcg", append=""):
    """Start QEMU and gdb; gdb's exit code (1 when QEMU did not start)."""
    port = port or free_port()
    image = os.path.join(builddir, arch.boot_image)
    for path in (image, os.path.join(builddir, arch.symbols)):
        if not os.path.isfile(path):
            print(f"make gdb: {path} not found (build it first)", file=sys.stderr)
            return 1
    argv = qemu.command(arch, qemu.Boot(image, cpus, append), accel, gdb_port=port)
    log_path = os.path.join(builddir, "gdb-qemu.log")
    old = {sig: signal.signal(sig, _raise_ended) for sig in (signal.SIGTERM, signal.SIGHUP)}
    try:
        with open(log_path, "wb") as log, tempfile.TemporaryFile() as errors:
            gdb_command = gdb_argv(arch, os.path.join(builddir, arch.symbols), port, batch)
            return _session(arch, argv, port, gdb_command, log, errors)
    except _Ended:
        return 128 + signal.SIGTERM
    finally:
        for sig, handler in old.items():
            signal.signal(sig, handler)


def _session(arch, argv, port, gdb_command, log, errors, ready=None):
    """QEMU started with argv, gdb_command once port listens (and ready()
    found nothing wrong); gdb's exit code."""
    try:
        proc = subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=log, stderr=errors,
                                start_new_session=True, preexec_fn=_die_with_parent)
    except OSError as e:
        print(f"cannot start {argv[0]}: {e.strerror}{qemu.install_hint(arch, argv[0])}",
              file=sys.stderr)
        return 1
    try:
        why = wait_for_port(proc, port, errors) or (ready and ready(proc))
        if why:
            print(f"make {'kgdb' if ready else 'gdb'}: {why}", file=sys.stderr)
            return 1
        what = "the kernel's stub" if ready else "QEMU waits halted for gdb"
        print(f"{what} on 127.0.0.1:{port}; "
              f"its serial output goes to {log.name}", flush=True)
        return _gdb(gdb_command)
    finally:
        stop(proc)
        errors.seek(0)
        log.write(errors.read())


def _gdb(argv):
    """Run gdb in the foreground; Ctrl-C is gdb's (it interrupts the target)."""
    old = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        return subprocess.call(argv, preexec_fn=_default_sigint)
    except OSError as e:
        print(f"cannot start {argv[0]}: {e.strerror} (apt-get install gdb-multiarch)",
              file=sys.stderr)
        return 1
    finally:
        signal.signal(signal.SIGINT, old)


def _default_sigint():
    # gdb must get Ctrl-C even though we ignore it meanwhile.
    signal.signal(signal.SIGINT, signal.SIG_DFL)


# ---- make kgdb: the kernel's own stub ----

KGDB_OPTIONS = ("kgdb", "kgdbwait", "kgdb.on_bug=1")
KGDB_WAIT_SECS = 120    # for the kernel to reach kgdbwait, on a loaded host


def kgdb_append(append, wait):
    """The command line with the stub awake: as given if it wakes it
    already, else with kgdbwait (gdb started here) or kgdb."""
    if any(opt in KGDB_OPTIONS for opt in append.split()):
        return append
    return f"{append} {'kgdbwait' if wait else 'kgdb'}".strip()


def kernel_stub_setup(arch):
    """gdb's options before it talks to the kernel's stub. gdb-multiarch
    takes an ELF that names no OS for a GNU/Linux program, and for riscv
    that means stepping by its own breakpoints and a continue, which lets
    the other CPUs and the tick run meanwhile: with no OS ABI, it steps
    with the stub's vCont;s, which keeps them stopped."""
    setup = ["-ex", f"set architecture {arch.gdb}"]
    if arch.name == "riscv":
        setup += ["-ex", "set osabi none"]
    return setup


def attach_argv(arch, symbols, target):
    """The gdb command that attaches to the kernel's stub at target; its
    paths relative to the tree's top, where make runs it."""
    return ["gdb-multiarch", "-q", *kernel_stub_setup(arch),
            "-ex", f"file {symbols}", "-ex", f"source {os.path.relpath(HELPERS)}",
            "-ex", f"mx-attach {target}"]


def run_kgdb(arch, builddir, cpus, port=None, start_gdb=False, accel="tcg", append=""):
    """Boot with the kernel's stub on 127.0.0.1:port. The console stays on
    the terminal and the gdb command to attach is printed; start_gdb
    boots with kgdbwait, the console to a log, and runs gdb here."""
    port = port or free_port()
    image = os.path.join(builddir, arch.boot_image)
    symbols = os.path.join(builddir, arch.symbols)
    for path in (image, symbols):
        if not os.path.isfile(path):
            print(f"make kgdb: {path} not found (build it first)", file=sys.stderr)
            return 1
    append = kgdb_append(append, start_gdb)
    session = not qemu.runs_to_an_end(append)
    boot = qemu.Boot(image, cpus, append, console=not start_gdb, reboot=session)
    from . import kgdb      # kgdb imports this module
    argv = kgdb.with_stub_port(arch, qemu.command(arch, boot, accel), port)
    gdb_command = attach_argv(arch, symbols, f"127.0.0.1:{port}")
    if not start_gdb:
        print(f"make kgdb: the kernel's gdb stub listens on 127.0.0.1:{port} "
              f"(command line: {append}); attach from another terminal with:\n"
              f"  {shlex.join(gdb_command)}\n", flush=True)
        return qemu.run_interactive(argv, arch, session)
    log_path = os.path.join(builddir, "kgdb-qemu.log")
    old = {sig: signal.signal(sig, _raise_ended) for sig in (signal.SIGTERM, signal.SIGHUP)}
    try:
        with open(log_path, "wb") as log, tempfile.TemporaryFile() as errors:
            return _session(arch, argv, port, gdb_command, log, errors,
                            ready=lambda proc: _kgdb_waits(log_path, proc))
    except _Ended:
        return 128 + signal.SIGTERM
    finally:
        for sig, handler in old.items():
            signal.signal(sig, handler)


def _kgdb_waits(log_path, proc):
    """None once the console says the stub waits for gdb, else why not:
    gdb's first packet must not reach the port before the stub opens it."""
    from . import kgdb      # kgdb imports this module
    try:
        kgdb.wait_for_line(log_path, kgdb.WAITING, proc, KGDB_WAIT_SECS)
        return None
    except kgdb.RspError:
        return (f"the kernel never said '{kgdb.WAITING.decode()}' (see {log_path}): "
                "is its gdb stub built in (CONFIG_KGDB=y)?")
