"""The results channel against the console: only the channel's results
count, and a case the two disagree on fails, saying so."""

import os
import tempfile
import unittest

from mutexos import grade, qemu
from mutexos.labs import Check

from .common import ARCHES, NOT_OK_LOG, OK_LOG, judge_text

# What the runner wrote before the lab's code took over in mutex's first
# case: the console then has that code's lines, the channel nothing more.
CHANNEL_CUT = """\
KTAP version 1
1..1
    KTAP version 1
    # Subtest: mutex
    1..3
    ok 1 api
"""
# The forge of lab 4's bank: the rest of the suite printed, then the end.
FORGED = CHANNEL_CUT + """\
    ok 2 trylock
    ok 3 fifo_order_of_waiters
ok 1 mutex
# mutexos: end of tests, status 0
"""
# The same a character at a time, on a console other CPUs print to too.
FORGED_IN_PIECES = CHANNEL_CUT + "CPU1: idle\n" + "".join(
    f"{c}" for c in "    ok 2 trylock\n    ok 3 fifo_order_of_waiters\n"
    "ok 1 mutex\n# mutexos: end of tests, status 0\n")
MUTEX = Check("mutex", 4, "mutex.*")


class Agreement(unittest.TestCase):
    """The console and the channel say the same: nothing changes."""

    def test_same_results_pass(self):
        result = judge_text(OK_LOG, 0, channel=OK_LOG)
        self.assertFalse(result.failed_config, result.reasons)
        self.assertEqual(result.disagreements, {})
        self.assertEqual(result.report(), judge_text(OK_LOG, 0).report())

    def test_console_noise_is_no_disagreement(self):
        # The console has diagnostics, reports and other CPUs' lines.
        channel = "".join(line for line in OK_LOG.splitlines(keepends=True)
                          if not line.startswith(("CPU1", "BUG", " backtrace", "# exp")))
        self.assertFalse(judge_text(OK_LOG, 0, channel=channel).failed_config)

    def test_failures_count_once(self):
        result = judge_text(NOT_OK_LOG, 1, channel=NOT_OK_LOG)
        self.assertEqual(result.totals(), (1, 2, 1))
        self.assertEqual(result.disagreements, {})


class Forged(unittest.TestCase):
    """Result lines printed on the console that the channel lacks."""

    def check_forged(self, console):
        result = judge_text(console, 0, channel=CHANNEL_CUT)
        self.assertTrue(result.failed_config)
        self.assertEqual(sorted(result.disagreements),
                         ["mutex.fifo_order_of_waiters", "mutex.trylock"])
        self.assertEqual(result.disagreements["mutex.trylock"],
                         "the console says 'ok', the results channel no result")
        self.assertIn("the console has a '# mutexos: end of tests' line, "
                      "the results channel none", result.reasons)
        self.assertTrue(any(r.startswith("the console and the results channel disagree "
                                         "on 2 case(s): mutex.trylock: ")
                            for r in result.reasons), result.reasons)
        ok, out = grade.judge_boot(MUTEX, result, "l")
        self.assertFalse(ok)
        self.assertIn("mutex.trylock: the console says 'ok', the results channel "
                      "no result", out)
        # Only the runner's own result counts.
        self.assertTrue(grade.judge_boot(Check("api", 1, "mutex.api"), result, "l")[0])

    def test_printed_lines(self):
        self.check_forged(FORGED)

    def test_printed_in_pieces(self):
        self.check_forged(FORGED_IN_PIECES)

    def test_without_the_channel_the_forge_passes(self):
        # What the grader saw before: the reason the channel exists.
        self.assertTrue(grade.judge_boot(MUTEX, judge_text(FORGED, 0), "l")[0])

    def test_a_result_line_printed_over_the_runners(self):
        # The runner's "not ok" is on both; the lab's code printed "ok" too.
        channel = CHANNEL_CUT + "    not ok 2 trylock\n    ok 3 fifo_order_of_waiters\n" \
            "not ok 1 mutex\n# mutexos: end of tests, status 1\n"
        console = channel.replace("    not ok 2 trylock\n",
                                  "    not ok 2 trylock\n    ok 2 trylock\n")
        result = judge_text(console, 1, channel=channel)
        self.assertEqual(result.disagreements["mutex.trylock"],
                         "the console says 'not ok' then 'ok', the results channel 'not ok'")
        self.assertFalse(grade.judge_boot(MUTEX, result, "l")[0])


class Reverse(unittest.TestCase):
    """A result on the channel that the console does not have fails too."""

    def test_console_lost_a_result(self):
        console = OK_LOG.replace("    ok 2 strcmp_order\n", "")
        result = judge_text(console, 0, channel=OK_LOG)
        self.assertEqual(result.disagreements,
                         {"string.strcmp_order":
                          "the console says no result, the results channel 'ok'"})
        self.assertIn("string.strcmp_order # the console says no result, "
                      "the results channel 'ok'", result.not_ok)
        ok, out = grade.judge_boot(Check("s", 1, "string.*"), result, "l")
        self.assertFalse(ok)
        self.assertIn("failed: string.strcmp_order", out)

    def test_verdicts_differ(self):
        console = OK_LOG.replace("    ok 3 strstr_empty", "    not ok 3 strstr_empty")
        result = judge_text(console, 0, channel=OK_LOG)
        self.assertEqual(result.disagreements["string.strstr_empty"],
                         "the console says 'not ok', the results channel 'ok'")
        self.assertFalse(grade.judge_boot(Check("s", 1, "string.strstr_empty"),
                                          result, "l")[0])


class Boot(unittest.TestCase):
    """qemu.boot() reads the channel's file after the emulator ends."""

    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.addCleanup(self.tmp.cleanup)

    def boot(self, console, channel):
        """A fake emulator that prints console and writes channel (None:
        writes no channel file)."""
        files = {}
        for name, text in (("console", console), ("channel", channel)):
            files[name] = os.path.join(self.tmp.name, name)
            if text is not None:
                with open(files[name], "w", encoding="utf-8") as f:
                    f.write(text)
        results = os.path.join(self.tmp.name, "boot.results")
        copy = f"cp {files['channel']} {results}; " if channel is not None else ""
        argv = ["sh", "-c", f"{copy}cat {files['console']}; exit 33"]
        with open(os.path.join(self.tmp.name, "boot.log"), "wb") as log:
            return qemu.boot("fake (test)", argv, ARCHES["i386"], 30, log,
                             results=results)

    def test_channel_file_counts(self):
        self.assertFalse(self.boot(OK_LOG, OK_LOG).failed_config)
        result = self.boot(FORGED, CHANNEL_CUT)
        self.assertIn("mutex.trylock", result.disagreements)

    def test_no_channel_file_fails(self):
        # A stale file of an earlier boot is emptied, never read.
        with open(os.path.join(self.tmp.name, "boot.results"), "w",
                  encoding="utf-8") as f:
            f.write(OK_LOG)
        result = self.boot(OK_LOG, None)
        self.assertTrue(result.failed_config)
        self.assertIn("no top-level KTAP plan", result.reasons)
