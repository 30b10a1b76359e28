#!/usr/bin/env bash
# Characterise this machine's memory system: bandwidth-latency curve
# families (the Mess method), or with "absorb" the noise-absorption tables.
# Installs what it needs when run as root, builds the suite, then runs it.
# With no argument: the curves, then a quick absorption table.  With
# arguments, the harness gets them all (./run.sh --help and ./run.sh absorb
# --help list them; --quick is the smoke run of either).
set -euo pipefail
cd "$(dirname "$0")"

PKGS="make gcc libc6-dev libhwloc-dev libnuma-dev libpfm4-dev gnuplot-nox"

if command -v dpkg-query >/dev/null 2>&1; then
	missing=$(for p in $PKGS; do
		dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null |
			grep -q 'install ok installed' || echo "$p"
	done | tr '\n' ' ')
	if [ -n "${missing// /}" ]; then
		if [ "$(id -u)" = 0 ]; then
			echo "run.sh: installing $missing" >&2
			export DEBIAN_FRONTEND=noninteractive
			apt-get update -q >&2
			# shellcheck disable=SC2086
			apt-get install -y -q $missing >&2
		else
			echo "run.sh: missing Debian packages; as root run:" >&2
			echo "  apt-get install -y $missing" >&2
			exit 1
		fi
	fi
fi

make -s -j"$(nproc)" >&2
mess=$(make -s print-mess)
[ $# -gt 0 ] && exec "$mess" "$@"

# No arguments: the default characterisation, curves then a quick
# absorption table, in one directory.
out="results/$(uname -n)-$(date -u +%Y%m%dT%H%M%SZ)"
# Exit 3: that part cannot run on this machine (it says why); go on.
"$mess" --out "$out" || { rc=$?; [ $rc -eq 3 ] || exit $rc; }
"$mess" absorb --quick --out "$out/absorb" || { rc=$?; [ $rc -eq 3 ] || exit $rc; }
echo "run.sh: curves in $out, absorption table in $out/absorb" >&2
