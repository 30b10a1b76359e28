#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The curves driver against its synthetic backend (issue 44:
# harness/curves/synthetic/synthetic.c, one file and one table row): the
# real sweep, repeats, rules, verdict and files, over windows from a
# formula with known answers.  Every point of curves.csv must be the
# formula's at its nop count, every mix must get its points, and every
# file must say it is no measurement.  Needs no reference data.
#   tests/synthetic.sh MESS
set -u
mess=$(realpath "$1")
out=$(mktemp -d /tmp/mess-synthetic.XXXXXX)
trap 'rm -rf "$out"' EXIT
pass=0 fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*"; }
check() { if eval "$2"; then ok; else bad "$1"; fi; }

d=$out/run
$mess --backend synthetic --mixes 0,50,100 --no-plots --out "$d" >"$out/stdout" 2>"$out/err"
rc=$?
check "a synthetic run ends 0 (exit $rc)" '[ $rc -eq 0 ]' || tail -3 "$out/err"
check "stdout is the directory" '[ "$(cat "$out/stdout")" = "$d" ]'

# The formula (synthetic.c): P 100 GB/s, L0 80 ns, N0 64, Q 0.25.
bad_rows=$(awk -F, 'NR > 1 {
	bw = 100 / (1 + $3 / 64); lat = 80 / (1 - bw / 500); rd = 10000 / (100 + $1)
	if ((($4 - bw) ^ 2) ^ 0.5 > 1e-5 * bw + 1e-6 || (($7 - lat) ^ 2) ^ 0.5 > 1e-3 ||
	    (($2 - rd) ^ 2) ^ 0.5 > 1e-3 || $8 != 0 || $10 != "synthetic" ||
	    !($9 == 3 || ($9 == 6 && $24 == 1)))
		print NR ": " $0
}' "$d/curves.csv")
check "every point is the formula's (bw, latency, read share, spread 0; 3 repeats, 6 for the maximum confirmed): ${bad_rows:0:300}" '[ -z "$bad_rows" ]'
rows=$(awk -F, 'NR > 1' "$d/curves.csv" | wc -l)
check "curves.csv has points ($rows)" '[ "$rows" -ge 30 ]'
for s in 0 50 100; do
	n=$(awk -F, -v s=$s 'NR > 1 && $1 == s' "$d/curves.csv" | wc -l)
	check "mix $s: the knee rule's --points 10 points ($n)" '[ "$n" -eq 10 ]'
	top=$(awk -F, -v s=$s 'NR > 1 && $1 == s && $3 == 0 { print $4 }' "$d/curves.csv")
	check "mix $s: nop 0 is the peak, 100 GB/s ($top)" '[ "$top" = 100.000000 ]'
done
j() { jq -r "$1" "$d/meta.json"; }
je() { jq -e "$1" "$d/meta.json" >/dev/null; }
check "meta.json: unloaded latency the formula's idle 80 ns ($(j .unloaded_ns))" 'je ".unloaded_ns == 80"'
check "meta.json: the unloaded latency measured again at the end, 80 ns" 'je ".quality.unloaded_end_ns == 80"'
check "meta.json: bw_source synthetic" '[ "$(j .bw_source)" = synthetic ]'
check "meta.json: the device is no CPU" '[ "$(j .cpu_model)" = "synthetic memory" ]'
check "meta.json: no CPU sections (cores, generator, chase, counters null)" \
	'[ "$(j "[.cores, .generator, .chase, .counters, .huge_pages] | map(. == null) | all")" = true ]'
check "meta.json: the formula's constants" 'je ".synthetic.peak_gbs == 100 and .synthetic.half_nop == 64"'
check "meta.json: verdict PASS" '[ "$(j .quality.verdict)" = PASS ]'
check "summary.md says it is no measurement, first" 'head -1 "$d/summary.md" | grep -q "^\*\*SYNTHETIC: .*not a measurement"'
check "summary.md: Computed, not Measured" 'grep -q "^\*\*Computed\*\* on" "$d/summary.md" && ! grep -q "^\*\*Measured" "$d/summary.md"'
check "summary.json: the peak as the backend knows it, reached (100 GB/s)" \
	'jq -e ".peak_gbs == 100 and .family.max_bw_gbs == 100" "$d/summary.json" >/dev/null'

# A backend that is not one: one line, exit 1, nothing written.
$mess --backend bogus --out "$out/bogus" >/dev/null 2>"$out/bogus.err"
rc=$?
check "--backend bogus: exit 1 ($rc)" '[ $rc -eq 1 ]'
check "--backend bogus: one line naming the value and what is allowed" \
	'[ "$(wc -l <"$out/bogus.err")" -eq 1 ] && grep -q "bogus.*allowed: .*synthetic.*measured" "$out/bogus.err"'
check "--backend bogus: nothing written" '[ ! -e "$out/bogus" ]'

echo "synthetic: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
