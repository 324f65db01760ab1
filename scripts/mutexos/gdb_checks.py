"""Commands that make test's gdb check (kgdb.py) runs inside gdb.

Not for users: the helpers are scripts/gdb/.  Each prints one line that
kgdb.py matches.
"""

import re

import gdb

BRANCH_TO = re.compile(r"^b(?:eq|ne|cs|cc|mi|pl|vs|vc|hi|ls|ge|lt|gt|le)?\s+(0x[0-9a-f]+)")


def pc():
    """The selected thread's pc."""
    return int(gdb.parse_and_eval("(unsigned long)$pc"))


def instructions(function):
    """(address, text) of function's instructions."""
    start = int(gdb.parse_and_eval(f"(unsigned long)&{function}"))
    block = gdb.block_for_pc(start)
    while block.function is None:
        block = block.superblock
    arch = gdb.selected_frame().architecture()
    return [(i["addr"], i["asm"]) for i in arch.disassemble(start, block.end - 1)]


def exclusive_loops(function):
    """Each ldrex of function with its strex, the branch that retries, and
    whether that branch is unconditional ("beq out; b retry")."""
    insns = instructions(function)
    for ldrex in (a for a, text in insns if text.startswith("ldrex")):
        strex = next(a for a, text in insns if a > ldrex and text.startswith("strex"))
        retry, text = next((a, text) for a, text in insns if a > strex and
                           (m := BRANCH_TO.match(text)) and int(m.group(1), 16) == ldrex)
        yield ldrex, strex, retry, text.split()[0] == "b"


def exclusive_loop(function, shape):
    """The first ldrex of function (shape "any"), or the first whose retry
    is an unconditional b (shape "b"), with its strex and its retry."""
    return next((ldrex, strex, retry)
                for ldrex, strex, retry, plain_b in exclusive_loops(function)
                if shape == "any" or plain_b)


class StepExclusive(gdb.Command):
    """mx-check-step-exclusive FUNCTION N [b]: stop at FUNCTION's first
    ldrex (with b: the first whose retry is an unconditional b), then
    stepi up to N times until pc leaves its retry loop."""

    def __init__(self):
        super().__init__("mx-check-step-exclusive", gdb.COMMAND_USER)

    def invoke(self, arg, from_tty):
        function, count, *shape = arg.split()
        ldrex, strex, retry = exclusive_loop(function, (shape or ["any"])[0])
        stop = gdb.Breakpoint(f"*{ldrex:#x}")
        gdb.execute("continue", to_string=True)
        stop.delete()
        interrupts = interrupt_frames()     # the tick may have stopped there
        pcs = []
        for step in range(1, int(count) + 1):
            gdb.execute("stepi", to_string=True)
            pcs.append(pc())
            if not ldrex <= pcs[-1] <= retry:
                break
        else:
            print(f"mx-step: still in {ldrex:#x}..{retry:#x} after {count} stepi: "
                  + " ".join(f"{a:#x}" for a in pcs[-6:]))
            return
        if interrupt_frames() != interrupts:
            print("mx-step: a step ended in an interrupt handler: "
                  + " <- ".join(str(f.name()) for f in frames()))
            return
        print(f"mx-step: past the strex at {strex:#x} after {step} stepi "
              f"(pc {pcs[-1]:#x})")


def frames():
    frame = gdb.newest_frame()
    while frame is not None:
        yield frame
        frame = frame.older()


def interrupt_frames():
    """How many interrupts the stopped thread's stack goes through: a
    tick taken during a step (the stub masks it) would end the step in
    the tick's own spinlock, one interrupt deeper."""
    return sum(f.type() == gdb.SIGTRAMP_FRAME for f in frames())


StepExclusive()


# The interrupt-enable bit of the stopped code, where gdb sees it: x86's
# IF in eflags, ARM's I in cpsr (set: masked). riscv's sstatus is not
# among the registers the stub sends.
IRQ_BITS = {"eflags": (0x200, True), "cpsr": (0x80, False)}


def irqs_on():
    """True or False for the stopped code's interrupts, None where unseen."""
    for register, (bit, on_when_set) in IRQ_BITS.items():
        try:
            value = int(gdb.parse_and_eval(f"(unsigned long)${register}"))
        except gdb.error:
            continue
        return bool(value & bit) == on_when_set
    return None


def thread_id():
    return gdb.selected_thread().ptid


def interrupted_pc():
    """Where the innermost interrupt returns to: the pc of the frame
    below its <signal handler called>."""
    for frame in frames():
        if frame.type() == gdb.SIGTRAMP_FRAME:
            return frame.older().pc()
    return None


class StepOut(gdb.Command):
    """mx-check-step-out N: stopped inside an interrupt, stepi up to N
    times until pc is where the interrupt returns to: the step out of the
    exception return (iret, sret, rfe, ldm ... pc^). The steps must stay
    in the stopped thread (or end in another one by a task switch on the
    way out), and the code the interrupt returns to must be one interrupt
    less deep, with its interrupts on, as they were when it came. (The
    stack is unwound at the start and the end only: each unwind crosses
    the serial line.)"""

    def __init__(self):
        super().__init__("mx-check-step-out", gdb.COMMAND_USER)

    def invoke(self, arg, from_tty):
        start, thread, back = interrupt_frames(), thread_id(), interrupted_pc()
        if back is None:
            print("mx-step-out: not stopped inside an interrupt: "
                  + " <- ".join(str(f.name()) for f in frames()))
            return
        for step in range(1, int(arg) + 1):
            gdb.execute("stepi", to_string=True)
            if thread_id() != thread:
                print(f"mx-step-out: out of the interrupt after {step} stepi, "
                      f"by a task switch to thread {thread_id()[1]}")
                return
            if pc() == back:
                break
        else:
            print(f"mx-step-out: still in the interrupt after {arg} stepi, at "
                  + str(gdb.newest_frame().name()))
            return
        where = gdb.newest_frame().name()
        if interrupt_frames() != start - 1:
            print(f"mx-step-out: at {back:#x} ({where}) after {step} stepi, but "
                  f"{interrupt_frames()} interrupts deep, not {start - 1}: "
                  + " <- ".join(str(f.name()) for f in frames()))
        elif irqs_on() is False:
            print(f"mx-step-out: out after {step} stepi in {where}, "
                  "but with its interrupts off")
        else:
            print(f"mx-step-out: out of the interrupt after {step} stepi, in {where}")


StepOut()


class StepNoTick(gdb.Command):
    """mx-check-step-no-tick N: stepi N times in a task whose interrupts
    are on; the stepping CPU's tick must not run inside a step: the task's
    time_slice, which each tick on its CPU counts down, stays as it was,
    and no step ends in another task."""

    def __init__(self):
        super().__init__("mx-check-step-no-tick", gdb.COMMAND_USER)

    def invoke(self, arg, from_tty):
        if irqs_on() is False:
            print("mx-step-tick: the stopped code has its interrupts off: "
                  "nothing to check here")
            return
        thread = thread_id()
        task = gdb.parse_and_eval("$mx_current()")
        before = int(task["time_slice"])
        for step in range(1, int(arg) + 1):
            gdb.execute("stepi", to_string=True)
            if thread_id() != thread:
                print(f"mx-step-tick: stepi {step} ended in thread {thread_id()[1]}: "
                      "a task switch inside a step")
                return
            after = int(task["time_slice"])
            if after != before:
                print(f"mx-step-tick: stepi {step} ran the tick: time_slice "
                      f"{before} -> {after}")
                return
        print(f"mx-step-tick: {arg} stepi, no tick inside one")


StepNoTick()


class StepAt(gdb.Command):
    """mx-check-step-at FUNCTION MNEMONIC [N]: stop at FUNCTION's first
    (or Nth) instruction whose mnemonic is MNEMONIC (a blx into libgcc's Thumb
    helpers, a switch table's ldrls pc), then one stepi: it must step
    (gdb shows no error reply), to the instruction after a blx (the
    helper runs whole) or, for a conditional load into pc, on within
    FUNCTION with its condition passed (up to TRIES stops until it does)."""

    TRIES = 20

    def __init__(self):
        super().__init__("mx-check-step-at", gdb.COMMAND_USER)

    def invoke(self, arg, from_tty):
        function, mnemonic, *nth = arg.split()
        insns = instructions(function)
        found = [(a, t) for a, t in insns if t.split()[0] == mnemonic]
        addr, text = found[int((nth or [1])[0]) - 1]
        for _ in range(1 if mnemonic == "blx" else self.TRIES):
            out, at = self.step_from(addr)
            if "failure reply" in out or at != addr + 4:
                break
        inside = insns[0][0] <= at <= insns[-1][0]
        if "failure reply" in out or at == addr or \
                (mnemonic == "blx") != (at == addr + 4) or not inside:
            print(f"mx-step-at: stepi at {text!r} ({addr:#x}) in {function}: "
                  f"pc {at:#x}: {out.strip()}")
            return
        print(f"mx-step-at: stepped {mnemonic} at {addr:#x}, pc {at:#x}")

    @staticmethod
    def step_from(addr):
        """Continue to addr, stepi there: gdb's output and the new pc."""
        stop = gdb.Breakpoint(f"*{addr:#x}")
        gdb.execute("continue", to_string=True)
        stop.delete()
        out = gdb.execute("stepi", to_string=True)
        return out, pc()


StepAt()


class StepWatched(gdb.Command):
    """mx-check-step-watched FUNCTION VARIABLE N: from FUNCTION's entry,
    with a hardware watchpoint on VARIABLE, stepi up to N times until a
    step writes it. That step must stop in FUNCTION, after the write:
    x86 under QEMU once stopped in the debug trap's own entry, and the
    next continue ended in "Oops: debug". FUNCTION may write VARIABLE on
    one CPU only: up to TRIES entries, until a step writes it."""

    TRIES = 20

    def __init__(self):
        super().__init__("mx-check-step-watched", gdb.COMMAND_USER)

    def invoke(self, arg, from_tty):
        function, variable, count = arg.split()
        insns = instructions(function)
        first, last = insns[0][0], insns[-1][0]
        for _ in range(self.TRIES):
            stop = gdb.Breakpoint(f"*{first:#x}")
            gdb.execute("continue", to_string=True)
            stop.delete()
            watch = gdb.Breakpoint(variable, gdb.BP_WATCHPOINT, gdb.WP_WRITE)
            at = self.step_to_write(watch, first, last, int(count))
            watch.delete()
            if at is not None:
                break
        else:
            print(f"mx-step-watched: no step wrote {variable} in {self.TRIES} "
                  f"entries of {function}")
            return
        where = gdb.newest_frame().name()
        if not first <= at <= last:
            print(f"mx-step-watched: the step that wrote {variable} stopped at "
                  f"{at:#x} ({where}), not in {function}")
            return
        print(f"mx-step-watched: the step that wrote {variable} stopped at "
              f"{at:#x} in {function}")

    @staticmethod
    def step_to_write(watch, first, last, count):
        """The pc where a stepi hit watch, or None once pc left first..last
        (a call: this CPU does not write it) or after count steps."""
        for _ in range(count):
            hits = watch.hit_count
            gdb.execute("stepi", to_string=True)
            at = pc()
            if watch.hit_count > hits:
                return at
            if not first <= at <= last:
                return None
        return None


StepWatched()


class Hits(gdb.Command):
    """mx-check-hits FUNCTION EXPR FIRST LAST: continue from where the
    kernel stands, with a breakpoint or watchpoint that stops it in
    FUNCTION each time EXPR has grown by one: each stop, until EXPR is
    LAST, must be in FUNCTION with EXPR one more than at the one before,
    from FIRST (a skipped value is a hit the stub lost)."""

    def __init__(self):
        super().__init__("mx-check-hits", gdb.COMMAND_USER)

    def invoke(self, arg, from_tty):
        function, name, first, last = arg.split()
        for want in range(int(first), int(last) + 1):
            gdb.execute("continue", to_string=True)
            where = gdb.selected_frame().name()
            got = int(gdb.parse_and_eval(name)) if where == function else None
            if got != want:
                print(f"mx-hits: a stop in {where} with {name} = {got}, "
                      f"not in {function} with {want}")
                return
        print(f"mx-hits: {name} = {first} to {last} in {function}, none lost")


Hits()


class StepInto(gdb.Command):
    """mx-check-step-into FUNCTION CALLEE N: stop at FUNCTION's call of
    CALLEE, step into it, then N stepi more there: each must stop. On
    ARM the stop ran CALLEE (kgdb_sync_hw_breakpoints, which the tick's
    kgdb_poll_break calls) after the step's breakpoint had gone into it,
    trapped there, and gdb waited for ever."""

    def __init__(self):
        super().__init__("mx-check-step-into", gdb.COMMAND_USER)

    def invoke(self, arg, from_tty):
        function, callee, count = arg.split()
        calls = [a for a, text in instructions(function) if f"<{callee}>" in text]
        if not calls:
            print(f"mx-step-into: no call of {callee} in {function}")
            return
        stop = gdb.Breakpoint(f"*{calls[0]:#x}")
        gdb.execute("continue", to_string=True)
        stop.delete()
        gdb.execute("stepi", to_string=True)
        # By address: gdb names an inlined helper at the first instruction.
        entry = int(gdb.parse_and_eval(f"(unsigned long)&{callee}"))
        if pc() != entry:
            print(f"mx-step-into: the stepi at the call stopped at {pc():#x}, "
                  f"not at {callee} ({entry:#x})")
            return
        gdb.execute(f"stepi {count}", to_string=True)
        print(f"mx-step-into: into {callee} from {function} and {count} stepi "
              f"more, at {pc():#x}")


StepInto()
