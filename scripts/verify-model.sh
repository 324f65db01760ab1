#!/bin/sh
# Checks the mutex model, kernel/locking/mutex.pml, and the model of the
# test runner's stuck check, kernel/sched/stuck.pml, with spin (make verify).
#
# For every fastpath (dec, xchg, null; x86 and ARM are dec) it checks
#   (1) mutual exclusion and (3) count/list agreement at the end: asserts;
#   (2) no stranded waiter: no invalid end state, and the LTL formula
#       "all_done" (every task finishes);
# then the wakeup the -EINTR exit once did (not needed, spin shows), and
# it makes sure that every deliberate bug (-DBUG_...) is found.
#
# One line per check: "ok" when spin gave the expected answer, "FAILED"
# when not.  Exit status: 0 when every check is ok, 1 otherwise, 2 when
# the tools are missing.  JOBS=n runs n checks at a time (default 2).
# KEEP=1 keeps the temporary folder (pan output, trails) and prints it.
#
# POSIX sh; needs spin and a C compiler (CC, default gcc).

set -u

here=$(cd "$(dirname "$0")" && pwd) || exit 2
top=$here/..
CC=${CC:-gcc}
JOBS=${JOBS:-2}
KEEP=${KEEP:-0}

for tool in spin "$CC"; do
	if ! command -v "$tool" >/dev/null 2>&1; then
		echo "verify-model: $tool not found" >&2
		exit 2
	fi
done
for model in kernel/locking/mutex.pml kernel/sched/stuck.pml; do
	[ -r "$top/$model" ] || { echo "verify-model: no $top/$model" >&2; exit 2; }
done

tmp=$(mktemp -d "${TMPDIR:-/tmp}/mutex-verify.XXXXXX") || exit 2
cleanup() {
	if [ "$KEEP" = 1 ]; then
		echo "temporary files kept in $tmp"
	else
		rm -rf "$tmp"
	fi
}
trap cleanup 0
trap 'exit 130' INT TERM

# The checks, one a line:  name;kind;expected;spin -D options[;model]
# (model: the file checked, kernel/locking/mutex.pml when not given)
#
# kind:
#   safety  gcc -DSAFETY; pan reports assertion violations and invalid end
#           states (a task blocked for ever); stops at the first error.
#   asserts as safety, but pan -E: invalid end states are not reported,
#           so that pan goes on to the assertion a bug breaks.  The bugs
#           against (1) are also compiled with -DONLY_MUTEX, which keeps
#           only the assert of (1): the first error is then that one.
#   ltl     spin -DLTL adds the never claim of "all_done"; pan -a looks for
#           a run on which not every task finishes (a deadlock counts: pan
#           extends a finished run by stuttering).
# expected:
#   pass    pan must report "errors: 0" with the search complete;
#   other   the text pan must print (the error spin has to find).
#
# Bounds: 3 tasks, NCYCLES=2 lock/unlock cycles each, NSIGNALS=1 (the
# model's defaults).  The big checks come first so that the lanes balance.
cat >"$tmp/checks" <<'EOF'
ltl all_done, dec;ltl;pass;-DFASTPATH=DEC
ltl all_done, xchg;ltl;pass;-DFASTPATH=XCHG
safety, dec;safety;pass;-DFASTPATH=DEC
safety, xchg;safety;pass;-DFASTPATH=XCHG
safety, null;safety;pass;-DFASTPATH=NULL
ltl all_done, null;ltl;pass;-DFASTPATH=NULL
the old EINTR-exit wakeup: safety, dec;safety;pass;-DFASTPATH=DEC -DEINTR_WAKE
the old EINTR-exit wakeup: ltl, dec;ltl;pass;-DFASTPATH=DEC -DEINTR_WAKE
the old EINTR-exit wakeup can find the waiter asleep (probe 1), dec;safety;assertion violated ((nwait==0)||(state[wait_list[0]]==0));-DFASTPATH=DEC -DEINTR_WAKE -DEINTR_PROBE=1
the waiter it woke can find the lock free (probe 2), dec;asserts;assertion violated (old!=1);-DFASTPATH=DEC -DEINTR_WAKE -DEINTR_PROBE=2
the waiter it woke can find the lock held (probe 3), dec;asserts;assertion violated (old==1);-DFASTPATH=DEC -DEINTR_WAKE -DEINTR_PROBE=3
requeue at the head can pass older waiters (probe), dec;safety;assertion violated ((nwait==0)||left_from_head[me]);-DFASTPATH=DEC -DREQUEUE_PROBE
unlock sets 1 after the wakeup, under wait_lock (harmless), dec;safety;pass;-DFASTPATH=DEC -DSET_ONE_AFTER_WAKE
BUG_NONATOMIC_XCHG (1), dec;asserts;assertion violated (in_cs==1);-DFASTPATH=DEC -DBUG_NONATOMIC_XCHG -DONLY_MUTEX
BUG_NONATOMIC_XCHG (1), xchg;asserts;assertion violated (in_cs==1);-DFASTPATH=XCHG -DBUG_NONATOMIC_XCHG -DONLY_MUTEX
BUG_NONATOMIC_XCHG is no bug for null (count only under wait_lock);safety;pass;-DFASTPATH=NULL -DBUG_NONATOMIC_XCHG
BUG_XCHG_TEST (1), dec;asserts;assertion violated (in_cs==1);-DFASTPATH=DEC -DBUG_XCHG_TEST -DONLY_MUTEX
BUG_XCHG_TEST (1), xchg;asserts;assertion violated (in_cs==1);-DFASTPATH=XCHG -DBUG_XCHG_TEST -DONLY_MUTEX
BUG_XCHG_TEST (1), null;asserts;assertion violated (in_cs==1);-DFASTPATH=NULL -DBUG_XCHG_TEST -DONLY_MUTEX
BUG_NEEDS_UNLOCK_0 (3), dec;asserts;assertion violated (((count==1)&&(nwait==0))&&(wait_lock==0));-DFASTPATH=DEC -DBUG_NEEDS_UNLOCK_0
BUG_NO_WAKE (2), dec;safety;invalid end state;-DFASTPATH=DEC -DBUG_NO_WAKE
BUG_NO_WAKE (2), xchg;safety;invalid end state;-DFASTPATH=XCHG -DBUG_NO_WAKE
BUG_NO_WAKE (2), null;safety;invalid end state;-DFASTPATH=NULL -DBUG_NO_WAKE
BUG_NO_WAKE (2) found by ltl all_done, dec;ltl;acceptance cycle;-DFASTPATH=DEC -DBUG_NO_WAKE
BUG_STATE_AFTER_UNLOCK (2), dec;safety;invalid end state;-DFASTPATH=DEC -DBUG_STATE_AFTER_UNLOCK
BUG_STATE_AFTER_UNLOCK (2), xchg;safety;invalid end state;-DFASTPATH=XCHG -DBUG_STATE_AFTER_UNLOCK
BUG_STATE_AFTER_UNLOCK (2), null;safety;invalid end state;-DFASTPATH=NULL -DBUG_STATE_AFTER_UNLOCK
BUG_NO_XCHG_REPASS (2), dec;safety;invalid end state;-DFASTPATH=DEC -DBUG_NO_XCHG_REPASS
BUG_NO_XCHG_REPASS (2), xchg;safety;invalid end state;-DFASTPATH=XCHG -DBUG_NO_XCHG_REPASS
BUG_NO_XCHG_REPASS is no bug for null (unlock always wakes);safety;pass;-DFASTPATH=NULL -DBUG_NO_XCHG_REPASS
BUG_SET_ONE_AFTER_UNLOCK (2), dec;safety;invalid end state;-DFASTPATH=DEC -DBUG_SET_ONE_AFTER_UNLOCK
BUG_SET_ONE_AFTER_UNLOCK (2), null;safety;invalid end state;-DFASTPATH=NULL -DBUG_SET_ONE_AFTER_UNLOCK
stuck check, timers and tasks at one instant: no false verdict;asserts;pass;;kernel/sched/stuck.pml
stuck check, timers then tasks (the old check): a false verdict;asserts;assertion violated (streak<5);-DTWO_LOOKS;kernel/sched/stuck.pml
stuck check, a sleeper with no timer: the verdict;asserts;assertion violated (streak<5);-DNO_TIMER;kernel/sched/stuck.pml
EOF

# run_check N LINE: one check in its own folder $tmp/N; writes $tmp/N/result
run_check() {
	n=$1
	line=$2
	name=${line%%;*};	rest=${line#*;}
	kind=${rest%%;*};	rest=${rest#*;}
	expect=${rest%%;*};	defs=${rest#*;}
	model=kernel/locking/mutex.pml
	case $defs in
	*\;*)	model=${defs#*;};	defs=${defs%%;*} ;;
	esac
	dir=$tmp/$n
	mkdir -p "$dir" || return
	cp "$top/$model" "$dir/model.pml"

	# -O0: gcc -O2 takes longer on pan.c than it saves on these runs.
	# The hash table: 2^22 slots for the full searches (up to 1.6 million
	# states), 2^18 for the bug checks, which stop after a few hundred.
	opt=-O0
	if [ "$expect" = pass ]; then hash=-w22; else hash=-w18; fi
	case $kind in
	safety)	sdefs=;		cdefs=-DSAFETY;	popts= ;;
	asserts) sdefs=;	cdefs=-DSAFETY;	popts=-E ;;
	ltl)	sdefs=-DLTL;	cdefs=-DNOFAIR;	popts=-a ;;
	esac

	(
		cd "$dir" || exit 1
		# shellcheck disable=SC2086 # word splitting is wanted
		spin $sdefs $defs -a model.pml >spin.out 2>&1 &&
		$CC $opt $cdefs -w -o pan pan.c >cc.out 2>&1 &&
		./pan -m200000 $hash $popts >pan.out 2>&1
	)
	status=$?

	out=$dir/pan.out
	states=$(sed -n 's/^ *\([0-9][0-9]*\) states, stored.*/\1/p' "$out" 2>/dev/null | head -n 1)
	secs=$(sed -n 's/^pan: elapsed time \([0-9.e+-]*\) seconds.*/\1/p' "$out" 2>/dev/null | head -n 1)
	errors=$(sed -n 's/.*errors: \([0-9][0-9]*\).*/\1/p' "$out" 2>/dev/null | head -n 1)
	info="${states:-?} states, ${secs:-?} s"

	if [ ! -s "$out" ] || [ -z "$errors" ]; then
		verdict=FAILED
		why="spin, $CC or pan failed (status $status; KEEP=1 keeps $dir)"
	elif grep -q 'max search depth too small' "$out"; then
		verdict=FAILED
		why="search not complete: depth limit"
	elif [ "$expect" = pass ]; then
		if [ "$errors" = 0 ]; then
			verdict=ok
			why="no errors, $info"
		else
			verdict=FAILED
			why="unexpected: $(grep -m 1 '^pan:[0-9]' "$out")"
		fi
	elif grep -qF -- "$expect" "$out"; then
		verdict=ok
		why="spin found: $expect ($info)"
	else
		verdict=FAILED
		why="spin did not find: $expect (errors: $errors)"
	fi
	printf '%-6s %s: %s\n' "$verdict" "$name" "$why" >"$dir/result"
}

# Deal the checks round-robin into JOBS lanes, run the lanes in parallel.
start=$(date +%s)
awk -v jobs="$JOBS" -v dir="$tmp" \
	'NF { print NR "\t" $0 > (dir "/lane" ((NR - 1) % jobs)) }' "$tmp/checks"
lane=0
while [ "$lane" -lt "$JOBS" ]; do
	if [ -f "$tmp/lane$lane" ]; then
		(
			while IFS='	' read -r n line; do
				run_check "$n" "$line"
			done <"$tmp/lane$lane"
		) &
	fi
	lane=$((lane + 1))
done
wait
end=$(date +%s)

# Report in the order of the list.
total=0
failed=0
n=0
while IFS= read -r line; do
	[ -n "$line" ] || continue
	n=$((n + 1))
	total=$((total + 1))
	if [ -s "$tmp/$n/result" ]; then
		cat "$tmp/$n/result"
		grep -q '^ok ' "$tmp/$n/result" || failed=$((failed + 1))
	else
		printf 'FAILED %s: no result\n' "${line%%;*}"
		failed=$((failed + 1))
	fi
done <"$tmp/checks"

echo "$((total - failed)) of $total checks ok, $((end - start)) s wall ($JOBS at a time)"
[ "$failed" -eq 0 ]
