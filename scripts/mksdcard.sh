#!/bin/sh
# A Raspberry Pi boot card image, without root or loop devices: an MBR
# with one FAT32 partition (made and filled with mtools) holding the Pi
# boot firmware, kernel7.img, config.txt and, if a command line is given,
# cmdline.txt (the firmware passes its line to the kernel).
#
#   scripts/mksdcard.sh IMAGE FIRMWARE_DIR KERNEL7_IMG CONFIG_TXT [CMDLINE]
#   scripts/mksdcard.sh --check WORKDIR KERNEL7_IMG CONFIG_TXT
#
# --check builds an image from fake firmware files and a sample command
# line in WORKDIR and checks its partition table, its file list, and that
# config.txt, cmdline.txt and kernel7.img on it are the ones given.
set -e

SIZE_MB=64
PART_START=2048				# sectors: the partition starts at 1 MiB
FIRMWARE_FILES="bootcode.bin start.elf fixup.dat"
FIRMWARE_OPTIONAL="bcm2709-rpi-2-b.dtb"
CHECK_CMDLINE="test=mutex.* hung_task_timeout=0"

die() { echo "mksdcard: $*" >&2; exit 1; }

# The longest command line the kernel takes (include/arch.h).
COMMAND_LINE_MAX=$(sed -n 's/^#define[[:space:]]*COMMAND_LINE_MAX[[:space:]]*\([0-9]*\).*/\1/p' \
	"$(dirname "$0")/../include/arch.h")
[ -n "$COMMAND_LINE_MAX" ] || die "include/arch.h defines no COMMAND_LINE_MAX"

# A command line for cmdline.txt: one line (the firmware reads only the
# first), not longer than the kernel takes.
check_cmdline() {
	case "$1" in *"
"*) die "CMDLINE must be one line" ;; esac
	[ ${#1} -le "$COMMAND_LINE_MAX" ] ||
		die "CMDLINE has ${#1} characters; the kernel takes at most $COMMAND_LINE_MAX"
}

# A 32-bit little-endian number as four raw bytes.
le32() {
	printf "$(printf '\\%03o\\%03o\\%03o\\%03o' \
		$(($1 & 255)) $(($1 >> 8 & 255)) $(($1 >> 16 & 255)) $(($1 >> 24 & 255)))"
}

# The MBR: one partition of type 0x0c (FAT32, LBA) from PART_START to the
# end, and the 0x55AA signature. CHS fields are unused by the Pi.
write_mbr() {
	img=$1 sectors=$2
	{
		printf '\000\377\377\377\014\377\377\377'	# status, CHS, type, CHS
		le32 $PART_START
		le32 $((sectors - PART_START))
	} | dd of="$img" bs=1 seek=446 conv=notrunc status=none
	printf '\125\252' | dd of="$img" bs=1 seek=510 conv=notrunc status=none
}

make_image() {
	img=$1 fw=$2 kernel=$3 config=$4 cmdline=$5
	[ -d "$fw" ] || die "firmware folder '$fw' not found"
	for f in $FIRMWARE_FILES; do
		[ -f "$fw/$f" ] || die "$fw/$f missing (the firmware's boot/ folder has it)"
	done
	[ -f "$kernel" ] || die "$kernel missing: build with make ARCH=arm"
	[ -f "$config" ] || die "$config missing"
	check_cmdline "$cmdline"
	command -v mformat >/dev/null || die "mtools missing: apt-get install mtools"

	sectors=$((SIZE_MB * 2048))
	rm -f "$img"
	dd if=/dev/zero of="$img" bs=1M count=0 seek=$SIZE_MB status=none
	write_mbr "$img" $sectors
	part="$img@@$((PART_START * 512))"
	MTOOLS_SKIP_CHECK=1 mformat -i "$part" -F -v MUTEXOS \
		-T $((sectors - PART_START)) -h 64 -s 32 -H $PART_START ::
	for f in $FIRMWARE_FILES $FIRMWARE_OPTIONAL; do
		[ -f "$fw/$f" ] && mcopy -i "$part" "$fw/$f" "::$f"
	done
	mcopy -i "$part" "$kernel" ::kernel7.img
	mcopy -i "$part" "$config" ::config.txt
	if [ -n "$cmdline" ]; then
		printf '%s\n' "$cmdline" > "$img.cmdline"
		mcopy -i "$part" "$img.cmdline" ::cmdline.txt
		rm -f "$img.cmdline"
	fi
}

check_image() {
	work=$1 kernel=$2 config=$3
	img=$work/sdcard.img
	part="$img@@$((PART_START * 512))"
	rm -rf "$work"
	mkdir -p "$work/firmware"
	for f in $FIRMWARE_FILES $FIRMWARE_OPTIONAL; do
		echo "fake $f" > "$work/firmware/$f"
	done
	long=$(printf "%$((COMMAND_LINE_MAX + 1))s" "" | tr ' ' x)
	if (make_image "$img" "$work/firmware" "$kernel" "$config" "$long") 2>/dev/null; then
		die "check: a command line longer than $COMMAND_LINE_MAX was taken"
	fi
	make_image "$img" "$work/firmware" "$kernel" "$config" "$CHECK_CMDLINE"

	# Partition table: type 0x0c at the first entry, signature at 510.
	[ "$(od -An -tx1 -j450 -N1 "$img" | tr -d ' ')" = 0c ] ||
		die "check: partition 1 is not FAT32 (LBA)"
	[ "$(od -An -tx1 -j510 -N2 "$img" | tr -d ' ')" = 55aa ] ||
		die "check: no MBR signature"

	want=$(echo $FIRMWARE_FILES $FIRMWARE_OPTIONAL kernel7.img config.txt cmdline.txt |
		tr ' ' '\n' | sort)
	have=$(mdir -i "$part" -b :: | sed 's|^::/||' | sort)
	[ "$want" = "$have" ] ||
		die "check: files on the card: $(echo $have) (want $(echo $want))"

	mcopy -n -i "$part" ::config.txt "$work/config.txt"
	cmp -s "$work/config.txt" "$config" || die "check: config.txt differs"
	for line in kernel=kernel7.img arm_64bit=0 enable_uart=1; do
		grep -qx "$line" "$work/config.txt" ||
			die "check: config.txt lacks $line"
	done
	mcopy -n -i "$part" ::cmdline.txt "$work/cmdline.txt"
	[ "$(cat "$work/cmdline.txt")" = "$CHECK_CMDLINE" ] ||
		die "check: cmdline.txt holds '$(cat "$work/cmdline.txt")'"
	mcopy -n -i "$part" ::kernel7.img "$work/kernel7.img"
	cmp -s "$work/kernel7.img" "$kernel" || die "check: kernel7.img differs"
	mcopy -n -i "$part" ::start.elf "$work/start.elf"
	grep -qx "fake start.elf" "$work/start.elf" ||
		die "check: start.elf differs"
	echo "sdcard check: ok ($(echo $have))"
}

case "$1" in
--check)
	[ $# -eq 4 ] || die "usage: $0 --check WORKDIR KERNEL7_IMG CONFIG_TXT"
	check_image "$2" "$3" "$4" ;;
*)
	[ $# -eq 4 ] || [ $# -eq 5 ] ||
		die "usage: $0 IMAGE FIRMWARE_DIR KERNEL7_IMG CONFIG_TXT [CMDLINE]"
	make_image "$1" "$2" "$3" "$4" "$5" ;;
esac
