#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# usage: tests/position.sh MESS
#
# mess position end to end on the hand-written perf fixtures of
# tests/fixtures/trace/ and the public SPR 8480+ DDR5 curves
# ($MESS_REFERENCE, read in place): the intervals must land where the hand
# computation below puts them.  Run from the repository root (make
# check-cli).
set -u
mess=$1
fx=tests/fixtures/trace
set_dir=${MESS_REFERENCE:-}/MN5-GPP-SPR8480-DDR5
pass=0 fail=0
tmp=$(mktemp -d /tmp/mess-position.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: position: $*"; }
check() { if eval "$2"; then ok; else bad "$1"; fi; }

if [ ! -f "$set_dir/memory_curves.csv" ]; then
	echo "SKIPPED position: no $set_dir/memory_curves.csv (set MESS_REFERENCE)"
	exit 0
fi

# field FILE ROW COLUMN: position.csv's column (by header name) of data row
# ROW (1 = first interval).
field() {
	awk -F, -v row="$2" -v col="$3" 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		NR == row + 1 { print $c[col] }' "$1"
}
# near A B EPS
near() { awk -v a="$1" -v b="$2" -v e="$3" 'BEGIN { d = a - b; exit !(a != "" && (d < 0 ? -d : d) <= e) }'; }

d=$tmp/pos
"$mess" position --curves "$set_dir" $fx/perf-imc-spr.csv --out "$d" >"$tmp/out" 2>"$tmp/err"
rc=$?
check "exit 0 (got $rc)" '[ $rc -eq 0 ]' || sed 's/^/    /' "$tmp/err"
check "stdout names the directory" 'grep -qx "$d" "$tmp/out"'
for f in position.csv position.md summary.json meta.json; do
	check "$f written" '[ -s "$d/$f" ]'
done
check "10 intervals" '[ "$(wc -l <"$d/position.csv")" -eq 11 ]'
check "plot drawn or its absence said" \
	'[ -s "$d/plots/position.png" ] || jq -e ".plots | startswith(\"skipped\")" "$d/meta.json" >/dev/null'

# Hand computation from the fixture (MiB as perf printed them, 1 MiB =
# 1048576 B; the interval is the difference of the end times):
#   interval 2, 1.001024118 -> 2.002068893 s: read 21984.16 + 21548.83 MiB,
#     write 6942.37 + 6804.89 MiB;
#   interval 4, 3.003110207 -> 4.004152634 s: read 54960.26 + 53871.94,
#     write 17355.87 + 17012.19;
#   interval 5, 4.004152634 -> 5.005196120 s: read 72547.62 + 71111.04,
#     write 22909.78 + 22456.12.
expect() { # ROW T0 T1 R0 R1 W0 W1
	awk -v t0="$2" -v t1="$3" -v r0="$4" -v r1="$5" -v w0="$6" -v w1="$7" 'BEGIN {
		rd = (r0 + r1) * 1048576; wr = (w0 + w1) * 1048576
		printf "%.6f %.6f\n", (rd + wr) / (t1 - t0) / 1e9, 100 * rd / (rd + wr) }'
}
set -- $(expect 2 1.001024118 2.002068893 21984.16 21548.83 6942.37 6804.89)
bw2=$1 rp2=$2
set -- $(expect 4 3.003110207 4.004152634 54960.26 53871.94 17355.87 17012.19)
bw4=$1 rp4=$2
set -- $(expect 5 4.004152634 5.005196120 72547.62 71111.04 22909.78 22456.12)
bw5=$1 rp5=$2
for i in 2 4 5; do
	eval "bw=\$bw$i rp=\$rp$i"
	got=$(field "$d/position.csv" $i bw_gbs)
	check "interval $i: $got GB/s, hand $bw" 'near "$got" "$bw" 1e-3'
	got=$(field "$d/position.csv" $i read_pct)
	check "interval $i: read share $got %, hand $rp" 'near "$got" "$rp" 1e-3'
done
# Regions, read off the 76% curve of memory_curves.csv (bandwidth_mean,
# latency_mean): its maximum bandwidth is 201.31 GB/s; the curves'
# bandwidth-0 points lie at 114.6-117.2 ns, so whichever the loader takes
# as unloaded, saturation (2x) is at 229.2-234.5 ns.
#   interval 2, 60 GB/s: 30% of 201.31, below half: low;
#   interval 4, 150 GB/s: 75% of it, latency between (145.72 GB/s,
#     165.1 ns) and (156.39, 175.6): about 169 ns, below 229: rising;
#   interval 5, 198 GB/s: between (196.13, 262.2) and (201.31, 294.0):
#     above 262 ns, beyond 234.5: saturated.
check "interval 2 low" '[ "$(field "$d/position.csv" 2 region)" = low ]'
check "interval 4 rising" '[ "$(field "$d/position.csv" 4 region)" = rising ]'
check "interval 5 saturated" '[ "$(field "$d/position.csv" 5 region)" = saturated ]'
check "interval 4 latency between 165.1 and 175.6 ns" \
	'awk -v l="$(field "$d/position.csv" 4 lat_ns)" "BEGIN { exit !(l > 165.1 && l < 175.6) }"'
check "interval 2: max bandwidth at 76% is the curve's 201.31 GB/s" \
	'near "$(field "$d/position.csv" 2 max_bw_gbs)" 201.3073 1e-3'
check "summary: the time in each region adds up to the trace" \
	'jq -e "([.regions[].seconds] | add) - .trace.duration_s | fabs < 1e-5" "$d/summary.json" >/dev/null'
check "summary: the set's path and kind" \
	'jq -e ".curves.kind == \"mess-results\" and (.curves.path | test(\"MN5-GPP-SPR8480-DDR5\"))" "$d/summary.json" >/dev/null'

# A second run into the same directory is refused, nothing overwritten.
"$mess" position --curves "$set_dir" $fx/perf-imc-spr.csv --out "$d" >/dev/null 2>"$tmp/again"
rc=$?
check "same --out refused (exit $rc)" '[ $rc -eq 1 ] && grep -q "already holds a run" "$tmp/again"'

# <not counted>: the interval is unmeasured, not zero.
d=$tmp/nc
"$mess" position --curves "$set_dir" $fx/perf-not-counted.csv --out "$d" --no-plots >/dev/null 2>"$tmp/err"
rc=$?
check "not counted: exit 0 (got $rc)" '[ $rc -eq 0 ]' || sed 's/^/    /' "$tmp/err"
check "not counted: interval 3 unmeasured, no bandwidth" \
	'[ "$(field "$d/position.csv" 3 region)" = unmeasured ] && [ -z "$(field "$d/position.csv" 3 bw_gbs)" ] && [ "$(field "$d/position.csv" 3 status)" = "not counted" ]'
check "not counted: summary lists it" \
	'jq -e ".regions.unmeasured.intervals == 1 and .trace.unmeasured[0].status == \"not counted\" and .trace.measured == 3" "$d/summary.json" >/dev/null'
check "not counted: no plot asked, none drawn" '[ ! -e "$d/plots/position.png" ]'

# likwid-perfctr's timeline: data volumes per interval, nan unmeasured.
d=$tmp/lk
"$mess" position --curves "$set_dir" $fx/likwid-timeline-mem.txt --out "$d" --no-plots >/dev/null 2>"$tmp/err"
rc=$?
check "likwid timeline: exit 0 (got $rc)" '[ $rc -eq 0 ]' || sed 's/^/    /' "$tmp/err"
# Interval 1: 45.0171 + 14.2159 GB over 1.000213 s.
check "likwid timeline: interval 1 at (45.0171 + 14.2159) / 1.000213 GB/s" \
	'near "$(field "$d/position.csv" 1 bw_gbs)" "$(awk "BEGIN { printf \"%.6f\", (45.0171 + 14.2159) / 1.000213 }")" 1e-3'
check "likwid timeline: interval 3 unmeasured" '[ "$(field "$d/position.csv" 3 region)" = unmeasured ]'
check "likwid timeline: format recorded" 'jq -e ".trace.format == \"likwid-timeline\"" "$d/summary.json" >/dev/null'

# Traffic no measured memory has (issue 34 item 9): the fixture's counts
# times 3 put its heavy intervals (about 200 GB/s) past the 76 % curve's
# 201.31 GB/s: each such interval is marked beyond_max (its % of max above
# 100 said impossible, its latency extrapolated), one warning gives the
# count and the maximum, the plot draws them apart with a key; intervals
# within the range are not marked.
awk -F, -v OFS=, '/^[0-9]/ { $2 = $2 * 3 } { print }' $fx/perf-imc-spr.csv >"$tmp/x3.csv"
d=$tmp/x3
"$mess" position --curves "$set_dir" "$tmp/x3.csv" --out "$d" >/dev/null 2>"$tmp/err"
rc=$?
check "x3 trace: exit 0 (got $rc)" '[ $rc -eq 0 ]' || sed 's/^/    /' "$tmp/err"
nb=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
	$c["bw_gbs"] != "" && $c["max_bw_gbs"] != "" && $c["bw_gbs"] + 0 > $c["max_bw_gbs"] + 0 { n++ } END { print n + 0 }' "$d/position.csv")
check "x3 trace: beyond_max marks exactly the $nb intervals past their curve's maximum" \
	'[ "$nb" -gt 0 ] && [ "$(awk -F, "NR == 1 { for (i = 1; i <= NF; i++) c[\$i] = i; next } \$c[\"beyond_max\"] == 1 { n++ } END { print n + 0 }" "$d/position.csv")" -eq "$nb" ]'
check "x3 trace: their latency is extrapolated" \
	'awk -F, "NR == 1 { for (i = 1; i <= NF; i++) c[\$i] = i; next } \$c[\"beyond_max\"] == 1 && \$c[\"lat_source\"] != \"extrapolated\" { exit 1 }" "$d/position.csv"'
check "x3 trace: one warning with the count and the curves' maximum" \
	'[ $(grep -c "warning:" "$tmp/err") -eq 1 ] && grep -q "warning: $nb of 10 intervals carry more bandwidth than the curves reached at their read share, up to [0-9.]* % of that maximum (.*the family.s maximum 240.6 GB/s)" "$tmp/err"'
check "x3 trace: position.md says impossible beside each such % of max, and why once" \
	'[ "$(grep -c "(impossible)" "$d/position.md")" -eq "$nb" ] && grep -q "Beyond the curves: $nb of 10 intervals" "$d/position.md"'
check "x3 trace: summary.json counts them" 'jq -e ".latency.beyond_max_intervals == $nb" "$d/summary.json" >/dev/null'
if [ -s "$d/plots/position.svg" ]; then
	check "x3 trace: the plot keys them apart as extrapolated" \
		'grep -q "$nb beyond the maximum: latency extrapolated" "$d/plots/position.svg"'
fi
# The maximum's label inside the plot (issue 46: the fixture's one
# interval beyond sets the line near the right edge; the label right of
# it ran under the colour box).
if [ -s "$tmp/pos/plots/position.svg" ]; then
	check "the curves' maximum labelled within the plot" \
		'python3 "$(dirname "$0")/svgfig.py" inplot "$tmp/pos/plots/position.svg" "maximum,"'
fi
check "the fixture as it is: interval 9 (210 GB/s, 104 % of its curve's 201.31) beyond, interval 5 (98 %) not" \
	'[ "$(field "$tmp/pos/position.csv" 5 beyond_max)" = 0 ] && [ "$(field "$tmp/pos/position.csv" 9 beyond_max)" = 1 ] &&
	 jq -e ".latency.beyond_max_intervals == 1" "$tmp/pos/summary.json" >/dev/null'

# The figure's title: the curves' verdict first (issue 46 item 4), the
# public set's none said as such, a replayed run's INVALID as it is.
if [ -s "$d/plots/position.svg" ]; then
	check "the figure's title: the public set's verdict, none, first" \
		'grep -q ">no verdict: x3.csv on MN5-GPP-SPR8480-DDR5<" "$d/plots/position.svg"'
	"$mess" curves --replay "$set_dir" --replay-noise 0.03 --replay-seed 2 --replay-disturb 0.2 \
		--out "$tmp/inv-replay" >/dev/null 2>&1
	"$mess" position --curves "$tmp/inv-replay" $fx/perf-imc-spr.csv --out "$tmp/pos-inv" >/dev/null 2>&1
	check "the figure's title: a replayed INVALID run's verdict first" \
		'grep -q ">INVALID: perf-imc-spr.csv on inv-replay<" "$tmp/pos-inv/plots/position.svg"'
fi

# The curves' verdict, inherited (issue 46, derived commands): a replayed
# INVALID run says so in one stderr line, in summary.json and meta.json
# (verdict, reason, the run it came from, what it means) and in
# position.md's head; the public set (no verdict) warns of nothing.
[ -d "$tmp/inv-replay" ] || "$mess" curves --replay "$set_dir" --replay-noise 0.03 --replay-seed 2 \
	--replay-disturb 0.2 --out "$tmp/inv-replay" >/dev/null 2>&1
if jq -e '.quality.verdict == "INVALID"' "$tmp/inv-replay/meta.json" >/dev/null 2>&1; then
	"$mess" position --curves "$tmp/inv-replay" $fx/perf-imc-spr.csv --out "$tmp/pos-inv2" \
		--no-plots >/dev/null 2>"$tmp/err"
	check "INVALID curves: one stderr line names the family, its verdict and 'not a result to act on'" \
		'[ "$(grep -c "is INVALID" "$tmp/err")" -eq 1 ] &&
		 grep -q "^mess position: warning: the curve family read ($tmp/inv-replay) is INVALID (.*): not a result to act on" "$tmp/err"'
	check "INVALID curves: summary.json's inherited_verdict (level, reason, the run read, its meaning)" \
		'python3 -c "
import json, sys
s = json.load(open(sys.argv[1]))[\"inherited_verdict\"]
assert s[\"verdict\"] == \"INVALID\", s
assert s[\"inherited_from\"] == sys.argv[2], s
assert s[\"reason\"] and s[\"reasons\"] >= 1, s
assert s[\"means\"].startswith(\"not a result to act on\"), s
" "$tmp/pos-inv2/summary.json" "$tmp/inv-replay"'
	check "INVALID curves: meta.json carries the same" \
		'jq -e ".inherited_verdict.verdict == \"INVALID\"" "$tmp/pos-inv2/meta.json" >/dev/null &&
		 [ "$(jq -c .inherited_verdict "$tmp/pos-inv2/meta.json")" = "$(jq -c .inherited_verdict "$tmp/pos-inv2/summary.json")" ]'
	check "INVALID curves: report.html says the verdict, inherited, whose, not 'Verdict: none'" \
		'grep -q "<h2>Verdict: INVALID, inherited</h2>" "$tmp/pos-inv2/report.html" &&
		 grep -q "the curves read, <code>$tmp/inv-replay</code>" "$tmp/pos-inv2/report.html" &&
		 ! grep -q "Verdict: none" "$tmp/pos-inv2/report.html"'
	check "INVALID curves: position.md's head says the verdict, whose, and not to act on it" \
		'grep -q "^## Verdict: INVALID, the curves.$" "$tmp/pos-inv2/position.md" &&
		 grep -q "^Inherited from the curves read, .$tmp/inv-replay.: .*For the positions: not a result to act on" "$tmp/pos-inv2/position.md"'
else
	bad "the replay with --replay-disturb 0.2 was not INVALID: the inherited verdict is untested"
fi
"$mess" position --curves "$set_dir" $fx/perf-imc-spr.csv --out "$tmp/pos-none" --no-plots >/dev/null 2>"$tmp/err"
check "no verdict in the public set: no verdict warning, summary.json says none" \
	'! grep -q "curve family read" "$tmp/err" &&
	 jq -e ".inherited_verdict.verdict == \"none\" and .inherited_verdict.means == null" "$tmp/pos-none/summary.json" >/dev/null'

# Bad input writes nothing.
"$mess" position --curves "$set_dir" $fx/perf-imc-spr.csv --read-event nomatch --out "$tmp/bad" >/dev/null 2>"$tmp/err"
rc=$?
check "unmatched --read-event: exit 1, the events listed, nothing written (exit $rc)" \
	'[ $rc -eq 1 ] && grep -q "uncore_imc_0/cas_count_read/" "$tmp/err" && [ ! -e "$tmp/bad" ]'

echo "position: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
