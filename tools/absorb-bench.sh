#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The benchmark figures of issue 12, measured here:
#   tools/absorb-bench.sh quick     ./run.sh's quick table (mess absorb --quick)
#   tools/absorb-bench.sh full      the full table of stream, lat_mem_rd, haccmk
#   tools/absorb-bench.sh tables    the same, --tables 3: k1's spread per entry
# Extra arguments go to mess absorb (e.g. --kernels ...).  Prints the wall
# time, the share of entries neither ok nor none, the disturbance totals
# and the paper's two qualitative findings (Delval et al., section 6):
# lat_mem_rd absorbs memory_ld64 noise; HACCmk takes little fp_add64.
# Timings on a shared host are noisy: run it with the machine otherwise
# idle, and say so when it was not.
set -eu
cd "$(dirname "$0")/.."
what=${1:-quick}
shift || true
mess=${MESS:-build/$(uname -m)/mess}
out=${OUT:-$(mktemp -d /tmp/mess-absorb-bench.XXXXXX)}
mkdir -p "$out"
case $what in
quick)	args=(--quick) ;;
full)	args=(--kernels stream,lat_mem_rd,haccmk) ;;
tables)	args=(--kernels stream,lat_mem_rd,haccmk --tables 3) ;;
*)	echo "usage: $0 quick|full|tables [mess absorb options]" >&2; exit 1 ;;
esac
start=$(date +%s)
"$mess" absorb "${args[@]}" "$@" --no-plots --out "$out/run" >/dev/null 2>"$out/stderr"
secs=$(($(date +%s) - start))
csv=$out/run/absorption.csv
echo "absorb-bench $what: $(lscpu | sed -n 's/^Model name: *//p' | head -1), $(nproc) CPUs"
echo "  time: $((secs / 60)) min $((secs % 60)) s ($out/run)"
awk -F, 'NR > 1 { n++; s[$14]++; if ($14 != "ok" && $14 != "none") o++ }
	END { printf "  entries: %d; ok %d, none %d, wide %d, unclear %d; neither ok nor none: %d (%.0f %%)\n",
		n, s["ok"], s["none"], s["wide"], s["unclear"], o, n ? 100 * o / n : 0 }' "$csv"
awk -F, 'NR > 1 && $19 != "nan" { n++ } END { printf "  entries with a confident speed-up: %d\n", n }' "$csv"
jq -r '.disturbance | "  disturbance: \(.pairs_disturbed) of \(.pairs_counted + .pairs_measured_again) pairs disturbed, \(.pairs_measured_again) measured again, \(.pairs_kept_disturbed) kept; steal \(.steal_ticks) ticks, \(.involuntary_switches) involuntary switches"' "$out/run/meta.json"
awk -F, 'NR > 1 && $1 == "lat_mem_rd" && $5 == "memory_ld64" && $24 == 1 {
		printf "  lat_mem_rd memory_ld64: k1 %s [%s, %s) %s\n", $6, $15, $16, $14 }
	NR > 1 && $1 == "haccmk" && $5 == "fp_add64" && $24 == 1 {
		printf "  haccmk fp_add64: k1 %s [%s, %s) %s\n", $6, $15, $16, $14 }' "$csv"
if [ -f "$out/run/absorption_tables.csv" ]; then
	awk -F, 'NR > 1 { n++; if ($14 != "nan") { j++; w += $14 } }
		END { printf "  repeatability: %d entries, %d ok or none in every table, %d of them within max(2, 25 %%)\n", n, j, w }' \
		"$out/run/absorption_tables.csv"
	awk -F, 'NR > 1 { printf "    %s %s %s: k1 %s (%s)\n", $1, $3, $5, $7, $8 }' "$out/run/absorption_tables.csv"
fi
