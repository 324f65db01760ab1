"""The grader against bad input: trees that do not build, broken LAB files,
submissions that lead out of themselves; each graded 0 or noted, never a
traceback, never a stale results.json."""

import json
import os
import tempfile
import unittest
from unittest import mock

from mutexos import build, grade, labs

from .common import ARCHES

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

        def fails(root, cfg, jobs=None, log=None):
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
        self.assertEqual(sum(t["max_score"] for t in data["tests"]), 24)
        self.assertIn("multiple definition of `printk_bust_locks'", data["tests"][0]["output"])
        self.assertNotIn("make: ***", printed)
        self.assertIn("Score: 0/24", printed)


if __name__ == "__main__":
    unittest.main()
