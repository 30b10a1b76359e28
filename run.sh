#!/usr/bin/env bash
# Characterise this machine's memory system: bandwidth-latency curve
# families (the Mess method), or with "absorb" the noise-absorption tables,
# with "ladder" the latency ladder.
# Installs what it needs when run as root, builds the suite, then runs it.
# With no argument: the curves, then a quick absorption table.  With
# arguments, the harness gets them all (./run.sh --help and ./run.sh absorb
# --help list them; --quick is the smoke run of either).
set -euo pipefail
cd "$(dirname "$0")"

# The run set of tools/debian-packages.txt: installed as root, else the
# apt-get line to run and exit 1.
tools/deps.sh run

make -s -j"$(nproc)" >&2
mess=$(make -s print-mess)
[ $# -gt 0 ] && exec "$mess" "$@"

# No arguments: the default characterisation, curves then a quick
# absorption table, in one directory.
out="results/$(uname -n)-$(date -u +%Y%m%dT%H%M%SZ)"
# Exit 3: that part cannot run on this machine (it says why); go on.
"$mess" --out "$out" || { rc=$?; [ $rc -eq 3 ] || exit $rc; }
"$mess" absorb --quick --out "$out/absorb" || { rc=$?; [ $rc -eq 3 ] || exit $rc; }
# The curves' page again, now that it can link the absorption table's.
"$mess" report --no-plots "$out" >/dev/null || true
echo "run.sh: curves in $out, absorption table in $out/absorb; open $out/report.html" >&2
