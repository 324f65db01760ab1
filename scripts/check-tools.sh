#!/bin/sh
# Checks that the tools a build of ARCH needs are installed. As root it
# installs the missing Debian packages itself; otherwise it prints the exact
# apt-get line and fails.
set -e
arch=${1:-i386}

# command:package pairs (a path instead of a command: that file must exist)
need="kconfig-conf:kconfig-frontends python3:python3"
case "$arch" in
i386|x86_64)
	need="$need i686-linux-gnu-gcc:gcc-i686-linux-gnu"
	need="$need x86_64-linux-gnu-gcc:gcc"
	need="$need qemu-system-x86_64:qemu-system-x86"
	need="$need qemu-system-i386:qemu-system-x86" ;;
arm)
	need="$need arm-none-eabi-gcc:gcc-arm-none-eabi"
	need="$need qemu-system-arm:qemu-system-arm mcopy:mtools" ;;
esac
[ "${WITH_GDB:-0}" = 1 ] && need="$need gdb-multiarch:gdb-multiarch"
[ "${WITH_ISO:-0}" = 1 ] && need="$need grub-mkrescue:grub-common /usr/lib/grub/i386-pc:grub-pc-bin xorriso:xorriso mformat:mtools"
[ "${WITH_BENCH:-0}" = 1 ] && need="$need gnuplot:gnuplot-nox"

missing=""
for pair in $need; do
	cmd=${pair%%:*}
	pkg=${pair#*:}
	case "$cmd" in
	/*) [ -e "$cmd" ] || missing="$missing $pkg" ;;
	*) command -v "$cmd" >/dev/null 2>&1 || missing="$missing $pkg" ;;
	esac
done
[ -z "$missing" ] && exit 0
missing=$(echo $missing | tr ' ' '\n' | sort -u | tr '\n' ' ')

if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
	echo "Installing missing packages:$missing"
	export DEBIAN_FRONTEND=noninteractive
	apt-get update -q >/dev/null
	apt-get install -y -q $missing >/dev/null
	exit 0
fi
echo "Missing tools. Install them with:" >&2
echo "  sudo apt-get install $missing" >&2
exit 1
