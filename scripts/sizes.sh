#!/bin/sh
# make sizes: static figures of the mutex code, per build of one arch.
#   - the instructions of mutex_lock and mutex_unlock up to their first
#     return (the fastpath), from the disassembly
#   - the size of the .text section of kernel/locking/mutex.o (size(1)'s
#     "text" would add .eh_frame, which the link discards, and strings)
#   - sizeof(struct mutex), sizeof(struct semaphore), sizeof(struct completion)
# Usage: scripts/sizes.sh ARCH CROSS_PREFIX BUILD_DIR...
# Prints the disassembly, then one machine-readable line per build:
#   sizes: arch=i386 build=native lock_insns=2 unlock_insns=2 mutex_text=757 ...
# (build: the folder's name less the arch, CONF options included)
set -e
arch=$1 cross=$2
shift 2

# Instructions from the symbol to the first return, the return not counted.
fastpath() {
	${cross}objdump -d --no-show-raw-insn "$1" |
		awk -v fn="<$2>:" '
		$2 == fn { on = 1; next }
		on && /^$/ { exit }
		on {
			sub(/^ *[0-9a-f]+:\t/, "")
			print "\t" $0 > "/dev/stderr"
			if ($0 ~ /^(ret|bx[ \t]+lr|pop[ \t]+\{.*pc\}|ldm.*pc)/) exit
			n++
		}
		END { print n + 0 }'
}

sizeof() {
	gdb-multiarch -batch -ex "print sizeof(struct $2)" "$1" 2>/dev/null |
		sed -n 's/^\$1 = //p'
}

for dir in "$@"; do
	build=${dir##*/}
	build=${build#"$arch"-}
	elf=$dir/kernel.elf
	echo "== $arch $build: mutex_lock ==" >&2
	lock=$(fastpath "$elf" mutex_lock)
	echo "== $arch $build: mutex_unlock ==" >&2
	unlock=$(fastpath "$elf" mutex_unlock)
	text=$(${cross}objdump -h "$dir/kernel/locking/mutex.o" |
		awk '$2 == ".text" { print $3 }')
	text=$((0x$text))
	echo "sizes: arch=$arch build=$build lock_insns=$lock" \
		"unlock_insns=$unlock mutex_text=$text" \
		"sizeof_mutex=$(sizeof "$elf" mutex)" \
		"sizeof_semaphore=$(sizeof "$elf" semaphore)" \
		"sizeof_completion=$(sizeof "$elf" completion)"
done
