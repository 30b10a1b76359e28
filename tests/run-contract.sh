# SPDX-License-Identifier: MIT
# Sourced by tests/smoke.sh and tests/e2e.sh: the result-directory contract.
#   check_run_dir DIR MIXES MIN_POINTS
# MIXES: space-separated store percentages the run measured.  Needs check()
# from the caller.
check_run_dir() {
	local d=$1 mixes=$2 minpts=$3 s f k n
	local nmix
	nmix=$(echo $mixes | wc -w)
	for f in meta.json curves.csv summary.json summary.md plots/curves.png plots/curves.svg report.html; do
		check "$f exists and is not empty" '[ -s "$d/$f" ]'
	done
	check "meta.json is JSON" 'jq -e . "$d/meta.json" >/dev/null'
	for k in schema version git_revision host cpu_model isa cores llc_bytes numa_nodes huge_pages bw_source compiler cflags start_utc end_utc complete; do
		check "meta.json has $k" 'jq -e "has(\"$k\")" "$d/meta.json" >/dev/null'
	done
	check "meta.json complete" 'jq -e ".complete == true" "$d/meta.json" >/dev/null'
	check "meta.json huge_pages is hugetlb/thp/none" 'jq -e ".huge_pages | test(\"^(hugetlb|thp|none)$\")" "$d/meta.json" >/dev/null'
	check "meta.json vector width" 'jq -e ".generator.vector_width_bytes > 0" "$d/meta.json" >/dev/null'
	check "curves.csv header" '[ "$(head -1 "$d/curves.csv")" = "store_pct,read_pct,nop,bw_gbs,read_bw_gbs,write_bw_gbs,lat_ns,lat_ns_std,repeats,bw_source,acc_read_bw_gbs,acc_write_bw_gbs,lat_nowalk_ns,counter_run_frac,bw_gbs_std,disturbed,disturbed_kept,lost_pct,steal_ms,invol_switches,migrations,ghz_min,ghz_max,remeasured,flags,lat_p50_ns,lat_p90_ns,lat_p99_ns,lat_p999_ns,lat_max_ns,dist_mean_diff_pct,fair_min,fair_median,fair_max,fair_jain,dist_cost_ns,dist_preempted,dist_l2_share_pct,dist_l2_ns" ]'
	for s in $mixes; do
		check "mix $s has >= $minpts points" '[ "$(awk -F, -v s=$s "NR>1 && \$1==s" "$d/curves.csv" | wc -l)" -ge $minpts ]'
	done
	check "every row: 39 fields, positive bw and latency, counted or accounted, the accounted figure always" \
		'awk -F, "NR>1 && !(NF==39 && \$4>0 && \$7>0 && (\$10==\"accounted\" || \$10==\"counters\") && \$11 != \"\") {exit 1}" "$d/curves.csv"'
	# Trust: every point says what disturbed it, never more kept than
	# found, a clock where it was measured, and flags from the rule list.
	check "every row: disturbed >= disturbed_kept >= 0, lost_pct and invol_switches measured, 0 < ghz_min <= ghz_max" \
		'awk -F, "NR>1 && !(\$16!=\"\" && \$16>=\$17 && \$17>=0 && \$18!=\"\" && \$20!=\"\" && \$22>0 && \$22<=\$23) {exit 1}" "$d/curves.csv"'
	check "every row: flags are rule names" \
		'awk -F, "NR>1 && \$25!=\"\" && \$25 !~ /^((disturbed|spread|unsteady|non_monotone|stall|below_unloaded|dist_disagrees);?)+\$/ {exit 1}" "$d/curves.csv"'
	# The distribution (issue 25): every row's quantiles in order where
	# measured, the histogram's rows, meta.json's timer and fixed cost.
	check "every row: p50 <= p90 <= p99 <= p99.9 <= max where measured" \
		'awk -F, "NR>1 && \$26!=\"\" && !(\$26>0 && \$26<=\$27 && \$27<=\$28 && \$28<=\$29 && \$29<=\$30) {exit 1}" "$d/curves.csv"'
	check "latency_hist.csv: header, the unloaded rows, every count positive" \
		'[ "$(head -1 "$d/latency_hist.csv")" = "mix,nop,bin_lo_ns,bin_hi_ns,count" ] &&
		 grep -q "^unloaded,," "$d/latency_hist.csv" &&
		 awk -F, "NR>1 && !(NF==5 && \$5>0 && \$4>\$3) {exit 1}" "$d/latency_hist.csv"'
	check "meta.json distribution: timer, rate source, resolution, batch, fixed cost, unloaded quantiles" \
		'jq -e ".distribution.status == \"measured\" and (.distribution.timer | length > 0) and .distribution.timer_hz > 0 and (.distribution.timer_rate_source | length > 0) and .distribution.resolution_ns > 0 and .distribution.loads_per_batch >= 1 and (.distribution.fixed_cost_ns_per_batch | type == \"number\") and (.distribution.unloaded.p50_ns == null or .distribution.unloaded.p50_ns > 0) and .distribution.unloaded.batches > 0 and (.distribution.modes | type == \"array\") and (.distribution.fairness.mixes | length) == $nmix" "$d/meta.json" >/dev/null'
	# The windows' own fixed costs (issue 32 item 1): one per kept window
	# that had its own, none a window measured again for the lack of one
	# may hide; every point's dist_cost_ns is a cost (>= 0).
	check "meta.json windows_check: own costs measured, no_own_cost counted, curves.csv dist_cost_ns >= 0" \
		'jq -e ".distribution.windows_check | .own_costs.measured >= 1 and .own_costs.median_ns >= 0 and (.own_costs.method | length > 0) and (.disturbed_windows.no_own_cost | type == \"number\")" "$d/meta.json" >/dev/null &&
		 awk -F, "NR>1 && \$36 != \"\" && \$36 < 0 {exit 1}" "$d/curves.csv"'
	# Fairness (issue 32 item 7): which point each mix was judged at, and
	# null, never false, where it cannot be judged (one generator core).
	check "meta.json host_state: a verdict, its probes and rule, kept windows no more than measured again, and host_state or host_state_minority exactly when changed" \
		'jq -e "(.distribution.host_state | (.verdict | IN(\"steady\", \"changed\", \"not evaluable\")) and (.rule | length > 0) and .windows_kept_changed <= .windows_measured_again and (.verdict == \"not evaluable\" or (.l2_probes.measured >= 1 and .l2_ref_ns > 0 and .l2_bound_ns > .l2_ref_ns)) and ((.verdict == \"changed\") == (.windows_kept_changed > 0))) and ((.distribution.host_state.verdict == \"changed\") == any(.quality.reasons[]; .rule == \"host_state\" or .rule == \"host_state_minority\")) and (.distribution.unloaded | has(\"l2_share_pct\") and has(\"l2_ns\"))" "$d/meta.json" >/dev/null'
	check "meta.json fairness: not_evaluable, a judged point and a verdict (true, false or null) per mix" \
		'jq -e ".distribution.fairness | has(\"not_evaluable\") and all(.mixes[]; has(\"judged_point\") and (.unfair_under_saturation | . == null or type == \"boolean\")) and all(.mixes[].judged_point | select(. != null); .chosen == \"saturated\" or .chosen == \"heaviest\")" "$d/meta.json" >/dev/null'
	check "meta.json fairness: under two generator cores, null everywhere and said why" \
		'jq -e ".distribution.fairness | .generator_cores >= 2 or (.unfair_under_saturation == null and (.not_evaluable | length > 0) and all(.mixes[]; .unfair_under_saturation == null))" "$d/meta.json" >/dev/null'
	check "meta.json quality: a verdict, its reasons, one status per mix" \
		'jq -e "(.quality.verdict | test(\"^(PASS|WARN|INVALID)$\")) and (.quality.reasons | type == \"array\") and (.quality.mixes | length) == $nmix and all(.quality.mixes[]; .status | test(\"^(ok|warn|invalid)$\"))" "$d/meta.json" >/dev/null'
	check "meta.json quality: PASS has no WARN or INVALID reason, else one names it" \
		'jq -e "(.quality.verdict == \"PASS\") == ([.quality.reasons[] | select(.level != \"note\")] | length == 0)" "$d/meta.json" >/dev/null'
	check "meta.json quality: windows counted, disturbed ones no more than measured" \
		'jq -e ".quality.windows.measured > 0 and .quality.windows.disturbed <= .quality.windows.measured and .quality.windows.kept_disturbed <= .quality.windows.disturbed" "$d/meta.json" >/dev/null'
	check "meta.json environment: load, the used PUs, cpufreq and huge pages" \
		'jq -e ".environment.loadavg | length == 3" "$d/meta.json" >/dev/null &&
		 jq -e "(.environment.pus | length) >= 1 and (.environment.cpufreq | has(\"governor\")) and (.environment.huge_pages | has(\"thp_enabled\"))" "$d/meta.json" >/dev/null'
	check "summary.md leads with the verdict" \
		'[ "$(grep -m1 "^## " "$d/summary.md")" = "## Verdict: $(jq -r .quality.verdict "$d/meta.json")" ]'
	check "summary.json is JSON with unloaded latency" 'jq -e ".unloaded_ns > 0" "$d/summary.json" >/dev/null'
	check "summary.json has one entry per curve" 'jq -e "(.curves | length) == $nmix" "$d/summary.json" >/dev/null'
	check "summary.md mentions unloaded latency" 'grep -qi "unloaded" "$d/summary.md"'
	check "plots/curves.png is a PNG" 'head -c 8 "$d/plots/curves.png" | grep -q PNG'
	check "plots/curves.svg is SVG" 'grep -q "<svg" "$d/plots/curves.svg"'
	# The Mess simulator opens bwlat_0 ... bwlat_100 and indexes them by
	# position: every one must be there, and nothing else by that name.
	n=$(ls "$d"/mess/ | grep -c bwlat)
	check "mess/ has the simulator's 51 bwlat files, got $n" '[ "$n" -eq 51 ]'
	check "every even share 0..100 has its file" \
		'for r in $(seq 0 2 100); do [ -s "$d/mess/bwlat_$r.txt" ] || exit 1; done'
	check "bwlat files: two non-negative numbers, bandwidth strictly descending" \
		'for f in "$d"/mess/bwlat_*.txt; do awk "NF!=2 || \$1<0 || \$2<=0 || (NR>1 && \$1>=prev) {exit 1} {prev=\$1}" "$f" || exit 1; done'
	check "curve-sources.tsv: 51 shares, $nmix or fewer measured" \
		'[ $(awk -F"\t" "NR>1" "$d/mess/curve-sources.tsv" | wc -l) -eq 51 ] &&
		 m=$(awk -F"\t" "NR>1 && \$3==\"measured\"" "$d/mess/curve-sources.tsv" | wc -l) &&
		 [ "$m" -ge 1 ] && [ "$m" -le $nmix ]'
	# PROFET's loader reads a folder's one .json before its bwlat files:
	# the only one here is the marker it fails on (issue 35).
	check "mess/'s one JSON is not-for-profet.json, which PROFET's loader fails on" \
		'[ "$(ls "$d"/mess/ | grep "\.json$")" = not-for-profet.json ] &&
		 ! python3 -c "import json, sys; [int(k) for k in json.load(open(sys.argv[1]))]" "$d/mess/not-for-profet.json" 2>/dev/null'
}
