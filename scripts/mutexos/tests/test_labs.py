"""The labs: region markers, the student trees, the grader's judgements."""

import json
import os
import re
import shutil
import subprocess
import tempfile
import unittest
from unittest import mock

from mutexos import answers, build, grade, labcheck, labmarks, labs
from mutexos.labs import Check, Lab

from .common import NOT_OK_LOG, OK_LOG, ROOT, judge_text

SOURCE = """\
int f(int x)
{
	/* LAB 2 BEGIN: doubling */
	return 2 * x;
	/* LAB 2 STUB: Return twice x.
	 * Mind the overflow.
	 *|	return x;
	 * LAB 2 END */
}
#define M(x) ({ \\
	/* LAB 3 BEGIN: the macro */ \\
	(x) + 1; \\
	/* LAB 3 STUB: Add one. \\
	 *|	(x); \\
	 * LAB 3 END */ \\
})
"""


class Markers(unittest.TestCase):
    """labmarks: each lab's view of a marked file."""

    def test_earlier_lab_gets_later_stubs_never_their_reference(self):
        out = labmarks.render(SOURCE, 1)
        self.assertIn("{\n\t/* LAB 2: doubling (a later lab) */\n\treturn x;\n}", out)
        self.assertIn("\t/* LAB 3: the macro (a later lab) */ \\\n\t(x); \\\n})", out)
        for reference in ("2 * x", "(x) + 1", "BEGIN", "Mind the overflow"):
            self.assertNotIn(reference, out)

    def test_the_lab_gets_the_stub_and_its_hint(self):
        out = labmarks.render(SOURCE, 2)
        self.assertIn("\t/* LAB 2 TODO: doubling.\n\t * Return twice x.\n"
                      "\t * Mind the overflow.\n\t */\n\treturn x;\n}", out)
        self.assertNotIn("2 * x", out)
        self.assertIn("LAB 3: the macro (a later lab)", out)

    def test_later_lab_gets_the_reference_without_markers(self):
        out = labmarks.render(SOURCE, 3)
        self.assertIn("{\n\treturn 2 * x;\n}", out)
        self.assertNotIn("LAB 2", out)

    def test_a_macro_stub_keeps_its_backslashes(self):
        out = labmarks.render(SOURCE, 3)
        self.assertIn("\t/* LAB 3 TODO: the macro. Add one. */ \\\n\t(x); \\\n})", out)
        self.assertNotIn("(x) + 1", out)

    def test_labs_in(self):
        self.assertEqual(labmarks.labs_in(SOURCE), {2: ["doubling"], 3: ["the macro"]})

    def test_bad_markers_are_errors(self):
        for text, what in (
                ("/* LAB 1 BEGIN: x */\ncode;\n/* LAB 1 BEGIN: y */\n", "has no STUB"),
                ("/* LAB 1 BEGIN: x */\n/* LAB 1 STUB: h\n * more", "never ends"),
                ("/* LAB 1 BEGIN: x */\n/* LAB 2 STUB: h\n * LAB 2 END */\n", "inside the LAB 1"),
                ("code; /* LAB 1 END */\n", "outside a region"),
                ("/* LAB 1 BEGIN: x */\n/* LAB 1 STUB: h\nbare line\n * LAB 1 END */\n",
                 "neither")):
            with self.subTest(text=text):
                with self.assertRaisesRegex(labmarks.MarkError, what):
                    labmarks.parse(text, "f.c")

    def test_every_lab_with_code_has_regions_in_the_tree(self):
        found = labs.regions(ROOT)
        for number in range(8):
            self.assertIn(number, found, f"lab {number} has no region")
        self.assertNotIn(8, found)      # lab 8 measures, it writes no code


class Generator(unittest.TestCase):
    """make lab: the tree it writes, and what it refuses."""

    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory()
        cls.tree = labs.generate(ROOT, 3, os.path.join(cls.tmp.name, "lab3"))

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def read(self, path):
        with open(os.path.join(self.tree, path), encoding="utf-8") as f:
            return f.read()

    def test_the_tree_knows_its_lab(self):
        self.assertEqual(self.read("LAB"), "3\n")
        self.assertEqual(labs.student_lab(self.tree).number, 3)

    def test_regions_rewritten(self):
        mutex = self.read("kernel/locking/mutex.c")
        self.assertIn("LAB 3 TODO", mutex)
        self.assertNotIn("LAB 3 BEGIN", mutex)
        self.assertIn("LAB 4: trylock's return convention (a later lab)", mutex)
        self.assertIn("taken = !__mutex_fastpath_trylock", mutex)  # its stub
        wait = self.read("include/wait.h")      # an earlier lab, solved
        self.assertNotIn("LAB 2", wait)
        self.assertIn("prepare_to_wait(&(wq), &__w, state);", wait)

    def test_instructor_files_left_out(self):
        self.assertFalse(os.path.exists(os.path.join(self.tree, "tests/wait_window_test.c")))
        self.assertFalse(os.path.exists(os.path.join(self.tree, "docs/labs/instructor.md")))
        self.assertFalse(os.path.exists(os.path.join(self.tree, "docs/labs/solutions")))
        self.assertTrue(os.path.exists(os.path.join(self.tree, "docs/labs/lab3.md")))

    def test_answers_template_and_git(self):
        self.assertIn("## Questions", self.read("answers.md"))
        log = subprocess.run(["git", "log", "--oneline"], cwd=self.tree,
                             capture_output=True, text=True, check=True).stdout
        self.assertEqual(len(log.splitlines()), 1)

    def test_what_grading_writes_is_never_committed(self):
        for tree in (self.tree, ROOT):
            with self.subTest(tree=tree):
                ignored = subprocess.run(
                    ["git", "check-ignore", "results.json", "grade-logs/x.log"],
                    cwd=tree, capture_output=True, text=True, check=False).stdout
                self.assertEqual(ignored.split(), ["results.json", "grade-logs/x.log"])

    def test_student_tree_cannot_make_labs(self):
        with self.assertRaisesRegex(labs.LabError, "full tree"):
            labs.generate(self.tree, 4, os.path.join(self.tmp.name, "x"))

    def test_unknown_lab(self):
        for bad in (str(max(labs.LABS) + 1), "x", "-1"):
            with self.assertRaisesRegex(labs.LabError, "no such lab"):
                labs.get(bad)

    def test_grading_takes_only_the_lab_files(self):
        sub = os.path.join(self.tmp.name, "submission")
        subprocess.run(["cp", "-a", self.tree, sub], check=True)
        for path, text in (("kernel/locking/mutex.c", "/* mine */\n"),
                           ("tests/mutex_test.c", "/* forged */\n"),
                           ("Makefile", "grade:\n\t@echo Score: 13/13\n")):
            with open(os.path.join(sub, path), "a", encoding="utf-8") as f:
                f.write(text)
        os.remove(os.path.join(sub, "answers.md"))
        dest = os.path.join(self.tmp.name, "graded")
        notes = labs.grading_tree(ROOT, sub, labs.get(3), dest)
        self.assertEqual(notes, ["answers.md: not a file in the submission; "
                                 "graded as handed out"])
        with open(os.path.join(dest, "kernel/locking/mutex.c"), encoding="utf-8") as f:
            self.assertTrue(f.read().endswith("/* mine */\n"))
        for path in ("tests/mutex_test.c", "Makefile"):
            with open(os.path.join(dest, path), encoding="utf-8") as f, \
                    open(os.path.join(ROOT, path), encoding="utf-8") as g:
                self.assertEqual(f.read(), g.read(), path)
        self.assertTrue(os.path.exists(os.path.join(dest, "tests/wait_window_test.c")))

    def test_non_empty_dest_is_left_alone(self):
        dest = os.path.join(self.tmp.name, "full")
        os.mkdir(dest)
        with open(os.path.join(dest, "mine"), "w") as f:
            f.write("keep")
        with self.assertRaisesRegex(labs.LabError, "not an empty folder"):
            labs.generate(ROOT, 1, dest)
        self.assertEqual(os.listdir(dest), ["mine"])
        self.assertEqual([n for n in os.listdir(self.tmp.name) if n.startswith(".lab-")], [])


class Bank(unittest.TestCase):
    """The known-wrong solutions against today's tree."""

    def test_every_entry_applies_without_fuzz(self):
        # make test grades only the forges: a wrong solution whose context
        # moved would otherwise be found by make check-labs alone. Each
        # lab's reference files are copied once; the patches are tried
        # on them as write_submission() applies them.
        failed, trees = [], {}
        with tempfile.TemporaryDirectory() as tmp:
            for name, patch in labcheck.bank_entries(ROOT):
                number = name.split("-")[0][len("lab"):]
                if patch is None:
                    continue
                if number not in trees:
                    trees[number] = os.path.join(tmp, number)
                    for path, src in labcheck.reference_files(
                            ROOT, labs.get(number)).items():
                        os.makedirs(os.path.join(trees[number],
                                                 os.path.dirname(path)), exist_ok=True)
                        shutil.copy2(os.path.join(ROOT, src),
                                     os.path.join(trees[number], path))
                proc = subprocess.run(["patch", "-p1", "-s", "--fuzz=0", "--dry-run",
                                       "-d", trees[number], "-i", patch],
                                      capture_output=True, text=True, check=False)
                if proc.returncode:
                    failed.append(f"{name}: {proc.stdout.strip()}")
        self.assertEqual(failed, [])


class StudentRepo(unittest.TestCase):
    """make student-repo: a branch per lab, and the check that no branch
    holds an answer (labcheck.answers_on_branch)."""

    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory()
        cls.repo = labs.student_repo(ROOT, os.path.join(cls.tmp.name, "repo"))
        cls.refs = labcheck.references(ROOT)

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def git(self, *args):
        return subprocess.run(["git", *args], cwd=self.repo, check=True,
                              capture_output=True, text=True).stdout

    def test_a_branch_per_lab_each_after_the_one_before(self):
        names = self.git("branch", "--format=%(refname:short)").split()
        self.assertEqual(sorted(names), sorted(f"lab{n}" for n in labs.LABS))
        self.assertEqual(self.git("rev-parse", "lab4^"), self.git("rev-parse", "lab3"))
        self.assertEqual(self.git("show", "lab7:LAB"), "7\n")
        with open(os.path.join(self.repo, "LAB"), encoding="utf-8") as f:
            self.assertEqual(f.read(), "0\n")

    def test_no_branch_holds_an_answer(self):
        for lab in labs.LABS.values():
            self.assertEqual(labcheck.answers_on_branch(self.repo, lab, self.refs), [])

    def test_the_check_finds_a_reference_and_the_instructors_files(self):
        # Lab 3's branch holds lab 2's reference: taken for lab 3's, it is found.
        shifted = [(n + 1, path, title, text) for n, path, title, text in self.refs]
        found = labcheck.answers_on_branch(self.repo, labs.get(3), shifted)
        self.assertTrue(any("lab 3's reference" in p and "include/wait.h" in p
                            for p in found), found)
        with tempfile.TemporaryDirectory() as work:
            clone = os.path.join(work, "clone")
            subprocess.run(["git", "clone", "-q", "-b", "lab5", self.repo, clone],
                           check=True, capture_output=True)
            with open(os.path.join(clone, labs.INSTRUCTOR_PAGE), "w") as f:
                f.write("answers\n")
            subprocess.run(["git", "add", "-f", labs.INSTRUCTOR_PAGE], cwd=clone, check=True)
            subprocess.run(["git", "-c", "user.name=t", "-c", "user.email=t@t", "commit",
                            "-qm", "leak"], cwd=clone, check=True, capture_output=True)
            found = labcheck.answers_on_branch(clone, labs.get(5), self.refs)
        self.assertEqual(found, [f"branch lab5 holds {labs.INSTRUCTOR_PAGE}, the instructor's"])

    def test_doing_a_lab_on_its_branch_gives_the_solved_file(self):
        lab, path = labs.get(4), "kernel/locking/mutex.c"
        with tempfile.TemporaryDirectory() as work:
            clone = os.path.join(work, "clone")
            subprocess.run(["git", "clone", "-q", "-b", "lab4", self.repo, clone],
                           check=True, capture_output=True)
            self.assertEqual(labcheck.do_lab(ROOT, lab, clone, path), [])
            with open(os.path.join(clone, path), encoding="utf-8") as f, \
                    open(os.path.join(ROOT, path), encoding="utf-8") as g:
                self.assertEqual(f.read(), labmarks.render(g.read(), 5, path))
            self.assertNotEqual(labcheck.do_lab(ROOT, lab, clone, path), [])

    def test_a_dest_that_is_not_empty_is_refused(self):
        dest = os.path.join(self.tmp.name, "taken")
        os.mkdir(dest)
        with open(os.path.join(dest, "mine"), "w") as f:
            f.write("keep")
        with self.assertRaisesRegex(labs.LabError, "not an empty folder: nothing written"):
            labs.student_repo(ROOT, dest)
        self.assertEqual(os.listdir(dest), ["mine"])


class LabFile(unittest.TestCase):
    """A student tree's LAB file: whatever it holds, a LabError that says what."""

    def lab_of(self, data):
        with tempfile.TemporaryDirectory() as tmp:
            if data is not None:
                with open(os.path.join(tmp, "LAB"), "wb") as f:
                    f.write(data)
            return labs.student_lab(tmp)

    def test_the_number_names_the_lab(self):
        self.assertEqual(self.lab_of(b"3\n").number, 3)
        self.assertEqual(self.lab_of(b" 10 \r\n").number, 10)

    def test_a_bad_lab_file_says_what_is_wrong(self):
        for data, what in ((b"xyz\n", "says 'xyz', which names no lab"),
                           (b"99\n", "says '99', which names no lab"),
                           (b"", "is empty"), (b" \n", "is empty"),
                           (b"\xff\xfe3\n", "is not text"), (b"3\x00", "is not text"),
                           (b"3" * 4096, "more than 16 bytes"),
                           (None, "no such file")):
            with self.subTest(data=data[:8] if data else data):
                with self.assertRaisesRegex(labs.LabError, what):
                    self.lab_of(data)

    def test_only_the_full_tree_is_not_a_student_tree(self):
        self.assertFalse(labs.is_student_tree(ROOT))
        self.assertIsNone(labs.student_lab(ROOT))
        with tempfile.TemporaryDirectory() as tmp:
            self.assertTrue(labs.is_student_tree(tmp))


class Grader(unittest.TestCase):
    """The grader's verdicts on canned boots, its output and results.json."""

    def test_boot_check_on_ktap(self):
        result = judge_text(NOT_OK_LOG, 1)
        ok, _ = grade.judge_boot(Check("a", 1, "string.strlen_basic"), result, "l")
        self.assertTrue(ok)
        ok, out = grade.judge_boot(Check("b", 1, "string.*"), result, "l")
        self.assertFalse(ok)
        self.assertIn("string.strcmp_order", out)
        ok, out = grade.judge_boot(Check("c", 1, "mutex.hangs"), result, "l")
        self.assertFalse(ok)

    def test_no_graded_case_over_the_cap(self):
        with self.assertRaisesRegex(ValueError, "over the 60 s"):
            Check("slow", 1, "mutex.*", case_secs=labs.MAX_CASE_SECS + 1)
        self.assertLessEqual(grade.CASE_TIMEOUT, labs.MAX_CASE_SECS)
        for lab in labs.LABS.values():
            self.assertLessEqual(lab.case_timeout, labs.MAX_CASE_SECS, lab.number)

    def test_a_case_the_boot_never_reported_fails(self):
        # A panic in the second of three planned cases: the first passed.
        log = ("KTAP version 1\n1..1\n    KTAP version 1\n    # Subtest: mutex\n"
               "    1..3\n    ok 1 api\nKernel panic - not syncing: boom\n")
        result = judge_text(log, 2)
        self.assertTrue(grade.judge_boot(Check("a", 1, "mutex.api"), result, "l")[0])
        for glob in ("mutex.*", "mutex.api,mutex.fifo"):
            ok, out = grade.judge_boot(Check("b", 1, glob), result, "l")
            self.assertFalse(ok, glob)
            self.assertIn("never reported", out)
        self.assertFalse(grade.judge_boot(Check("c", 1, "other.*"), result, "l")[0])

    def test_failed_expectations_are_in_the_output(self):
        log = ("KTAP version 1\n1..1\n    KTAP version 1\n    # Subtest: mutex\n"
               "    1..2\n    # unrelated: before the first case\n    ok 1 api\n"
               "    # mutex_test.c:9: expected a == 1, but a == 5\n"
               "    not ok 2 fifo\nnot ok 1 mutex\n")
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, "boot.log")
            with open(path, "w", encoding="utf-8") as f:
                f.write(log)
            diags = grade.failure_lines(path)
        self.assertEqual(diags, {"mutex.fifo": ["mutex_test.c:9: expected a == 1, but a == 5"]})
        result = judge_text(NOT_OK_LOG, 1)
        ok, out = grade.judge_boot(Check("b", 1, "string.*"), result, "l",
                                   {"string.strcmp_order": ["why it failed"]})
        self.assertIn("string.strcmp_order: why it failed", out.splitlines())

    def test_an_expectation_the_kernel_went_on_with_is_whole(self):
        # print_diag() breaks a long one over lines ending in a backslash.
        value = "(current_thread_info()->task)->prio"
        log = ("KTAP version 1\n1..1\n    KTAP version 1\n    # Subtest: rtmutex\n"
               f"    1..1\n    # rtmutex_test.c:9: expected {value} == 5, but \\\n"
               f"    #  {value} == 10 (0xa), 5 == 5 (0x5)\n" +
               "".join(f"    # rtmutex_test.c:{n}: expected\n" for n in range(10, 17)) +
               "    not ok 1 chain\nnot ok 1 rtmutex\n")
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, "boot.log")
            with open(path, "w", encoding="utf-8") as f:
                f.write(log)
            lines = grade.failure_lines(path)["rtmutex.chain"]
        self.assertEqual(lines[0], f"rtmutex_test.c:9: expected {value} == 5, but  "
                                   f"{value} == 10 (0xa), 5 == 5 (0x5)")
        # Past DIAG_LINES, what is left out is said.
        self.assertEqual(len(lines), grade.DIAG_LINES + 1)
        self.assertEqual(lines[-1], "... and 2 more line(s) in the log")

    def test_an_unprovoked_report_fails_the_debug_builds_checks(self):
        text = OK_LOG.replace("CPU1: idle", "BUG: spinlock not held where it must be on CPU#1")
        result = judge_text(text, 0)
        debug = Check("d", 1, "string.*", mutex="debug")
        ok, out = grade.judge_boot(debug, result, "l")
        self.assertFalse(ok)
        self.assertIn("BUG: spinlock not held where it must be", out)
        self.assertTrue(grade.judge_boot(Check("n", 1, "string.*"), result, "l")[0])
        self.assertTrue(grade.judge_boot(debug, judge_text(OK_LOG, 0), "l")[0])

    def test_an_unprovoked_race_fails_the_race_detectors_checks(self):
        text = OK_LOG.replace("CPU1: idle", "BUG: KCSAN: assert: race in a / b")
        result = judge_text(text, 0)
        kcsan = Check("k", 1, "string.*", conf=build.KCSAN)
        self.assertEqual(kcsan.build("arm"), build.BuildConfig("arm", "native", build.KCSAN))
        ok, out = grade.judge_boot(kcsan, result, "l")
        self.assertFalse(ok)
        self.assertIn("BUG: KCSAN: assert: race", out)
        self.assertTrue(grade.judge_boot(kcsan, judge_text(OK_LOG, 0), "l")[0])

    def test_a_build_error_is_graded_zero_with_its_first_error(self):
        lab = Lab(9, "t", ("i386", "arm"), (Check("one", 4, "a.*"),))
        with tempfile.TemporaryDirectory() as tmp:
            log = os.path.join(tmp, "build.log")
            with open(log, "w", encoding="utf-8") as f:
                f.write("  CC x.c\nx.c:3:1: error: expected ';'\nx.c:9:1: error: later\n")
            failed = grade.BuildError(grade.BuildConfig("i386", "native"),
                                      grade.first_error(log), log)
            path = os.path.join(tmp, "results.json")
            with mock.patch.object(grade, "grade_arch", return_value=failed), \
                    mock.patch.object(grade, "check_before_running", return_value=[]), \
                    mock.patch("builtins.print"):
                code = grade.run(tmp, {"i386": None, "arm": None}, lab, results_path=path)
            with open(path) as f:
                data = json.load(f)
        self.assertEqual(code, 2)
        self.assertEqual(data["score"], 0)
        self.assertEqual(len(data["tests"]), 2)
        self.assertIn("x.c:3:1: error: expected ';'", data["tests"][0]["output"])

    def test_a_build_error_is_graded_out_of_the_labs_own_maximum(self):
        # Lab 3's race detector check runs on i386 alone: 4 * 21 + 3.
        lab = labs.get(3)
        failed = grade.BuildError(grade.BuildConfig("i386", "native"), "x.c:1: error: e", "l")
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, "results.json")
            with mock.patch.object(grade, "grade_arch", return_value=failed), \
                    mock.patch.object(grade, "check_before_running", return_value=[]), \
                    mock.patch("builtins.print"):
                code = grade.run(tmp, dict.fromkeys(lab.arches), lab, results_path=path,
                                 student=False)
            with open(path) as f:
                data = json.load(f)
        self.assertEqual(code, 2)
        self.assertEqual(data["score"], 0)
        self.assertEqual(sum(t["max_score"] for t in data["tests"]), 77)
        names = [t["name"] for t in data["tests"]]
        self.assertIn("the wait list only under wait_lock (race detector) [i386]", names)
        self.assertNotIn("the wait list only under wait_lock (race detector) [arm]", names)

    def test_a_check_that_selects_nothing_fails(self):
        result = judge_text(OK_LOG, 0)
        ok, out = grade.judge_boot(Check("d", 1, "nosuch.*"), result, "l")
        self.assertFalse(ok)
        self.assertIn("no result", out)

    def test_boot_globs_once_each(self):
        checks = [Check("a", 1, "x.*,y.a"), Check("b", 1, "y.a,z.*")]
        self.assertEqual(grade.boot_globs(checks), "x.*,y.a,z.*")

    def test_report_and_results_json(self):
        lab = Lab(9, "t", ("i386",), ())
        outs = [grade.Outcome(Check("one", 4), "i386", True, "fine"),
                grade.Outcome(Check("two", 6), "i386", False, "broken")]
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, "results.json")
            with mock.patch("builtins.print") as say:
                code = grade.report(lab, outs, path)
            printed = [c.args[0] for c in say.call_args_list]
            with open(path) as f:
                data = json.load(f)
        self.assertEqual(code, 1)
        self.assertIn("one [i386]: OK (4/4)", printed)
        self.assertIn("two [i386]: FAIL (0/6)", printed)
        self.assertIn("Score: 4/10", printed)
        self.assertEqual(data, {"score": 4, "tests": [
            {"name": "one [i386]", "score": 4, "max_score": 4, "output": "fine"},
            {"name": "two [i386]", "score": 0, "max_score": 6, "output": "broken"}]})
        with mock.patch("builtins.print"):
            self.assertEqual(grade.report(lab, outs[:1], ""), 0)

    def test_student_trees_leave_out_instructor_checks(self):
        lab = labs.get(2)
        self.assertLess(len(lab.checks_for(student=True)), len(lab.checks_for(student=False)))

    def test_fastpath_reads_the_function(self):
        dis = ("00100000 <mutex_lock>:\n  100000:\tlock decl (%eax)\n"
               "  100003:\tjs     100010 <x>\n  100005:\tret\n\n"
               "00100010 <other>:\n  100010:\tlock incl (%eax)\n")
        body = grade.function_body(dis, "mutex_lock")
        self.assertEqual(len(body), 3)
        self.assertEqual(grade.function_body(dis, "nosuch"), [])
        self.assertTrue(grade.has_in_order(body, ("lock decl", "js")))
        self.assertFalse(grade.has_in_order(body, ("js", "lock decl")))
        self.assertFalse(grade.has_in_order(body, ("lock incl",)))
        self.assertFalse(grade.has_in_order(body, ("j",)))      # whole mnemonics


LOG = """\
bench: start which=vfs cpus=2
bench: vfs lock=sem cpus=2 loops_per_sec=100.50 cs_per_loop=0.3292 cpu_us_per_loop=16.54
bench: vfs lock=mutex cpus=2 loops_per_sec=200.00 cs_per_loop=0.0103 cpu_us_per_loop=6.76
bench: vfs-ratio lock=mutex base=sem cpus=2 throughput=1.99 cpu=0.75 efficiency=2.44
bench: vfs-ratio lock=spin base=mutex cpus=2 throughput=0.80 cpu=1.50 efficiency=0.53
bench: end status=0
"""
FILLED = {"vfs mutex loops_per_sec": "200.00", "vfs sem loops_per_sec": "100.50",
          "vfs mutex cs_per_loop": "0.0103", "vfs sem cs_per_loop": "0.3292",
          "vfs mutex cpu_us_per_loop": "6.76", "vfs sem cpu_us_per_loop": "16.54",
          "vfs-ratio throughput": "1.99", "vfs-ratio efficiency": "2.44"}


class BankEntries(unittest.TestCase):
    """make check-labs ENTRY=...: only the entries named are graded."""

    def test_only_the_entries_named_are_graded(self):
        with mock.patch.object(labcheck, "grade_wrong", return_value=[]) as graded:
            problems = labcheck.check_bank(ROOT, {}, "tcg", mock.Mock(),
                                           ["lab3-unlock-wakes-all", "lab3-reference"])
        self.assertEqual(problems, [])
        self.assertEqual(sorted(c.args[3] for c in graded.call_args_list),
                         ["lab3-reference", "lab3-unlock-wakes-all"])
        patches = {c.args[3]: c.args[4] for c in graded.call_args_list}
        self.assertIsNone(patches["lab3-reference"])
        self.assertTrue(patches["lab3-unlock-wakes-all"].endswith(
            "wrong/lab3-unlock-wakes-all.patch"))

    def test_make_test_grades_the_forges_alone(self):
        with mock.patch.object(labcheck, "grade_wrong", return_value=[]) as graded:
            labcheck.check_forges(ROOT, {}, "tcg", mock.Mock())
        names = {c.args[3] for c in graded.call_args_list}
        self.assertIn("lab4-forge-print-results", names)
        self.assertIn("lab3-forge-include-absolute", names)
        self.assertNotIn("lab3-unlock-wakes-all", names)
        self.assertNotIn("lab3-reference", names)
        self.assertEqual(names, {n for n, _ in labcheck.bank_entries(ROOT) if "-forge-" in n})

    def test_lab_8s_entries_patch_the_reference_answers_and_log(self):
        self.assertIn(("lab8-reference", None), labcheck.bank_entries(ROOT))
        patch = os.path.join(ROOT, labcheck.BANK, "lab8-log-cut-short.patch")
        with tempfile.TemporaryDirectory() as sub:
            self.assertIsNone(labcheck.write_submission(ROOT, labs.get(8), patch, sub))
            self.assertEqual(sorted(os.listdir(sub)), ["answers.md", "bench.log"])
            with open(os.path.join(sub, "bench.log"), encoding="utf-8") as f:
                self.assertNotIn("bench: end status=0", f.read())
            with open(os.path.join(sub, "answers.md"), encoding="utf-8") as f:
                self.assertIn("| vfs mutex loops_per_sec | 165931.68 |", f.read())

    def test_an_unknown_entry_is_named_and_nothing_graded(self):
        with mock.patch.object(labcheck, "grade_wrong", return_value=[]) as graded:
            problems = labcheck.check_bank(ROOT, {}, "tcg", mock.Mock(),
                                           ["lab3-reference", "lab3-no-such-bug"])
        graded.assert_not_called()
        self.assertEqual(len(problems), 1)
        self.assertIn("no such bank entry: lab3-no-such-bug", problems[0])


class Answers(unittest.TestCase):
    """Lab 8's figures against the log."""

    def rows(self):
        with tempfile.NamedTemporaryFile("w", suffix=".log") as f:
            f.write(LOG)
            f.flush()
            from mutexos import bench
            rows, clean = bench.parse_log(f.name, "i386", 2)
        self.assertTrue(clean)
        return rows

    @staticmethod
    def table(values):
        return "\n".join(f"| {k} | {v} |" for k, v in values.items())

    def test_filled_and_equal(self):
        self.assertEqual(answers.compare(self.table(FILLED), self.rows()), [])

    def test_empty_wrong_and_made_up(self):
        values = dict(FILLED)
        values["vfs sem cs_per_loop"] = ""
        values["vfs-ratio throughput"] = "2.5"
        values["vfs mutex cs_per_loop"] = "a lot"
        problems = answers.compare(self.table(values), self.rows())
        self.assertEqual(len(problems), 3)
        self.assertIn("vfs sem cs_per_loop: not filled in", problems)
        self.assertIn("vfs-ratio throughput: 2.5, but bench.log says 1.99", problems)

    def test_rounded_is_right_mistyped_is_not(self):
        values = dict(FILLED)
        values["vfs mutex loops_per_sec"] = "200"
        values["vfs sem loops_per_sec"] = "100.5"
        self.assertEqual(answers.compare(self.table(values), self.rows()), [])
        values["vfs sem loops_per_sec"] = "100.05"
        self.assertEqual(answers.compare(self.table(values), self.rows()),
                         ["vfs sem loops_per_sec: 100.05, but bench.log says 100.5"])

    def test_the_template_has_every_figure(self):
        with open(os.path.join(ROOT, "docs/labs/lab8.md"), encoding="utf-8") as f:
            template = answers.reported(f.read())
        self.assertEqual(sorted(template), sorted(answers.FIGURES))
        self.assertTrue(all(v == "" for v in template.values()))

    def test_the_reference_answers_match_their_log(self):
        self.assertEqual(answers.judge(ROOT), (True, f"{len(answers.FIGURES)} figures match "
                                                     f"{answers.paths(ROOT)[1]}"))


if __name__ == "__main__":
    unittest.main()


class OwnSuites(unittest.TestCase):
    def test_a_lab_file_that_defines_a_suite_names_it(self):
        # The grader takes a case whose function is in a lab's file for a
        # forge, but in the suites that are the lab's own tests (lab 9's):
        # each suite a lab's file defines must be one of them.
        for lab in labs.LABS.values():
            for path in labs.submitted_files(ROOT, lab):
                full = os.path.join(ROOT, path)
                if not path.endswith(".c") or not os.path.isfile(full):
                    continue
                with open(full, encoding="utf-8") as f:
                    text = f.read()
                if "kunit_test_suite" not in text:
                    continue
                for suite in re.findall(r'\.name\s*=\s*"([^"]+)"', text):
                    with self.subTest(lab=lab.number, suite=suite):
                        self.assertIn(suite, lab.own_suites)
