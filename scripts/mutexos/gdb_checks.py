"""Commands that make test's gdb check (kgdb.py) runs inside gdb.

Not for users: the helpers are scripts/gdb/.  Each prints one line that
kgdb.py matches.
"""

import re

import gdb

BRANCH_TO = re.compile(r"^b(?:eq|ne|cs|cc|mi|pl|vs|vc|hi|ls|ge|lt|gt|le)?\s+(0x[0-9a-f]+)")


def instructions(function):
    """(address, text) of function's instructions."""
    start = int(gdb.parse_and_eval(f"(unsigned long)&{function}"))
    block = gdb.block_for_pc(start)
    while block.function is None:
        block = block.superblock
    arch = gdb.selected_frame().architecture()
    return [(i["addr"], i["asm"]) for i in arch.disassemble(start, block.end - 1)]


def exclusive_loop(function):
    """The first ldrex of function, its strex, and the branch that retries."""
    insns = instructions(function)
    ldrex = next(a for a, text in insns if text.startswith("ldrex"))
    strex = next(a for a, text in insns if a > ldrex and text.startswith("strex"))
    retry = next(a for a, text in insns if a > strex and
                 (m := BRANCH_TO.match(text)) and int(m.group(1), 16) == ldrex)
    return ldrex, strex, retry


class StepExclusive(gdb.Command):
    """mx-check-step-exclusive FUNCTION N: stop at FUNCTION's first ldrex,
    then stepi up to N times until pc leaves its retry loop."""

    def __init__(self):
        super().__init__("mx-check-step-exclusive", gdb.COMMAND_USER)

    def invoke(self, arg, from_tty):
        function, count = arg.split()
        ldrex, strex, retry = exclusive_loop(function)
        stop = gdb.Breakpoint(f"*{ldrex:#x}")
        gdb.execute("continue", to_string=True)
        stop.delete()
        interrupts = interrupt_frames()     # the tick may have stopped there
        pcs = []
        for step in range(1, int(count) + 1):
            gdb.execute("stepi", to_string=True)
            pcs.append(int(gdb.parse_and_eval("(unsigned long)$pc")))
            if not ldrex <= pcs[-1] <= retry:
                break
        else:
            print(f"mx-step: still in {ldrex:#x}..{retry:#x} after {count} stepi: "
                  + " ".join(f"{pc:#x}" for pc in pcs[-6:]))
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
