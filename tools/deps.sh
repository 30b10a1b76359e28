#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# usage: tools/deps.sh run|check
#
# The Debian packages of one set of tools/debian-packages.txt (check
# includes run): as root, installs the missing ones; otherwise prints the
# one apt-get line that would and exits 1.  For check, as root, it also
# adds a deb-src line when there is none: the foreign-ISA tests build
# static cmocka, hwloc, libnuma and jansson from Debian's sources
# (tools/cross-deps.sh), since bookworm has no riscv64 packages.
#
# Off Debian (no dpkg-query) it checks nothing: the build says what lacks.
# Exit status: 0 all there (or installed), 1 missing and not root, 2 usage.
set -euo pipefail

want=${1:-}
case $want in
run | check) ;;
*)
	echo "usage: $0 run|check" >&2
	exit 2
	;;
esac
list=$(dirname "$0")/debian-packages.txt

command -v dpkg-query >/dev/null 2>&1 || exit 0

# The packages of the set: run's for run, all for check.
pkgs=$(sed 's/#.*//' "$list" | awk -v want="$want" \
	'NF >= 2 && ($2 == "run" || want == "check") { print $1 }')
missing=$(for p in $pkgs; do
	dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null |
		grep -q 'install ok installed' || echo "$p"
done | tr '\n' ' ')
missing=${missing% }

root=
[ "$(id -u)" = 0 ] && root=1

has_deb_src() {
	grep -rqs '^Types:.*deb-src' /etc/apt/sources.list.d/ ||
		grep -qs '^deb-src' /etc/apt/sources.list
}

update=
if [ "$want" = check ] && ! has_deb_src; then
	if [ -n "$root" ]; then
		echo "deps.sh: adding a deb-src line (/etc/apt/sources.list.d/mess-deb-src.sources)" >&2
		cat >/etc/apt/sources.list.d/mess-deb-src.sources <<'SRC'
Types: deb-src
URIs: http://deb.debian.org/debian
Suites: bookworm
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
SRC
		update=1
	else
		# Not fatal: the foreign ISAs' tests then report SKIPPED.
		echo "deps.sh: no deb-src line in /etc/apt: the foreign-ISA tests will be skipped (run $0 check as root to add one)" >&2
	fi
elif [ "$want" = check ] && [ -n "$root" ] &&
	! apt-cache showsrc cmocka 2>/dev/null | grep -q '^Version:'; then
	# A deb-src line whose index was never fetched.
	update=1
fi

[ -n "$missing" ] || [ -n "$update" ] || exit 0
if [ -z "$root" ]; then
	echo "deps.sh: missing Debian packages; as root run:" >&2
	echo "apt-get install -y $missing" >&2
	exit 1
fi
export DEBIAN_FRONTEND=noninteractive
apt-get update -q >&2
[ -n "$missing" ] || exit 0
echo "deps.sh: installing $missing" >&2
# shellcheck disable=SC2086
apt-get install -y -q --no-install-recommends $missing >&2
