#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The benchmark of issue 20, measured here: QUIET --quick runs on an idle
# machine and LOADED ones beside a competing load (CPU and memory: dd
# copying through a 32 MiB buffer) pinned to one core, alternately the
# chase core and the generator core.  Prints one line per run (load,
# verdict, maximum bandwidth, unloaded latency and its CV, wall time, the
# rules of its reasons) and the figures the issue asks for: how many quiet
# runs PASS, whether every loaded run names its cause, and among the PASS
# runs the maximum bandwidth's spread and the unloaded latency's CV.
#   tools/trust-bench.sh [QUIET [LOADED]]      (default 10 5)
# Extra options for mess go in MESS_ARGS.  A benchmark, not a test: run it
# with the machine otherwise idle, and say so when it was not.
set -eu
cd "$(dirname "$0")/.."
quiet=${1:-10}
loaded=${2:-5}
mess=${MESS:-build/$(uname -m)/mess}
out=${OUT:-$(mktemp -d /tmp/mess-trust-bench.XXXXXX)}
mkdir -p "$out"
hog=
trap '[ -n "$hog" ] && kill "$hog" 2>/dev/null; true' EXIT
[ "$(nproc)" -ge 2 ] || { echo "trust-bench: needs 2 CPUs" >&2; exit 3; }
pu_of() { hwloc-calc --physical-output --intersect PU "core:$1" 2>/dev/null | cut -d, -f1; }

echo "trust-bench: $(lscpu | sed -n 's/^Model name: *//p' | head -1), $(nproc) CPUs, $quiet quiet and $loaded loaded runs of mess --quick ${MESS_ARGS:-}"
printf "%-4s %-18s %-8s %8s %8s %7s %6s  %s\n" run load verdict "maxBW" "unl_ns" "unl_cv%" "wall_s" reasons
i=0
while [ $i -lt $((quiet + loaded)) ]; do
	load=quiet
	if [ $i -ge "$quiet" ]; then
		core=$(( (i - quiet) % 2 ))
		pu=$(pu_of $core)
		taskset -c "${pu:-$core}" dd if=/dev/zero of=/dev/null bs=32M 2>/dev/null &
		hog=$!
		load="dd@core$core"
		sleep 0.3
	fi
	start=$(date +%s.%N)
	# shellcheck disable=SC2086
	"$mess" --quick --no-plots ${MESS_ARGS:-} --out "$out/r$i" >/dev/null 2>"$out/r$i.err" || true
	wall=$(echo "$(date +%s.%N) - $start" | bc)
	if [ -n "$hog" ]; then kill "$hog" 2>/dev/null; wait "$hog" 2>/dev/null || true; hog=; fi
	m=$out/r$i/meta.json
	printf "%-4s %-18s %-8s %8.2f %8.1f %7.2f %6.1f  %s\n" "$i" "$load" \
		"$(jq -r .quality.verdict "$m")" \
		"$(jq -r .family.max_bw_gbs "$out/r$i/summary.json")" \
		"$(jq -r .unloaded_ns "$m")" \
		"$(jq -r '100 * .unloaded_std_ns / .unloaded_ns' "$m")" "$wall" \
		"$(jq -r '[.quality.reasons[] | select(.level != "note") | .rule] | join(",")' "$m")" |
		tee -a "$out/table.txt"
	i=$((i + 1))
done
echo
awk -v q="$quiet" '
	NR <= q { n++; if ($3 == "PASS") { p++; bw[p] = $4; ul[p] = $5; t += $7 } else t += $7 }
	NR > q { l++; if (($3 == "WARN" || $3 == "INVALID") && $8 ~ /competition|disturbed|steal/) named++ }
	END {
		printf "quiet runs PASS: %d of %d; mean wall %.1f s\n", p, n, t / n
		if (p) {
			lo = hi = bw[1]; s = ss = 0
			for (k = 1; k <= p; k++) { if (bw[k] < lo) lo = bw[k]; if (bw[k] > hi) hi = bw[k]; s += ul[k]; ss += ul[k] * ul[k] }
			m = s / p; sd = p > 1 ? sqrt((ss - p * m * m) / (p - 1)) : 0
			printf "among PASS runs: max bandwidth %.2f-%.2f GB/s (spread %.1f %% of the lower), unloaded latency %.1f ns, CV %.2f %%\n", lo, hi, 100 * (hi - lo) / lo, m, 100 * sd / m
		}
		printf "loaded runs WARN or INVALID with a named cause: %d of %d\n", named, l
	}' "$out/table.txt"
echo "trust-bench: runs in $out"
