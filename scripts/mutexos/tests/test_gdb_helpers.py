"""The gdb helpers' gdb-free part (scripts/gdb/mx_logic.py)."""

import os
import sys
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__)))), "gdb"))
import mx_logic  # noqa: E402


class TestRing(unittest.TestCase):
    def test_not_wrapped(self):
        buf = b"abc" + b"\0" * 5
        self.assertEqual(mx_logic.ring_order(buf, 3), b"abc")

    def test_exactly_full(self):
        self.assertEqual(mx_logic.ring_order(b"abcd", 4), b"abcd")

    def test_wrapped_oldest_first(self):
        # 10 bytes "0123456789" logged into a ring of 4: it holds 6789,
        # written as 89 at 0..1 (positions 8, 9) and 67 at 2..3.
        self.assertEqual(mx_logic.ring_order(b"8967", 10), b"6789")


class TestTasks(unittest.TestCase):
    def test_state_letters(self):
        self.assertEqual([mx_logic.state_letter(s) for s in (0, 1, 2, 4, 16, 32)],
                         list("RSDTZX"))
        self.assertEqual(mx_logic.state_letter(3), "?")

    def test_thread_info_of(self):
        self.assertEqual(mx_logic.thread_info_of(0x16bf58, 8192), 0x16a000)
        self.assertEqual(mx_logic.thread_info_of(0x16a000, 8192), 0x16a000)

    def test_ps_table(self):
        lines = mx_logic.ps_table([(4, 2, 1, False, "demo-A", "demo.B (0x10)"),
                                   (0, 0, 1, True, "swapper/1", None)], debug=True)
        self.assertEqual(lines[1], "    4 D   - demo-A           demo.B (0x10)")
        self.assertEqual(lines[2], "    0 R   1 swapper/1        -")
        self.assertEqual(len(lines), 3)
        plain = mx_logic.ps_table([], debug=False)
        self.assertIn("MUTEX=debug", plain[-1])

    def test_mutex_summary(self):
        self.assertEqual(mx_logic.mutex_summary(1), "count = 1 (unlocked)")
        self.assertEqual(mx_logic.mutex_summary(0, "a/3", 0, "m"),
                         "'m' count = 0 (locked), owner a/3")
        self.assertEqual(mx_logic.mutex_summary(-1, None, 2),
                         "count = -1 (locked, waiters), 2 waiters")
        self.assertEqual(mx_logic.mutex_summary(2), "count = 2 (bad count)")


if __name__ == "__main__":
    unittest.main()
