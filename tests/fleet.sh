#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# usage: tests/fleet.sh MESS
#
# mess fleet on synthetic fleets made from ONE real quick run of this
# machine (curves and a latency ladder), copied by tests/fleet-synth.sh
# with a small deterministic spread (latencies +-0.5 %, bandwidths
# +-0.1 %): quick runs on a shared VM
# differ by far more than that from one run to the next, so separate runs
# would not make a fleet whose answer is known.
#   - unchanged: nothing flagged;
#   - one node's bandwidth 20 % lower, another's latency 15 % higher:
#     those two flagged, on those figures, and no other node;
#   - mixed: another CPU model, another chase stride, an incomplete run,
#     a directory without a run, a node named in fleet-nodes.txt without a
#     directory: each listed as such and left out of the statistics and
#     of the median set;
#   - verdicts: each node's counted and shown, INVALID runs listed and
#     left out of the statistics and median set unless --with-invalid;
#   - the median set reads back through mess export and mess compare;
#   - bad input refused with nothing written;
#   - 1,000 nodes in under 10 s (the figure is printed).
# shellcheck disable=SC2016,SC2034,SC2054 # checks are eval'd strings; --mixes 0,100
set -u
mess=$1
synth=$(dirname "$0")/fleet-synth.sh
out=$(mktemp -d /tmp/mess-fleet.XXXXXX)
trap 'rm -rf "$out"' EXIT
pass=0 fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*"; }
check() { if eval "$2"; then ok; else bad "$1"; fi; }
jqe() { jq -e "$1" "$2" >/dev/null 2>&1; }
# The CSV column named $1 of node $2's row in $3 (fleet.csv puts its
# free text, which may hold quoted commas, after the figures).
col() { awk -F, -v c="$1" -v n="$2" 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == c) k = i } $1 == n { print $k }' "$3"; }

if ! command -v jq >/dev/null; then
	echo "SKIPPED fleet: no jq (apt-get install jq)"
	exit 0
fi

# ---- one real run ----
src=$out/src
"$mess" --quick --no-plots --buffer 32M --gen-bytes 8M --chase-ms 5 --out "$src" >/dev/null 2>"$out/run.err" ||
	{ echo "FAIL: the quick run"; cat "$out/run.err"; exit 1; }
"$mess" ladder --quick --no-plots --out "$src/ladder" >/dev/null 2>"$out/ladder.err" ||
	{ echo "FAIL: the quick ladder"; cat "$out/ladder.err"; exit 1; }
# The fleet's answers are known only for nodes it believes: a quick run on
# a busy VM may well come out INVALID (meta.json quality), which would
# leave every copy out.  The source is made PASS; the verdicts are tested
# below, each put in by tests/fleet-synth.sh.
jq '.quality = {verdict: "PASS", reasons: [], reasons_dropped: 0}' "$src/meta.json" >"$out/meta.json" &&
	mv "$out/meta.json" "$src/meta.json"

# ---- unchanged ----
"$synth" "$src" "$out/same" 12 >/dev/null
"$mess" fleet "$out/same" --out "$out/same-f" >/dev/null 2>"$out/same.err"
rc=$?
check "unchanged fleet: exit 0 ($rc)" '[ $rc -eq 0 ]' || cat "$out/same.err"
csv=$out/same-f/fleet.csv
check "unchanged fleet: nothing flagged" \
	'[ "$(tail -n +2 "$csv" | cut -d, -f7 | sort -u)" = 0 ] && grep -q "^None: no compared figure" "$out/same-f/fleet.md"' ||
	awk -F, 'NR > 1 && $7 == 1 { print "    flagged: " $1 " " $8 }' "$csv"
check "unchanged fleet: 12 compared in one group" \
	'[ $(grep -c "^node00[01][0-9],[^,]*,g1,compared," "$csv") -eq 12 ]'
check "unloaded latency and max bandwidth per mix read" \
	'[ -n "$(col unloaded_ns node0001 "$csv")" ] && [ -n "$(col max_bw_s0_gbs node0001 "$csv")" ] && [ -n "$(col max_bw_s100_gbs node0001 "$csv")" ]'
check "latency at the common bandwidth, and what it is" \
	'[ -n "$(col lat_common_ns node0001 "$csv")" ] && [ "$(col common_bw_store_pct node0001 "$csv")" = 0 ] && [ -n "$(col lat_common_source node0001 "$csv")" ]'
check "the ladder's levels read, from ladder/" \
	'[ -n "$(col ladder_memory_ns node0001 "$csv")" ] && grep -q "^- g1 ladder (as node0001/ladder)" "$out/same-f/fleet.md"'
if command -v gnuplot >/dev/null; then
	check "plots written" '[ -s "$out/same-f/plots/fleet-curves.png" ] && [ -s "$out/same-f/plots/fleet-bars.png" ]'
	# What to believe first in each title, as every figure's (issue
	# 46): a fleet has no verdict of its own, its 12 PASS nodes theirs.
	check "the figures' titles: no verdict of the fleet's own, the nodes' counted" \
		'python3 "$(dirname "$0")/svgfig.py" title "$out/same-f/plots/fleet-curves.svg" "no verdict (nodes: 12 PASS):" &&
		 python3 "$(dirname "$0")/svgfig.py" title "$out/same-f/plots/fleet-bars.svg" "no verdict (nodes: 12 PASS):" &&
		 python3 "$(dirname "$0")/svgfig.py" fits "$out/same-f/plots/fleet-bars.svg"'
fi

# ---- two sick nodes ----
"$synth" "$src" "$out/sick" 12 5:bw=0.8 9:lat=1.15 >/dev/null
"$mess" fleet "$out/sick" --out "$out/sick-f" --no-plots >/dev/null 2>"$out/sick.err"
csv=$out/sick-f/fleet.csv
check "20 % less bandwidth: node0005 flagged on every mix's maximum" \
	'(f=$(col flags node0005 "$csv"); for m in 0 50 100; do grep -q "max_bw_s${m}_gbs:-" <<<"$f" || exit 1; done)'
check "15 % more latency: node0009 flagged on unloaded, common-bandwidth and ladder memory latency" \
	'f=$(col flags node0009 "$csv"); grep -q "unloaded_ns:+" <<<"$f" && grep -q "lat_common_ns:+" <<<"$f" && grep -q "ladder_memory_ns:+" <<<"$f"'
check "no other node flagged" \
	'[ "$(awk -F, "NR > 1 && \$7 == 1 { print \$1 }" "$csv" | tr "\n" " ")" = "node0005 node0009 " ]'
check "fleet.md: the outliers with their distance" \
	'grep -q "^| node0005 | g1 | max bandwidth, 0 % stores (GB/s) | .* | -[0-9.]* | worse |" "$out/sick-f/fleet.md"'
check "the summary line names them" 'grep -q "2 outliers: node0005 (max_bw_s0_gbs -" "$out/sick.err"'
"$mess" fleet "$out/sick" --out "$out/sick-f30" --no-plots --mad 30 >/dev/null 2>&1
check "--mad 30: a 20 % drop of the maximum (z about -20) is no longer flagged" \
	'! grep -q max_bw <<<"$(col flags node0005 "$out/sick-f30/fleet.csv")"'
# The outliers' key entry in a hue of its own, each outlier in its own
# (issue 46: the key's sample took the first outlier's red, the second
# outlier's line blue).
if command -v gnuplot >/dev/null; then
	"$mess" fleet "$out/sick" --out "$out/sick-p" >/dev/null 2>&1
	check "fleet-curves.svg: the outliers' key entry in a hue no outlier's line has" \
		'python3 "$(dirname "$0")/svgfig.py" outliers "$out/sick-p/plots/fleet-curves.svg"'
	# The outliers' names after the median and on a box: its black line
	# ran across one (session 15's screenshots).
	check "fleet-curves.svg: the outliers' names drawn over the median's line, boxed" \
		'python3 "$(dirname "$0")/svgfig.py" above "$out/sick-p/plots/fleet-curves.svg" median "^node[0-9]+$"'
	# The page's machine: each node's own, not "CPU unknown".
	check "report.html: the CPU and memory are each node's (fleet.csv), not unknown" \
		'grep -q "each node&#39;s own: fleet.csv\|each node.s own: fleet.csv" "$out/sick-p/report.html" && ! grep -q "<th>CPU</th><td>unknown" "$out/sick-p/report.html"'
fi

# ---- eight "identical" nodes, +-2 % bandwidth noise, one at 0.75 ----
# (issue 22 item 20): a small shift read on a steep part of a curve is no
# outlier; only node0008 is, whatever the noise's draw.  This machine's
# curve may be flat at the common bandwidth (half the maximum), where a
# bandwidth shift moves no latency: the source's curves are replaced by
# a knee there (latency 100 to 400 ns, a logistic in bw/max centred on
# 0.5, x3 amplification), 20 points per mix, so the test is the same on
# every machine.  On it a 2 % shift is 6 % of latency: a z of +6 on the
# 1 % scale floor, flagged before the minimum effect sizes.
# The unloaded latency is set too (140 ns), not this machine's: with
# it, 2x unloaded (280 ns) is first reached at 55 % of the maximum, away
# from the 50 % below which a point is not loaded (saturation): a quiet
# machine's 122 ns put that crossing on the 50 % point, and a 2 % draw
# moved one node's saturation by a point (10 %).
steep=$out/steep
mkdir -p "$steep" && cp -r "$src/ladder" "$steep/" &&
	jq '.unloaded_ns = 140 | .unloaded_random_ns = 140' "$src/meta.json" >"$steep/meta.json"
awk -F, -v OFS=, 'NR == 1 { print; next }
!($1 in seen) {
	seen[$1] = 1
	for (k = 1; k <= 20; k++) {
		u = k / 20; bw = 20 * u
		$3 = (20 - k) * 8; $4 = sprintf("%.6f", bw)
		$5 = sprintf("%.6f", bw * $2 / 100); $6 = sprintf("%.6f", bw - $5)
		$7 = sprintf("%.4f", 100 + 300 / (1 + exp(-(u - 0.5) * 20)))
		$8 = "1.0"; $11 = $5; $12 = $6; $15 = "0.01"; $16 = 0; $17 = 0; $25 = ""
		print
	}
}' "$src/curves.csv" >"$steep/curves.csv"
"$synth" "$steep" "$out/slope" 8 3:bw=0.98 8:bw=0.75 >/dev/null
"$mess" fleet "$out/slope" --out "$out/slope-f" --no-plots >/dev/null 2>&1
got=$(awk -F, 'NR > 1 && $7 == 1 { printf "%s ", $1 }' "$out/slope-f/fleet.csv")
check "a node 2 % slower on a steep curve (latency at the common bandwidth +6 %) is not flagged, one at 0.75 is (got: $got)" \
	'[ "$got" = "node0008 " ]'
for seed in 1 2 3 4 5 6; do
	JITTER=0.02 SEED=$seed "$synth" "$steep" "$out/noisy$seed" 8 8:bw=0.75 >/dev/null
	"$mess" fleet "$out/noisy$seed" --out "$out/noisy$seed-f" --no-plots >/dev/null 2>&1
	got=$(awk -F, 'NR > 1 && $7 == 1 { printf "%s ", $1 }' "$out/noisy$seed-f/fleet.csv")
	check "8 nodes +-2 % (seed $seed), one at 0.75: only node0008 flagged (got: $got)" \
		'[ "$got" = "node0008 " ]'
done

# A robust z needs a minimum effect: 4 % less bandwidth (z about -4 on
# the 1 % scale floor) is within a few runs' repeatability, not flagged.
"$synth" "$src" "$out/trivia" 8 3:bw=0.96 >/dev/null
"$mess" fleet "$out/trivia" --out "$out/trivia-f" --no-plots >/dev/null 2>&1
got=$(awk -F, 'NR > 1 && $7 == 1 { printf "%s ", $1 }' "$out/trivia-f/fleet.csv")
check "4 % less bandwidth (below the 5 % minimum effect): nothing flagged (got: $got)" '[ -z "$got" ]'

# The sweep's rule is part of the method: a node swept by the classic
# rule (more points a mix) is not the knee rule's peer.
"$synth" "$src" "$out/sweep" 3 >/dev/null
jq '.sweep = "classic"' "$out/sweep/node0002/meta.json" >"$out/sweep.json" &&
	mv "$out/sweep.json" "$out/sweep/node0002/meta.json"
"$mess" fleet "$out/sweep" --out "$out/sweep-f" --no-plots >/dev/null 2>&1
check "another sweep rule: measured differently, named" \
	'[ "$(col curves node0002 "$out/sweep-f/fleet.csv")" = "measured differently" ] && grep -q "^- node0002, curves: \`sweep\` classic (group: knee)" "$out/sweep-f/fleet.md"'

# ---- mixed: groups, methods, incomplete, no run, missing ----
"$synth" "$src" "$out/mixed" 10 3:stride=512 4:incomplete 9:cpu=Other_CPU 10:cpu=Other_CPU >/dev/null
mkdir "$out/mixed/broken"
echo "== exit 2" >"$out/mixed/broken/mess-fleet.log"
printf 'node0001\nnode0011\n' >"$out/mixed/fleet-nodes.txt"
"$mess" fleet "$out/mixed" --out "$out/mixed-f" --no-plots >/dev/null 2>"$out/mixed.err"
rc=$?
csv=$out/mixed-f/fleet.csv md=$out/mixed-f/fleet.md
check "mixed: exit 0 ($rc)" '[ $rc -eq 0 ]'
check "another chase stride: measured differently, named" \
	'[ "$(col curves node0003 "$csv")" = "measured differently" ] && grep -q "^- node0003, curves: \`chase.stride_bytes\` 512 (group: 256)" "$md"'
check "incomplete run: listed as such" \
	'[ "$(col curves node0004 "$csv")" = incomplete ] && grep -q "^- node0004, curves (incomplete): meta.json says \"complete\": false" "$md"'
check "another CPU: group g2, listed" \
	'[ "$(col group node0009 "$csv")" = g2 ] && grep -q "^- node0010: g2 (2 nodes), \`cpu_model\` Other_CPU (g1: " "$md"'
check "a directory without a run: listed" \
	'[ "$(col curves broken "$csv")" = "not a run" ] && grep -q "^- broken, curves (not a run)" "$md"'
check "a node named in fleet-nodes.txt without a directory: missing" \
	'grep -q "^- node0011: named in fleet-nodes.txt, no directory" "$md"'
check "g1 compares the 6 nodes left (10 - stride - incomplete - 2 other CPU)" \
	'jqe ".groups[0].compared == 6 and .groups[1].nodes == 2 and .missing == 1" "$out/mixed-f/meta.json"'
check "g1's median set is made of those 6" \
	'jqe ".fleet_median.nodes == 6 and (.fleet_median.node_names | index(\"node0003\")) == null" "$out/mixed-f/median-g1/meta.json"'

# ---- verdicts: counted, shown, INVALID runs left out by default ----
"$synth" "$src" "$out/ver" 8 2:verdict=INVALID 3:verdict=WARN 5:verdict=INVALID 5:bw=0.8 \
	6:verdict=pending 6:incomplete >/dev/null
jq '.quality.reasons = [{level: "INVALID", rule: "mix_invalid", text: "mix 0 % stores: 5 of 9 points flagged"}]' \
	"$out/ver/node0002/meta.json" >"$out/m.json" && mv "$out/m.json" "$out/ver/node0002/meta.json"
jq 'del(.quality)' "$out/ver/node0004/meta.json" >"$out/m.json" && mv "$out/m.json" "$out/ver/node0004/meta.json"
"$mess" fleet "$out/ver" --out "$out/ver-f" --no-plots >/dev/null 2>"$out/ver.err"
rc=$?
csv=$out/ver-f/fleet.csv md=$out/ver-f/fleet.md
check "verdicts: exit 0 ($rc)" '[ $rc -eq 0 ]' || cat "$out/ver.err"
check "fleet.csv: each node's verdict" \
	'[ "$(for n in 1 2 3 4 5 6 7 8; do col verdict node000$n "$csv"; done | tr "\n" " ")" = "PASS INVALID WARN none INVALID pending PASS PASS " ]'
check "fleet.csv: an INVALID node marked in the curves column, with its reason" \
	'[ "$(col curves node0002 "$csv")" = INVALID ] && [ "$(col curves node0005 "$csv")" = INVALID ] && grep -q "^node0002,.*,mix 0 % stores: 5 of 9 points flagged$" "$csv"'
check "meta.json: the verdicts counted, 2 INVALID left out, 8 - 2 - 1 incomplete compared" \
	'jqe ".verdicts == {PASS: 3, WARN: 1, INVALID: 2, pending: 1, none: 1} and .invalid_left_out == 2 and .with_invalid == false and .groups[0].compared == 5" "$out/ver-f/meta.json"'
check "fleet.md: the summary counts the verdicts and the INVALID runs left out" \
	'grep -qx "Verdicts of the nodes. runs: 3 PASS, 1 WARN, 2 INVALID, 1 pending, 1 none; 2 INVALID runs left out of the statistics and median sets." "$md"'
check "fleet.md: INVALID nodes in bold in the table and listed with their reason" \
	'grep -q "^| node0002 | g1 | INVALID | \*\*INVALID\*\* |" "$md" && grep -qx -- "- node0002: \*\*INVALID\*\*: mix 0 % stores: 5 of 9 points flagged; left out" "$md" && grep -q "^- node0005, curves (INVALID): its verdict is INVALID" "$md"'
check "the median set leaves the INVALID nodes out, and says so" \
	'jqe ".fleet_median.nodes == 5 and .fleet_median.invalid_left_out == [\"node0002\", \"node0005\"]" "$out/ver-f/median-g1/meta.json"'
check "an INVALID node with 20 % less bandwidth is not an outlier: it is not compared" \
	'[ "$(col outlier node0005 "$csv")" = 0 ] && [ -n "$(col max_bw_s0_gbs node0005 "$csv")" ]'
check "stderr: the verdicts in one line" \
	'grep -qx "mess fleet: verdicts: 3 PASS, 1 WARN, 2 INVALID, 1 none, 1 pending; 2 INVALID runs left out: see fleet.md, .Verdicts." "$out/ver.err"'
"$mess" fleet "$out/ver" --out "$out/ver-w" --no-plots --with-invalid >/dev/null 2>&1
check "--with-invalid: INVALID nodes compared, in the median, and the sick one flagged" \
	'jqe ".invalid_left_out == 0 and .with_invalid == true and .groups[0].compared == 7" "$out/ver-w/meta.json" && jqe ".fleet_median.nodes == 7" "$out/ver-w/median-g1/meta.json" && [ "$(col outlier node0005 "$out/ver-w/fleet.csv")" = 1 ] && [ "$(col curves node0005 "$out/ver-w/fleet.csv")" = compared ]'

# ---- the median set as a curve set ----
m=$out/same-f/median-g1
check "median set: mess export reads it" \
	'"$mess" export "$m" --format mess --out "$out/exp" >/dev/null 2>&1 && [ -s "$out/exp/bwlat_100.txt" ]'
check "median set: mess compare takes it beside a node" \
	'"$mess" compare "$m" "$out/same/node0001" --no-plots --out "$out/cmp" >/dev/null 2>&1 && jqe ".sets | length == 2" "$out/cmp/compare.json"'
check "median set: meta.json says it is a fleet median of 12 nodes" \
	'jqe ".tool == \"mess fleet\" and .fleet_median.nodes == 12 and .complete == true and .unloaded_ns > 0" "$m/meta.json"'
check "median set: 20 points per mix, spread and node count in each row" \
	'[ $(grep -c "^0," "$m/curves.csv") -eq 20 ] && [ "$(awk -F, "NR == 2 { print \$9 }" "$m/curves.csv")" = 12 ]'

# ---- bad input: one line, exit 1, nothing written ----
mkdir "$out/empty"
"$mess" fleet "$out/empty" --out "$out/x1" >/dev/null 2>"$out/e1"
rc=$?
check "an empty directory: exit 1, nothing written ($rc)" \
	'[ $rc -eq 1 ] && [ ! -e "$out/x1" ] && grep -q "no node directory in it" "$out/e1" && [ $(wc -l <"$out/e1") -eq 1 ]'
"$mess" fleet "$out/same/node0001/curves.csv" --out "$out/x2" >/dev/null 2>"$out/e2"
rc=$?
check "a file: exit 1, nothing written ($rc)" '[ $rc -eq 1 ] && [ ! -e "$out/x2" ] && grep -q "is a file, not a directory" "$out/e2"'
"$mess" fleet "$out/same" --mad 0 --out "$out/x3" >/dev/null 2>"$out/e3"
rc=$?
check "--mad 0: exit 1, nothing written ($rc)" '[ $rc -eq 1 ] && [ ! -e "$out/x3" ] && grep -q "^mess fleet: --mad: .0. is not allowed" "$out/e3"'
"$mess" fleet "$out/same" --out "$out/same-f" >/dev/null 2>"$out/e4"
rc=$?
check "--out not empty: exit 1, one line, no --resume advised (fleet has none) ($rc)" '[ $rc -eq 1 ] && grep -q "is not an empty directory" "$out/e4" && [ $(wc -l <"$out/e4") -eq 1 ] && ! grep -q -- --resume "$out/e4"'

# ---- 1,000 nodes ----
t0=$(date +%s%N)
"$synth" "$src" "$out/big" 1000 17:bw=0.8 500:lat=1.15 >/dev/null
t1=$(date +%s%N)
"$mess" fleet "$out/big" --out "$out/big-f" >/dev/null 2>"$out/big.err"
rc=$?
t2=$(date +%s%N)
ms=$(((t2 - t1) / 1000000))
echo "fleet: 1000 synthetic nodes: mess fleet took $ms ms with plots (the fleet made in $(((t1 - t0) / 1000000)) ms)"
check "1000 nodes: exit 0, the two sick nodes flagged, no other" \
	'[ $rc -eq 0 ] && [ "$(awk -F, "NR > 1 && \$7 == 1 { print \$1 }" "$out/big-f/fleet.csv" | tr "\n" " ")" = "node0017 node0500 " ]'
# A wide bound (issue 43), scaled by the machine's pace in this run (the
# fleet's making, files like the reading): 5.5 s under ASan and UBSan on a
# loaded 2-core guest, 11.4 s (made in 7.2 s) with more load beside it;
# a fleet quadratic in its nodes takes minutes.
made=$(((t1 - t0) / 1000000))
check "1000 nodes in under 30 s + 5 x the making ($ms ms, made in $made ms)" '[ $ms -lt $((30000 + 5 * made)) ]'

echo "fleet: $pass passed, $fail failed"
[ $fail -eq 0 ]
