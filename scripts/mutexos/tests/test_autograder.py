"""make autograder: lab 3's Gradescope zip holds no reference of lab 3 or
a later one (labcheck.autograder_leaks()), and the check finds one put in."""

import os
import shutil
import tempfile
import unittest
import zipfile

from mutexos import labcheck, labs

from .common import ROOT

LAB = labs.get(3)


@unittest.skipUnless(os.path.exists(os.path.join(ROOT, ".git")),
                     "make autograder runs in a git checkout of the full tree")
class AutograderZip(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.mkdtemp()
        cls.zip = labs.write_autograder(ROOT, LAB.number,
                                        os.path.join(cls.tmp, "lab3.zip"))

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.tmp)

    def test_no_reference_of_the_lab_or_a_later_one(self):
        self.assertEqual(labcheck.autograder_leaks(ROOT, LAB, self.zip), [])

    def test_what_gradescope_runs_is_on_top(self):
        with zipfile.ZipFile(self.zip) as z:
            names = set(z.namelist())
            run = z.read("run_autograder").decode()
        self.assertLessEqual({"setup.sh", "run_autograder", labs.AUTOGRADER_FILE,
                              "scripts/run_autograder", "kernel/locking/mutex.c"}, names)
        self.assertIn("scripts/run_autograder 3\n", run)
        self.assertFalse(any(n.startswith("docs/labs/solutions/") or
                             n == labs.INSTRUCTOR_PAGE for n in names))

    def test_a_reference_put_in_is_found(self):
        leaky = os.path.join(self.tmp, "leaky.zip")
        shutil.copyfile(self.zip, leaky)
        with zipfile.ZipFile(leaky, "a") as z:
            z.write(os.path.join(ROOT, "kernel", "locking", "rtmutex.c"), "notes/later.c")
        leaks = labcheck.autograder_leaks(ROOT, LAB, leaky)
        self.assertTrue(leaks)
        self.assertTrue(all(line.startswith("notes/later.c holds lab ") for line in leaks),
                        leaks)


if __name__ == "__main__":
    unittest.main()
