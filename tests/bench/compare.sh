#!/usr/bin/env bash
# Same-session peer figures for the closing notes: run on an idle machine.
# Pins to core 1 (a generator core in ./run.sh), or core 0 on 1-core hosts.
set -u
cmp=$1
core=1; [ "$(nproc)" -lt 2 ] && core=0
pin="taskset -c $core"
llc=$(getconf LEVEL3_CACHE_SIZE 2>/dev/null || echo 0); [ "$llc" -gt 0 ] || llc=$((32 << 20))
gb=$((1 << 30))
echo "== unloaded latency: asm chase vs plain C chase, 1 GiB"
$pin "$cmp" chase $gb 262144 256 1
$pin "$cmp" chase $gb 262144 256 0
$pin "$cmp" chase $gb 0 256 1
$pin "$cmp" chase $gb 0 256 0
$pin "$cmp" chase $gb 262144 64 1
# likwid-bench's S0 workgroup runs on the first CPU of socket 0: use the
# same CPU and the same 1 GiB array so the two differ only in the kernel.
echo "== CPU 0, 100% loads, full pressure, 1 GiB"
pin0="taskset -c 0"
for i in 1 2 3; do
	$pin0 "$cmp" gen wide 0 $gb
	$pin0 "$cmp" gen vec 0 $gb
	if command -v likwid-bench >/dev/null; then
		likwid-bench -t load_avx -w S0:1GB:1 2>/dev/null | awk '/MByte\/s/ {printf "likwid-bench load_avx: %.2f GB/s\n", $2 / 1000}'
	fi
	$pin0 "$cmp" copy $((gb / 2))
done
