"""A submission checked before it runs (CMU datalab's dlc is the model).

A student's lab code runs in the kernel that runs the tests, so a lab
file could forge its grade: include the reference, call the test
framework, print the result lines and exit. Before any boot, each file
of the lab is compiled as the build compiles it (make print-cc) and
checked, per build:

  - symbols: the undefined symbols of its object (nm -u) must be in the
    lab's allowlist (labs.py, Lab.allowed);
  - headers: every file it includes (the compiler's -M output) must be a
    header of the tree's include folders (the -I of the build) or of the
    lab file's own folder;
  - asm: no inline asm in the lab file's own lines after preprocessing,
    but for the labs that ask for it (Lab.asm) and what the tree's
    headers' macros expand to (barrier(), set_current_state(), ...);
  - directives: no .incbin or .include in the assembler input (-S);
  - channel: no instruction in the assembler input that could write the
    results channel (qemu.py), whoever's asm it comes from: an I/O port
    write (x86: asm/io.h's outb() is an inline function any lab could
    call), a semihosting call (arm: svc, hlt; riscv: the slli that
    starts its sequence);
  - strings: no KTAP result line, suite line or end-of-tests line in the
    object.

A header (lab 1's atomics) has no object of its own: a probe file that
includes it is compiled with -fkeep-inline-functions, so that every
function the header defines is in the object the rules read; a lab
whose header defines macros (lab 2's wait_event()) has code in the
probe that uses them (Lab.probe), so that what their bodies expand to
is in it too.
"""

import fnmatch
import os
import re
import shlex
import subprocess

from . import build, labmarks

# What the test framework and the grader read as a result: no lab file
# has a reason to hold one.
KTAP_STRINGS = re.compile(rb"(?:^|[^a-z])(?:not )?ok \d+|# Subtest:|# mutexos: end of tests"
                          rb"|K?TAP version \d+|^1\.\.\d+")
# Assembler directives that read another file into the object.
DIRECTIVES = re.compile(r"^\s*\.(incbin|include)\b", re.M)
# Instructions of the assembler input that reach the results channel or
# make a semihosting call; none of a lab's code has a reason to.
CHANNEL_INSNS = re.compile(r"(?:^|;)\s*((?:rep\w*\s+)?outs?[bwl]?|svc|swi|hlt"
                           r"|slli\s+(?:zero|x0),\s*(?:zero|x0),\s*(?:0x1f|31))(?=[\s;]|$)",
                           re.M | re.I)
# An asm statement after preprocessing, and the string literals of its
# template (anything else in its place is not the tree's asm).
ASM = re.compile(r"\b(?:__asm__|__asm|asm)\b((?:\s*(?:volatile|__volatile__|__volatile|"
                 r"goto|inline)\b)*)\s*\(\s*((?:\"(?:[^\"\\]|\\.)*\"\s*)*)")
LITERAL = re.compile(r"\"((?:[^\"\\]|\\.)*)\"")
LINEMARK = re.compile(r"^# (\d+) \"((?:[^\"\\]|\\.)*)\"((?: \d)*)$")


class Violation:
    """A rule a lab file broke: where (line None if unknown) and what."""

    def __init__(self, path, line, what):
        self.path, self.line, self.what = path, line, what

    def __str__(self):
        where = f"{self.path}:{self.line}" if self.line else self.path
        return f"{where}: {self.what}"

    def __eq__(self, other):
        return str(self) == str(other)

    def __hash__(self):
        return hash(str(self))


def compile_command(root, cfg):
    """The build's compiler and flags for a C file (make print-cc)."""
    proc = build.make(root, cfg, "print-cc", quiet=True, capture_output=True, text=True)
    if proc.returncode:
        raise RuntimeError(f"make print-cc failed for {cfg.label()}: {proc.stderr.strip()}")
    return shlex.split(proc.stdout)


def include_dirs(cc):
    """The include folders of a compile command: its -I folders (the
    tree's), the generated header's, and the compiler's own freestanding
    headers (stddef.h, stdarg.h), which the tree's headers include."""
    own = subprocess.run([cc[0], "-print-file-name=include"], capture_output=True,
                         text=True, check=False).stdout.strip()
    return [a[2:] for a in cc if a.startswith("-I")] + [own] + \
        [os.path.dirname(cc[i + 1]) for i, a in enumerate(cc[:-1]) if a == "-include"]


def lab_sources(root, lab, submitted):
    """The C files and headers of lab, of the paths submitted (relative to root)."""
    return [p for p in submitted if p.endswith(labmarks.SOURCE_SUFFIXES)
            and os.path.isfile(os.path.join(root, p)) and p.endswith((".c", ".h"))]


def check(root, cfg, nm, lab, submitted):
    """The Violations of lab's files (paths of submitted) in the build cfg
    of the tree at root, its objects built; nm: the arch's nm."""
    cc = compile_command(root, cfg)
    folder = build.builddir(root, cfg)
    dirs = [os.path.abspath(os.path.join(root, d)) for d in include_dirs(cc)]
    found = []
    for path in lab_sources(root, lab, submitted):
        full = os.path.abspath(os.path.join(root, path))
        if path.startswith("arch/") and not any(full.startswith(d + os.sep) for d in dirs):
            continue        # another arch's header: not in this build
        unit = path
        obj = os.path.join(root, folder, path[:-2] + ".o")
        if path.endswith(".h") or not os.path.isfile(obj):
            unit, obj, why = probe(root, folder, path, cc, lab)
            found += why
            if obj is None:
                continue
        found += check_file(root, cc, nm, lab, path, unit, obj)
    return list(dict.fromkeys(found))


def probe(root, folder, path, cc, lab):
    """(probe source, its object or None, [Violation]) of the file path.
    A header is probed with the lab's uses of its macros (Lab.probe): if
    only those fail to compile, the macros hide their bodies from the
    rules, which is a violation; a probe that fails without them checks
    nothing (a .c file that is not in this build)."""
    uses = lab.probe if path.endswith(".h") else ""
    unit, obj = write_probe(root, folder, path, cc, uses)
    if obj is not None or not uses:
        return unit, obj, []
    unit, obj = write_probe(root, folder, path, cc)
    if obj is None:
        return unit, None, []
    return unit, obj, [Violation(path, None, "its macros do not compile where the "
                                 "check before running uses each (labs.py, Lab.probe)")]


def write_probe(root, folder, path, cc, uses=""):
    """(probe source, its object): a file that includes the header path,
    compiled with every inline function it defines kept, and then uses
    (C code: the lab's Lab.probe) that expands its macros, whose bodies
    are compiled only where they are used."""
    probe_dir = os.path.join(root, folder, "precheck")
    os.makedirs(probe_dir, exist_ok=True)
    name = path.replace("/", "-")[:-2]
    src = os.path.join(probe_dir, f"{name}.c")
    with open(src, "w", encoding="utf-8") as f:
        # The tree's own order: a header of asm/ expects the generic one's
        # types; then the lab's header itself, whichever folder it is in.
        f.write("#include <kernel.h>\n#include <sched.h>\n#include <wait.h>\n"
                f"#include <mutex.h>\n#include \"{os.path.abspath(os.path.join(root, path))}\"\n"
                f"{uses}")
    obj = src[:-2] + ".o"
    proc = subprocess.run(cc + ["-fkeep-inline-functions", "-c", src, "-o", obj],
                          cwd=root, capture_output=True, text=True, check=False)
    if proc.returncode:
        return src, None
    return src, obj


def check_file(root, cc, nm, lab, path, unit, obj):
    """The Violations of one lab file, compiled as unit into obj."""
    found = check_symbols(nm, lab, path, obj)
    pre = run_cc(root, cc, ["-E", "-dD", unit])
    found += check_headers(root, cc, path, unit, pre)
    if not lab.asm:
        found += check_asm(root, path, pre)
    asm = run_cc(root, cc, ["-S", "-o", "-", unit])
    found += check_directives(path, asm)
    found += check_channel(path, asm)
    found += check_strings(path, obj)
    return found


def run_cc(root, cc, args):
    """The compiler's output for args (the build's flags), or "" if it failed."""
    proc = subprocess.run(cc + args, cwd=root, capture_output=True, text=True,
                          errors="replace", check=False)
    return proc.stdout if proc.returncode == 0 else ""


def check_symbols(nm, lab, path, obj):
    """Each undefined symbol of obj the lab's allowlist does not name."""
    proc = subprocess.run([nm, "-u", obj], capture_output=True, text=True, check=False)
    if proc.returncode:
        return [Violation(path, None, f"{nm} -u failed: {proc.stderr.strip()}")]
    symbols = [line.split()[-1] for line in proc.stdout.splitlines() if line.strip()]
    return [Violation(path, None, f"uses the symbol {s}, which lab {lab.number} may not")
            for s in symbols if not allowed_symbol(lab, path, s)]


def allowed_symbol(lab, path, symbol):
    """Whether lab's allowlist names symbol for the file path: its
    entries are fnmatch patterns, "file:pattern" for one file alone."""
    for entry in lab.allowed:
        where, _, pattern = entry.rpartition(":")
        if (not where or where == path) and fnmatch.fnmatchcase(symbol, pattern):
            return True
    return False


def preprocessed_lines(pre):
    """(file, line, text) of each line of -E output, by its line markers;
    a file entered (flag 1) adds an #include line to the file before it."""
    out, name, line = [], None, 0
    for text in pre.splitlines():
        m = LINEMARK.match(text)
        if not m:
            out.append((name, line, text))
            line += 1
            continue
        if "1" in m.group(3).split() and name:
            # The marker comes where the #include was: line is its line.
            out.append((name, line, f'#include "{m.group(2)}"'))
        name, line = m.group(2), int(m.group(1))
    return out


def same_file(root, a, b):
    """Whether paths a and b (relative to root or absolute) are one file."""
    return real_path(root, a) == real_path(root, b)


# The compiler's own working folder, as an absolute path: root.
PROC_CWD = re.compile(r"^/proc/(?:self|thread-self)/cwd(?=/|$)")


def real_path(root, path):
    """Where path, as the compiler spelled it (relative to root, the
    folder it runs in, or absolute), really is: its links followed, so
    that a/../b through a linked folder is the file the compiler read,
    and /proc/self/cwd/ is root."""
    m = PROC_CWD.match(path)
    if m:
        path = "." + path[m.end():]
    return os.path.realpath(os.path.join(root, path))


def shown_path(root, path):
    """path (real) relative to root when it is inside it."""
    top = os.path.realpath(root)
    return os.path.relpath(path, top) if path.startswith(top + os.sep) else path


def check_headers(root, cc, path, unit, pre):
    """Each file the lab file includes, directly or not, outside the tree's
    include folders and its own folder's headers."""
    deps = run_cc(root, cc, ["-M", unit])
    if not deps:
        return [Violation(path, None, "its dependencies could not be listed (-M)")]
    files = deps.replace("\\\n", " ").split(":", 1)[1].split()
    where = {}
    for name, line, text in preprocessed_lines(pre):
        if text.startswith("#include ") and same_file(root, name, path):
            where.setdefault(real_path(root, text[10:-1]), line)
    allowed = [real_path(root, d) for d in include_dirs(cc)]
    own = real_path(root, os.path.dirname(path) or ".")
    found = []
    for dep in files:
        full = real_path(root, dep)
        if same_file(root, dep, unit) or same_file(root, dep, path):
            continue
        inside = any(os.path.commonpath([full, d]) == d for d in allowed)
        if (inside or os.path.dirname(full) == own) and full.endswith(".h"):
            continue
        found.append(Violation(path, where.get(full), f"includes {shown_path(root, full)}, "
                               "which is not a header of the tree's include folders "
                               "or its own folder"))
    return found


def asm_templates(text):
    """The template of each asm statement in text: its string literals joined."""
    return ["".join(LITERAL.findall(m.group(2))) for m in ASM.finditer(text)]


# The template of an asm statement in a macro's body, up to its operands:
# string literals, and what the macro pastes between them (#p, LOCK_PREFIX).
MACRO_ASM = re.compile(r"\b(?:__asm__|__asm|asm)\b(?:\s*(?:volatile|__volatile__|__volatile|"
                       r"goto|inline)\b)*\s*\(((?:\"(?:[^\"\\]|\\.)*\"|[^\":)])*)")


def macro_templates(text):
    """A pattern of each asm statement's template in a macro's body: its
    literals, anything where the macro pastes an argument or a macro."""
    found = []
    for m in MACRO_ASM.finditer(text):
        parts = re.split(r"(\"(?:[^\"\\]|\\.)*\")", m.group(1))
        found.append("".join(re.escape(p[1:-1]) if p.startswith('"') else
                             (".*" if p.strip() else "") for p in parts))
    return found


def check_asm(root, path, pre):
    """Each asm statement in the lab file's own lines after preprocessing
    whose template no macro or inline function of the tree's headers has,
    and each in a macro of its own (lab 2's wait_event()) that no macro
    of theirs has: a macro's body is compiled only where it is used."""
    lines = preprocessed_lines(pre)
    tree = set()
    for name, _, text in lines:
        if not same_file(root, name, path):
            tree.update(re.escape(t) for t in asm_templates(text))
            if text.startswith("#define"):
                tree.update(macro_templates(text))
    found = []
    for name, line, text in lines:
        if not same_file(root, name, path):
            continue
        if text.startswith("#define"):
            found += [asm_violation(path, line, p.replace("\\", ""))
                      for p in macro_templates(text) if p not in tree]
            continue
        for template in asm_templates(text):
            if not any(re.fullmatch(p, template, re.S) for p in tree):
                found.append(asm_violation(path, line, template))
    return found


def asm_violation(path, line, template):
    return Violation(path, line, f"inline asm \"{template[:40]}\" "
                     "(this lab's handout asks for none)")


def check_directives(path, asm):
    """Each .incbin or .include in the assembler input."""
    return [Violation(path, None, f"the assembler input has .{m.group(1)}: "
                      "no lab reads another file into its object")
            for m in DIRECTIVES.finditer(asm)]


def check_channel(path, asm):
    """Each instruction of the assembler input that could write the results
    channel, once per kind."""
    kinds = dict.fromkeys(" ".join(m.group(1).split()).lower()
                          for m in CHANNEL_INSNS.finditer(asm))
    return [Violation(path, None, f"the assembler input has \"{kind}\": no lab "
                      "writes an I/O port or makes a semihosting call")
            for kind in kinds]


def check_strings(path, obj):
    """Each string of the object that reads as a KTAP result or end line."""
    with open(obj, "rb") as f:
        data = f.read()
    found = []
    for run in re.findall(rb"[\x20-\x7e\t\n]{4,}", data):
        for line in run.splitlines():
            m = KTAP_STRINGS.search(line.strip())
            if m:
                text = line.strip().decode("ascii", "replace")[:60]
                found.append(Violation(path, None, f"holds the string \"{text}\", "
                                       "which reads as a test result line"))
    return found
