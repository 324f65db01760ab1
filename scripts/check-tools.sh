#!/bin/sh
# Checks that the tools for building and booting the given arches are
# installed, before anything reads from them. As root it installs the
# missing Debian packages itself; otherwise it prints one apt-get line for
# everything missing and fails.
#
# Usage: scripts/check-tools.sh [--with gdb,grade,media,bench,verify] [ARCH...]
#   gdb    gdb-multiarch (make gdb, make sizes)
#   grade  bwrap, the sandbox a grade builds and boots in (make grade)
#   media  each arch's boot-media tools (GRUB ISO, SD card image)
#   bench  gnuplot for the benchmark plots
#   verify spin and a host C compiler (make verify)
#
# The per-arch tools come from arch/<arch>/arch.mk (ARCH_TOOLS,
# ARCH_MEDIA_TOOLS): "command:package" pairs, where a command given as an
# absolute path is a file that must exist.
set -e
cd "$(dirname "$0")/.."

with=""
if [ "$1" = --with ]; then
	with=$(echo "$2" | tr ',' ' ')
	shift 2
fi
[ $# -gt 0 ] || [ -n "$with" ] ||
	{ echo "usage: $0 [--with gdb,grade,media,bench,verify] [ARCH...]" >&2; exit 2; }

# The value of one fact of an arch's description, continuation lines joined.
arch_fact() {
	sed -n -e ':a' -e '/\\$/{N;s/\\\n//;ba' -e '}' \
		-e "s/^$2 *:= *//p" "arch/$1/arch.mk"
}

need="kconfig-conf:kconfig-frontends python3:python3 flock:util-linux"
for arch in "$@"; do
	[ -f "arch/$arch/arch.mk" ] || { echo "check-tools: no arch '$arch'" >&2; exit 2; }
	need="$need $(arch_fact "$arch" ARCH_TOOLS)"
	case " $with " in *" media "*)
		need="$need $(arch_fact "$arch" ARCH_MEDIA_TOOLS)" ;;
	esac
done
for extra in $with; do
	case "$extra" in
	gdb)	need="$need gdb-multiarch:gdb-multiarch" ;;
	grade)	need="$need bwrap:bubblewrap" ;;
	bench)	need="$need gnuplot:gnuplot-nox" ;;
	verify)	need="$need spin:spin gcc:gcc" ;;
	media)	;;
	*)	echo "check-tools: unknown --with '$extra' (gdb, grade, media, bench, verify)" >&2
		exit 2 ;;
	esac
done

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
	echo "Installing missing packages: $missing"
	export DEBIAN_FRONTEND=noninteractive
	apt-get update -q >/dev/null
	apt-get install -y -q $missing >/dev/null
	exit 0
fi
echo "Missing tools. Install them with:" >&2
echo "  sudo apt-get install $missing" >&2
exit 1
