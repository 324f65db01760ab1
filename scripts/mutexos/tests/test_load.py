"""load.cpu_hogs: the hogs run during the block and are gone after it."""

import os
import unittest

from mutexos import load


def alive(pid):
    """Whether pid is a running process (not a zombie)."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().split()[2] != "Z"
    except FileNotFoundError:
        return False


class CpuHogs(unittest.TestCase):
    def test_one_per_core_during_the_block_only(self):
        with load.cpu_hogs(1) as hogs:
            self.assertEqual(len(hogs), os.cpu_count())
            self.assertTrue(all(alive(p) for p in hogs))
        self.assertFalse(any(alive(p) for p in hogs))

    def test_zero_starts_nothing(self):
        with load.cpu_hogs(0) as hogs:
            self.assertEqual(hogs, [])


if __name__ == "__main__":
    unittest.main()
