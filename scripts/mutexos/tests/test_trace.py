"""make trace: a kernel trace dump becomes valid Chrome trace-event JSON."""

import json
import unittest

from mutexos import trace

# Two tasks on two CPUs: alpha holds my_mutex; beta contends, spins, sleeps;
# alpha's unlock hands the mutex to beta and wakes it.
EVENTS = """\
trace: e 0 1000 switch 0 0 10 R
trace: e 0 2000 acquired 10 1000 0 m
trace: e 1 2500 switch 1 0 11 R
trace: e 1 3000 contended 11 1000 0 m
trace: e 1 3100 spin_start 11 1000 0 m
trace: e 1 3900 spin_stop 11 1000 0 0
trace: e 1 4000 switch 11 0 1 D
trace: e 0 5000 released 10 1000 0 m
trace: e 0 5100 handoff 10 1000 11 m
trace: e 0 5200 wakeup 10 0 11 -
trace: e 1 6000 switch 1 0 11 R
trace: e 1 6100 acquired 11 1000 0 m
trace: e 1 7000 released 11 1000 0 m
"""
TAIL = """\
trace: task 0 swapper/0
trace: task 1 swapper/1
trace: task 10 alpha
trace: task 11 beta
trace: lock 1000 my_mutex
trace: end
"""


def dump(events=EVENTS, dropped=(0, 0)):
    head = "trace: dump clock ns cpus 2 ring 8192\n"
    for cpu in (0, 1):
        n = sum(1 for line in events.splitlines() if line.split()[2] == str(cpu))
        head += f"trace: cpu {cpu} events {n} dropped {dropped[cpu]}\n"
    return "noise before\n" + head + events + TAIL + "mutexos> "


def convert(text):
    dumps = trace.parse(text)
    return trace.chrome([("part", d) for d in dumps])


def named(obj, ph, prefix):
    return [ev for ev in obj["traceEvents"]
            if ev["ph"] == ph and ev["name"].startswith(prefix)]


class Format(unittest.TestCase):
    """The converter's output passes the format's check, and shows the
    story of the dump."""

    def test_valid(self):
        obj = convert(dump())
        self.assertEqual(trace.check(obj), [])
        json.dumps(obj)
        for ev in obj["traceEvents"]:
            for key in ("ph", "ts", "pid", "tid"):
                self.assertIn(key, ev)

    def test_story(self):
        obj = convert(dump())
        holds = named(obj, "X", "holding my_mutex")
        self.assertEqual([(h["ts"], h["dur"]) for h in holds], [(1.0, 3.0), (5.1, 0.9)])
        wait, = named(obj, "X", "waiting for my_mutex")
        spin, = named(obj, "X", "spinning on my_mutex")
        self.assertEqual((wait["ts"], wait["dur"]), (2.0, 3.1))
        self.assertEqual((spin["ts"], spin["dur"]), (2.1, 0.8))
        self.assertEqual(len(named(obj, "i", "handoff of my_mutex to beta/11")), 1)
        self.assertEqual(len(named(obj, "i", "woken by alpha/10")), 1)
        sleep, = named(obj, "X", "sleeping (D)")
        self.assertEqual((sleep["ts"], sleep["dur"]), (3.0, 2.0))
        # The CPU tracks: who ran, idle left out.
        cpus = [ev for ev in obj["traceEvents"] if ev["ph"] == "X" and ev["cat"] == "cpu"]
        self.assertEqual(sorted(ev["name"] for ev in cpus), ["alpha/10", "beta/11", "beta/11"])

    def test_garbled_line_is_skipped(self):
        d, = trace.parse(dump(EVENTS + "trace: e 1 71\n"))
        self.assertEqual(d.bad_lines, 1)
        self.assertEqual(len(d.events), len(EVENTS.splitlines()))

    def test_dropped_events_trim_the_start(self):
        # CPU 1 lost its oldest events: nothing before its first is whole.
        obj = convert(dump(dropped=(0, 5)))
        self.assertEqual(trace.check(obj), [])
        self.assertTrue(all(ev["ts"] >= 0 for ev in obj["traceEvents"]))
        self.assertEqual(named(obj, "X", "holding my_mutex")[0]["ts"], 0.0)


class Check(unittest.TestCase):
    """check() fails a broken trace."""

    def test_two_holders(self):
        # beta's acquisition moved before alpha's release.
        broken = EVENTS.replace("trace: e 1 6100 acquired", "trace: e 1 4500 acquired")
        problems = trace.check(convert(dump(broken)))
        self.assertTrue(any("held by" in p for p in problems), problems)

    def test_slices_that_do_not_nest(self):
        obj = {"traceEvents": [
            {"name": "a", "ph": "X", "ts": 0, "dur": 10, "pid": 1, "tid": 1},
            {"name": "b", "ph": "X", "ts": 5, "dur": 10, "pid": 1, "tid": 1}]}
        problems = trace.check(obj)
        self.assertTrue(any("overlaps" in p for p in problems), problems)

    def test_nested_and_disjoint_slices_pass(self):
        obj = {"traceEvents": [
            {"name": "a", "ph": "X", "ts": 0, "dur": 10, "pid": 1, "tid": 1},
            {"name": "b", "ph": "X", "ts": 2, "dur": 8, "pid": 1, "tid": 1},
            {"name": "c", "ph": "X", "ts": 10, "dur": 1, "pid": 1, "tid": 1}]}
        self.assertEqual(trace.check(obj), [])

    def test_missing_keys(self):
        obj = {"traceEvents": [{"name": "a", "ph": "i", "ts": 0, "pid": 1}]}
        self.assertTrue(any("has no tid" in p for p in trace.check(obj)))
        self.assertEqual(trace.check({"events": []}), ["no traceEvents list"])


if __name__ == "__main__":
    unittest.main()
