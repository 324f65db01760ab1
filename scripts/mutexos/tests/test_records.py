"""The runner's records on the results channel (docs/testing.md): a failed
expectation, written when it fails, and the function called for each
case. A lab's code that reaches the runner's memory through a pointer
can clear a case's status or point its case table elsewhere, but cannot
take back what the channel has: the grader fails and flags such a case."""

import json
import os
import stat
import tempfile
import unittest

from mutexos import grade, labcheck
from mutexos.labs import Check

from .common import judge_text

# The runner's results of mutex's three cases, with the records it writes
# to the channel alone; the console has the same KTAP without them.
CONSOLE = """\
KTAP version 1
1..1
    KTAP version 1
    # Subtest: mutex
    1..3
    # mutex_test.c:98: expected mutex_trylock(&m) == 1, but ...
    not ok 1 trylock
    ok 2 fifo_order_of_waiters
    ok 3 api
not ok 1 mutex
# mutexos: end of tests, status 1
"""
CHANNEL = """\
KTAP version 1
1..1
    KTAP version 1
    # Subtest: mutex
    1..3
    # call: mutex.trylock 0x101000
    # fail: mutex.trylock
    not ok 1 trylock
    # call: mutex.fifo_order_of_waiters 0x102000
    ok 2 fifo_order_of_waiters
    # call: mutex.api 0x103000
    ok 3 api
not ok 1 mutex
# mutexos: end of tests, status 1
"""
# lab4-forge-status-by-pointer: the case's status cleared after it failed.
STATUS_CLEARED = (CONSOLE.replace("    not ok 1 trylock", "    ok 1 trylock")
                  .replace("not ok 1 mutex", "ok 1 mutex").replace("status 1", "status 0"))
STATUS_CLEARED_CHANNEL = (CHANNEL.replace("    not ok 1 trylock", "    ok 1 trylock")
                          .replace("not ok 1 mutex", "ok 1 mutex")
                          .replace("status 1", "status 0"))
MUTEX = Check("mutex", 4, "mutex.*")
TAKEN_BACK = ("an expectation failed (the results channel recorded it), but the "
              "case ended 'ok': its status was changed after it failed")

# What nm -l says of the kernel: the tests' functions, and one of the
# lab's file (kernel/locking/mutex.c) named like a case.
SYMBOLS = """\
00101000 t trylock\t/grade/tests/mutex_test.c:90
00101800 T mutex_unlock\t/grade/kernel/locking/mutex.c:310
00102000 t fifo_order_of_waiters\t/grade/tests/mutex_test.c:200
00102400 t api\t/grade/kernel/locking/mutex.c:30
00102480 t forge_noop\t/grade/kernel/locking/mutex.c:40
00103000 t api\t/grade/tests/mutex_test.c:20
         U undefined_here
00200000 D some_data\t/grade/kernel/sched/sched.c:12
00104000 t readers_share\t/grade/tests/rwsem_student_test.c:30
00104100 t readers_share\t/grade/tests/rwsem_test.c:50
"""
LAB_FILES = ["kernel/locking/mutex.c", "answers.md"]


class Records(unittest.TestCase):
    """The records are read from the channel and change no result."""

    def test_records_are_read(self):
        result = judge_text(CONSOLE, 1, channel=CHANNEL)
        self.assertEqual(result.calls, {"mutex.trylock": 0x101000,
                                        "mutex.fifo_order_of_waiters": 0x102000,
                                        "mutex.api": 0x103000})
        self.assertEqual(result.disagreements, {})
        self.assertEqual(result.forged, {})
        self.assertEqual(result.totals(), (2, 1, 0))

    def test_a_failure_that_stays_failed_is_no_forgery(self):
        ok, out = grade.judge_boot(MUTEX, judge_text(CONSOLE, 1, channel=CHANNEL), "l")
        self.assertFalse(ok)
        self.assertNotIn("changed", out)


class StatusCleared(unittest.TestCase):
    """A case with a failure record that ends 'ok' fails, saying why."""

    def test_the_case_fails(self):
        result = judge_text(STATUS_CLEARED, 0, channel=STATUS_CLEARED_CHANNEL)
        self.assertEqual(result.forged, {"mutex.trylock": TAKEN_BACK})
        self.assertEqual(result.disagreements, {})
        self.assertTrue(result.failed_config)
        self.assertIn(f"mutex.trylock: {TAKEN_BACK}", result.reasons)
        self.assertIn(f"mutex.trylock # {TAKEN_BACK}", result.not_ok)
        ok, out = grade.judge_boot(MUTEX, result, "l", forged=result.forged)
        self.assertFalse(ok)
        self.assertIn(f"mutex.trylock: {TAKEN_BACK}", out)
        # The other cases keep their results.
        self.assertTrue(grade.judge_boot(Check("f", 1, "mutex.fifo_order_of_waiters"),
                                         result, "l", forged=result.forged)[0])

    def test_without_the_records_the_forge_passes(self):
        # What the grader saw before: the reason the records exist.
        channel = "".join(line for line in STATUS_CLEARED_CHANNEL.splitlines(True)
                          if "# fail:" not in line)
        result = judge_text(STATUS_CLEARED, 0, channel=channel)
        self.assertTrue(grade.judge_boot(MUTEX, result, "l")[0])


class Calls(unittest.TestCase):
    """The function called for a case must be the test's of its name."""

    def setUp(self):
        tmp = tempfile.TemporaryDirectory()
        self.addCleanup(tmp.cleanup)
        self.nm = os.path.join(tmp.name, "nm")
        listing = os.path.join(tmp.name, "symbols")
        with open(listing, "w", encoding="utf-8") as f:
            f.write(SYMBOLS)
        with open(self.nm, "w", encoding="utf-8") as f:
            f.write(f"#!/bin/sh\ntest \"$1\" = -l || exit 1\ncat {listing}\n")
        os.chmod(self.nm, stat.S_IRWXU)

    def wrong(self, calls):
        return grade.wrong_calls(self.nm, "kernel.elf", calls, LAB_FILES)

    def test_the_tests_functions_pass(self):
        self.assertEqual(self.wrong({"mutex.trylock": 0x101000,
                                     "mutex.fifo_order_of_waiters": 0x102000,
                                     "mutex.api": 0x103000}), {})

    def test_a_no_op_of_the_lab_fails(self):
        found = self.wrong({"mutex.trylock": 0x101000,
                            "mutex.fifo_order_of_waiters": 0x102480})
        self.assertEqual(list(found), ["mutex.fifo_order_of_waiters"])
        self.assertEqual(found["mutex.fifo_order_of_waiters"],
                         "the runner called forge_noop at 0x102480 (mutex.c) for it, "
                         "not the test's fifo_order_of_waiters(): its case table was "
                         "changed while the tests ran")

    def test_another_case_function_fails(self):
        found = self.wrong({"mutex.trylock": 0x102000})
        self.assertIn("fifo_order_of_waiters at 0x102000 (mutex_test.c)",
                      found["mutex.trylock"])

    def test_a_lab_function_named_like_the_case_fails(self):
        found = self.wrong({"mutex.api": 0x102400})
        self.assertIn("the runner called api at 0x102400 (mutex.c)", found["mutex.api"])

    def test_an_address_inside_a_function_or_none(self):
        found = self.wrong({"mutex.trylock": 0x101804, "mutex.api": 0x100000})
        self.assertIn("mutex_unlock+0x4 at 0x101804 (mutex.c)", found["mutex.trylock"])
        self.assertIn("0x100000, in no function", found["mutex.api"])

    def test_the_labs_own_tests(self):
        # Lab 9's tests are the student's: theirs are in a lab's file, and
        # a hidden test's must still not be.
        files = LAB_FILES + ["tests/rwsem_student_test.c"]
        calls = {"rwsem_student.readers_share": 0x104000, "rwsem.readers_share": 0x104100}
        self.assertEqual(grade.wrong_calls(self.nm, "kernel.elf", calls, files,
                                           ("rwsem_student",)), {})
        found = grade.wrong_calls(self.nm, "kernel.elf",
                                  {"rwsem_student.readers_share": 0x104100,
                                   "rwsem.readers_share": 0x104000}, files, ("rwsem_student",))
        self.assertEqual(sorted(found), ["rwsem.readers_share", "rwsem_student.readers_share"])
        # Without its suites named, the lab's own tests read as forged:
        # what a correct lab 9 got before.
        self.assertEqual(list(grade.wrong_calls(self.nm, "kernel.elf", calls, files)),
                         ["rwsem_student.readers_share"])

    def test_no_records_no_nm(self):
        self.assertEqual(grade.wrong_calls("/nonexistent/nm", "kernel.elf", {},
                                           LAB_FILES), {})


class Flagged(unittest.TestCase):
    """A forged case fails its check and flags results.json."""

    def setUp(self):
        tmp = tempfile.TemporaryDirectory()
        self.addCleanup(tmp.cleanup)
        self.path = os.path.join(tmp.name, "results.json")

    def read(self):
        with open(self.path, encoding="utf-8") as f:
            return json.load(f)

    def test_results_json_is_flagged(self):
        result = judge_text(STATUS_CLEARED, 0, channel=STATUS_CLEARED_CHANNEL)
        forged = result.forged
        outcomes = [grade.Outcome(c, "i386", *grade.judge_boot(c, result, "l", forged=forged),
                                  flags=grade.selected(c, forged))
                    for c in (Check("trylock", 3, "mutex.trylock"),
                              Check("fifo", 1, "mutex.fifo_order_of_waiters"))]
        said = []
        self.assertEqual(grade.report(MutexLab, outcomes, self.path, said.append), 1)
        data = self.read()
        self.assertEqual(data["score"], 1)
        self.assertTrue(data["flagged"])
        self.assertEqual(data["flagged_reasons"],
                         [f"trylock [i386]: mutex.trylock: {TAKEN_BACK}"])
        self.assertIn("grade: FLAGGED for a person to look at: trylock [i386]: "
                      f"mutex.trylock: {TAKEN_BACK}", said)

    def test_an_honest_grade_is_not(self):
        outcomes = [grade.Outcome(Check("fifo", 1, "mutex.*"), "i386", False, "failed")]
        grade.report(MutexLab, outcomes, self.path, lambda text: None)
        self.assertNotIn("flagged", self.read())


class MutexLab:
    """What report() reads of a lab."""
    number = 4
    title = "Interruptible locking and trylock"


class ForgeKeptPoints(unittest.TestCase):
    """make check-labs: a forge keeps no more than a skeleton's share, or
    is flagged."""

    def kept(self, score, flagged):
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, "results.json")
            data = {"score": score, "tests": [{"max_score": 10}, {"max_score": 10}]}
            if flagged:
                data["flagged"] = True
            with open(path, "w", encoding="utf-8") as f:
                json.dump(data, f)
            return labcheck.forge_kept_points("lab4-forge-x", path, "i386",
                                              labcheck.CheckLog(None, "log"))

    def test_a_skeletons_share_passes(self):
        self.assertEqual(self.kept(2, False), [])

    def test_flagged_passes(self):
        self.assertEqual(self.kept(19, True), [])

    def test_more_unflagged_fails(self):
        self.assertEqual(self.kept(3, False),
                         ["lab4-forge-x: 3/20 on i386, unflagged: a forge may keep no "
                          "more than a skeleton's 10% (log: log)"])


if __name__ == "__main__":
    unittest.main()
