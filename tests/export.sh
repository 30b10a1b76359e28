#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# mess export end to end, checked the way each consumer reads the files:
#  - the Mess simulator's loader (awk below: bwlat_0 ... bwlat_100 opened by
#    position, a descending search, ns) on a quick run's export;
#  - PROFET's curves.json (cycles at --ghz) read back through our reader
#    and compared with the ns the mess format holds;
#  - the CSV in the Mess-Results layout read back as a set;
#  - a --stat quantile family with a point whose tail disagrees with its
#    mean (dist_disagrees) refused without --force, by export and compare;
#  - the run's verdict: INVALID refused without --force (nothing written),
#    exported with it and said in info.txt; WARN said; none and pending
#    exported as before, said in one line.
# usage: tests/export.sh MESS
set -u
mess=$1
ref=${MESS_REFERENCE:-$(dirname "$0")/../../shared/reference/mess-results}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0 fail=0
jqe() { jq -e "$1" "$2" >/dev/null 2>&1; }
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
# --force: a quick run on a busy machine may well be INVALID (meta.json
# quality); what is checked here is the format, not the machine.
"$mess" export "$tmp/run" --out "$tmp/run-mess" --force 2>/dev/null
# Equal but for the rounding of curves.csv (the run exports its points
# before they are written with 4-6 decimals).
check "mess export of the run equals the run's mess/" \
	'(for r in $(seq 0 2 100); do [ -s "$tmp/run-mess/bwlat_$r.txt" ] || exit 1; paste -d" " "$tmp/run/mess/bwlat_$r.txt" "$tmp/run-mess/bwlat_$r.txt" |
		awk "NF!=4 {exit 1} function d(a, b) { return a > b ? a - b : b - a }
		     d(\$1, \$3) > 1e-4 * \$1 + 0.01 || d(\$2, \$4) > 1e-4 * \$2 + 0.01 {exit 1}" || exit 1; done)'
# The tail family (--stat p99): every format; the simulator still loads
# it, info.txt says which statistic, and the csv export holds curves.csv's
# own p99 figures (4 decimals there: within 1e-3 ns), not the means.
for f in mess csv; do
	"$mess" export "$tmp/run" --stat p99 --format $f --out "$tmp/run-p99-$f" --force 2>/dev/null
done
check "--stat p99: the simulator loads all 51 shares" 'simulate "$tmp/run-p99-mess"'
check "--stat p99: info.txt names the statistic" 'grep -q "^LATENCY_STAT=p99 " "$tmp/run-p99-mess/info.txt"'
check "--stat p99: the csv export's latencies are the run's p99 figures" \
	'awk -F, "NR > 1 && \$28 != \"\" { p[sprintf(\"%.3f\", \$28)] = 1 } END { for (k in p) n++; print n }" "$tmp/run/curves.csv" >"$tmp/p99n" &&
	 [ "$(cat "$tmp/p99n")" -gt 0 ] &&
	 hdr=$(head -1 "$tmp/run-p99-csv"/*.csv) && col=$(echo "$hdr" | tr , "\n" | grep -n "^latency_mean$" | cut -d: -f1) &&
	 awk -F, -v c="$col" "NR == FNR { if (FNR > 1 && \$28 != \"\") p[sprintf(\"%.3f\", \$28)] = 1; next }
		FNR > 1 && !(sprintf(\"%.3f\", \$c) in p) { bad = 1 } END { exit bad }" "$tmp/run/curves.csv" "$tmp/run-p99-csv"/*.csv'
# Issue 31 item 13: the tail family carries the unloaded distribution's
# own p99 (meta.json), as compare reads it, not the mean's unloaded
# latency: against that every p99 point counted as saturated.
"$mess" export "$tmp/run" --stat p99 --format json --out "$tmp/run-p99-json" --force 2>/dev/null
u99=$(jq -r '.distribution.unloaded.p99_ns' "$tmp/run/meta.json")
check "--stat p99: UNLOADED_NS is the run's unloaded p99 ($u99), not the mean's" \
	'[ "$(grep "^UNLOADED_NS=" "$tmp/run-p99-mess/info.txt")" = "UNLOADED_NS=$(printf %.3f "$u99")" ] &&
	 jqe "(.unloaded_ns * 1000 | round) == ($u99 * 1000 | round)" "$tmp/run-p99-json/mess-curves.json"'
# Each curve's first point (bandwidth 0) is the unloaded p99 or a measured
# p99, never below both (the mean's unloaded latency was).
check "--stat p99: no curve of the json starts below the p99 figures" \
	'lo=$(awk -F, "NR > 1 && \$28 != \"\" && (m == \"\" || \$28 < m) { m = \$28 } END { print m }" "$tmp/run/curves.csv") &&
	 jqe "[.curves[].points[0][1]] | min >= ([$u99, $lo] | min) - 0.01" "$tmp/run-p99-json/mess-curves.json"'
# Read back as a set: some measured point stays below 2x its unloaded
# latency (every one was "saturated" against the mean's).
check "--stat p99: the reloaded set is not saturated at every measured point" \
	'u=$(sed -n "s/^UNLOADED_NS=//p" "$tmp/run-p99-mess/info.txt") &&
	 for f in $(awk -F"\t" "\$3 == \"measured\" { print \$1 }" "$tmp/run-p99-mess/curve-sources.tsv"); do
		cat "$tmp/run-p99-mess/$f"; done | awk -v u="$u" "\$1 > 0 { n++; if (\$2 >= 2 * u) s++ } END { exit !(n > 0 && s < n) }"'
# mess compare --stat p99 reads the same tails, against the unloaded
# distribution's own p99 (meta.json), not the mean's.
# --force: a point of a quick run on a busy machine may well be flagged
# dist_disagrees (tested below).
"$mess" compare "$tmp/run" "$tmp/run" --stat p99 --no-plots --out "$tmp/cmp-p99" --force >/dev/null 2>&1
check "compare --stat p99: the unloaded figure is the run's unloaded p99" \
	'[ "$(jq ".sets[0].unloaded_ns" "$tmp/cmp-p99/compare.json")" = "$(jq ".distribution.unloaded.p99_ns * 10 | round / 10" "$tmp/run/meta.json")" ]'

# ---- tails that disagree with their means (issue 32 item 6) ----
# Two copies of the run judged PASS: in "agree" every point's mean is its
# p50 and its paired difference 0 (no point flagged dist_disagrees, any
# machine); in "disagree" one point's mean is above its p99 as well.  The
# columns by their header names: a valid curves.csv either way.
tails_run() {
	rm -rf "$tmp/$1" && mkdir "$tmp/$1" &&
		jq '.quality = {verdict: "PASS", reasons: [], reasons_dropped: 0}' "$tmp/run/meta.json" >"$tmp/$1/meta.json" &&
		awk -F, -v OFS=, -v bad=$2 '
		NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; print; next }
		$c["lat_p99_ns"] != "" {
			$c["lat_ns"] = $c["lat_p50_ns"]; $c["dist_mean_diff_pct"] = "0.000"
			gsub(/;?dist_disagrees/, "", $c["flags"]); sub(/^;/, "", $c["flags"])
			if (bad && !done++) $c["lat_ns"] = sprintf("%.4f", $c["lat_p99_ns"] + 10)
		}
		{ print }' "$tmp/run/curves.csv" >"$tmp/$1/curves.csv"
}
tails_run agree 0
tails_run disagree 1
check "the disagreeing copy has exactly one point with its p99 below its mean" \
	'[ "$(awk -F, "NR == 1 { for (i = 1; i <= NF; i++) c[\$i] = i; next } \$c[\"lat_p99_ns\"] != \"\" && \$c[\"lat_p99_ns\"] < \$c[\"lat_ns\"]" "$tmp/disagree/curves.csv" | wc -l)" -eq 1 ]'
"$mess" export "$tmp/agree" --stat p99 --out "$tmp/agree-x" 2>"$tmp/agree.err"
rc=$?
check "export --stat p99, no point disagreeing: exported (exit $rc), nothing said of it" \
	'[ $rc -eq 0 ] && [ -s "$tmp/agree-x/info.txt" ] && ! grep -q dist_disagrees "$tmp/agree.err" "$tmp/agree-x/info.txt"'
for s in p99 p50; do
	"$mess" export "$tmp/disagree" --stat $s --out "$tmp/dis-$s" 2>"$tmp/dis-$s.err"
	rc=$?
	check "export --stat $s, one point disagreeing: refused, exit 2 as a failure of the data ($rc), nothing written" \
		'[ $rc -eq 2 ] && [ ! -e "$tmp/dis-$s" ]'
	check "export --stat $s refused in one line naming the set, the count and --force" \
		'[ $(wc -l <"$tmp/dis-$s.err") -eq 1 ] && grep -q "^mess export: $tmp/disagree: --stat $s: 1 point flagged dist_disagrees (.*p99 below the mean.*); not exported: --force exports it anyway$" "$tmp/dis-$s.err"'
done
"$mess" export "$tmp/disagree" --stat p99 --out "$tmp/dis-f" --force 2>"$tmp/dis-f.err"
rc=$?
check "export --stat p99 --force: exported (exit $rc), said on stderr and in info.txt" \
	'[ $rc -eq 0 ] && [ -s "$tmp/dis-f/bwlat_100.txt" ] && grep -q "^mess export: warning: .*1 point flagged dist_disagrees.*--force" "$tmp/dis-f.err" && grep -q "^LATENCY_STAT_WARNING=exported with --force: 1 point flagged dist_disagrees" "$tmp/dis-f/info.txt"'
"$mess" export "$tmp/disagree" --out "$tmp/dis-mean" 2>"$tmp/dis-mean.err"
rc=$?
check "export of the mean family: not refused for it (exit $rc)" \
	'[ $rc -eq 0 ] && [ -s "$tmp/dis-mean/info.txt" ] && ! grep -q dist_disagrees "$tmp/dis-mean.err"'
"$mess" compare "$tmp/agree" "$tmp/disagree" --stat p99 --no-plots --out "$tmp/cmp-dis" >/dev/null 2>"$tmp/cmp-dis.err"
rc=$?
check "compare --stat p99 with a disagreeing point: refused, exit 1 ($rc), one line naming the set, the count and --force, nothing written" \
	'[ $rc -eq 1 ] && [ ! -e "$tmp/cmp-dis" ] && [ $(wc -l <"$tmp/cmp-dis.err") -eq 1 ] &&
	 grep -q "^mess compare: $tmp/disagree/curves.csv: --stat p99: 1 point flagged dist_disagrees (.*); not compared: --force compares it anyway$" "$tmp/cmp-dis.err"'
"$mess" compare "$tmp/agree" "$tmp/disagree" --stat p99 --no-plots --out "$tmp/cmp-dis-f" --force >/dev/null 2>"$tmp/cmp-dis-f.err"
rc=$?
check "compare --stat p99 --force: compared (exit $rc), with a warning" \
	'[ $rc -eq 0 ] && [ -s "$tmp/cmp-dis-f/compare.json" ] && grep -q "^mess compare: warning: $tmp/disagree/curves.csv: --stat p99: 1 point flagged dist_disagrees" "$tmp/cmp-dis-f.err"'
"$mess" compare "$tmp/agree" "$tmp/disagree" --no-plots --out "$tmp/cmp-dis-mean" >/dev/null 2>"$tmp/cmp-dis-mean.err"
rc=$?
check "compare of the mean families: not refused for it (exit $rc)" \
	'[ $rc -eq 0 ] && ! grep -q dist_disagrees "$tmp/cmp-dis-mean.err"'

# ---- the run's verdict (meta.json quality) ----
# A copy of the run whose meta.json says VERDICT ($2: a jq filter on .quality).
verdict_run() {
	rm -rf "$tmp/$1" && mkdir "$tmp/$1" && cp "$tmp/run/curves.csv" "$tmp/$1/" &&
		jq "$2" "$tmp/run/meta.json" >"$tmp/$1/meta.json"
}
inv='.quality = {verdict: "INVALID", reasons: [{level: "WARN", rule: "w", text: "a warning"},
	{level: "INVALID", rule: "mix_invalid", text: "mix 0 % stores: 5 of 9 points flagged"},
	{level: "INVALID", rule: "unloaded", text: "unsteady"}], reasons_dropped: 0}'
verdict_run inv "$inv"
"$mess" export "$tmp/inv" --out "$tmp/inv-x" 2>"$tmp/inv.err"
rc=$?
check "INVALID run: refused, exit 2 as a failure of the data, not of the usage ($rc), nothing written" '[ $rc -eq 2 ] && [ ! -e "$tmp/inv-x" ]'
check "INVALID run: one line naming the verdict, its first reason and --force" \
	'[ $(wc -l <"$tmp/inv.err") -eq 1 ] && grep -q "verdict INVALID: mix 0 % stores: 5 of 9 points flagged (and 1 more in meta.json quality); not exported: --force exports it anyway" "$tmp/inv.err"'
for f in mess json; do
	"$mess" export "$tmp/inv" --out "$tmp/inv-$f" --format $f --force 2>"$tmp/inv-$f.err"
	rc=$?
	check "INVALID run with --force: exported as $f (exit $rc), a warning" \
		'[ $rc -eq 0 ] && [ -s "$tmp/inv-$f/info.txt" ] && grep -q "^mess export: warning: .*verdict INVALID: mix 0 % stores.*--force" "$tmp/inv-$f.err"'
	check "INVALID run with --force: info.txt ($f) says the source was INVALID and why" \
		'grep -qx "SOURCE_VERDICT=INVALID" "$tmp/inv-$f/info.txt" && grep -qx "SOURCE_VERDICT_REASON=mix 0 % stores: 5 of 9 points flagged" "$tmp/inv-$f/info.txt" && grep -q "^SOURCE_VERDICT_NOTE=exported with --force" "$tmp/inv-$f/info.txt"'
done
check "INVALID run with --force: mess-curves.json says so too" \
	'jq -e ".source_verdict.verdict == \"INVALID\"" "$tmp/inv-json/mess-curves.json" >/dev/null'
verdict_run warn '.quality.verdict = "WARN" | .quality.reasons = [{level: "WARN", rule: "disturbed", text: "3 windows disturbed"}]'
"$mess" export "$tmp/warn" --out "$tmp/warn-x" 2>"$tmp/warn.err"
rc=$?
check "WARN run: exported (exit $rc) with one warning line naming the verdict" \
	'[ $rc -eq 0 ] && [ $(grep -c "verdict" "$tmp/warn.err") -eq 1 ] && grep -q "^mess export: warning: .*verdict WARN: 3 windows disturbed" "$tmp/warn.err" && grep -qx "SOURCE_VERDICT=WARN" "$tmp/warn-x/info.txt"'
verdict_run pass '.quality.verdict = "PASS"'
"$mess" export "$tmp/pass" --out "$tmp/pass-x" 2>"$tmp/pass.err"
check "PASS run: exported, nothing said of it but info.txt" \
	'[ -s "$tmp/pass-x/bwlat_100.txt" ] && ! grep -q -e verdict -e warning "$tmp/pass.err" && grep -qx "SOURCE_VERDICT=PASS" "$tmp/pass-x/info.txt"'
for q in none pending; do
	verdict_run $q "$( [ $q = none ] && echo 'del(.quality)' || echo '.quality = {verdict: "pending"}')"
	"$mess" export "$tmp/$q" --out "$tmp/$q-x" 2>"$tmp/$q.err"
	rc=$?
	check "a run with verdict $q: exported as before (exit $rc), one line says it carries none" \
		'[ $rc -eq 0 ] && [ -s "$tmp/$q-x/bwlat_100.txt" ] && [ $(grep -c "carries no verdict" "$tmp/$q.err") -eq 1 ] && [ $(wc -l <"$tmp/$q.err") -eq 2 ]'
done
check "a run with no verdict: info.txt says none" 'grep -qx "SOURCE_VERDICT=none" "$tmp/none-x/info.txt"'
verdict_run odd '.quality.verdict = "MAYBE"'
"$mess" export "$tmp/odd" --out "$tmp/odd-x" 2>"$tmp/odd.err"
rc=$?
check "a verdict not ours: refused, exit 1 ($rc), one line, nothing written" \
	'[ $rc -eq 1 ] && [ ! -e "$tmp/odd-x" ] && [ $(wc -l <"$tmp/odd.err") -eq 1 ] && grep -q "quality.verdict .MAYBE. is not allowed" "$tmp/odd.err"'
# Issue 31 item 10: a value read from the set is one line of info.txt,
# whatever it holds: a newline in meta.json's version, git_revision,
# measured_by, bw_source or memory kind adds no key of its own.
inj='.version = "1\nFAKE=1" | .git_revision = "abc\r\nGIT=1" | .bw_source = "accounted\nBW=1" |
	.memory_node = 0 | .memory_node_choice.kind = "dram\nMEM=1"'
verdict_run inj "$inj"
verdict_run inj2 '.measured_by = "someone\nFAKE=1"'
for d in inj inj2; do
	"$mess" export "$tmp/$d" --out "$tmp/$d-x" --force 2>/dev/null
	check "newlines in meta.json ($d): exported, no key injected into info.txt" \
		'[ -s "$tmp/$d-x/info.txt" ] && ! grep -q -e "^FAKE=" -e "^GIT=" -e "^BW=" -e "^MEM=" "$tmp/$d-x/info.txt" &&
		 ! grep -v -e "^#" -e "^[A-Z_]*=" "$tmp/$d-x/info.txt" && grep -q "^MEASURED_BY=.*FAKE=1" "$tmp/$d-x/info.txt"'
done
check "newlines in meta.json: the bandwidth source and memory kind stay on their line" \
	'grep -q "^BANDWIDTH_SOURCE=accounted.BW=1$" "$tmp/inj-x/info.txt" && grep -q "^SOURCE_MEMORY=dram.MEM=1 node 0$" "$tmp/inj-x/info.txt"'
"$mess" export "$tmp/run/mess" --out "$tmp/bw-x" 2>"$tmp/bw.err"
check "a bwlat set (not a run): no verdict said, none in info.txt" \
	'[ $(wc -l <"$tmp/bw.err") -eq 1 ] && ! grep -q SOURCE_VERDICT "$tmp/bw-x/info.txt"'

# Issue 34 item 12: a run directory of a command that writes no curve
# family is named by its kind (as --resume names it), not taken for a
# folder of PROFET files; a comparison's sets are named to export instead.
"$mess" compare "$tmp/pass" "$tmp/warn" --no-plots --out "$tmp/cmp-k" >/dev/null 2>&1
"$mess" export "$tmp/cmp-k" --out "$tmp/cmp-k-x" 2>"$tmp/cmp-k.err"
rc=$?
check "a comparison: exit 1 ($rc), one line naming its kind and its sets, nothing written" \
	'[ $rc -eq 1 ] && [ $(wc -l <"$tmp/cmp-k.err") -eq 1 ] && [ ! -e "$tmp/cmp-k-x" ] &&
	 grep -q "^mess export: RUN: $tmp/cmp-k is a run of .mess compare., which holds no curve family; .*export the sets it compared: $tmp/pass, $tmp/warn$" "$tmp/cmp-k.err" &&
	 ! grep -q PROFET "$tmp/cmp-k.err"' || cat "$tmp/cmp-k.err"
for k in absorb ladder matrix c2c; do
	mkdir "$tmp/kind-$k" && echo "{\"schema\": 1, \"tool\": \"mess $k\"}" >"$tmp/kind-$k/meta.json" &&
		echo '{"schema": 1}' >"$tmp/kind-$k/summary.json"
	"$mess" export "$tmp/kind-$k" --out "$tmp/kind-$k-x" 2>"$tmp/kind-$k.err"
	rc=$?
	check "a run of mess $k: exit 1 ($rc), named as such, nothing written" \
		'[ $rc -eq 1 ] && grep -q "is a run of .mess $k., which holds no curve family" "$tmp/kind-$k.err" && ! grep -q PROFET "$tmp/kind-$k.err" && [ ! -e "$tmp/kind-$k-x" ]'
done

hbm=$ref/MN5-HBM-XeonMax9480-HBM2
if [ ! -s "$hbm/memory_curves.csv" ]; then
	. "$(dirname "$0")/reference.sh"
	no_reference export "no public sets in $ref (set MESS_REFERENCE)"
	# A run whose measured clock spread 78 % at 0.86 GHz (issue 46 item 7: a
# PROFET set went out at it with a note): where the run states its
# nominal clock, the cycles are at that one, said in one line why; where
# it states none, refused without --force (tests/import.sh).
"$mess" curves --replay "$ref/MN5-GPP-SPR8480-DDR5" --replay-seed 1 --out "$tmp/clk-replay" >/dev/null 2>&1
jq '.cpu_frequency.measured_ghz = 0.86 | .cpu_frequency.measured_spread_pct = 78 |
    .cpu_frequency.nominal_ghz = 2.1 | .cpu_frequency.nominal_source = "cpufreq base_frequency"' \
	"$tmp/clk-replay/meta.json" >"$tmp/clk.json" && mv "$tmp/clk.json" "$tmp/clk-replay/meta.json"
"$mess" export "$tmp/clk-replay" --format profet --out "$tmp/clk-profet" 2>"$tmp/clk.err"
rc=$?
check "profet, measured clock 0.86 GHz spread 78 %, nominal 2.1: exported at the nominal clock, one line why (exit $rc)" \
	'[ $rc -eq 0 ] && grep -qx "CPU_FREQ=2.100000" "$tmp/clk-profet/info.txt" &&
	 grep -q "^CPU_FREQ_SOURCE=the nominal clock (CPU_FREQ_NOMINAL): the measured one (CPU_FREQ_MEASURED) spread 78.0 %" "$tmp/clk-profet/info.txt" &&
	 [ "$(grep -c "CPU_FREQ=2.100 GHz, the nominal clock (cpufreq base_frequency): the measured 0.860 GHz spread 78.0 %" "$tmp/clk.err")" -eq 1 ]' ||
	cat "$tmp/clk.err"
# --force (given for a verdict) takes no clock that spread: it went out at
# 0.86 GHz with a note.
"$mess" export "$tmp/clk-replay" --format profet --force --out "$tmp/clk-force" 2>/dev/null
check "the same with --force: still the nominal clock, not the spread one" \
	'grep -qx "CPU_FREQ=2.100000" "$tmp/clk-force/info.txt"'
"$mess" export "$tmp/clk-replay" --format profet --ghz 3.0 --out "$tmp/clk-ghz" 2>/dev/null
check "the same with --ghz 3.0: at that clock" 'grep -qx "CPU_FREQ=3.000000" "$tmp/clk-ghz/info.txt"'

echo "export: $pass passed, $fail failed"
	[ "$fail" -eq 0 ]
	exit
fi
for f in mess profet csv json; do
	"$mess" export "$hbm" --format $f --ghz 2 --out "$tmp/hbm-$f" 2>"$tmp/err-$f"
	check "export --format $f exits 0" '[ $? -eq 0 ]'
	check "$f: nothing else a consumer picks up" \
		'[ $(ls "$tmp/hbm-$f" | grep -c -e bwlat -e "\.json$") -eq $(case $f in mess) echo 52;; csv) echo 0;; *) echo 1;; esac) ]'
	check "$f: info.txt gives the unit of each column" 'grep -q "^COLUMNS=.*latency.* \(ns\|CPU cycles\)" "$tmp/hbm-$f/info.txt"'
	check "$f: info.txt and curve-sources.tsv" '[ -s "$tmp/hbm-$f/info.txt" ] && { [ $f = csv ] || [ $(wc -l <"$tmp/hbm-$f/curve-sources.tsv") -eq 52 ]; }'
done
check "mess: the simulator loads the reference export" 'simulate "$tmp/hbm-mess"'
check "profet: info.txt states the frequency and where it came from" \
	'grep -qx "CPU_FREQ=2.000000" "$tmp/hbm-profet/info.txt" && grep -qx "CPU_FREQ_SOURCE=--ghz" "$tmp/hbm-profet/info.txt"'
check "a run's mess/info.txt says its frequency was measured" 'grep -q "^CPU_FREQ_SOURCE=measured on the chase core" "$tmp/run/mess/info.txt"'

# Issue 35 item 5: clocks and units no consumer can misread.
# PROFET's loader given a directory (profet/curves.py _read_curves_file):
# more than one .json is an error; one .json is read as {"<R>": [[MB/s,
# cycles]]}, each key through int(); none: the bwlat*.txt files, as
# cycles.  Here, what it does with a folder: "cycles" (it would read ns
# as cycles), "json" (it reads a curves document), or the error it raises.
profet_dir() {
	python3 - "$1" <<'PY'
import json, os, sys
d = sys.argv[1]
js = [f for f in os.listdir(d) if f.endswith('.json')]
try:
    if len(js) > 1:
        raise Exception('Only one JSON file is allowed in the curves directory')
    if len(js) == 1:
        for k, v in json.load(open(os.path.join(d, js[0]))).items():
            int(k); list(zip(*v))
        print('json')
    else:
        print('cycles' if any('bwlat' in f and f.endswith('.txt') for f in os.listdir(d)) else 'nothing')
except Exception as e:
    print('error: %s' % e)
PY
}
check "mess folder: PROFET's loader fails on it, naming --format profet, not reading ns as cycles" \
	'profet_dir "$tmp/hbm-mess" | grep -q "^error: invalid literal for int().*NOT FOR PROFET.*--format profet" &&
	 profet_dir "$tmp/run/mess" | grep -q "^error: .*NOT FOR PROFET"'
check "profet folder: PROFET reads its curves; the simulator finds no bwlat file in it" \
	'[ "$(profet_dir "$tmp/hbm-profet")" = json ] && ! ls "$tmp/hbm-profet" | grep -q bwlat'
check "mess folder: info.txt names frequencyCurve=1.0 for the older simulator class, in a key and a comment" \
	'grep -qx "FREQUENCY_CURVE=1.0 (.*BwLatMemCtrl.*)" "$tmp/hbm-mess/info.txt" &&
	 grep -q "^# .*BwLatMemCtrl.*frequencyCurve=1.0.*42.86 ns for 90.18 ns" "$tmp/hbm-mess/info.txt" &&
	 grep -q "^FREQUENCY_CURVE=1.0" "$tmp/run/mess/info.txt"'
# EPEEC4's Mess measured 2.78 GHz on a Xeon Gold 5218 of 2.3 GHz base.
"$mess" export "$ref/EPEEC4-CLX5218-DDR4" --out "$tmp/epeec4" 2>/dev/null
check "Mess's plotter.txt clock is the measured one; the nominal is system.md's, each named as such" \
	'grep -qx "CPU_FREQ_MEASURED=2.780 GHz (plotter.txt CPU_FREQ, measured by the Mess benchmark)" "$tmp/epeec4/info.txt" &&
	 grep -qx "CPU_FREQ_NOMINAL=2.300 GHz (system.md Frequency (GHz), the CPU.s stated base clock)" "$tmp/epeec4/info.txt" &&
	 grep -qx "CPU_FREQ=2.779692" "$tmp/epeec4/info.txt" && grep -qx "CPU_FREQ_SOURCE=the measured clock (CPU_FREQ_MEASURED)" "$tmp/epeec4/info.txt"'
"$mess" export "$hbm" --format profet --out "$tmp/hbm-own" 2>/dev/null
check "profet without --ghz: cycles at the measured clock, said measured" \
	'grep -qx "CPU_FREQ=2.185689" "$tmp/hbm-own/info.txt" && grep -q "^CPU_FREQ_SOURCE=the measured clock" "$tmp/hbm-own/info.txt"'
# A target set for PROFET: cycles at the base CPU's clock, not its own.
"$mess" export "$hbm" --format profet --base-ghz 2.5 --out "$tmp/hbm-base" 2>"$tmp/e"
check "--base-ghz 2.5: cycles = the mess export's ns x 2.5; info.txt says whose clock" \
	'[ $? -eq 0 ] && grep -qx "CPU_FREQ=2.500000" "$tmp/hbm-base/info.txt" &&
	 grep -q "^CPU_FREQ_SOURCE=--base-ghz: the base CPU.s clock" "$tmp/hbm-base/info.txt" &&
	 grep -q "^CPU_FREQ_MEASURED=2.186 GHz" "$tmp/hbm-base/info.txt" &&
	 python3 -c "
import json, sys
ns = sorted(tuple(map(float, l.split())) for l in open(sys.argv[1]))
cy = sorted(json.load(open(sys.argv[2]))[str(70)])
assert len(ns) == len(cy) > 2
for (b, l), (b2, c) in zip(ns, cy):
    assert abs(b - b2) <= 5e-4 and abs(l * 2.5 - c) <= 2.5 * 5e-4 + 1e-9, (b, l, b2, c)
" "$tmp/hbm-mess/bwlat_70.txt" "$tmp/hbm-base/curves.json"'
"$mess" export "$hbm" --format mess --base-ghz 2.5 --out "$tmp/hbm-base-mess" 2>"$tmp/e"
check "--base-ghz with --format mess: exit 1, one line, nothing written" \
	'[ $? -eq 1 ] && [ $(wc -l <"$tmp/e") -eq 1 ] && grep -q "^mess export: --base-ghz: not allowed with --format mess" "$tmp/e" && [ ! -e "$tmp/hbm-base-mess" ]'
check "--help says why --base-ghz" '"$mess" export --help | grep -q "base-ghz G" && "$mess" export --help | grep -q "cycles of the base CPU"'
# Issue 35 item 6: LLC_LATENCY_NS measured with every curves run (the
# last cache's plateau), in meta.json and so in every export of the run.
check "a run measures LLC_LATENCY_NS (or says why not) in meta.json; its exports carry it" \
	'if jq -e ".llc_latency.ns > 0" "$tmp/run/meta.json" >/dev/null; then
		ns=$(jq -r ".llc_latency.ns" "$tmp/run/meta.json")
		grep -q "^LLC_LATENCY_NS=$(printf %.3f "$ns") (the L[0-9] plateau measured with the run" "$tmp/run/mess/info.txt" &&
		grep -q "^LLC_LATENCY_NS=$(printf %.3f "$ns") (the L[0-9] plateau measured with the run" "$tmp/run-mess/info.txt"
	 else
		jq -e ".llc_latency.why | test(\"plateau|cache\")" "$tmp/run/meta.json" >/dev/null &&
		grep -q "^LLC_LATENCY_NS=unknown (not measured: " "$tmp/run/mess/info.txt"
	 fi'
"$mess" --quick --no-plots --no-ladder --buffer 32M --gen-bytes 8M --chase-ms 5 --mixes 0 --out "$tmp/run-nl" >/dev/null 2>&1
check "--no-ladder: no plateau measured, meta.json and info.txt say why" \
	'[ "$(jq -r ".llc_latency.ns, .llc_latency.why" "$tmp/run-nl/meta.json" | tr "\n" " ")" = "null not measured: --no-ladder " ] &&
	 grep -qx "LLC_LATENCY_NS=unknown (not measured: --no-ladder; no latency ladder beside this set; mess ladder measures one)" <("$mess" export "$tmp/run-nl" --force --out "$tmp/run-nl-x" 2>/dev/null; cat "$tmp/run-nl-x/info.txt")'
# A VM states its clock in /proc/cpuinfo's cpu MHz only (no cpufreq in
# sysfs, none in the model name): nominal, not unknown.
if [ ! -e /sys/devices/system/cpu/cpu0/cpufreq ] && grep -q "^cpu MHz" /proc/cpuinfo && ! grep -m1 "^model name" /proc/cpuinfo | grep -q "@ "; then
	check "no cpufreq in sysfs: the nominal clock from /proc/cpuinfo cpu MHz, not unknown" \
		'jq -e ".cpu_frequency.nominal_ghz > 0 and (.cpu_frequency.nominal_source | test(\"cpu MHz\"))" "$tmp/run/meta.json" >/dev/null &&
		 grep -q "^CPU_FREQ_NOMINAL=[0-9.]* GHz (/proc/cpuinfo cpu MHz" "$tmp/run/mess/info.txt"'
fi
# PROFET in cycles back to ns through our reader: the 70% curve equals the mess one.
"$mess" export "$tmp/hbm-profet" --format json --ghz 2 --out "$tmp/back" 2>/dev/null
check "profet round trip: cycles / GHz = the ns of the mess export" \
	'diff <(awk "{print \$1, \$2}" "$tmp/hbm-mess/bwlat_70.txt" | sort -n) \
	      <(jq -r ".curves[\"70\"].points[] | \"\(.[0]) \(.[1])\"" "$tmp/back/mess-curves.json" |
		awk "{printf \"%.3f %.3f\n\", \$1, \$2}" | sort -n) >/dev/null'
# 15 of the HBM set's shares have a curve within 0.1 % of share (issue 48's
# snapping; 17 within the 1 % of before).
check "the mess export read back keeps only its measured shares" \
	'"$mess" export "$tmp/hbm-mess" --format json --out "$tmp/back2" 2>&1 | grep -q "15 read shares measured"'
check "csv: memory_curves.csv reads back as the same set" \
	'"$mess" export "$tmp/hbm-csv" --format json --out "$tmp/back3" 2>&1 | grep -q "15 read shares measured"'
check "a cycle-based set without a frequency is refused with a line" \
	'mkdir "$tmp/p" && cp "$tmp/hbm-profet/curves.json" "$tmp/p/" && ! "$mess" export "$tmp/p" --out "$tmp/x" 2>"$tmp/e" && grep -q -- "--ghz" "$tmp/e" && [ ! -e "$tmp/x" ]'
# Issue 22 item 19: the csv format keeps no tally and writes no
# curve-sources.tsv, so its line cites neither; a run's meta.json is no
# curve file (it was taken for a PROFET set and asked for --ghz).
g=tests/fixtures/readers/good-run
check "csv: the line says what was written, no curve-sources.tsv cited or written" \
	'"$mess" export "$g" --format csv --out "$tmp/gcsv" 2>"$tmp/e" && grep -q "format csv: 1 curve as measured" "$tmp/e" &&
	 ! grep -q "curve-sources" "$tmp/e" && [ ! -e "$tmp/gcsv/curve-sources.tsv" ] && [ -s "$tmp/gcsv/memory_curves.csv" ]'
check "a run's meta.json is not a curve file (no --ghz asked), nothing written" \
	'! "$mess" export "$g/meta.json" --out "$tmp/gmeta" 2>"$tmp/e" && [ "$(wc -l <"$tmp/e")" -eq 1 ] &&
	 grep -q "not a curve file but a run.s meta.json" "$tmp/e" && ! grep -q -- "--ghz" "$tmp/e" && [ ! -e "$tmp/gmeta" ]'
start=$(date +%s%N)
"$mess" export "$ref/MN5-GPP-SPR8480-DDR5" --out "$tmp/t" 2>/dev/null
ms=$(( ($(date +%s%N) - start) / 1000000 ))
echo "export: DDR5 reference set to the mess format in $ms ms"
check "export takes under a second (wide bound)" '[ $ms -lt 1000 ]'
# A run whose measured clock spread 78 % at 0.86 GHz (issue 46 item 7: a
# PROFET set went out at it with a note): where the run states its
# nominal clock, the cycles are at that one, said in one line why; where
# it states none, refused without --force (tests/import.sh).
"$mess" curves --replay "$ref/MN5-GPP-SPR8480-DDR5" --replay-seed 1 --out "$tmp/clk-replay" >/dev/null 2>&1
jq '.cpu_frequency.measured_ghz = 0.86 | .cpu_frequency.measured_spread_pct = 78 |
    .cpu_frequency.nominal_ghz = 2.1 | .cpu_frequency.nominal_source = "cpufreq base_frequency"' \
	"$tmp/clk-replay/meta.json" >"$tmp/clk.json" && mv "$tmp/clk.json" "$tmp/clk-replay/meta.json"
"$mess" export "$tmp/clk-replay" --format profet --out "$tmp/clk-profet" 2>"$tmp/clk.err"
rc=$?
check "profet, measured clock 0.86 GHz spread 78 %, nominal 2.1: exported at the nominal clock, one line why (exit $rc)" \
	'[ $rc -eq 0 ] && grep -qx "CPU_FREQ=2.100000" "$tmp/clk-profet/info.txt" &&
	 grep -q "^CPU_FREQ_SOURCE=the nominal clock (CPU_FREQ_NOMINAL): the measured one (CPU_FREQ_MEASURED) spread 78.0 %" "$tmp/clk-profet/info.txt" &&
	 [ "$(grep -c "CPU_FREQ=2.100 GHz, the nominal clock (cpufreq base_frequency): the measured 0.860 GHz spread 78.0 %" "$tmp/clk.err")" -eq 1 ]' ||
	cat "$tmp/clk.err"
# --force (given for a verdict) takes no clock that spread: it went out at
# 0.86 GHz with a note.
"$mess" export "$tmp/clk-replay" --format profet --force --out "$tmp/clk-force" 2>/dev/null
check "the same with --force: still the nominal clock, not the spread one" \
	'grep -qx "CPU_FREQ=2.100000" "$tmp/clk-force/info.txt"'
"$mess" export "$tmp/clk-replay" --format profet --ghz 3.0 --out "$tmp/clk-ghz" 2>/dev/null
check "the same with --ghz 3.0: at that clock" 'grep -qx "CPU_FREQ=3.000000" "$tmp/clk-ghz/info.txt"'

echo "export: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
