"""CPU hogs for a run on a loaded host (make test LOAD=n).

The tests check order and invariants, never wall-clock deadlines, so they
must pass however busy the host is; a run with LOAD=1 proves it by keeping
one busy process per host core running (LOAD=2: two) for as long as the
run lasts, competing with QEMU for every core.
"""

import contextlib
import os
import signal
import subprocess
import sys

# A process that only burns CPU, in the interpreter we run on.
HOG = [sys.executable, "-c", "while True: pass"]


@contextlib.contextmanager
def cpu_hogs(per_core):
    """per_core busy processes per host core while the block runs.

    Yields their process ids.
    """
    count = per_core * (os.cpu_count() or 1)
    hogs = [subprocess.Popen(HOG, stdin=subprocess.DEVNULL,
                             start_new_session=True) for _ in range(count)]
    if hogs:
        print(f"loaded host: {count} CPU hogs on {os.cpu_count()} cores "
              f"for the whole run", flush=True)
    try:
        yield [hog.pid for hog in hogs]
    finally:
        for hog in hogs:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(hog.pid, signal.SIGKILL)
            hog.wait()
