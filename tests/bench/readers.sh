#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Time, not pass/fail (issue 22): mess export on a curves.csv of ROWS rows
# and mess position on a perf stat -I trace of INTERVALS intervals, both
# once quadratic (export: 300k rows 393 s; position: 200k intervals past
# 90 s).  Both should now take about a second.
# usage: tests/bench/readers.sh MESS [ROWS [INTERVALS]]
set -u
mess=$1 rows=${2:-300000} intervals=${3:-200000}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
now() { date +%s%N; }

# Three mixes, schema 3: in the order a run writes them (pressure rising:
# nop falling, bandwidth and latency rising), then the same rows by
# increasing nop (a file sorted by hand or by another tool): the order
# that made the reader's insertion sort quadratic.
gen() { # ORDER: 1 as a run writes, -1 reversed
	awk -v n="$rows" -v order="$1" 'BEGIN {
	print "store_pct,read_pct,nop,bw_gbs,read_bw_gbs,write_bw_gbs,lat_ns,lat_ns_std,repeats,bw_source,acc_read_bw_gbs,acc_write_bw_gbs,lat_nowalk_ns,counter_run_frac,bw_gbs_std,disturbed,disturbed_kept,lost_pct,steal_ms,invol_switches,migrations,ghz_min,ghz_max,remeasured,flags"
	per = int(n / 3)
	for (m = 0; m < 3; m++) for (k = 0; k < per; k++) {
		i = order > 0 ? k : per - 1 - k
		s = 50 * m; f = i / per
		bw = 1 + 200 * f; lat = 90 + 400 * f * f * f
		printf "%d,%.4f,%d,%.6f,%.6f,%.6f,%.4f,1.0,3,accounted,,,,,,,,,,,,,,0,\n",
			s, 100 - s, per - i, bw, bw * (100 - s) / 100, bw * s / 100, lat
	}
}'
}
for order in 1 -1; do
	rm -rf "$tmp/run" "$tmp/x" && mkdir "$tmp/run" && gen $order >"$tmp/run/curves.csv"
	t0=$(now)
	"$mess" export "$tmp/run" --out "$tmp/x" 2>/dev/null
	rc=$?
	echo "bench: mess export, $rows rows $([ $order -gt 0 ] && echo "as a run writes them" || echo "by increasing nop"): $(( ($(now) - t0) / 1000000 )) ms (exit $rc)"
done

# perf stat -I 100 -x, with two IMC channels' CAS counts, in MiB.
awk -v n="$intervals" 'BEGIN {
	for (i = 1; i <= n; i++) {
		t = i * 0.100012
		for (c = 0; c < 2; c++) {
			printf "%.9f,%.2f,MiB,uncore_imc_%d/cas_count_read/,100012000,100.00,,\n", t, 900 + i % 50, c
			printf "%.9f,%.2f,MiB,uncore_imc_%d/cas_count_write/,100012000,100.00,,\n", t, 300 + i % 30, c
		}
	}
}' >"$tmp/perf.csv"
ref=${MESS_REFERENCE:-$(dirname "$0")/../../../shared/reference/mess-results}
t0=$(now)
"$mess" position --curves "$ref/MN5-GPP-SPR8480-DDR5" "$tmp/perf.csv" --out "$tmp/pos" >/dev/null 2>"$tmp/pos.err"
rc=$?
echo "bench: mess position, $intervals intervals: $(( ($(now) - t0) / 1000000 )) ms (exit $rc)"
[ $rc -eq 0 ] || head -3 "$tmp/pos.err"
