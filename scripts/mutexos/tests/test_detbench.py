"""The deterministic bench check: exact comparison, and the gate's verdicts."""

import os
import tempfile
import unittest

from mutexos import detbench, latency


def vfs(lock, loops_per_sec, cpu_us):
    return {"kind": "vfs", "lock": lock, "loops_per_sec": str(loops_per_sec),
            "cpu_us_per_loop": str(cpu_us)}


def rows(sem=100.0, mutex=99.0, sem_cpu=30.0, mutex_cpu=10.0, spin_cpu=15.0,
         handoff_cpu=15.0):
    return [vfs("sem", sem, sem_cpu), vfs("mutex", mutex, mutex_cpu),
            vfs("spin", mutex, spin_cpu), vfs("handoff", mutex, handoff_cpu)]


class Gate(unittest.TestCase):
    def test_passes_and_says_what_it_judged(self):
        reasons, figures = detbench.gate([rows(), rows(spin_cpu=17.0)])
        self.assertEqual(reasons, [])
        self.assertIn("mutex/sem CPU per loop 0.33 (median of 2 boots, "
                      "0.33-0.33; at most 1.0)", figures)
        self.assertIn(f"spin/2006 mutex CPU per loop 1.60 (median of 2 boots, "
                      f"1.50-1.70; at most {detbench.SPIN_CPU_LIMIT})", figures)

    def test_mutex_losing_to_the_semaphore_fails(self):
        reasons, _ = detbench.gate([rows(mutex_cpu=30.01, spin_cpu=30.0,
                                         handoff_cpu=30.0)])
        self.assertEqual(len(reasons), 1)
        self.assertIn("loses to the semaphore", reasons[0])

    def test_spinning_that_costs_too_much_fails(self):
        reasons, _ = detbench.gate([rows(handoff_cpu=10.0 * detbench.SPIN_CPU_LIMIT + 0.1)])
        self.assertEqual(len(reasons), 1)
        self.assertIn("handoff/2006 mutex", reasons[0])

    def test_one_boot_out_of_line_is_not_the_verdict(self):
        costly = rows(spin_cpu=10.0 * detbench.SPIN_CPU_LIMIT + 5)
        self.assertEqual(detbench.gate([rows(), costly, rows()])[0], [])
        self.assertEqual(len(detbench.gate([costly, costly, rows()])[0]), 1)

    def test_a_missing_row_fails(self):
        reasons, _ = detbench.gate([rows(), rows()[:3]])
        self.assertEqual(reasons, ["gate: no VFS row for lock=handoff"])


def latency_rows(max_ns=9000, late=0, drop=None):
    """One boot's latency rows: every path at both loads."""
    out = []
    for load in latency.LOADS:
        for path in latency.PATHS:
            if (path, load) == drop:
                continue
            row = {"kind": "latency", "path": path, "load": load, "samples": "50",
                   "max_ns": str(max_ns if path == "complete" else 7000),
                   "tick_ns": "10000000"}
            if path not in ("timer", "cross_cpu"):
                row["late"] = str(late if path == "complete" else 0)
            out.append(row)
    return out


class LatencyGate(unittest.TestCase):
    def test_passes_and_says_what_it_judged(self):
        reasons, figures = detbench.latency_gate(latency_rows())
        self.assertEqual(reasons, [])
        self.assertIn("16 paths and loads, the longest wake 9.0 us (complete, none), "
                      "at most 1000.0 us (1/10 of a tick); 0 of 600 same-CPU wakes "
                      "let the waker go on first, at most 0", figures)

    def test_a_wake_that_waits_for_the_tick_fails(self):
        # A missed preemption waits for the next tick: less than a tick.
        reasons, _ = detbench.latency_gate(latency_rows(max_ns=9967144, late=50))
        self.assertEqual(len(reasons), 4)
        self.assertIn("complete, none: the longest wake 9967.1 us, not under 1000.0 us",
                      reasons[0])
        self.assertIn("100 of 600 wakes on the woken task's CPU let the waker go on",
                      reasons[2])
        self.assertTrue(reasons[-1].startswith("judged: 16 paths and loads"))

    def test_the_limit_is_a_tenth_of_a_tick(self):
        self.assertEqual(detbench.latency_gate(latency_rows(max_ns=999999))[0], [])
        self.assertEqual(len(detbench.latency_gate(latency_rows(max_ns=1000000))[0]), 3)

    def test_a_missing_path_fails(self):
        reasons, _ = detbench.latency_gate(latency_rows(drop=("cross_cpu", "hog")))
        self.assertEqual(reasons, ["latency gate: no row for cross_cpu/hog"])


class Difference(unittest.TestCase):
    def test_first_differing_line(self):
        with tempfile.TemporaryDirectory() as d:
            a, b = os.path.join(d, "a.csv"), os.path.join(d, "b.csv")
            with open(a, "w") as f:
                f.write("h\n1,2\n3,4\n")
            with open(b, "w") as f:
                f.write("h\n1,2\n3,5\n")
            self.assertIn("line 3: ", detbench.first_difference(a, b))
            self.assertIn("'3,4'", detbench.first_difference(a, b))
