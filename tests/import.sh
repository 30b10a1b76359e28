#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# mess import of the raw Mess benchmark tree in ../shared/reference (its
# README), and what the suite then does with it:
#  - the run directory: curves.csv schema 4, meta.json's provenance keys;
#  - compare against the tree's own processed curves (the same machine);
#  - every export format of the imported run reloads to the same family
#    with its source and method kept (MEASURED_BY, BANDWIDTH_SOURCE, the
#    verdict), a PROFET reload counting only the measured shares;
#  - the csv export's metadata (GB/s, no curve-sources.tsv it does not
#    write, columns filled or left out with a reason);
#  - a PROFET export refuses a measured clock that spread above 5 %.
# The figures' agreement with processed/memory_curves.csv is asserted in
# tests/unit/test_load_eco.c.
# usage: tests/import.sh MESS
set -u
mess=$1
ref=${MESS_REFERENCE:-$(dirname "$0")/../../shared/reference/mess-results}
raw=$ref/../mess-results-raw/MN5-GPP-SPR8480-DDR5-AVX2-local
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0 fail=0
check() {
	if eval "$2"; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL: $1"; fi
}
if [ ! -d "$raw/bw" ]; then
	echo "import: no raw tree at $raw: skipped"
	exit 0
fi
# A member of a JSON file: json FILE EXPR (python, as the other scripts).
json() { python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print($2)" "$1"; }

"$mess" import "$raw" --out "$tmp/run" 2>"$tmp/err"
rc=$?
check "import exits 0 ($rc: $(cat "$tmp/err"))" '[ $rc -eq 0 ]'
check "one line on stderr naming the verdict" \
	'[ $(wc -l <"$tmp/err") -eq 1 ] && grep -q "51 curves, 2129 points.*verdict" "$tmp/err"'
check "curves.csv schema 4 (no distribution: its columns empty)" \
	'head -1 "$tmp/run/curves.csv" | grep -q ",remeasured,flags,lat_p50_ns,.*,fair_jain$" &&
	 ! cut -d, -f26-35 "$tmp/run/curves.csv" | tail -n +2 | grep -q "[0-9]"'
check "2129 points" '[ $(($(wc -l <"$tmp/run/curves.csv") - 1)) -eq 2129 ]'
check "meta.json provenance" \
	'[ "$(json "$tmp/run/meta.json" "d[\"bw_source\"], d[\"measured_by\"], d[\"source\"].endswith(\"AVX2-local\"), d[\"quality\"][\"verdict\"] in (\"PASS\", \"WARN\", \"INVALID\")")" = "counters Mess benchmark import True True" ]'
check "meta.json: the plotter's clock and the chase's" \
	'[ "$(json "$tmp/run/meta.json" "d[\"cpu_frequency\"][\"nominal_ghz\"], abs(d[\"cpu_frequency\"][\"measured_ghz\"] - 2.98) < 0.03")" = "2.983511 True" ]'
"$mess" import "$raw" --out "$tmp/run" 2>"$tmp/err"
check "a second import into it is refused (exit 1)" '[ $? -eq 1 ] && grep -q "not empty" "$tmp/err"'
"$mess" import "$tmp" --out "$tmp/none" 2>"$tmp/err"
check "a directory that is no tree: exit 1, one line" '[ $? -eq 1 ] && [ $(wc -l <"$tmp/err") -eq 1 ]'

# compare and export work on it
"$mess" compare "$tmp/run" "$raw" --out "$tmp/cmp" >/dev/null 2>"$tmp/err"
rc=$?
check "compare imported vs processed exits 0 ($rc)" '[ $rc -eq 0 ]'
check "compare: the import's and the processed set's maximum bandwidth agree within 2 %" \
	'json "$tmp/cmp/compare.json" "abs(d[\"sets\"][0][\"max_bw_gbs\"] / d[\"sets\"][1][\"max_bw_gbs\"] - 1) < 0.02" | grep -q True'
check "compare: the processed set is counters and Mess-Results, the import says who measured it" \
	'[ "$(json "$tmp/cmp/compare.json" "d[\"sets\"][0][\"tool\"], d[\"sets\"][1][\"kind\"], d[\"sets\"][1][\"bw_source\"]")" = "Mess benchmark import mess-results counters" ]'

# position and fleet take it like a run of mess
"$mess" position --curves "$tmp/run" "$(dirname "$0")/fixtures/trace/perf-imc-spr.csv" \
	--out "$tmp/pos" >/dev/null 2>"$tmp/err"
check "position on the imported run exits 0 ($(tail -1 "$tmp/err"))" '[ $? -eq 0 ] && [ -s "$tmp/pos/meta.json" ]'
mkdir -p "$tmp/fleet" && cp -r "$tmp/run" "$tmp/fleet/n1" && cp -r "$tmp/run" "$tmp/fleet/n2" &&
	cp -r "$tmp/run" "$tmp/fleet/n3"
"$mess" fleet "$tmp/fleet" --out "$tmp/fleet-out" --no-plots >/dev/null 2>"$tmp/err"
check "fleet of imported runs exits 0 ($(tail -1 "$tmp/err"))" '[ $? -eq 0 ]'
check "fleet: the unloaded latency said to be the lowest-bandwidth points', not a chase-only run" \
	'grep -q "^n1,.*,lowest-bandwidth points," "$tmp/fleet-out/fleet.csv"'

orig_bw=$(json "$tmp/cmp/compare.json" "d['sets'][0]['max_bw_gbs']")
for f in mess profet csv json; do
	"$mess" export "$tmp/run" --format $f --out "$tmp/ex-$f" 2>"$tmp/err-$f"
	rc=$?
	check "export --format $f exits 0 ($rc: $(tail -1 "$tmp/err-$f"))" '[ $rc -eq 0 ]'
	"$mess" compare "$tmp/ex-$f" "$tmp/run" --out "$tmp/rt-$f" >/dev/null 2>"$tmp/err"
	rc=$?
	check "$f export reloads (compare exit $rc: $(tail -1 "$tmp/err"))" '[ $rc -eq 0 ]'
	[ $rc -eq 0 ] || continue
	check "$f reload: measured by and bandwidth source kept" \
		'[ "$(json "$tmp/rt-$f/compare.json" "d[\"sets\"][0][\"tool\"], d[\"sets\"][0][\"bw_source\"]")" = "Mess benchmark import counters" ]'
	check "$f reload: the verdict kept" \
		'[ "$(json "$tmp/rt-$f/compare.json" "d[\"sets\"][0][\"verdict\"]")" = "$(json "$tmp/run/meta.json" "d[\"quality\"][\"verdict\"]")" ]'
	check "$f reload: the same family (maximum bandwidth within 1 %)" \
		'json "$tmp/rt-$f/compare.json" "abs(d[\"sets\"][0][\"max_bw_gbs\"] / $orig_bw - 1) < 0.01" | grep -q True'
	check "$f reload: no 'unknown' or 'PROFET' provenance warning" \
		'! grep -q "unknown\|PROFET" "$tmp/err"'
done
measured=$(grep -o "[0-9]* read shares measured" "$tmp/err-mess" | cut -d' ' -f1)
for f in mess profet json; do
	"$mess" export "$tmp/ex-$f" --format mess --out "$tmp/re-$f" 2>"$tmp/err"
	check "$f reload counts the $measured measured shares, not 51" \
		'grep -q ": $measured read shares measured" "$tmp/err"'
done

# csv export metadata
info=$tmp/ex-csv/info.txt
check "csv info.txt: BANDWIDTH_UNIT GB/s" 'grep -q "^BANDWIDTH_UNIT=GB/s" "$info"'
check "csv info.txt names no curve-sources.tsv" \
	'! grep -q "curve-sources.tsv (measured" "$info" && [ ! -e "$tmp/ex-csv/curve-sources.tsv" ]'
check "csv: bandwidth_std and rw_ratio filled" \
	'head -1 "$tmp/ex-csv/memory_curves.csv" | grep -q "bandwidth_std.*rw_ratio" &&
	 awk -F, "NR > 1 && (\$4 == \"\" || \$NF == \"\") { bad = 1 } END { exit bad }" "$tmp/ex-csv/memory_curves.csv"'
"$mess" export "$ref/../profet/data/bw_lat_curves/cascade_lake__DDR4_2666__local_socket" \
	--format csv --out "$tmp/cl" 2>/dev/null
check "csv of a set without spreads or load shares (PROFET's): both columns left out, said why" \
	'! head -1 "$tmp/cl/memory_curves.csv" | grep -q "bandwidth_std\|rw_ratio" &&
	 grep -q "^COLUMN_LEFT_OUT=bandwidth_std (" "$tmp/cl/info.txt" &&
	 grep -q "^COLUMN_LEFT_OUT=rw_ratio (" "$tmp/cl/info.txt"'
"$mess" export "$ref/Grace-LPDDR5" --format csv --out "$tmp/grace" 2>/dev/null
check "csv of a Mess-Results set keeps its bandwidth_std" \
	'head -1 "$tmp/grace/memory_curves.csv" | grep -q bandwidth_std &&
	 [ "$(awk -F, "NR == 3 { print (\$4 > 0) }" "$tmp/grace/memory_curves.csv")" = 1 ]'
sed -i 's/^BANDWIDTH_UNIT=.*/BANDWIDTH_UNIT=MB\/s/' "$info"
"$mess" export "$tmp/ex-csv" --out "$tmp/never" 2>"$tmp/err"
check "a csv whose info.txt says MB/s is refused with the reason" \
	'[ $? -eq 1 ] && grep -q "units contradict the metadata" "$tmp/err" && [ ! -e "$tmp/never" ]'

# the clock: a spread above 5 % is not used for cycles without --ghz/--force
cp -r "$tmp/run" "$tmp/busy"
python3 - "$tmp/busy/meta.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
d["cpu_frequency"].update(measured_ghz=0.827, measured_spread_pct=60.0)
json.dump(d, open(sys.argv[1], "w"))
PY
"$mess" export "$tmp/busy" --format profet --out "$tmp/p1" 2>"$tmp/err"
check "profet at a clock that spread 60 %: refused, one line naming the spread" \
	'[ $? -eq 1 ] && grep -c "spread 60.0 %" "$tmp/err" | grep -q "^1$" && [ ! -e "$tmp/p1" ]'
"$mess" export "$tmp/busy" --format profet --ghz 3.2 --out "$tmp/p2" 2>"$tmp/err"
check "with --ghz: exported at it, said" \
	'[ $? -eq 0 ] && grep -q "^CPU_FREQ=3.200000" "$tmp/p2/info.txt" && grep -q "CPU_FREQ=3.200 GHz (--ghz)" "$tmp/err"'
"$mess" export "$tmp/busy" --format profet --force --out "$tmp/p3" 2>"$tmp/err"
check "with --force: exported at the measured clock, said" \
	'[ $? -eq 0 ] && grep -q "^CPU_FREQ=0.827" "$tmp/p3/info.txt" && grep -q "because of --force" "$tmp/err"'
"$mess" export "$tmp/busy" --format mess --out "$tmp/p4" 2>/dev/null
check "the mess format (ns) does not care" '[ $? -eq 0 ]'

echo "import: $pass passed, $fail failed"
[ $fail -eq 0 ]
