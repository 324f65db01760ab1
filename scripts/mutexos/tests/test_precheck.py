"""precheck.py: each rule on tiny files compiled by the host's gcc.

A fixture tree in a temporary folder: include/ (the tree's include
folder), lab/ (the lab's files) and outside/ (a file no lab may read,
as the reference is to a submission). Each test compiles one lab file
and runs check_file() on it, as check() does for each file of a lab.
"""

import dataclasses
import os
import re
import shutil
import subprocess
import tempfile
import unittest

from mutexos import labs, precheck

CC = shutil.which("gcc")
NM = shutil.which("nm")
FLAGS = ["-Iinclude", "-std=gnu11", "-O2", "-ffreestanding", "-fno-builtin", "-fno-pic",
         "-fno-pie", "-fno-stack-protector", "-fno-asynchronous-unwind-tables"]
LAB = dataclasses.replace(labs.LABS[3], allowed=("helper", "lab/only.c:special", "__tsan_*"))

def outside(line, dep):
    """The header rule's report of lab/sol.c including dep on line."""
    return (f"lab/sol.c:{line}: includes {dep}, which is not a header of the tree's "
            "include folders or its own folder")


HEADER = """\
#define barrier() __asm__ __volatile__("" ::: "memory")
static inline void cpu_relax(void) { __asm__ __volatile__("pause"); }
int helper(int);
"""


@unittest.skipUnless(CC and NM, "needs the host's gcc and nm")
class Rules(unittest.TestCase):
    def setUp(self):
        self.root = tempfile.mkdtemp(prefix="precheck-test-")
        self.addCleanup(shutil.rmtree, self.root)
        self.cc = [CC] + FLAGS
        self.write("include/ok.h", HEADER)
        self.write("outside/ref.c", "int ref_answer(void) { return 42; }\n")
        self.write("outside/blob.bin", "reference\n")

    def write(self, path, text):
        full = os.path.join(self.root, path)
        os.makedirs(os.path.dirname(full), exist_ok=True)
        with open(full, "w", encoding="utf-8") as f:
            f.write(text)

    def check(self, text, path="lab/sol.c", lab=LAB):
        """The Violations of a lab file holding text, as strings."""
        self.write(path, text)
        obj = os.path.join(self.root, path[:-2] + ".o")
        proc = subprocess.run(self.cc + ["-c", path, "-o", obj], cwd=self.root,
                              capture_output=True, text=True, check=False)
        self.assertEqual(proc.returncode, 0, proc.stderr)
        return [str(v) for v in precheck.check_file(self.root, self.cc, NM, lab, path, path,
                                                    obj, "x86_64")]

    def test_a_clean_file_passes(self):
        self.assertEqual(self.check(
            '#include <ok.h>\n'
            'int sol(int x)\n{\n\tbarrier();\n\tcpu_relax();\n\treturn helper(x) + 1;\n}\n'
            'const char *msg = "look 1 book 2";\n'), [])

    def test_a_symbol_not_allowed(self):
        found = self.check('#include <ok.h>\nextern int printk(const char *, ...);\n'
                           'int sol(int x) { printk("hi"); return helper(x); }\n')
        self.assertEqual(found, ["lab/sol.c: uses the symbol printk, which lab 3 may not"])

    def test_kallsyms_lookup_name_is_not_allowed(self):
        found = self.check('extern unsigned long kallsyms_lookup_name(const char *);\n'
                           'typedef int (*fn)(void);\n'
                           'int sol(void) { return ((fn)kallsyms_lookup_name("ref"))(); }\n')
        self.assertEqual(len(found), 1)
        self.assertIn("kallsyms_lookup_name", found[0])
        # Its argument is no KTAP string, nor anything else: only the symbol.
        self.assertTrue(found[0].startswith("lab/sol.c: uses the symbol"), found)

    def test_a_symbol_allowed_in_one_file_only(self):
        text = 'extern int special(void);\nint sol(void) { return special(); }\n'
        self.assertEqual(self.check(text, path="lab/only.c"), [])
        self.assertEqual(self.check(text, path="lab/other.c"),
                         ["lab/other.c: uses the symbol special, which lab 3 may not"])

    def test_a_pattern_of_the_allowlist(self):
        self.assertEqual(self.check('extern void __tsan_read4(void *);\n'
                                    'void sol(int *p) { __tsan_read4(p); }\n'), [])

    def test_a_file_outside_the_include_folders(self):
        ref = os.path.join(self.root, "outside", "ref.c")
        # (how it is included, the line of the #include): plainly, behind
        # __has_include, by absolute path, and through /proc/self/cwd (the
        # compiler's working folder, the tree: named as the file it read).
        for name, line in (("../outside/ref.c", 3), ("../outside/ref.c", 2), (ref, 2),
                           ("/proc/self/cwd/lab/../outside/ref.c", 2)):
            with self.subTest(name=name, line=line):
                text = f'#include "{name}"\n'
                if line == 2:
                    text = f'#if __has_include("{name}")\n{text}#endif\n'
                else:
                    text = '#include <ok.h>\n\n' + text
                found = self.check(text + 'int sol(void) { return ref_answer(); }\n')
                self.assertEqual(found, [outside(line, "outside/ref.c")])

    def test_an_include_through_a_linked_folder(self):
        # include/asm links to arch/x/asm: <asm/../secret.h> reads as
        # include/secret.h, but the compiler reads arch/x/secret.h.
        self.write("arch/x/asm/atomic.h", "\n")
        self.write("arch/x/secret.h", "static inline int secret(void) { return 42; }\n")
        os.symlink(os.path.join(self.root, "arch/x/asm"), os.path.join(self.root, "include/asm"))
        found = self.check('#include <asm/../secret.h>\nint sol(void) { return secret(); }\n')
        self.assertEqual(found, [outside(1, "arch/x/secret.h")])

    def test_a_header_of_its_own_folder(self):
        self.write("lab/mine.h", "static inline int mine(void) { return 1; }\n")
        self.assertEqual(self.check('#include "mine.h"\nint sol(void) { return mine(); }\n'),
                         [])

    def test_a_c_file_of_its_own_folder(self):
        self.write("lab/copy.c", "static int copied(void) { return 1; }\n")
        self.assertEqual(self.check('#include "copy.c"\nint sol(void) { return copied(); }\n'),
                         [outside(1, "lab/copy.c")])

    def test_inline_asm_of_its_own(self):
        found = self.check('#include <ok.h>\nint sol(int x)\n{\n'
                           '\t__asm__ __volatile__("incl %0" : "+r"(x));\n\treturn x;\n}\n')
        self.assertEqual(found, ['lab/sol.c:4: inline asm "incl %0" '
                                 "(this lab's handout asks for none)"])

    def test_inline_asm_in_a_macro_of_its_own(self):
        # A macro's body is compiled only where it is used; barrier()'s
        # asm is the tree's own.
        found = self.check('#include <ok.h>\n'
                           '#define poke(x) __asm__ __volatile__("nop" :: "r"(x))\n'
                           '#define fence() barrier()\n'
                           '#define same() __asm__ __volatile__("" ::: "memory")\n'
                           'int sol(int x) { fence(); same(); return x; }\n')
        self.assertEqual(found, ['lab/sol.c:2: inline asm "nop" (this lab\'s handout '
                                 'asks for none)'])

    def test_a_macro_checked_where_the_probe_uses_it(self):
        # Lab 2's wait_event(): the header alone compiles none of its body.
        self.probe_headers()
        self.write("lab/wq.h", "void machine_exit(int);\n"
                   "#define wait_it(c) do { if (!(c)) machine_exit(0); } while (0)\n")
        lab = dataclasses.replace(LAB, probe="void lab_probe(int c)\n{\n\twait_it(c);\n}\n")

        def probe_check(uses):
            unit, obj = precheck.write_probe(self.root, "build", "lab/wq.h", self.cc, uses)
            self.assertIsNotNone(obj)
            return [str(v) for v in precheck.check_file(self.root, self.cc, NM, lab,
                                                        "lab/wq.h", unit, obj, "x86_64")]
        self.assertEqual(probe_check(""), [])
        self.assertEqual(probe_check(lab.probe),
                         ["lab/wq.h: uses the symbol machine_exit, which lab 3 may not"])
        # A macro made not to compile where the probe uses it hides its body.
        self.write("lab/wq.h", "#define wait_it(c) do { } while (0) junk\n")
        self.assertEqual(self.probe("lab/wq.h", lab),
                         (True, ["lab/wq.h: its macros do not compile where the check before "
                                 "running uses each (labs.py, Lab.probe)"]))
        self.write("lab/wq.h", "#define wait_it(c) do { } while (0)\n")
        self.assertEqual(self.probe("lab/wq.h", lab), (True, []))

    def probe(self, path, lab=LAB):
        """(whether the probe of path compiled, its violations as strings)."""
        _, obj, why = precheck.probe(self.root, "build", path, self.cc, lab)
        return obj is not None, [str(v) for v in why]

    def probe_headers(self):
        for header in ("kernel.h", "sched.h", "wait.h", "mutex.h"):
            self.write(f"include/{header}", "")

    def test_a_header_that_does_not_compile_in_its_probe(self):
        # It could only compile where a file of the build declared more.
        self.probe_headers()
        self.write("lab/h.h", "static inline int h(void) { return declared_elsewhere; }\n")
        self.assertEqual(self.probe("lab/h.h"),
                         (False, ["lab/h.h: does not compile where the check before running "
                                  "includes it (after <kernel.h>, <sched.h>, <wait.h> and "
                                  "<mutex.h>)"]))
        # A C file whose probe fails is one this build does not compile.
        self.write("lab/other.c", "int x = declared_elsewhere;\n")
        self.assertEqual(self.probe("lab/other.c"), (False, []))

    def test_a_tree_named_relative_to_where_we_run(self):
        # make grade in a student tree names it "build/labs/lab0" in
        # make check-labs: the probe and the rebuilt object are still
        # compiled, not taken for files that do not compile.
        self.probe_headers()
        self.write("lab/h.h", "static inline int h(void) { return 1; }\n")
        self.write("lab/sol.c", "int sol(int x) { return x + 1; }\n")
        os.makedirs(os.path.join(self.root, "build/lab"))
        subprocess.run(self.cc + ["-c", "lab/sol.c", "-o", "build/lab/sol.o"], cwd=self.root,
                       check=True)
        here = os.getcwd()
        self.addCleanup(os.chdir, here)
        os.chdir(os.path.dirname(self.root))
        root = os.path.basename(self.root)
        unit, obj, why = precheck.probe(root, "build", "lab/h.h", self.cc, LAB)
        self.assertEqual((why, os.path.isfile(obj)), ([], True))
        self.assertEqual(precheck.check_rebuilt(root, "build", self.cc, shutil.which("objcopy"),
                                                "lab/sol.c", f"{root}/build/lab/sol.o"), [])

    def test_a_c_file_compiled_otherwise_than_built(self):
        objcopy = shutil.which("objcopy")
        self.write("lab/sol.c", "int sol(int x) { return x + 1; }\n")
        os.makedirs(os.path.join(self.root, "build/lab"))
        obj = os.path.join(self.root, "build/lab/sol.o")
        subprocess.run(self.cc + ["-g", "-c", "lab/sol.c", "-o", obj], cwd=self.root, check=True)
        self.assertEqual(precheck.check_rebuilt(self.root, "build", self.cc + ["-g"], objcopy,
                                                "lab/sol.c", obj), [])
        self.write("lab/sol.c", "int sol(int x) { return x + 2; }\n")
        self.assertEqual([str(v) for v in precheck.check_rebuilt(
            self.root, "build", self.cc + ["-g"], objcopy, "lab/sol.c", obj)],
                         ["lab/sol.c: compiles to other code now than when the build compiled "
                          "it: the check before running cannot read what runs"])

    def test_a_header_read_otherwise_where_a_file_includes_it(self):
        self.probe_headers()
        self.write("include/other.h", "#define _OTHER_H\n")
        self.write("lab/h.h", "#ifdef _OTHER_H\nvoid machine_exit(int);\n#endif\n"
                   "static inline int h(void) { return 1; }\n")
        for name, first in (("a", "#include <other.h>\n"), ("b", ""), ("c", "")):
            self.write(f"src/{name}.c", first + '#include "../lab/h.h"\nint f(void) { return h(); }\n')
            self.write(f"build/src/{name}.d", f"build/src/{name}.o: src/{name}.c "
                       "lab/h.h \\\n include/other.h\n")
        unit, obj, _ = precheck.probe(self.root, "build", "lab/h.h", self.cc, LAB)
        compiler = (self.cc, ["-DRACE"], {"src/b.o"})
        self.assertEqual([str(v) for v in precheck.check_views(self.root, "build", compiler,
                                                               "lab/h.h", unit, self.cc)],
                         ["lab/h.h: reads otherwise where src/a.c includes it than in the "
                          "check before running: the rules read other code than the build "
                          "compiled"])
        # The race detector's flags, where the build gives them.
        self.write("lab/h.h", "#ifdef RACE\nvoid machine_exit(int);\n#endif\n")
        self.write("src/a.c", '#include "../lab/h.h"\n')
        found = [str(v) for v in precheck.check_views(self.root, "build", compiler, "lab/h.h",
                                                      unit, self.cc)]
        self.assertEqual(len(found), 1)
        self.assertIn("where src/a.c (and 1 more files of the build) includes it", found[0])

    def test_what_no_file_may_ask_of_its_build(self):
        # include/reproducible.h: what would let a file compile otherwise
        # in the build than in the check, even spelled by pasting.
        poison = os.path.join(os.path.dirname(__file__), "../../../include/reproducible.h")
        for text in ('#if __has_include("x.h")\n#endif\n',
                     "#define CAT(a, b) a##b\n#if CAT(__has_, include)(<stddef.h>)\n#endif\n",
                     "int l = __INCLUDE_LEVEL__;\n", "const char *t = __TIME__;\n",
                     "int c = __COUNTER__;\n", "const char *b = __BASE_FILE__;\n"):
            with self.subTest(text=text):
                self.write("lab/sol.c", text)
                proc = subprocess.run(self.cc + ["-include", poison, "-c", "lab/sol.c", "-o",
                                                 "lab/sol.o"], cwd=self.root,
                                      capture_output=True, text=True, check=False)
                self.assertNotEqual(proc.returncode, 0)
                self.assertIn("poisoned", proc.stderr)
        self.write("lab/sol.c", "#include <stddef.h>\nconst char *f = __FILE__;\n")
        proc = subprocess.run(self.cc + ["-Wall", "-Werror", "-include", poison, "-c",
                                         "lab/sol.c", "-o", "lab/sol.o"], cwd=self.root,
                              capture_output=True, text=True, check=False)
        self.assertEqual((proc.returncode, proc.stderr), (0, ""))

    def test_inline_asm_where_the_lab_asks_for_it(self):
        lab = dataclasses.replace(LAB, asm=True)
        self.assertEqual(self.check('int sol(int x)\n{\n'
                                    '\t__asm__ __volatile__("incl %0" : "+r"(x));\n'
                                    '\treturn x;\n}\n', lab=lab), [])

    def test_incbin(self):
        lab = dataclasses.replace(LAB, asm=True)     # the directive rule alone
        found = self.check('__asm__(".section .rodata\\n.incbin \\"outside/blob.bin\\"\\n'
                           '.previous");\nint sol(void) { return 0; }\n', lab=lab)
        self.assertEqual(found[-1], "lab/sol.c: the assembler input has .incbin: "
                         "no lab reads another file into its object")
        self.assertIn("the directive .incbin: no lab's asm has directives", found[1])

    def test_an_asm_statement_over_lines(self):
        # Its first line is barrier()'s template; the rest is not.
        found = self.check('#include <ok.h>\nint sol(int x)\n{\n'
                           '\t__asm__ __volatile__(""\n\t\t".byte 0xe6, 0xe9" : "+r"(x));\n'
                           '\treturn x;\n}\n')
        self.assertEqual(found, ['lab/sol.c:4: inline asm ".byte 0xe6, 0xe9" '
                                 "(this lab's handout asks for none)"])

    def test_what_a_tree_macro_pastes_is_one_statement(self):
        # arm's dmb(opt) pastes its option: the pattern of its template
        # must not take a second statement for the option.
        self.write("include/fence.h", '#define xfence(k) __asm__ __volatile__(#k "fence" '
                   '::: "memory")\n')
        self.assertEqual(self.check('#include <fence.h>\nvoid sol(void) { xfence(m); }\n'), [])
        for template in (".byte 0xe6, 0xe9\\n\\tm", ".byte 0xe6, 0xe9; m"):
            with self.subTest(template=template):
                found = self.check('#include <fence.h>\nvoid sol(void)\n{\n'
                                   f'\t__asm__ __volatile__("{template}fence");\n}}\n')
                self.assertEqual(len(found), 1, found)
                self.assertTrue(found[0].startswith('lab/sol.c:4: inline asm ".byte'), found)

    def test_a_macro_whose_use_the_probe_expands(self):
        # The probe is the lab's code: what it expands is not the tree's.
        self.probe_headers()
        self.write("lab/wq.h", '#define wait_it(c) do { if (!(c)) '
                   '__asm__ __volatile__(".byte 0xe6, 0xe9"); } while (0)\n')
        lab = dataclasses.replace(LAB, probe="void lab_probe(int c)\n{\n\twait_it(c);\n}\n")
        unit, obj = precheck.write_probe(self.root, "build", "lab/wq.h", self.cc, lab.probe)
        found = [str(v) for v in precheck.check_file(self.root, self.cc, NM, lab, "lab/wq.h",
                                                     unit, obj, "x86_64")]
        self.assertEqual(sorted(set(v.split(": ", 1)[1] for v in found)),
                         ['inline asm ".byte 0xe6, 0xe9" (this lab\'s handout asks for none)'])
        # The macro where it is defined, and its use, in the probe.
        self.assertEqual(sorted(v.split(" ", 1)[0] for v in found), ["lab/wq.h:", "lab/wq.h:1:"])

    def test_only_instructions_where_the_lab_asks_for_asm(self):
        lab = dataclasses.replace(LAB, asm=True)
        self.assertEqual(self.check('#include <ok.h>\nint sol(int *p, int v)\n{\n'
                                    '\t__asm__ __volatile__("lock; xaddl %0, %1" '
                                    ': "+r"(v), "+m"(*p));\n'
                                    '\t__asm__ __volatile__("1:\\tlock xchgl %0, %1\\n\\t"\n'
                                    '\t\t"pause /* spin */ # done" : "+r"(v), "+m"(*p));\n'
                                    '\tbarrier();\n\treturn v;\n}\n', lab=lab), [])
        found = self.check('int sol(int x)\n{\n'
                           '\t__asm__ __volatile__("incl %0\\n\\t"\n'
                           '\t\t"\\056byte 0xe6, 0xe9" : "+r"(x));\n\treturn x;\n}\n',
                           lab=lab)
        self.assertEqual(found, ['lab/sol.c:3: inline asm ".byte 0xe6, 0xe9": the directive '
                                 ".byte: no lab's asm has directives"])
        # A macro of its own that a tree file could expand: its literals.
        found = self.check('#define LOCK_PREFIX ".irp d,bin\\n.inc\\\\d \\"x\\"\\n'
                           '.endr\\n lock; "\n#define op(i) __asm__ __volatile__'
                           '(LOCK_PREFIX #i " %0" : "+m"(*p))\nint v;\n', lab=lab)
        self.assertEqual(found, [])     # a string alone is not asm
        found = self.check('#define op(p) __asm__ __volatile__(".irp d,bin\\n'
                           '.inc\\\\d \\"x\\"\\n.endr\\n lock; incl %0" : "+m"(*(p)))\n'
                           'int v;\n', lab=lab)
        self.assertEqual([f.split(": ", 2)[2] for f in found],
                         ["the directive .irp: no lab's asm has directives",
                          "the directive .inc\\d: no lab's asm has directives",
                          "the directive .endr: no lab's asm has directives"])

    def test_the_instructions_of_each_arch(self):
        allowed = {"x86": ("lock; cmpxchgl %2, %1", "lock decl %0\n\tjs %l[slow]",
                           "xchgl %0, %1", "1: pause; jmp 1b", "mfence", "movzbl %1, %0"),
                   "arm": ("1:\tldrex\t%0, [%2]\n\tadd\t%0, %0, #1\n\tstrex\t%1, %0, [%2]\n"
                           "\tteq\t%1, #0\n\tbne\t1b", "strexeq %0, %1, [%2]", "dmb ish",
                           "subs %0, %0, #1 @ one less", "addseq r0, r0, #1", "b.n 1f"),
                   "riscv": ("amoadd.w.aq t0, %1, (%0)\n\tblez t0, %l[slow]",
                             "1:\tlr.w\t%0, %2\n\tbne %0, %3, 2f\n\tsc.w.rl %1, %4, %2\n"
                             "\tbnez %1, 1b\n\tfence rw,rw\n2:", "amoswap.d.aqrl %0, %2, %1",
                             "li t0, 1 # one")}
        refused = {"x86": ("out %al, $0xe9", "lock; outb %al, %dx", "rep outsb",
                           "jmp *%eax", "mov %eax, %%cr0", "int $0x80", "hlt", "wrmsr",
                           ".byte 0xe6, 0xe9", "call exit", "%0"),
                   "arm": ("svc 0x123456", "hlt #0xf000", "bkpt 0xab", "bx r0", "blx r3",
                           "mov pc, r0", "ldr pc, [r0]", "mcr p15, 0, r0, c1, c0, 0",
                           ".inst 0xef123456", "msr cpsr_c, r0", "bl exit"),
                   "riscv": ("ebreak", "ecall", "csrw sie, t0", "jalr t0", "jr a0",
                             ".4byte 0x00100073", "call exit", "wfi", ".option norvc")}
        for arch, templates in allowed.items():
            for template in templates:
                with self.subTest(arch=arch, template=template):
                    self.assertEqual(precheck.check_insns("sol.c", 1, [template], arch), [])
        for arch, templates in refused.items():
            for template in templates:
                with self.subTest(arch=arch, template=template):
                    self.assertEqual(len(precheck.check_insns("sol.c", 1, [template], arch)),
                                     1)

    def test_incbin_is_inline_asm_too(self):
        found = self.check('__asm__(".section .rodata\\n.incbin \\"outside/blob.bin\\"\\n'
                           '.previous");\nint sol(void) { return 0; }\n')
        self.assertEqual(len(found), 2, found)
        self.assertTrue(found[0].startswith('lab/sol.c:1: inline asm ".section'), found)
        self.assertIn(".incbin", found[1])

    def test_results_channel_through_a_headers_inline_function(self):
        # asm/io.h's outb(): the header's asm, which the asm rule allows.
        self.write("include/io.h", "static inline void outb(unsigned char v, "
                   "unsigned short port)\n{\n\t__asm__ __volatile__(\"outb %0, %1\" "
                   ":: \"a\"(v), \"Nd\"(port));\n}\n")
        found = self.check('#include <io.h>\nvoid sol(void) { outb(111, 0xe9); }\n')
        self.assertEqual(found, ['lab/sol.c: the assembler input has "outb": no lab '
                                 "writes an I/O port or makes a semihosting call"])

    def test_results_channel_in_asm_the_lab_may_have(self):
        lab = dataclasses.replace(LAB, asm=True)
        for insn, kind in (("rep outsb", "rep outsb"), ("nop; out %al, $0xe9", "out"),
                           ("svc 0x123456", "svc"), ("hlt #0xf000", "hlt"),
                           ("slli zero, zero, 0x1f", "slli zero, zero, 0x1f")):
            with self.subTest(insn=insn):
                found = precheck.check_channel("lab/sol.c", f"sol:\n#APP\n\t{insn}\n"
                                               "#NO_APP\n\tret\n")
                self.assertEqual(found, [f'lab/sol.c: the assembler input has "{kind}": '
                                         "no lab writes an I/O port or makes a "
                                         "semihosting call"])
        self.assertEqual(self.check('int sol(int x)\n{\n'
                                    '\t__asm__ __volatile__("incl %0" : "+r"(x));\n'
                                    '\treturn x;\n}\nconst char *s = "out of svc";\n'
                                    'void out(void) { }\nvoid hlt(void) { out(); }\n',
                                    lab=lab), [])

    def test_ktap_strings(self):
        for line in ("ok 1 mutex", "    not ok 2 fifo", "    # Subtest: mutex", "1..3",
                     "KTAP version 1", "# mutexos: end of tests, status 0"):
            with self.subTest(line=line):
                text = line.replace('"', '\\"')
                found = self.check(f'const char *forged = "{text}\\n";\n')
                self.assertEqual(found, [f'lab/sol.c: holds the string "{line.strip()}", '
                                         "which reads as a test result line"])

    def test_strings_like_results_but_not(self):
        self.assertEqual(self.check('const char *a = "look 1 time", *b = "token 2";\n'
                                    'const char *c = "v1..2";\n'), [])


class Allowlists(unittest.TestCase):
    def test_file_scoped_entries(self):
        lab = labs.LABS[9]
        self.assertTrue(precheck.allowed_symbol(lab, "tests/rwsem_student_test.c", "kunit_abort"))
        self.assertFalse(precheck.allowed_symbol(lab, "kernel/locking/rwsem.c", "kunit_abort"))

    def test_no_lab_may_exit_or_look_up_symbols(self):
        for lab in labs.LABS.values():
            for symbol in ("machine_exit", "kallsyms_lookup_name", "boot_command_line",
                           "arch_results_write"):
                with self.subTest(lab=lab.number, symbol=symbol):
                    self.assertFalse(precheck.allowed_symbol(lab, "kernel/x.c", symbol))

    def test_each_macro_of_a_lab_header_has_a_use(self):
        # Each function-like macro a lab's header defines is used by the
        # lab's probe, or in the header itself (another macro, which is
        # then checked the same way, or an inline function, which the
        # probe keeps): else the check before running never sees its body.
        root = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..")
        for lab in labs.LABS.values():
            for path in labs.submitted_files(root, lab):
                if not path.endswith(".h"):
                    continue
                with open(os.path.join(root, path), encoding="utf-8") as f:
                    text = f.read()
                for macro in re.findall(r"(?m)^#define (\w+)\(", text):
                    uses = len(re.findall(rf"\b{macro}\(", text)) - 1
                    with self.subTest(lab=lab.number, path=path, macro=macro):
                        self.assertTrue(uses or f"{macro}(" in lab.probe,
                                        f"no use of {macro}() in lab {lab.number}'s probe")

    def test_printk_only_where_the_lab_prints(self):
        printing = {n for n, lab in labs.LABS.items()
                    if precheck.allowed_symbol(lab, "kernel/x.c", "printk")}
        self.assertEqual(printing, {7, 10})


if __name__ == "__main__":
    unittest.main()
