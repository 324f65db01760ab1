"""Building a configuration by calling make.

A configuration is an arch, a mutex build and CONF overrides; make builds
it into its own folder, which "make print-builddir" names.  Two builds of
the same configuration at once (two test runs) would write the same
objects, so each build holds an flock on build/.<folder>.lock meanwhile.
"""

import contextlib
import fcntl
import functools
import os
import shutil
import subprocess
from dataclasses import dataclass

from . import sandbox

# The mutex builds of the Makefile (MUTEX=...); the same for every arch.
MUTEXES = ("native", "dec", "xchg", "null", "debug", "spin")
# CONF= of the race detector's builds (docs/kcsan.md).
KCSAN = "CONFIG_KCSAN=y"


@dataclass(frozen=True)
class BuildConfig:
    """ARCH, MUTEX and CONF of one build."""

    arch: str
    mutex: str
    conf: str = ""

    def make_vars(self):
        """The variables that select this configuration on make's command line."""
        return [f"ARCH={self.arch}", f"MUTEX={self.mutex}", f"CONF={self.conf}"]

    def label(self):
        """A short name for messages."""
        conf = f" CONF={self.conf}" if self.conf else ""
        return f"{self.arch} {self.mutex}{conf}"


def make_env():
    """Our environment, less what a calling make passes to its sub-makes.

    We may be run by make: its MAKEFLAGS (-s, -j, variables of its command
    line such as CPUS=...) must not reach the makes we start.
    """
    env = dict(os.environ)
    for key in ("MAKEFLAGS", "MFLAGS"):
        env.pop(key, None)
    return env


def make(root, cfg, target, extra=(), jobs=None, quiet=False, sandboxed=False,
         **kwargs):
    """Run make for target in cfg at root; the CompletedProcess.

    sandboxed: in the grade's sandbox if root is confined (sandbox.py).
    """
    argv = ["make", "--no-print-directory"]
    if quiet:
        argv.append("-s")
    if jobs:
        argv.append(f"-j{jobs}")
    argv += [*cfg.make_vars(), *extra, target]
    if sandboxed:
        argv = sandbox.command(root, argv, root)
    return subprocess.run(argv, cwd=root, env=make_env(), check=False, **kwargs)


@functools.lru_cache(maxsize=None)
def builddir(root, cfg):
    """cfg's build folder, relative to root (build/i386-native)."""
    proc = make(root, cfg, "print-builddir", quiet=True, capture_output=True, text=True)
    folder = proc.stdout.strip()
    if proc.returncode or not folder:
        raise RuntimeError(f"make print-builddir failed for {cfg.label()}: "
                           f"{proc.stderr.strip() or 'no output'}")
    return folder


@contextlib.contextmanager
def locked(root, cfg):
    """Hold cfg's build lock: no other build of cfg runs meanwhile."""
    folder = builddir(root, cfg)
    parent = os.path.join(root, os.path.dirname(folder))
    os.makedirs(parent, exist_ok=True)
    path = os.path.join(parent, f".{os.path.basename(folder)}.lock")
    with open(path, "w") as lock:
        try:
            fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            print(f"waiting for another build of {cfg.label()} ({path})", flush=True)
            fcntl.flock(lock, fcntl.LOCK_EX)
        yield


def build(root, cfg, jobs=None, target="all", extra=(), log=None, timeout=None):
    """Build target of cfg, under its lock; None, or why it failed.

    log: a file for make's output (default: ours, the terminal).
    timeout: the seconds it may take (a grade's: a submission's file may
    make the compiler read for ever); its input is none.
    """
    jobs = jobs or os.cpu_count() or 2
    output = {} if log is None else {"stdout": log, "stderr": subprocess.STDOUT}
    try:
        with locked(root, cfg):
            code = make(root, cfg, target, extra=extra, jobs=jobs, sandboxed=True,
                        timeout=timeout, stdin=subprocess.DEVNULL, **output).returncode
    except subprocess.TimeoutExpired:
        return f"make {target} ({cfg.label()}) did not end in {timeout} s"
    except (OSError, RuntimeError) as e:
        return str(e)
    if code:
        return f"make {target} ({cfg.label()}) exited with {code}"
    return None


def start_from(root, cfg, built):
    """Start cfg's build folder, if it has none, as a copy of the closest
    of built (configurations of this run, built already) of its arch:
    its objects, their dependency files and its options, without its
    .config or images. make then writes cfg's .config, kconfig touches the
    stamps of the options that differ, and only the objects that read one
    of them, or whose flags differ (.cflags), are compiled again
    (scripts/fixdep.py): the null build's 104 objects took 10 s of -j2
    from nothing, 1.8 s from the native build's, for the same kernel.elf,
    byte for byte. Whether it copied one."""
    siblings = [c for c in built if c.arch == cfg.arch and c != cfg]
    if not siblings:
        return False
    closest = min(siblings, key=lambda c: _distance(c, cfg))
    with locked(root, cfg):
        dst = os.path.join(root, builddir(root, cfg))
        if os.path.exists(dst):
            return False
        _copy_objects(os.path.join(root, builddir(root, closest)), dst,
                      builddir(root, closest), builddir(root, cfg))
    return True


def _distance(a, b):
    """How many choices tell the configurations a and b apart: the mutex
    build, then each CONF option one has and the other has not."""
    return (a.mutex != b.mutex) + len(set(a.conf.split()) ^ set(b.conf.split()))


def _copy_objects(src, dst, src_name, dst_name):
    """Copy the objects (*.o), dependency files (*.d), options (include/)
    and flags (.cflags) of the build folder src to dst, keeping their
    times; the dependency files name the folder dst_name for src_name."""
    src = os.path.normpath(src)
    options = os.path.join(src, "include")

    def ignore(folder, names):
        folder = os.path.normpath(folder)
        if os.path.commonpath([folder, options]) == options:
            return []
        return [n for n in names if not os.path.isdir(os.path.join(folder, n))
                and not n.endswith((".o", ".d"))
                and not (folder == src and n == ".cflags")]
    shutil.copytree(src, dst, symlinks=True, ignore=ignore)
    for top, _, names in os.walk(dst):
        for name in names:
            if name.endswith(".d"):
                path = os.path.join(top, name)
                with open(path, encoding="utf-8") as f:
                    text = f.read()
                stat = os.stat(path)
                with open(path, "w", encoding="utf-8") as f:
                    f.write(text.replace(src_name + "/", dst_name + "/"))
                os.utime(path, ns=(stat.st_atime_ns, stat.st_mtime_ns))


def elf_symbols(nm, elf, lines=False):
    """[(address, type, name, where)] of the symbols of the ELF file elf,
    by the toolchain's nm; where: "file:line" of its definition (lines:
    from the debug information, nm -l), else ""."""
    out = subprocess.run([nm, *(["-l"] if lines else []), elf], stdout=subprocess.PIPE,
                         stderr=subprocess.DEVNULL, text=True, check=True).stdout
    found = []
    for line in out.splitlines():
        parts = line.split(maxsplit=3)
        if len(parts) >= 3:
            found.append((int(parts[0], 16), parts[1], parts[2],
                          parts[3] if len(parts) == 4 else ""))
    return found
