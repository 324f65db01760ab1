"""QEMU's command line, exit statuses, and process control with fake emulators.

A fake emulator is any argv that prints a serial log and exits with a
given code, or never starts, or hangs: qemu.boot() runs it as it runs QEMU.
"""

import os
import tempfile
import threading
import time
import unittest
from unittest import mock

from mutexos import qemu
from mutexos.runner import BootSpec, boot_tasks, run_parallel
from mutexos.build import BuildConfig
from mutexos.verdict import total_line

from .common import ARCHES, OK_LOG, ROOT, SKIP_LOG

I386, ARM = ARCHES["i386"], ARCHES["arm"]


class CommandLine(unittest.TestCase):
    """What QEMU is told, from the arch's description."""

    def test_smp_arch_gets_smp_and_its_exit_device(self):
        argv = qemu.command(I386, qemu.Boot("k", 4))
        self.assertIn("-smp 4", " ".join(argv))
        self.assertIn("isa-debug-exit,iobase=0xf4,iosize=0x04", argv)
        self.assertEqual(argv[:5], ["qemu-system-i386", "-kernel", "k", "-append", ""])

    def test_maxcpus_arch_gets_cpus_on_the_kernel_command_line(self):
        argv = qemu.command(ARM, qemu.Boot("k.img", 2, "console=ttyAMA0 quiet"))
        self.assertNotIn("-smp", argv)
        self.assertEqual(argv[argv.index("-append") + 1], "console=ttyAMA0 quiet maxcpus=2")
        self.assertIn("raspi2b", argv)

    def test_maxcpus_given_is_kept(self):
        argv = qemu.command(ARM, qemu.Boot("k", 4, "maxcpus=1"))
        self.assertEqual(argv[argv.index("-append") + 1], "maxcpus=1")

    def test_cdrom_boot_has_no_kernel_or_command_line(self):
        argv = qemu.command(I386, qemu.Boot("m.iso", 2, cdrom=True))
        self.assertIn("-cdrom", argv)
        self.assertNotIn("-kernel", argv)
        self.assertNotIn("-append", argv)

    def test_cdrom_boot_cannot_count_cpus_on_the_command_line(self):
        with self.assertRaises(ValueError):
            qemu.command(ARM, qemu.Boot("m.iso", 2, cdrom=True))

    def test_gdb_stub_on_the_given_port_halted(self):
        argv = qemu.command(I386, qemu.Boot("k", 1), gdb_port=4321)
        self.assertIn("tcp:127.0.0.1:4321", argv)
        self.assertIn("-S", argv)

    def test_test_boot_reads_the_serial_line_and_never_reboots(self):
        argv = qemu.command(I386, qemu.Boot("k", 1, "test=*"))
        self.assertEqual(argv[argv.index("-serial") + 1], "stdio")
        self.assertIn("-no-reboot", argv)
        self.assertFalse([a for a in argv if "mux=on" in a])

    def test_results_channel_goes_to_its_file_or_nowhere(self):
        argv = qemu.command(I386, qemu.Boot("k", 1, "test=*", results="b/t,1.results"))
        self.assertIn("file,id=results,path=b/t,,1.results", argv)
        self.assertIn("isa-debugcon,iobase=0xe9,chardev=results", argv)
        argv = qemu.command(ARM, qemu.Boot("k", 1))
        self.assertIn("null,id=results", argv)
        self.assertIn("enable=on,target=native,chardev=results", argv)

    def test_console_boot_types_through_the_multiplexer(self):
        argv = qemu.command(I386, qemu.Boot("k", 1, console=True, reboot=True))
        self.assertIn("stdio,id=console,mux=on,signal=off", argv)
        self.assertEqual(argv[argv.index("-serial") + 1], "chardev:console")
        self.assertNotIn("-no-reboot", argv)

    def test_firmware_boot_loads_the_image_where_the_firmware_does(self):
        argv = qemu.command(ARM, qemu.Boot("b/kernel7.img", 4, "test=*",
                                           firmware="b/fwshim.elf"))
        self.assertEqual(argv[1:3], ["-kernel", "b/fwshim.elf"])
        self.assertIn("loader,file=b/kernel7.img,addr=0x8000,force-raw=on", argv)
        self.assertEqual(argv[argv.index("-append") + 1], "test=* maxcpus=4")

    def test_what_ends_by_itself(self):
        self.assertTrue(qemu.runs_to_an_end("test=mutex*"))
        self.assertTrue(qemu.runs_to_an_end("maxcpus=2 bench=vfs"))
        self.assertFalse(qemu.runs_to_an_end("hung_task_timeout=0"))
        self.assertFalse(qemu.runs_to_an_end("mytest=1"))

    def test_accelerator(self):
        self.assertEqual(qemu.command(I386, qemu.Boot("k", 1))[-2:], ["-accel", "tcg"])
        argv = qemu.command(I386, qemu.Boot("k", 1), accel="kvm")
        self.assertEqual(argv[-4:], ["-accel", "kvm", "-cpu", "host"])
        argv = qemu.command(ARM, qemu.Boot("k", 4), accel="icount")
        self.assertEqual(argv[-4:], ["-accel", "tcg", "-icount", "shift=3,sleep=off"])

    def test_cpus_in_turns_only_under_plain_tcg(self):
        turns = qemu.Boot("k", 4, turns=True)
        self.assertEqual(qemu.command(ARM, turns)[-2:], ["-accel", "tcg,thread=single"])
        # kvm has no turns to take; icount takes them anyway.
        self.assertEqual(qemu.command(I386, turns, accel="kvm")[-4:],
                         ["-accel", "kvm", "-cpu", "host"])
        self.assertEqual(qemu.command(ARM, turns, accel="icount")[-4:],
                         ["-accel", "tcg", "-icount", "shift=3,sleep=off"])


class Accel(unittest.TestCase):
    """kvm only where the arch says y and /dev/kvm is usable."""

    def test_arch_without_kvm(self):
        accel, note = qemu.choose_accel("kvm", ARM)
        self.assertEqual(accel, "tcg")
        self.assertIn("kvm cannot run arm guests", note)

    def test_no_dev_kvm(self):
        with mock.patch.object(qemu, "kvm_usable", return_value=False):
            self.assertEqual(qemu.choose_accel("kvm", I386)[0], "tcg")

    def test_kvm_when_usable(self):
        with mock.patch.object(qemu, "kvm_usable", return_value=True):
            self.assertEqual(qemu.choose_accel("kvm", I386), ("kvm", None))

    def test_tcg_asked(self):
        self.assertEqual(qemu.choose_accel("tcg", I386), ("tcg", None))

    def test_icount_on_every_arch(self):
        for arch in (I386, ARM):
            self.assertEqual(qemu.choose_accel("icount", arch), ("icount", None))


class ExitStatus(unittest.TestCase):
    """isa-debug-exit: 33 + 2s is status s; semihosting: the code itself."""

    def test_isa_debug_exit(self):
        self.assertEqual(qemu.decode_status(I386, 33), 0)
        self.assertEqual(qemu.decode_status(I386, 35), 1)
        self.assertEqual(qemu.decode_status(I386, 37), 2)
        self.assertIsNone(qemu.decode_status(I386, 0))
        self.assertIsNone(qemu.decode_status(I386, 34))
        self.assertIsNone(qemu.decode_status(I386, -9))

    def test_qemu_error_is_no_status(self):
        # QEMU exits with 1 when it refuses an option (-smp 300): that
        # must never read as the kernel's status 0.
        self.assertIsNone(qemu.decode_status(I386, 1))
        self.assertIsNone(qemu.decode_status(I386, 3))

    def test_semihosting(self):
        self.assertEqual(qemu.decode_status(ARM, 0), 0)
        self.assertEqual(qemu.decode_status(ARM, 2), 2)
        self.assertIsNone(qemu.decode_status(ARM, -15))


class FakeEmulator(unittest.TestCase):
    """qemu.boot() on programs that behave as QEMU might."""

    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.addCleanup(self.tmp.cleanup)
        self.ok_log = self.canned("ok.log", OK_LOG)

    def canned(self, name, text):
        path = os.path.join(self.tmp.name, name)
        with open(path, "w") as f:
            f.write(text)
        return path

    def boot(self, argv, arch=I386, timeout=30, name="fake"):
        path = os.path.join(self.tmp.name, f"{name}.log")
        with open(path, "wb") as log:
            return qemu.boot(f"{name} (test)", argv, arch, timeout, log), path

    def test_exit_code_33_is_status_0_on_x86(self):
        result, _ = self.boot(["sh", "-c", f"cat {self.ok_log}; exit 33"])
        self.assertIn("result: passed (status 0)", result.report())

    def test_qemu_refusing_to_start_fails_on_x86(self):
        argv = ["sh", "-c", "echo 'qemu: Invalid SMP CPUs 300' >&2; exit 1"]
        result, _ = self.boot(argv)
        self.assertIn("result: FAILED (no status)", result.report())
        self.assertIn("emulator: qemu: Invalid SMP CPUs 300", result.reasons)

    def test_even_exit_code_fails_on_x86(self):
        result, _ = self.boot(["sh", "-c", f"cat {self.ok_log}; exit 0"])
        self.assertIn("result: FAILED (no status)", result.report())
        self.assertIn("QEMU exited with code 0", result.reasons[0])

    def test_semihosting_status_0_passes_on_arm(self):
        result, _ = self.boot(["sh", "-c", f"cat {self.ok_log}; exit 0"], arch=ARM)
        self.assertIn("result: passed (status 0)", result.report())

    def test_emulator_that_never_starts(self):
        result, _ = self.boot(["/nonexistent/qemu-system-i386"])
        self.assertTrue(result.failed_config)
        self.assertTrue(result.reasons[0].startswith(
            "cannot start /nonexistent/qemu-system-i386:"), result.reasons)
        self.assertIn("(apt-get install qemu-system-x86)", result.reasons[0])
        self.assertEqual(total_line([result]), "0 passed, 1 failed")

    def test_emulator_complaint_is_the_first_reason(self):
        result, _ = self.boot(["sh", "-c", "echo 'qemu: -foo: invalid option' >&2; exit 1"])
        self.assertTrue(result.failed_config)
        self.assertEqual(result.reasons[0], "emulator: qemu: -foo: invalid option")

    def test_hang_is_killed_within_the_timeout(self):
        start = time.monotonic()
        result, path = self.boot(["sh", "-c", "echo KTAP version 1; sleep 100"], timeout=2)
        self.assertLess(time.monotonic() - start, 10)
        self.assertIn("result: FAILED (TIMEOUT after 2s)", result.report())
        with open(path, "rb") as log:
            self.assertIn(b"KTAP version 1", log.read())

    def test_silence_kills_a_hung_kernel_and_says_so(self):
        path = os.path.join(self.tmp.name, "silent.log")
        # Talks for 3 s, then hangs: only silence ends it before the timeout.
        argv = ["sh", "-c", "echo KTAP version 1; for i in 1 2 3; do sleep 1; "
                            "echo tick; done; sleep 100"]
        start = time.monotonic()
        with open(path, "wb") as log:
            result = qemu.boot("silent (test)", argv, I386, 60, log, silence=2)
        took = time.monotonic() - start
        self.assertGreater(took, 4)
        self.assertLess(took, 30)
        self.assertEqual(result.reasons[0], "no output for 2s: killed as hung")

    def test_stop_all_kills_running_emulators(self):
        emulators = qemu.Emulators()
        results = []
        with mock.patch.object(qemu, "EMULATORS", emulators):
            worker = threading.Thread(target=lambda: results.append(
                self.boot(["sh", "-c", "echo KTAP version 1; sleep 100"])[0]))
            worker.start()
            time.sleep(0.5)
            emulators.stop_all()
            worker.join(10)
            self.assertFalse(worker.is_alive())
            self.assertTrue(results[0].failed_config)
            # Once stopping, no emulator starts any more.
            late, _ = self.boot(["sh", "-c", "exit 1"], name="late")
            self.assertEqual(late.reasons, ["interrupted"])

    def test_two_configurations_at_once(self):
        skip = self.canned("skip.log", SKIP_LOG)
        specs = [BootSpec("one", BuildConfig("i386", "native"), "k", 1, "", 30),
                 BootSpec("two", BuildConfig("x86_64", "native"), "k", 4, "", 30)]
        reports = []

        def task(spec):
            argv = ["sh", "-c", f"cat {skip}; exit 33"]
            return lambda: self.boot(argv, name=spec.title(spec.config.arch))[0]

        results = run_parallel(2, [task(s) for s in specs],
                               lambda r: reports.append(r.report()))
        titles = sorted(r.splitlines()[0] for r in reports)
        self.assertEqual(titles, ["== one (i386, 1 CPU) (test) ==",
                                  "== two (x86_64, 4 CPUs) (test) =="])
        self.assertEqual(total_line(results), "4 passed, 0 failed, 2 skipped")


class Budget(unittest.TestCase):
    """The running tasks never keep more host threads busy than the budget."""

    def run_tasks(self, tasks, total, jobs=3):
        """Run (width, seconds) tasks; what ran at each start, in order."""
        lock, running, peaks = threading.Lock(), [], []

        def task(width, secs):
            def run():
                with lock:
                    running.append(width)
                    peaks.append(list(running))
                time.sleep(secs)
                with lock:
                    running.remove(width)
                return width
            return width, run
        done = run_parallel(jobs, [task(*t) for t in tasks], lambda r: None, total)
        self.assertEqual(sorted(done), sorted(w for w, _ in tasks))
        return peaks

    def test_never_over_the_budget(self):
        peaks = self.run_tasks([(w, 0.05) for w in (4, 4, 2, 1, 1, 4, 2)], 6)
        self.assertTrue(all(sum(p) <= 6 for p in peaks), peaks)
        # Two 4-thread tasks never ran together, but narrow ones did.
        self.assertFalse(any(p.count(4) > 1 for p in peaks), peaks)
        self.assertTrue(any(len(p) > 1 for p in peaks), peaks)

    def test_narrow_ones_go_by_a_wide_one_waiting(self):
        # The second 4 waits for the first; the 1 behind it starts first.
        # The first 4 runs long, so that even a loaded host keeps that order.
        peaks = self.run_tasks([(4, 1.0), (2, 0.05), (4, 0.05), (1, 0.05)], 6)
        self.assertEqual([p[-1] for p in peaks], [4, 2, 1, 4], peaks)

    def test_a_boot_in_turns_counts_one_thread(self):
        cfg = BuildConfig("i386", "debug")
        specs = [BootSpec("apart", cfg, "k", 4, "", 30),
                 BootSpec("turns", cfg, "k", 4, "", 30, turns=True)]
        self.assertEqual("turns (i386, 4 CPUs in turns)", specs[1].title("i386"))
        self.assertEqual("apart (i386, 4 CPUs)", specs[0].title("i386"))
        for accel, widths in (("tcg", [4, 1]), ("kvm", [4, 4]), ("icount", [1, 1])):
            tasks = boot_tasks(ROOT, ARCHES, specs, {"i386": accel})
            self.assertEqual([width for width, _ in tasks], widths, accel)

    def test_wider_than_the_budget_runs_alone(self):
        peaks = self.run_tasks([(8, 0.05), (1, 0.05), (1, 0.05), (2, 0.05)], 6)
        self.assertTrue(all(p == [8] for p in peaks if 8 in p), peaks)


class CommandLineLimit(unittest.TestCase):
    """The limit make run checks is the kernel's own COMMAND_LINE_MAX."""

    def test_read_from_the_header(self):
        self.assertEqual(qemu.command_line_max(ROOT), 4096)


if __name__ == "__main__":
    unittest.main()
