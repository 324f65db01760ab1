"""The debugger fuzzer's host side: gdb's MI records, the operations a
run number gives, how a run is cut into boots, and the judgement of a stop."""

import unittest

from mutexos import kgdbfuzz
from mutexos.kgdbfuzz import Op

FUNCTIONS = ["a@100", "b@200", "c@300"]


class TestMi(unittest.TestCase):
    def test_nested_results(self):
        got = kgdbfuzz.parse_mi('reason="breakpoint-hit",bkptno="2",frame={addr="0x10",'
                                'args=[{name="lock",value="0x1"}]},thread-id="3"')
        self.assertEqual(got["bkptno"], "2")
        self.assertEqual(got["frame"]["addr"], "0x10")
        self.assertEqual(got["frame"]["args"], [{"name": "lock", "value": "0x1"}])
        self.assertEqual(got["thread-id"], "3")

    def test_list_of_results_and_escapes(self):
        got = kgdbfuzz.parse_mi('stack=[frame={level="0"},frame={level="1"}],'
                                'msg="a \\"b\\"\\n",groups=["i1"],empty=[],none={}')
        self.assertEqual(got["stack"], [{"level": "0"}, {"level": "1"}])
        self.assertEqual(got["msg"], 'a "b"\n')
        self.assertEqual(got["groups"], ["i1"])
        self.assertEqual(got["empty"], [])
        self.assertEqual(got["none"], {})

    def test_junk_is_refused(self):
        with self.assertRaises(ValueError):
            kgdbfuzz.parse_mi('a="1"}')

    def test_records(self):
        self.assertEqual(kgdbfuzz.record('12^done,value="3"'),
                         ("12", "^done", {"value": "3"}))
        self.assertEqual(kgdbfuzz.record("7^running"), ("7", "^running", {}))
        token, cls, results = kgdbfuzz.record('*stopped,reason="end-stepping-range"')
        self.assertEqual((token, cls, results["reason"]),
                         (None, "*stopped", "end-stepping-range"))
        self.assertEqual(kgdbfuzz.record('&"Cannot insert breakpoint 0.\\n"'),
                         (None, "&", {"text": "Cannot insert breakpoint 0.\n"}))
        # The prompt and anything not MI: no record.
        self.assertEqual(kgdbfuzz.record("(gdb) "), (None, "", {}))


class TestGenerate(unittest.TestCase):
    def test_a_run_number_gives_the_same_ops(self):
        one = kgdbfuzz.generate("38/i386/1/0", 300, FUNCTIONS, True)
        self.assertEqual(one, kgdbfuzz.generate("38/i386/1/0", 300, FUNCTIONS, True))
        self.assertNotEqual(one, kgdbfuzz.generate("39/i386/1/0", 300, FUNCTIONS, True))
        self.assertEqual(len(one), 300)

    def test_every_kind_comes_with_its_argument(self):
        ops = kgdbfuzz.generate(1, 2000, FUNCTIONS, True)
        self.assertEqual({op.kind for op in ops}, {k for k, _ in kgdbfuzz.WEIGHTS})
        for op in ops:
            if op.kind == "break":
                self.assertIn(op.arg, FUNCTIONS + list(kgdbfuzz.CERTAIN))
            elif op.kind == "stepi":
                self.assertTrue(1 <= op.arg <= 20)
            elif op.kind in ("continue", "next", "finish"):
                self.assertTrue(0.05 <= op.arg <= 1.0)
            elif op.kind == "watch":
                self.assertIn(op.arg, ("watch", "rwatch", "awatch"))
        # Some breakpoints go where the tests certainly run: a lost stop shows.
        self.assertTrue(any(op.arg in kgdbfuzz.CERTAIN for op in ops))

    def test_no_watchpoints_where_the_stub_has_none(self):
        ops = kgdbfuzz.generate(1, 2000, FUNCTIONS, False)
        self.assertNotIn("watch", {op.kind for op in ops})

    def test_op_text(self):
        self.assertEqual(str(Op("continue", 0.5)), "continue 0.50")
        self.assertEqual(str(Op("break", "a@100")), "break a@100")


class TestPlan(unittest.TestCase):
    def test_ops_shared_by_the_cpu_counts_in_short_boots(self):
        boots = kgdbfuzz.plan("i386", (1, 4), 38, 2001, boot_ops=250)
        self.assertEqual(sum(b.ops for b in boots), 2001)
        self.assertEqual(sum(b.ops for b in boots if b.cpus == 1), 1001)
        self.assertTrue(all(b.ops <= 250 for b in boots))
        self.assertEqual(len({b.run for b in boots}), len(boots))
        self.assertEqual(len({b.name for b in boots}), len(boots))

    def test_few_ops(self):
        boots = kgdbfuzz.plan("arm", (2,), 5, 100)
        self.assertEqual([(b.cpus, b.ops, b.name) for b in boots],
                         [(2, 100, "kgdbfuzz-cpus2-1")])

    def test_replay_command(self):
        self.assertEqual(kgdbfuzz.replay_command(("i386", "arm"), 38, 2000, (1, 4)),
                         'make check-kgdb-fuzz ARCH="i386 arm" REPLAY=38 OPS=2000 CPUS="1 4"')
        self.assertEqual(kgdbfuzz.replay_command(("riscv",), 5, 20, (2,)),
                         "make check-kgdb-fuzz ARCH=riscv REPLAY=5 OPS=20 CPUS=2")


def stop(reason, thread="2", addr="0x100", **more):
    return {"reason": reason, "thread-id": thread,
            "frame": {"addr": addr, "func": more.pop("func", "f")}, **more}


class TestStopProblems(unittest.TestCase):
    def test_breakpoint_stop_in_its_thread(self):
        self.assertEqual(kgdbfuzz.stop_problems(
            stop("breakpoint-hit", bkptno="1"), {"1": 0x100}), [])

    def test_breakpoint_stop_whose_pc_is_elsewhere(self):
        found = kgdbfuzz.stop_problems(stop("breakpoint-hit", bkptno="1", addr="0x180"),
                                       {"1": 0x100})
        self.assertIn("wrong thread", found[0])

    def test_sigtrap_nobody_explains(self):
        found = kgdbfuzz.stop_problems(stop("signal-received", signal_name="x"), {})
        self.assertEqual(found, [])         # not a SIGTRAP: no claim
        found = kgdbfuzz.stop_problems(
            {**stop("signal-received"), "signal-name": "SIGTRAP"}, {})
        self.assertIn("wrong thread", found[0])

    def test_step_through_a_task_switch(self):
        trap = {**stop("signal-received", thread="5", func="__switch_to_asm"),
                "signal-name": "SIGTRAP"}
        self.assertEqual(kgdbfuzz.stop_problems(trap, {}, stepping_thread="2"), [])
        trap["frame"]["func"] = "mutex_lock"
        self.assertIn("wrong thread", kgdbfuzz.stop_problems(trap, {}, "2")[0])

    def test_step_that_ends_in_another_thread(self):
        found = kgdbfuzz.stop_problems(stop("end-stepping-range", thread="3"), {}, "2")
        self.assertIn("a stepi of thread 2 ended in thread 3", found[0])
        self.assertEqual(kgdbfuzz.stop_problems(stop("end-stepping-range"), {}, "2"), [])

    def test_exit(self):
        self.assertIn("exited", kgdbfuzz.stop_problems(stop("exited-normally"), {})[0])



class FakeMi:
    """Answers each command with the next of answers; keeps the commands."""

    def __init__(self, answers):
        self.answers, self.sent = list(answers), []

    def command(self, text):
        self.sent.append(text)
        return self.answers.pop(0)


def thread_info(details):
    return ("^done", {"threads": [{"id": "11", "details": details}]})


class TestThreadOp(unittest.TestCase):
    """op_thread on a thread whose CPU missed the stop (ARM, 4 CPUs: gdb
    said 'Register 13 is not available' for its frames)."""

    UNAVAILABLE = ("^error", {"msg": "Register 13 is not available"})

    def op_thread(self, details, frames):
        mi = FakeMi([thread_info(details), ("^done", {}), frames, ("^done", {})])
        fuzzer = kgdbfuzz.Fuzzer(mi, {}, None, None)
        fuzzer.stopped_thread = "10"
        return fuzzer.op_thread(0), mi.sent

    def test_unavailable_registers_of_a_thread_not_stopped(self):
        problems, sent = self.op_thread("kgdb-busy/3 R on CPU 3, not stopped",
                                        self.UNAVAILABLE)
        self.assertEqual(problems, [])
        self.assertEqual(sent[1:], ["-thread-select 11", "-stack-list-frames 0 3",
                                    "-thread-select 10"])

    def test_unavailable_registers_of_a_stopped_thread(self):
        problems, _ = self.op_thread("kgdb-busy/3 R on CPU 3", self.UNAVAILABLE)
        self.assertIn("Register 13 is not available", problems[0])

    def test_another_error_of_a_thread_not_stopped(self):
        problems, _ = self.op_thread("kgdb-busy/3 R on CPU 3, not stopped",
                                     ("^error", {"msg": "Cannot access memory"}))
        self.assertIn("Cannot access memory", problems[0])


if __name__ == "__main__":
    unittest.main()
