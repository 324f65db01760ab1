# SPDX-License-Identifier: GPL-2.0
"""Instructions per function of one uncontended mutex_lock() + mutex_unlock().

For docs/mutex-debug.md, "What each check costs". Boot the kernel with
bench=overhead halted under QEMU's gdb stub, then run this in gdb:

    qemu-system-i386 -kernel build/i386-debug/kernel.elf -smp 1 -m 256M \
        -append "bench=overhead overhead.secs=1" -display none -serial null \
        -accel tcg -icount shift=3,sleep=off -s -S &
    gdb-multiarch -q -batch -nx build/i386-debug/kernel.elf -x scripts/gdb/pair_steps.py

It lets the benchmark reach its mutex loop, skips the first pair (cold),
then single-steps the second from mutex_lock() until the loop is back in
control after mutex_unlock(), and prints how many instructions ran in
each function (inlined ones under their own name, as gdb sees them).
A build whose mutex_lock() is inlined into the loop (native) has no
mutex_lock frame to stop in: measure it with bench=overhead instead.
"""

import collections

import gdb

LOOP = "ns_per_pair"
MAX_STEPS = 20000


def run_to(function, times=1):
    gdb.execute(f"break {function}", to_string=True)
    for _ in range(times):
        gdb.execute("continue", to_string=True)
    gdb.execute("delete", to_string=True)


def count_pair():
    counts = collections.Counter()
    unlocked = False
    for _ in range(MAX_STEPS):
        name = gdb.selected_frame().name() or "?"
        if name == LOOP and unlocked:
            return counts
        unlocked |= name == "mutex_unlock"
        counts[name] += 1
        gdb.execute("stepi", to_string=True)
    raise gdb.GdbError(f"no return to {LOOP} within {MAX_STEPS} instructions")


gdb.execute("set pagination off")
gdb.execute("target remote :1234", to_string=True)
run_to(LOOP, 2)                 # the atomic loop, then the mutex loop
run_to("mutex_lock", 2)         # the second pair
pair = count_pair()
print(f"total {sum(pair.values())} instructions")
for function, n in pair.most_common():
    print(f"{n:6d} {function}")
gdb.execute("kill", to_string=True)
