#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# usage: tests/report-dirs.sh MESS
#
# mess report given what it cannot draw, and what its page and files say
# when they point somewhere (issue 34 items 8 and 14), with no browser:
#  - the parent of several sets, a directory holding one set, an empty
#    directory: one line saying what was found, exit 1, nothing written;
#  - a page without a figure says why as it is (--no-plots, gnuplot not
#    found), never "--no-plots, or no gnuplot" when neither is so;
#  - a run that drew no figure gets its curve figure drawn;
#  - --peak-gbs on a run's own directory: summary.md and summary.json say
#    the peak too, as report.html does.
# Reads $MESS_REFERENCE (the Makefile exports it).
set -u
mess=$(realpath "$1")
here=$(cd "$(dirname "$0")" && pwd)
ref=${MESS_REFERENCE:-$here/../../shared/reference/mess-results}
tmp=$(mktemp -d /tmp/mess-report-dirs.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
pass=0 fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: report-dirs: $*"; }
check() { if eval "$2"; then ok; else bad "$1"; fi; }
if [ ! -d "$ref/MN5-GPP-SPR8480-DDR5" ]; then
	. "$here/reference.sh"
	no_reference report-dirs "no public sets in $ref (set MESS_REFERENCE)"
	exit 0
fi
n=$(find "$ref" -mindepth 1 -maxdepth 1 -type d | wc -l)

# 1. The parent of the public sets: refused, the sets counted and named.
"$mess" report "$ref" --out "$tmp/parent" >"$tmp/o" 2>"$tmp/e"
rc=$?
check "parent of $n sets: exit 1 (got $rc), one line, nothing written" \
	'[ $rc -eq 1 ] && [ $(wc -l <"$tmp/e") -eq 1 ] && [ ! -s "$tmp/o" ] && [ ! -e "$tmp/parent" ]'
check "parent of $n sets: says so and names one ($(cat "$tmp/e"))" \
	'grep -q "$ref holds $n sets, not one: name one of them (CTE-AMD-EPYC7742-DDR4, " "$tmp/e"'
check "parent of sets: no gnuplot sentence" '! grep -q gnuplot "$tmp/e"'
# Without --out: no results/report-* either.
(cd "$tmp" && "$mess" report "$ref" >/dev/null 2>&1)
check "parent of sets, no --out: nothing written" '[ ! -e "$tmp/results" ]'

# 2. A directory holding one set: named.
mkdir "$tmp/one" && ln -s "$ref/MN5-GPP-SPR8480-DDR5" "$tmp/one/gpp"
"$mess" report "$tmp/one" --out "$tmp/one-out" >/dev/null 2>"$tmp/e"
rc=$?
check "one set inside: exit 1 (got $rc), the set named ($(cat "$tmp/e"))" \
	'[ $rc -eq 1 ] && grep -q "$tmp/one holds one set in gpp, not one of its own: name it: $mess report $tmp/one/gpp" "$tmp/e" && [ ! -e "$tmp/one-out" ]'
# The hints name a command the user can type (issue 46 item 7): mess as it
# was invoked, here by its path (it is not on PATH), or the wrapper that
# says so (run.sh exports MESS_INVOKED_AS); never a bare 'mess report'.
MESS_INVOKED_AS=./run.sh "$mess" report "$tmp/one" --out "$tmp/one-out" >/dev/null 2>"$tmp/e"
check "one set inside, through run.sh: the hint says ./run.sh report ($(cat "$tmp/e"))" \
	'grep -q "name it: ./run.sh report $tmp/one/gpp" "$tmp/e"'
"$mess" report "$ref/MN5-GPP-SPR8480-DDR5" --no-plots --out "$tmp/hint" >/dev/null 2>&1
check "report.html: the footer's hint names mess by its path" \
	'grep -q "remake it with <code>$mess report $ref/MN5-GPP-SPR8480-DDR5</code>" "$tmp/hint/report.html" &&
	 ! grep -q "<code>mess report" "$tmp/hint/report.html"'

# 3. An empty directory.
mkdir "$tmp/empty"
"$mess" report "$tmp/empty" --out "$tmp/empty-out" >/dev/null 2>"$tmp/e"
rc=$?
check "empty: exit 1 (got $rc), said empty ($(cat "$tmp/e"))" \
	'[ $rc -eq 1 ] && grep -q "$tmp/empty is empty" "$tmp/e" && [ ! -e "$tmp/empty-out" ]'

# 4. No figure: the page says why as it is.
"$mess" report "$ref/MN5-GPP-SPR8480-DDR5" --no-plots --out "$tmp/np" >/dev/null 2>&1
check "--no-plots on a set: the page says --no-plots was given" \
	'grep -q "No figure in plots/: mess report was given --no-plots" "$tmp/np/report.html" && ! grep -q "or no gnuplot" "$tmp/np/report.html"'
PATH=/nonexistent "$mess" report "$ref/MN5-GPP-SPR8480-DDR5" --out "$tmp/ng" >/dev/null 2>"$tmp/e"
rc=$?
check "no gnuplot: exit 0 (got $rc), stderr and the page say gnuplot was not found" \
	'[ $rc -eq 0 ] && grep -q "gnuplot not found" "$tmp/e" && grep -q "No figure in plots/: mess report did not draw the curve figure: gnuplot not found" "$tmp/ng/report.html"'

# 5. A run (a replay of a public set) that drew no figure, then --peak-gbs.
r=$tmp/gpp-replay
"$mess" --replay "$ref/MN5-GPP-SPR8480-DDR5" --replay-seed 1 --no-plots \
	--out "$r" >/dev/null 2>&1
check "a replayed run to report on" '[ -s "$r/summary.md" ] && [ -s "$r/summary.json" ]'
check "its page says it drew none, with --no-plots (meta.json plots)" \
	'grep -q "No figure in plots/: the run skipped: --no-plots (meta.json <code>plots</code>)" "$r/report.html"'
if command -v gnuplot >/dev/null; then
	"$mess" report "$r" >/dev/null 2>&1
	check "mess report draws the figure a run has none of" '[ -s "$r/plots/curves.svg" ] && ! grep -q "No figure in plots" "$r/report.html"'
fi
check "before: summary.md says another peak than the one given below" '! grep -q "Theoretical peak: 400.0 GB/s" "$r/summary.md"'
verdict=$(jq -r .verdict "$r/summary.json")
"$mess" report "$r" --peak-gbs 400 --no-plots >/dev/null 2>"$tmp/e"
rc=$?
check "--peak-gbs on the run: exit 0 (got $rc)" '[ $rc -eq 0 ]' || cat "$tmp/e"
check "--peak-gbs: summary.md says the peak and the % of it" \
	'grep -q "Theoretical peak: 400.0 GB/s" "$r/summary.md" && grep -q "| family metric | GB/s or ns | % of peak |" "$r/summary.md" &&
	 grep -q "^| max bandwidth \[GB/s\] | [0-9.]* | $(jq -r ".family.max_bw_pct_peak * 10 | round / 10" "$r/summary.json") |" "$r/summary.md"'
check "--peak-gbs: summary.md keeps the rest (its verdict and the unloaded latency line)" \
	'grep -q "^Unloaded latency: .* over .* repeats" "$r/summary.md" && grep -q "$verdict" "$r/summary.md" && [ $(grep -c "^## Curves" "$r/summary.md") -eq 1 ]'
check "--peak-gbs: summary.json's peak and % of it, its own keys kept" \
	'jq -e ".peak_gbs == 400 and .family.max_bw_pct_peak > 0 and .verdict == \"$verdict\" and has(\"next_step\")" "$r/summary.json" >/dev/null'
check "--peak-gbs: the page says the same % as summary.json" \
	'grep -q "$(jq -r ".family.max_bw_pct_peak | round" "$r/summary.json") % of peak" "$r/report.html"'

echo "report-dirs: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
