#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# mess export end to end, checked the way each consumer reads the files:
#  - the Mess simulator's loader (awk below: bwlat_0 ... bwlat_100 opened by
#    position, a descending search, ns) on a quick run's export;
#  - PROFET's curves.json (cycles at --ghz) read back through our reader
#    and compared with the ns the mess format holds;
#  - the CSV in the Mess-Results layout read back as a set.
# usage: tests/export.sh MESS
set -u
mess=$1
ref=${MESS_REFERENCE:-$(dirname "$0")/../../shared/reference/mess-results}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0 fail=0
check() {
	if eval "$2"; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL: $1"; fi
}

# The simulator's lookup, without its smoothing: for each even share, bandwidths
# from 0 to the file's maximum; every answer a latency between the lowest and
# the highest of all files.
simulate() {
	awk '
	FNR == 1 { f++; n[f] = 0 }
	{ n[f]++; bw[f, n[f]] = $1; lat[f, n[f]] = $2
	  if (!(f in mx) || $1 > mx[f]) mx[f] = $1
	  if (!(f in ml) || $2 > ml[f]) ml[f] = $2
	  if (lo == "" || $2 < lo) lo = $2; if ($2 > hi) hi = $2 }
	END {
		if (f != 51) { print "files: " f; exit 1 }
		for (i = 1; i <= f; i++) for (k = 0; k <= 40; k++) {
			q = mx[i] * k / 40
			if (q > 0.99 * mx[i]) { l = ml[i] }
			else {
				for (j = 1; j <= n[i] && bw[i, j] >= q; j++) ;
				if (j > n[i]) j = n[i]
				if (j == 1) l = lat[i, 1]
				else l = lat[i, j] + (q - bw[i, j]) / (bw[i, j - 1] - bw[i, j]) * (lat[i, j - 1] - lat[i, j])
				if (l < lo) l = lo
			}
			if (!(l >= lo && l <= hi)) { print "share " 2 * (i - 1) ": " q " MB/s -> " l; exit 1 }
		}
	}' $(for r in $(seq 0 2 100); do echo "$1/bwlat_$r.txt"; done)
}

"$mess" --quick --no-plots --buffer 32M --gen-bytes 8M --chase-ms 5 --out "$tmp/run" >/dev/null 2>&1
check "a quick run for the export" '[ -s "$tmp/run/curves.csv" ]'
check "the run's own mess/: the simulator loads all 51 shares" 'simulate "$tmp/run/mess"'
"$mess" export "$tmp/run" --out "$tmp/run-mess" 2>/dev/null
# Equal but for the rounding of curves.csv (the run exports its points
# before they are written with 4-6 decimals).
check "mess export of the run equals the run's mess/" \
	'(for r in $(seq 0 2 100); do paste -d" " "$tmp/run/mess/bwlat_$r.txt" "$tmp/run-mess/bwlat_$r.txt" |
		awk "NF!=4 {exit 1} function d(a, b) { return a > b ? a - b : b - a }
		     d(\$1, \$3) > 1e-4 * \$1 + 0.01 || d(\$2, \$4) > 1e-4 * \$2 + 0.01 {exit 1}" || exit 1; done)'

hbm=$ref/MN5-HBM-XeonMax9480-HBM2
if [ ! -s "$hbm/memory_curves.csv" ]; then
	echo "SKIPPED export of the public sets: none in $ref (set MESS_REFERENCE)"
	mkdir -p build && echo "export: no public sets in $ref" >>build/skipped.txt
	echo "export: $pass passed, $fail failed"
	[ "$fail" -eq 0 ]
	exit
fi
for f in mess profet csv json; do
	"$mess" export "$hbm" --format $f --ghz 2 --out "$tmp/hbm-$f" 2>"$tmp/err-$f"
	check "export --format $f exits 0" '[ $? -eq 0 ]'
	check "$f: nothing else a consumer picks up" \
		'[ $(ls "$tmp/hbm-$f" | grep -c -e bwlat -e "\.json$") -eq $(case $f in mess) echo 51;; csv) echo 0;; *) echo 1;; esac) ]'
	check "$f: info.txt and curve-sources.tsv" '[ -s "$tmp/hbm-$f/info.txt" ] && { [ $f = csv ] || [ $(wc -l <"$tmp/hbm-$f/curve-sources.tsv") -eq 52 ]; }'
done
check "mess: the simulator loads the reference export" 'simulate "$tmp/hbm-mess"'
check "profet: info.txt states the frequency and where it came from" \
	'grep -qx "CPU_FREQ=2.000000" "$tmp/hbm-profet/info.txt" && grep -qx "CPU_FREQ_SOURCE=--ghz" "$tmp/hbm-profet/info.txt"'
check "a run's mess/info.txt says its frequency was measured" 'grep -q "^CPU_FREQ_SOURCE=measured on the chase core" "$tmp/run/mess/info.txt"'
# PROFET in cycles back to ns through our reader: the 70% curve equals the mess one.
"$mess" export "$tmp/hbm-profet" --format json --ghz 2 --out "$tmp/back" 2>/dev/null
check "profet round trip: cycles / GHz = the ns of the mess export" \
	'diff <(awk "{print \$1, \$2}" "$tmp/hbm-mess/bwlat_70.txt" | sort -n) \
	      <(jq -r ".curves[\"70\"].points[] | \"\(.[0]) \(.[1])\"" "$tmp/back/mess-curves.json" |
		awk "{printf \"%.3f %.3f\n\", \$1, \$2}" | sort -n) >/dev/null'
check "the mess export read back keeps only its measured shares" \
	'"$mess" export "$tmp/hbm-mess" --format json --out "$tmp/back2" 2>&1 | grep -q "17 read shares measured"'
check "csv: memory_curves.csv reads back as the same set" \
	'"$mess" export "$tmp/hbm-csv" --format json --out "$tmp/back3" 2>&1 | grep -q "17 read shares measured"'
check "a cycle-based set without a frequency is refused with a line" \
	'mkdir "$tmp/p" && cp "$tmp/hbm-profet/curves.json" "$tmp/p/" && ! "$mess" export "$tmp/p" --out "$tmp/x" 2>"$tmp/e" && grep -q -- "--ghz" "$tmp/e" && [ ! -e "$tmp/x" ]'
start=$(date +%s%N)
"$mess" export "$ref/MN5-GPP-SPR8480-DDR5" --out "$tmp/t" 2>/dev/null
ms=$(( ($(date +%s%N) - start) / 1000000 ))
echo "export: DDR5 reference set to the mess format in $ms ms"
check "export takes under a second (wide bound)" '[ $ms -lt 1000 ]'
echo "export: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
