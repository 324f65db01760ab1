#!/bin/sh
# Check scripts/run-tests.py without a kernel: feed it canned serial logs
# (--parse-log) and fake emulators (--emulator-cmd), and check what it
# decides.  A runner that passes a broken kernel would make every green
# "make test" meaningless, so this runs before trusting it.
#
# Usage: sh scripts/test-runner-selftest.sh     (PYTHON=... to pick python3)

runner="$(dirname "$0")/run-tests.py"
python="${PYTHON:-python3}"
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT INT TERM
passed=0
failed=0

# --- canned serial logs ---------------------------------------------------

# Everything passes; other CPUs' printk and a provoked BUG: report are
# interleaved, and some lines end in \r as a serial console may send them.
cat >"$tmp/ok.log" <<'EOF'
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
BUG: mutex released by the wrong task (provoked by the test)
    ok 1 wrong_owner_reported
    ok 2 double_unlock_reported
ok 2 mutex_debug
# mutexos: end of tests, status 0
EOF
printf 'KTAP version 1\r\n1..1\r\n    # Subtest: crlf\r\n    1..1\r\n    ok 1 only\r\nok 1 crlf\r\n# mutexos: end of tests, status 0\r\n' >"$tmp/crlf.log"

cat >"$tmp/skip.log" <<'EOF'
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
EOF

cat >"$tmp/notok.log" <<'EOF'
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
EOF

cat >"$tmp/panic.log" <<'EOF'
KTAP version 1
1..1
    KTAP version 1
    # Subtest: mutex
    1..3
    ok 1 lock_unlock
Kernel panic - not syncing: scheduling while atomic
EOF

# Cut short without any crash message: two cases and a suite never came.
cat >"$tmp/short.log" <<'EOF'
KTAP version 1
1..2
    KTAP version 1
    # Subtest: mutex
    1..3
    ok 1 lock_unlock
EOF

# --- helpers --------------------------------------------------------------

# run ARGS...: run the runner; its stdout goes to $out, its exit status to $rc.
run() {
	out=$("$python" "$runner" "$@" 2>"$tmp/stderr")
	rc=$?
}

pass() {
	passed=$((passed + 1))
	echo "ok   $1"
}

fail() {
	failed=$((failed + 1))
	echo "FAIL $1"
	printf '%s\n' "$out" | sed 's/^/     | /'
	sed 's/^/     ! /' "$tmp/stderr"
}

# expect DESC RC [PATTERN...]: the last run exited RC and printed a line
# matching each PATTERN (grep basic regex).
expect() {
	desc=$1 want=$2
	shift 2
	if [ "$rc" -ne "$want" ]; then
		fail "$desc (exit $rc, wanted $want)"
		return
	fi
	for pattern in "$@"; do
		if ! printf '%s\n' "$out" | grep -q -- "$pattern"; then
			fail "$desc (no line matching '$pattern')"
			return
		fi
	done
	pass "$desc"
}

# last_line_is DESC TEXT: the last run's final line is exactly TEXT.
last_line_is() {
	last=$(printf '%s\n' "$out" | tail -n 1)
	if [ "$last" = "$2" ]; then
		pass "$1"
	else
		fail "$1 (last line '$last', wanted '$2')"
	fi
}

fake=name=fake,arch=i386,kernel=$tmp/none,cpus=1

# --- checks ---------------------------------------------------------------

run --parse-log "$tmp/ok.log" --status 0
expect "all-ok log passes" 0 '^result: passed'
last_line_is "all-ok log: summary line" "5 passed, 0 failed"

run --parse-log "$tmp/crlf.log" --status 0
expect "lines ending in CR LF are understood" 0
last_line_is "CR LF log: summary line" "1 passed, 0 failed"

run --parse-log "$tmp/skip.log" --status 0
expect "a skipped case does not fail the run" 0
last_line_is "skipped case counted" "2 passed, 0 failed, 1 skipped"

run --parse-log "$tmp/notok.log" --status 1
expect "a 'not ok' case fails the run" 1 \
	'^result: FAILED (status 1)' '^  not ok: string.strcmp_order$' \
	'^  not ok: mutex.hangs # TIMEOUT$'
last_line_is "'not ok' log: summary line" "1 passed, 2 failed, 1 skipped"

run --parse-log "$tmp/ok.log" --status 1
expect "status 1 without any 'not ok' fails" 1 '^result: FAILED'

run --parse-log "$tmp/panic.log" --status 2
expect "a kernel panic fails the run" 1 \
	'^result: FAILED (status 2)' 'Kernel panic - not syncing'
last_line_is "panic log: missing cases counted" "1 passed, 2 failed"

run --parse-log "$tmp/short.log" --status 0
expect "a log cut short fails even with status 0" 1 \
	'1 of 3 cases reported' '1 of 2 suites never reported'
last_line_is "short log: missing cases counted" "1 passed, 3 failed"

start=$(date +%s)
run --timeout 2 --logdir "$tmp" \
	--emulator-cmd 'sh -c "echo KTAP version 1; sleep 100"' "$fake"
elapsed=$(($(date +%s) - start))
expect "a hang is killed and reported" 1 '^result: FAILED (TIMEOUT after 2s)'
if [ "$elapsed" -le 10 ]; then
	pass "the hang ended within the timeout (${elapsed}s)"
else
	fail "the hang took ${elapsed}s with --timeout 2"
fi
if grep -q 'KTAP version 1' "$tmp/fake.log"; then
	pass "the hung run's serial output is in its log"
else
	fail "the hung run's log lacks its serial output"
fi

# isa-debug-exit: QEMU exits with (s << 1) | 1, so 1 means status 0.
run --logdir "$tmp" --emulator-cmd "sh -c 'cat $tmp/ok.log; exit 1'" "$fake"
expect "x86 exit code 1 decodes to status 0" 0 '^result: passed (status 0)'

run --logdir "$tmp" --emulator-cmd "sh -c 'cat $tmp/ok.log; exit 0'" "$fake"
expect "an even x86 exit code is a failure" 1 '^result: FAILED (no status)'

run --logdir "$tmp" --emulator-cmd "sh -c 'cat $tmp/ok.log; exit 0'" \
	"name=arm,arch=arm,kernel=$tmp/none,cpus=2"
expect "arm semihosting status 0 passes" 0 '^result: passed (status 0)'

run -j 2 --logdir "$tmp" --emulator-cmd "sh -c 'cat $tmp/skip.log; exit 1'" \
	"name=one,arch=i386,kernel=$tmp/none,cpus=1" \
	"name=two,arch=x86_64,kernel=$tmp/none,cpus=4"
expect "two configurations at once" 0 '^== one (i386, 1 CPU) ==$' \
	'^== two (x86_64, 4 CPUs) ==$'
last_line_is "counts summed over configurations" "4 passed, 0 failed, 2 skipped"

run --expect-fail --parse-log "$tmp/notok.log" --status 1
expect "--expect-fail: a detected failure exits 0" 0 'expected failure'

run --expect-fail --parse-log "$tmp/ok.log" --status 0
expect "--expect-fail: a clean run exits 1" 1

run --print-cmd "name=a,arch=arm,kernel=k.img,cpus=2,append=console=ttyAMA0 quiet"
if printf '%s\n' "$out" | grep -q "maxcpus=2" &&
	! printf '%s\n' "$out" | grep -q -- "-smp"; then
	pass "arm: CPUs on the kernel command line, not -smp"
else
	fail "arm: CPUs on the kernel command line, not -smp"
fi

run --print-cmd name=b,arch=i386,kernel=k,cpus=4
expect "i386: -smp and isa-debug-exit" 0 '-smp 4' 'isa-debug-exit,iobase=0xf4'

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
