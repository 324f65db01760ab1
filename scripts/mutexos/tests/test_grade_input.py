"""The grader against bad input: trees that do not build, broken LAB files,
submissions that lead out of themselves; each graded 0 or noted, never a
traceback, never a stale results.json."""

import argparse
import contextlib
import io
import json
import os
import tempfile
import unittest
from unittest import mock

from mutexos import __main__ as main
from mutexos import answers, build, grade, labs

from .common import ARCHES, ROOT

# The linker's lines as the grading tree's build printed them (the tree
# at /g/full, its grading tree at /g/full/build/grade-tree).
UNDEFINED = """\
  CC      kernel/locking/mutex.c
i686-linux-gnu-ld: build/i386-native/kernel/locking/mutex.o: in function `queue_waiter':
/g/full/build/grade-tree/kernel/locking/mutex.c:74: undefined reference to `add_fifo'
i686-linux-gnu-ld: /g/full/build/grade-tree/kernel/locking/mutex.c:74: undefined reference to `add_fifo'
make: *** [Makefile:235: build/i386-native/kernel.elf] Error 1
"""
MULTIPLE = """\
  CC      tests/rwsem_student_test.c
i686-linux-gnu-ld: build/i386-native/kernel/locking/mutex.o: in function `printk_bust_locks':
/g/full/build/grade-tree/kernel/locking/mutex.c:285: multiple definition of \
`printk_bust_locks'; build/i386-native/kernel/printk.o:/g/full/kernel/printk.c:51: \
first defined here
make: *** [Makefile:235: build/i386-native/kernel.elf] Error 1
"""
ASSEMBLER = """\
  CC      kernel/locking/mutex.c
/tmp/ccQ2xk.s: Assembler messages:
/tmp/ccQ2xk.s:880: Error: `xaddq' is only supported in 64-bit mode
make: *** [Makefile:201: build/i386-native/kernel/locking/mutex.o] Error 1
"""
TREES = ("/g/full/build/grade-tree", "/g/full")


def first_error(text):
    with tempfile.NamedTemporaryFile("w", suffix=".log") as f:
        f.write(text)
        f.flush()
        return grade.first_error(f.name, TREES)


class BuildErrors(unittest.TestCase):
    """A tree that does not build or link: the tool's own first error."""

    def test_the_linkers_error_not_makes(self):
        self.assertEqual(first_error(UNDEFINED),
                         "kernel/locking/mutex.c:74: undefined reference to `add_fifo'")
        self.assertEqual(first_error(MULTIPLE),
                         "kernel/locking/mutex.c:285: multiple definition of "
                         "`printk_bust_locks'; build/i386-native/kernel/printk.o:"
                         "kernel/printk.c:51: first defined here")

    def test_the_assemblers_error(self):
        self.assertEqual(first_error(ASSEMBLER), "/tmp/ccQ2xk.s:880: Error: `xaddq' "
                         "is only supported in 64-bit mode")

    def test_makes_line_when_no_tool_said_anything(self):
        text = "make: *** No rule to make target 'x.c'.  Stop.\n"
        self.assertEqual(first_error("  CC      x.c\n" + text), text.strip())
        self.assertIsNone(first_error("  CC      x.c\n"))

    def test_a_link_error_grades_zero_with_the_linkers_line(self):
        lab = labs.get(3)

        def fails(root, cfg, jobs=None, log=None, timeout=None):
            log.write(MULTIPLE.encode())
            return "make all (i386 native) exited with 2"
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, "results.json")
            with mock.patch.object(build, "builddir", return_value="build/i386-native"), \
                    mock.patch.object(build, "build", side_effect=fails), \
                    mock.patch("builtins.print") as said:
                code = grade.run(tmp, ARCHES, lab, ["i386"], results_path=path,
                                 student=False)
            with open(path) as f:
                data = json.load(f)
        printed = "\n".join(c.args[0] for c in said.call_args_list)
        self.assertEqual(code, 2)
        self.assertEqual(data["score"], 0)
        self.assertEqual(sum(t["max_score"] for t in data["tests"]), 20)
        self.assertIn("multiple definition of `printk_bust_locks'", data["tests"][0]["output"])
        self.assertNotIn("make: ***", printed)
        self.assertIn("Score: 0/20", printed)


class StaleResults(unittest.TestCase):
    """No grade leaves an earlier grade's results.json behind."""

    def test_a_grade_that_breaks_leaves_no_results(self):
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, "results.json")
            with open(path, "w", encoding="utf-8") as f:
                json.dump({"score": 77, "tests": []}, f)
            with mock.patch.object(grade, "grade_arch", side_effect=RuntimeError("boom")), \
                    self.assertRaises(RuntimeError):
                grade.run(tmp, ARCHES, labs.get(3), ["i386"], results_path=path,
                          student=False)
            self.assertFalse(os.path.lexists(path))


def fake_grading(test, grade_arch=None):
    """A temporary folder for test with the grading tree in it, no build
    folder copied there, and grade_arch faked if given; the folder."""
    tmp = tempfile.TemporaryDirectory()
    test.addCleanup(tmp.cleanup)
    patches = [mock.patch.object(grade, "GRADING_TREE", os.path.join(tmp.name, "grade-tree")),
               mock.patch.object(labs, "copy_build_folder")]
    if grade_arch:
        patches.append(mock.patch.object(grade, "grade_arch", side_effect=grade_arch))
        # Nothing is built: the check before running finds nothing.
        patches.append(mock.patch.object(grade, "check_before_running", return_value=[]))
    for patch in patches:
        patch.start()
        test.addCleanup(patch.stop)
    return tmp.name


class Submission(unittest.TestCase):
    """A submission graded from the full tree, in a folder of its own."""

    def setUp(self):
        self.tmp = fake_grading(self)
        self.sub = os.path.join(self.tmp, "sub")
        os.mkdir(self.sub)
        self.results = os.path.join(self.tmp, "results.json")

    def write(self, path, data):
        path = os.path.join(self.sub, path)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "wb") as f:
            f.write(data)


class LabFileNotes(Submission):
    """The submission's LAB file, whatever it holds, gives only a note."""

    def grade(self, graded):
        """(exit code, the lines said) of a grade of the submission as lab 3;
        graded: the exit code of the grade of its files, which is faked."""
        said = []
        with mock.patch.object(labs, "grading_tree", return_value=[]), \
                mock.patch.object(grade, "run", return_value=graded):
            code = grade.run_submission(ROOT, ARCHES, labs.get(3), self.sub,
                                        results_path=self.results, say=said.append)
        return code, said

    def test_a_lab_file_that_names_no_lab_is_a_note(self):
        for data, what in ((b"xyz\n", "LAB says 'xyz', which names no lab"),
                           (b"", "LAB is empty"), (b"\xff\xfe\x00", "LAB is not text"),
                           (b"4\n", "the submission says it is lab 4"),
                           (None, "the submission has no LAB file")):
            with self.subTest(data=data):
                if data is None:
                    os.remove(os.path.join(self.sub, "LAB"))
                else:
                    self.write("LAB", data)
                code, said = self.grade(1)
                self.assertEqual(code, 1)
                notes = [line for line in said if what in line]
                self.assertEqual(len(notes), 1, said)
                self.assertTrue(notes[0].endswith("; graded as lab 3"), notes[0])

    def test_a_lab_file_that_names_the_lab_says_nothing(self):
        self.write("LAB", b"3\n")
        _, said = self.grade(0)
        self.assertEqual([line for line in said if "LAB" in line], [])

    def test_a_lab_file_out_of_the_submission_is_not_read(self):
        os.symlink("/etc/passwd", os.path.join(self.sub, "LAB"))
        _, said = self.grade(1)
        self.assertIn("grade: LAB leads out of the submission, to /etc/passwd "
                      "(a symbolic link): hand in the file itself; graded as lab 3", said)
        self.assertNotIn("root:", "\n".join(said))


class Refused(Submission):
    """Files grading will not take: the grade is 0 of the lab's maximum."""

    MUTEX = "kernel/locking/mutex.c"

    def setUp(self):
        super().setUp()
        self.write("LAB", b"3\n")
        self.write(self.MUTEX, b"/* mine */\n")
        self.write("answers.md", b"# answers\n")
        # An earlier grade's full marks, which must not outlive this one.
        with open(self.results, "w", encoding="utf-8") as f:
            json.dump({"score": 77, "tests": []}, f)

    def refused(self):
        """(the grade's lines, results.json) of a grade that must not build."""
        said = []
        with mock.patch.object(labs, "generate", side_effect=AssertionError("graded")):
            code = grade.run_submission(ROOT, ARCHES, labs.get(3), self.sub,
                                        results_path=self.results, say=said.append)
        self.assertEqual(code, 2)
        with open(self.results, encoding="utf-8") as f:
            data = json.load(f)
        self.assertEqual(data["score"], 0)
        self.assertEqual(sum(t["max_score"] for t in data["tests"]), 77)
        self.assertIn("Score: 0/77", said)
        return "\n".join(said), data

    def link(self, path, target):
        os.remove(os.path.join(self.sub, path))
        os.symlink(target, os.path.join(self.sub, path))

    def test_a_symlink_farm_is_refused(self):
        self.link(self.MUTEX, os.path.join(ROOT, self.MUTEX))
        self.link("answers.md", "/etc/passwd")
        said, data = self.refused()
        self.assertIn(f"{self.MUTEX} leads out of the submission, to "
                      f"{os.path.join(ROOT, self.MUTEX)} (a symbolic link)", said)
        self.assertIn("answers.md leads out of the submission, to /etc/passwd", said)
        self.assertIn("answers.md leads out", data["tests"][0]["output"])
        self.assertNotIn("root:", said)

    def test_a_folder_linked_out_of_the_submission_is_refused(self):
        os.remove(os.path.join(self.sub, self.MUTEX))
        os.rmdir(os.path.join(self.sub, "kernel/locking"))
        os.rmdir(os.path.join(self.sub, "kernel"))
        os.symlink(os.path.join(ROOT, "kernel"), os.path.join(self.sub, "kernel"))
        said, _ = self.refused()
        self.assertIn(f"{self.MUTEX} leads out of the submission", said)

    def test_a_link_inside_the_submission_is_followed(self):
        self.write("mine.c", b"/* mine, elsewhere */\n")
        self.link(self.MUTEX, "../../mine.c")
        self.assertEqual(labs.submitted_path(self.sub, self.MUTEX),
                         os.path.join(os.path.realpath(self.sub), "mine.c"))

    def test_a_file_over_1_mb_is_refused(self):
        self.write("answers.md", b"x" * (labs.SUBMITTED_MAX + 1))
        said, _ = self.refused()
        self.assertIn("answers.md is 1048577 bytes, over the 1 MB", said)

    def test_a_pipe_is_refused_not_waited_on(self):
        os.remove(os.path.join(self.sub, "answers.md"))
        os.mkfifo(os.path.join(self.sub, "answers.md"))
        said, _ = self.refused()
        self.assertIn("answers.md is not a file", said)

    def test_results_json_a_link_is_replaced_not_written_through(self):
        victim = os.path.join(self.tmp, "victim")
        with open(victim, "w", encoding="utf-8") as f:
            f.write("keep")
        os.remove(self.results)
        os.symlink(victim, self.results)
        self.link("answers.md", "/etc/passwd")
        self.refused()
        self.assertFalse(os.path.islink(self.results))
        with open(victim, encoding="utf-8") as f:
            self.assertEqual(f.read(), "keep")


class BinaryFiles(unittest.TestCase):
    """Files that are not UTF-8 are graded, never a UnicodeDecodeError."""

    def test_lab_8s_answers(self):
        with tempfile.TemporaryDirectory() as tmp:
            for name, data in (("LAB", b"8\n"), ("answers.md", b"| vfs \xff |\n"),
                               ("bench.log", b"bench: end status=0\n")):
                with open(os.path.join(tmp, name), "wb") as f:
                    f.write(data)
            ok, _ = answers.judge(tmp)
        self.assertFalse(ok)

    def test_lab_9s_file_put_back_as_it_was(self):
        lab = labs.get(9)
        data = b"/* \xe9t\xe9 */\nint x;\n"
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, lab.planted[0])
            os.makedirs(os.path.dirname(path))
            with open(path, "wb") as f:
                f.write(data)
            planted = [c for c in lab.checks if c.kind == "planted"]
            with mock.patch.object(grade, "run_planted", return_value=(True, "ok", None, [])):
                grade.grade_planted(tmp, ARCHES["i386"], lab, None, planted, "tcg", 5,
                                    print)
            with open(path, "rb") as f:
                self.assertEqual(f.read(), data)


def write_submission(sub, lab_file=b"3\n", mutex=b"/* mine */\n"):
    """A lab 3 submission at sub: its LAB file, mutex.c and answers; sub."""
    for path, data in (("LAB", lab_file), (Refused.MUTEX, mutex),
                       ("answers.md", b"# answers\n")):
        os.makedirs(os.path.dirname(os.path.join(sub, path)), exist_ok=True)
        with open(os.path.join(sub, path), "wb") as f:
            f.write(data)
    return sub


def grade_args(**given):
    """The options of python3 -m mutexos grade (or grade-all) with given."""
    opts = dict(lab=None, arch=None, tree=None, results="results.json",
                accel="tcg", submissions=None)
    opts.update(given)
    return argparse.Namespace(**opts)


class GradeCommand(unittest.TestCase):
    """make grade stopped before grading: a message, results.json with 0."""

    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.addCleanup(self.tmp.cleanup)
        self.results = os.path.join(self.tmp.name, "results.json")
        with open(self.results, "w", encoding="utf-8") as f:
            json.dump({"score": 77, "tests": []}, f)
        start = mock.patch.object(main, "START", self.tmp.name)
        start.start()
        self.addCleanup(start.stop)
        self.addCleanup(os.chdir, os.getcwd())

    def grade(self, where, **given):
        """(exit code, what it printed, results.json) of make grade in where."""
        os.chdir(where)
        out = io.StringIO()
        with contextlib.redirect_stderr(out), contextlib.redirect_stdout(out):
            code = main.cmd_grade(None, ARCHES, grade_args(**given))
        with open(self.results, encoding="utf-8") as f:
            return code, out.getvalue(), json.load(f)

    def test_a_student_tree_with_a_bad_lab_file(self):
        with open(os.path.join(self.tmp.name, "LAB"), "wb") as f:
            f.write(b"\xff\xfe")
        code, said, data = self.grade(self.tmp.name)
        self.assertEqual(code, 2)
        self.assertIn("LAB is not text: it holds the lab's number; "
                      "'git checkout LAB' puts it back", said)
        self.assertNotIn("Traceback", said)
        self.assertEqual((data["score"], data["tests"]), (0, []))
        self.assertIn("'git checkout LAB' puts it back", data["output"])
        # LAB= names the lab: its maximum, the student tree's checks.
        code, _, data = self.grade(self.tmp.name, lab="3")
        self.assertEqual(sum(t["max_score"] for t in data["tests"]), 77)
        self.assertEqual(data["score"], 0)

    def test_a_submission_whose_lab_file_names_no_lab_and_no_lab_given(self):
        sub = os.path.join(self.tmp.name, "sub")
        os.mkdir(sub)
        with open(os.path.join(sub, "LAB"), "w", encoding="utf-8") as f:
            f.write("xyz\n")
        code, said, data = self.grade(ROOT, tree=sub)
        self.assertEqual(code, 2)
        self.assertIn("LAB=n: which lab to grade", said)
        self.assertIn("says 'xyz', which names no lab", said)
        self.assertEqual((data["score"], data["tests"]), (0, []))


class GradeAll(unittest.TestCase):
    """make grade-all: each submission graded or refused, and the next one
    graded after it whatever happened."""

    def setUp(self):
        self.tmp = fake_grading(self, self.judged)
        self.subs = os.path.join(self.tmp, "subs")
        self.addCleanup(os.chdir, os.getcwd())
        os.chdir(ROOT)

    @staticmethod
    def judged(root, arch, lab, checks, accel, case_timeout, say):
        """grade_arch without building: a mutex.c that says so does not build."""
        with open(os.path.join(root, Refused.MUTEX), encoding="utf-8") as f:
            if "does not build" in f.read():
                return grade.BuildError(build.BuildConfig(arch.name, "native"),
                                        "mutex.c:1: error: no", "l")
        return [grade.Outcome(c, arch.name, True, "ok") for c in checks
                if c.runs_on(arch.name)]

    def submission(self, name, lab_file=b"3\n", mutex=b"/* mine */\n"):
        return write_submission(os.path.join(self.subs, name), lab_file, mutex)

    def test_every_submission_graded_whatever_the_one_before(self):
        self.submission("a-binary-lab", lab_file=b"\xff\xfe\x00")
        farm = self.submission("b-farm")
        os.remove(os.path.join(farm, Refused.MUTEX))
        os.symlink(os.path.join(ROOT, Refused.MUTEX), os.path.join(farm, Refused.MUTEX))
        with open(os.path.join(farm, "results.json"), "w", encoding="utf-8") as f:
            json.dump({"score": 77, "tests": []}, f)
        victim = os.path.join(self.tmp, "victim")
        with open(victim, "w", encoding="utf-8") as f:
            f.write("keep")
        os.symlink(victim, os.path.join(farm, "grade.txt"))
        self.submission("c-no-build", mutex=b"/* does not build */\n")
        self.submission("d-junk-lab", lab_file=b"xyz\n")
        elsewhere = self.submission("../elsewhere")
        os.symlink(elsewhere, os.path.join(self.subs, "e-link"))
        out = io.StringIO()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(out):
            code = main.cmd_grade_all(None, ARCHES, grade_args(
                lab="3", submissions=self.subs, arch=["i386"]))
        said = out.getvalue()
        self.assertEqual(code, 2)
        self.assertNotIn("Traceback", said)
        for line in ("a-binary-lab: Score: 20/20", "b-farm: Score: 0/20 (nothing graded",
                     "c-no-build: Score: 0/20 (nothing graded", "d-junk-lab: Score: 20/20",
                     "e-link: not graded"):
            self.assertIn(line, said)
        with open(victim, encoding="utf-8") as f:
            self.assertEqual(f.read(), "keep")
        with open(os.path.join(farm, "grade.txt"), encoding="utf-8") as f:
            self.assertIn("leads out of the submission", f.read())
        with open(os.path.join(self.subs, "a-binary-lab", "grade.txt"), encoding="utf-8") as f:
            self.assertIn("LAB is not text", f.read())
        # A folder that is a link is not graded, nor written into.
        self.assertEqual(sorted(os.listdir(elsewhere)), ["LAB", "answers.md", "kernel"])


class StudentLogs(unittest.TestCase):
    """A submission's logs: in its own folder and results.json, never cited
    in the instructor's tree."""

    PANIC = "Kernel panic - not syncing: BUG in mutex_unlock"

    def setUp(self):
        self.tmp = fake_grading(self, self.panicked)
        self.sub = write_submission(os.path.join(self.tmp, "sub"))
        self.results = os.path.join(self.sub, "results.json")

    def panicked(self, root, arch, lab, checks, accel, case_timeout, say):
        """grade_arch as a boot that panicked would end."""
        log = os.path.join(root, "build", "i386-native", "lab3-grade.log")
        os.makedirs(os.path.dirname(log))
        with open(log, "w", encoding="utf-8") as f:
            f.write(f"    ok 1 api_contract\n{self.PANIC}\nrunner: lab3-grade took 3.0 s\n")
        elf = os.path.join(root, "build", "i386-native", "kernel.elf")
        return [grade.Outcome(c, arch.name, False, f"boom (log: {log}) (objdump -d {elf})",
                              log) for c in checks if c.runs_on(arch.name)]

    def test_the_logs_cited_are_the_students(self):
        with mock.patch("builtins.print"):
            code = grade.run_submission(ROOT, ARCHES, labs.get(3), self.sub, ["i386"],
                                        results_path=self.results)
        self.assertEqual(code, 1)
        with open(self.results, encoding="utf-8") as f:
            data = json.load(f)
        self.assertEqual(data["tests"][0]["output"],
                         "boom (log: grade-logs/i386-native-lab3-grade.log) "
                         "(objdump -d build/i386-native/kernel.elf)")
        self.assertNotIn("grade-tree", json.dumps(data))
        self.assertTrue(os.path.isfile(os.path.join(
            self.sub, "grade-logs", "i386-native-lab3-grade.log")))
        # What the log says, for a student who gets only results.json.
        self.assertIn("== the end of grade-logs/i386-native-lab3-grade.log ==\n"
                      f"    ok 1 api_contract\n{self.PANIC}\n", data["output"])
        self.assertNotIn("runner:", data["output"])

    def test_a_refused_grade_leaves_no_earlier_logs(self):
        old = os.path.join(self.sub, "grade-logs", "i386-native-lab3-grade.log")
        os.makedirs(os.path.dirname(old))
        with open(old, "w", encoding="utf-8") as f:
            f.write("an earlier grade's\n")
        os.remove(os.path.join(self.sub, Refused.MUTEX))
        os.mkfifo(os.path.join(self.sub, Refused.MUTEX))
        with mock.patch("builtins.print"):
            code = grade.run_submission(ROOT, ARCHES, labs.get(3), self.sub, ["i386"],
                                        results_path=self.results)
        self.assertEqual(code, 2)
        self.assertFalse(os.path.exists(os.path.join(self.sub, "grade-logs")))


if __name__ == "__main__":
    unittest.main()
