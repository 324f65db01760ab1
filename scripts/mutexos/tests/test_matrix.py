"""Which builds, boots and checks a selection yields; bad input on the CLI."""

import dataclasses
import unittest
from unittest import mock

from mutexos import __main__ as cli
from mutexos import checks, kgdbfuzz, labcheck, matrix
from mutexos.build import MUTEXES, BuildConfig
from mutexos.matrix import Selection, test_plan, torture_plan

from .common import ARCHES


def names(plan):
    """The boot names of a plan."""
    return [boot.name for boot in plan.boots]


class TestPlan(unittest.TestCase):
    """make test's coverage, from the arches' descriptions."""

    def test_full_matrix(self):
        plan = test_plan(ARCHES, Selection())
        expected = 0
        for arch in ARCHES.values():
            # the debug build's largest count is the validator's boot, its
            # 1 CPU the race detector's where that boots every suite
            expected += len(arch.test_cpus_native) + len(arch.test_cpus) - 1
            if arch.name not in matrix.KCSAN_SUITES_ONLY:
                expected -= 1
            # dec, xchg, null and spin: the largest count, on their arches
            expected += sum(arch.name in where for where in matrix.COMPARE_ARCHES.values())
            if arch.raw_image:
                expected += len(arch.test_cpus_native)
            if arch.firmware_shim:
                expected += 1   # through the firmware stand-in, all CPUs
            expected += 1       # the debug build's console check
            expected += 1       # the gdb check (kgdb.py)
            expected += arch.kgdb_port != "none"    # the fuzzer's short run
            expected += 1       # the lock-order validator's build
            # the race detector's: every suite at the largest count and at
            # 1 CPU, or one boot of KCSAN_SUITES
            expected += 1 if arch.name in matrix.KCSAN_SUITES_ONLY else 2
            # the real-time suites where the native counts lack 1, 2 or 4
            expected += len({1, 2, 4} - set(arch.test_cpus_native))
        expected += 1       # the uniprocessor kernel
        expected += 1       # i386's native console check
        self.assertEqual(len(plan.boots), expected)
        self.assertIn("arm-native-img-cpus4", names(plan))
        self.assertIn("i386-native-cpus8", names(plan))
        self.assertIn("i386-native-up", names(plan))
        self.assertIn("arm-xchg-cpus4", names(plan))
        self.assertNotIn("arm-spin-cpus4", names(plan))
        self.assertNotIn("arm-debug-cpus4", names(plan))
        self.assertIn("arm-debug-lockdep-cpus4", names(plan))
        self.assertNotIn("arm-spin-cpus1", names(plan))
        self.assertNotIn("x86_64-xchg-cpus1", names(plan))
        self.assertIn("arm-native-cpus2", names(plan))
        self.assertNotIn("arm-native-rt-cpus2", names(plan))
        self.assertIn("x86_64-debug-cpus1", names(plan))
        for arch in ARCHES:
            self.assertIn(BuildConfig(arch, "debug", matrix.VALIDATOR_BOOT),
                          plan.builds)
            kcsan = "CONFIG_KCSAN=y" if arch in matrix.KCSAN_SUITES_ONLY \
                else "CONFIG_KCSAN=y CONFIG_KCSAN_INTERRUPT_WATCHER=y"
            self.assertIn(BuildConfig(arch, "debug", kcsan), plan.builds)
        up = plan.boots[names(plan).index("i386-native-up")]
        self.assertEqual((up.config.conf, up.cpus, up.append),
                         ("CONFIG_SMP=n CONFIG_CC_OPTIMIZE_FOR_SIZE=y CONFIG_X86_REGPARM=y "
                          "CONFIG_FRAME_POINTER=n", 1,
                          "test=* expect_cpus=1 hung_task_timeout=0"))
        self.assertEqual([(c.kind, c.arch) for c in plan.checks],
                         [("labs-forges", "i386"),
                          ("labs-reference", "i386"), ("labs-student-repo", "i386"),
                          ("build", "i386"), ("model", "i386"),
                          ("runner", "i386"), ("det-bench", "i386"), ("det-latency", "i386"),
                          ("debug-cost", "i386"),
                          ("trace", "i386"), ("verdicts", "i386"), ("grub", "i386"),
                          ("sdcard", "arm")])
        self.assertIn(checks.SELFTEST_BUILD, plan.builds)
        # What the lab check copies or boots is built before it starts.
        for cfg in labcheck.root_builds(labcheck.TEST_PARTS):
            self.assertIn(cfg, plan.builds)
        self.assertEqual(len(plan.builds), len(set(plan.builds)))

    def test_each_compare_build_on_an_arch_of_its_own(self):
        where = [a for mutex in matrix.COMPARE_BUILDS for a in matrix.COMPARE_ARCHES[mutex]]
        self.assertEqual(sorted(where), sorted(ARCHES))
        self.assertIn(matrix.COMPARE_ARCHES["spin"][0], ("arm", "riscv"))
        full = names(test_plan(ARCHES, Selection()))
        self.assertIn("riscv-spin-cpus2", full)
        self.assertNotIn("riscv-spin-cpus4", full)

    def test_an_arch_given_boots_every_build_at_every_count(self):
        plan = test_plan(ARCHES, Selection(arches=("arm",)))
        for mutex in MUTEXES:
            self.assertIn(BuildConfig("arm", mutex), plan.builds)
        self.assertIn("arm-xchg-cpus4", names(plan))
        self.assertIn("arm-debug-cpus4", names(plan))
        self.assertIn("arm-debug-lockdep-cpus4", names(plan))

    def test_cpus_in_turns_but_the_racing_boot_and_the_checks(self):
        plan = test_plan(ARCHES, Selection())
        for boot in plan.boots:
            arch = ARCHES[boot.config.arch]
            racing = boot.name == f"{arch.name}-native-cpus{matrix.RACING_CPUS}"
            from_outside = bool(boot.script) or boot.gdb or boot.fuzz
            with self.subTest(boot=boot.name):
                self.assertEqual(boot.turns, arch.tcg_turns and boot.cpus > 1
                                 and not racing and not from_outside)
                self.assertEqual(boot.host_threads("tcg"), 1 if boot.turns else boot.cpus)
                self.assertEqual(boot.host_threads("kvm"), boot.cpus)
                self.assertEqual(boot.host_threads("icount"), 1)
        turns = {boot.name for boot in plan.boots if boot.turns}
        self.assertIn("i386-debug-kcsan-cpus4", turns)
        self.assertIn("i386-native-cpus8", turns)
        self.assertIn("i386-native-cpus4", turns)
        self.assertNotIn("i386-native-cpus2", turns)
        self.assertNotIn("arm-native-cpus2", turns)
        self.assertIn("riscv-debug-lockdep-cpus2", names(plan))
        self.assertNotIn("riscv-debug-lockdep-cpus2", turns)

    def test_every_test_boot_asks_for_its_tests(self):
        # Told nothing, a kernel boots to its console and waits there.
        for boot in test_plan(ARCHES, Selection()).boots:
            if not boot.script:
                self.assertRegex(boot.append, r"(^| )test=", boot.name)

    def test_a_student_tree_has_no_lab_check(self):
        plan = test_plan(ARCHES, Selection(), with_labs=False)
        self.assertFalse([c for c in plan.checks if c.kind.startswith("labs")])
        self.assertNotIn(BuildConfig("i386", "native", "CONFIG_KCSAN=y"), plan.builds)
        self.assertIn("runner", [c.kind for c in plan.checks])

    def test_console_checks(self):
        plan = test_plan(ARCHES, Selection())
        for name, script in (("i386-debug", "debug"), ("x86_64-debug", "debug"),
                             ("arm-debug", "debug"), ("i386-native", "plain")):
            boot = plan.boots[names(plan).index(f"{name}-console-cpus2")]
            self.assertEqual((boot.script, boot.cpus), (script, 2))
            self.assertNotIn("test=", boot.append)
        # A CPU count given selects test boots only, as for the UP kernel.
        plan = test_plan(ARCHES, Selection(("arm",), ("debug",), (2,)))
        self.assertEqual(names(plan), ["arm-debug-cpus2"])
        plan = test_plan(ARCHES, Selection(("x86_64",), ("debug",)))
        self.assertIn("x86_64-debug-console-cpus2", names(plan))

    def test_firmware_boot_from_the_description(self):
        plan = test_plan(ARCHES, Selection(("arm",), ("native",)))
        boot = plan.boots[names(plan).index("arm-native-firmware-cpus4")]
        self.assertEqual((boot.image, boot.firmware), ("kernel7.img", "fwshim.elf"))
        self.assertIn(matrix.WAY_IN_SUITES, boot.append)
        boot = plan.boots[names(plan).index("arm-native-img-cpus4")]
        self.assertIn(matrix.WAY_IN_SUITES, boot.append)
        plan = test_plan(ARCHES, Selection(("i386",), ("native",)))
        self.assertFalse(any(b.firmware for b in plan.boots))

    def test_one_configuration(self):
        plan = test_plan(ARCHES, Selection(("arm",), ("debug",), (4,)))
        self.assertEqual(names(plan), ["arm-debug-cpus4"])
        self.assertEqual(plan.boots[0].append, "test=* expect_cpus=4 hung_task_timeout=0")
        self.assertEqual(plan.boots[0].image, "kernel.elf")
        self.assertEqual(plan.checks, [])
        self.assertEqual(plan.builds, [BuildConfig("arm", "debug")])

    def test_native_with_cpus_has_no_up_kernel(self):
        plan = test_plan(ARCHES, Selection(("i386",), ("native",), (2,)))
        self.assertEqual(names(plan), ["i386-native-cpus2"])

    def test_one_arch_has_up_kernel_but_no_checks(self):
        plan = test_plan(ARCHES, Selection(("i386",)))
        self.assertIn("i386-native-up", names(plan))
        self.assertIn("i386-xchg-cpus4", names(plan))
        self.assertNotIn("i386-xchg-cpus2", names(plan))
        self.assertEqual(plan.checks, [])

    def test_raw_image_needs_the_native_build(self):
        self.assertFalse(any("-img-" in n for n in
                             names(test_plan(ARCHES, Selection(("arm",), ("dec",))))))
        plan = test_plan(ARCHES, Selection(("arm",), ("native",), (2,)))
        self.assertEqual(names(plan), ["arm-native-cpus2", "arm-native-img-cpus2",
                                       "arm-native-firmware-cpus2"])
        self.assertEqual(plan.boots[1].image, "kernel7.img")

    def test_gdb_check_only_with_the_debug_build_and_no_cpus(self):
        for sel in (Selection(("i386",), ("native",)), Selection(("i386",), None, (2,))):
            self.assertFalse(any(boot.gdb or boot.fuzz
                                 for boot in test_plan(ARCHES, sel).boots))
        plan = test_plan(ARCHES, Selection(("arm",)))
        self.assertEqual([b.name for b in plan.boots if b.gdb], ["arm-debug-gdb-cpus2"])
        # The debugger fuzzer's short run, beside it.
        self.assertEqual([b.name for b in plan.boots if b.fuzz],
                         ["arm-debug-gdb-fuzz-cpus2"])

    def test_debug_build_brings_the_validator(self):
        plan = test_plan(ARCHES, Selection(("x86_64",), ("debug",)))
        self.assertEqual(names(plan), ["x86_64-debug-cpus1", "x86_64-debug-cpus4",
                                       "x86_64-debug-console-cpus2",
                                       "x86_64-debug-gdb-cpus2",
                                       "x86_64-debug-gdb-fuzz-cpus2",
                                       "x86_64-debug-lockdep-cpus4",
                                       "x86_64-debug-kcsan-cpus4"])
        gdb = plan.boots[3]
        self.assertTrue(gdb.gdb)
        self.assertRegex(gdb.append, r"(^| )kgdbwait( |$)")
        fuzz = plan.boots[4]
        self.assertTrue(fuzz.fuzz)
        self.assertEqual(fuzz.append, kgdbfuzz.boot_append(2))
        boot = plan.boots[5]
        self.assertEqual((boot.config, boot.cpus, boot.append),
                         (BuildConfig("x86_64", "debug", matrix.VALIDATOR_BOOT), 4,
                          "test=* expect_cpus=4 hung_task_timeout=0"))
        kcsan = plan.boots[6]
        self.assertEqual((kcsan.config, kcsan.cpus), (BuildConfig("x86_64", "debug",
                                                                  "CONFIG_KCSAN=y"), 4))
        self.assertTrue(kcsan.append.startswith("test=kcsan.*,mutex.*,"))

    def test_race_detector_runs_the_whole_kernel_at_1_cpu_too(self):
        plan = test_plan(ARCHES, Selection(("riscv",), ("debug",)))
        kcsan = [b for b in plan.boots if "kcsan" in b.name]
        watcher = BuildConfig("riscv", "debug",
                              "CONFIG_KCSAN=y CONFIG_KCSAN_INTERRUPT_WATCHER=y")
        self.assertEqual([(b.name, b.config, b.cpus, b.append) for b in kcsan],
                         [("riscv-debug-kcsan-cpus2", watcher, 2,
                           "test=* expect_cpus=2 hung_task_timeout=1000"),
                          ("riscv-debug-kcsan-cpus1", watcher, 1,
                           "test=* expect_cpus=1 hung_task_timeout=1000")])

    def test_the_debug_build_alone_where_no_other_boot_takes_its_count(self):
        full = names(test_plan(ARCHES, Selection()))
        for arch in ("i386", "arm", "riscv"):
            self.assertFalse([n for n in full if n.startswith(f"{arch}-debug-cpus")])
            self.assertIn(f"{arch}-debug-kcsan-cpus1", full)
        self.assertIn("x86_64-debug-cpus1", full)
        self.assertIn("i386-debug-kcsan-cpus4", full)
        debug = names(test_plan(ARCHES, Selection(("i386",), ("debug",))))
        self.assertIn("i386-debug-cpus1", debug)
        self.assertIn("i386-debug-cpus4", debug)

    def test_no_validator_without_the_debug_build(self):
        plan = test_plan(ARCHES, Selection(("i386",), ("native", "null")))
        self.assertFalse(any("lockdep" in n or "kcsan" in n for n in names(plan)))

    def test_builds_to_compare_use_the_largest_count_and_mutex_suites(self):
        plan = test_plan(ARCHES, Selection(("x86_64",), ("null",)))
        self.assertEqual(names(plan), ["x86_64-null-cpus4"])
        self.assertTrue(plan.boots[0].append.startswith(
            "test=mutex*,bench.*,kernel.*,smp.* expect_cpus=4 "))
        native = test_plan(ARCHES, Selection(("x86_64",), ("native",)))
        self.assertTrue(all(b.append.startswith("test=* ") for b in native.boots
                            if "-rt-" not in b.name))
        self.assertEqual(plan.boots[0].image, "kernel.elf32")

    def test_real_time_suites_where_the_native_counts_lack_a_count(self):
        fake = dict(ARCHES, zz=dataclasses.replace(ARCHES["x86_64"], name="zz",
                                                   test_cpus_native=(1, 4)))
        native = test_plan(fake, Selection(("zz",), ("native",)))
        self.assertTrue(all(b.append.startswith("test=* ") for b in native.boots
                            if "-rt-" not in b.name))
        rt = native.boots[names(native).index("zz-native-rt-cpus2")]
        self.assertTrue(rt.append.startswith(matrix.RT_SUITES + " expect_cpus=2 "))
        full = test_plan(ARCHES, Selection(("x86_64",), ("native",)))
        self.assertFalse(any("-rt-" in n for n in names(full)))

    def test_no_more_threads_than_racing_cpus_where_cpus_cannot_take_turns(self):
        full = names(test_plan(ARCHES, Selection()))
        self.assertFalse(ARCHES["riscv"].tcg_turns)
        self.assertNotIn("riscv-native-cpus4", full)
        self.assertIn("riscv-native-cpus2", full)
        rt = test_plan(ARCHES, Selection()).boots[full.index("riscv-native-rt-cpus4")]
        self.assertTrue(rt.append.startswith(matrix.RT_SUITES + " expect_cpus=4 "))
        self.assertIn("riscv-native-cpus4", names(test_plan(ARCHES, Selection(("riscv",)))))
        self.assertIn("arm-native-cpus4", full)

    def test_raw_image_and_sdcard_check_come_from_the_description(self):
        # A made-up arch with a raw image boots it, whatever its name; it
        # gets an SD card check only if it boots from one.
        fake = dict(ARCHES, zz=dataclasses.replace(ARCHES["i386"], name="zz",
                                                   raw_image="zz.img"),
                    yy=dataclasses.replace(ARCHES["i386"], name="yy",
                                           raw_image="yy.img", media="sdcard"))
        plan = test_plan(fake, Selection())
        self.assertIn("zz-native-img-cpus8", names(plan))
        sdcards = [c.arch for c in plan.checks if c.kind == "sdcard"]
        self.assertIn("yy", sdcards)
        self.assertNotIn("zz", sdcards)

    def test_timeout(self):
        plan = test_plan(ARCHES, Selection(("arm",), ("debug",), (4,)), timeout=77)
        self.assertEqual(plan.boots[0].timeout, 77)


class TorturePlan(unittest.TestCase):
    """make torture: the lock suites, every build, TORTURE_CPUS CPUs."""

    def test_one_arch(self):
        plan = torture_plan(ARCHES, Selection(("i386",)), 20)
        self.assertEqual(names(plan), [f"torture-i386-{m}" for m in MUTEXES])
        boot = plan.boots[0]
        self.assertEqual((boot.cpus, boot.timeout), (4, 3600))
        self.assertEqual(boot.append,
                         "stress=20 test=mutex.*,completion.*,semaphore.* hung_task_timeout=0")
        self.assertEqual(plan.checks, [])


class BadInput(unittest.TestCase):
    """Bad input exits with 2 before anything is built or booted."""

    def assert_refused(self, *argv):
        with mock.patch.object(matrix, "run_plan") as run_plan, \
                mock.patch("sys.stderr"):
            with self.assertRaises(SystemExit) as caught:
                cli.main(list(argv))
        self.assertEqual(caught.exception.code, 2)
        run_plan.assert_not_called()

    def test_unknown_arch(self):
        self.assert_refused("test", "--arch", "sparc")

    def test_unknown_mutex(self):
        self.assert_refused("test", "--mutex", "ticket")

    def test_too_many_cpus(self):
        self.assert_refused("test", "--arch", "arm", "--cpus", "8")

    def test_no_cpus(self):
        self.assert_refused("test", "--cpus", "0")

    def test_torture_default_cpus_checked(self):
        self.assert_refused("torture", "--arch", "i386", "--cpus", "1,9")

    def run_refused(self, *argv):
        """make run's options, refused with a message naming why."""
        with mock.patch.object(cli.qemu, "run_interactive") as run, \
                mock.patch("sys.stderr") as err:
            with self.assertRaises(SystemExit) as caught:
                cli.main(["run", "--image", "k", *argv])
        self.assertEqual(caught.exception.code, 2)
        run.assert_not_called()
        return "".join(call.args[0] for call in err.write.call_args_list)

    def test_run_in_turns_needs_an_arch_that_takes_them(self):
        self.assertIn("ARCH_TCG_TURNS in arch/riscv/arch.mk",
                      self.run_refused("--arch", "riscv", "--cpus", "4", "--turns"))

    def test_run_in_turns_needs_tcg(self):
        self.assertIn("KVM", self.run_refused("--arch", "i386", "--turns", "--accel", "kvm"))
        self.assertIn("icount", self.run_refused("--arch", "i386", "--turns",
                                                 "--accel", "icount"))

    def test_run_in_turns(self):
        with mock.patch.object(cli.qemu, "run_interactive", return_value=0) as run:
            self.assertEqual(cli.main(["run", "--arch", "arm", "--image", "k", "--cpus", "4",
                                       "--turns", "--append", "test=smp.*"]), 0)
        self.assertIn("tcg,thread=single", run.call_args.args[0])

    def test_good_selection_runs(self):
        with mock.patch.object(matrix, "run_plan", return_value=0) as run_plan:
            self.assertEqual(cli.main(["test", "--arch", "arm,i386", "--cpus", "4",
                                       "--mutex", "debug"]), 0)
        plan = run_plan.call_args.args[2]
        self.assertEqual(names(plan), ["arm-debug-cpus4", "i386-debug-cpus4"])


if __name__ == "__main__":
    unittest.main()
