"""Lab 8's answers.md: the figures a student reports, against their log.

The handout's figures table (docs/labs/lab8.md) names each figure as
"KIND LOCK KEY" (a "bench: vfs lock=mutex ... KEY=value" line of the
kernel's) or "vfs-ratio KEY" (the line of lock=mutex base=sem). The student boots
the benchmark with its output kept in bench.log at the top of the tree,
and copies the figures into answers.md. Each figure must be a number equal
to the log's as printed (or rounded: half a unit of its last digit), and the
log must be one whole, clean run. In the full tree the reference answers
and their log are docs/labs/solutions/lab8-*.
"""

import os
import re

from . import bench, labs

FIGURES = (
    "vfs mutex loops_per_sec", "vfs sem loops_per_sec",
    "vfs mutex cs_per_loop", "vfs sem cs_per_loop",
    "vfs mutex cpu_us_per_loop", "vfs sem cpu_us_per_loop",
    "vfs-ratio throughput", "vfs-ratio efficiency",
)
ROW = re.compile(r"^\|\s*`?([a-z_/ -]+?)`?\s*\|\s*([^|]*?)\s*\|\s*$")
NUMBER = re.compile(r"^-?\d+(\.\d+)?$")


def paths(root):
    """(answers.md, bench.log) of the tree at root."""
    if labs.is_student_tree(root):
        return os.path.join(root, "answers.md"), os.path.join(root, "bench.log")
    base = os.path.join(root, "docs", "labs", "solutions")
    return os.path.join(base, "lab8-answers.md"), os.path.join(base, "lab8-bench.log")


def reported(text):
    """{figure: value text} of the figures table of an answers.md."""
    found = {}
    for line in text.splitlines():
        m = ROW.match(line.strip())
        if m and m.group(1) in FIGURES:
            found[m.group(1)] = m.group(2)
    return found


def logged(rows):
    """{figure: float} of the rows of a benchmark log (bench.parse_log)."""
    found = {}
    for row in rows:
        if row["kind"] == "vfs":
            prefix = f"vfs {row.get('lock')} "
        elif row["kind"] == "vfs-ratio" and (row.get("lock"), row.get("base")) == ("mutex", "sem"):
            prefix = "vfs-ratio "
        else:
            continue
        for key, value in row.items():
            if prefix + key in FIGURES:
                found[prefix + key] = float(value)
    return found


def half_last_digit(value):
    """How far a figure written as value may be from the log's: half a
    unit of its last digit, so that a figure rounded is right and one
    mistyped (two digits swapped, a digit off) is not, however small a
    share of the figure the error is."""
    decimals = len(value.split(".", 1)[1]) if "." in value else 0
    # The log's figure and value are both decimal text read as floats.
    return 0.5 * 10 ** -decimals + 1e-9


def compare(answers_text, rows):
    """The problems of answers_text against a log's rows (none: all good)."""
    want = logged(rows)
    got = reported(answers_text)
    problems = []
    for figure in FIGURES:
        if figure not in want:
            problems.append(f"bench.log has no {figure}")
            continue
        value = got.get(figure, "")
        if not NUMBER.match(value):
            problems.append(f"{figure}: '{value}' is not a number" if value
                            else f"{figure}: not filled in")
        elif abs(float(value) - want[figure]) > half_last_digit(value):
            problems.append(f"{figure}: {value}, but bench.log says {want[figure]}")
    return problems


def judge(root):
    """(ok, output) of the answers check of the tree at root."""
    answers_path, log_path = paths(root)
    for path, how in ((answers_path, "the lab's template"),
                      (log_path, "the benchmark boot of the handout's step 1")):
        if not os.path.isfile(path):
            return False, f"{path} not found: it comes from {how}"
    rows, clean = bench.parse_log(log_path, "i386", 0)
    if not clean:
        return False, f"{log_path} is not one whole run that ended well"
    # A byte that is not UTF-8 spoils the figure it is in, not the grade.
    with open(answers_path, encoding="utf-8", errors="replace") as f:
        problems = compare(f.read(), rows)
    if problems:
        return False, "; ".join(problems)
    return True, f"{len(FIGURES)} figures match {log_path}"
