"""The gdb check's host side: the protocol client against a fake stub,
and the matching of gdb's output to each command's pattern."""

import socket
import threading
import unittest

from mutexos import kgdb


class FakeStub:
    """The stub's end of a socket pair: answers what script says."""

    def __init__(self, script):
        self.ours, self.theirs = socket.socketpair()
        self.ours.settimeout(5)
        self.theirs.settimeout(5)
        self.received = b""
        self.thread = threading.Thread(target=script, args=(self,), daemon=True)
        self.thread.start()

    def read(self, n):
        data = b""
        while len(data) < n:
            data += self.theirs.recv(n - len(data))
        self.received += data
        return data

    def send(self, data):
        self.theirs.sendall(data)


class TestPackets(unittest.TestCase):
    def test_checksum_and_frame(self):
        self.assertEqual(kgdb.checksum(b"g"), 0x67)
        self.assertEqual(kgdb.checksum(b"\xff\x02"), 0x01)      # modulo 256
        self.assertEqual(kgdb.frame(b"?"), b"$?#3f")
        self.assertEqual(kgdb.frame(b"m0,4"), b"$m0,4#fd")

    def test_request_acks_the_reply(self):
        def stub(s):
            s.read(len(b"$?#3f"))
            s.send(b"+" + kgdb.frame(b"T05thread:1;"))
            s.read(1)                   # our '+'
        fake = FakeStub(stub)
        rsp = kgdb.Rsp(fake.ours)
        self.assertEqual(rsp.request(b"?"), b"T05thread:1;")
        fake.thread.join(5)
        self.assertEqual(fake.received, b"$?#3f+")

    def test_refused_request_is_an_error(self):
        def stub(s):
            s.read(len(b"$?#3f"))
            s.send(b"-")
        rsp = kgdb.Rsp(FakeStub(stub).ours)
        with self.assertRaisesRegex(kgdb.RspError, "refused"):
            rsp.request(b"?")

    def test_bad_checksum_in_a_reply_is_an_error(self):
        def stub(s):
            s.read(len(b"$g#67"))
            s.send(b"+$00#00")
        rsp = kgdb.Rsp(FakeStub(stub).ours)
        with self.assertRaisesRegex(kgdb.RspError, "bad checksum"):
            rsp.request(b"g")

    def test_closed_port(self):
        def stub(s):
            s.theirs.close()
        rsp = kgdb.Rsp(FakeStub(stub).ours)
        with self.assertRaisesRegex(kgdb.RspError, "closed"):
            rsp.ack()

    def line_stub(self, memory_reply):
        """A stub that refuses the bad packets and answers m0,4 so."""
        def stub(s):
            s.read(len(b"$?#3f"))
            s.send(b"-")                # the tick took the '$': again
            s.read(len(b"$?#3f"))
            s.send(b"+" + kgdb.frame(b"T05thread:1;"))
            s.read(1)
            s.read(len(b"garbage \x00\xff between packets+"))
            for bad in (b"$?#00", b"$?#zz", b"$g#66"):
                s.read(len(bad))
                s.send(b"-")
            s.read(len(b"$?#3f"))
            s.send(b"+" + kgdb.frame(b"T05thread:1;"))
            s.read(1 + len(b"$m0,4#fd"))
            s.send(b"+" + kgdb.frame(memory_reply))
            s.read(1)
        return FakeStub(stub)

    def test_check_line_passes_a_good_stub(self):
        fake = self.line_stub(b"E0e")
        self.assertEqual(kgdb.check_line(kgdb.Rsp(fake.ours)), [])

    def test_check_line_wants_an_error_for_address_0(self):
        fake = self.line_stub(b"00000000")
        problems = kgdb.check_line(kgdb.Rsp(fake.ours))
        self.assertEqual(len(problems), 1)
        self.assertIn("not an error packet", problems[0])

    RELEASE = kgdb.frame(b"M1234,4:03000000")

    def break_stub(self, stops):
        """A stub stopped by gdb: 'c', then a break stops it if stops."""
        def stub(s):
            s.read(len(b"$c#63"))
            s.send(b"+")
            s.read(1)                   # the break
            if not stops:
                s.theirs.close()        # it ran to its end: QEMU exited
                return
            s.send(kgdb.frame(b"T02thread:4;"))
            s.read(1 + len(self.RELEASE))
            s.send(b"+" + kgdb.frame(b"OK"))
            s.read(1 + len(b"$D#44"))
            s.send(b"+" + kgdb.frame(b"OK"))
            s.read(1)
        return FakeStub(stub)

    def test_check_break_releases_the_busy_case_then_detaches(self):
        fake = self.break_stub(True)
        problems = kgdb.check_break(kgdb.Rsp(fake.ours), 0x1234)
        self.assertEqual(problems, [])
        fake.thread.join(5)
        self.assertEqual(fake.received,
                         b"$c#63\x03+" + self.RELEASE + b"+$D#44+")

    def test_check_break_says_when_the_break_stops_nothing(self):
        fake = self.break_stub(False)
        problems = kgdb.check_break(kgdb.Rsp(fake.ours), 0x1234)
        self.assertEqual(len(problems), 1)
        self.assertIn("did not stop the running kernel", problems[0])



class AnsweringStub(FakeStub):
    """A stub that answers each packet with answer(body); acks and breaks
    between packets are skipped."""

    def __init__(self, answer):
        def serve(s):
            while True:
                try:
                    c = s.read(1)
                except OSError:
                    return
                if c != b"$":
                    continue
                body = b""
                while (c := s.read(1)) != b"#":
                    body += c
                s.read(2)
                s.send(b"+" + kgdb.frame(answer(body)))
        super().__init__(serve)


class FakeArch:
    gdb = "i386"
    kgdb_pc = (8, 4)
    kgdb_break_kind = 1


class TestStressChecks(unittest.TestCase):
    def memory(self, over):
        """PacketSize 16: m of 8 bytes is 16 digits, of 9 bytes over."""
        def answer(body):
            if body == b"qSupported":
                return b"PacketSize=10"
            return b"ab" * 8 if body.endswith(b",8") else over
        return kgdb.Rsp(AnsweringStub(answer).ours)

    def test_packet_size_refused_past_the_packet(self):
        self.assertEqual(kgdb.check_packet_size(self.memory(b"E07"), 0x1000), [])

    def test_packet_size_cut_short_is_a_problem(self):
        problems = kgdb.check_packet_size(self.memory(b"ab" * 8), 0x1000)
        self.assertEqual(len(problems), 1)
        self.assertIn("not an error reply", problems[0])

    def rounds(self, stop, pc):
        def answer(body):
            if body == b"c":
                return stop
            if body == b"p8":
                return pc.to_bytes(4, "little").hex().encode()
            return b"OK" if body[:1] in b"Zz" else b"T05thread:1;"
        return kgdb.Rsp(AnsweringStub(answer).ours)

    def test_rounds_stopped_at_the_breakpoint(self):
        kinds = {}
        rsp = self.rounds(b"T05thread:3;", 0x1234)
        self.assertEqual(kgdb.check_rounds(rsp, (0x1234,), FakeArch, kinds, 5), [])
        self.assertEqual(kinds, {b"T05": 5})

    def unstopped(self, registers):
        def answer(body):
            return registers if body[:1] in b"gp" else b"OK"
        return kgdb.Rsp(AnsweringStub(answer).ours)

    def test_registers_of_a_cpu_that_did_not_stop_are_unavailable(self):
        self.assertEqual(kgdb.check_unstopped_registers(self.unstopped(b"xx" * 4), b"9"), [])

    def test_an_error_for_them_is_a_problem(self):
        problems = kgdb.check_unstopped_registers(self.unstopped(b"E0b"), b"9")
        self.assertEqual(len(problems), 2)          # g and p
        self.assertIn("on a CPU that did not stop: b'E0b'", problems[0])

    def test_rounds_break_blamed_for_a_breakpoint(self):
        rsp = self.rounds(b"T02thread:3;", 0x1234)
        problems = kgdb.check_rounds(rsp, (0x1234,), FakeArch, {}, 5)
        self.assertEqual(problems, ["round 0: a T02 stop with the pc at the breakpoint"])


SESSION = [("bt", r"#1 .* in caller"), ("mx-ps", r"kunit"), ("delete", None)]


class TestMatchSession(unittest.TestCase):
    def out(self, *parts):
        return "".join(f"{kgdb.MARK}{i}\n{text}" for i, text in enumerate(parts))

    def test_all_found(self):
        out = self.out("#0 f ()\n#1 0x1 in caller ()\n", "  4 R kunit\n", "")
        self.assertEqual(kgdb.match_session(out, SESSION), [])

    def test_pattern_only_in_another_command_fails(self):
        out = self.out("#0 f ()\n", "#1 0x1 in caller ()\n kunit\n", "")
        problems = kgdb.match_session(out, SESSION)
        self.assertEqual(len(problems), 1)
        self.assertIn("'bt' printed no match", problems[0])

    def test_command_that_never_ran(self):
        problems = kgdb.match_session(self.out("#1 0x1 in caller\n"), SESSION)
        self.assertEqual(problems, ["gdb: 'mx-ps' never ran"])


if __name__ == "__main__":
    unittest.main()


class TestSharedLine(unittest.TestCase):
    """The checks at the prompt of a kernel whose stub shares the console."""

    QSUPPORTED = kgdb.frame(b"qSupported:hwbreak+")

    def attach_stub(self, answers):
        """A stub at the prompt: the tick took the '$' (a '-'), then it
        answers the packet sent again, if answers."""
        def stub(s):
            s.read(len(self.QSUPPORTED))
            s.send(b"-")
            s.read(len(self.QSUPPORTED))
            if not answers:
                s.theirs.close()        # the reply went to the console
                return
            s.send(b"+" + kgdb.frame(b"PacketSize=800;vContSupported+"))
            s.read(1)
        return FakeStub(stub)

    def test_attach_answered(self):
        fake = self.attach_stub(True)
        problems = kgdb.check_attach_at_prompt(kgdb.Rsp(fake.ours), lambda: b"mutexos> ")
        self.assertEqual(problems, [])

    def test_attach_lost(self):
        fake = self.attach_stub(False)
        problems = kgdb.check_attach_at_prompt(kgdb.Rsp(fake.ours), lambda: b"")
        self.assertEqual(len(problems), 1)
        self.assertIn("no answer to qSupported", problems[0])

    def test_packet_typed_into_the_console(self):
        fake = self.attach_stub(True)
        problems = kgdb.check_attach_at_prompt(
            kgdb.Rsp(fake.ours), lambda: b"mutexos> qSupported:hwbreak+#")
        self.assertEqual(problems, ["attaching at the prompt: the packet's bytes "
                                    "reached the console"])


class TestWatchSession(unittest.TestCase):
    """What gdb printed with watchpoints, from a session on x86_64."""

    OUTPUTS = [
        "",
        "Hardware watchpoint 1: kgdb_test_watched\n",
        "Thread 12 hit Hardware watchpoint 1: kgdb_test_watched\n\n"
        "Old value = 41\nNew value = 42\n",
        "(struct task_struct *) 0x17e840  pid 37 kgdb-watch/0 CPU 0\n",
        "Thread 14 hit Hardware watchpoint 1: kgdb_test_watched\n\n"
        "Old value = 42\nNew value = 43\n",
        "(struct task_struct *) 0x17e840  pid 38 kgdb-watch/1 CPU 1\n",
        "", "Hardware read watchpoint 2: kgdb_test_watched\n",
        "Hardware assisted breakpoint 3 at 0x138340\n",
        "Thread 15 hit Hardware read watchpoint 2: kgdb_test_watched\n\n"
        "Value = 43\n",
        "Thread 15 hit Breakpoint 3, kgdb_test_watch_here "
        "(value=value@entry=44) at tests/kgdb_test.c:129\n",
        "", "Hardware access (read/write) watchpoint 4: kgdb_test_watched\n",
        "Thread 15 hit Hardware access (read/write) watchpoint 4: "
        "kgdb_test_watched\n\nOld value = 43\nNew value = 44\n",
        "", "Hardware assisted breakpoint 5 at 0x14a1f0\n",
        "mx-hits: n = 1 to 20 in kgdb_test_polled_hit, none lost\n", "",
        "Hardware watchpoint 6: kgdb_test_watched\n",
        "mx-hits: kgdb_test_watched = 20 to 40 in kgdb_test_polled_hit, "
        "none lost\n", "", "",
    ]

    def out(self, outputs):
        return "".join(f"{kgdb.MARK}{i}\n{text}" for i, text in enumerate(outputs))

    def test_watchpoints_caught(self):
        self.assertEqual(kgdb.match_session(self.out(self.OUTPUTS), kgdb.WATCH_SESSION), [])

    def test_not_inserted(self):
        outputs = list(self.OUTPUTS)
        outputs[2] = ("Could not insert hardware watchpoint 1.\n"
                      "Could not insert hardware breakpoints:\n")
        problems = kgdb.match_session(self.out(outputs), kgdb.WATCH_SESSION)
        self.assertEqual(len(problems), 1)
        self.assertIn("'continue' printed no match", problems[0])

    def test_stop_in_the_wrong_thread(self):
        outputs = list(self.OUTPUTS)
        outputs[5] = outputs[3]
        problems = kgdb.match_session(self.out(outputs), kgdb.WATCH_SESSION)
        self.assertEqual(len(problems), 1)
        self.assertIn("'mx-current' printed no match", problems[0])

    def test_a_lost_hit(self):
        outputs = list(self.OUTPUTS)
        outputs[-3] = ("mx-hits: a stop in kgdb_test_polled_hit with "
                       "kgdb_test_watched = 23, not in kgdb_test_polled_hit "
                       "with 22\n")
        problems = kgdb.match_session(self.out(outputs), kgdb.WATCH_SESSION)
        self.assertEqual(len(problems), 1)
        self.assertIn("'mx-check-hits kgdb_test_polled_hit kgdb_test_watched 20 40' "
                      "printed no match", problems[0])

    SPINNERS = [
        "Breakpoint 7 at 0x151340: file tests/kgdb_test.c, line 250.\n",
        "Thread 18 hit Breakpoint 7, kgdb_test_holder_stops (how=SPINNER_PARKED) "
        "at tests/kgdb_test.c:250\n", "", "$1 = 0\n",
        "Thread 21 hit Breakpoint 7, kgdb_test_holder_stops "
        "(how=how@entry=SPINNER_MISSES_STOP) at tests/kgdb_test.c:250\n", "",
        "Thread 24 hit Breakpoint 7, kgdb_test_holder_stops "
        "(how=SPINNER_PARKS_LATE) at tests/kgdb_test.c:250\n", "",
    ]

    def test_every_spinner_round_stopped(self):
        self.assertEqual(kgdb.match_session(self.out(self.SPINNERS),
                                            kgdb.STOPPED_SPINNERS), [])

    def test_a_spinner_round_not_stopped(self):
        outputs = list(self.SPINNERS)
        outputs[4] = outputs[1]     # the irqs-off round never stopped
        problems = kgdb.match_session(self.out(outputs), kgdb.STOPPED_SPINNERS)
        self.assertEqual(len(problems), 1)
        self.assertIn("'continue' printed no match", problems[0])

    def test_a_parked_cpu_that_spun(self):
        outputs = list(self.SPINNERS)
        outputs[3] = "$1 = 4965077\n"     # i386, the park a cpu_relax() loop
        problems = kgdb.match_session(self.out(outputs), kgdb.STOPPED_SPINNERS)
        self.assertEqual(len(problems), 1)
        self.assertIn("'p kgdb_park_wakeups' printed no match", problems[0])
        outputs[3] = "$1 = 99\n"
        self.assertEqual(kgdb.match_session(self.out(outputs), kgdb.STOPPED_SPINNERS), [])
        outputs[3] = "$1 = 100\n"
        self.assertEqual(len(kgdb.match_session(self.out(outputs),
                                                kgdb.STOPPED_SPINNERS)), 1)

    # From arm before the stub did cpsie itself: the tick ran in the stepi.
    UNMASK = [
        "Breakpoint 8 at 0x51bdc: file arch/arm/include/asm/irqflags.h, line 23.\n",
        "Thread 18 hit Breakpoint 8, arch_local_irq_enable () at "
        "arch/arm/include/asm/irqflags.h:23\n", "",
        "0x00051be0 in unmask_at_label () at tests/kgdb_test.c:398\n",
        "$1 = 1\n", "",
    ]

    def test_a_tick_inside_the_unmask_step(self):
        problems = kgdb.match_session(self.out(self.UNMASK), kgdb.UNMASK_STEP)
        self.assertEqual(len(problems), 1)
        self.assertIn("'p jiffies - $ticks' printed no match", problems[0])
        outputs = list(self.UNMASK)
        outputs[4] = "$1 = 0\n"
        self.assertEqual(kgdb.match_session(self.out(outputs), kgdb.UNMASK_STEP), [])

    def test_the_session_follows_the_arch(self):
        class Arch:
            name = "riscv"
            kgdb_watchpoints = False
        self.assertEqual(kgdb.watch_session(Arch), kgdb.WATCH_SESSION_NONE +
                         kgdb.STOPPED_SPINNERS + kgdb.UNMASK_STEP +
                         [("disconnect", None)])
        self.assertNotIn(kgdb.STEP_WATCHED, kgdb.step_session(Arch))
        self.assertNotIn(kgdb.STEP_INTO, kgdb.step_session(Arch))
        Arch.kgdb_watchpoints = True
        # A step into the load of the hardware breakpoints, where they are.
        self.assertIn(kgdb.STEP_INTO, kgdb.step_session(Arch))
        self.assertEqual(kgdb.watch_session(Arch), kgdb.WATCH_SESSION +
                         kgdb.STOPPED_SPINNERS + kgdb.UNMASK_STEP +
                         [("disconnect", None)])
        # A step over a watched write, on x86.
        Arch.name = "x86_64"
        self.assertIn(kgdb.STEP_WATCHED, kgdb.step_session(Arch))


class TestBacktraceAfterBreak(unittest.TestCase):
    """What gdb printed, shortened from real sessions on i386."""

    THROUGH = ("#0  0x00136b51 in arch_kgdb_breakpoint () at arch/x86/kgdb.c:39\n"
               "#4  0x001369a4 in x86_handle_trap (regs=...) at arch/x86/traps.c:81\n"
               "#5  <signal handler called>\n"
               "#6  mutex_lock (lock=...) at kernel/locking/mutex.c:218\n"
               "#9  0x00103d7e in task_entry () at kernel/sched/task.c:108\n")

    def test_through_the_interrupt_to_task_entry(self):
        self.assertEqual(kgdb.backtrace_problems(self.THROUGH, True), [])

    def test_stops_at_the_interrupt(self):
        text = self.THROUGH.split("#5")[0] + "Backtrace stopped: previous frame inner\n"
        self.assertIn("junk", kgdb.backtrace_problems(text, True)[0])

    def test_return_to_address_0_is_junk(self):
        text = self.THROUGH + "#10 0x00000000 in ?? ()\n"
        self.assertIn("??", kgdb.backtrace_problems(text, True)[0])

    def test_no_interrupt_frame(self):
        text = self.THROUGH.replace("#5  <signal handler called>\n", "")
        self.assertIn("interrupted code", kgdb.backtrace_problems(text, True)[0])

    def test_a_task_ends_at_its_first_function(self):
        text = "Thread 3 (Thread 3 (khungtaskd S)):\n#0  finish_task_switch () at s.c:1\n"
        self.assertIn("ends at finish_task_switch", kgdb.backtrace_problems(text, False)[0])
        new = "Thread 8 (Thread 14 (mx/3 R)):\n#0  ret_from_fork () at arch/arm/switch.S:29\n"
        self.assertEqual(kgdb.backtrace_problems(new, False), [])

    def test_an_idle_task_ends_in_the_boot_code(self):
        text = ("Thread 1 (Thread 1 (swapper/0 R on CPU 0)):\n"
                "#10 0x00134795 in i386_start (magic=...) at arch/i386/setup.c:46\n"
                "#11 0x0010002d in _start () at arch/i386/boot.S:38\n")
        self.assertEqual(kgdb.backtrace_problems(text, False), [])
