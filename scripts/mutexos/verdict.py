"""Judging a run, and the report: a table per configuration, a total line.

A configuration fails when
  - a test case reports "not ok" (a "# TIMEOUT" case included),
  - a line contains "Kernel panic - not syncing", "Oops:" or "Unhandled
    exception" (a "BUG:" line is not a failure: the debug tests provoke
    those reports on purpose),
  - the top-level plan is missing, or a plan does not match the number of
    results that follow it (each missing case counts as a failed case),
  - the "# mutexos: end of tests" line never comes,
  - the status is not 0 (status 1 with no "not ok" line still fails),
  - QEMU ends without the kernel's status, or never starts,
  - or the timeout expires, in which case QEMU is killed.
A boot that reads the results channel (qemu.py) takes its results from
there, the console's lines only checked against them: a case whose
results differ between the two fails, saying so, and the plans and the
end line must be on the channel.  Crashes and reports are read on the
console.
A failed configuration counts at least one failed case, and so does a
failed build or check, so that the total line never says "0 failed" when
something failed.

A console session (the console check) is judged by judge_console instead:
it must see what its script expects, and end by its own halt (status 7).
"""

import os

from .ktap import KtapParser, disagreements, taken_back

# The kernel's exit statuses (docs/testing.md).
STATUS_MEANING = {
    0: "every test passed",
    1: "some tests failed",
    2: "panic or fault",
    3: "error: bad input, nothing was run",
    4: "listed the test cases, ran none",
    5: "benchmarks done, every invariant held",
    6: "a benchmark broke an invariant",
    7: "halted from the console",
}
# The statuses of a run that did what it was asked (make run exits 0).
STATUS_DONE = (0, 4, 5, 7)
# What a console session ends with: its halt command.
STATUS_HALTED = 7
# What a benchmark run ends with when it went well.
STATUS_BENCH_DONE = 5


class Result:
    """What one boot did, judged.

    parser read the console; channel, if given, the results channel,
    whose results count.  disagreements: {"suite.case": why} of each case
    the two differ on (ktap.disagreements); forged: of each case the
    channel records a failure of but reports 'ok' (ktap.taken_back);
    each failed.  calls: {"suite.case": the address of the function the
    runner called for it}, from the channel, for the grader to check.
    """

    def __init__(self, title, parser, status, log, timeout=None, exit_note=None,
                 reasons=None, channel=None):
        self.title = title
        self.disagreements = disagreements(parser, channel) if channel else {}
        self.forged = taken_back(channel) if channel else {}
        self.calls = channel.calls if channel else {}
        results = channel or parser
        self.suites = [s.overruled({**self.disagreements, **self.forged})
                       for s in results.suites]
        self.status = status
        self.log = log
        self.timeout = timeout
        if reasons is None:
            reasons = judge(parser, status, timeout, exit_note, channel)
            reasons += disagreement_reasons(self.disagreements)
            reasons += [f"{name}: {why}" for name, why in self.forged.items()]
        self.reasons = reasons
        self.not_ok = [case for suite in self.suites for case in suite.not_ok]
        self.missing_suites = results.missing_suites
        self._count_failure()

    @classmethod
    def not_started(cls, title, log, why):
        """A boot whose emulator never ran: why is the only reason."""
        result = cls(title, KtapParser(), None, log, exit_note=why)
        result.reasons = [why]
        return result

    def add_reason(self, reason, first=False):
        """One more reason to fail (a check of its own on the results)."""
        self.reasons.insert(0 if first else len(self.reasons), reason)
        self._count_failure()

    def _count_failure(self):
        self.failed_config = bool(self.reasons or self.not_ok)
        # Unreported suites and a failure no case explains go to one extra row.
        self.extra_failed = self.missing_suites
        if self.failed_config and not self.extra_failed \
                and not any(s.failed for s in self.suites):
            self.extra_failed = 1

    def totals(self):
        """(passed, failed, skipped) leaf cases."""
        passed = sum(s.passed for s in self.suites)
        failed = sum(s.failed for s in self.suites) + self.extra_failed
        skipped = sum(s.skipped for s in self.suites)
        return passed, failed, skipped

    def report(self):
        """The whole table of this boot, as one string."""
        return format_report(self)


class StepResult:
    """A build or a check: it passes or fails as a whole.

    A failed one counts as one failed case in the total line.
    """

    def __init__(self, title, reasons=(), log=None, note=""):
        self.title = title
        self.reasons = list(reasons)
        self.log = log
        self.note = note
        self.failed_config = bool(self.reasons)

    def totals(self):
        """(passed, failed, skipped): a step is no test case unless it failed."""
        return 0, int(self.failed_config), 0

    def report(self):
        """One line when it passed; a block with the reasons when it failed."""
        if not self.failed_config:
            return f"{self.title}: ok{' (' + self.note + ')' if self.note else ''}"
        where = f" log: {self.log}" if self.log else ""
        lines = [f"== {self.title} ==", f"result: FAILED{where}"]
        lines += [f"  reason: {reason}" for reason in self.reasons]
        return "\n".join(lines)


def judge(parser, status, timeout, exit_note, channel=None):
    """Why a run failed, apart from its "not ok" cases; empty when it did not.

    parser: the console's; channel, if given: the results channel's, whose
    results, plans and end line count.
    """
    console, parser = parser, channel or parser
    reasons = []
    if console.crash:
        reasons.append(f"crashed: {console.crash}")
    elif console.unexpected:
        reasons.append(f"a report nobody provoked: {console.unexpected}")
    if status is None:
        if not timeout:
            reasons.append(exit_note or "the kernel set no exit status")
    elif status == 1:
        if not any(s.not_ok for s in parser.suites):
            reasons.append("status 1 (some tests failed) but no case reported 'not ok'")
    elif status != 0 and not (status == 2 and console.crash):
        meaning = STATUS_MEANING.get(status, "unknown status")
        reasons.append(f"status {status}: {meaning}")
    reasons += parser.problems
    # A crash or a timeout already says why the end line is missing.
    if console.end_seen and not parser.end_seen:
        reasons.append("the console has a '# mutexos: end of tests' line, "
                       "the results channel none")
    elif not parser.end_seen and not console.crash and not timeout:
        reasons.append("no '# mutexos: end of tests' line")
    if timeout and not reasons:
        # Every result came, but the kernel never ended the machine.
        reasons.append(f"QEMU was still running after {timeout}s and was killed")
    return reasons


def disagreement_reasons(found):
    """The reason for the cases of found (ktap.disagreements), the first few
    named; none when it is empty."""
    if not found:
        return []
    named = [f"{name}: {why}" for name, why in list(found.items())[:3]]
    more = f"; and {len(found) - 3} more" if len(found) > 3 else ""
    return [f"the console and the results channel disagree on {len(found)} "
            f"case(s): {'; '.join(named)}{more}"]


def judge_console(parser, status, timeout, problems):
    """Why a console session failed; empty when it did not.

    problems are the steps of its script that did not see what they
    should (the script checks that its test command passed).  Besides
    those: a crash, a report nobody provoked, broken KTAP from its test
    command, and any end but its own halt.
    """
    reasons = list(problems)
    if parser.crash:
        reasons.append(f"crashed: {parser.crash}")
    elif parser.unexpected:
        reasons.append(f"a report nobody provoked: {parser.unexpected}")
    if not problems and parser.stack:
        # KTAP from its test command, complete.  (A script cut short may
        # not have run that yet: no news in it.)
        reasons += parser.problems
    if timeout:
        reasons.append(f"QEMU was still running after {timeout}s and was killed")
    elif status != STATUS_HALTED:
        meaning = STATUS_MEANING.get(status, "no status") if status is not None \
            else "no status"
        reasons.append(f"ended with status {status} ({meaning}), not by its halt")
    return reasons


def format_report(res):
    """The whole table of one boot, as one string."""
    rows = [(s.name, s.passed, s.failed, s.skipped) for s in res.suites]
    if res.extra_failed:
        rows.append(("(run)", 0, res.extra_failed, 0))
    width = max([16] + [len(row[0]) for row in rows])
    lines = [f"== {res.title} ==",
             f"{'suite':<{width}} {'passed':>6} {'failed':>6} {'skipped':>7}"]
    lines += [f"{n:<{width}} {p:>6} {f:>6} {s:>7}" for n, p, f, s in rows]
    if res.timeout:
        how = f"TIMEOUT after {res.timeout}s"
    elif res.status is not None:
        how = f"status {res.status}"
    else:
        how = "no status"
    if res.failed_config and os.path.exists(res.log):
        lines.append(f"result: FAILED ({how}) log: {res.log}")
    elif res.failed_config:
        lines.append(f"result: FAILED ({how})")
    else:
        lines.append(f"result: passed ({how})")
    lines += [f"  not ok: {case}" for case in res.not_ok]
    lines += [f"  reason: {reason}" for reason in res.reasons]
    return "\n".join(lines)


def total_line(results):
    """The closing line: "N passed, N failed" and ", N skipped" when any."""
    passed = sum(r.totals()[0] for r in results)
    failed = sum(r.totals()[1] for r in results)
    skipped = sum(r.totals()[2] for r in results)
    line = f"{passed} passed, {failed} failed"
    if skipped:
        line += f", {skipped} skipped"
    return line


def _first_reason(res):
    """A failed result's reason, or its first "not ok" case (a boot
    whose only fault is its failed cases has no reason of its own)."""
    if res.reasons:
        return res.reasons[0]
    more = len(res.not_ok) - 1
    return f"not ok: {res.not_ok[0]}" + (f" and {more} more" if more else "")


def failure_recap(results):
    """What failed, a line each, for the end of a long run: the tables
    scroll away, and a CI page often shows only the last lines.  Empty
    when nothing failed."""
    lines = []
    for res in results:
        if not res.failed_config:
            continue
        where = f" (log: {res.log})" if res.log else ""
        lines.append(f"  {res.title}: {_first_reason(res)}{where}")
    if not lines:
        return ""
    return "\n".join([f"failed ({len(lines)}):"] + lines)


def exit_code(results):
    """0 when nothing failed, else 1."""
    return 1 if any(r.failed_config for r in results) else 0
