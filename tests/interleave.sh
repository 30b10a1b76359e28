#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# usage: tests/interleave.sh MESS [MESS_SYNTHETIC]
#
# mess interleave without measuring: its bad input (one line, exit 1,
# nothing written), a one-node machine (exit 3), and the comparison and
# the --app answer on a case whose right split is known from the firmware
# figures of a two-kind topology (tests/fixtures/topo/xeon-max-flat.xml:
# DRAM node 0, HBM node 2).  Each split's family is a replay of a
# synthetic set saturating where that split would, min(BW_A / f, BW_B /
# (1 - f)) for a share f of the pages on A, made complete in the top
# directory beforehand: the rerun keeps them and only compares.  With the
# tests' binary (synthetic backend, which measures nothing and takes any
# --mem-node) the runner's children too: each split a child given the
# options as passed and its own --mem-node.
set -u
mess=$(realpath "$1")
syn=${2:+$(realpath "$2")}
fx=$(realpath "$(dirname "$0")/fixtures/topo")
out=$(mktemp -d /tmp/mess-interleave.XXXXXX)
trap 'rm -rf "$out"' EXIT
pass=0 fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*"; }
check() { if eval "$2"; then ok; else bad "$1"; fi; }

if ! command -v jq >/dev/null || ! command -v python3 >/dev/null; then
	echo "SKIPPED interleave: no jq or python3"
	exit 0
fi
two() { HWLOC_XMLFILE=$fx/xeon-max-flat.xml HWLOC_THISSYSTEM=0 "$mess" interleave "$@"; }

# ---- refusals: one line on stderr, the exit status, nothing written ----
refused() {	# want-exit text args...
	local want=$1 text=$2 w=$out/w$pass$fail rc
	shift 2
	mkdir -p "$w"
	(cd "$w" && two "$@" >"$out/o" 2>"$out/e")
	rc=$?
	if [ $rc -eq "$want" ] && [ "$(wc -l <"$out/e")" -eq 1 ] &&
		grep -qF -- "$text" "$out/e" && [ ! -s "$out/o" ] && [ -z "$(ls -A "$w")" ]; then
		ok
	else
		bad "mess interleave $*: exit $rc (want $want), nothing written, one line with '$text':"
		sed 's/^/    /' "$out/e" | head -3
		ls -A "$w" | sed 's/^/    written: /'
	fi
}
refused 1 "NODE_A and NODE_B missing; allowed:"
refused 1 "NODE_B: node 0 is NODE_A too" 0 0
refused 1 "NODE_A: 'x' is not allowed; allowed: a memory node's number" x 2
refused 1 "NODE_B: node 7 is not a memory node of this machine" 0 7
refused 1 "--splits: '2:2' is the ratio of '1:1'" 0 2 --splits 1:1,2:2
refused 1 "--splits: '0:0' is not allowed; allowed: 2 to 8 splits" 0 2 --splits 0:0,1:1
refused 1 "--splits: '1:1' is one split" 0 2 --splits 1:1
refused 1 "--splits: '1:256' is not allowed" 0 2 --splits 1:256,1:0
refused 1 "--splits: '1' is not allowed" 0 2 --splits 1,1:0
refused 1 "--mem-node is not allowed here" 0 2 --mem-node 2
refused 1 "mess interleave: --mixes: '33' is not allowed" 0 2 --mixes 33
refused 1 "mess interleave: --app: '200:5' is not allowed" 0 2 --app 200:5
refused 1 "--app: '70:5' is given twice" 0 2 --app 70:5 --app 70:5
# One memory node: nothing to split, whatever the machine running this.
w=$out/one
mkdir -p "$w"
(cd "$w" && HWLOC_XMLFILE=$fx/synthetic-smt.xml HWLOC_THISSYSTEM=0 "$mess" interleave 0 1 --quick >"$out/o" 2>"$out/e")
rc=$?
check "one memory node: exit 3 (got $rc), the one line, nothing written" \
	'[ $rc -eq 3 ] && [ "$(cat "$out/e")" = "mess interleave: this machine has one memory node, nothing to split" ] && [ ! -s "$out/o" ] && [ -z "$(ls -A "$w")" ]'
check "mess help lists interleave" '"$mess" --help | grep -q "^  interleave "'
check "interleave --help: usage, examples, the files" \
	'"$mess" interleave --help | grep -q "^usage: mess interleave NODE_A NODE_B" && "$mess" help interleave | grep -q "split-A<WA>-B<WB>/"'

# ---- the right split known from the firmware's figures ----
# Node 0 (DRAM) and node 2 (HBM) of the fixture: bandwidth and latency
# as mess nodes reads them from its HMAT.
fw() { HWLOC_XMLFILE=$fx/xeon-max-flat.xml HWLOC_THISSYSTEM=0 "$mess" nodes --json | jq -r ".nodes[] | select(.node == $1) | .firmware.$2"; }
bwa=$(fw 0 bandwidth_mibs) bwb=$(fw 2 bandwidth_mibs) la=$(fw 0 latency_ns) lb=$(fw 2 latency_ns)
top=$out/top
mkdir -p "$top"
for s in 1:0 3:1 1:1 1:3 0:1; do
	wa=${s%:*} wb=${s#*:}
	# memory_curves.csv of a family: read shares 50..100 %, 14 points
	# from idle to its maximum, latency rising towards it.
	python3 - "$wa" "$wb" "$bwa" "$bwb" "$la" "$lb" >"$out/s$wa$wb.csv" <<'EOF'
import sys
wa, wb, bwa, bwb, la, lb = map(float, sys.argv[1:])
f = wa / (wa + wb)
gbs = lambda mibs: mibs * 1048576 / 1e9
peak = min(gbs(bwa) / f if f else 1e12, gbs(bwb) / (1 - f) if f < 1 else 1e12)
l0 = f * la + (1 - f) * lb
print("read_pct_rounded,pause,bandwidth_mean,bandwidth_std,rd_percentage_actual_mean,"
      "latency_mean,latency_std,bandwidth_smooth,latency_smooth,rw_ratio")
for r in (50, 60, 70, 80, 90, 100):
    p = peak * (0.8 + 0.2 * r / 100)
    for i, u in enumerate((0, .1, .2, .3, .4, .5, .6, .7, .8, .85, .9, .95, .98, 1)):
        lat = l0 * (1 + 0.5 * u / (1.02 - u))
        print(f"{r}.0,{100000 - i * 5000}.0,{p * u},0.01,{r / 100},{lat},0.1,{p * u},{lat},{r}")
EOF
	"$mess" curves --replay "$out/s$wa$wb.csv" --quick --no-plots --no-ladder \
		--out "$out/replay-$wa$wb" >/dev/null 2>&1 &&
		mv "$out/replay-$wa$wb" "$top/split-A$wa-B$wb" ||
		bad "replay of the synthetic family $s"
done
# The expected answer, from the same figures: the split with the most
# bandwidth, and which sustain 300 GB/s.
best=$(python3 -c "
a, b = $bwa * 1048576 / 1e9, $bwb * 1048576 / 1e9
s = [(1, 0), (3, 1), (1, 1), (1, 3), (0, 1)]
def peak(wa, wb):
    f = wa / (wa + wb)
    return min(a / f if f else 1e12, b / (1 - f) if f < 1 else 1e12)
wa, wb = max(s, key=lambda x: peak(*x))
print('all on node 0' if not wb else 'all on node 2' if not wa else f'nodes 0:{wa},2:{wb}')")
check "the firmware's figures make 1:3 the best split (node 0 $bwa MiB/s, node 2 $bwb MiB/s)" \
	'[ "$best" = "nodes 0:1,2:3" ]'
# One split not to be trusted: the sweep's verdict is the worst of its splits'.
jq '.quality.verdict = "WARN" | .quality.reasons = [{"level": "WARN", "rule": "test", "text": "made WARN by the test"}]' \
	"$top/split-A1-B1/meta.json" >"$out/m" && mv "$out/m" "$top/split-A1-B1/meta.json"
two 0 2 --out "$top" --no-plots --app 100:300 --app 100:450,100:1000 >"$out/o" 2>"$out/e"
rc=$?
j=$top/interleave.json
check "exit 0 (got $rc), stdout the top directory" '[ $rc -eq 0 ] && [ "$(cat "$out/o")" = "$top" ]' ||
	sed 's/^/    /' "$out/e" | tail -5
check "every split complete beforehand: five kept, none measured" \
	'[ "$(grep -c ": complete, kept$" "$out/e")" -eq 5 ] && ! grep -q "family [0-9] of" "$out/e"'
check "interleave.json: nodes, five splits with their weights, directories and --mem-node" \
	'jq -e "(.nodes == [0, 2]) and (.splits | length) == 5 and .splits[3].weights == {\"a\": 1, \"b\": 3} and .splits[3].dir == \"split-A1-B3\" and .splits[3].mem_node == \"0:1,2:3\" and .splits[0].mem_node == \"0\" and .splits[4].mem_node == \"2\"" "$j" >/dev/null'
check "the best split at every read share is the firmware's: $best" \
	'jq -e --arg b "$best" "(.best_per_read_share | length) == 6 and all(.best_per_read_share[]; .best == \$b)" "$j" >/dev/null'
check "per split, the maximum bandwidth per read share; the best's the largest" \
	'jq -e "all(.splits[]; (.per_read_share | length) == 6) and ([.splits[].max_bw_gbs] | max) == .splits[3].max_bw_gbs" "$j" >/dev/null'
check "--app 100:300: the best split serves it, two splits sustain it" \
	'jq -e --arg b "$best" ".apps[0].best == \$b and .apps[0].best_sustains and (.apps[0].sustained_by | sort) == ([\$b, \"all on node 2\"] | sort)" "$j" >/dev/null'
check "--app 100:450: only the best split sustains it" \
	'jq -e --arg b "$best" ".apps[1].best == \$b and .apps[1].sustained_by == [\$b]" "$j" >/dev/null'
check "--app 100:1000: no split sustains it, said" \
	'jq -e ".apps[2].any_sustains == false and (.apps[2].answer | startswith(\"No split sustains\"))" "$j" >/dev/null'
check "the verdict is the worst of the splits': WARN, from the 1:1 split" \
	'jq -e ".verdict == \"WARN\" and (.verdict_from | startswith(\"nodes 0:1,2:1 WARN\"))" "$j" >/dev/null'
check "summary.md: the title names the nodes and the verdict, then the answer first" \
	'[ "$(head -1 "$top/summary.md")" = "# Interleave of nodes 0 and 2, 5 splits: WARN" ] &&
	 sed -n 3p "$top/summary.md" | grep -qF "**Answer:** An application moving 300 GB/s at 100 % reads is served at the lowest latency by $best:"'
check "report.html: the answer is the page's first paragraph" \
	'grep -o "<p[^>]*>.*" "$top/report.html" | head -1 | grep -qF "<b>Answer:</b> An application moving 300 GB/s at 100 % reads is served at the lowest latency by $best:"'
check "compare/: the five splits compared as any families, the --app verdicts too" \
	'jq -e "(.sets | length) == 5 and (.apps | length) == 3 and .apps[0].best == \"$best\"" "$top/compare/compare.json" >/dev/null'
check "the answer on stderr too" 'grep -qF "mess interleave: An application moving 300 GB/s" "$out/e"'

# The figures in the page at their own width (issue 46: an <img> of an
# SVG with no width was laid out at the page's, the 1200 px figures
# shrunk to 85 %), as mess report shows a run's.
if command -v gnuplot >/dev/null; then
	two 0 2 --out "$top" --app 100:300 >/dev/null 2>&1
	check "report.html: the two compare figures, each at its SVG's width (1200)" \
		'[ "$(grep -c "<img src=\"compare/plots/compare[-a-z]*.svg\" alt=\"[^\"]*\" width=\"1200\">" "$top/report.html")" -eq 2 ]'
fi

# Fewer splits, the same directory: the two asked for, kept, compared.
two 0 2 --out "$top" --no-plots --splits 0:1,1:3 >"$out/o" 2>"$out/e"
rc=$?
check "--splits 0:1,1:3: exit 0 (got $rc), two splits, 1:3 the most bandwidth" \
	'[ $rc -eq 0 ] && jq -e "(.splits | length) == 2 and all(.best_per_read_share[]; .best == \"nodes 0:1,2:3\") and (.answer[0] | startswith(\"The most bandwidth at every read share\"))" "$j" >/dev/null'

# The children, on the synthetic backend: one a split, the curves options
# passed through, the split's --mem-node and --out last; run again, kept.
if [ -n "$syn" ]; then
	t2=$out/children
	HWLOC_XMLFILE=$fx/xeon-max-flat.xml HWLOC_THISSYSTEM=0 "$syn" interleave 0 2 \
		--backend synthetic --mixes 0,50,100 --no-plots --out "$t2" --splits 1:0,1:1,0:1 \
		>"$out/o" 2>"$out/e"
	rc=$?
	check "synthetic children: exit 0 (got $rc), three families measured in turn" \
		'[ $rc -eq 0 ] && [ "$(grep -c "^mess interleave: family [1-3] of 3: " "$out/e")" -eq 3 ]' ||
		grep -v "^\[mix" "$out/e" | tail -5 | sed 's/^/    /'
	check "each child got the options as given, then its --mem-node and --out" \
		'jq -e --arg d "$t2/split-A1-B1" ".args == [\"--backend\", \"synthetic\", \"--mixes\", \"0,50,100\", \"--no-plots\", \"--mem-node\", \"0:1,2:1\", \"--out\", \$d]" "$t2/split-A1-B1/resume.json" >/dev/null &&
		 jq -e ".args[5:7] == [\"--mem-node\", \"0\"]" "$t2/split-A1-B0/resume.json" >/dev/null &&
		 jq -e ".args[5:7] == [\"--mem-node\", \"2\"]" "$t2/split-A0-B1/resume.json" >/dev/null'
	check "the children's families complete and compared" \
		'jq -e "all(.splits[]; .complete) and (.best_per_read_share | length) == 6" "$t2/interleave.json" >/dev/null && [ -s "$t2/compare/compare.json" ]'
	HWLOC_XMLFILE=$fx/xeon-max-flat.xml HWLOC_THISSYSTEM=0 "$syn" interleave 0 2 \
		--backend synthetic --mixes 0,50,100 --no-plots --out "$t2" --splits 1:0,1:1,0:1 \
		>"$out/o" 2>"$out/e"
	check "run again: the three kept, none measured" \
		'[ "$(grep -c ": complete, kept$" "$out/e")" -eq 3 ] && ! grep -q "family [0-9] of" "$out/e"'
fi

echo "interleave: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
