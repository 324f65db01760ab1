#!/bin/sh
# The first build on a fresh machine, replayed (make check-build; part of
# make test). It runs make with a PATH that lacks the tools of the arch,
# so that they appear only once the tool check has "installed" them, as on
# a new machine where apt-get installs the compiler in the middle of the
# first make. A Make variable computed from a tool while the Makefile is
# read (before the check ran) would then be empty, and the link would fail
# or lack libgcc.
#
# Checked below:
#   - as root: the build installs its tools, then links a kernel with
#     libgcc's helpers in it (the stand-in installer must have been run),
#     in an empty build folder (arm) and in one already configured (i386,
#     where make does not start over after writing the configuration);
#   - as a user: make fails before building anything and prints one
#     apt-get line naming every missing package;
#   - make test as a user: one apt-get line for the tools of every arch,
#     before anything is built;
#   - a CONF override that kconfig would drop or change is an error;
#   - O= an absolute path configures there.
#
# The stand-ins: "id" says root (or not), "apt-get install" links the
# hidden tools into the PATH. Nothing is installed for real.
set -u
cd "$(dirname "$0")/.."
top=$(pwd)
work=$top/build/check-build
rm -rf "$work"
mkdir -p "$work"
failures=0

# The value of one fact of an arch's description, continuation lines joined.
arch_fact() {
	sed -n -e ':a' -e '/\\$/{N;s/\\\n//;ba' -e '}' \
		-e "s/^$2 *:= *//p" "arch/$1/arch.mk"
}

# The commands a fresh machine lacks for the arches given: the listed
# tools, everything of the cross toolchains, and kconfig-frontends.
hidden_commands() {
	for a in "$@"; do
		for pair in $(arch_fact "$a" ARCH_TOOLS) $(arch_fact "$a" ARCH_MEDIA_TOOLS); do
			case "$pair" in
			/*) ;;	# a file, not a command: nothing to hide
			*) echo "${pair%%:*}" ;;
			esac
		done
		prefix=$(arch_fact "$a" ARCH_CROSS)
		ls /usr/bin /bin | grep "^$prefix" || true
	done
	echo kconfig-conf
	echo kconfig-mconf
}

# A folder of links to every command of the machine but the hidden ones,
# plus the stand-ins. $1: the folder, $2: the uid "id -u" reports, rest:
# the arches whose tools are hidden.
make_path() {
	bin=$1 uid=$2
	shift 2
	mkdir -p "$bin"
	hidden_commands "$@" | sort -u > "$bin.hidden"
	for d in /usr/local/sbin /usr/local/bin /usr/sbin /usr/bin /sbin /bin; do
		[ -d "$d" ] && cp -sn "$d"/* "$bin"/ 2>/dev/null
	done
	(cd "$bin" && xargs rm -f < "$bin.hidden")
	rm -f "$bin/id" "$bin/apt-get"
	printf '#!/bin/sh\n[ "$1" = -u ] && { echo %s; exit 0; }\nexec /usr/bin/id "$@"\n' \
		"$uid" > "$bin/id"
	cat > "$bin/apt-get" <<EOF
#!/bin/sh
# Stand-in installer: every hidden command appears.
[ "\$1" = update ] && exit 0
echo "\$*" >> "$bin.installed"
while read -r name; do
	real=\$(PATH=/usr/local/bin:/usr/bin:/bin command -v "\$name") || continue
	ln -sf "\$real" "$bin/\$name"
done < "$bin.hidden"
EOF
	chmod +x "$bin/id" "$bin/apt-get"
}

fail() {
	echo "check-build: FAILED: $*"
	failures=$((failures + 1))
}

# Does the kernel hold code from the toolchain's libgcc (the helpers for
# 64-bit division and the like that a freestanding kernel links in)?
has_libgcc() {
	cross=$(arch_fact "$1" ARCH_CROSS)
	libgcc=$("${cross}gcc" $(arch_fact "$1" ARCH_CFLAGS) -print-libgcc-file-name)
	"${cross}nm" --defined-only "$libgcc" 2>/dev/null | awk '$2 == "T" { print $3 }' |
		sort -u > "$work/libgcc-$1"
	"${cross}nm" "$2" | awk '{ print $3 }' | sort -u | comm -12 - "$work/libgcc-$1" | grep -q .
}

# $1: the arch; $2: "fresh" (an empty build folder) or "configured" (the
# configuration exists already, so make reads it without starting over:
# a tool-derived variable computed while parsing would stay empty).
check_root_build() {
	arch=$1 how=$2
	dir=$work/root-$arch-$how
	make_path "$dir/bin" 0 "$arch"
	if [ "$how" = configured ]; then
		make --no-print-directory ARCH="$arch" O="${dir#$top/}/build" \
			"${dir#$top/}/build/include/config/auto.conf" > "$dir/config.log" 2>&1 ||
			{ fail "$arch: configuring failed (log: $dir/config.log)"; return; }
	fi
	env PATH="$dir/bin" make --no-print-directory -j2 ARCH="$arch" \
		O="${dir#$top/}/build" all > "$dir/make.log" 2>&1
	code=$?
	if [ ! -s "$dir/bin.installed" ]; then
		fail "$arch ($how): the tool check did not install the missing tools (log: $dir/make.log)"
	elif [ $code -ne 0 ]; then
		fail "$arch ($how): the first build with the tools missing failed (log: $dir/make.log)"
	elif has_libgcc "$arch" "$dir/build/kernel.elf"; then
		echo "check-build: $arch ($how build folder): the build installed its tools and linked libgcc"
	else
		fail "$arch ($how): $dir/build/kernel.elf holds nothing of libgcc"
	fi
}

check_user_build() {
	arch=$1
	dir=$work/user-$arch
	make_path "$dir/bin" 1000 "$arch"
	env PATH="$dir/bin" make --no-print-directory ARCH="$arch" \
		O="build/check-build/user-$arch/build" all > "$dir/make.log" 2>&1
	code=$?
	lines=$(grep -c 'apt-get install' "$dir/make.log")
	if [ $code -eq 0 ]; then
		fail "$arch: make succeeded as a user without the tools"
	elif [ "$lines" != 1 ]; then
		fail "$arch: $lines apt-get lines instead of one (log: $dir/make.log)"
	elif [ -e "$dir/build/.config" ]; then
		fail "$arch: make configured the build before the tools were there"
	else
		echo "check-build: $arch: without root, one install line: $(grep 'apt-get install' "$dir/make.log" | sed 's/^ *//')"
	fi
}

check_user_test() {
	dir=$work/user-test
	arches=$(ls arch/*/arch.mk | sed 's|arch/\(.*\)/arch.mk|\1|')
	make_path "$dir/bin" 1000 $arches
	env PATH="$dir/bin" make --no-print-directory test > "$dir/make.log" 2>&1
	code=$?
	line=$(grep 'apt-get install' "$dir/make.log")
	ok=1
	for a in $arches; do
		for pair in $(arch_fact "$a" ARCH_TOOLS); do
			echo "$line" | grep -qw -- "${pair#*:}" || ok=0
		done
	done
	if [ $code -eq 0 ]; then
		fail "make test succeeded as a user without the tools"
	elif [ "$(grep -c 'apt-get install' "$dir/make.log")" != 1 ] || [ $ok = 0 ]; then
		fail "make test: not one install line for every arch (log: $dir/make.log)"
	elif grep -q '  CC ' "$dir/make.log"; then
		fail "make test built something before its tool check (log: $dir/make.log)"
	else
		echo "check-build: make test without root: one install line for every arch"
	fi
}

# A CONF override that kconfig would drop or change must stop make before
# anything is built, with a message naming it, and leave no build folder.
check_bad_conf() {
	for conf in CONFIG_NOPE=1 CONFIG_HZ=5000 CONFIG_HZ=abc HZ=250; do
		dir=build/check-build/conf
		make --no-print-directory ARCH=i386 O="$dir" CONF="$conf" all \
			> "$work/conf.log" 2>&1
		code=$?
		if [ $code -eq 0 ] || [ -e "$dir" ]; then
			fail "CONF=$conf was built (log: $work/conf.log)"
		elif ! grep -q "^CONF: .*${conf%%=*}" "$work/conf.log"; then
			fail "CONF=$conf: no message naming it (log: $work/conf.log)"
		fi
	done
	echo "check-build: unknown symbols, bad values and bad syntax in CONF are refused"
}

# A goal that reads no configuration (help, test, grade, ...) sees short
# object lists: it must not write them into a configured build folder,
# or the next build relinks the kernel, maybe under a running boot.
check_objects_kept() {
	dir=$work/root-i386-configured/build
	if [ ! -f "$dir/.objects" ]; then
		fail "no configured i386 build folder to check its object list"
		return
	fi
	cp "$dir/.objects" "$work/objects.before"
	for goal in help print-builddir; do
		make --no-print-directory ARCH=i386 O="${dir#$top/}" $goal > /dev/null 2>&1
	done
	if cmp -s "$dir/.objects" "$work/objects.before"; then
		echo "check-build: goals that read no configuration leave the object list alone"
	else
		fail "make help or print-builddir rewrote $dir/.objects"
	fi
}

# O= may name a folder anywhere (docs/design.md, "The build"): kconfig,
# which runs in the build folder, once took it as relative to the tree.
check_absolute_o() {
	dir=$work/absolute-o
	if make --no-print-directory ARCH=i386 O="$dir" "$dir/include/config/auto.conf" \
		> "$work/absolute-o.log" 2>&1 && [ -s "$dir/.config" ] &&
		[ -f "$dir/include/generated/autoconf.h" ]; then
		echo "check-build: O= an absolute path configures there"
	else
		fail "O=$dir: no configuration there (log: $work/absolute-o.log)"
	fi
}

check_bad_conf
check_absolute_o
# Two full builds, one of each kind: what differs between the arches is
# their tool lists, which check_user_test checks for every arch without
# a build, and their links, which make test's own builds check. Each full
# build costs about 16 s of host CPU; five were a tenth of make test's.
check_root_build i386 configured
check_root_build arm fresh
check_objects_kept
check_user_build i386
check_user_test

[ $failures -eq 0 ] || exit 1
echo "check-build: ok"
