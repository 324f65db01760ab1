"""The console check's machinery, against a fake console.

The fake is a small program that behaves as the kernel's console does on
QEMU's serial line: a prompt, echo, a few commands, and "halt", which
ends it with status 7 the way semihosting passes a status on.  It also
says what the multiplexer escapes it received would have done.
"""

import os
import sys
import tempfile
import textwrap
import time
import unittest
from unittest import mock

from mutexos import console

from .common import ARCHES

ARM = ARCHES["arm"]

FAKE = textwrap.dedent(r'''
    import os, sys
    out = lambda s: (os.write(1, s.encode()), None)
    out("MutexOS on fake\nmutexos> ")
    line, escape, deaf = "", False, 0
    while True:
        data = os.read(0, 1)
        if not data:
            break
        c = data.decode("latin1")
        if escape:
            escape = False
            out({"b": "\n<break>\n", "\x01": "<ctrl-a>"}.get(c, "<?>"))
            continue
        if c == "\x01":
            escape = True
            continue
        if c == "\x15":
            line = ""
            continue
        if c != "\r":
            line += c
            out(c)
            continue
        if deaf:
            deaf -= 1
            line = ""
            continue
        out("\n")
        if line == "ps":
            out("    0 R   0 swapper/0        -\n")
        elif line == "bug":
            out("BUG: something nobody asked for\n")
        elif line == "halt":
            out("halting\n")
            sys.exit(7)
        elif line == "hang":
            while True:
                pass
        elif line == "long":
            out(("x" * 79 + "\n") * 2000)
        elif line == "uptime":
            out("up 0:00:01.000\n")
        elif line == "deaf":
            deaf = 3
        elif line:
            out(line + ": unknown command ('help' lists them)\n")
        line = ""
        out("mutexos> ")
''')


def script_ps_halt(s, arch, cpus):
    s.expect("mutexos> ", "the first prompt")
    console.run_checked(s, "ps", r"swapper/0")
    console.halt(s)


def script_wants_swapper1(s, arch, cpus):
    s.expect("mutexos> ", "the first prompt")
    console.run_checked(s, "ps", r"swapper/1", timeout=5)
    console.halt(s)


def script_escapes(s, arch, cpus):
    s.expect("mutexos> ", "the first prompt")
    s.send(b"\x01")
    s.expect("<ctrl-a>", "a typed Ctrl-A", 5)
    s.send_break()
    s.expect("<break>", "a break", 5)
    console.halt(s)


def script_bug_then_halt(s, arch, cpus):
    s.expect("mutexos> ", "the first prompt")
    s.command("bug")
    console.halt(s)


def script_hang(s, arch, cpus):
    s.expect("mutexos> ", "the first prompt")
    s.send(b"hang\r")
    s.expect("never", "a hung console", 60)


def script_long_reply(s, arch, cpus):
    s.expect("mutexos> ", "the first prompt")
    out = s.command("long")
    if out.count("x" * 79 + "\n") != 2000:
        raise console.ConsoleError("the long reply came back cut")
    console.halt(s)


def script_recover_from_deafness(s, arch, cpus):
    s.expect("mutexos> ", "the first prompt")
    s.send(b"deaf\r")
    console.recover(s, "three lost lines")
    # In step: the next command's reply is its own, not a late one.
    console.run_checked(s, "ps", r"swapper/0")
    console.halt(s)


class FakeConsole(unittest.TestCase):
    """console.run() with the fake in place of QEMU."""

    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.addCleanup(self.tmp.cleanup)
        self.fake = os.path.join(self.tmp.name, "fake.py")
        with open(self.fake, "w") as f:
            f.write(FAKE)

    def session(self, script, timeout=30):
        scripts = {"t": script}
        path = os.path.join(self.tmp.name, "session.log")
        with mock.patch.dict(console.SCRIPTS, scripts), open(path, "wb") as log:
            return console.run("fake (test)", [sys.executable, self.fake], ARM,
                               "t", 2, timeout, log)

    def test_a_session_that_halts_passes(self):
        result = self.session(script_ps_halt)
        self.assertFalse(result.failed_config, result.reasons)
        self.assertIn("result: passed (status 7)", result.report())

    def test_a_missing_line_fails_the_session_and_names_the_step(self):
        start = time.monotonic()
        result = self.session(script_wants_swapper1)
        self.assertLess(time.monotonic() - start, 20)
        self.assertTrue(result.failed_config)
        self.assertIn("'ps': no 'swapper/1'", result.reasons[0])
        # It never got to halt: that is a failure of its own.
        self.assertIn("not by its halt", result.reasons[-1])

    def test_a_long_reply_is_read_in_linear_time(self):
        # 160 KB read in chunks: a prompt pattern retried from every
        # position of the output took minutes of CPU for this.
        start = time.monotonic()
        result = self.session(script_long_reply, timeout=60)
        self.assertFalse(result.failed_config, result.reasons)
        self.assertLess(time.monotonic() - start, 15)

    def test_recover_retypes_until_a_line_is_answered(self):
        start = time.monotonic()
        result = self.session(script_recover_from_deafness, timeout=60)
        self.assertFalse(result.failed_config, result.reasons)
        # Three lines lost, two seconds each: not the ten of one retry.
        self.assertLess(time.monotonic() - start, 20)

    def test_multiplexer_escapes(self):
        result = self.session(script_escapes)
        self.assertFalse(result.failed_config, result.reasons)

    def test_an_unprovoked_report_fails(self):
        result = self.session(script_bug_then_halt)
        self.assertIn("a report nobody provoked: BUG: something nobody asked for",
                      result.reasons)

    def test_the_timeout_kills_a_hung_console(self):
        start = time.monotonic()
        result = self.session(script_hang, timeout=3)
        self.assertLess(time.monotonic() - start, 20)
        self.assertIn("QEMU was still running after 3s and was killed", result.reasons)


class Garbage(unittest.TestCase):
    """The garbage typed at the console never ends a line or starts SysRq."""

    def test_no_enter_and_no_sysrq_escape(self):
        data = console.garbage()
        self.assertGreater(len(data), 2000)
        for byte in (b"\r", b"\n", console.SYSRQ_ESCAPE):
            self.assertNotIn(byte, data)
        self.assertEqual(data, console.garbage())


if __name__ == "__main__":
    unittest.main()
