"""The arches, as each one describes itself in arch/<arch>/arch.mk.

make includes arch.mk for the build; this module reads the same file for
the facts the host tools need (how QEMU boots the arch, which CPU counts
the tests use, ...), so that each fact is written once.  Only the lines
"ARCH_NAME := value" are read; a value that holds a make reference "$("
is meant for make alone and is skipped.
"""

import glob
import os
import re
import shlex
from dataclasses import dataclass

FACT = re.compile(r"(ARCH_[A-Z0-9_]+)\s*:=\s*(.*)$")

# Facts with a fixed set of values, and what each value may be.
CHOICES = {
    "QEMU_CPUS": ("smp", "maxcpus"),
    "EXIT": ("isa-debug-exit", "semihosting"),
    "RESULTS": ("debugcon", "semihosting"),
    "KVM": ("y", "n"),
    "TCG_TURNS": ("y", "n"),
    "KGDB_WATCHPOINTS": ("y", "n"),
    "KGDB_PORT": ("second-serial", "console", "none"),
}
REQUIRED = ("CROSS", "TOOLS", "QEMU", "QEMU_OPTS", "QEMU_CPUS", "MAX_CPUS",
            "EXIT", "RESULTS", "KVM", "TCG_TURNS", "BOOT_IMAGE", "SYMBOLS", "GDB", "MEDIA",
            "KGDB_PORT", "KGDB_WATCHPOINTS", "TEST_CPUS_NATIVE", "TEST_CPUS",
            "BENCH_CPUS")
# What the gdb check needs to drive the kernel's stub by hand, when the
# arch has a port for it.
KGDB_REQUIRED = ("KGDB_PC", "KGDB_BREAK_KIND")


class ArchError(Exception):
    """An arch.mk that lacks a fact or gives one a value we cannot use."""


@dataclass(frozen=True)
class Arch:
    """What the host tools know about one arch.

    qemu_cpus says how the CPU count reaches the machine: "smp" as
    "-smp N", "maxcpus" as "maxcpus=N" on the kernel command line (a board
    with a fixed number of cores).  exit says how the kernel's exit status
    leaves QEMU (see qemu.decode_status), and results the device of the
    results channel, the test runner's KTAP lines apart from the console
    (qemu.results_options).  tcg_turns: the kernel's
    cpu_relax() ends a vCPU's turn in QEMU's one-thread TCG, so its CPUs
    may take turns on one host thread (qemu.Boot.turns).  The image
    names are files in a build folder; raw_image is None for an arch
    without one.  firmware_shim (or None) is a program of the build
    folder that starts the raw image the way the board's firmware does,
    from firmware_load.  media is what the arch boots from outside QEMU
    ("iso", "sdcard", "none").  kgdb_port says where the kernel's gdb
    stub talks: "second-serial", QEMU's second -serial, apart from the
    console, "console", the console's own line (portsplit.py splits it),
    or "none"; kgdb_pc is the pc's (register number, bytes) in gdb's
    numbering and kgdb_break_kind the kind gdb gives a Z0 breakpoint, for
    an arch with a port; kgdb_watchpoints whether its stub gives gdb
    hardware watchpoints and breakpoints (Z1..Z4).
    """

    name: str
    path: str
    cross: str
    tools: tuple            # (command, Debian package) pairs
    qemu: str
    qemu_opts: tuple
    qemu_cpus: str
    max_cpus: int
    exit: str
    results: str
    kvm: bool
    tcg_turns: bool
    boot_image: str
    symbols: str
    raw_image: str | None
    firmware_shim: str | None
    firmware_load: str | None
    gdb: str
    media: str
    kgdb_port: str
    kgdb_pc: tuple | None
    kgdb_break_kind: int | None
    kgdb_watchpoints: bool
    test_cpus_native: tuple
    test_cpus: tuple
    bench_cpus: tuple

    def package_of(self, command):
        """The Debian package that installs command, or None."""
        for tool, package in self.tools:
            if tool == command:
                return package
        return None


def logical_lines(lines):
    """The lines of a makefile with comments cut and continuations joined."""
    pending = []
    for line in lines:
        line = line.rstrip("\n")
        # make has no quoting: a '#' starts a comment anywhere on a line.
        line = line.split("#", 1)[0]
        if line.endswith("\\"):
            pending.append(line[:-1].strip())
            continue
        pending.append(line.strip())
        yield " ".join(part for part in pending if part)
        pending = []
    if pending:
        yield " ".join(part for part in pending if part)


def read_facts(path):
    """The ARCH_* facts of one arch.mk, without the prefix: {"QEMU": "..."}."""
    facts = {}
    with open(path, encoding="utf-8") as f:
        for line in logical_lines(f):
            m = FACT.fullmatch(line)
            if m and "$(" not in m.group(2):
                facts[m.group(1)[len("ARCH_"):]] = m.group(2).strip()
    return facts


def load(path):
    """The Arch described by path (arch/<name>/arch.mk)."""
    name = os.path.basename(os.path.dirname(os.path.abspath(path)))
    facts = read_facts(path)
    missing = [f"ARCH_{key}" for key in REQUIRED if not facts.get(key)]
    if missing:
        raise ArchError(f"{path}: missing {', '.join(missing)}")
    for key, allowed in CHOICES.items():
        if facts[key] not in allowed:
            raise ArchError(f"{path}: ARCH_{key} is '{facts[key]}', "
                            f"not one of: {', '.join(allowed)}")
    max_cpus = _count(path, "MAX_CPUS", facts["MAX_CPUS"])
    has_stub = facts["KGDB_PORT"] != "none"
    missing = [f"ARCH_{key}" for key in KGDB_REQUIRED if has_stub and not facts.get(key)]
    if missing:
        raise ArchError(f"{path}: ARCH_KGDB_PORT is {facts['KGDB_PORT']}, "
                        f"but {', '.join(missing)} is missing")
    return Arch(
        name=name,
        path=path,
        cross=facts["CROSS"],
        tools=_tools(path, facts["TOOLS"]),
        qemu=facts["QEMU"],
        qemu_opts=tuple(shlex.split(facts["QEMU_OPTS"])),
        qemu_cpus=facts["QEMU_CPUS"],
        max_cpus=max_cpus,
        exit=facts["EXIT"],
        results=facts["RESULTS"],
        kvm=facts["KVM"] == "y",
        tcg_turns=facts["TCG_TURNS"] == "y",
        boot_image=facts["BOOT_IMAGE"],
        symbols=facts["SYMBOLS"],
        raw_image=facts.get("RAW_IMAGE") or None,
        firmware_shim=facts.get("FIRMWARE_SHIM") or None,
        firmware_load=facts.get("FIRMWARE_LOAD") or None,
        gdb=facts["GDB"],
        media=facts["MEDIA"],
        kgdb_port=facts["KGDB_PORT"],
        kgdb_pc=_register(path, facts["KGDB_PC"]) if has_stub else None,
        kgdb_break_kind=_count(path, "KGDB_BREAK_KIND", facts["KGDB_BREAK_KIND"])
        if has_stub else None,
        kgdb_watchpoints=facts["KGDB_WATCHPOINTS"] == "y",
        test_cpus_native=_counts(path, "TEST_CPUS_NATIVE", facts, max_cpus),
        test_cpus=_counts(path, "TEST_CPUS", facts, max_cpus),
        bench_cpus=_counts(path, "BENCH_CPUS", facts, max_cpus),
    )


def load_all(root):
    """Every arch of the source tree at root, by name, in name order."""
    paths = sorted(os.path.normpath(p) for p in
                   glob.glob(os.path.join(root, "arch", "*", "arch.mk")))
    if not paths:
        raise ArchError(f"no arch/*/arch.mk under {root}")
    arches = {}
    for path in paths:
        arch = load(path)
        arches[arch.name] = arch
    return arches


def _count(path, key, text):
    if not text.isdigit() or int(text) < 1:
        raise ArchError(f"{path}: ARCH_{key} is '{text}', not a count of at least 1")
    return int(text)


def _register(path, text):
    """ARCH_KGDB_PC "number:bytes" as (number, bytes)."""
    number, colon, size = text.partition(":")
    if not (colon and number.isdigit() and size in ("4", "8")):
        raise ArchError(f"{path}: ARCH_KGDB_PC is '{text}', not register:bytes "
                        "(bytes 4 or 8)")
    return int(number), int(size)


def _counts(path, key, facts, max_cpus):
    counts = tuple(_count(path, key, word) for word in facts[key].split())
    too_many = [c for c in counts if c > max_cpus]
    if too_many:
        raise ArchError(f"{path}: ARCH_{key} has {too_many[0]} CPUs, "
                        f"above ARCH_MAX_CPUS {max_cpus}")
    return counts


def _tools(path, text):
    pairs = []
    for word in text.split():
        command, colon, package = word.partition(":")
        if not (command and colon and package):
            raise ArchError(f"{path}: ARCH_TOOLS item '{word}' is not command:package")
        pairs.append((command, package))
    return tuple(pairs)
