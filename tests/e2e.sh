#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# A tiny end-to-end sweep of one ISA's harness, under qemu-user for a
# foreign ISA: the figures mean nothing there, but every result file must be
# complete and well formed, and meta.json must name the ISA and the variant
# the run-time selection chose.
#   tests/e2e.sh EMULATOR MESS OUTDIR      (EMULATOR "" runs natively)
set -u
. "$(dirname "$0")/run-contract.sh"
emu=$1 mess=$2 out=$3
pass=0 fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*"; }
check() { if eval "$2"; then ok; else bad "$1"; fi; }

isa=$($emu "$mess" --list 2>/dev/null | sed -n "s/^ISA \([^ ,]*\),.*/\1/p" | head -n1)
rm -rf "$out"
mkdir -p "$(dirname "$out")"
start=$(date +%s)
# Small buffers (below 4x LLC on purpose: the harness warns) and a capped
# nop range keep the emulated run to about a minute.
timeout 600 $emu "$mess" --quick --mixes 0,100 --points 3 --buffer 16M \
	--gen-bytes 8M --chase-ms 10 --max-nop 4096 --out "$out" \
	>"$out.stdout" 2>"$out.stderr"
rc=$?
echo "e2e: ${emu:-native}${QEMU_CPU:+ (cpu $QEMU_CPU)} $mess took $(($(date +%s) - start)) s, exit $rc"
check "exit status 0" '[ $rc -eq 0 ]' || tail -20 "$out.stderr"
check_run_dir "$out" "0 100" 3
check "--list names an ISA" '[ -n "$isa" ]'
check "meta.json isa is $isa" 'jq -e --arg i "$isa" ".isa == \$i" "$out/meta.json" >/dev/null'
check "meta.json names the generator variant" 'jq -e ".generator.variant | length > 0" "$out/meta.json" >/dev/null'
# The default must be the first variant this CPU can run, in registry
# order (widest first): the run-time feature check at work.
check "default variant is the widest available" \
	'jq -e "(.variant_selection.variants | to_entries | map(select(.value == \"available\")) | .[0].key) == .generator.variant" "$out/meta.json" >/dev/null'
# mess absorb, smallest: the latency ladder runs on every ISA (it needs no
# noise), the lat_mem_rd row only where noise sites exist.
ab=$out-absorb
rm -rf "$ab"
timeout 300 $emu "$mess" absorb --quick --kernels lat_mem_rd --modes l1_ld64 \
	--kmax 4 --repeats 1 --run-ms 2 --no-plots --out "$ab" \
	>"$ab.stdout" 2>"$ab.stderr"
rc=$?
check "absorb exit status 0" '[ $rc -eq 0 ]' || tail -5 "$ab.stderr"
check "absorb: ladder.csv from 4 KiB, >= 12 sizes" \
	'[ "$(sed -n 2p "$ab/ladder.csv" | cut -d, -f1)" = 4096 ] && [ "$(tail -n +2 "$ab/ladder.csv" | wc -l)" -ge 12 ]'
check "absorb: summary.json levels, memory last" \
	'jq -e ".latency_ladder.levels[-1].level == \"memory\"" "$ab/summary.json" >/dev/null'
if grep -q "noise modes not implemented on this ISA" "$ab.stderr"; then
	check "absorb: no noise here, so no absorption rows" '[ "$(wc -l <"$ab/absorption.csv")" -eq 1 ]'
	check "absorb: meta.json says why the mode did not run" \
		'jq -e ".not_run | any(.mode == \"l1_ld64\" and (.why | test(\"not implemented\")))" "$ab/meta.json" >/dev/null'
else
	check "absorb: one absorption row" '[ "$(wc -l <"$ab/absorption.csv")" -eq 2 ]'
fi
echo "e2e ($isa, $(jq -r .generator.variant "$out/meta.json" 2>/dev/null)): $pass passed, $fail failed"
[ "$fail" -eq 0 ]
