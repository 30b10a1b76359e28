#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# usage: tests/interfere.sh MESS   (make check-smoke)
#
# mess interfere on this machine, whatever it is: the victim's rows for
# 0..N aggressors (N the cores its socket has besides the victim's: 0..1 on
# a 2-core guest) per mix, the files, their columns and their figures
# present and sane (wide bounds, never timing); --aggressors 0; a second
# run into the same --out refused; a placement the machine cannot give
# (one socket, one memory node) exit 3 in one line with nothing written;
# Ctrl-C keeps the rows measured.  The emulated multi-socket machine of
# make check-numa checks the placements themselves.
set -u
mess=$1
out=$(mktemp -d /tmp/mess-interfere.XXXXXX)
trap 'rm -rf "$out"' EXIT
pass=0 fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*"; }
check() { if eval "$2" >/dev/null 2>&1; then ok; else bad "$1"; fi; }

# The verdict (issue 46 item 2): NAME DIR STDERR JSON [SVG].  meta.json's
# quality and environment, summary.md's head, --json, the page (it said
# "Verdict: none"), the closing lines and the figure's title agree.
verdict() {
	local name=$1 d=$2 e=$3 js=$4 svg=${5:-} v
	v=$(jq -r .quality.verdict "$d/meta.json" 2>/dev/null)
	check "$name: meta.json quality: PASS, WARN or INVALID, a next step, its rules; the environment" \
		"jq -e '(.quality.verdict == \"PASS\" or .quality.verdict == \"WARN\" or .quality.verdict == \"INVALID\") and (.quality.next_step | length > 0) and (.quality.rules | length > 0) and (.environment | type) == \"object\"' '$d/meta.json'"
	check "$name: summary.md opens its verdict section" "grep -q '^## Verdict: $v\$' '$d/summary.md'"
	check "$name: --json gives the verdict and its next step" "jq -e '.quality.verdict == \"$v\" and (.quality.next_step | length > 0)' '$js'"
	check "$name: report.html says the verdict, not none" "grep -q 'Verdict: $v' '$d/report.html' && ! grep -q 'Verdict: none' '$d/report.html'"
	check "$name: the verdict among the closing lines" "grep -q '^mess [a-z0-9]*: verdict $v' '$e'"
	[ -z "$svg" ] || check "$name: the figure's title says the verdict" "grep -q '$v: ' '$d/$svg'"
}
# --strict: NAME DIR RC; exit 2 exactly when meta.json says INVALID.
strict() {
	local v want=0
	v=$(jq -r .quality.verdict "$2/meta.json" 2>/dev/null)
	[ "$v" != INVALID ] || want=2
	check "$1 --strict: exit $want with the verdict ${v:-missing}" "[ $3 = $want ] && jq -e '.quality.strict == true' '$2/meta.json'"
}

header=placement,store_pct,read_pct,aggressors,lat_p50_ns,lat_p90_ns,lat_p99_ns,lat_p999_ns,lat_mean_ns,lat_p99_spread_ns,p99_vs_none,windows,bw_gbs,disturbed,disturbed_kept,lost_pct,preempted,impossible

"$mess" interfere --quick --json --out "$out/i" >"$out/i.json" 2>"$out/i.err"
rc=$?
# A machine whose victim has no other core on its socket (one core): the
# placement cannot be had, said in one line, nothing written, nothing more
# to run here.
if [ $rc = 3 ] && grep -q "no core besides the victim" "$out/i.err"; then
	check "interfere on one core: exit 3, one line, nothing written" \
		'[ "$(wc -l <"$out/i.err")" = 1 ] && [ ! -e "$out/i" ]'
	echo "interfere: $pass passed, $fail failed (no core besides the victim's: nothing more to run)"
	[ "$fail" = 0 ]
	exit
fi
check "interfere: exit 0 (see $out/i.err)" '[ $rc = 0 ]' || cat "$out/i.err"
j=$out/i.json m=$out/i/meta.json
check "interfere --json prints summary.json" 'cmp -s "$j" "$out/i/summary.json"'
# The cost before the work (issue 47): the rows and an estimate on stderr
# before the first row, meta.json the estimate beside the time taken.
check "interfere: 'N rows x M windows, about T' before the first row" \
	"grep -m1 -E '^mess interfere: [0-9]+ rows? x [0-9]+ windows, about [0-9.:]+( s)? \\(from this machine.s first window' '$out/i.err' && [ \$(grep -n 'about' '$out/i.err' | head -1 | cut -d: -f1) -lt \$(grep -n '^interfere: \\[1/' '$out/i.err' | cut -d: -f1) ]"
check "interfere meta.json: estimate_s and took_s" "jq -e '.estimate_s > 0 and .took_s > 0 and (.estimate_from | length > 0)' '$out/i/meta.json'"
n=$(jq -r .max_aggressors "$m" 2>/dev/null)
n=${n:-0}
check "interfere: all the socket's other cores by default" "jq -e '.max_aggressors == .placement_cores and .max_aggressors >= 1' '$m'"
# This project's guest: 2 cores on one socket, so 0..1 aggressors.
if [ "$(nproc)" = 2 ] && [ "$(lscpu 2>/dev/null | sed -n 's/^Socket(s):[[:space:]]*//p')" = 1 ]; then
	check "interfere: a 2-core guest gives 0..1 aggressors" '[ "$n" = 1 ]'
fi
check "interference.csv: its header" '[ "$(head -1 "$out/i/interference.csv")" = "$header" ]'
check "interference.csv: 2 mixes x 0..$n aggressors" \
	'[ "$(wc -l <"$out/i/interference.csv")" = $((2 * (n + 1) + 1)) ]'
check "interference.csv: each mix's aggressors 0..$n in order" \
	"[ \"\$(awk -F, 'NR > 1 { printf \"%s:%s \", \$2, \$4 }' '$out/i/interference.csv')\" = \"\$(for s in 0 50; do for a in \$(seq 0 $n); do printf '%s:%s ' \$s \$a; done; done)\" ]"
check "interfere: every row's figures sane (1 ns..100 us, p50 <= p99 <= p99.9), 3 windows" \
	"jq -e '[.rows[] | (.lat_p50_ns > 1 and .lat_p999_ns < 1e5 and .lat_p50_ns <= .lat_p99_ns and .lat_p99_ns <= .lat_p999_ns and .lat_mean_ns > 1 and .windows == 3)] | all' '$j'"
check "interfere: no aggressor moves nothing, one or more moves their bytes" \
	"jq -e '[.rows[] | if .aggressors == 0 then .bw_gbs == 0 else .bw_gbs > 0.01 end] | all' '$j'"
check "interfere: p99 over its value with none, 1 at none" \
	"jq -e '[.rows[] | select(.aggressors == 0) | .p99_vs_none == 1] | all' '$j'"
check "interfere: a knee per mix, reached or not" \
	"jq -e '(.knees | length) == 2 and ([.knees[] | (.knee == \"reached\" and .knee_aggressors >= 1) or (.knee == \"not reached\" and .knee_aggressors == null)] | all)' '$j'"
check "summary.md: a table and a knee per mix" \
	'[ "$(grep -c "^| aggressors |" "$out/i/summary.md")" = 2 ] && [ "$(grep -c "^Knee: " "$out/i/summary.md")" = 2 ]'
check "meta.json: complete, how measured" \
	"jq -e '.complete and .rows_measured == 2 * ($n + 1) and .repeats == 3 and .placement == \"same-socket\" and (.bandwidth.source | startswith(\"accounted\")) and .aggressor_node == .victim_node and (.latency.huge_pages | length > 0) and .knee.x == 2' '$m'"
# The keys every run's meta.json gives, which report.html's "How it was
# measured" reads (it said "unknown" for node, cores and huge pages), and the
# page's tables: one per mix with its knee, not a dump of summary.json.
check "meta.json: memory_node, cores (the victim as chase, the aggressors as generators), huge_pages, the chase's stride" \
	"jq -e '.memory_node == .victim_node and .cores.chase == .victim_core and (.cores.generators | length) == .max_aggressors and .cores.machine_cores >= 2 and (.huge_pages | length > 0) and .latency.stride_bytes == 256' '$m'"
check "report.html: a table per mix with its knee, how it was measured known" \
	'[ "$(grep -c "The victim.s latency, aggressors at" "$out/i/report.html")" = 2 ] && [ "$(grep -c "Knee: <b>" "$out/i/report.html")" = 2 ] &&
	 ! grep -q "<td>unknown</td>" "$out/i/report.html" && ! grep -q "lat_p50_ns" "$out/i/report.html"'
svg=
command -v gnuplot >/dev/null && svg=plots/interference.svg
verdict interfere "$out/i" "$out/i.err" "$j" $svg
# The key beside the plot, not over its lines' start (issue 46).
[ -n "$svg" ] && check "interference.svg: the key beside the plot, not over the data" \
	'python3 "$(dirname "$0")/svgfig.py" keyout "$out/i/plots/interference.svg"'
"$mess" interfere --quick --strict --no-plots --aggressors 0 --mixes 0 --out "$out/strict" >/dev/null 2>&1
strict interfere "$out/strict" $?
"$mess" interfere --quick --out "$out/i" >/dev/null 2>"$out/again.err"
rc=$?
check "interfere: a second run into the same --out is refused" '[ $rc = 1 ] && grep -q "already holds a run" "$out/again.err"'

"$mess" interfere --quick --aggressors 0 --mixes 100 --out "$out/none" >/dev/null 2>"$out/none.err"
rc=$?
check "interfere --aggressors 0: exit 0, one row" \
	'[ $rc = 0 ] && [ "$(wc -l <"$out/none/interference.csv")" = 2 ] && grep -q "^same-socket,100,.*,0," "$out/none/interference.csv"'
check "interfere --aggressors 0: the knee not reached with 0" 'grep -q "not reached with 0" "$out/none/summary.md"'

# A placement this machine cannot give: exit 3, one line, nothing written.
sockets=$(lscpu 2>/dev/null | sed -n 's/^Socket(s):[[:space:]]*//p')
nodes=$(numactl -H 2>/dev/null | sed -n 's/^available: \([0-9]*\) nodes.*/\1/p')
if [ "${sockets:-1}" = 1 ]; then
	"$mess" interfere --quick --placement other-socket --out "$out/os" >/dev/null 2>"$out/os.err"
	rc=$?
	check "interfere other-socket on one socket: exit 3, one line, nothing written" \
		'[ $rc = 3 ] && [ "$(wc -l <"$out/os.err")" = 1 ] && grep -q "one socket" "$out/os.err" && [ ! -e "$out/os" ]'
fi
if [ "${nodes:-1}" = 1 ]; then
	"$mess" interfere --quick --placement other-node --out "$out/on" >/dev/null 2>"$out/on.err"
	rc=$?
	check "interfere other-node on one node: exit 3, one line, nothing written" \
		'[ $rc = 3 ] && [ "$(wc -l <"$out/on.err")" = 1 ] && grep -q "one memory node" "$out/on.err" && [ ! -e "$out/on" ]'
fi

# The placements on hwloc fixtures (HWLOC_XMLFILE): a Xeon Max in flat
# mode, two sockets of 2 cores, each with a DRAM and an HBM node; a CXL
# machine whose expanders hang off the whole machine.  Nothing is bound to
# a fixture's node (--aggressors 0: the victim's buffer on node 0, this
# machine's too); meta.json says where the aggressors would run.
fx=$(dirname "$0")/fixtures/topo
fxrun() {
	HWLOC_XMLFILE=$fx/$1 HWLOC_THISSYSTEM=0 "$mess" interfere --quick --aggressors 0 \
		--mixes 0 --no-plots --placement "$2" --out "$out/fx-$1-$2" >/dev/null 2>&1
}
fxcheck() {
	fxrun "$1" "$2"
	check "interfere $2 on $1: $3" "jq -e '$4' '$out/fx-$1-$2/meta.json'"
}
fxcheck xeon-max-flat.xml same-socket "the socket's other core, DRAM node 0" \
	'.complete and .placement_cores == 1 and .aggressor_node == 0'
fxcheck xeon-max-flat.xml other-socket "the other socket's 2 cores, on the victim's node" \
	'.complete and .placement_cores == 2 and .aggressor_node == 0'
fxcheck xeon-max-flat.xml other-node "the socket's HBM node 2, not the other socket's" \
	'.complete and .placement_cores == 1 and .aggressor_node == 2 and .memory_node_choice.kind == "hbm"'
fxcheck cxl-expander.xml other-node "the CXL node nearest the victim (250 ns), another kind" \
	'.complete and .aggressor_node == 2 and .memory_node_choice.kind == "cxl"'
HWLOC_XMLFILE=$fx/xeon-max-flat.xml HWLOC_THISSYSTEM=0 "$mess" interfere --quick --placement other-node \
	--mem-node 0 --out "$out/fx-own" >/dev/null 2>"$out/fx-own.err"
rc=$?
check "interfere --mem-node the victim's own node: exit 1, one line, nothing written" \
	'[ $rc = 1 ] && [ "$(wc -l <"$out/fx-own.err")" = 1 ] && grep -q "is the victim.s own node 0" "$out/fx-own.err" && [ ! -e "$out/fx-own" ]'

# Ctrl-C after the first row: exit 130, the rows measured kept.
"$mess" interfere --repeats 20 --run-ms 100 --settle-ms 200 --out "$out/int" >/dev/null 2>"$out/int.err" &
pid=$!
for _ in $(seq 600); do
	grep -q '\[1/' "$out/int.err" 2>/dev/null && break
	sleep 0.1
done
kill -INT "$pid"
wait "$pid"
rc=$?
kept=$(jq -r .rows_measured "$out/int/meta.json" 2>/dev/null)
check "interfere interrupted: exit 130 (see $out/int.err)" '[ $rc = 130 ]'
check "interfere interrupted: meta.json incomplete, the rows measured kept" \
	"jq -e '.complete == false and .rows_measured >= 1' '$out/int/meta.json' && [ \"\$(wc -l <'$out/int/interference.csv')\" = \$(( ${kept:-0} + 1 )) ]"
echo "interfere: $pass passed, $fail failed"
[ "$fail" = 0 ]
