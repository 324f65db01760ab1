"""A build folder's dependencies on its options, and a folder started as
a copy of another configuration's (scripts/fixdep.py, build.start_from())."""

import importlib.util
import os
import tempfile
import unittest

from mutexos import build, labs
from mutexos.build import BuildConfig

from .common import write

SCRIPTS = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
spec = importlib.util.spec_from_file_location("fixdep", os.path.join(SCRIPTS, "fixdep.py"))
fixdep = importlib.util.module_from_spec(spec)
spec.loader.exec_module(fixdep)

DEP = """b/x/kernel/a.o: kernel/a.c b/x/include/generated/autoconf.h \\
 include/h.h
b/x/include/generated/autoconf.h:
include/h.h:
"""


class FixDep(unittest.TestCase):
    def setUp(self):
        tmp = tempfile.TemporaryDirectory()
        self.addCleanup(tmp.cleanup)
        self.old = os.getcwd()
        os.chdir(tmp.name)
        self.addCleanup(os.chdir, self.old)
        write("kernel/a.c", "#ifdef CONFIG_DEBUG_MUTEXES\n#endif\n")
        write("include/h.h", "#if CONFIG_NR_CPUS > 1 /* CONFIG_SMP */\n#endif\n")
        write("b/x/kernel/a.d", DEP)

    def test_options_instead_of_autoconf(self):
        fixdep.main("b/x")
        with open("b/x/kernel/a.d", encoding="utf-8") as f:
            lines = f.read().splitlines()
        self.assertEqual(lines, [
            "b/x/kernel/a.o: kernel/a.c include/h.h",
            "b/x/kernel/a.o: $(wildcard b/x/include/config/debug/mutexes.h "
            "b/x/include/config/nr/cpus.h b/x/include/config/smp.h)",
            "include/h.h:"])
        # The sources stay what the lab trees read (labs.object_sources()).
        self.assertEqual(labs.object_sources("b/x/kernel/a.d"),
                         ["kernel/a.c", "include/h.h"])

    def test_a_rewritten_file_stays(self):
        fixdep.main("b/x")
        with open("b/x/kernel/a.d", encoding="utf-8") as f:
            once = f.read()
        write("include/h.h", "#ifdef CONFIG_OTHER\n#endif\n")
        fixdep.main("b/x")
        with open("b/x/kernel/a.d", encoding="utf-8") as f:
            self.assertEqual(f.read(), once)


class StartFrom(unittest.TestCase):
    def test_closest_configuration(self):
        native, debug = BuildConfig("i386", "native"), BuildConfig("i386", "debug")
        validator = BuildConfig("i386", "debug", "CONFIG_PROVE_LOCKING=y CONFIG_LOCK_STAT=y")
        prove = BuildConfig("i386", "debug", "CONFIG_PROVE_LOCKING=y")
        self.assertEqual(min((native, debug, validator),
                             key=lambda c: build._distance(c, prove)), debug)
        self.assertEqual(build._distance(native, BuildConfig("i386", "null")), 1)

    def test_copy_keeps_objects_options_and_times_not_images(self):
        with tempfile.TemporaryDirectory() as tmp:
            src, dst = os.path.join(tmp, "b", "x"), os.path.join(tmp, "b", "y")
            for name, text in (("kernel/a.o", "obj"), ("kernel/a.d", DEP),
                               ("include/config/smp.h", ""), (".cflags", "-O2"),
                               (".config", "CONFIG_SMP=y"), ("kernel.elf", "elf"),
                               ("b-x-cpus1.log", "log")):
                write(os.path.join(src, name), text)
            os.utime(os.path.join(src, "kernel/a.o"), ns=(1, 10 ** 18))
            os.utime(os.path.join(src, "kernel/a.d"), ns=(1, 10 ** 18))
            build._copy_objects(src, dst, "b/x", "b/y")
            found = sorted(os.path.relpath(os.path.join(top, n), dst)
                           for top, _, names in os.walk(dst) for n in names)
            self.assertEqual(found, [".cflags", "include/config/smp.h",
                                     "kernel/a.d", "kernel/a.o"])
            with open(os.path.join(dst, "kernel/a.d"), encoding="utf-8") as f:
                self.assertTrue(f.read().startswith("b/y/kernel/a.o: kernel/a.c "
                                                    "b/y/include/generated/autoconf.h"))
            for name in ("kernel/a.o", "kernel/a.d"):
                self.assertEqual(os.stat(os.path.join(dst, name)).st_mtime_ns, 10 ** 18)


class Bounded(unittest.TestCase):
    def test_a_build_that_does_not_end(self):
        # A grade's build of a file that makes the compiler read for ever
        # (#include "/dev/zero"): it ends, saying so, and reads no input.
        with tempfile.TemporaryDirectory() as root:
            write(os.path.join(root, "Makefile"),
                  "print-builddir:\n\t@echo build/x\n"
                  "all:\n\t@cat > build/read.txt; sleep 30\n")
            os.makedirs(os.path.join(root, "build"))
            cfg = BuildConfig("i386", "native")
            build.builddir.cache_clear()
            self.addCleanup(build.builddir.cache_clear)
            with open(os.path.join(root, "log"), "wb") as log:
                why = build.build(root, cfg, jobs=1, log=log, timeout=2)
            self.assertEqual(why, "make all (i386 native) did not end in 2 s")
            with open(os.path.join(root, "build/read.txt"), encoding="utf-8") as f:
                self.assertEqual(f.read(), "")


if __name__ == "__main__":
    unittest.main()
