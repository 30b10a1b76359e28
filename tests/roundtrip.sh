#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Round trips (issue 35 item 4): every public curve set and both raw Mess
# trees exported in each consumer's format, read back by that consumer's
# own reading rules (tests/roundtrip_read.py: the Mess simulator's bwlat
# loader, PROFET's Curves() directory and JSON reader, Mess's CSV as
# pandas reads it), and compared with what was exported, within the
# consumer's rounding:
#  - mess:   51 files bwlat_0 .. bwlat_100, two numbers a line, highest
#            bandwidth first, equal to the --format json export's curves
#            (full precision, MB/s and ns) within the 3 decimals written;
#  - profet: the folder's one .json, keys int(R), [[MB/s, cycles]] sorted
#            by bandwidth: cycles / info.txt CPU_FREQ equal those ns
#            (within CPU_FREQ's 6 decimals);
#            and a --format mess folder refused by that same loader;
#  - csv:    memory_curves.csv rows keyed (read_pct_rounded, pause) equal
#            the source's rows (a public set's own memory_curves.csv, a
#            raw tree's `mess import` curves.csv) within the decimals
#            written (6; a run's latency 4).
# usage: tests/roundtrip.sh MESS
set -u
mess=$1
here=$(cd "$(dirname "$0")" && pwd)
ref=${MESS_REFERENCE:-$here/../../shared/reference/mess-results}
raw=$(dirname "$ref")/mess-results-raw
read_py=$here/roundtrip_read.py
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0 fail=0
check() {
	if eval "$2"; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL: $1"; fi
}
. "$here/reference.sh"
if [ ! -d "$ref" ]; then
	no_reference roundtrip "no public sets at $ref"
	exit 0
fi
if ! command -v python3 >/dev/null; then
	echo "SKIPPED roundtrip: no python3"
	echo "roundtrip: no python3" >>"${SKIPPED_FILE:-/dev/null}"
	exit 0
fi

# One set: every format, each read back as its consumer reads it.
# $1 a name, $2 the set, $3 the rows a csv export must give back.
trip() {
	local n=$1 set=$2 rows=$3 d=$tmp/$1 f
	mkdir -p "$d"
	for f in json mess profet csv; do
		# --force: whether a set may be exported (its verdict, its clock's
		# spread) is tests/export.sh's; here, what the consumers read.
		"$mess" export "$set" --format $f --force --out "$d/$f" 2>"$d/$f.err" ||
			{ fail=$((fail + 1)); echo "FAIL: $n: export --format $f: $(head -1 "$d/$f.err")"; return; }
	done
	check "$n: the simulator's loader reads the mess folder as the curves exported" \
		'python3 "$read_py" bwlat "$d/mess" "$d/json/mess-curves.json" >"$d/r.mess" 2>&1 || { cat "$d/r.mess"; false; }'
	check "$n: PROFET's reader reads the profet folder as the same curves, in cycles at CPU_FREQ" \
		'python3 "$read_py" profet "$d/profet" "$d/json/mess-curves.json" >"$d/r.profet" 2>&1 || { cat "$d/r.profet"; false; }'
	check "$n: PROFET's reader refuses the mess folder (it would read ns as cycles)" \
		'python3 "$read_py" not-profet "$d/mess" >"$d/r.np" 2>&1 || { cat "$d/r.np"; false; }'
	check "$n: Mess's CSV reader reads the csv export's rows as the source's" \
		'python3 "$read_py" csv "$d/csv/memory_curves.csv" "$rows" >"$d/r.csv" 2>&1 || { cat "$d/r.csv"; false; }'
	echo "roundtrip: $n: $(cat "$d/r.mess" "$d/r.profet" "$d/r.csv" 2>/dev/null | tr '\n' ' ')"
}

for s in "$ref"/*/; do
	s=${s%/}
	[ -s "$s/memory_curves.csv" ] || continue
	trip "$(basename "$s")" "$s" "$s/memory_curves.csv"
done
for t in "$raw"/*/; do
	t=${t%/}
	[ -d "$t/bw" ] || continue
	b=$(basename "$t")
	# The tree as Mess-Results keeps it (its processed/ curves) ...
	trip "$b-processed" "$t" "$t/processed/memory_curves.csv"
	# ... and as the benchmark wrote it: bw/, lat/ and plotter.txt only.
	mkdir -p "$tmp/tree-$b"
	for x in bw lat plotter.txt; do ln -s "$t/$x" "$tmp/tree-$b/$x"; done
	"$mess" import "$tmp/tree-$b" --out "$tmp/imp-$b" 2>/dev/null
	check "$b: imported" '[ -s "$tmp/imp-$b/curves.csv" ]'
	trip "$b-raw" "$tmp/tree-$b" "$tmp/imp-$b/curves.csv"
	trip "$b-import" "$tmp/imp-$b" "$tmp/imp-$b/curves.csv"
done
echo "roundtrip: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
