"""Serial logs that two runs at once never share.

A boot's log is <builddir>/<name>.log.  Two test runs of the same
configuration (two terminals, or make test beside make check-runner) would
otherwise write the same file at once.  Each run takes an flock on the log
it writes; when another run holds <name>.log, this one uses <name>.2.log,
then <name>.3.log, and so on.  The lock goes when the file is closed.
"""

import fcntl
import os


def open_log(folder, name):
    """A binary file for name's log in folder, locked for this run alone.

    Returns (file, path).  The file is emptied only once it is ours.
    """
    os.makedirs(folder, exist_ok=True)
    slot = 1
    while True:
        path = log_path(folder, name, slot)
        # Append mode creates without emptying: the file may be another
        # run's, still being written.  Once ours, emptied, appends go to
        # its start.
        log = open(path, "ab")
        try:
            fcntl.flock(log, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            log.close()
            slot += 1
            continue
        log.truncate(0)
        return log, path


def log_path(folder, name, slot=1):
    """<folder>/<name>.log for the first run, <name>.<slot>.log for others."""
    suffix = ".log" if slot == 1 else f".{slot}.log"
    return os.path.join(folder, name + suffix)
