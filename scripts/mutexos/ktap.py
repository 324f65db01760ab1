"""The KTAP parser: what the kernel's serial line says about its tests.

The kernel prints its results in KTAP version 1 (docs/testing.md), one
subtest per suite, and ends with "# mutexos: end of tests".  The parser
takes the serial output one line at a time, as it arrives, and collects a
Suite per top-level test, the problems of the stream (short counts,
missing plans, a restart) and the first crash report.

The same parser reads the results channel (qemu.py), where the runner
writes its result lines a second time; disagreements() compares the two.
The channel also holds the runner's records (docs/testing.md): each failed
expectation as it fails, which taken_back() holds against the case's
result, and the function called for each case, which the grader checks.
"""

import re

KTAP_HEADER = re.compile(r"K?TAP version \d+$")
SUBTEST = re.compile(r"# Subtest: (.*)$")
PLAN = re.compile(r"1\.\.(\d+)\b")
RESULT = re.compile(r"(not ok|ok)\s+(\d+)(?:\s+-)?(?:\s+([^#]*?))?\s*(?:#\s*(.*?))?\s*$")
END_OF_TESTS = re.compile(r"# mutexos: end of tests(?:, status (\d+))?")
# The runner's records on the results channel: a failure of "suite.case",
# written when it happens, and the address of the function run for it.
FAIL_RECORD = re.compile(r"# fail: (\S+)$")
CALL_RECORD = re.compile(r"# call: (\S+) 0x([0-9a-f]+)$")
CRASH = re.compile(r"Kernel panic - not syncing|Oops:|Unhandled exception")
# A report of the kernel's: expected only between the two marker lines
# that a test case provoking it on purpose makes the kernel print.
REPORT = re.compile(r"(BUG|WARNING|INFO): ")
EXPECTED_START = "# expected report follows"
EXPECTED_END = "# expected report ends"
# printk may put a timestamp before a line; the KTAP indentation follows it.
TIMESTAMP = re.compile(r"\[\s*\d+\.\d+\] ?")


class Block:
    """One KTAP test list at one nesting depth: its plan and its results so far."""

    def __init__(self, name=None):
        self.name = name
        self.plan = None
        self.seen = 0           # result lines at this depth
        self.leaves = []        # (path, ok, directive) of leaf cases below
        self.missing = 0        # planned cases that never reported


class Suite:
    """A top-level test with the counts of its leaf cases: one table row."""

    def __init__(self, name):
        self.name = name
        self.passed = 0
        self.failed = 0
        self.skipped = 0
        self.not_ok = []        # "suite.case # directive" of each failed case
        self.cases = []         # ("suite.case", ok) of every case, in order
        self.leaves = []        # (path, ok, directive) of every case, in order
        self.missing = 0        # planned cases that never reported

    def add(self, path, ok, directive):
        self.leaves.append((path, ok, directive))
        self.cases.append((f"{self.name}.{path}" if path else self.name, ok))
        if not ok:
            self.failed += 1
            name = f"{self.name}.{path}" if path else self.name
            self.not_ok.append(f"{name} # {directive}" if directive else name)
        elif directive and directive.upper().startswith("SKIP"):
            self.skipped += 1
        else:
            self.passed += 1

    def overruled(self, vetoes):
        """A copy in which each case named in vetoes ({"suite.case": why})
        fails, with why as its directive."""
        suite = Suite(self.name)
        for path, ok, directive in self.leaves:
            why = vetoes.get(f"{self.name}.{path}" if path else self.name)
            suite.add(path, ok and not why, why or directive)
        suite.missing = self.missing
        suite.failed += self.missing
        return suite


class KtapParser:
    """Reads serial lines one at a time; finish() when the line goes quiet.

    Nesting is told by indentation (4 spaces a level).  A result line
    closes the list one level deeper if one is open (it is then a summary);
    otherwise it is a leaf case.  Lines that are not KTAP are ignored, since
    other CPUs' printk output may land between any two lines.
    """

    def __init__(self):
        self.stack = []         # Block per depth; stack[0] is the top level
        self.suites = []
        self.problems = []      # why the KTAP stream is incomplete or wrong
        self.crash = None       # the first line that reports a crash
        self.unexpected = None  # the first report nobody provoked
        self.expected_depth = 0 # expected reports open (CPUs may overlap)
        self.end_seen = False
        self.missing_suites = 0
        self.failure_records = set()    # "suite.case" of each fail record
        self.calls = {}                 # {"suite.case": address} of call records

    def feed(self, line):
        line = line.replace("\r", "").rstrip()
        if self.crash is None and CRASH.search(line):
            self.crash = line.strip()
        stamp = TIMESTAMP.match(line)
        if stamp:
            line = line[stamp.end():]
        self._watch_reports(line.strip())
        text = line.lstrip(" ")
        depth = (len(line) - len(text)) // 4
        if FAIL_RECORD.match(text):
            self.failure_records.add(FAIL_RECORD.match(text).group(1))
        elif CALL_RECORD.match(text):
            m = CALL_RECORD.match(text)
            self.calls[m.group(1)] = int(m.group(2), 16)
        elif END_OF_TESTS.match(text):
            self.end_seen = True
        elif KTAP_HEADER.match(text):
            self._open(depth)
        elif SUBTEST.match(text):
            block = self._open(depth)
            block.name = block.name or SUBTEST.match(text).group(1).strip()
        elif PLAN.match(text):
            self._plan(depth, int(PLAN.match(text).group(1)))
        elif RESULT.match(text):
            m = RESULT.match(text)
            self._result(depth, m.group(1) == "ok", m.group(3) or f"case{m.group(2)}",
                         m.group(4) or "")

    def _watch_reports(self, text):
        """Track the expected-report markers; note a report outside them."""
        if text == EXPECTED_START:
            self.expected_depth += 1
        elif text == EXPECTED_END:
            self.expected_depth = max(0, self.expected_depth - 1)
        elif REPORT.match(text) and not self.expected_depth \
                and self.unexpected is None and not CRASH.search(text):
            self.unexpected = text

    def finish(self):
        """The stream ended: close what is open and check the top-level plan."""
        # Without the end line the stream was cut short, which is reported
        # once already; a missing summary line would only repeat that.
        self._close_deeper(0, report=self.end_seen)
        if not self.stack or self.stack[0].plan is None:
            self.problems.append("no top-level KTAP plan")
            return
        root = self.stack[0]
        if root.seen < root.plan:
            self.missing_suites = root.plan - root.seen
            self.problems.append(f"{self.missing_suites} of {root.plan} suites never reported")
        elif root.seen > root.plan:
            self.problems.append(f"{root.seen} suites reported, {root.plan} planned")

    def _ensure(self, depth):
        """Make up the blocks down to depth whose headers were lost."""
        while len(self.stack) <= depth:
            self.stack.append(Block())

    def _open(self, depth):
        """The block a header or "# Subtest:" line starts at depth.

        Both lines open the same list, so a block that has seen nothing yet
        is reused.
        """
        if len(self.stack) == depth + 1 and self.stack[depth].seen == 0 \
                and self.stack[depth].plan is None:
            return self.stack[depth]
        if depth == 0 and self.stack:
            self.problems.append("a second top-level KTAP header (did the kernel restart?)")
            self._close_deeper(0, report=False)
            self.stack = []
        elif depth > 0:
            self._ensure(depth - 1)
            self._close_deeper(depth - 1, report=True)
        self.stack.append(Block())
        return self.stack[depth]

    def _plan(self, depth, count):
        self._ensure(depth)
        self._close_deeper(depth, report=True)
        if self.stack[depth].plan is not None:
            self.problems.append(f"a second plan '1..{count}' at depth {depth}")
        self.stack[depth].plan = count

    def _result(self, depth, ok, name, directive):
        self._ensure(depth)
        self._close_deeper(depth + 1, report=True)
        if len(self.stack) > depth + 1:
            self._fold(name, ok, directive)     # the summary of the list below
        elif depth == 0:
            # A top-level test without cases of its own: a row of one.
            suite = Suite(name)
            suite.add("", ok, directive)
            self.suites.append(suite)
            self.stack[0].seen += 1
        else:
            self.stack[depth].leaves.append((name, ok, directive))
            self.stack[depth].seen += 1

    def _close_deeper(self, depth, report):
        """Close the blocks deeper than depth that never got a summary line."""
        while len(self.stack) > depth + 1:
            block = self.stack[-1]
            if block.seen == 0 and block.plan is None:
                # Only its header came out: the parent's plan counts it missing.
                self.stack.pop()
                if block.name:
                    self.problems.append(f"{block.name}: started, reported nothing")
                continue
            if report:
                self.problems.append(f"{block.name or '?'}: no result line after its cases")
            self._fold(None, True, "")

    def _fold(self, name, ok, directive):
        """Close the innermost block into its parent, given its summary line."""
        depth = len(self.stack) - 1
        child = self.stack.pop()
        name = child.name or name or "?"
        if child.plan is None:
            self.problems.append(f"{name}: no plan")
        elif child.seen < child.plan:
            child.missing += child.plan - child.seen
            self.problems.append(f"{name}: {child.seen} of {child.plan} cases reported")
        elif child.seen > child.plan:
            self.problems.append(f"{name}: {child.seen} cases reported, {child.plan} planned")
        failed_below = child.missing or any(not leaf_ok for _, leaf_ok, _ in child.leaves)
        if not ok and not failed_below:
            # The summary says failed though no case did (say, suite init failed).
            child.leaves.append(("", False, directive))
        parent = self.stack[depth - 1]
        parent.seen += 1
        if depth == 1:
            self.suites.append(self._suite(name, child))
            return
        for path, leaf_ok, leaf_directive in child.leaves:
            parent.leaves.append((f"{name}.{path}" if path else name, leaf_ok, leaf_directive))
        parent.missing += child.missing

    @staticmethod
    def _suite(name, block):
        suite = Suite(name)
        for leaf in block.leaves:
            suite.add(*leaf)
        suite.missing = block.missing
        suite.failed += block.missing
        return suite


def _results_by_case(parser):
    """{"suite.case": ["ok" or "not ok", ...]} of what parser read."""
    found = {}
    for suite in parser.suites:
        for name, ok in suite.cases:
            found.setdefault(name, []).append("ok" if ok else "not ok")
    return found


def _say(results):
    return " then ".join(f"'{r}'" for r in results) if results else "no result"


def disagreements(console, channel):
    """{"suite.case": why} of each case whose results on the console (a
    KtapParser of the serial line) differ from those on the results
    channel (a KtapParser of its file): a line printed by something other
    than the runner, or a result the console lost."""
    on_console, on_channel = _results_by_case(console), _results_by_case(channel)
    found = {}
    for name in dict.fromkeys([*on_channel, *on_console]):
        said, recorded = on_console.get(name, []), on_channel.get(name, [])
        if said != recorded:
            found[name] = (f"the console says {_say(said)}, "
                           f"the results channel {_say(recorded)}")
    return found



def taken_back(channel):
    """{"suite.case": why} of each case that the results channel (a
    KtapParser of its file) records a failed expectation of but reports
    'ok': its status was changed in memory after it failed."""
    results = _results_by_case(channel)
    return {name: "an expectation failed (the results channel recorded it), "
                  "but the case ended 'ok': its status was changed after it failed"
            for name in sorted(channel.failure_records) if "ok" in results.get(name, [])}
