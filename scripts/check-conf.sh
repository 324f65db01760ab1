#!/bin/sh
# Checks that every CONF="CONFIG_X=v" override made it into a generated
# .config unchanged. kconfig-conf drops unknown symbols and replaces
# ill-typed or out-of-range values with the default, saying nothing that
# stops a build; here each of those is an error, before anything is built.
#
# Usage: scripts/check-conf.sh DOTCONFIG KCONFIG_LOG CONFIG_X=v...
#   KCONFIG_LOG: what kconfig-conf printed while writing DOTCONFIG
set -u
cd "$(dirname "$0")/.."
dotconfig=$1 kconfig_log=$2
shift 2
errors=0

bad() {
	echo "CONF: $1" >&2
	errors=$((errors + 1))
}

# Is X declared in any Kconfig file of the tree?
declared() {
	cat Kconfig arch/*/Kconfig | grep -Eq "^[[:space:]]*(menu)?config $1[[:space:]]*$"
}

# "range A B" of symbol X, if it has one.
kconfig_range() {
	cat Kconfig arch/*/Kconfig | awk -v sym="$1" '
		$1 ~ /^(menu)?config$/ { on = ($2 == sym) }
		on && $1 == "range" { print "allowed: " $2 " to " $3; exit }'
}

for item in "$@"; do
	name=${item%%=*}
	value=${item#*=}
	sym=${name#CONFIG_}
	case "$item" in
	CONFIG_*=*) ;;
	*)	bad "'$item' is not CONFIG_NAME=value"; continue ;;
	esac
	if ! declared "$sym"; then
		bad "unknown symbol $name (see Kconfig, or make menuconfig)"
		continue
	fi
	got=$(sed -n "s/^$name=//p" "$dotconfig")
	grep -q "^# $name is not set" "$dotconfig" && got=n
	[ "$got" = "$value" ] && continue
	why=$(grep "symbol $sym\b\|for $sym\b" "$kconfig_log" | grep -v reassigning |
		sed 's/^[^:]*:[0-9]*:warning: //' | head -n 1)
	[ -n "$why" ] || why=$(kconfig_range "$sym")
	[ -n "$why" ] || why="its type or dependencies do not allow it"
	bad "$item not taken ($why); the value would be ${got:-unset}"
done
[ $errors -eq 0 ]
