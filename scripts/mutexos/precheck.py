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
  - asm: no inline asm in the lab file's own lines after preprocessing
    (and in its probe's, below) but what the tree's headers' macros
    expand to (barrier(), set_current_state(), ...); in the labs that ask
    for asm (Lab.asm), only the instructions of LAB_INSNS: no directive,
    so no instruction written as data (.byte 0xe6, 0xe9 is an out to the
    results channel) and no file read in by a macro's pieces;
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

import concurrent.futures
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

# The instructions a lab's own asm may have where its handout asks for
# asm (labs 1 and 5: the atomics and the fastpath), by the folder of the
# arch: loads, stores, arithmetic, the atomic and exclusive instructions,
# fences and branches to a label. Not a port, a system register, a trap,
# a semihosting call, a call or an indirect jump; and no directive at
# all (.byte and .inst write any instruction as data, .irp and .macro
# build any directive from pieces).
ARM_COND = r"(?:eq|ne|cs|hs|cc|lo|mi|pl|vs|vc|hi|ls|ge|lt|gt|le|al)?"
LAB_INSNS = {
    "x86": re.compile(r"(?:lock|pause|nop|[lms]fence|cmpxchg(?:8b|16b)"
                      r"|(?:xadd|xchg|cmpxchg|inc|dec|add|adc|sub|sbb|and|or|xor|not|neg"
                      r"|cmp|test|mov|lea|bts?|btr|btc|shl|shr|sal|sar|push|pop)[bwlq]?"
                      r"|mov[sz][bwlq]{1,2}|mov[sz]x|set[a-z]{1,3}|cmov[a-z]{1,3}"
                      r"|j[a-z]{1,3})"),
    "arm": re.compile(r"(?:(?:ldrex|strex)[bhd]?|ldr(?:s?[bh])?|str[bh]?|add|adc|sub|sbc|rsb"
                      r"|rsc|and|orr|eor|bic|mov|mvn|cmp|cmn|tst|teq|lsl|lsr|asr|ror|b|nop"
                      r"|dmb|dsb|isb|clrex|wfe|sev|yield)"
                      rf"(?:{ARM_COND}s?{ARM_COND})(?:\.[nw])?"),
    "riscv": re.compile(r"(?:(?:amo(?:add|swap|and|or|xor|max|maxu|min|minu)|lr|sc)\.[wd]"
                        r"(?:\.(?:aq|rl|aqrl))?|fence|nop|mv|li|lui|not|negw?|sext\.w"
                        r"|(?:add|sub|sll|srl|sra)w?|(?:add|sll|srl|sra)iw?|and|or|xor"
                        r"|andi|ori|xori|sltu?|slti|sltiu|seqz|snez|sltz|sgtz"
                        r"|l[bhw]u?|ld|s[bhwd]|beqz?|bnez?|bltu?|bgeu?|blez|bgez|bltz|bgtz"
                        r"|bgtu?|bleu?|j)"),
}
# Operands no lab's asm has: x86's indirect jump and system registers;
# the pc on arm, where any instruction that writes it is a jump.
LAB_OPERANDS = {
    "x86": re.compile(r"\*|%(?:cr|dr|db|tr)\d"),
    "arm": re.compile(r"\b(?:pc|r15)\b", re.I),
    "riscv": None,
}
# A comment of the assembler: C's on every arch, then to the end of the
# line from x86's and riscv's "#" or arm's "@".
ASM_COMMENT = {"x86": "#", "arm": "@", "riscv": "#"}


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
    """(the build's compiler and flags for a C file, the race detector's
    flags, the objects it compiles without them) (make print-cc)."""
    proc = build.make(root, cfg, "print-cc", quiet=True, capture_output=True, text=True)
    lines = proc.stdout.splitlines()[-3:]
    if proc.returncode or len(lines) != 3:
        raise RuntimeError(f"make print-cc failed for {cfg.label()}: {proc.stderr.strip()}")
    return shlex.split(lines[0]), shlex.split(lines[1]), set(lines[2].split())


def unit_command(compiler, source):
    """How the build compiles the C file source (relative to the tree),
    of compile_command()'s compiler: a file of its own, or a probe."""
    cc, kcsan, without = compiler
    return cc + ([] if source[:-2] + ".o" in without else kcsan)


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
    of the tree at root, its objects built; nm: the arch's nm. Each is
    checked as the build compiled it: a C file's object must be the one
    the build made, and a header must read the same in every file of the
    build that includes it as in the probe the rules read."""
    compiler = compile_command(root, cfg)
    cc = unit_command(compiler, "")
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
            if path.endswith(".h"):
                found += check_views(root, folder, compiler, path, unit, cc)
        else:
            found += check_rebuilt(root, folder, unit_command(compiler, path),
                                   nm[:-2] + "objcopy", path, obj)
        found += check_file(root, cc, nm, lab, path, unit, obj, cfg.arch)
    return list(dict.fromkeys(found))


def probe(root, folder, path, cc, lab):
    """(probe source, its object or None, [Violation]) of the file path.
    A header is probed with the lab's uses of its macros (Lab.probe): if
    only those fail to compile, the macros hide their bodies from the
    rules, which is a violation, and so is a header that does not compile
    in the probe at all (the build's files include it where the rules
    would not see it); a .c file whose probe fails is not in this build."""
    uses = lab.probe if path.endswith(".h") else ""
    unit, obj = write_probe(root, folder, path, cc, uses)
    if obj is not None or not path.endswith(".h"):
        return unit, obj, []
    if uses:
        unit, obj = write_probe(root, folder, path, cc)
    if obj is None:
        return unit, None, [Violation(path, None, "does not compile where the check before "
                                      "running includes it (after <kernel.h>, <sched.h>, "
                                      "<wait.h> and <mutex.h>)")]
    return unit, obj, [Violation(path, None, "its macros do not compile where the "
                                 "check before running uses each (labs.py, Lab.probe)")]


def check_rebuilt(root, folder, cc, objcopy, path, obj):
    """A Violation if the C file path, compiled now, is not the object obj
    the build made of it (their code and data: debug information names
    the folder each was compiled in): what the rules read is not what
    runs."""
    # Absolute: the compiler runs in root (a student tree's is relative).
    again = os.path.join(os.path.abspath(root), folder, "precheck",
                         path.replace("/", "-")[:-2] + ".rebuilt.o")
    os.makedirs(os.path.dirname(again), exist_ok=True)
    proc = subprocess.run(cc + ["-c", path, "-o", again], cwd=root, capture_output=True,
                          text=True, check=False)
    if proc.returncode == 0:
        mine = stripped(objcopy, again, again + ".stripped")
        if mine is not None and mine == stripped(objcopy, obj, again + ".built"):
            return []
    return [Violation(path, None, "compiles to other code now than when the build "
                      "compiled it: the check before running cannot read what runs")]


def stripped(objcopy, obj, out):
    """obj's bytes without its debug information, by way of the file out
    (objcopy writes no pipe), or None."""
    proc = subprocess.run([objcopy, "--strip-debug", obj, out], capture_output=True,
                          check=False)
    if proc.returncode:
        return None
    with open(out, "rb") as f:
        return f.read()


def check_views(root, folder, compiler, path, probe_unit, cc):
    """A Violation if a C file of the build that includes the header path
    (its .d says so) reads other lines of it after preprocessing than the
    probe does: the rules read the probe's."""
    seen = header_text(root, path, run_cc(root, cc, ["-E", "-dD", probe_unit]))

    def differs(source):
        return header_text(root, path, run_cc(root, unit_command(compiler, source),
                                              ["-E", "-dD", source])) != seen
    sources = including_files(root, folder, path)
    # One preprocessor per host core: lab 2's wait.h is in 74 files.
    with concurrent.futures.ThreadPoolExecutor(os.cpu_count() or 2) as pool:
        other = [s for s, bad in zip(sources, pool.map(differs, sources)) if bad]
    if not other:
        return []
    more = f" (and {len(other) - 1} more files of the build)" if len(other) > 1 else ""
    return [Violation(path, None, f"reads otherwise where {other[0]}{more} includes it "
                      "than in the check before running: the rules read other code "
                      "than the build compiled")]


def header_text(root, path, pre):
    """The lines of the header path in preprocessed text pre, in order,
    but the blank ones and where it includes a header (a header included
    before shows no lines, and no #include)."""
    names, mine = {}, []
    for name, line, text in preprocessed_lines(pre):
        if name not in names:
            names[name] = name is not None and same_file(root, name, path)
        if names[name] and text.strip() and not text.startswith("#include "):
            mine.append((line, text))
    return mine


def including_files(root, folder, path):
    """The C files of the build whose dependency files list path."""
    found = []
    for top, _, files in os.walk(os.path.join(root, folder)):
        for name in files:
            if not name.endswith(".d"):
                continue
            with open(os.path.join(top, name), encoding="utf-8", errors="replace") as f:
                deps = f.read().replace("\\\n", " ").split(":", 1)[-1].split()
            if deps and deps[0].endswith(".c") and path in deps[1:]:
                found.append(deps[0])
    return sorted(found)


def write_probe(root, folder, path, cc, uses=""):
    """(probe source, its object): a file that includes the header path,
    compiled with every inline function it defines kept, and then uses
    (C code: the lab's Lab.probe) that expands its macros, whose bodies
    are compiled only where they are used."""
    # Absolute: the compiler runs in root (a student tree's is relative).
    probe_dir = os.path.join(os.path.abspath(root), folder, "precheck")
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


def check_file(root, cc, nm, lab, path, unit, obj, arch):
    """The Violations of one lab file, compiled as unit into obj, in a
    build of the arch named arch."""
    found = check_symbols(nm, lab, path, obj)
    pre = run_cc(root, cc, ["-E", "-dD", unit])
    found += check_headers(root, cc, path, unit, pre)
    found += check_asm(root, path, unit, pre, lab, arch)
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
    """(offset, template) of each asm statement in text: where it starts,
    and the characters of its string literals, joined (escapes read)."""
    return [(m.start(), c_unescape("".join(LITERAL.findall(m.group(2)))))
            for m in ASM.finditer(text)]


# The template of an asm statement in a macro's body, up to its operands:
# string literals, and what the macro pastes between them (#p, LOCK_PREFIX).
MACRO_ASM = re.compile(r"\b(?:__asm__|__asm|asm)\b(?:\s*(?:volatile|__volatile__|__volatile|"
                       r"goto|inline)\b)*\s*\(((?:\"(?:[^\"\\]|\\.)*\"|[^\":)])*)")


def macro_pieces(text):
    """The literal pieces of each asm statement's template in a macro's
    body, in order: where the macro pastes an argument or a macro between
    them, None."""
    found = []
    for m in MACRO_ASM.finditer(text):
        parts = re.split(r"(\"(?:[^\"\\]|\\.)*\")", m.group(1))
        found.append([c_unescape(p[1:-1]) if p.startswith('"') else None
                      for p in parts if p.startswith('"') or p.strip()])
    return found


def macro_pattern(pieces):
    """A pattern of a template of a macro's body: its literals, and where
    the macro pastes an argument (#x: an option of dmb, a CSR's name) any
    text of one statement, so that no second statement (a .byte after a
    newline or a ";") passes for the tree's."""
    return "".join(r"[^\n;]*" if p is None else re.escape(p) for p in pieces)


def runs(lines):
    """(file, first line, text) of each run of consecutive lines of one
    file of preprocessed_lines(), but each #define a run of its own: an
    asm statement may span lines, and so may its template."""
    out = []
    for name, line, text in lines:
        if out and not text.startswith("#define"):
            last_name, first, joined = out[-1]
            if (last_name == name and not joined.startswith("#define")
                    and first + joined.count("\n") + 1 == line):
                out[-1] = (name, first, joined + "\n" + text)
                continue
        out.append((name, line, text))
    return out


def check_asm(root, path, unit, pre, lab, arch):
    """The asm of the lab file's own lines after preprocessing, and of its
    probe's (unit: what its macros expand to), and of its own macros: a
    macro's body is compiled only where it is used. Without Lab.asm, each
    template that no macro or inline function of the tree's headers has;
    with it, each instruction LAB_INSNS does not allow."""
    own = {real_path(root, path), real_path(root, unit)}
    tree, mine, defines = set(), [], []
    for name, first, text in runs(preprocessed_lines(pre)):
        is_own = name is not None and real_path(root, name) in own
        if text.startswith("#define"):
            pieces = macro_pieces(text)
            if is_own:
                defines += [(first, p) for p in pieces]
            else:
                tree.update(macro_pattern(p) for p in pieces)
            continue
        for offset, template in asm_templates(text):
            if is_own:
                # A line of the probe is no line of the lab file.
                line = first + text.count("\n", 0, offset) if same_file(root, name, path) \
                    else None
                mine.append((line, template))
            else:
                tree.add(re.escape(template))
    if lab.asm:
        return [v for line, template in mine
                if not any(re.fullmatch(p, template, re.S) for p in tree)
                for v in check_insns(path, line, [template], arch)] + \
            [v for line, pieces in defines if macro_pattern(pieces) not in tree
             for v in check_insns(path, line, pieces, arch)]
    return [asm_violation(path, line, template) for line, template in mine
            if not any(re.fullmatch(p, template, re.S) for p in tree)] + \
        [asm_violation(path, line, "".join(p or "..." for p in pieces))
         for line, pieces in defines if macro_pattern(pieces) not in tree]


def asm_violation(path, line, template):
    shown = template.encode("unicode_escape").decode("ascii")
    return Violation(path, line, f"inline asm \"{shown[:40]}\" "
                     "(this lab's handout asks for none)")


# A C escape of a string literal.
C_ESCAPE = re.compile(r"\\(?:([0-7]{1,3})|x([0-9a-fA-F]+)|(.))", re.S)
C_SIMPLE = {"n": "\n", "t": "\t", "r": "\r", "v": "\v", "f": "\f", "a": "\a", "b": "\b"}


def c_unescape(literal):
    """The characters a C string literal's text stands for."""
    def one(m):
        if m.group(1):
            return chr(int(m.group(1), 8))
        if m.group(2):
            return chr(int(m.group(2), 16) & 0xff)
        return C_SIMPLE.get(m.group(3), m.group(3))
    return C_ESCAPE.sub(one, literal)


def asm_statements(text, arch):
    """The statements of an asm template's text, comments out, labels off."""
    text = re.sub(r"/\*.*?\*/", " ", text, flags=re.S).replace("%%", "%")
    out = []
    for line in text.split("\n"):
        line = line.split(ASM_COMMENT[arch], 1)[0]
        for stmt in line.split(";"):
            stmt = re.sub(r"^(?:\s*[\w.$%=]+:)+", "", stmt).strip()
            if stmt:
                out.append(stmt)
    return out


def check_insns(path, line, pieces, arch):
    """Each statement of an asm template (its literal pieces; None where a
    macro pastes) that LAB_INSNS does not allow. A statement a macro
    pastes into is judged only for a directive before the paste: the rest
    is judged where the macro is used, in the lab's lines or its probe."""
    arch = {"i386": "x86", "x86_64": "x86"}.get(arch, arch)
    found = []
    text = "".join("\0" if p is None else p for p in pieces)
    for stmt in asm_statements(text, arch):
        if "\0" in stmt:
            stmt = stmt.split("\0", 1)[0].strip()
            if not stmt.startswith("."):
                continue
        why = insn_problem(stmt, arch)
        if why:
            found.append(Violation(path, line, f"inline asm \"{stmt[:40]}\": {why}"))
    return found


def insn_problem(stmt, arch):
    """Why a statement of a lab's own asm is not allowed, or None."""
    word, rest = re.match(r"(\S+)\s*(.*)", stmt, re.S).groups()
    if word.startswith("."):
        return f"the directive {word}: no lab's asm has directives"
    if not LAB_INSNS[arch].fullmatch(word.lower()):
        return f"{word} is not an instruction of the lab's asm (precheck.py, LAB_INSNS)"
    if arch == "x86" and word.lower() == "lock" and rest:
        return insn_problem(rest, arch)
    operands = LAB_OPERANDS[arch]
    if operands and operands.search(rest):
        return "an indirect jump or a system register (precheck.py, LAB_OPERANDS)"
    return None


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
