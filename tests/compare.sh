#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# usage: tests/compare.sh MESS
#
# mess compare end to end: the public DDR5 and HBM2 sets (HBM's maximum
# bandwidth must come out above DDR5's), two quick runs of this machine
# against each other and against a public set (the warnings), each set's
# verdict (PASS, INVALID, none), the files, the refusals.  Reads $MESS_REFERENCE (the Makefile exports it).
set -u
mess=$1
ref=${MESS_REFERENCE:-$(dirname "$0")/../../shared/reference/mess-results}
ddr=$ref/MN5-GPP-SPR8480-DDR5
hbm=$ref/MN5-HBM-XeonMax9480-HBM2
out=$(mktemp -d /tmp/mess-compare.XXXXXX)
trap 'rm -rf "$out"' EXIT
pass=0 fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*"; }
check() { if eval "$2"; then ok; else bad "$1"; fi; }
jqe() { jq -e "$1" "$2" >/dev/null 2>&1; }

if ! command -v jq >/dev/null; then
	echo "SKIPPED compare: no jq (apt-get install jq)"
	exit 0
fi
. "$(dirname "$0")/reference.sh"
if [ ! -d "$ddr" ] || [ ! -d "$hbm" ]; then
	no_reference compare "no public sets in $ref (set MESS_REFERENCE)"
	exit 0
fi

# ---- DDR5 against HBM2, the public sets ----
d=$out/ref
start=$(date +%s%N)
"$mess" compare "$ddr" "$hbm" --out "$d" --no-plots --app 100:300 --app 70:100,50:900 \
	>"$out/ref.out" 2>"$out/ref.err"
rc=$?
ms=$((($(date +%s%N) - start) / 1000000))
echo "compare: DDR5 vs HBM2 (public sets) took $ms ms, exit $rc"
check "exit 0" '[ $rc -eq 0 ]' || cat "$out/ref.err"
check "stdout names the directory" 'grep -qx "$d" "$out/ref.out"'
for f in compare.json compare.md meta.json; do
	check "$f written" '[ -s "$d/$f" ]'
done
j=$d/compare.json
check "schema 1, two sets, six read shares" \
	'jqe ".schema == 1 and (.sets | length) == 2 and (.read_shares | length) == 6" "$j"'
check "HBM maximum bandwidth above DDR5's" \
	'jqe ".sets[1].max_bw_gbs > .sets[0].max_bw_gbs" "$j"'
check "ratio HBM / DDR5 max bandwidth above 1" \
	'jqe ".ratios[0].set == .sets[1].label and .ratios[0].max_bw > 1" "$j"'
check "every per-share figure says where it comes from" \
	'jqe "[.read_shares[].sets[] | .max_bw_gbs_source, .lat_at_common_bw_ns_source] | all(. == \"measured\" or . == \"interpolated\" or (. | startswith(\"extrapolated\")))" "$j"'
check "common bandwidth is half the lower maximum" \
	'jqe "all(.read_shares[]; (.common_bw_gbs - 0.5 * ([.sets[].max_bw_gbs] | min) | fabs) < 0.02)" "$j"'
check "unloaded latency from the lowest-bandwidth points" \
	'jqe "all(.sets[]; .unloaded_source == \"lowest-bandwidth points\" and .unloaded_ns > 50)" "$j"'
check "three verdicts; 300 GB/s at 100 % reads is HBM's" \
	'jqe "(.apps | length) == 3 and .apps[0].best == .sets[1].label and .apps[0].sets[0].sustains == false" "$j"'
check "900 GB/s is beyond both: extrapolated, said so" \
	'jqe ".apps[2].best_sustains == false" "$j" && grep -q "beyond every set" "$d/compare.md"'
check "verdicts on stderr" 'grep -q "mess compare: --app 100% reads at 300 GB/s:" "$out/ref.err"'
check "no NaN in the JSON" '! grep -qi nan "$j"'
check "meta.json names both paths and the version" \
	'jqe "(.sets | length) == 2 and .version != null and .complete == true and (.sets[0].path | length) > 0" "$d/meta.json"'
check "compare.md has the side-by-side table and the ratios" \
	'grep -q "| maximum bandwidth \[GB/s\] |" "$d/compare.md" && grep -q "## Ratios against" "$d/compare.md"'
check "under a second" '[ $ms -lt 1000 ]'
check "public sets carry no verdict: none, no reason, in compare.json, meta.json and compare.md" \
	'jqe "all(.sets[]; .verdict == \"none\" and .verdict_reason == null)" "$j" && jqe "all(.sets[]; .verdict == \"none\")" "$d/meta.json" && [ $(grep -c "| none (not a run of this suite) |" "$d/compare.md") -eq 2 ]'
check "no verdict said on stderr for sets without one" '! grep -q ": verdict " "$out/ref.err"'
# Issue 34: the page says what compare.md says first, and its title names
# the sets, not "unknown on" the host that measured nothing.
check "report.html: titled by its sets, each set's CPU and memory, every --app answer" \
	'grep -q "<h1>mess compare: Memory comparison: MN5-GPP-SPR8480-DDR5 vs MN5-HBM-XeonMax9480-HBM2</h1>" "$d/report.html" &&
	 ! grep -q "unknown on" "$d/report.html" &&
	 grep -q "<td>Intel Xeon Max 9480</td><td>HBM2, 3200 MT/s, 4 channels per socket</td>" "$d/report.html" &&
	 [ $(grep -c "^<p>[0-9]*% reads at [0-9]* GB/s: " "$d/report.html") -eq 3 ]'

# A rerun into compare's own earlier output replaces it (issue 22 item
# 8b): the other --app and --no-plots are what the new files say.
cp "$d/compare.json" "$out/first.json"
"$mess" compare "$ddr" "$hbm" --out "$d" --no-plots --app 100:10 >/dev/null 2>"$out/again.err"
rc=$?
check "a second comparison into its own earlier --out replaces it (exit $rc)" \
	'[ $rc -eq 0 ] && jqe "(.apps | length) == 1" "$j" && ! cmp -s "$j" "$out/first.json" && jqe ".complete == true" "$d/meta.json"' ||
	cat "$out/again.err"
# Anything else in --out is refused, and no refusal advises --resume,
# which compare does not have (issue 22 item 8a).
cp -r "$d" "$out/other" && touch "$out/other/notes.txt"
"$mess" compare "$ddr" "$hbm" --out "$out/other" --no-plots >/dev/null 2>"$out/other.err"
rc=$?
check "an --out that holds more than an earlier comparison is refused, untouched (exit $rc)" \
	'[ $rc -eq 1 ] && [ $(wc -l <"$out/other.err") -eq 1 ] && grep -q "notes.txt" "$out/other.err" && cmp -s "$j" "$out/other/compare.json"' ||
	cat "$out/other.err"
check "no refusal advises --resume" '! grep -q -- --resume "$out/other.err"'
mkdir "$out/empty"
"$mess" compare "$ddr" /nonexistent/set --out "$out/bad" --no-plots >/dev/null 2>"$out/bad.err"
rc=$?
check "an unreadable set: exit 1, nothing written (exit $rc)" '[ $rc -eq 1 ] && [ ! -e "$out/bad" ]'

# Identical sets are a tie, said so, whether they sustain the bandwidth
# or not; an --app beyond any memory system is refused in one line.
"$mess" compare "$ddr" "$ddr" --out "$out/same" --no-plots --app 70:30 --app 70:9000 \
	>/dev/null 2>"$out/same.err"
rc=$?
check "one set twice (exit $rc): a tie at 70:30, said so, nothing lower" \
	'[ $rc -eq 0 ] && grep -q "70% reads at 30 GB/s: .* tie: serve it at the same latency" "$out/same.err" && ! grep -q "ns (0.0%) lower" "$out/same.err"'
check "one set twice beyond its maximum: a tie on the extrapolation, neither 'cannot sustain'" \
	'grep -q "70% reads at 9000 GB/s: beyond every set.s maximum bandwidth at this share: no set sustains it; .* tie on the extrapolation" "$out/same.err" && ! grep -q "cannot sustain" "$out/same.err"'
check "compare.md says the tie too" 'grep -q "tie" "$out/same/compare.md"'
check "one set twice: the second label is the first's with #2" \
	'jqe "[.sets[].label] == [\"MN5-GPP-SPR8480-DDR5\", \"MN5-GPP-SPR8480-DDR5 #2\"]" "$out/same/compare.json"'
"$mess" compare "$ddr" "$hbm" --out "$out/inf" --no-plots --app 70:1e308 >"$out/inf.out" 2>&1
rc=$?
check "--app 70:1e308: exit 1, one line, no inf, nothing written (exit $rc)" \
	'[ $rc -eq 1 ] && [ $(wc -l <"$out/inf.out") -eq 1 ] && grep -q -- "--app: .70:1e308. is not allowed.*at most 100000" "$out/inf.out" && [ ! -e "$out/inf" ]'

# ---- two quick runs of this machine, and one against a public set ----
for r in a b; do
	"$mess" --quick --no-plots --out "$out/run-$r" >/dev/null 2>"$out/run-$r.err" ||
		{ bad "quick run $r failed"; tail -5 "$out/run-$r.err"; }
done
if [ -s "$out/run-a/curves.csv" ] && [ -s "$out/run-b/curves.csv" ]; then
	"$mess" compare "$out/run-a" "$out/run-b" --out "$out/empty" --app 100:1 \
		>/dev/null 2>"$out/runs.err"
	rc=$?
	check "two quick runs compare (exit $rc), into an empty --out" '[ $rc -eq 0 ]' || cat "$out/runs.err"
	j=$out/empty/compare.json
	check "runs: chase-only unloaded latency, accounted bandwidth" \
		'jqe "all(.sets[]; .unloaded_source == \"chase-only run\" and .bw_source == \"accounted\")" "$j"'
	if command -v gnuplot >/dev/null; then
		check "overlay and ratio plots" \
			'[ -s "$out/empty/plots/compare.png" ] && [ -s "$out/empty/plots/compare-ratio.svg" ]'
		# Issue 34 item 3: the curves themselves first, the ratio after.
		check "report.html: compare.svg (the curves) before compare-ratio.svg" \
			'[ "$(grep -o "alt=\"plots/compare[a-z-]*.svg\"" "$out/empty/report.html" | tr "\n" " ")" = "alt=\"plots/compare.svg\" alt=\"plots/compare-ratio.svg\" " ]'
	fi
	# Issue 31 item 29: one labelling rule at any --stat, "#2" after the
	# whole label (it was "run-a p90" and "run-a #2"); --force: a point of a
	# quick run on a busy machine may be flagged dist_disagrees.
	"$mess" compare "$out/run-a" "$out/run-a" --stat p90 --out "$out/p90" --no-plots --force >/dev/null 2>"$out/p90.err"
	rc=$?
	check "--stat p90, one run twice (exit $rc): labelled run-a p90 and run-a p90 #2" \
		'[ $rc -eq 0 ] && jqe "[.sets[].label] == [\"run-a p90\", \"run-a p90 #2\"]" "$out/p90/compare.json"' ||
		cat "$out/p90.err"
	"$mess" compare "$out/run-a" "$ddr" --out "$out/mixed" --no-plots >/dev/null 2>"$out/mixed.err"
	rc=$?
	check "a run against a public set (exit $rc)" '[ $rc -eq 0 ]' || cat "$out/mixed.err"
	check "warning on stderr: bandwidth accounted vs counters" \
		'grep -q "warning: bandwidth measured differently.*accounted.*counters" "$out/mixed.err"'
	check "the same warning in compare.json and compare.md" \
		'jqe "any(.warnings[]; test(\"accounted\"))" "$out/mixed/compare.json" && grep -q "\*\*warning\*\*: bandwidth" "$out/mixed/compare.md"'
	check "and on its report.html (issue 34)" \
		'grep -q "<li>warning: bandwidth measured differently.*accounted.*counters" "$out/mixed/report.html"'
	# The Glossary's words (issue 46 item 6): an accounted run's read
	# shares are its mixes' nominal ones, never 'measured'; a counted
	# set's are measured.
	check "compare.md and compare.json: the run's read shares nominal, the public set's measured" \
		'grep -q "^| read shares \[%\] | [0-9.]* – [0-9.]* (nominal, [0-9]* curves) | [0-9.]* – [0-9.]* (measured, [0-9]* curves) |$" "$out/mixed/compare.md" &&
		 ! grep -q "read shares measured" "$out/mixed/compare.md" &&
		 jqe "[.sets[].read_pct_kind] == [\"nominal\", \"measured\"]" "$out/mixed/compare.json"'
	# Issue 34 item 3: each set's provenance with its date, how each was
	# measured from its own files (the run's accounted, the public set's
	# counters), never a table of unknowns.
	ra=$(jq -r .start_utc "$out/run-a/meta.json")
	check "compare.md: the run's date (its meta.json start_utc), the public set's not stated" \
		'grep -q "^| run-a | .* | $ra | .* |$" "$out/mixed/compare.md" && grep -q "^| MN5-GPP-SPR8480-DDR5 | .* | not stated by the set | " "$out/mixed/compare.md"'
	check "report.html: how each set was measured, from its files" \
		'grep -q "<h2>How each set was measured</h2>" "$out/mixed/report.html" &&
		 grep -q "<tr><td>run-a</td><td>$ra</td><td>accounted</td>" "$out/mixed/report.html" &&
		 grep -q "<tr><td>MN5-GPP-SPR8480-DDR5</td><td><i>not stated by the set</i></td><td>counters</td>" "$out/mixed/report.html" &&
		 ! grep -q "<h2>How it was measured</h2>" "$out/mixed/report.html"'

	# The verdicts: run-a made PASS, run-b INVALID (meta.json quality;
	# a quick run on a busy machine may be either), the public set none.
	mkdir "$out/pass" "$out/inv"
	cp "$out/run-a/curves.csv" "$out/pass/" && cp "$out/run-b/curves.csv" "$out/inv/"
	jq '.quality = {verdict: "PASS", reasons: [], reasons_dropped: 0}' "$out/run-a/meta.json" >"$out/pass/meta.json"
	jq '.quality = {verdict: "INVALID", reasons: [{level: "PASS", rule: "n", text: "a note"},
		{level: "INVALID", rule: "mix_invalid", text: "mix 0 % stores: 5 of 9 points flagged"}], reasons_dropped: 0}' \
		"$out/run-b/meta.json" >"$out/inv/meta.json"
	"$mess" compare "$out/pass" "$out/inv" "$ddr" --out "$out/verdicts" --no-plots >/dev/null 2>"$out/verdicts.err"
	rc=$?
	v=$out/verdicts
	check "a PASS, an INVALID and a public set compare (exit $rc)" '[ $rc -eq 0 ]' || cat "$out/verdicts.err"
	check "compare.json: PASS, INVALID with its first reason, none" \
		'jqe "[.sets[].verdict] == [\"PASS\", \"INVALID\", \"none\"] and .sets[0].verdict_reason == null and .sets[1].verdict_reason == \"mix 0 % stores: 5 of 9 points flagged\"" "$v/compare.json"'
	check "meta.json: each set's verdict" \
		'jqe "[.sets[].verdict] == [\"PASS\", \"INVALID\", \"none\"]" "$v/meta.json"'
	check "compare.md: PASS, INVALID in bold with its reason, and said below the table" \
		'grep -q "^| pass | .* | PASS |$" "$v/compare.md" && grep -q "^| inv | .* | \*\*INVALID\*\*: mix 0 % stores: 5 of 9 points flagged |$" "$v/compare.md" && grep -q "^\*\*inv is INVALID\*\*" "$v/compare.md"'
	check "stderr: one warning for the INVALID set, none for the others" \
		'[ $(grep -c ": verdict " "$out/verdicts.err") -eq 1 ] && grep -q "^mess compare: warning: inv: verdict INVALID: mix 0 % stores" "$out/verdicts.err"'
	# What stderr warned, compare.json's warnings say (issue 46 item 5).
	check "compare.json warnings: the INVALID set's verdict, as stderr said it" \
		'jqe "any(.warnings[]; . == \"inv: verdict INVALID: mix 0 % stores: 5 of 9 points flagged\")" "$v/compare.json"'
	# A winner named among sets of which one is INVALID says so.
	"$mess" compare "$out/pass" "$out/inv" --app 100:5 --out "$out/verdicts-app" --no-plots >/dev/null 2>"$out/vapp.err"
	check "--app with an INVALID set: the answer says it is not a result to act on" \
		'grep -q "^mess compare: --app .* Not a result to act on: inv INVALID (its figures are not to be trusted" "$out/vapp.err" &&
		 jqe ".apps[0].verdict | test(\"Not a result to act on: inv INVALID\")" "$out/verdicts-app/compare.json"'
	# The comparison measures nothing: it inherits its least trusted set's
	# verdict, in compare.json and meta.json as a consumer reads them,
	# each set's verdict with the directory it came from, and its page.
	check "compare.json: each set's verdict with the directory it was read from" \
		'python3 -c "
import json, sys
j = json.load(open(sys.argv[1]))
assert [s[\"verdict_inherited_from\"] for s in j[\"sets\"]] == sys.argv[2:], j[\"sets\"]
" "$v/compare.json" "$out/pass" "$out/inv" "$ddr"'
	check "compare.json and meta.json: the comparison inherits INVALID from inv, not to be acted on" \
		'python3 -c "
import json, sys
for f in sys.argv[1:3]:
    i = json.load(open(f))[\"inherited_verdict\"]
    assert i[\"verdict\"] == \"INVALID\" and i[\"sets\"] == [\"inv\"], i
    assert i[\"inherited_from\"] == [sys.argv[3]], i
    assert i[\"reason\"] == \"mix 0 % stores: 5 of 9 points flagged\", i
    assert i[\"means\"].startswith(\"not a result to act on\"), i
" "$v/compare.json" "$v/meta.json" "$out/inv"'
	check "report.html: Verdict: INVALID, inherited, from inv's directory" \
		'grep -q "<h2>Verdict: INVALID, inherited</h2>" "$v/report.html" && grep -q "<code>$out/inv</code>" "$v/report.html"'
	"$mess" compare "$out/pass" "$out/pass" --app 100:5 --out "$out/pass-app" --no-plots >/dev/null 2>&1
	check "two PASS sets: the comparison inherits PASS, nothing to warn of" \
		'jqe ".inherited_verdict.verdict == \"PASS\" and .inherited_verdict.means == null and (.inherited_verdict.sets | length) == 2" "$out/pass-app/compare.json"'
	check "--app between trusted sets: no such sentence" \
		'! grep -q "Not a result to act on" "$out/pass-app/compare.json"'
fi

# Saturation in the Glossary's words (issue 46 item 6): the DDR5 set's
# latencies pulled toward its unloaded one, a quarter of the way (loaded,
# never doubled: none) and a hundredth (never loaded: not saturated).
for k in 0.25:half 0.01:flat; do
	mkdir -p "$out/${k#*:}"
	awk -F, -v OFS=, -v k="${k%%:*}" 'NR == 1 { print; next }
		{ $6 = 115 + ($6 - 115) * k; $9 = $6; $7 = 0.1; print }' \
		"$ddr/memory_curves.csv" >"$out/${k#*:}/memory_curves.csv"
done
"$mess" compare "$out/half" "$out/flat" "$ddr" --out "$out/sat" --no-plots >/dev/null 2>"$out/sat.err"
check "saturation: loaded but never doubled is none, never loaded is not saturated, compare.md and .json" \
	'grep -q "^| saturated bandwidth range \[GB/s\] | none: no curve.s latency reached 2x unloaded | not saturated: no curve loaded the memory | [0-9.]* – [0-9.]* |$" "$out/sat/compare.md" &&
	 jqe "[.sets[].saturation] == [\"none\", \"not saturated\", \"saturated\"]" "$out/sat/compare.json"' ||
	cat "$out/sat.err"

echo "compare: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
