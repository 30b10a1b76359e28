#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# usage: tests/report.sh MESS
#
# report.html in a real browser: a small curves run writes it, `mess
# report` makes it again with a peak, and makes one for a public set; each
# page is rendered by headless chromium, whose screenshot must not be blank
# (tests/pngstat.py counts its non-white pixels and colours), whose DOM
# must hold the expected text, and which must log no console message.  The
# page itself must be self-contained: no script, no link, no fetch.
# Without chromium or python3 it says SKIPPED and why (exit 77), never
# passed.  Reads $MESS_REFERENCE (the Makefile exports it).
set -u
mess=$1
here=$(cd "$(dirname "$0")" && pwd)
ref=${MESS_REFERENCE:-$here/../../shared/reference/mess-results}
hbm=$ref/MN5-HBM-XeonMax9480-HBM2
out=$(mktemp -d /tmp/mess-report.XXXXXX)
trap 'rm -rf "$out"' EXIT
pass=0 fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*"; }
check() { if eval "$2"; then ok; else bad "$1"; fi; }
skip() {
	echo "SKIPPED report: $1"
	[ -n "${SKIPPED_FILE:-}" ] && echo "report: $1" >>"$SKIPPED_FILE"
	exit 77
}

browser=$(command -v chromium || command -v chromium-browser) || skip "no chromium (apt-get install chromium)"
command -v python3 >/dev/null || skip "no python3 (apt-get install python3-minimal)"
[ -d "$hbm" ] || skip "no public sets in $ref (set MESS_REFERENCE)"

# The browser in a profile of its own; root needs --no-sandbox.
render() { # HTML PNG DOM LOG
	"$browser" --headless --no-sandbox --disable-gpu --hide-scrollbars \
		--user-data-dir="$out/profile" --enable-logging=stderr --v=0 \
		--window-size=1200,2400 --screenshot="$2" "file://$1" >/dev/null 2>"$4.shot"
	"$browser" --headless --no-sandbox --disable-gpu \
		--user-data-dir="$out/profile" --enable-logging=stderr --v=0 \
		--dump-dom "file://$1" >"$3" 2>"$4"
	cat "$4.shot" >>"$4"
}
# Non-white pixels and colours of a screenshot: "W H NONWHITE COLOURS".
inked() { # PNG MIN_NONWHITE MIN_COLOURS
	set -- $(python3 "$here/pngstat.py" "$1") "$2" "$3"
	[ $# -eq 6 ] && [ "$3" -ge "$5" ] && [ "$4" -ge "$6" ]
}
console() { grep -c ':CONSOLE' "$1"; }

# ---- the checks can fail: a blank page, a page that logs errors ----
printf '<!DOCTYPE html><html><body></body></html>\n' >"$out/blank.html"
printf '<!DOCTYPE html><html><body><p>x</p><script>console.error("boom"); nosuch();</script></body></html>\n' >"$out/noisy.html"
render "$out/blank.html" "$out/blank.png" "$out/blank.dom" "$out/blank.log"
render "$out/noisy.html" "$out/noisy.png" "$out/noisy.dom" "$out/noisy.log"
check "self-test: a screenshot was taken" '[ -s "$out/blank.png" ]'
check "self-test: a blank page counts as blank" '! inked "$out/blank.png" 1000 20'
check "self-test: console errors are seen" '[ "$(console "$out/noisy.log")" -ge 1 ]'

page_ok() { # NAME HTML TEXT...
	local name=$1 html=$2
	shift 2
	render "$html" "$out/$name.png" "$out/$name.dom" "$out/$name.log"
	check "$name: screenshot not blank ($(python3 "$here/pngstat.py" "$out/$name.png" 2>&1))" \
		'inked "$out/$name.png" 20000 64'
	check "$name: no console message ($(grep ':CONSOLE' "$out/$name.log" | head -2))" \
		'[ "$(console "$out/$name.log")" -eq 0 ]'
	for t in "$@"; do
		check "$name: the page says '$t'" 'grep -qF -- "$t" "$out/$name.dom"'
	done
	check "$name: self-contained (no script, link, src or remote url)" \
		'! grep -qiE "<script|<link|<img|<iframe| src=|url\(http|href=\"http" "$html"'
	check "$name: one inline SVG per plots/*.svg" \
		'[ "$(grep -c "<svg" "$html")" -eq "$(ls "$(dirname "$html")"/plots/*.svg 2>/dev/null | wc -l)" ]'
}

# ---- a small curves run: its report.html ----
run=$out/run
"$mess" --quick --buffer 32M --gen-bytes 8M --chase-ms 5 --out "$run" >"$out/run.out" 2>"$out/run.err"
rc=$?
check "curves run exits 0" '[ $rc -eq 0 ]' || tail -5 "$out/run.err"
check "the run says where its report is" 'grep -qF "open $run/report.html" "$out/run.err"'
verdict=$(jq -r .quality.verdict "$run/meta.json" 2>/dev/null)
page_ok run "$run/report.html" "Verdict: $verdict" "Key figures" "unloaded latency" \
	"How it was measured" "generator variant" "Counters" "--peak-gbs GBS" \
	"66.7 % read" "$(uname -n)"
# summary.md, the one-page answer: the verdict, then where and how, the
# caveat before the figures, the write-allocate note once, the figure.
sm=$run/summary.md
check "summary.md: the verdict before where and how" \
	'[ "$(grep -n -m1 "^## Verdict" "$sm" | cut -d: -f1)" -lt "$(grep -n -m1 "^\*\*Measured\*\* on $(uname -n)" "$sm" | cut -d: -f1)" ]'
check "summary.md: the bandwidth caveat before the curves table" \
	'[ "$(grep -n -m1 "^\*\*Bandwidth is" "$sm" | cut -d: -f1)" -lt "$(grep -n -m1 "^## Curves" "$sm" | cut -d: -f1)" ]'
check "summary.md: run time and cores" 'grep -q "in [0-9]* min [0-9]* s; 1 generator core" "$sm"'
check "summary.md: the write-allocate note, once" '[ "$(grep -c "66.7 % read" "$sm")" -eq 1 ]'
check "summary.md: an unknown peak says how to give it" 'grep -qF "Theoretical peak: unknown (give it with --peak-gbs" "$sm"'
check "summary.md: the figure embedded" 'grep -qF "![The curve family](plots/curves.png)" "$sm"'
check "run: the curve figure's title names the host" 'grep -qF "on $(uname -n)" "$run/plots/curves.svg"'

# ---- mess report again, with a peak ----
"$mess" report "$run" --peak-gbs 100 >"$out/again.out" 2>"$out/again.err"
rc=$?
check "mess report RUN --peak-gbs: exit 0" '[ $rc -eq 0 ]' || cat "$out/again.err"
check "mess report prints the page" '[ "$(cat "$out/again.out")" = "$run/report.html" ]'
page_ok again "$run/report.html" "% of peak" "100.0 GB/s" "given (--peak-gbs)" "Verdict: $verdict"
check "again: the peak is drawn" 'grep -qF "theoretical peak 100 GB/s" "$run/plots/curves.svg"'

# ---- a public set: its own figure, its system.md, the plotter.txt peak ----
"$mess" report "$hbm" --out "$out/hbm" >"$out/hbm.out" 2>"$out/hbm.err"
rc=$?
check "mess report PUBLIC: exit 0" '[ $rc -eq 0 ]' || cat "$out/hbm.err"
page_ok hbm "$out/hbm/report.html" "Verdict: none" "Intel Xeon Max 9480" "HBM2" \
	"1638.4 GB/s" "plotter.txt: MEM_FREQ" "% of peak" "lowest-bandwidth points"
check "hbm: the public set was not written to" '[ ! -e "$hbm/report.html" ] && [ ! -e "$hbm/plots" ]'

# ---- the figures: title, axis labels and legend from the SVG text ----
svg_has() { # NAME FILE TEXT...
	local name=$1 f=$2
	shift 2
	for t in "$@"; do
		check "$name: the SVG says '$t'" 'grep -qF -- "$t" "$f"'
	done
}
cpu=$(jq -r .cpu_model "$run/meta.json")
svg_has curves.svg "$run/plots/curves.svg" "$cpu on $(uname -n), memory node" \
	"cores generating" "bandwidth accounted" "Memory bandwidth [GB/s]" \
	"Load-to-use latency [ns]" "% read</title>" "× unloaded" "unloaded "
svg_has hbm-curves.svg "$out/hbm/plots/curves.svg" "Intel Xeon Max 9480, HBM2" \
	"published set (mess-results), bandwidth counters" "<title>50 % read</title>" \
	"<title>82 % read</title>" "theoretical peak 1638 GB/s"
# The latency ladder: a run of its own (its report.html too).
"$mess" ladder --quick --json --out "$out/ladder" >"$out/ladder.json" 2>"$out/ladder.err"
rc=$?
check "ladder --quick: exit 0" '[ $rc -eq 0 ]' || tail -3 "$out/ladder.err"
check "ladder --json: summary.json on stdout" 'cmp -s "$out/ladder.json" "$out/ladder/summary.json"' 
svg_has ladder.svg "$out/ladder/plots/ladder.svg" "Latency ladder (the lat_mem_rd method)" \
	"buffer size" "latency per dependent load [ns]" "<title>median ± spread</title>" \
	">4 KiB<" ">1 MiB<"
check "ladder.svg: no escaped name, no bare binary prefix ticks" \
	'! grep -qE "lat\\\\_mem|>4ki<|>1Mi<" "$out/ladder/plots/ladder.svg"'
page_ok ladder "$out/ladder/report.html" "Verdict: " "Figures" "How it was measured"
# A small absorption table: its heat map, the fit and k1 in each legend.
"$mess" absorb --quick --kernels haccmk --modes fp_add64,l1_ld64 --kmax 16 \
	--out "$out/absorb" >/dev/null 2>"$out/absorb.err"
check "absorb (small): exit 0" '[ $? -eq 0 ]' || tail -3 "$out/absorb.err"
f=$(ls "$out"/absorb/plots/absorb-haccmk-*.svg 2>/dev/null | head -1)
svg_has absorb.svg "${f:-$out/absorb/none.svg}" "noise instructions per iteration, k" \
	"time per iteration [ns]" "<title>fp_add64</title>" "<title>fp_add64 fit</title>" \
	"<title>l1_ld64 k1</title>"
page_ok absorb "$out/absorb/report.html" "Absorption (k1)" "fp_add64" "l1_ld64" \
	"the bracket" "How it was measured"
# compare's figures: one named series per set.
"$mess" compare "$ref/MN5-GPP-SPR8480-DDR5" "$hbm" --out "$out/cmp" --json >"$out/cmp.json" 2>"$out/cmp.err"
check "compare: exit 0" '[ $? -eq 0 ]' || tail -3 "$out/cmp.err"
check "compare --json: compare.json on stdout" 'jq -e "(.sets | length) == 2" "$out/cmp.json" >/dev/null && cmp -s "$out/cmp.json" "$out/cmp/compare.json"' 
svg_has compare.svg "$out/cmp/plots/compare.svg" "Memory bandwidth [GB/s]" \
	"Load-to-use latency [ns]" "<title>MN5-GPP-SPR8480-DDR5</title>" \
	"<title>MN5-HBM-XeonMax9480-HBM2</title>"
page_ok compare "$out/cmp/report.html" "Verdict: " "Figures" "In one sentence:</b> MN5-HBM-XeonMax9480-HBM2 reaches 3.46x"
# A comparison to trust: one sentence from measured figures, CPU, memory
# and peak from the sets' own files, extrapolated ratios only apart.
cm=$out/cmp/compare.md
check "compare.md: one sentence from measured figures" \
	'grep -q "^\*\*In one sentence:\*\* MN5-HBM-XeonMax9480-HBM2 reaches 3.46x the maximum bandwidth of MN5-GPP-SPR8480-DDR5 (833.4 against 240.6 GB/s, measured)" "$cm"'
check "compare.md: CPU and memory from system.md, peak from plotter.txt" \
	'grep -q "| Intel Xeon Max 9480 | HBM2, 3200 MT/s" "$cm" && grep -q "| 78 % of 307.2 GB/s | 51 % of 1638.4 GB/s |" "$cm"'
check "compare.md: an extrapolated ratio (5.81x) only in the marked list" \
	'[ "$(grep -c "5.81x" "$cm")" -eq 1 ] && grep -q "^- \*50 % reads, .*bandwidth at 2x unloaded: 5.81x (extrapolated" "$cm"'
check "compare.md: public sets' unknowns are no difference" '! grep -q "^- \*\*warning\*\*" "$cm"' 

# ---- refusals: one line, exit 1, nothing written ----
"$mess" report "$out/nonesuch" >/dev/null 2>"$out/r1.err"
rc=$?
check "a DIR that is not one: exit 1, one line" '[ $rc -eq 1 ] && [ "$(wc -l <"$out/r1.err")" -eq 1 ] && grep -q nonesuch "$out/r1.err"'
"$mess" report >/dev/null 2>"$out/r2.err"
check "no DIR: exit 1" '[ $? -eq 1 ]'
"$mess" report "$run" --peak-gbs 0 >/dev/null 2>"$out/r3.err"
check "--peak-gbs 0: exit 1 naming the option" '[ $? -eq 1 ] && grep -q -- "--peak-gbs" "$out/r3.err"'

echo "report: $pass passed, $fail failed"
[ $fail -eq 0 ]
