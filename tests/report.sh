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
# page itself must be self-contained: no script, no link, no fetch; its
# figures are images of data: URLs, each one its plots/*.svg byte for byte.
# Then a hostile corpus (script, handlers and fetches in every string a
# directory holds: meta.json, summary.json, info.txt, system.md,
# plotter.txt, absorption.csv, compare.md, the SVGs, the names of sets,
# directories and figures) must give pages that run nothing: no dialog, no
# console message, no request to a listener on 127.0.0.1 the payloads
# point at (tests/report-listen.py).
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
. "$here/reference.sh"
[ -d "$hbm" ] || { no_reference report "no public sets in $ref (set MESS_REFERENCE)"; exit 77; }

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

# A page that is text only: every tag in it is one of the writer's own,
# with the writer's attributes (links only to the reports beside it), and
# its only images are the figures, SVGs in data: URLs; whatever it shows
# of the directory's files is escaped text.  Prints what is not.
foreign_tags() { # HTML
	sed -E 's#<img alt="[^"<>]*"( width="[0-9]+")? src="data:image/svg\+xml;base64,[A-Za-z0-9+/=]*">##g' "$1" |
		grep -oE '<[^>]*>' | grep -vxE '<!DOCTYPE html>|</?(html|head|meta|title|style|body|h1|h2|p|section|ul|li|b|code|i|table|tr|th|td|dl|dt|dd|br|small|strong|footer|figure|figcaption|a)( (lang|charset|name|content|class|style|colspan)="[^"<>]*")*>|<a href="(absorb|ladder)/report.html">'
}
# Each figure is its plots/*.svg byte for byte, one per file.
figures_whole() { # HTML
	local html=$1 dir n=0 f
	dir=$(dirname "$1")
	for f in "$dir"/plots/*.svg; do
		[ -e "$f" ] || continue
		n=$((n + 1))
		grep -oE "alt=\"plots/$(basename "$f")\"( width=\"[0-9]+\")? src=\"data:image/svg\\+xml;base64," "$html" >/dev/null || return 1
	done
	[ "$(grep -o 'src="data:image/svg+xml;base64,' "$html" | wc -l)" -eq "$n" ] || return 1
	grep -oE 'alt="plots/[^"]*"( width="[0-9]+")? src="data:image/svg\+xml;base64,[^"]*"' "$html" |
		while IFS= read -r img; do
			f=${img#alt=\"plots/}
			f=${f%%\"*}
			img=${img#*base64,}
			printf '%s' "${img%\"}" | base64 -d | cmp -s - "$dir/plots/$f" || exit 1
		done
}

# ---- the checks can fail: a blank page, a page that logs errors ----
printf '<!DOCTYPE html><html><body></body></html>\n' >"$out/blank.html"
printf '<!DOCTYPE html><html><body><p>x</p><script>console.error("boom"); nosuch();</script></body></html>\n' >"$out/noisy.html"
render "$out/blank.html" "$out/blank.png" "$out/blank.dom" "$out/blank.log"
render "$out/noisy.html" "$out/noisy.png" "$out/noisy.dom" "$out/noisy.log"
check "self-test: a screenshot was taken" '[ -s "$out/blank.png" ]'
check "self-test: a blank page counts as blank" '! inked "$out/blank.png" 1000 20'
check "self-test: console errors are seen" '[ "$(console "$out/noisy.log")" -ge 1 ]'

# A listener on 127.0.0.1 that the hostile payloads fetch from.
python3 "$here/report-listen.py" "$out/port" "$out/requests" 2>"$out/listen.err" &
lpid=$!
trap 'kill $lpid 2>/dev/null; rm -rf "$out"' EXIT
trap 'exit 130' INT TERM
for i in $(seq 100); do [ -s "$out/port" ] && break; sleep 0.1; done
u=http://127.0.0.1:$(cat "$out/port" 2>/dev/null)
check "listener: started ($(cat "$out/listen.err"))" '[ -s "$out/port" ]'
# The page rendered to its DOM: a dialog blocks it, so that it never
# finishes (timeout's 124, or 137 after -k).
quiet() { # NAME HTML [TIMEOUT]
	timeout -k 5 "${3:-180}" "$browser" --headless --no-sandbox --disable-gpu \
		--user-data-dir="$out/profile-$1" --enable-logging=stderr --v=0 \
		--dump-dom "file://$2" >"$out/$1.dom" 2>"$out/$1.log"
}
# Requests the listener got, but the self-tests'.
requests() { grep -v '^GET /self/' "$out/requests" 2>/dev/null; }
printf '<!DOCTYPE html><html><body><p>x</p><img src=x onerror="console.log(1)"></body></html>\n' >"$out/live-handler.html"
printf '<!DOCTYPE html><html><body><p>x</p><svg onload="console.log(2)"></svg></body></html>\n' >"$out/live-svg.html"
printf '<!DOCTYPE html><html><body><p>x</p><img src="%s/self/img"></body></html>\n' "$u" >"$out/live-fetch.html"
printf '<!DOCTYPE html><html><body><p>x</p><script>alert(1)</script></body></html>\n' >"$out/live-dialog.html"
quiet live-handler "$out/live-handler.html"
check "self-test: a live handler is seen" '[ "$(console "$out/live-handler.log")" -ge 1 ]'
quiet live-svg "$out/live-svg.html"
check "self-test: an inline SVG's onload is seen" '[ "$(console "$out/live-svg.log")" -ge 1 ]'
quiet live-fetch "$out/live-fetch.html"
sleep 1
check "self-test: a request to the listener is seen" 'grep -q "^GET /self/img" "$out/requests"'
# Short: a page with a dialog never finishes, however loaded the machine
# (8 s: a longer wait only held one of make check's two slots idle).
quiet live-dialog "$out/live-dialog.html" 8
rc=$?
check "self-test: a dialog is seen (the page never finishes: rc $rc)" '[ $rc -eq 124 ] || [ $rc -eq 137 ]'
check "self-test: a tag not the writer's is seen" \
	'[ "$(foreign_tags "$out/live-handler.html")" = "<img src=x onerror=\"console.log(1)\">" ]'

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
	check "$name: self-contained (no script, link, src or url but the figures)" \
		'[ -z "$(foreign_tags "$html")" ]'
	check "$name: one image per plots/*.svg, byte for byte" 'figures_whole "$html"'
	check "$name: each figure at its own width or wider in the page ($(sizes "$html"))" \
		'[ -n "$(sizes "$html")" ] && ! sizes "$html" | grep -q small'
	# Issue 46: a 1200 px figure in an 1100 px page had its right 100 px
	# (a colour box's labels) out of view until scrolled.
	check "$name: each figure up to 1200 px whole in view at a 1280 px window ($(sizes "$html"))" \
		'! sizes "$html" | grep -q hidden'
}
# Each figure's width as laid out by the browser against its SVG's own
# (issue 46: fitted to the page, a 1600 px figure's text read as 7 px):
# "NAME RENDERED/NATURAL" per figure, "small" after one drawn narrower,
# "hidden" after one up to 1200 px wider than its figure's visible box.
# A copy of the page with a script that writes them into its DOM.
sizes() { # HTML
	local html=$1 probe=$out/sizes-$$.html
	{
		cat "$html"
		printf '%s\n' '<script>for (const i of document.querySelectorAll("figure img")) {' \
			'const m = atob(i.src.split(",")[1]).match(/viewBox="0 0 ([0-9.]+)/);' \
			'const w = i.getBoundingClientRect().width, n = m ? +m[1] : 0;' \
			'const p = document.createElement("pre"); p.className = "size";' \
			'const v = i.parentElement.clientWidth, h = n <= 1200 && v + 1 < w ? " hidden" : "";' \
			'p.textContent = "SI" + "ZE " + i.alt + " " + Math.round(w) + "/" + n + (w + 1 < n ? " small" : "") + h;' \
			'document.body.appendChild(p); }</script>'
	} >"$probe"
	"$browser" --headless --no-sandbox --disable-gpu --window-size=1280,2400 \
		--user-data-dir="$out/profile" --dump-dom "file://$probe" 2>/dev/null |
		grep -o 'SIZE [^<]*' | sed 's/^SIZE //' | tr '\n' ' '
	rm -f "$probe"
}

# ---- a small curves run: its report.html ----
run=$out/run
"$mess" --quick --buffer 32M --gen-bytes 8M --chase-ms 5 --out "$run" >"$out/run.out" 2>"$out/run.err"
rc=$?
check "curves run exits 0" '[ $rc -eq 0 ]' || tail -5 "$out/run.err"
check "the run says where its report is" 'grep -qF "open $run/report.html" "$out/run.err"'
verdict=$(jq -r .quality.verdict "$run/meta.json" 2>/dev/null)
# Fairness: the judged point's shares, or why there are none (one
# generator core on a 2-core machine).
fair="judged at"
[ "$(jq .distribution.fairness.generator_cores "$run/meta.json" 2>/dev/null)" = 1 ] &&
	fair="Not evaluable: one generator core"
page_ok run "$run/report.html" "Verdict: $verdict" "Key figures" "unloaded latency" \
	"How it was measured" "generator variant" "Counters" "--peak-gbs GBS" \
	"66.7 % read" "$(uname -n)" "Fairness between the generator cores" "$fair"
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
		# The title's lines joined again: plots/style.gp wraps a long one.
		check "$name: the SVG says '$t'" \
			'grep -qF -- "$t" "$f" || python3 "$here/svgfig.py" title "$f" "$t" >/dev/null'
	done
}
cpu=$(jq -r .cpu_model "$run/meta.json")
svg_has curves.svg "$run/plots/curves.svg" "$cpu on $(uname -n), memory node" \
	"cores generating" "bandwidth accounted" "Memory bandwidth [GB/s]" \
	"Load-to-use latency [ns]" "<title>0 % stores" "× unloaded" "unloaded "
svg_has hbm-curves.svg "$out/hbm/plots/curves.svg" "Intel Xeon Max 9480, HBM2" \
	"published set (mess-results; no verdict: not measured by mess), bandwidth counters" "<title>50 % read</title>" \
	"<title>82 % read</title>" "theoretical peak 1638 GB/s"
# The latency ladder: a run of its own (its report.html too).
"$mess" ladder --quick --json --out "$out/ladder" >"$out/ladder.json" 2>"$out/ladder.err"
rc=$?
check "ladder --quick: exit 0" '[ $rc -eq 0 ]' || tail -3 "$out/ladder.err"
check "ladder --json: summary.json on stdout" 'cmp -s "$out/ladder.json" "$out/ladder/summary.json"' 
svg_has ladder.svg "$out/ladder/plots/ladder.svg" "Latency ladder (the lat_mem_rd method)" \
	"buffer size" "latency per dependent load [ns]" "<title>median ± spread</title>" \
	">4 KiB<" ">1 MiB<"
# The verdict and the host in the title, as every other figure's (issue
# 46: the ladder's said only the CPU).
check "ladder.svg: the title carries the run's verdict and host" \
	'python3 "$here/svgfig.py" title "$out/ladder/plots/ladder.svg" "$(jq -r .quality.verdict "$out/ladder/meta.json"):" "on $(uname -n)"'
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

# ---- a hostile corpus: what a directory someone sends holds runs nothing ----
# Each string: markup, script, handlers, a break out of a quoted attribute
# (either quote) and fetches of the listener, named by TAG; shown as text,
# the page says "<i>TAG</i>".  First a handler short enough for a field
# the readers cut at 31 bytes (info.txt's BANDWIDTH_SOURCE).  No comma,
# bar or newline: it stays one CSV, markdown or KEY=VALUE field.
evil_t='<svg onload=console.log(0)><i>TAG</i><script>console.log("TAG")</script><img src="URL/h/TAG/img" onerror="console.log(1)"><svg onload="console.log(2)"></svg>"><img src="URL/h/TAG/dq">'"'"'><img src="URL/h/TAG/sq">&amp;<link rel="stylesheet" href="URL/h/TAG/css"><iframe src="URL/h/TAG/frame"></iframe>'
evil() { local p=${evil_t//TAG/"$1"}; printf '%s' "${p//URL/"$u"}"; }
shows() { grep -qF -- "&lt;i&gt;$2&lt;/i&gt;" "$out/$1.dom"; }
# Set, directory and figure names: no slash, the rest goes.
nm=$'x<i>"q\'&amp;<img src=x onerror=console.log(5)>'
H=$out/hostile
mkdir -p "$H"
# A run: every string of meta.json (the host, the CPU, the bandwidth
# source, the version...) but its verdict's words (the loader refuses
# others, and the key figures would not be shown; the ladder below has
# them), a counter's name, absorption.csv's names, the sentence a
# comparison gives, and SVGs that script, handle and fetch (one that opens
# a dialog has a run of its own below, as a dialog stops the page).
hA="$H/run $nm"
cp -r "$run" "$hA"
rm -f "$hA/report.html"
hostile_meta() { # KEEP_VERDICT
	jq --arg t "$evil_t" --arg u "$u" --argjson keep "$1" \
		'def evil($tag): $t | gsub("TAG"; $tag) | gsub("URL"; $u);
		reduce (paths(strings) | select($keep == 0 or (.[-1] != "verdict" and .[-1] != "level"))) as $p
			(.; setpath($p; evil($p | map(tostring) | join("."))))
		| .counters += { (evil("counter-key")): evil("counter-value") }' "$run/meta.json"
}
hostile_meta 1 >"$hA/meta.json"
{
	echo "kernel,variant,cores,q,mode,k1,k1_lo,k1_hi,status"
	echo "$(evil abk),$(evil abv),1,nan,$(evil abm),nan,nan,nan,$(evil abs)"
	echo "k,v,2,nan,$(evil abm2),4,3,5,$(evil abs2)"
} >"$hA/absorption.csv"
printf '**In one sentence:** %s\n' "$(evil sentence)" >"$hA/compare.md"
svg='<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="400" height="100" viewBox="0 0 400 100"'
printf '%s><script>console.log("svg-script"); fetch("%s/h/svg-script")</script><rect width="400" height="100" fill="#3c3"><animate attributeName="x" from="0" to="1" dur="1s" onbegin="console.log(3)"/></rect></svg>\n' "$svg" "$u" >"$hA/plots/script.svg"
printf '%s><foreignObject width="400" height="100"><body xmlns="http://www.w3.org/1999/xhtml"><img src="%s/h/svg-fo" onerror="console.log(4)"/><p>fo</p></body></foreignObject></svg>\n' "$svg" "$u" >"$hA/plots/foreign.svg"
printf '%s><style>@import url(%s/h/svg-css);</style><image href="%s/h/svg-image" width="10" height="10"/><image xlink:href="%s/h/svg-xlink" width="10" height="10"/><a href="javascript:alert(1)"><rect width="400" height="100" fill="#33c"/></a></svg>\n' "$svg" "$u" "$u" "$u" >"$hA/plots/image.svg"
cp "$hA/plots/script.svg" "$hA/plots/$nm.svg"
"$mess" report "$hA" >"$out/hA.out" 2>"$out/hA.err"
check "hostile run: report written ($(head -2 "$out/hA.err"))" '[ -s "$hA/report.html" ]'
hD="$H/dialog $nm"
cp -r "$run" "$hD"
rm -f "$hD/report.html"
printf '%s onload="alert(1)"><rect width="400" height="100" fill="#c33"/></svg>\n' "$svg" >"$hD/plots/onload.svg"
"$mess" report "$hD" >"$out/hD.out" 2>"$out/hD.err"
check "hostile dialog: report written ($(head -2 "$out/hD.err"))" '[ -s "$hD/report.html" ]'
# A run that is no curve family's (the ladder): summary.json's keys and
# strings.
hB="$H/ladder $nm"
cp -r "$out/ladder" "$hB"
rm -f "$hB/report.html"
hostile_meta 0 >"$hB/meta.json"
jq --arg t "$evil_t" --arg u "$u" 'def evil($tag): $t | gsub("TAG"; $tag) | gsub("URL"; $u);
	. + { (evil("summary-key")): evil("summary-value"), "list": [evil("summary-list"), { (evil("deep-key")): evil("deep") }] }' \
	"$out/ladder/summary.json" >"$hB/summary.json"
"$mess" report "$hB" >"$out/hB.out" 2>"$out/hB.err"
check "hostile ladder: report written ($(head -2 "$out/hB.err"))" '[ -s "$hB/report.html" ]'
# A public set: system.md (prose, head and cells) and plotter.txt.
hS="$H/set $nm"
cp -r "$hbm" "$hS"
sed -i "s/Intel Xeon Max 9480/$(evil cpu | sed 's/[\/&]/\\&/g')/" "$hS/system.md"
printf '\n%s\n\n| %s | b |\n|---|---|\n| %s | d |\n' "$(evil md-prose)" "$(evil md-head)" "$(evil md-cell)" >>"$hS/system.md"
printf '%s=%s\nCOMMENT=%s\n' "$(evil plotter-key)" "$(evil plotter-value)" "$(evil plotter-comment)" >>"$hS/plotter.txt"
"$mess" report "$hS" --out "$H/set-out $nm" >"$out/hS.out" 2>"$out/hS.err"
check "hostile set: report written ($(head -2 "$out/hS.err"))" '[ -s "$H/set-out $nm/report.html" ]'
# An export: info.txt's provenance.
hE="$H/export $nm"
"$mess" export "$run" --format mess --force --out "$hE" >/dev/null 2>"$out/hE-export.err"
sed -i -e "s/^BANDWIDTH_SOURCE=.*/BANDWIDTH_SOURCE=$(evil info-bw | sed 's/[\/&]/\\&/g')/" \
	-e "s/^MEASURED_BY=.*/MEASURED_BY=$(evil info-by | sed 's/[\/&]/\\&/g')/" \
	-e "s/^SOURCE_VERDICT_REASON=.*/SOURCE_VERDICT_REASON=$(evil info-reason | sed 's/[\/&]/\\&/g')/" "$hE/info.txt"
"$mess" report "$hE" --out "$H/export-out $nm" >"$out/hE.out" 2>"$out/hE.err"
check "hostile export: report written ($(head -2 "$out/hE.err"; cat "$out/hE-export.err"))" '[ -s "$H/export-out $nm/report.html" ]'
# A comparison of them: the set names in its page and figure.
"$mess" compare "$hS" "$hE" --out "$H/cmp $nm" >/dev/null 2>"$out/hC.err"
check "hostile compare: report written ($(head -2 "$out/hC.err"))" '[ -s "$H/cmp $nm/report.html" ]'
for page in hA:"$hA" hD:"$hD" hB:"$hB" hS:"$H/set-out $nm" hE:"$H/export-out $nm" hC:"$H/cmp $nm"; do
	name=${page%%:*} dir=${page#*:}
	[ -s "$dir/report.html" ] || continue
	quiet "$name" "$dir/report.html"
	rc=$?
	check "$name: rendered, no dialog (rc $rc)" '[ $rc -eq 0 ]'
	check "$name: no console message ($(grep ":CONSOLE" "$out/$name.log" | head -2))" \
		'[ "$(console "$out/$name.log")" -eq 0 ]'
	check "$name: only the writer's tags ($(foreign_tags "$dir/report.html" | head -c 300))" \
		'[ -z "$(foreign_tags "$dir/report.html")" ]'
	check "$name: one image per plots/*.svg" \
		'[ "$(grep -o "src=\"data:image/svg+xml;base64," "$dir/report.html" | wc -l)" -eq "$(ls "$dir"/plots/*.svg 2>/dev/null | wc -l)" ]'
	check "$name: the directory's name shown as text" 'grep -qF "x&lt;i&gt;\"q'"'"'&amp;amp;&lt;img src=x onerror=console.log(5)&gt;" "$out/$name.dom"'
done
check "hA: host, CPU, version, tool, verdict, reasons as text" \
	'shows hA host && shows hA cpu_model && shows hA version && shows hA git_revision && shows hA tool && shows hA quality.reasons.0.text'
check "hA: both bandwidth source cells as text (the key figures' cut at 31 bytes)" \
	'shows hA bw_source && grep -qF "<td colspan=\"2\">&lt;svg onload=console.log(0)&gt;" "$out/hA.dom"'
check "hA: counters, absorption, sentence as text" 'shows hA counter-key && shows hA counter-value && shows hA sentence && shows hA abk'
check "hA: the figure of a hostile name is there, its name escaped" \
	'grep -qF "<img alt=\"plots/x&lt;i&gt;&quot;q&#39;&amp;amp;&lt;img src=x onerror=console.log(5)&gt;.svg\"" "$hA/report.html"'
check "hB: summary.json's keys and strings, the verdict as text" \
	'shows hB summary-key && shows hB summary-value && shows hB summary-list && shows hB quality.verdict && shows hB quality.reasons.0.level'
check "hA: the key figures from the run's curves" 'grep -qF "saturated bandwidth" "$out/hA.dom"'
check "hS: system.md and plotter.txt as text" \
	'shows hS cpu && shows hS md-prose && shows hS md-head && shows hS md-cell && shows hS plotter-key && shows hS plotter-value'
check "hE: info.txt's bandwidth source as text" \
	'grep -qF "<td colspan=\"2\">&lt;svg onload=console.log(0)&gt;" "$out/hE.dom"'
sleep 1
check "no page made a request ($(requests | head -3 | tr "\n" " "))" '[ -z "$(requests)" ]'

# ---- a set whose generators never loaded the memory (issue 34) ----
# Latency at the maximum bandwidth within noise of the unloaded one: the
# key figures say what moved the traffic, not a saturation, no waves.
flat=$out/flat
mkdir -p "$flat"
{
	echo "read_pct_rounded,pause,bandwidth_mean,bandwidth_std,rd_percentage_actual_mean,latency_mean,latency_std,bandwidth_smooth,latency_smooth,rw_ratio"
	for r in 100 50; do
		echo "$r.0,400000.0,0.0,0.01,0.$r,100.0,1.0,0.0,100.0,$r"
		echo "$r.0,4000.0,0.3,0.01,0.$r,230.0,1.0,0.3,230.0,$r"
		echo "$r.0,400.0,3.0,0.01,0.$r,101.0,1.0,3.0,101.0,$r"
		echo "$r.0,40.0,6.7,0.01,0.$r,104.0,2.0,6.7,104.0,$r"
		echo "$r.0,0.0,5.0,0.01,0.$r,106.0,2.0,5.0,106.0,$r"
	done
} >"$flat/memory_curves.csv"
"$mess" report --no-plots "$flat" --out "$out/flat-page" >/dev/null 2>"$out/flat.err"
check "a set that never loaded the memory: not saturated, what reached what, each mix not loaded, no wave count" \
	'grep -q "<b>not saturated: the generators reached 6.7 GB/s</b>" "$out/flat-page/report.html" &&
	 [ "$(grep -o "<i>not loaded</i></td><td class=\"n\">[0-9.]*</td><td class=\"n\">–</td>" "$out/flat-page/report.html" | wc -l)" -eq 2 ]' ||
	cat "$out/flat.err"

# ---- mess matrix and mess c2c (issue 36): tables as heat maps, figures ----
"$mess" matrix --quick --out "$out/mx" >/dev/null 2>"$out/mx.err" || cat "$out/mx.err"
page_ok matrix "$out/mx/report.html" "Unloaded latency (ns per dependent load)" \
	"Peak bandwidth, read only (GB/s)" "Peak bandwidth, 2:1 reads to writes (GB/s)" "from \\ to" \
	"How it was measured"
check "matrix: both heat maps on the page" \
	'[ "$(grep -c "alt=\"plots/matrix-\(latency\|bandwidth\).svg\"" "$out/mx/report.html")" -eq 2 ]'
if "$mess" c2c --quick --out "$out/c2c" >/dev/null 2>"$out/c2c.err"; then
	page_ok c2c "$out/c2c/report.html" "Core-to-core latency (one way, ns)" "pairs sharing"
	check "c2c: its heat map on the page" 'grep -q "alt=\"plots/c2c.svg\"" "$out/c2c/report.html"'
fi

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
