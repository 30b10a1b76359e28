#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The GPU machine's few minutes (issue 45), one command from the
# repository root with $OUT to fill (the device tool brings it back):
#   OUT=... tools/device-check.sh [BUDGET_S]
# Builds (make -j16), records the driver (nvidia-smi -q and versions),
# then the GPU runs first (mess curves --device gpu:0 --quick, the default
# family, the clock64 chase), then this host's CPU checks on its cores
# (curves --quick, curves default, matrix, interfere with 15 aggressors),
# each under `timeout` and in its own directory under $OUT, and
# summary.txt: one line a step, its exit status and seconds.  A step
# that would pass the budget (default 470 s, under the 8 minutes it is
# given) is skipped and said so; a missing tool is named, never fatal:
# on a machine without a GPU the GPU steps exit 3 and the script goes on.
#
#   tools/device-check.sh --stage
# run here, beforehand, puts this build's mess, its data and the shared
# libraries it needs beyond glibc (hwloc, numa, pfm, jansson, udev) into
# build/device/ (a few MiB), for the device tool to carry: where the GPU
# machine cannot build (no compiler or -dev package), that copy runs.
set -u
if [ "${1:-}" = --stage ]; then
	m=$(make -s print-mess) && [ -x "$m" ] || { echo "no built mess: make first" >&2; exit 2; }
	rm -rf build/device && mkdir -p build/device/lib build/device/share || exit 2
	cp "$m" build/device/mess && cp -r "$(dirname "$m")/share/mess" build/device/share/ || exit 2
	ldd "$m" | awk '$3 ~ /^\// { print $3 }' | grep -vE '/(libc|libm|libpthread|libdl|librt|ld-linux[^/]*)\.so' |
		while read -r l; do cp -L "$l" build/device/lib/; done
	echo "build/device: $(ls build/device/lib | tr '\n' ' ')($(du -sh build/device | cut -f1))"
	exit 0
fi
budget=${1:-470}
OUT=${OUT:?set OUT to the directory to fill}
mkdir -p "$OUT"
sum=$OUT/summary.txt
log=$OUT/steps.log
: >"$sum"
: >"$log"
t_start=$(date +%s)
say() { echo "$*" | tee -a "$sum"; }
left() { echo $((budget - ($(date +%s) - t_start))); }

# step NAME CAP_S CMD...: run under timeout min(CAP_S, what is left - 5 s),
# its output in $OUT/NAME.log, its line in summary.txt.
step() {
	local name=$1 cap=$2 l t0 rc
	shift 2
	l=$(($(left) - 5))
	[ "$cap" -lt "$l" ] && l=$cap
	if [ "$l" -lt 10 ]; then
		say "$name: SKIPPED (budget: $(left) s left)"
		return 0
	fi
	t0=$(date +%s.%N)
	echo "== $name: $* (timeout $l s)" >>"$log"
	timeout --kill-after=5 "$l" "$@" >"$OUT/$name.log" 2>&1
	rc=$?
	say "$(printf '%s: exit %d, %.1f s%s' "$name" $rc "$(echo "$(date +%s.%N) - $t0" | bc 2>/dev/null || echo 0)" \
		"$([ $rc -eq 124 ] || [ $rc -eq 137 ] && echo " (timed out at $l s)")")"
	tail -n 3 "$OUT/$name.log" >>"$log"
	return 0
}

say "device-check: $(date -u +%Y-%m-%dT%H:%M:%SZ) on $(hostname), $(nproc) CPUs, budget $budget s, git $(git rev-parse --short=12 HEAD 2>/dev/null || echo unknown)"
for t in make gcc gnuplot nvidia-smi bc timeout python3; do
	command -v $t >/dev/null || say "missing: $t"
done
for h in hwloc.h numa.h jansson.h perfmon/pfmlib.h; do
	[ -e /usr/include/$h ] || say "missing: /usr/include/$h (its -dev package)"
done

# The driver, before anything runs on it.
if command -v nvidia-smi >/dev/null; then
	nvidia-smi -q >"$OUT/nvidia-smi-q.txt" 2>&1
	nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm,clocks.max.mem,pci.bus_id --format=csv \
		>"$OUT/nvidia-smi-gpu.csv" 2>&1
	say "gpu: $(tail -n +2 "$OUT/nvidia-smi-gpu.csv" | head -1)"
else
	say "gpu: no nvidia-smi"
fi
cat /proc/driver/nvidia/version >"$OUT/nvidia-driver-version.txt" 2>&1 || true
ldconfig -p 2>/dev/null | grep -E 'libcuda\.so|libnvidia-ml\.so' >"$OUT/driver-libs.txt"
lscpu >"$OUT/lscpu.txt" 2>&1 || true

step build 240 make -j16
mess=./$(make -s print-mess 2>/dev/null || echo build/x86_64/mess)
if ! "$mess" --version >/dev/null 2>&1; then
	# The staged copy (--stage) and its libraries, where this machine
	# could not build or run its own.
	export LD_LIBRARY_PATH=$PWD/build/device/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
	mess=./build/device/mess
	if ! "$mess" --version >/dev/null 2>&1; then
		say "no mess runs here: neither the build (see build.log) nor build/device/ (tools/device-check.sh --stage, carried)"
		exit 2
	fi
fi
say "mess: $mess, $("$mess" --version)"

step gpu-quick 120 "$mess" curves --device gpu:0 --quick --out "$OUT/gpu-quick"
step gpu-clock64 90 "$mess" curves --device gpu:0 --quick --gpu-timer clock64 --out "$OUT/gpu-clock64"
step gpu-default 150 "$mess" curves --device gpu:0 --out "$OUT/gpu-default"
step cpu-quick 90 "$mess" curves --quick --out "$OUT/cpu-quick"
step cpu-matrix 45 "$mess" matrix --quick --out "$OUT/cpu-matrix"
# 15 aggressors where one socket offers them; else all it offers (exit 1:
# refused before anything was written, so the same directory).
step cpu-interfere 60 sh -c '"$0" interfere --quick --aggressors 15 --out "$1" ||
	{ [ $? -eq 1 ] && echo "15 aggressors refused: all the placement offers" &&
	  "$0" interfere --quick --aggressors all --out "$1"; }' "$mess" "$OUT/cpu-interfere"
step cpu-default 240 "$mess" curves --out "$OUT/cpu-default"

# The verdicts and figures, for a reader without the directories.
for d in "$OUT"/gpu-* "$OUT"/cpu-*; do
	v=$(grep -s -m1 -E 'Verdict|PASS|WARN|INVALID' "$d/summary.md" | cut -c1-200)
	[ -n "$v" ] && say "$(basename "$d"): $v"
done
say "device-check: done in $(($(date +%s) - t_start)) s"
