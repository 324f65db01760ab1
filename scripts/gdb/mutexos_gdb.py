"""gdb helpers for MutexOS: its tasks, locks and log, in gdb.

Loaded by make gdb; by hand: (gdb) source scripts/gdb/mutexos_gdb.py
  mx-ps              every task: pid, state, CPU, name, the mutex it waits for
  mx-locks [EXPR]    every held mutex (debug build), or the mutex EXPR
  mx-dmesg           the kernel's log buffer
  mx-current         the task running on the selected gdb thread
  mx-attach TARGET   target remote TARGET, with a hint when no stub answers
  $mx_current()      the same, as a value: p $mx_current()->comm
and pretty-printers for struct mutex, struct completion and struct
task_struct (p/r shows the raw structure). See docs/gdb.md.
"""

import os
import sys

import gdb

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import mx_logic  # noqa: E402  (after the path is set)


def _type(name):
    return gdb.lookup_type(name)


def _has_field(typ, name):
    return any(f.name == name for f in typ.strip_typedefs().fields())


def _offset(typ, member):
    for f in typ.strip_typedefs().fields():
        if f.name == member:
            return f.bitpos // 8
    raise gdb.GdbError(f"{typ} has no member {member}")


def list_entries(head, typ, member):
    """The typ structures on the list at head (a struct list_head value)."""
    ptr_type = typ.pointer()
    off = _offset(typ, member)
    first = head.address
    node = head["next"]
    seen = 0
    while node != first:
        yield (node.cast(gdb.lookup_type("char").pointer()) - off).cast(ptr_type)
        node = node["next"]
        seen += 1
        if seen > 100000:
            raise gdb.GdbError("list does not end: corrupt?")


def tasks():
    return list_entries(gdb.parse_and_eval("task_list"), _type("struct task_struct"),
                        "tasks")


def debug_build():
    return _has_field(_type("struct task_struct"), "blocked_on")


def comm(task):
    return task["comm"].string()


def task_label(task):
    return f"{comm(task)}/{int(task['pid'])}"


def mutex_name(lock):
    if _has_field(lock.type.target(), "name") and int(lock["name"]):
        return lock["name"].string()
    return None


def mutex_label(lock):
    name = mutex_name(lock)
    return f"{name} ({int(lock):#x})" if name else f"{int(lock):#x}"


def waiters(lock):
    return [w["ti"]["task"] for w in
            list_entries(lock["wait_list"], _type("struct mutex_waiter"), "list")]


def code_point(ip):
    """func+off (file:line) of a code address."""
    if not ip:
        return "?"
    sym = gdb.execute(f"info symbol {ip:#x}", to_string=True).strip()
    sym = sym.split(" in section")[0].replace(" + ", "+")
    sal = gdb.find_pc_line(ip - 1)      # a return address: the call before it
    if sal.symtab:
        return f"{sym} ({sal.symtab.filename}:{sal.line})"
    return sym


def clean_errors(command):
    """An invoke() that reports gdb's errors as a message of command's,
    never as a Python traceback (a corrupt list, memory that cannot be
    read, an expression that does not parse)."""
    def wrap(invoke):
        def checked(self, arg, from_tty):
            try:
                return invoke(self, arg, from_tty)
            except gdb.GdbError:
                raise
            except gdb.error as e:
                raise gdb.GdbError(f"{command}: {e}") from None
        return checked
    return wrap


def slowpath_count():
    """The count argument (atomic_t *) of the selected frame, as a mutex
    slowpath has it; None elsewhere."""
    try:
        count = gdb.selected_frame().read_var("count")
    except (gdb.error, ValueError):
        return None
    if (count.is_optimized_out or count.type.code != gdb.TYPE_CODE_PTR or
            count.type.target().name != "atomic_t"):
        return None
    return count


def mutex_of(expr):
    """The struct mutex * that expr names: a mutex, a pointer to one, or
    its count (the atomic_t a slowpath gets). Where the optimiser dropped
    expr (lock in __mutex_lock_slowpath at -O2), the frame's count."""
    try:
        val = gdb.parse_and_eval(expr)
        dropped = val.is_optimized_out
    except gdb.error as e:
        # The doc's "mx-locks lock" in a frame that has count instead.
        if expr != "lock" or slowpath_count() is None:
            raise gdb.GdbError(f"mx-locks: {e}") from None
        dropped = True
    if dropped:
        val = slowpath_count()
        if val is None:
            raise gdb.GdbError(f"mx-locks: '{expr}' is optimized out in this frame: "
                               "try it in the caller's (up)")
        gdb.write(f"('{expr}' is not there in this frame: the mutex of count, "
                  "the slowpath's argument)\n")
    typ = val.type.strip_typedefs()
    if typ.code != gdb.TYPE_CODE_PTR:
        if val.address is None:
            raise gdb.GdbError(f"mx-locks: '{expr}' has no address: give a pointer")
        val, typ = val.address, typ.pointer()
    target = typ.target()
    if target.name == "atomic_t" or target.strip_typedefs() == _type("atomic_t").strip_typedefs():
        off = _offset(_type("struct mutex"), "count")
        return (val.cast(_type("char").pointer()) - off).cast(_type("struct mutex").pointer())
    if target.strip_typedefs() != _type("struct mutex"):
        raise gdb.GdbError(f"mx-locks: '{expr}' is a {val.type}, not a struct mutex, "
                           "a pointer to one or its count")
    return val


class MxPs(gdb.Command):
    """Every task: pid, state, CPU (while running), name, the mutex it waits for."""

    def __init__(self):
        super().__init__("mx-ps", gdb.COMMAND_DATA)

    @clean_errors("mx-ps")
    def invoke(self, arg, from_tty):
        debug = debug_build()
        rows = []
        for t in tasks():
            blocked = None
            if debug and int(t["blocked_on"]):
                lock = t["blocked_on"]["lock"]
                blocked = mutex_label(lock)
                owner = lock["owner"]
                if int(owner):
                    blocked += f" held by {task_label(owner['task'])}"
            rows.append((int(t["pid"]), int(t["state"]), int(t["thread_info"]["cpu"]),
                         bool(int(t["on_cpu"])), comm(t), blocked))
        for line in mx_logic.ps_table(rows, debug):
            gdb.write(line + "\n")


def print_mutex(lock, owner_task=None):
    count = int(lock["count"]["counter"])
    gdb.write(f"{mutex_label(lock)}: count {count}")
    if owner_task is not None:
        gdb.write(f", held by {task_label(owner_task)}")
        gdb.write(f", taken at {code_point(int(lock['acquire_ip']))}")
    gdb.write("\n")
    for w in waiters(lock):
        gdb.write(f"    waiter: {task_label(w)}\n")


class MxLocks(gdb.Command):
    """Every held mutex with owner, acquisition point and waiters (debug build).

mx-locks EXPR shows the mutex EXPR (a struct mutex or a pointer to one)."""

    def __init__(self):
        super().__init__("mx-locks", gdb.COMMAND_DATA, gdb.COMPLETE_EXPRESSION)

    @clean_errors("mx-locks")
    def invoke(self, arg, from_tty):
        if arg.strip():
            lock = mutex_of(arg.strip())
            owner = None
            if debug_build() and int(lock["owner"]):
                owner = lock["owner"]["task"]
            print_mutex(lock, owner)
            return
        if not debug_build():
            raise gdb.GdbError("mx-locks: only the debug build (MUTEX=debug) knows "
                               "who holds a mutex; mx-locks EXPR shows one mutex")
        held = 0
        for t in tasks():
            for lock in list_entries(t["held_locks"], _type("struct mutex"), "held_list"):
                print_mutex(lock, t)
                held += 1
        gdb.write(f"{held} mutex{'es' if held != 1 else ''} held\n")


class MxAttach(gdb.Command):
    """target remote TARGET to the kernel's stub; if nothing answers, say
what the kernel's command line lacks (make kgdb prints this command)."""

    def __init__(self):
        super().__init__("mx-attach", gdb.COMMAND_RUNNING)

    def invoke(self, arg, from_tty):
        if not arg.strip():
            raise gdb.GdbError("mx-attach: give the stub's port: HOST:PORT or a "
                               "serial device (/dev/ttyUSB0)")
        try:
            gdb.execute(f"target remote {arg.strip()}", from_tty)
        except gdb.error as e:
            raise gdb.GdbError(
                f"mx-attach: {e}\nNo gdb stub answered at {arg.strip()}. The kernel "
                "opens its stub only with kgdb or kgdbwait on its command line: "
                "make kgdb ARCH=... boots it so; by hand, add it to QEMU's -append "
                "(or to cmdline.txt on the board).") from None


class MxDmesg(gdb.Command):
    """The kernel's log buffer, oldest line first."""

    def __init__(self):
        super().__init__("mx-dmesg", gdb.COMMAND_DATA)

    @clean_errors("mx-dmesg")
    def invoke(self, arg, from_tty):
        buf = gdb.parse_and_eval("'printk.c'::log_buf")
        end = int(gdb.parse_and_eval("'printk.c'::log_end"))
        size = buf.type.sizeof
        data = gdb.selected_inferior().read_memory(buf.address, size)
        text = mx_logic.ring_order(bytes(data), end).decode("utf-8", "replace")
        gdb.write(text if text.endswith("\n") or not text else text + "\n")


def current_task():
    size = int(gdb.parse_and_eval("thread_size"))
    sp = int(gdb.parse_and_eval("$sp"))
    ti = gdb.Value(mx_logic.thread_info_of(sp, size)).cast(
        _type("struct thread_info").pointer())
    task = ti["task"]
    # An offline CPU (a Pi's core left in the firmware's spin loop under
    # QEMU's stub) has sp 0: RAM there reads as a thread_info whose task
    # is 0, and a task at 0 whose thread_info is 0 again.
    if not int(task) or int(task["thread_info"]) != int(ti):
        raise gdb.GdbError(f"mx-current: sp {sp:#x} is on no task's stack "
                           "(a CPU that is offline, or the kernel not past "
                           "its early boot?)")
    return task


class MxCurrent(gdb.Command):
    """The task running on the selected gdb thread (from its stack pointer)."""

    def __init__(self):
        super().__init__("mx-current", gdb.COMMAND_DATA)

    @clean_errors("mx-current")
    def invoke(self, arg, from_tty):
        t = current_task()
        gdb.write(f"(struct task_struct *) {int(t):#x}  pid {int(t['pid'])} "
                  f"{comm(t)} CPU {int(t['thread_info']['cpu'])}\n")


class MxCurrentFunction(gdb.Function):
    """$mx_current(): the task_struct pointer of the selected thread's task."""

    def __init__(self):
        super().__init__("mx_current")

    def invoke(self):
        return current_task()


class MutexPrinter:
    def __init__(self, val):
        self.val = val

    def to_string(self):
        v = self.val
        owner = name = None
        if _has_field(v.type, "owner") and int(v["owner"]):
            owner = task_label(v["owner"]["task"])
        if _has_field(v.type, "name") and int(v["name"]):
            name = v["name"].string()
        n = len(list(list_entries(v["wait_list"], _type("struct mutex_waiter"), "list")))
        return "struct mutex " + mx_logic.mutex_summary(
            int(v["count"]["counter"]), owner, n, name)


class CompletionPrinter:
    def __init__(self, val):
        self.val = val

    def to_string(self):
        head = self.val["wait"]["head"]
        n = 0
        node = head["next"]
        while node != head.address and n < 100000:
            n += 1
            node = node["next"]
        return f"struct completion done = {int(self.val['done'])}, {n} waiting"


class TaskPrinter:
    def __init__(self, val):
        self.val = val

    def to_string(self):
        t = self.val
        return (f"task {task_label(t)} state {mx_logic.state_letter(int(t['state']))} "
                f"CPU {int(t['thread_info']['cpu'])}"
                f"{' running' if int(t['on_cpu']) else ''}")


PRINTERS = {"mutex": MutexPrinter, "completion": CompletionPrinter,
            "task_struct": TaskPrinter}


def _lookup(val):
    typ = val.type.strip_typedefs()
    if typ.code != gdb.TYPE_CODE_STRUCT or typ.tag not in PRINTERS:
        return None
    return PRINTERS[typ.tag](val)


MxPs()
MxAttach()
MxLocks()
MxDmesg()
MxCurrent()
MxCurrentFunction()
gdb.pretty_printers.append(_lookup)
