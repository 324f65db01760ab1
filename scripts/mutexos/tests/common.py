"""What the tests share: the source tree, its arches, canned serial logs."""

import os

from mutexos import arches
from mutexos.ktap import KtapParser
from mutexos.verdict import Result

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__)))))
ARCHES = arches.load_all(ROOT)


def write(path, text):
    """Write the file path, and the folders it needs."""
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)

# Everything passes; other CPUs' printk and a provoked BUG: report are
# interleaved, as they are on a real serial line.
OK_LOG = """\
KTAP version 1
1..2
    KTAP version 1
    # Subtest: string
    1..3
    ok 1 strlen_basic
CPU1: idle
    ok 2 strcmp_order
    ok 3 strstr_empty
ok 1 string
    KTAP version 1
    # Subtest: mutex_debug
    1..2
# expected report follows
BUG: mutex released by the wrong task (provoked by the test)
 backtrace ...
# expected report ends
    ok 1 wrong_owner_reported
    ok 2 double_unlock_reported
ok 2 mutex_debug
# mutexos: end of tests, status 0
"""

CRLF_LOG = ("KTAP version 1\r\n1..1\r\n    # Subtest: crlf\r\n    1..1\r\n"
            "    ok 1 only\r\nok 1 crlf\r\n# mutexos: end of tests, status 0\r\n")

SKIP_LOG = """\
KTAP version 1
1..1
    KTAP version 1
    # Subtest: string
    1..3
    ok 1 strlen_basic
    ok 2 strcmp_order
    ok 3 strstr_empty # SKIP not on this arch
ok 1 string
# mutexos: end of tests, status 0
"""

NOT_OK_LOG = """\
KTAP version 1
1..2
    KTAP version 1
    # Subtest: string
    1..3
    # string_test.c:42: EXPECTATION FAILED: expected 'a' == 'b' (got 1 and 2)
    ok 1 strlen_basic
    not ok 2 strcmp_order
    ok 3 strstr_empty # SKIP not on this arch
ok 1 string
    KTAP version 1
    # Subtest: mutex
    1..1
    not ok 1 hangs # TIMEOUT
not ok 2 mutex
# mutexos: end of tests, status 1
"""

PANIC_LOG = """\
KTAP version 1
1..1
    KTAP version 1
    # Subtest: mutex
    1..3
    ok 1 lock_unlock
Kernel panic - not syncing: scheduling while atomic
"""

# Cut short without any crash message: two cases and a suite never came.
SHORT_LOG = """\
KTAP version 1
1..2
    KTAP version 1
    # Subtest: mutex
    1..3
    ok 1 lock_unlock
"""


def parse_text(text):
    """A finished KtapParser of text."""
    parser = KtapParser()
    for line in text.splitlines(keepends=True):
        parser.feed(line)
    parser.finish()
    return parser


def judge_text(text, status, timeout=None, title="log (parsed log)", channel=None):
    """The Result of a serial log as if QEMU had printed it; channel: the
    text of its results channel, if it had one."""
    return Result(title, parse_text(text), status, "/nonexistent/log", timeout=timeout,
                  channel=parse_text(channel) if channel is not None else None)
