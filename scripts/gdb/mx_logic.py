"""What the gdb helpers compute without gdb: testable on the host.

scripts/mutexos/tests/test_gdb_helpers.py checks these; mutexos_gdb.py
feeds them what it reads from the kernel.
"""

# Task states of include/sched.h and the letters ps uses for them.
STATE_LETTERS = {0: "R", 1: "S", 2: "D", 4: "T", 16: "Z", 32: "X"}

def state_letter(state):
    """ps's letter for a task state; '?' for a value no task should have."""
    return STATE_LETTERS.get(state, "?")


def ring_order(buf, end):
    """The log buffer's bytes oldest first.

    buf is the whole ring, end the number of bytes ever logged: the ring
    holds the last len(buf) of them, the oldest at end % len(buf) once it
    has wrapped.
    """
    size = len(buf)
    if end <= size:
        return bytes(buf[:end])
    start = end % size
    return bytes(buf[start:]) + bytes(buf[:start])


def thread_info_of(sp, thread_size):
    """The thread_info at the base of the stack that sp points into: the
    stack is thread_size bytes (the kernel's thread_size, THREAD_SIZE of
    the arch's asm/thread_info.h) and aligned to it."""
    return sp & ~(thread_size - 1)


def ps_table(rows, debug):
    """mx-ps's lines from (pid, state, cpu, running, name, blocked) rows."""
    lines = ["  PID S CPU NAME             BLOCKED ON"]
    for pid, state, cpu, running, name, blocked in rows:
        where = f"{cpu:>3}" if running else "  -"
        lines.append(f"{pid:>5} {state_letter(state)} {where} {name:<16} "
                     f"{blocked or '-'}")
    if not debug:
        lines.append("(the mutex a task waits for is tracked by the debug "
                     "build only: MUTEX=debug)")
    return lines


def mutex_summary(count, owner=None, waiters=0, name=None):
    """One line about a mutex: its count and what the count means."""
    meaning = {1: "unlocked", 0: "locked"}.get(count, "locked, waiters"
                                              if count < 0 else "bad count")
    text = f"count = {count} ({meaning})"
    if name:
        text = f"'{name}' {text}"
    if owner:
        text += f", owner {owner}"
    if waiters:
        text += f", {waiters} waiter{'s' if waiters > 1 else ''}"
    return text
