#!/bin/sh
# SPDX-License-Identifier: MIT
# What a run costs as its work grows (issue 47): mess curves timed against
# its mixes, its points per curve and its generator cores, one axis at a
# time from a base run; then mess matrix, c2c and interfere, whose
# meta.json keeps the estimate printed before the work (estimate_s) beside
# the time the work took (took_s), so the estimate's error is known.  A
# line fitted to the curves runs splits their time into a cost per point
# measured and a fixed cost.  Writes a markdown table on stdout (the runs'
# lines in OUT/runs.tsv).
#
# usage: tools/cost-bench.sh [--mixes 'LIST ...'] [--points 'N ...']
#            [--cores 'LIST ...'] [--full] [--mess MESS] [--out OUT]
#            [--commands 'curves matrix c2c interfere'] [--runs DIR ...]
#   --mixes, --points, --cores: the values of one axis, each a value of
#       mess's own option ('default' in --cores: mess's default
#       generators); the first value of each is the base run's
#   --commands: only these commands' runs (e.g. 'matrix c2c interfere'
#       to time the estimates again without the curves' axes)
#   --full: mess's default windows, repeats and buffer (else --quick:
#       the defaults below take a few minutes on a 2-core guest)
#   --runs DIR ...: no run, only the table of run directories measured
#       before, e.g. check-numa's emulated machines, where matrix is
#       nodes x nodes and c2c PUs x PUs:
#         MESS_NUMA_TOPOS='A C' make check-numa
#         tools/cost-bench.sh --runs build/numa/out-*/r/matrix build/numa/out-*/r/c2c
# Times on a loaded machine say so in each run's verdict (disturbed
# windows are measured again): read the table with meta.json's quality.
set -eu
MESS=build/x86_64/mess
OUT=build/cost-bench
MIXES="0,50,100 0 0,20,40,60,80,100"
POINTS="6 12 24"
CORES=default
QUICK=--quick
RUNS=
COMMANDS="curves matrix c2c interfere"
while [ $# -gt 0 ]; do
	case $1 in
	--mixes | --points | --cores | --mess | --out | --commands)
		[ $# -ge 2 ] || { echo "cost-bench: $1 needs a value" >&2; exit 1; } ;;
	esac
	case $1 in
	--mixes) MIXES=$2; shift 2 ;;
	--points) POINTS=$2; shift 2 ;;
	--cores) CORES=$2; shift 2 ;;
	--mess) MESS=$2; shift 2 ;;
	--out) OUT=$2; shift 2 ;;
	--commands) COMMANDS=$2; shift 2 ;;
	--full) QUICK=; shift ;;
	--runs) shift; RUNS=1; break ;;
	*) echo "cost-bench: unknown argument '$1' (allowed: --mixes, --points, --cores, --full, --mess, --out, --commands, --runs)" >&2; exit 1 ;;
	esac
done
command -v jq >/dev/null || { echo "cost-bench: needs jq" >&2; exit 2; }

# shellcheck disable=SC2086
first() { set -- $1; echo "${1:-}"; }
m0=$(first "$MIXES") p0=$(first "$POINTS") c0=$(first "$CORES")

now() { date +%s.%N; }
# row DIR WALL: one line of runs.tsv from a run directory's meta.json:
# command, mixes, points minimum, generators, the work, wall s, took s,
# estimate s.
row() {
	jq -r --arg wall "$2" '
		def n: if . == null then "-" else tostring end;
		[(.tool // "mess" | if . == "mess" then "mess curves" else . end),
		 (if .mixes == null then "-" elif (.mixes | type) == "string" then (.mixes | split(",") | length | tostring) else (.mixes | length | tostring) end),
		 (.points_min | n),
		 (if .cores.generators then (.cores.generators | length | tostring) else "-" end),
		 (if .points_measured then "\(.points_measured) points, \(.probes // "-") probes" else (.estimate_plan // "-") end),
		 $wall, (.took_s | n), (.estimate_s | n), (.quality.verdict // "-")] | @tsv' "$1/meta.json"
}

mkdir -p "$OUT"
: >"$OUT/runs.tsv"
if [ -n "$RUNS" ]; then
	for d in "$@"; do
		[ -f "$d/meta.json" ] || { echo "cost-bench: $d: no meta.json" >&2; exit 1; }
		row "$d" - >>"$OUT/runs.tsv"
	done
else
	n=0
	# run NAME ARGS...: one timed run into OUT/NAME.
	run() {
		name=$1
		shift
		rm -rf "${OUT:?}/$name"
		t0=$(now)
		"$MESS" "$@" --no-plots --out "$OUT/$name" >"$OUT/$name.out" 2>"$OUT/$name.err" ||
			{ echo "cost-bench: mess $*: failed:" >&2; tail -3 "$OUT/$name.err" >&2; exit 2; }
		row "$OUT/$name" "$(echo "$(now) $t0" | awk '{ printf "%.1f", $1 - $2 }')" >>"$OUT/runs.tsv"
	}
	curves() { # MIXES POINTS CORES
		n=$((n + 1))
		# shellcheck disable=SC2086
		[ "$3" = default ] && set -- "$1" "$2" ""
		run "curves-$n" curves $QUICK --mixes "$1" --points "$2" ${3:+--cores "$3"}
	}
	# wants CMD: whether --commands names it.
	wants() { case " $COMMANDS " in *" $1 "*) return 0 ;; esac; return 1; }
	if wants curves; then
		curves "$m0" "$p0" "$c0"
		for m in $MIXES; do [ "$m" = "$m0" ] || curves "$m" "$p0" "$c0"; done
		for p in $POINTS; do [ "$p" = "$p0" ] || curves "$m0" "$p" "$c0"; done
		for c in $CORES; do [ "$c" = "$c0" ] || curves "$m0" "$p0" "$c"; done
	fi
	for c in matrix c2c interfere; do
		if wants $c; then run $c $c $QUICK; fi
	done
fi

# The table, then the line fitted to the curves runs of the base's
# generator count (least squares: wall = a x points + b).
awk -F'\t' '
function err(e, t) { return (e == "-" || t == "-" || t + 0 == 0) ? "-" : sprintf("%+.0f %%", 100 * (e - t) / t) }
BEGIN {
	print "| command | mixes | points/curve (min) | generator cores | work measured | wall s | took_s | estimate_s | estimate error | verdict |"
	print "|---|---:|---:|---:|---|---:|---:|---:|---:|---|"
}
{
	printf "| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n", $1, $2, $3, $4, $5, $6, $7, $8, err($8, $7), $9
	if ($1 == "mess curves" && $6 != "-") {
		if (g == "") g = $4
		if ($4 == g) { split($5, w, " "); k++; x[k] = w[1]; y[k] = $6 }
	}
}
END {
	if (k < 2) exit
	for (i = 1; i <= k; i++) { sx += x[i]; sy += y[i] }
	mx = sx / k; my = sy / k
	for (i = 1; i <= k; i++) { sxy += (x[i] - mx) * (y[i] - my); sxx += (x[i] - mx) ^ 2 }
	if (sxx == 0) exit
	a = sxy / sxx; b = my - a * mx
	printf "\ncurves, %d generator core(s), %d runs: wall ~ %.2f s x points measured + %.1f s\n", g, k, a, b
}' "$OUT/runs.tsv"
