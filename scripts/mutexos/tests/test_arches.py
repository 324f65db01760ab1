"""arches.py on the real arch.mk files and on broken ones."""

import glob
import os
import tempfile
import unittest

from mutexos import arches

from .common import ARCHES, ROOT

GOOD = """\
# a test arch
ARCH_CROSS := foo-elf-   # trailing comment
ARCH_TOOLS := foo-elf-gcc:gcc-foo \\
	qemu-system-foo:qemu-system-misc
ARCH_QEMU := qemu-system-foo
ARCH_QEMU_OPTS := -M board -device "a b"
ARCH_QEMU_CPUS := smp
ARCH_MAX_CPUS := 2
ARCH_EXIT := semihosting
ARCH_RESULTS := semihosting
ARCH_KVM := n
ARCH_TCG_TURNS := y
ARCH_BOOT_IMAGE := kernel.elf
ARCH_SYMBOLS := kernel.elf
ARCH_GDB := foo
ARCH_MEDIA := none
ARCH_KGDB_PORT := none
ARCH_KGDB_WATCHPOINTS := n
ARCH_TEST_CPUS_NATIVE := 1 2
ARCH_TEST_CPUS := 1
ARCH_BENCH_CPUS := 1 2
ARCH_POSTLINK := $(Q)$(OBJCOPY) -O binary $@ x
ARCH_CFLAGS := -O2
"""


class RealArches(unittest.TestCase):
    """The descriptions committed in arch/*/arch.mk."""

    def test_one_arch_per_arch_mk(self):
        folders = sorted(os.path.basename(os.path.dirname(p))
                         for p in glob.glob(os.path.join(ROOT, "arch", "*", "arch.mk")))
        self.assertEqual(sorted(ARCHES), folders)
        self.assertIn("i386", ARCHES)

    def test_i386(self):
        arch = ARCHES["i386"]
        self.assertEqual(arch.qemu, "qemu-system-i386")
        self.assertEqual(arch.qemu_cpus, "smp")
        self.assertEqual(arch.exit, "isa-debug-exit")
        self.assertTrue(arch.kvm)
        self.assertTrue(arch.tcg_turns)
        self.assertIsNone(arch.raw_image)
        self.assertEqual(arch.test_cpus_native, (1, 2, 4, 8))
        self.assertEqual(arch.package_of("qemu-system-i386"), "qemu-system-x86")
        self.assertEqual(arch.qemu_opts, ("-m", "256M", "-device",
                                          "isa-debug-exit,iobase=0xf4,iosize=0x04"))

    def test_arm(self):
        arch = ARCHES["arm"]
        self.assertEqual(arch.qemu_cpus, "maxcpus")
        self.assertEqual(arch.exit, "semihosting")
        self.assertFalse(arch.kvm)
        self.assertEqual(arch.raw_image, "kernel7.img")
        self.assertEqual(arch.max_cpus, 4)
        # ARCH_TOOLS spans three lines.
        self.assertIn(("qemu-system-arm", "qemu-system-arm"), arch.tools)

    def test_x86_64_boots_its_32_bit_copy(self):
        arch = ARCHES["x86_64"]
        self.assertEqual(arch.boot_image, "kernel.elf32")
        self.assertEqual(arch.symbols, "kernel.elf")
        self.assertEqual(arch.gdb, "i386:x86-64")


class Descriptions(unittest.TestCase):
    """Parsing rules and errors, on files written here."""

    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.addCleanup(self.tmp.cleanup)

    def write(self, text, name="foo"):
        folder = os.path.join(self.tmp.name, "arch", name)
        os.makedirs(folder)
        path = os.path.join(folder, "arch.mk")
        with open(path, "w") as f:
            f.write(text)
        return path

    def test_good_file(self):
        self.write(GOOD)
        arch = arches.load_all(self.tmp.name)["foo"]
        self.assertEqual(arch.cross, "foo-elf-")
        self.assertEqual(arch.tools, (("foo-elf-gcc", "gcc-foo"),
                                      ("qemu-system-foo", "qemu-system-misc")))
        self.assertEqual(arch.qemu_opts, ("-M", "board", "-device", "a b"))
        self.assertIsNone(arch.raw_image)

    def test_make_references_are_not_read(self):
        facts = arches.read_facts(self.write(GOOD))
        self.assertNotIn("POSTLINK", facts)
        self.assertEqual(facts["CFLAGS"], "-O2")

    def assert_error(self, text, *words):
        path = self.write(text)
        with self.assertRaises(arches.ArchError) as caught:
            arches.load(path)
        message = str(caught.exception)
        self.assertIn(path, message)
        for word in words:
            self.assertIn(word, message)

    def test_missing_fact(self):
        self.assert_error(GOOD.replace("ARCH_EXIT := semihosting\n", ""), "ARCH_EXIT")

    def test_fact_given_with_make_function_is_missing(self):
        self.assert_error(GOOD.replace("ARCH_QEMU := qemu-system-foo",
                                       "ARCH_QEMU := $(QEMU_foo)"), "ARCH_QEMU")

    def test_unknown_value(self):
        self.assert_error(GOOD.replace("ARCH_KVM := n", "ARCH_KVM := maybe"),
                          "ARCH_KVM", "maybe")

    def test_cpu_count_above_max(self):
        self.assert_error(GOOD.replace("ARCH_TEST_CPUS := 1", "ARCH_TEST_CPUS := 1 4"),
                          "ARCH_TEST_CPUS", "ARCH_MAX_CPUS")

    def test_stub_port_needs_its_registers(self):
        self.assert_error(GOOD.replace("ARCH_KGDB_PORT := none",
                                       "ARCH_KGDB_PORT := second-serial"),
                          "ARCH_KGDB_PC", "ARCH_KGDB_BREAK_KIND")

    def test_stub_port_with_its_registers(self):
        self.write(GOOD.replace("ARCH_KGDB_PORT := none",
                                "ARCH_KGDB_PORT := second-serial\n"
                                "ARCH_KGDB_PC := 32:8\nARCH_KGDB_BREAK_KIND := 4"))
        arch = arches.load_all(self.tmp.name)["foo"]
        self.assertEqual((arch.kgdb_pc, arch.kgdb_break_kind), ((32, 8), 4))

    def test_bad_pc_register(self):
        self.assert_error(GOOD.replace("ARCH_KGDB_PORT := none",
                                       "ARCH_KGDB_PORT := second-serial\n"
                                       "ARCH_KGDB_PC := pc\nARCH_KGDB_BREAK_KIND := 4"),
                          "ARCH_KGDB_PC", "'pc'")

    def test_bad_tool_pair(self):
        self.assert_error(GOOD.replace("foo-elf-gcc:gcc-foo", "foo-elf-gcc"), "ARCH_TOOLS")

    def test_no_arches(self):
        with self.assertRaises(arches.ArchError):
            arches.load_all(self.tmp.name)


if __name__ == "__main__":
    unittest.main()
