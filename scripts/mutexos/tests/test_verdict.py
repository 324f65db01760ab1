"""The KTAP parser and the verdict on canned serial logs."""

import unittest

from mutexos.checks import case_passed, missed_failures
from mutexos.ktap import KtapParser
from mutexos.verdict import (StepResult, exit_code, failure_recap, judge_console,
                             total_line)

from .common import (CRLF_LOG, NOT_OK_LOG, OK_LOG, PANIC_LOG, SHORT_LOG, SKIP_LOG,
                     judge_text)


class CannedLogs(unittest.TestCase):
    """Each canned log is judged as the runner always judged it."""

    def assert_report(self, result, *lines):
        report = result.report().splitlines()
        for line in lines:
            self.assertIn(line, report)

    def test_unprovoked_report_fails(self):
        # The same passing log, with a report outside the markers.
        log = OK_LOG.replace("CPU1: idle", "WARNING: CPU: 1 PID: 7 at x.c:3: cond")
        result = judge_text(log, 0)
        self.assertTrue(result.failed_config)
        self.assertIn("a report nobody provoked: WARNING: CPU: 1 PID: 7 at x.c:3: cond",
                      result.reasons)

    def test_report_after_the_end_marker_fails(self):
        log = OK_LOG.replace("    ok 1 wrong_owner_reported",
                             "INFO: task x:3 blocked\n    ok 1 wrong_owner_reported")
        self.assertTrue(judge_text(log, 0).failed_config)

    def test_all_ok_passes(self):
        result = judge_text(OK_LOG, 0)
        self.assertFalse(result.failed_config)
        self.assert_report(result, "result: passed (status 0)")
        self.assertEqual(total_line([result]), "5 passed, 0 failed")
        self.assertEqual(exit_code([result]), 0)

    def test_crlf_lines_are_understood(self):
        result = judge_text(CRLF_LOG, 0)
        self.assertFalse(result.failed_config, result.reasons)
        self.assertEqual(total_line([result]), "1 passed, 0 failed")

    def test_skipped_case_does_not_fail(self):
        result = judge_text(SKIP_LOG, 0)
        self.assertFalse(result.failed_config)
        self.assertEqual(total_line([result]), "2 passed, 0 failed, 1 skipped")

    def test_not_ok_case_fails(self):
        result = judge_text(NOT_OK_LOG, 1)
        self.assertTrue(result.failed_config)
        self.assert_report(result, "result: FAILED (status 1)",
                           "  not ok: string.strcmp_order",
                           "  not ok: mutex.hangs # TIMEOUT")
        self.assertEqual(total_line([result]), "1 passed, 2 failed, 1 skipped")
        self.assertEqual(exit_code([result]), 1)

    def test_status_1_without_not_ok_fails(self):
        result = judge_text(OK_LOG, 1)
        self.assertTrue(result.failed_config)
        self.assertIn("status 1 (some tests failed) but no case reported 'not ok'",
                      result.reasons)
        self.assertEqual(total_line([result]), "5 passed, 1 failed")

    def test_other_status_fails(self):
        result = judge_text(OK_LOG, 3)
        self.assertIn("status 3: error: bad input, nothing was run", result.reasons)

    def test_halt_is_no_test_run(self):
        # A complete, passing log that ends by the console's halt: tests
        # were run from the console, not by the boot's test= (not a run).
        result = judge_text(OK_LOG, 7)
        self.assertIn("status 7: halted from the console", result.reasons)

    def test_no_status_fails(self):
        result = judge_text(OK_LOG, None)
        self.assert_report(result, "result: FAILED (no status)")
        self.assertIn("the kernel set no exit status", result.reasons)

    def test_panic_fails(self):
        result = judge_text(PANIC_LOG, 2)
        self.assert_report(result, "result: FAILED (status 2)")
        self.assertIn("crashed: Kernel panic - not syncing: scheduling while atomic",
                      result.reasons)
        self.assertEqual(total_line([result]), "1 passed, 2 failed")

    def test_short_log_fails_even_with_status_0(self):
        result = judge_text(SHORT_LOG, 0)
        self.assertTrue(result.failed_config)
        self.assertIn("mutex: 1 of 3 cases reported", result.reasons)
        self.assertIn("1 of 2 suites never reported", result.reasons)
        self.assertEqual(total_line([result]), "1 passed, 3 failed")

    def test_missing_plan_fails(self):
        result = judge_text("KTAP version 1\nok 1 lonely\n"
                            "# mutexos: end of tests, status 0\n", 0)
        self.assertIn("no top-level KTAP plan", result.reasons)
        self.assertEqual(total_line([result]), "1 passed, 1 failed")

    def test_missing_end_line_fails(self):
        text = OK_LOG.replace("# mutexos: end of tests, status 0\n", "")
        result = judge_text(text, 0)
        self.assertEqual(result.reasons, ["no '# mutexos: end of tests' line"])

    def test_timeout_fails_even_after_a_complete_log(self):
        result = judge_text(OK_LOG, None, timeout=5)
        self.assertTrue(result.failed_config)
        self.assert_report(result, "result: FAILED (TIMEOUT after 5s)")

    def test_second_header_is_a_restart(self):
        result = judge_text("KTAP version 1\n1..1\n" + OK_LOG, 0)
        self.assertIn("a second top-level KTAP header (did the kernel restart?)",
                      result.reasons)


class ConsoleVerdict(unittest.TestCase):
    """A console session passes when its script saw everything and it halted."""

    def judge(self, text, status, problems=(), timeout=None):
        parser = KtapParser()
        for line in text.splitlines(keepends=True):
            parser.feed(line)
        parser.finish()
        return judge_console(parser, status, timeout, problems)

    def test_halted_with_passing_tests(self):
        self.assertEqual(self.judge(OK_LOG, 7), [])

    def test_any_other_end_fails(self):
        self.assertIn("ended with status 0 (every test passed), not by its halt",
                      self.judge(OK_LOG, 0))
        self.assertIn("ended with status None (no status), not by its halt",
                      self.judge(OK_LOG, None))

    def test_script_problems_come_first(self):
        reasons = self.judge(OK_LOG, 7, ["'ps': no 'swapper/1'"])
        self.assertEqual(reasons, ["'ps': no 'swapper/1'"])

    def test_broken_ktap_of_its_test_command_fails(self):
        self.assertIn("1 of 2 suites never reported", self.judge(SHORT_LOG, 7))

    def test_crash_fails(self):
        self.assertTrue(self.judge(PANIC_LOG, 7)[0].startswith("crashed: Kernel panic"))

    def test_timeout_fails(self):
        self.assertIn("QEMU was still running after 9s and was killed",
                      self.judge(OK_LOG, None, timeout=9))


class Totals(unittest.TestCase):
    """The closing line adds up every configuration and every failed step."""

    def test_counts_summed_over_configurations(self):
        results = [judge_text(SKIP_LOG, 0), judge_text(SKIP_LOG, 0)]
        self.assertEqual(total_line(results), "4 passed, 0 failed, 2 skipped")

    def test_failed_build_counts_as_a_failure(self):
        results = [judge_text(OK_LOG, 0), StepResult("build i386 native", ["make: 2"])]
        self.assertEqual(total_line(results), "5 passed, 1 failed")
        self.assertEqual(exit_code(results), 1)

    def test_recap_names_each_failure(self):
        results = [judge_text(OK_LOG, 0), StepResult("build i386 native", ["make: 2"]),
                   StepResult("runner check", ["unit tests failed"], log="build/r.log")]
        self.assertEqual(failure_recap(results),
                         "failed (2):\n  build i386 native: make: 2\n"
                         "  runner check: unit tests failed (log: build/r.log)")

    def test_recap_of_a_boot_gives_its_first_failed_case(self):
        result = judge_text(NOT_OK_LOG, 1, title="i386-native-cpus2")
        self.assertEqual(failure_recap([result]).splitlines()[1],
                         f"  i386-native-cpus2: not ok: string.strcmp_order and 1 more"
                         f" (log: {result.log})")

    def test_recap_empty_when_all_passed(self):
        self.assertEqual(failure_recap([judge_text(OK_LOG, 0)]), "")

    def test_passed_step_counts_nothing(self):
        results = [judge_text(OK_LOG, 0), StepResult("sdcard-check arm")]
        self.assertEqual(total_line(results), "5 passed, 0 failed")
        self.assertEqual(exit_code(results), 0)


class RunnerCheckVerdict(unittest.TestCase):
    """The runner check passes only if every broken kernel was judged failed."""

    def test_detected_failure(self):
        self.assertEqual(missed_failures([judge_text(NOT_OK_LOG, 1)]), [])

    def test_clean_run_is_a_miss(self):
        results = [judge_text(NOT_OK_LOG, 1), judge_text(OK_LOG, 0, title="clean")]
        self.assertEqual(missed_failures(results), ["clean"])

    def test_case_passed(self):
        result = judge_text(NOT_OK_LOG, 1)
        passed = [name for suite in result.suites for name, ok in suite.cases if ok]
        failed = [name for suite in result.suites for name, ok in suite.cases if not ok]
        self.assertTrue(case_passed(result, passed[0]))
        self.assertFalse(case_passed(result, failed[0]))
        self.assertFalse(case_passed(result, "nosuch.case"))


if __name__ == "__main__":
    unittest.main()
