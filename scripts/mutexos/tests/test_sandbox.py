"""sandbox.py: what a grade's build and boot can reach, and the build
folders a grading tree starts from (labs.drop_reference_builds()).

A fixture in a temporary folder: the instructor's tree (ref/, its
reference in kernel/mutex.c and a file at its top) with the grading
tree inside it (ref/build/grade-tree/), as a grade lays them out.
"""

import json
import os
import shutil
import subprocess
import tempfile
import unittest
from unittest import mock

from mutexos import grade, labs, sandbox

from .common import ARCHES, ROOT, write

REFERENCE = "the reference\n"


def runs():
    """Why the sandbox cannot run here, or None."""
    try:
        sandbox.check()
    except sandbox.Unavailable as e:
        return str(e)
    return None


class Fixture(unittest.TestCase):
    def setUp(self):
        self.top = tempfile.mkdtemp()
        self.addCleanup(shutil.rmtree, self.top)
        self.root = os.path.join(self.top, "ref")
        self.tree = os.path.join(self.root, "build", "grade-tree")
        write(os.path.join(self.root, "kernel", "mutex.c"), REFERENCE)
        write(os.path.join(self.tree, "kernel", "mutex.c"), "the stub\n")


@unittest.skipIf(runs(), f"the sandbox does not run here: {runs()}")
class Reach(Fixture):
    """A confined tree's commands see it and the system, and nothing else."""

    def sh(self, script, writable=True, cwd=None):
        with sandbox.confined(self.tree):
            argv = sandbox.command(self.tree, ["sh", "-c", script],
                                   cwd or self.tree, writable)
        return subprocess.run(argv, capture_output=True, text=True, check=False)

    def test_the_tree_is_seen_at_its_mount(self):
        proc = self.sh("pwd; cat mutex.c", cwd=os.path.join(self.tree, "kernel"))
        self.assertEqual(proc.stdout, f"{sandbox.MOUNT}/kernel\nthe stub\n")

    def test_the_reference_is_out_of_reach(self):
        for path in ("../../kernel/mutex.c",
                     os.path.join(self.root, "kernel", "mutex.c"),
                     f"/proc/self/root{self.root}/kernel/mutex.c",
                     f"/proc/1/root{self.root}/kernel/mutex.c"):
            with self.subTest(path=path):
                proc = self.sh(f"cat {path}")
                self.assertNotIn(REFERENCE, proc.stdout)
                self.assertNotEqual(proc.returncode, 0)

    def test_the_tree_path_reads_as_the_mount(self):
        with sandbox.confined(self.tree):
            argv = sandbox.command(self.tree, ["cat", os.path.join(self.tree, "kernel",
                                                                   "mutex.c")],
                                   self.tree)
        self.assertIn(f"{sandbox.MOUNT}/kernel/mutex.c", argv)

    def test_a_path_from_outside_names_the_tree(self):
        # make check-labs boots build/labs/labN/... from the full tree.
        for path in ("build/grade-tree/kernel/mutex.c",
                     os.path.join(self.tree, "kernel", "mutex.c")):
            with self.subTest(path=path):
                proc = self.sh(f"cat {path}; echo -kernel,file={path}", cwd=self.root)
                self.assertEqual(proc.stdout, f"the stub\n-kernel,file={sandbox.MOUNT}/"
                                 "kernel/mutex.c\n", proc.stderr)

    def test_a_boot_cannot_write_the_tree(self):
        proc = self.sh("echo forged > kernel/mutex.c", writable=False)
        self.assertNotEqual(proc.returncode, 0)
        self.assertEqual(open(os.path.join(self.tree, "kernel", "mutex.c"),
                              encoding="utf-8").read(), "the stub\n")

    def test_a_boot_writes_its_results_and_nothing_else(self):
        results = os.path.join(self.tree, "build", "boot.results")
        write(results, "")
        with sandbox.confined(self.tree):
            argv = sandbox.command(self.tree, ["sh", "-c", "echo ok 1 case > "
                                               "build/boot.results; echo x > kernel/mutex.c"],
                                   self.tree, writable=False, outputs=[results])
        proc = subprocess.run(argv, capture_output=True, text=True, check=False)
        self.assertNotEqual(proc.returncode, 0)
        with open(results, encoding="utf-8") as f:
            self.assertEqual(f.read(), "ok 1 case\n")
        with open(os.path.join(self.tree, "kernel", "mutex.c"), encoding="utf-8") as f:
            self.assertEqual(f.read(), "the stub\n")

    def test_a_build_writes_the_tree(self):
        proc = self.sh("echo built > kernel/mutex.o")
        self.assertEqual(proc.returncode, 0, proc.stderr)
        self.assertTrue(os.path.isfile(os.path.join(self.tree, "kernel", "mutex.o")))

    def test_no_network(self):
        proc = self.sh("cat /proc/net/dev")
        interfaces = [line.split(":")[0].strip() for line in proc.stdout.splitlines()
                      if ":" in line]
        self.assertEqual(interfaces, ["lo"])

    def test_a_tree_not_confined_runs_as_is(self):
        self.assertEqual(sandbox.command(self.tree, ["true"], self.tree), ["true"])


class Refused(Fixture):
    """Where bwrap cannot run, no grade: 0 of the maximum, and why."""

    def test_no_bwrap_says_what_to_install(self):
        with mock.patch.object(sandbox, "BWRAP", "bwrap-not-installed"):
            with self.assertRaisesRegex(sandbox.Unavailable, "apt-get install bubblewrap"):
                sandbox.check()

    def test_a_grade_without_the_sandbox_is_refused(self):
        results = os.path.join(self.top, "results.json")
        said = []
        why = sandbox.Unavailable("bwrap does not run here: no namespaces")
        with mock.patch.object(sandbox, "check", side_effect=why), \
                mock.patch.object(grade, "build_for_grade") as built:
            code = grade.run(ROOT, ARCHES, labs.get(3), ["i386"],
                             results_path=results, say=said.append)
        self.assertEqual(code, 2)
        built.assert_not_called()
        with open(results, encoding="utf-8") as f:
            data = json.load(f)
        self.assertEqual(data["score"], 0)
        lab = labs.get(3)
        self.assertEqual(sum(t["max_score"] for t in data["tests"]),
                         sum(c.points for c in lab.checks if c.runs_on("i386")))
        self.assertTrue(all("no sandbox to grade in: bwrap does not run here" in t["output"]
                            for t in data["tests"]))


class DroppedBuilds(Fixture):
    """A build folder copied into a grading tree keeps no compiled reference."""

    def setUp(self):
        super().setUp()
        # As generate() writes them: the reference's code keeps its time,
        # a stub (kernel/mutex.c) or the same code written anew does not.
        for path in ("kernel/sched.c", "include/types.h", "kernel/rtmutex.c"):
            write(os.path.join(self.root, path), "the same\n")
        os.makedirs(os.path.join(self.tree, "include"))
        for path in ("kernel/sched.c", "include/types.h"):
            shutil.copy2(os.path.join(self.root, path), os.path.join(self.tree, path))
        write(os.path.join(self.tree, "kernel", "rtmutex.c"), "the same\n")
        os.utime(os.path.join(self.tree, "kernel", "rtmutex.c"), ns=(1, 1))
        self.folder = os.path.join(self.tree, "build", "i386-native")
        for name in ("mutex", "sched", "rtmutex"):
            write(os.path.join(self.folder, "kernel", f"{name}.o"), "object")
            write(os.path.join(self.folder, "kernel", f"{name}.d"),
                  f"build/i386-native/kernel/{name}.o: kernel/{name}.c \\\n"
                  f" include/types.h\ninclude/types.h:\n")
        for name in ("kernel.elf", ".config", "include/generated/autoconf.h",
                     "kernel/orphan.o", "precheck/probe.o"):
            write(os.path.join(self.folder, name), "x")
        labs.drop_reference_builds(self.root, self.tree, self.folder)

    def left(self):
        return sorted(os.path.relpath(os.path.join(top, name), self.folder)
                      for top, _, names in os.walk(self.folder) for name in names)

    def test_only_objects_of_unchanged_files_and_the_config_stay(self):
        self.assertEqual(self.left(), [".config", "include/generated/autoconf.h",
                                       "kernel/sched.d", "kernel/sched.o"])


if __name__ == "__main__":
    unittest.main()
