#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# End to end: ./run.sh absorb on every kernel with two noise modes and
# short runs, then every file of the absorption contract; an interrupted
# run resumed to completion; a second run into the same --out refused;
# mess ladder alone, whole, --strict and interrupted; the verdict block of
# both commands.
# The figures of so short a run mean little: the files must be complete
# and well formed.
set -u
cd "$(dirname "$0")/.."
out=$(mktemp -d /tmp/mess-absorb-smoke.XXXXXX)
trap '[ -n "${KEEP:-}" ] || rm -rf "$out"' EXIT
pass=0 fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*"; }
check() { if eval "$2"; then ok; else bad "$1"; fi; }

KMAX=16
MODES="fp_add64 memory_ld64"
# Every kernel, both SPMXV sizes, one q; STREAM and SPMXV on all cores
# (threads, barrier, slowest thread), the others on one: 5 rows.
args=(absorb --quick --modes "${MODES// /,}" --q 0.5 --cores all --kmax $KMAX
      --run-ms 4 --repeats 3)
ROWS=5

# check_verdict DIR MD TOOL STDERR: meta.json's verdict block (one of PASS, WARN,
# INVALID with its reasons, the environment looked at before the start), the
# markdown's body opening with it, and the closing lines saying it first.
check_verdict() {
	local d=$1 md=$2 tool=$3 err=$4
	check "$tool: meta.json quality.verdict is PASS, WARN or INVALID, reasons an array of level/rule/text" \
		'jq -e ".quality.verdict as \$v | ([\"PASS\", \"WARN\", \"INVALID\"] | index(\$v)) != null and (.quality.reasons | type) == \"array\" and all(.quality.reasons[]; (.level | type) == \"string\" and (.rule | length) > 0 and (.text | length) > 0) and (.quality.reasons_dropped | type) == \"number\"" "$d/meta.json" >/dev/null'
	check "$tool: a WARN or INVALID verdict has a reason of that level" \
		'jq -e ".quality as \$q | \$q.verdict == \"PASS\" or any(\$q.reasons[]; .level == \$q.verdict)" "$d/meta.json" >/dev/null'
	check "$tool: meta.json environment (load, PUs, cpufreq, huge pages)" \
		'jq -e ".environment | has(\"loadavg\") and (.pus | length) >= 1 and has(\"cpufreq\") and has(\"huge_pages\") and has(\"other_tasks\")" "$d/meta.json" >/dev/null'
	check "$tool: $md's body starts with the verdict" \
		'[ "$(grep -v "^\(# \|\$\)" "$d/$md" | head -1)" = "## Verdict: $(jq -r .quality.verdict "$d/meta.json")" ]'
	check "$tool: $md has the environment right after the verdict" \
		'awk "/^## Verdict/ { v = 1 } v && /^Before the start, over/ { ok = 1 } /^## [^V]/ && v && !ok { exit 1 } END { exit !ok }" "$d/$md"'
	check "$tool: the verdict is the first closing line on stderr" \
		'grep -E "^mess $tool: (verdict|done|interrupted|failed)" "$err" | head -1 | grep -q "^mess $tool: verdict $(jq -r .quality.verdict "$d/meta.json")"'
}

# latest FILE: absorption_points.csv's points, header left off, each by its
# last row: a point taken further gets a later row holding all its pairs,
# which replaces the earlier (results/README.md).
latest() {
	tail -n +2 "$1" | awk -F, '{ k = $1 FS $2 FS $3 FS $4 FS $5 FS $6 FS $20; if (!(k in r)) o[++n] = k; r[k] = $0 } END { for (i = 1; i <= n; i++) print r[o[i]] }'
}

# check_absorb_dir DIR STDERR: the contract of a complete run of $args.
check_absorb_dir() {
	local d=$1 err=$2 f id m
	for f in absorption.csv absorption.md absorption_points.csv meta.json resume.json ladder.csv summary.json; do
		check "$f exists and is not empty" '[ -s "$d/$f" ]'
	done
	check "absorption.csv header" \
		'[ "$(head -1 "$d/absorption.csv")" = "kernel,variant,cores,q,mode,k1,k1_rel,k2,slope_ns,base_ns,perf,perf_unit,runs,status,k1_lo,k1_hi,fit,r2,speedup_k,speedup_rel,pairs,disturbed_pairs,remeasured_pairs,table" ]'
	check "absorption_points.csv header" \
		'[ "$(head -1 "$d/absorption_points.csv")" = "kernel,variant,cores,q,mode,k,time_ns,repeats,spread_ns,paired_base_ns,ci_lo_ns,ci_hi_ns,verdict,disturbed_pairs,remeasured_pairs,kept_disturbed_pairs,steal_ticks,invol_cs,freq_mhz,table,instr_per_iter,cycles_per_iter" ]'
	check "absorption.csv: one row per row x mode ($ROWS x 2)" \
		'[ "$(tail -n +2 "$d/absorption.csv" | wc -l)" -eq $((ROWS * 2)) ]'
	check "absorption.csv: no row x mode twice" \
		'[ -z "$(tail -n +2 "$d/absorption.csv" | cut -d, -f1-5 | sort | uniq -d)" ]'
	# 24 fields; k1 an integer <= kmax; k1_rel, k2, slope numbers or nan;
	# base and perf > 0; status ok/none/wide/unclear; none means k1 = 0;
	# k1_lo <= k1 < k1_hi (nan: nothing confidently slow); fit a shape;
	# pairs at least 2 a point; disturbed >= measured again; table 1.
	check "absorption.csv rows well formed" \
		'awk -F, -v kmax=$KMAX "
			function num(x) { return x == \"nan\" || x ~ /^-?[0-9.]+(e[-+]?[0-9]+)?\$/ }
			NR > 1 && !(NF == 24 && \$6 ~ /^[0-9]+\$/ && \$6 <= kmax &&
			    num(\$7) && num(\$8) && num(\$9) && \$10 > 0 && \$11 > 0 &&
			    \$12 != \"\" && \$13 >= 1 &&
			    \$14 ~ /^(ok|none|wide|unclear)\$/ && (\$14 != \"none\" || \$6 == 0) &&
			    \$15 ~ /^[0-9]+\$/ && \$15 <= \$6 && (\$16 == \"nan\" || \$16 > \$6) &&
			    \$17 ~ /^(linear|sublinear|none)\$/ && num(\$18) && num(\$19) && num(\$20) &&
			    \$21 >= 2 * \$13 && \$22 >= \$23 && \$24 == 1) { exit 1 }" "$d/absorption.csv"'
	check "absorption.csv: no bare question mark, a wide k1 with both ends in absorption.md" \
		'! grep -qE "\| [0-9]+\? \|" "$d/absorption.md" && awk -F, "NR > 1 && \$14 == \"wide\" && \$16 != \"nan\" { print \$6 \" (\" \$15 \"–\" \$16 \")\" }" "$d/absorption.csv" | while read -r c; do grep -qF "$c" "$d/absorption.md" || exit 1; done'
	check "absorption.csv: k2 and slope come together" \
		'awk -F, "NR > 1 && ((\$8 == \"nan\") != (\$9 == \"nan\")) { exit 1 }" "$d/absorption.csv"'
	check "absorption.csv: modes are the ones asked for" \
		'[ "$(tail -n +2 "$d/absorption.csv" | cut -d, -f5 | sort -u | tr "\n" " ")" = "fp_add64 memory_ld64 " ]'
	check "absorption.csv: perf units" \
		'awk -F, "NR > 1 && !((\$1 == \"stream\" && \$12 == \"GB/s\") || (\$1 == \"lat_mem_rd\" && \$12 == \"ns/load\") || (\$1 == \"haccmk\" && \$12 == \"GFLOP/s\") || (\$1 == \"spmxv\" && \$12 == \"GFLOP/s/core\")) { exit 1 }" "$d/absorption.csv"'
	# The baseline: --repeats 3 pairs; the others 4 to 15 (the sequential
	# test, at most 10 with --quick), their interval around them, a verdict; counts >= 0.
	# A point taken further: up to meta.json sequential_test.ext_pairs.
	check "absorption_points.csv rows well formed (22 fields, 0 <= k <= kmax, t > 0, spread >= 0, paired base > 0, pairs, interval, verdict, counts)" \
		'awk -F, -v kmax=$KMAX -v ext=$(jq .sequential_test.ext_pairs "$d/meta.json") "NR > 1 && !(NF == 22 && \$6 ~ /^[0-9]+\$/ && \$6 <= kmax && \$7 > 0 && \$9 >= 0 && \$10 > 0 &&
			((\$6 == 0 && \$8 == 3 && \$13 == \"base\") ||
			 (\$6 > 0 && \$8 >= 4 && \$8 <= (ext > 10 ? ext : 10) && \$11 <= \$7 && \$7 <= \$12 && \$13 ~ /^(fast|slow|doubtful)\$/)) &&
			\$14 >= \$15 && \$14 >= \$16 && \$17 ~ /^[0-9]+\$/ && \$18 ~ /^[0-9]+\$/ && \$20 == 1 &&
			(\$21 == \"nan\" || \$21 > 0) && (\$22 == \"nan\" || \$22 > 0)) { exit 1 }" "$d/absorption_points.csv"'
	# Counted only where the core PMU counts: then every point has both,
	# and more noise never runs fewer instructions; without, nan throughout.
	if jq -e ".counters.why_not == null" "$d/meta.json" >/dev/null; then
		check "absorption_points.csv: instructions and cycles per iteration on every point, growing with k" \
			'awk -F, "NR > 1 { if (\$21 == \"nan\" || \$22 == \"nan\") exit 1; key = \$1 \",\" \$2 \",\" \$3 \",\" \$4 \",\" \$5; if (\$6 == 0) base[key] = \$21; else if (key in base && \$21 < base[key] * 0.99) exit 1 }" "$d/absorption_points.csv"'
	else
		check "absorption_points.csv: no core counters here: nan, never 0, and meta says why" \
			'jq -e ".counters.core_events == \"not counted\" and (.counters.why_not | length) > 10" "$d/meta.json" >/dev/null && awk -F, "NR > 1 && (\$21 != \"nan\" || \$22 != \"nan\") { exit 1 }" "$d/absorption_points.csv"'
	fi
	check "pairs in absorption.csv = pairs in absorption_points.csv (each point's last row)" \
		'[ "$(tail -n +2 "$d/absorption.csv" | awk -F, "{ s += \$21 } END { print s }")" -eq "$(latest "$d/absorption_points.csv" | awk -F, "{ s += \$8 } END { print s }")" ]'
	check "meta.json: disturbance totals = the points' sums (each point's last row)" \
		'[ "$(jq ".disturbance.pairs_disturbed" "$d/meta.json")" -eq "$(latest "$d/absorption_points.csv" | awk -F, "{ s += \$14 } END { print s + 0 }")" ] &&
		 [ "$(jq ".disturbance.steal_ticks" "$d/meta.json")" -eq "$(latest "$d/absorption_points.csv" | awk -F, "{ s += \$17 } END { print s + 0 }")" ]'
	check "absorption_points.csv: a baseline (k = 0) for every row x mode" \
		'[ "$(awk -F, "NR > 1 && \$6 == 0" "$d/absorption_points.csv" | wc -l)" -eq $((ROWS * 2)) ]'
	check "absorption_points.csv: a k twice in a row x mode only as a point taken further (more pairs, past max_pairs)" \
		'tail -n +2 "$d/absorption_points.csv" | awk -F, -v mp=$(jq .sequential_test.max_pairs "$d/meta.json") "{ k = \$1 FS \$2 FS \$3 FS \$4 FS \$5 FS \$6 FS \$20; if ((k in n) && n[k] < mp) exit 1; n[k] = \$8 }"'
	# Each point's verdict (its last row) as its reader takes it: the
	# line t0 x (1 + 3 %), the indifference zone sequential_test.zone x
	# 3 % about it.
	check "absorption_points.csv: every verdict as its median and interval lie against the line and the zone" \
		'jq -e ".sequential_test.zone == 0.5" "$d/meta.json" >/dev/null && latest "$d/absorption_points.csv" | awk -F, -v z=0.5 -v thr=0.03 "{ key = \$1 FS \$2 FS \$3 FS \$4 FS \$5 FS \$20; if (\$6 == 0) { b[key] = \$7; next } t = \$7 / b[key] - 1; lo = \$11 / b[key] - 1; hi = \$12 / b[key] - 1; e = 1e-6; want = (t > thr + e && lo > thr - z * thr + e) ? \"slow\" : (t <= thr - e && hi <= thr + z * thr - e) ? \"fast\" : \"?\"; bad = (want != \"?\" && \$13 != want) || (\$13 == \"slow\" && !(t > thr - e && lo > thr - z * thr - e)) || (\$13 == \"fast\" && !(t <= thr + e && hi <= thr + z * thr + e)); if (bad) { printf \"    %s: t %+.4f, interval %+.4f .. %+.4f\\n\", \$0, t, lo, hi; exit 1 } }"'
	check "runs in absorption.csv = points in absorption_points.csv" \
		'[ "$(tail -n +2 "$d/absorption.csv" | awk -F, "{ s += \$13 } END { print s }")" -eq "$(latest "$d/absorption_points.csv" | wc -l)" ]'
	check "absorption.md: the table" 'grep -q "^| kernel | variant | cores | q | performance | fp_add64 | memory_ld64 |" "$d/absorption.md"'
	check "absorption.md: one table line per row" \
		'[ "$(grep -cE "^\| (stream|lat_mem_rd|haccmk|spmxv) \|" "$d/absorption.md")" -eq $ROWS ]'
	check "absorption.md explains statuses, brackets and disturbance" \
		'grep -q "bracket" "$d/absorption.md" && grep -q "threshold" "$d/absorption.md" && grep -q "disturbance:" "$d/absorption.md"'
	# The latency ladder: 4 KiB (x1.5, x2 steps) to 4x the LLC, plateaus
	# in summary.json, one per hwloc cache level and memory last.
	check "ladder.csv header" \
		'[ "$(head -1 "$d/ladder.csv")" = "size_bytes,lat_ns,repeats,spread_ns,loads_per_run,disturbed,disturbed_kept,lost_pct,steal_ms" ]'
	check "ladder.csv: sizes from 4 KiB strictly rising to >= 4x LLC - stride, latencies > 0" \
		'awk -F, -v top=$(($(jq .llc_bytes "$d/meta.json") * 4 - 64)) "NR == 2 && \$1 != 4096 { exit 1 } NR > 2 && \$1 <= last { exit 1 } NR > 1 && !(\$2 > 0 && \$3 == 3) { exit 1 } NR > 1 { last = \$1 } END { if (NR < 12 || last < top) exit 1 }" "$d/ladder.csv"'
	check "summary.json: ladder levels, memory last, each with a status" \
		'jq -e ".latency_ladder.levels as \$l | (\$l | length) >= 2 and \$l[-1].level == \"memory\" and all(\$l[]; (.status | type) == \"string\" and (.latency_ns == null or .latency_ns > 0)) and .latency_ladder.stride_bytes == 64" "$d/summary.json" >/dev/null'
	check "summary.json: the L1 plateau was measured" \
		'jq -e ".latency_ladder.levels[0] | .level == \"L1\" and .points >= 2 and .latency_ns > 0" "$d/summary.json" >/dev/null'
	check "absorption.md: the ladder table" 'grep -q "^## Latency ladder" "$d/absorption.md" && grep -q "^| memory |" "$d/absorption.md"'
	check "meta.json is JSON" 'jq -e . "$d/meta.json" >/dev/null'
	for k in schema tool version git_revision host cpu_model isa compiler cflags cores llc_bytes numa_nodes timer time repeats spread run_ms work threshold search noise modes k1_rel perf not_run rows plots start_utc end_utc complete environment quality strict; do
		check "meta.json has $k" 'jq -e "has(\"$k\")" "$d/meta.json" >/dev/null'
	done
	check "meta.json: complete, mess absorb, schema 3, K_MAX 256, kmax $KMAX" \
		'jq -e ".complete == true and .tool == \"mess absorb\" and .schema == 3 and .search.K_MAX == 256 and .search.kmax == $KMAX and .repeats == 3 and .tables == 1 and .sequential_test.min_pairs == 4 and (.disturbance.rule | type) == \"string\"" "$d/meta.json" >/dev/null'
	check "meta.json: threshold rule and --quick's values (a fixed 3 %, no spread term)" \
		'jq -e "(.threshold.rule | test(\"max\")) and .threshold.threshold == 0.03 and .threshold.sigmas == 0" "$d/meta.json" >/dev/null'
	check "meta.json: --quick's runs in 2 slices, interleaved" \
		'jq -e ".slices == 2 and (.interleave | test(\"coin\"))" "$d/meta.json" >/dev/null'
	check "meta.json: one entry per row, each with perf and work per mode" \
		'jq -e "(.rows | length) == $ROWS and all(.rows[]; .perf > 0 and (.work_per_run | length) == 2 and all(.work_per_run[]; . > 0))" "$d/meta.json" >/dev/null'
	check "meta.json: per row and mode the test's floor, pooled (0 < pooled_rel < 1) only from 30 deviations or more, else null" \
		'jq -e "all(.rows[]; (.noise_floor | length) == 2 and all(.noise_floor[]; (.pairs_pooled >= 30 and .pooled_rel > 0 and .pooled_rel < 1) or (.pairs_pooled < 30 and .pooled_rel == null)))" "$d/meta.json" >/dev/null'
	check "meta.json: STREAM bytes and write-allocate" \
		'jq -e "any(.rows[]; .kernel == \"stream\" and .bytes_per_element_stream == 24 and .bytes_per_element_write_allocate == 32 and .triad_gbs_write_allocate > .perf)" "$d/meta.json" >/dev/null'
	check "meta.json: buffers >= 4x LLC (STREAM arrays, lat_mem_rd, memory_ld64 noise)" \
		'jq -e ".llc_bytes as \$l | all(.rows[] | select(.kernel == \"stream\"); .array_bytes >= 4 * \$l) and all(.rows[] | select(.kernel == \"lat_mem_rd\"); .buffer_bytes >= 4 * \$l) and .noise.memory_ld64_bytes_per_thread >= 4 * \$l" "$d/meta.json" >/dev/null'
	check_verdict "$d" absorption.md absorb "$err"
	check "quality.entries: the statuses of absorption.csv, counted" \
		'[ "$(jq -r ".quality.entries | [.done, .ok, .none, .wide, .unclear] | join(\" \")" "$d/meta.json")" = "$(awk -F, "NR > 1 { n++; c[\$14]++ } END { print n + 0, c[\"ok\"] + 0, c[\"none\"] + 0, c[\"wide\"] + 0, c[\"unclear\"] + 0 }" "$d/absorption.csv")" ]'
	check "quality: k1_doubtful as the rule says (WARN with some wide or unclear, INVALID past half), disturbed as the totals say, none more than were run" \
		'jq -e ".quality as \$q | (\$q.entries.wide + \$q.entries.unclear) as \$w |
			([\$q.reasons[] | select(.rule == \"k1_doubtful\") | .level] | if \$w == 0 then length == 0 elif \$w * 2 > \$q.entries.done then . == [\"INVALID\"] else . == [\"WARN\"] end) and
			(\$q.pairs.kept_disturbed == .disturbance.pairs_kept_disturbed) and (\$q.pairs.disturbed == .disturbance.pairs_disturbed) and
			(\$q.pairs.disturbed <= \$q.pairs.run) and (\$q.pairs.kept_disturbed <= .disturbance.pairs_counted) and
			(\$q.pairs.disturbed == \$q.pairs.measured_again + \$q.pairs.kept_disturbed) and
			(any(\$q.reasons[]; .rule == \"disturbed\") == (\$q.pairs.kept_disturbed > 0)) and
			(\$q.entries.wide + \$q.entries.unclear <= \$q.entries.done * 0.5 or \$q.verdict == \"INVALID\") and
			(\$q.ladder.levels | length) >= 2 and \$q.strict == false" "$d/meta.json" >/dev/null'
	if command -v gnuplot >/dev/null; then
		for id in $(jq -r ".rows[].id" "$d/meta.json"); do
			check "plots/absorb-$id.png is a PNG" 'head -c 8 "$d/plots/absorb-$id.png" | grep -q PNG'
			check "plots/absorb-$id.svg is SVG" 'grep -q "<svg" "$d/plots/absorb-$id.svg"'
		done
		check "plots/ladder.png is a PNG" 'head -c 8 "$d/plots/ladder.png" | grep -q PNG'
		check "plots/absorb-spmxv.png is a PNG" 'head -c 8 "$d/plots/absorb-spmxv.png" | grep -q PNG'
		check "plots/absorb-spmxv.svg is SVG" 'grep -q "<svg" "$d/plots/absorb-spmxv.svg"'
	else
		echo "absorb-smoke: no gnuplot: plots not checked"
	fi
}

start=$(date +%s)
./run.sh "${args[@]}" --out "$out/run" >"$out/stdout" 2>"$out/stderr"
rc=$?
echo "absorb-smoke: ./run.sh ${args[*]} took $(($(date +%s) - start)) s, exit $rc"
check "exit status 0" '[ $rc -eq 0 ]' || tail -20 "$out/stderr"
d=$out/run
check "stdout names the run directory" 'grep -qx "$d" "$out/stdout"'
check "progress on stderr: kernel, mode, k, slowdown, ETA" \
	'grep -qE "stream-triad-c[0-9]+ fp_add64 k=[0-9]+: .* x[0-9.]+ of k=0.*ETA" "$out/stderr"'
check_absorb_dir "$d" "$out/stderr"

./run.sh "${args[@]}" --out "$d" >/dev/null 2>"$out/again.err"
rc=$?
check "a second run into the same --out is refused (exit $rc)" \
	'[ $rc -eq 1 ] && grep -q "already holds a run" "$out/again.err"'

# Interrupt a run after a few points, then resume it to completion.
./run.sh "${args[@]}" --out "$out/intr" >/dev/null 2>"$out/intr.err" &
pid=$!
for _ in $(seq 1 600); do
	[ -f "$out/intr/absorption_points.csv" ] &&
		[ "$(wc -l <"$out/intr/absorption_points.csv")" -ge 12 ] && break
	sleep 0.1
done
# run.sh runs a measurement in the foreground to close it with its block:
# the interrupt goes to mess, its child, as a terminal's Ctrl-C would.
pkill -INT -P $pid
wait $pid
rc=$?
check "interrupted run exits 130 (got $rc)" '[ $rc -eq 130 ]' || tail -5 "$out/intr.err"
check "interrupted meta.json says complete: false" 'jq -e ".complete == false" "$out/intr/meta.json" >/dev/null'
check "interrupted: a verdict all the same, with the reason it is partial, first in absorption.md" \
	'jq -e "any(.quality.reasons[]; .rule == \"partial\" and .level == \"WARN\")" "$out/intr/meta.json" >/dev/null &&
	 [ "$(grep -v "^\(# \|\$\)" "$out/intr/absorption.md" | head -1)" = "## Verdict: $(jq -r .quality.verdict "$out/intr/meta.json")" ]'
check "interrupted run kept its points" '[ "$(wc -l <"$out/intr/absorption_points.csv")" -ge 12 ]'
check "interrupted absorption.csv has its header" \
	'[ "$(head -1 "$out/intr/absorption.csv")" = "kernel,variant,cores,q,mode,k1,k1_rel,k2,slope_ns,base_ns,perf,perf_unit,runs,status,k1_lo,k1_hi,fit,r2,speedup_k,speedup_rel,pairs,disturbed_pairs,remeasured_pairs,table" ]'
# A point taken further before the interrupt: its later row (12 pairs, one
# more disturbed and measured again, its verdict as measured) replaces the earlier (10, doubtful) on
# --resume, in the tables and the totals (check_absorb_dir sums each
# point's last row; main kept the earlier row and dropped the later one).
pts="$out/intr/absorption_points.csv"
[ -z "$(tail -c1 "$pts")" ] || sed -i '$d' "$pts"
row=$(awk -F, 'NR > 1 && $6 > 0 { print NR; exit }' "$pts")
awk -F, -v OFS=, -v r="$row" 'NR == r { v = $13; $8 = 10; $13 = "doubtful" } { print }
	NR == r { $8 = 12; $13 = v; $14 += 1; $15 += 1; later = $0 } END { print later }' "$pts" >"$pts.new" &&
	mv "$pts.new" "$pts"
before=$(latest "$pts" | wc -l)
./run.sh absorb --resume "$out/intr" >/dev/null 2>"$out/resume.err"
rc=$?
check "resume exits 0 (got $rc)" '[ $rc -eq 0 ]' || tail -5 "$out/resume.err"
check "resumed meta.json: complete, resumed once, reused the $before points" \
	'jq -e ".complete == true and .resumed == 1 and .points_reused == $before" "$out/intr/meta.json" >/dev/null'
check_absorb_dir "$out/intr" "$out/resume.err"

# mess ladder alone: the same ladder files, its own meta.json and ladder.md,
# and an interrupted ladder keeps the sizes measured so far.
./run.sh ladder --quick --run-ms 2 --repeats 1 --out "$out/lad" >"$out/lad.out" 2>"$out/lad.err"
rc=$?
check "mess ladder exits 0 (got $rc)" '[ $rc -eq 0 ]' || tail -5 "$out/lad.err"
check_verdict "$out/lad" ladder.md ladder "$out/lad.err"
check "ladder: meta.json schema 2, quality per level (status, verdict, flat) and the runs' totals" \
	'jq -e ".schema == 2 and .strict == false and (.quality.levels | length) == (.quality.levels | map(select(.status and .verdict and (.flat | type) == \"boolean\")) | length) and .quality.levels[-1].level == \"memory\" and .quality.runs.kept_disturbed <= .quality.runs.disturbed and .quality.thresholds.flat_tol == 0.2" "$out/lad/meta.json" >/dev/null'
check "ladder: run totals in meta.json = ladder.csv sums (runs = repeats + those measured again)" \
	'[ "$(jq -r "[.quality.runs.measured, .quality.runs.disturbed, .quality.runs.kept_disturbed] | join(\" \")" "$out/lad/meta.json")" = "$(awk -F, "NR > 1 { r += \$3 + \$6 - \$7; d += \$6; k += \$7 } END { print r + 0, d + 0, k + 0 }" "$out/lad/ladder.csv")" ]'
check "ladder: ladder.csv rows well formed (9 fields, kept <= disturbed <= 2 x repeats, lost_pct a number)" \
	'awk -F, "NR > 1 && !(NF == 9 && \$6 ~ /^[0-9]+\$/ && \$7 ~ /^[0-9]+\$/ && \$7 <= \$6 && \$6 <= 2 * \$3 && \$8 ~ /^[0-9.e+-]+\$/) { exit 1 }" "$out/lad/ladder.csv"'
check "ladder: a level not flat is a warning naming it, and no plateau in the plot data" \
	'jq -r ".latency_ladder.levels[] | select(.flat == false and .points > 0) | .level" "$out/lad/summary.json" | while read -r lv; do
		jq -e --arg lv "$lv" "any(.quality.reasons[]; .rule == \"ladder_not_flat\" and (.text | contains(\$lv + \" (\")))" "$out/lad/meta.json" >/dev/null || exit 1
		[ ! -f "$out/lad/plots/ladder_levels.dat" ] || grep -q ",$lv,0\$" "$out/lad/plots/ladder_levels.dat" || exit 1
	done'
check "ladder: summary.json schema 2, each level flat and its runs disturbed" \
	'jq -e ".schema == 2 and all(.latency_ladder.levels[]; (.flat | type) == \"boolean\" and .kept_disturbed <= .disturbed_runs)" "$out/lad/summary.json" >/dev/null'
# --strict: accepted; INVALID exits 2 with the results kept, else 0.
./run.sh ladder --quick --run-ms 2 --repeats 1 --strict --no-plots --out "$out/lads" >/dev/null 2>"$out/lads.err"
rc=$?
v=$(jq -r .quality.verdict "$out/lads/meta.json" 2>/dev/null)
check "ladder --strict: exit 2 exactly when INVALID (got $rc, verdict $v), results kept" \
	'jq -e ".strict == true and .complete == true" "$out/lads/meta.json" >/dev/null &&
	 if [ "$v" = INVALID ]; then [ $rc -eq 2 ] && grep -q -- "--strict: the verdict is INVALID" "$out/lads.err"; else [ $rc -eq 0 ]; fi'
for f in ladder.csv summary.json ladder.md meta.json resume.json; do
	check "ladder: $f exists and is not empty" '[ -s "$out/lad/$f" ]'
done
check "ladder: stdout names the run directory" 'grep -qx "$out/lad" "$out/lad.out"'
check "ladder: csv header" \
	'[ "$(head -1 "$out/lad/ladder.csv")" = "size_bytes,lat_ns,repeats,spread_ns,loads_per_run,disturbed,disturbed_kept,lost_pct,steal_ms" ]'
check "ladder: meta.json complete, tool, repeats 1" \
	'jq -e ".complete == true and .tool == \"mess ladder\" and .repeats == 1 and (.huge_pages | type) == \"string\"" "$out/lad/meta.json" >/dev/null'
check "ladder: summary.json has memory last and every level a latency" \
	'jq -e ".latency_ladder.levels[-1].level == \"memory\" and all(.latency_ladder.levels[]; .latency_ns > 0)" "$out/lad/summary.json" >/dev/null'
check "ladder: sizes in the csv match summary.json" \
	'[ "$(tail -n +2 "$out/lad/ladder.csv" | wc -l)" = "$(jq .latency_ladder.sizes "$out/lad/summary.json")" ]'
./run.sh ladder --quick --out "$out/lad" >/dev/null 2>"$out/lad2.err"
rc=$?
check "ladder: a second run into the same --out is refused (exit $rc)" \
	'[ $rc -eq 1 ] && grep -q "already holds a run" "$out/lad2.err"'
./run.sh ladder --run-ms 20 --repeats 3 --out "$out/ladi" >/dev/null 2>"$out/ladi.err" &
pid=$!
for _ in $(seq 1 600); do
	[ "$(grep -c '^ladder: \[' "$out/ladi.err" 2>/dev/null)" -ge 3 ] && break
	sleep 0.1
done
pkill -INT -P $pid
wait $pid
rc=$?
check "ladder: interrupted exits 130 (got $rc)" '[ $rc -eq 130 ]' || tail -5 "$out/ladi.err"
check "ladder: interrupted meta.json says complete: false" \
	'jq -e ".complete == false" "$out/ladi/meta.json" >/dev/null'
check "ladder: interrupted ladder kept its sizes" \
	'[ "$(tail -n +2 "$out/ladi/ladder.csv" | wc -l)" -ge 3 ]'
check "ladder: interrupted: a verdict all the same, with the reason it is partial" \
	'jq -e "any(.quality.reasons[]; .rule == \"partial\" and .level == \"WARN\")" "$out/ladi/meta.json" >/dev/null'

# --tables 2: each row twice, one after the other; the spread per entry.
# With --strict: exit 2 exactly when the verdict is INVALID, results kept.
./run.sh absorb --quick --kernels haccmk --modes fp_add64 --kmax 16 --run-ms 4 \
	--repeats 3 --tables 2 --no-plots --strict --out "$out/tab" >/dev/null 2>"$out/tab.err"
rc=$?
v=$(jq -r .quality.verdict "$out/tab/meta.json" 2>/dev/null)
check "--tables 2 --strict exits 0, or 2 when INVALID (got $rc, verdict $v)" \
	'jq -e ".strict == true and .quality.strict == true and .complete == true" "$out/tab/meta.json" >/dev/null &&
	 if [ "$v" = INVALID ]; then [ $rc -eq 2 ] && grep -q -- "--strict: the verdict is INVALID" "$out/tab.err"; else [ $rc -eq 0 ]; fi' || tail -5 "$out/tab.err"
check "--tables 2: absorption.csv has the entry in tables 1 and 2" \
	'[ "$(tail -n +2 "$out/tab/absorption.csv" | cut -d, -f24 | tr "\n" " ")" = "1 2 " ]'
check "--tables 2: absorption_tables.csv has its k1 per table and the spread" \
	'[ "$(head -1 "$out/tab/absorption_tables.csv")" = "kernel,variant,cores,q,mode,tables,k1_values,statuses,k1_median,k1_min,k1_max,spread_rel,all_ok,within" ] &&
	 awk -F, "NR == 2 && \$6 == 2 && split(\$7, v, \" \") == 2 && \$10 <= \$9 && \$9 <= \$11 { ok = 1 } END { exit !ok || NR != 2 }" "$out/tab/absorption_tables.csv"'
check "--tables 2: absorption.md has the repeatability section, meta.json tables 2" \
	'grep -q "^## Repeatability: 2 tables" "$out/tab/absorption.md" && jq -e ".tables == 2" "$out/tab/meta.json" >/dev/null'

echo "absorb-smoke: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
