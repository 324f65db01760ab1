"""load.cpu_hogs: the hogs run during the block and are gone after it."""

import os
import unittest

from mutexos import load


def is_hog(pid):
    """Whether pid runs load.HOG."""
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as f:
            return f.read().split(b"\0")[:3] == [a.encode() for a in load.HOG]
    except (FileNotFoundError, ProcessLookupError):
        return False


def alive(pid):
    """Whether pid is a running process (not a zombie)."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().split()[2] != "Z"
    except FileNotFoundError:
        return False


class CpuHogs(unittest.TestCase):
    def test_one_per_core_during_the_block_only(self):
        before = set(os.listdir("/proc"))
        with load.cpu_hogs(1) as count:
            self.assertEqual(count, os.cpu_count())
            hogs = [int(p) for p in set(os.listdir("/proc")) - before if p.isdigit()]
            hogs = [p for p in hogs if is_hog(p) and alive(p)]
            self.assertGreaterEqual(len(hogs), count)
        self.assertFalse(any(alive(p) for p in hogs))

    def test_zero_starts_nothing(self):
        with load.cpu_hogs(0) as count:
            self.assertEqual(count, 0)


if __name__ == "__main__":
    unittest.main()
