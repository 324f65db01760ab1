"""Two runs at once never write the same log."""

import os
import tempfile
import unittest

from mutexos.logs import open_log


class LogNames(unittest.TestCase):
    """<name>.log, else <name>.2.log, <name>.3.log while others hold them."""

    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.addCleanup(self.tmp.cleanup)

    def path(self, name):
        return os.path.join(self.tmp.name, name)

    def test_first_run_gets_the_plain_name(self):
        log, path = open_log(self.tmp.name, "i386-native-cpus1")
        with log:
            self.assertEqual(path, self.path("i386-native-cpus1.log"))
            # Reports print log.name as the path of the log.
            self.assertEqual(log.name, path)

    def test_held_logs_are_skipped_and_left_alone(self):
        first, first_path = open_log(self.tmp.name, "a")
        first.write(b"first run")
        first.flush()
        second, second_path = open_log(self.tmp.name, "a")
        third, third_path = open_log(self.tmp.name, "a")
        self.assertEqual([first_path, second_path, third_path],
                         [self.path("a.log"), self.path("a.2.log"), self.path("a.3.log")])
        with open(first_path, "rb") as f:
            self.assertEqual(f.read(), b"first run")
        for log in (first, second, third):
            log.close()

    def test_released_log_is_reused_and_emptied(self):
        log, _ = open_log(self.tmp.name, "a")
        with log:
            log.write(b"old")
        again, path = open_log(self.tmp.name, "a")
        with again:
            self.assertEqual(path, self.path("a.log"))
            self.assertEqual(os.path.getsize(path), 0)

    def test_folder_is_made(self):
        log, path = open_log(self.path("build/x"), "b")
        with log:
            self.assertTrue(os.path.isfile(path))


if __name__ == "__main__":
    unittest.main()
