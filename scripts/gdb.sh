#!/bin/sh
# make gdb: start QEMU halted with its gdb stub on tcp::1234, then attach
# gdb-multiarch with the kernel's symbols and a breakpoint on start_kernel.
# Usage: scripts/gdb.sh ARCH SYMBOLS_ELF BOOT_IMAGE CPUS
set -e
arch=$1 elf=$2 image=$3 cpus=${4:-1}
WITH_GDB=1 scripts/check-tools.sh "$arch"

case "$arch" in
i386)	gdbarch=i386 ;;
x86_64)	gdbarch=i386:x86-64 ;;
arm)	gdbarch=arm ;;
esac

log=$(dirname "$elf")/gdb-qemu.log
scripts/run-tests.py --interactive --gdb \
	"name=gdb,arch=$arch,kernel=$image,cpus=$cpus" >"$log" 2>&1 &
qemu=$!
trap 'kill $qemu 2>/dev/null' EXIT INT TERM
sleep 1
echo "QEMU is waiting for gdb; its serial output goes to $log"
gdb-multiarch -q \
	-ex "set architecture $gdbarch" \
	-ex "file $elf" \
	-ex "target remote localhost:1234" \
	-ex "break start_kernel" \
	-ex "continue" \
	${GDB_BATCH:+-batch -ex "info registers pc" -ex "bt" -ex "kill"}
