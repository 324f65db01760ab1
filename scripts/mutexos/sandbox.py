"""The sandbox a grade builds and boots in: only the tree it grades.

A grade of record copies the submission's lab files into a tree that
holds no reference of the lab or a later one (labs.grading_tree()); but
that tree sits inside the instructor's, where a lab file could reach the
reference by a path out of it ("../../../../kernel/locking/mutex.c", an
absolute path, .incbin) and the check before running (precheck.py)
might miss the way. So every make and every QEMU of such a grade runs
under bubblewrap (bwrap), which shows it the system's read-only folders
(the toolchain, QEMU and its firmware) and the graded tree at MOUNT, and
nothing else: no instructor's tree, no network, a /tmp of its own. A
boot sees the tree read-only: ARM's semihosting, which our boots use to
exit, would let the guest open and write host files.

confined(tree) marks a tree so for the time of a grade; command() is
what runs a program of that tree, in the sandbox.
"""

import contextlib
import os
import re
import shutil
import subprocess
import tempfile

# Where the graded tree is, inside the sandbox: a fixed path, so that no
# path a build prints says where the grade ran.
MOUNT = "/grade"
BWRAP = "bwrap"
PACKAGE = "bubblewrap"
# The system folders the toolchain and QEMU need, read-only. /bin, /lib
# and the like are links into /usr on a merged-/usr system, and are made
# the same links in the sandbox.
SYSTEM = ("/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32",
          "/etc/alternatives", "/etc/ld.so.cache")
PATH = "/usr/local/bin:/usr/bin:/bin"

# The absolute paths of the trees whose builds and boots are sandboxed now.
_confined = set()


class Unavailable(Exception):
    """The sandbox cannot run on this machine: why, and what to do."""


def system_binds():
    """bwrap's options that show the system folders, read-only."""
    opts = []
    for path in SYSTEM:
        if os.path.islink(path):
            opts += ["--symlink", os.readlink(path), path]
        elif os.path.exists(path):
            opts += ["--ro-bind", path, path]
    return opts


def wrap(tree, argv, cwd, writable, outputs=()):
    """argv run at cwd in a sandbox that shows tree at MOUNT, read-write
    if writable; a path of argv into tree names it under MOUNT. outputs:
    files of tree that argv may write even when the tree is read-only
    (a boot's results channel); each must exist when argv starts.

    A cwd outside tree is not in the sandbox: the command runs at MOUNT,
    and a path relative to cwd into tree is made MOUNT's.
    """
    tree, cwd = os.path.abspath(tree), os.path.abspath(cwd)
    inside = os.path.relpath(cwd, tree)
    names = [tree]
    if inside.split(os.sep)[0] == os.pardir:
        inside = "."
        names.append(os.path.relpath(tree, cwd))
    return [BWRAP, *system_binds(),
            "--dev", "/dev", "--dev-bind-try", "/dev/kvm", "/dev/kvm",
            "--proc", "/proc", "--tmpfs", "/tmp",
            "--bind" if writable else "--ro-bind", tree, MOUNT,
            *output_binds(tree, outputs),
            "--chdir", os.path.normpath(os.path.join(MOUNT, inside)),
            "--unshare-all", "--die-with-parent",
            "--clearenv", "--setenv", "PATH", PATH, "--setenv", "HOME", "/tmp",
            "--setenv", "LC_ALL", "C.UTF-8", "--",
            *(in_sandbox(arg, names) for arg in argv)]


def output_binds(tree, outputs):
    """bwrap's options that make each file of outputs writable at its place
    under MOUNT, over the tree's read-only view."""
    opts = []
    for path in map(os.path.abspath, outputs):
        opts += ["--bind", path, in_sandbox(path, [tree])]
    return opts


def in_sandbox(arg, names):
    """arg with each path into the tree made MOUNT's: one that starts
    with a name of the tree (names, the absolute first) where arg starts,
    or after a space, "=" or "," (QEMU's "loader,file=...")."""
    for name in names:
        if arg == name:
            return MOUNT
        arg = re.sub(rf"(^|[=,\s]){re.escape(name + os.sep)}", rf"\g<1>{MOUNT}/", arg)
    return arg


def check():
    """Raise Unavailable unless bwrap runs here (it needs user namespaces,
    or root)."""
    if shutil.which(BWRAP) is None:
        raise Unavailable(f"{BWRAP} is not installed (apt-get install {PACKAGE})")
    try:
        with tempfile.TemporaryDirectory() as empty:
            proc = subprocess.run(wrap(empty, ["true"], empty, False),
                                  capture_output=True, text=True, timeout=30,
                                  check=False)
    except (OSError, subprocess.TimeoutExpired) as e:
        raise Unavailable(f"{BWRAP} does not run: {e}") from None
    if proc.returncode:
        raise Unavailable(f"{BWRAP} does not run here: {proc.stderr.strip()} "
                          "(it needs unprivileged user namespaces, "
                          "sysctl kernel.unprivileged_userns_clone=1, or root)")


@contextlib.contextmanager
def confined(tree):
    """Run the makes and QEMUs of tree in the sandbox meanwhile."""
    tree = os.path.abspath(tree)
    _confined.add(tree)
    try:
        yield
    finally:
        _confined.discard(tree)


def command(root, argv, cwd, writable=True, outputs=()):
    """argv as it runs for the tree at root: sandboxed if root is confined
    (outputs: as wrap() has them)."""
    root = os.path.abspath(root)
    if root not in _confined:
        return argv
    return wrap(root, argv, cwd, writable, outputs)
