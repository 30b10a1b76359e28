#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# usage: tests/figures.sh MESS
#
# Figures that stand alone (issue 34 items 2, 4, 7, 10, 13), read from
# the text of their SVGs (tests/svgfig.py):
#   - a replayed run made disturbed (INVALID, its 30 % stores mix INVALID
#     as a whole): curves.svg's title carries the verdict and the host,
#     the key is in bandwidth order, no two end labels overlap (one
#     pushed off its curve's end has a leader line to it), the
#     INVALID mix is grey and dashed and none of its points ringed, the
#     "2x unloaded" label covers no point;
#   - every public set drawn by mess report: end labels by read share,
#     never glued ("50%54%"), never overlapping; the page names its
#     curves by read share, not "store unknown";
#   - one vocabulary: summary.md and report.html name a curve by its store
#     % and the read share nominal (or measured) under its own header;
#     each page points at results/README.md's Glossary;
#   - compare's key with long set names: inside the figure, holding its
#     entries (svgfig.py key); beside the plot, and the ratio figure's end
#     labels apart, on three sets two of them alike;
#   - a small real run's tails.svg: a key entry per mix, the histograms'
#     bandwidths in order, and (hist.gp on a point flagged
#     dist_disagrees) its p99 drawn apart with the key saying why; on
#     eleven mixes every key entry inside the figure, the histograms in
#     hues no mix has (issue 46 item 4);
#   - plots/absorb.gp on a row whose fitted line falls below its points
#     and whose times lie within one decade: the line stays within the
#     data, the log axis has two labels or more; the SPMXV figure says how
#     many entries it left out.
# Without gnuplot or python3 it says SKIPPED and why (exit 77).  Reads
# $MESS_REFERENCE (the Makefile exports it).
set -u
mess=$1
here=$(cd "$(dirname "$0")" && pwd)
ref=${MESS_REFERENCE:-$here/../../shared/reference/mess-results}
plots=$(cd "$(dirname "$mess")" && pwd)/share/mess/plots
out=$(mktemp -d /tmp/mess-figures.XXXXXX)
trap 'rm -rf "$out"' EXIT
pass=0 fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*"; }
check() { if eval "$2"; then ok; else bad "$1"; fi; }
skip() {
	echo "SKIPPED figures: $1"
	[ -n "${SKIPPED_FILE:-}" ] && echo "figures: $1" >>"$SKIPPED_FILE"
	exit 77
}
command -v gnuplot >/dev/null || skip "no gnuplot (apt-get install gnuplot-nox)"
command -v python3 >/dev/null || skip "no python3 (apt-get install python3-minimal)"
. "$here/reference.sh"
[ -d "$ref/MN5-GPP-SPR8480-DDR5" ] || { no_reference figures "no public sets in $ref (set MESS_REFERENCE)"; exit 77; }
[ -f "$plots/curves.gp" ] || skip "no staged plots/ beside $mess"
fig() { python3 "$here/svgfig.py" "$@"; }
host=$(hostname)

# ---- a disturbed replay: INVALID, 30 % stores INVALID as a whole ----
# (swept by the classic rule: this seed's disturbed points make that mix
# INVALID there, with its 15 points; the figures, not the sweep, are
# tested here)
d=$out/dist-replay
"$mess" curves --replay "$ref/MN5-GPP-SPR8480-DDR5" --replay-noise 0.03 \
	--replay-seed 2 --replay-disturb 0.2 --sweep classic --out "$d" >/dev/null 2>"$out/dist.err"
check "disturbed replay: curves.svg drawn" '[ -s "$d/plots/curves.svg" ]'
check "disturbed replay: the mix of 30 % stores is INVALID" \
	'grep -q "^| 30 | invalid |" "$d/summary.md"'
check "curves.svg: the title carries the verdict and the host" \
	'fig title "$d/plots/curves.svg" INVALID "$host"'
check "curves.svg: bandwidth order, labels apart, 30 % stores grey, 2x label clear" \
	'fig curves "$d/plots/curves.svg" 30'
# The same figure drawn again by mess report, from the run's files.
"$mess" report "$d" --peak-gbs 307.2 --out "$out/dist-report" >/dev/null 2>&1
check "mess report of the run: its curves.svg as the run's" \
	'fig title "$out/dist-report/plots/curves.svg" INVALID && fig curves "$out/dist-report/plots/curves.svg" 30'

# The comparison's figures name each set with its verdict and host.
"$mess" compare "$d" "$ref/MN5-GPP-SPR8480-DDR5" --out "$out/cmp" >/dev/null 2>"$out/cmp.err"
check "compare's figures: each set with its verdict and host in the title" \
	'fig title "$out/cmp/plots/compare.svg" "dist-replay (INVALID" "on $host)" "MN5-GPP-SPR8480-DDR5 (no verdict)"'

# Titles fitted to the width, never cut (issue 46 item 4): sets under
# long names, as a cluster's scratch paths give them.
long=$out/a-directory-name-as-long-as-a-cluster-scratch-path-makes-it/MN5-GPP-SPR8480-DDR5-measured-again-on-the-same-node-after-the-firmware-update
mkdir -p "$long"
cp "$ref/MN5-GPP-SPR8480-DDR5"/* "$long/" 2>/dev/null
"$mess" compare "$d" "$long" --out "$out/cmp-long" >/dev/null 2>"$out/cmp-long.err"
check "compare's figures: long set names wrapped, never cut" \
	'fig fits "$out/cmp-long/plots/compare.svg" && fig fits "$out/cmp-long/plots/compare-ratio.svg" && fig title "$out/cmp-long/plots/compare.svg" "firmware-update (no verdict)"'
# A set named in 136 characters (issue 46 item 4): the key's entries
# shortened so that its box stays inside the figure and holds them (an
# entry this long drew an empty box cut at the right edge).
longer=$out/k/MN5-GPP-SPR8480-DDR5-measured-again-on-the-same-node-after-the-firmware-update-and-the-bios-settings-changed-for-sub-numa-clustering-off
mkdir -p "$longer"
cp "$ref/MN5-GPP-SPR8480-DDR5"/* "$longer/" 2>/dev/null
"$mess" compare "$d" "$longer" --out "$out/cmp-longer" >/dev/null 2>"$out/cmp-longer.err"
check "compare's figures: the key inside the figure, its entries inside its box, with a 136-character set name" \
	'fig key "$out/cmp-longer/plots/compare.svg" && fig key "$out/cmp-longer/plots/compare-ratio.svg" &&
	 fig key "$out/cmp-long/plots/compare.svg"'
# Three sets, two of them alike (issue 46, seen in screenshots): the
# ratio figure's end labels ("50%60%70%" glued where the alike sets'
# ratio is 1 at the same bandwidths) never overlapping, and both
# figures' keys beside the plot (inside, the key's opaque box hid the
# first set's curves rising at the left).
"$mess" compare "$ref/MN5-GPP-SPR8480-DDR5" "$long" "$d" --out "$out/cmp3" >/dev/null 2>"$out/cmp3.err"
check "compare of three sets: the ratio's end labels apart, its key beside the plot" \
	'fig ratio "$out/cmp3/plots/compare-ratio.svg"'
check "compare of three sets: the overlay's key beside the plot, inside the figure" \
	'fig keyout "$out/cmp3/plots/compare.svg" && fig key "$out/cmp3/plots/compare.svg"'

# ---- one vocabulary: the mix names the curve, read shares labelled ----
check "summary.md: the curve named by its mix, the read share nominal apart" \
	'grep -q "^| mix (store %) | read share, nominal \[%\] | points |" "$d/summary.md" && ! grep -q "| read \[%\] |" "$d/summary.md"'
check "summary.md: 30 % stores is 76.9 % read, nominal" \
	'grep -q "^| 30 | 76.9 | 15 |" "$d/summary.md"'
check "report.html: the same headers and the nominal share of summary.md" \
	'grep -q "<th>mix (store %)</th><th>read share, nominal \[%\]</th>" "$d/report.html" && grep -q "<td class=\"n\">30</td><td class=\"n\">76.9</td>" "$d/report.html" && ! grep -q "<th>read \[%\]</th>" "$d/report.html"'
check "summary.md and report.html point at the Glossary" \
	'grep -q "Glossary of results/README.md" "$d/summary.md" && grep -q "Glossary of results/README.md" "$d/report.html"'
check "results/README.md has the Glossary" \
	'grep -q "^## Glossary" "$here/../results/README.md"'

# Eleven mixes whose ends lie within 80 ns and 1.5 GB/s (issue 46 item
# 4): no end label pushed more than four label heights from its curve's
# end (they stacked up to 98 px off), none on an "unloaded" label, every
# mix still in the key.
mkdir -p "$out/ends"
awk 'BEGIN { for (m = 0; m <= 100; m += 10) { if (m) printf "\n\n"
	for (k = 0; k < 6; k++) printf "%.2f %.1f %.2f %d 0 0\n", (k + 1) * (3 - m / 200),
		100 + k * k * (11 + m / 50), 100 / (1 + m / 100), m } }' >"$out/ends/curves.dat"
gnuplot -e "datafile='$out/ends/curves.dat'; outbase='$out/ends/curves'; unloaded=100; peak=0; plottitle='PASS: x'" \
	"$plots/curves.gp" >"$out/ends/log" 2>&1
check "curves.gp, eleven close ends: labels at their curves' ends, every mix in the key" \
	'fig curves "$out/ends/curves.svg" && [ "$(grep -c "[0-9] % stores</text>" "$out/ends/curves.svg")" -eq 11 ]'
# A label pushed off its curve's end has a leader line to it (issue 46:
# stacked two or three heights up, it read as another curve's).
check "curves.gp, eleven close ends: a leader line to each label pushed off its curve's end" \
	'fig leaders "$out/ends/curves.svg"'

# ---- every public set: labels by read share, apart, not glued ----
for s in "$ref"/*/; do
	s=${s%/}
	n=$(basename "$s")
	[ -f "$s/memory_curves.csv" ] || continue
	"$mess" report "$s" --out "$out/set-$n" >/dev/null 2>"$out/set-$n.err"
	check "$n: curves.svg end labels by read share, apart" 'fig set "$out/set-$n/plots/curves.svg"'
	check "$n: curves.svg: a leader line to each end label pushed off its curve's end" \
		'fig leaders "$out/set-$n/plots/curves.svg"'
	check "$n: the page names its curves by read share, not 'store unknown'" \
		'grep -q "<tr><td>[0-9]* % read</td>" "$out/set-$n/report.html" && ! grep -q "<td><i>unknown</i></td>" "$out/set-$n/report.html"'
done

# A raw Mess tree imported: its curves numbered 100 - share as store %,
# but the page names them by the read share the set gives.
raw=$ref/../mess-results-raw/MN5-GPP-SPR8480-DDR5-AVX2-local
if [ -d "$raw" ]; then
	"$mess" import "$raw" --out "$out/import" >/dev/null 2>"$out/import.err"
	# The import's own figure as the page: a 50 % read curve is not
	# '50 % stores' in its key or labels (issue 46 item 6).
	check "an imported tree's own figure: key and end labels by read share" \
		'fig set "$out/import/plots/curves.svg" && ! grep -q "stores</text>" "$out/import/plots/curves.svg"'
	"$mess" report "$out/import" >/dev/null 2>>"$out/import.err"
	check "an imported tree's page names its curves by read share" \
		'grep -q "<tr><td>100 % read</td>" "$out/import/report.html" && ! grep -q "<tr><td class=\"n\">0</td>" "$out/import/report.html"'
	"$mess" report "$out/import" --out "$out/import-page" >/dev/null 2>>"$out/import.err"
	check "an imported tree drawn again: its curves labelled by read share, apart" \
		'fig set "$out/import-page/plots/curves.svg"'
	# Under a long path: the title wrapped, its verdict and path whole.
	deep=$out/a-directory-name-as-long-as-a-cluster-scratch-path-makes-it/and-a-project-level/MN5-GPP-SPR8480-DDR5-AVX2-local
	mkdir -p "$(dirname "$deep")"
	cp -r "$raw" "$deep"
	"$mess" import "$deep" --out "$out/import-deep" >/dev/null 2>>"$out/import.err"
	"$mess" report "$out/import-deep" >/dev/null 2>>"$out/import.err"
	check "an imported tree under a long path: the title wrapped, never cut" \
		'fig fits "$out/import-deep/plots/curves.svg" && fig title "$out/import-deep/plots/curves.svg" PASS: "MN5-GPP-SPR8480-DDR5-AVX2-local"'
fi

# ---- tails: a small real run ----
t=$out/tails
"$mess" curves --mixes 0,50,100 --points 4 --repeats 1 --chase-ms 20 --out "$t" >/dev/null 2>"$out/tails.err"
if [ -s "$t/plots/tails.svg" ]; then
	check "tails.svg: the title carries the verdict and the host" \
		'fig title "$t/plots/tails.svg" "$(jq -r .quality.verdict "$t/meta.json")" "$host"'
	check "tails.svg: a key entry per mix, histograms in bandwidth order" 'fig tails "$t/plots/tails.svg"'
	check "curves.svg of a real run: the title carries the verdict and the host" \
		'fig title "$t/plots/curves.svg" "$(jq -r .quality.verdict "$t/meta.json")" "$host" && fig curves "$t/plots/curves.svg"'
	check "curves.svg of a real run: the memory node's kind whole in the title (cut at 40 characters before)" \
		'fig title "$t/plots/curves.svg" "memory node $(jq -r .memory_node_choice.node "$t/meta.json") ($(jq -r .memory_node_choice.kind "$t/meta.json"))"'
	# A peak given afterwards rewrites summary.md's curves from
	# curves.csv: the nominal share stays the run's (its points' median,
	# accounted, is 67.x for 50 % stores), as in summary.json.
	cp -r "$t" "$out/peak"
	"$mess" report "$out/peak" --peak-gbs 100 >/dev/null 2>&1
	check "mess report --peak-gbs: the read share nominal stays the run's" \
		'grep -q "^| 50 | 66.7 | " "$out/peak/summary.md" && grep -q "^| 50 | 66.7 | " "$t/summary.md" && [ "$(jq ".curves[] | select(.store_pct == 50) | .read_pct" "$out/peak/summary.json")" = 66.67 ]'
else
	bad "the small run drew no tails.svg: $(tail -n 3 "$out/tails.err")"
fi
# A point whose p99 lies below its mean (flagged dist_disagrees).
mkdir -p "$out/hist"
cat >"$out/hist/tails.dat" <<'EOF'
1.0 100 140 100 0 0
5.0 110 150 100 0 0
9.0 160 120 100 0 1


1.0 105 150 66.7 50 0
4.0 120 170 66.7 50 0
7.0 170 230 66.7 50 0
EOF
for k in 0 1 2; do
	printf '%s\n' "90 0.01" "100 0.05" "110 0.02" "300 0.0001" "" ""
done >"$out/hist/hist.dat"
gnuplot -e "tailfile='$out/hist/tails.dat'; histfile='$out/hist/hist.dat'; outbase='$out/hist/tails'; plottitle='WARN: cpu on $host'; histmix='0 % stores'; hl0='lowest bandwidth: nop 64, 1.0 GB/s'; hl1='mid: nop 4, 5.0 GB/s'; hl2='highest bandwidth: nop 0, 9.0 GB/s'" \
	"$plots/hist.gp" >"$out/hist/log" 2>&1
check "hist.gp: a p99 below its mean drawn apart, the key saying why" \
	'fig tails "$out/hist/tails.svg" && fig text "$out/hist/tails.svg" "p99 not trusted"'

# Eleven mixes, a point in three flagged (issue 46 item 4): every mix
# and the not-trusted entry in the key, inside the figure (it stopped at
# "60 % stores"); the histograms in hues no mix has.
mkdir -p "$out/hist11"
awk 'BEGIN { for (m = 0; m <= 100; m += 10) { if (m) printf "\n\n"
	for (k = 0; k < 15; k++) printf "%.1f %.1f %.1f %.1f %d %d\n", 5 + k * 14 * (1 - m / 250),
		100 + k * k * 1.5, (100 + k * k * 1.5) * 1.4, 100 - m / 2, m, k % 3 == 0 } }' \
	>"$out/hist11/tails.dat"
cp "$out/hist/hist.dat" "$out/hist11/"
gnuplot -e "tailfile='$out/hist11/tails.dat'; histfile='$out/hist11/hist.dat'; outbase='$out/hist11/tails'; plottitle='WARN: cpu on $host'; histmix='0 % stores'; hl0='lowest bandwidth: nop 64, 1.0 GB/s'; hl1='mid: nop 4, 5.0 GB/s'; hl2='highest bandwidth: nop 0, 9.0 GB/s'" \
	"$plots/hist.gp" >"$out/hist11/log" 2>&1
check "hist.gp, eleven mixes: each in the key, the flagged explained, no hue meaning two things" \
	'fig tails "$out/hist11/tails.svg" && fig text "$out/hist11/tails.svg" "100 % stores" && fig text "$out/hist11/tails.svg" "p99 not trusted: 55 flagged"'

# ---- a small real absorption table: its figure's title, axis, page ----
ab=$out/absorb-run
"$mess" absorb --quick --kernels stream --modes fp_add64 --cores 1 --kmax 16 --out "$ab" \
	>/dev/null 2>"$out/absorb-run.err"
if [ -s "$ab/plots/absorb-stream-triad-c1.svg" ]; then
	check "absorb-<row>.svg: the title carries the verdict and the host" \
		'fig title "$ab/plots/absorb-stream-triad-c1.svg" "$(jq -r .quality.verdict "$ab/meta.json")" "$host"'
	check "absorb-<row>.svg: two y labels or more, the fit within the data" \
		'fig absorb "$ab/plots/absorb-stream-triad-c1.svg"'
	check "absorption.md points at the Glossary" 'grep -q "Glossary of results/README.md" "$ab/absorption.md"'
else
	bad "the small absorption run drew no figure: $(tail -n 3 "$out/absorb-run.err")"
fi

# ---- absorb.gp: a fit below its data; times within one decade ----
# Row 0: flat at 9.6 ns, rising past k = 8, its fitted line falling to
# 3.5 ns at k = 16 (the issue's figure).  Row 1: 3.3 to 9.9 ns, inside
# one decade, its fit on the data.
a=$out/absorb
mkdir -p "$a"
{
	echo "# plot mode k time_ns spread_ns"
	for k in 0 1 2 4 8 16 32; do
		echo "0 0 $k $(awk -v k=$k 'BEGIN { print (k < 8 ? 9.6 : 9.6 + (k - 8) * 0.02) }') 0.1"
	done
	for k in 0 1 2 4 8 16 32; do
		echo "1 0 $k $(awk -v k=$k 'BEGIN { print (k <= 4 ? 3.3 : 3.3 + (k - 4) * 0.2357) }') 0.05"
	done
} >"$a/absorb.dat"
{
	echo "# plot mode k time_ns"
	for k in $(seq 0 32); do
		echo "0 0 $k $(awk -v k=$k 'BEGIN { print (k <= 4 ? 9.6 : k >= 16 ? 3.5 + (k - 16) * 0.4 : 9.6 - (k - 4) * 0.5) }')"
	done
	echo
	for k in $(seq 0 32); do
		echo "1 0 $k $(awk -v k=$k 'BEGIN { print (k <= 4 ? 3.3 : 3.3 + (k - 4) * 0.2357) }')"
	done
	echo
} >"$a/absorb_model.dat"
printf '# plot mode k1 time_ns\n0 0 4 9.6\n1 0 4 3.3\n' >"$a/absorb_k1.dat"
printf '# q perf k1_fp k1_l1 lb_fp lb_l1\n0 1.5 12 NaN 0 0\n0.5 1.2 NaN 8 0 0\n1 1.0 10 6 0 0\n' >"$a/absorb_spmxv.dat"
gnuplot -e "outdir='$a'; rows='stream-c1 haccmk-c1'; modes='fp_add64'; spseries='small-c1'; sphave='1 1'; spleft=2; plottitle='WARN: cpu on $host'" \
	"$plots/absorb.gp" >"$a/log" 2>&1
check "absorb.gp: the fit stays within the data" 'fig absorb "$a/absorb-stream-c1.svg"'
check "absorb.gp: a row within one decade has two y labels or more" 'fig absorb "$a/absorb-haccmk-c1.svg"'
check "absorb.gp: absorb-spmxv says how many entries it left out" \
	'fig text "$a/absorb-spmxv.svg" "2 entries left out"'

echo "figures: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
