"""make gdb: QEMU halted with its gdb stub, gdb-multiarch attached.

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
            return _session(arch, argv, builddir, port, batch, log, errors)
    except _Ended:
        return 128 + signal.SIGTERM
    finally:
        for sig, handler in old.items():
            signal.signal(sig, handler)


def _session(arch, argv, builddir, port, batch, log, errors):
    try:
        proc = subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=log, stderr=errors,
                                start_new_session=True, preexec_fn=_die_with_parent)
    except OSError as e:
        print(f"cannot start {argv[0]}: {e.strerror}{qemu.install_hint(arch, argv[0])}",
              file=sys.stderr)
        return 1
    try:
        why = wait_for_port(proc, port, errors)
        if why:
            print(f"make gdb: {why}", file=sys.stderr)
            return 1
        print(f"QEMU waits halted for gdb on 127.0.0.1:{port}; "
              f"its serial output goes to {log.name}", flush=True)
        return _gdb(gdb_argv(arch, os.path.join(builddir, arch.symbols), port, batch))
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
