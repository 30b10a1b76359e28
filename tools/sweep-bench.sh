#!/bin/sh
# SPDX-License-Identifier: MIT
# The autotuned sweep against six real servers: every public curve set
# (../shared/reference/mess-results) replayed (mess curves --replay) at each
# noise level and seed by each sweep rule (the knee rule, the default,
# and --sweep classic, the rule before it), scored against the set
# (tests/bench/sweep_score.c says how), beside Mess's fixed 42-pause grid
# and a 15-pause lite grid sampled from the same replay with the same
# noise.  Writes a markdown table on stdout (and the per-run lines in
# OUT/runs.tsv).  Issue 47's goal reads in its columns: points/mix max
# <= 10, latency error median <= 2 % (and the worst seed's), max-bandwidth
# error on the worst mix <= 2 %.
#
# usage: tools/sweep-bench.sh [MESS [SCORE [OUT]]]
#   env: SETS (directory of sets), NOISES ("0 0.01 0.03 0.1"), SEEDS ("1 2 3"),
#        SWEEPS ("knee classic"), MESS_ARGS (extra options for every replay)
set -eu
MESS=${1:-build/x86_64/mess}
SCORE=${2:-build/x86_64/bench/sweep-score}
OUT=${3:-build/sweep-bench}
SETS=${SETS:-../shared/reference/mess-results}
NOISES=${NOISES:-0 0.01 0.03 0.1}
SEEDS=${SEEDS:-1 2 3}
SWEEPS=${SWEEPS:-knee classic}
MESS_ARGS=${MESS_ARGS:-}

rm -rf "$OUT"
mkdir -p "$OUT"
: >"$OUT/runs.tsv"
for set in "$SETS"/*/; do
	set=${set%/}
	name=$(basename "$set")
	for cv in $NOISES; do
		for seed in $SEEDS; do
			for rule in $SWEEPS; do
				dir="$OUT/$name-$cv-$seed-$rule-replay"
				# shellcheck disable=SC2086
				"$MESS" --replay "$set" --replay-noise "$cv" --replay-seed "$seed" \
					--sweep "$rule" --no-plots --out "$dir" $MESS_ARGS >/dev/null 2>"$dir.log" ||
					{ echo "sweep-bench: $name noise $cv seed $seed $rule failed:" >&2; tail -3 "$dir.log" >&2; exit 2; }
				probes=$(sed -n 's/.*"probes": *\([0-9]*\).*/\1/p' "$dir/meta.json" | head -1)
				printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$name" "$cv" "$seed" "$rule" "$("$SCORE" "$set" "$dir")" "$probes" >>"$OUT/runs.tsv"
			done
			# the grids at the read shares of the last rule's run
			for g in mess lite; do
				printf '%s\t%s\t%s\t%s\t%s\t-\n' "$name" "$cv" "$seed" "$g" "$("$SCORE" "$set" "$dir" "$g" "$cv" "$seed")" >>"$OUT/runs.tsv"
			done
		done
	done
done

# One row per set, noise and method, over the seeds: points per mix
# (median; max), latency error (median of the runs' medians; the worst
# run's median; the worst run's 95th percentile; max), maximum-bandwidth
# error (median of the runs' medians; worst), the fewest knee points on any
# mix, waves found of those present (summed), and the sweep's verdicts with
# the points flagged.
awk -F'\t' '
function pct(x) { return sprintf("%.1f", 100 * x) }
{
	k = $1 SUBSEP $2 SUBSEP $4
	if (!(k in n)) { order[++no] = k; pmax[k] = 0; lmw[k] = 0; l95[k] = 0; lmax[k] = 0; bmax[k] = 0; knee[k] = 1e9 }
	n[k]++
	pts[k, n[k]] = $5; if ($6 > pmax[k]) pmax[k] = $6
	lmed[k, n[k]] = $7; if ($7 > lmw[k]) lmw[k] = $7
	if ($8 > l95[k]) l95[k] = $8; if ($9 > lmax[k]) lmax[k] = $9
	bmed[k, n[k]] = $10; if ($11 > bmax[k]) bmax[k] = $11
	if ($12 < knee[k]) knee[k] = $12
	wf[k] += $13; wp[k] += $14
	if ($15 != "-") { vc[k, $15]++; vs[k] = 1 }
	fl[k] += $16
}
function med(k, arr,   i, j, t, m, v) {
	m = n[k]
	for (i = 1; i <= m; i++) v[i] = arr[k, i]
	for (i = 1; i <= m; i++) for (j = i + 1; j <= m; j++) if (v[j] < v[i]) { t = v[i]; v[i] = v[j]; v[j] = t }
	return v[int((m + 1) / 2)]
}
function verdicts(k,   s, l, i) {
	if (!vs[k]) return "-"
	split("PASS WARN INVALID", l, " ")
	for (i = 1; i <= 3; i++) if (vc[k, l[i]]) s = s (s == "" ? "" : ", ") vc[k, l[i]] " " l[i]
	return s " (" fl[k] " flagged)"
}
END {
	print "| set | noise | method | points/mix med; max | lat err % med; worst seed med; p95; max | max-BW err % med; max | knee pts min | waves found/present | verdicts |"
	print "|---|---:|---|---:|---:|---:|---:|---:|---|"
	for (i = 1; i <= no; i++) {
		k = order[i]; split(k, f, SUBSEP)
		printf "| %s | %s %% | %s | %s; %s | %s; %s; %s; %s | %s; %s | %d | %d/%d | %s |\n", f[1], 100 * f[2], f[3],
			med(k, pts), pmax[k], pct(med(k, lmed)), pct(lmw[k]), pct(l95[k]), pct(lmax[k]),
			pct(med(k, bmed)), pct(bmax[k]), knee[k], wf[k], wp[k], verdicts(k)
	}
}' "$OUT/runs.tsv"
