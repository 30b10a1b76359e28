#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# `mess curves --device gpu:N` on a machine without a GPU (issue 45): the
# command says in one line that there is no driver and exits 3, writing
# nothing; bad --device and --gpu-timer values exit 1 in one line naming
# the option, the value and what is allowed; the PTX's static check
# passes, and fails on each of a set of broken copies (so that it checks
# something).  With FAKECUDA (a directory holding the tests' fake
# libcuda.so.1) the backend's host side also runs end to end on it.
#   tests/gpu.sh MESS [FAKECUDA]
set -u
mess=$(realpath "$1")
fake=${2:+$(realpath "$2")}
root=$(pwd)
out=$(mktemp -d /tmp/mess-gpu.XXXXXX)
trap 'rm -rf "$out"' EXIT
pass=0 fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*"; }
check() { if eval "$2"; then ok; else bad "$1"; fi; }

# 1. No driver: exit 3, one line naming why, no directory.  An empty
# library path so that a driver installed here is not found.
mkdir "$out/cwd"
(cd "$out/cwd" && LD_LIBRARY_PATH= "$mess" curves --device gpu:0 --quick >"$out/stdout" 2>"$out/err")
rc=$?
if [ -e /dev/nvidiactl ] || ldconfig -p 2>/dev/null | grep -q 'libcuda\.so\.1 '; then
	echo "SKIPPED no-driver case: this machine has an NVIDIA driver"
else
	check "no driver: exit 3 (got $rc)" '[ $rc -eq 3 ]'
	check "no driver: one line on stderr ($(wc -l <"$out/err"))" '[ "$(wc -l <"$out/err")" -eq 1 ]'
	check "no driver: the line names --device and libcuda.so.1: $(cat "$out/err")" \
		'grep -q "^mess: --device gpu:0: not supported here: libcuda.so.1 not found" "$out/err"'
	check "no driver: nothing on stdout" '[ ! -s "$out/stdout" ]'
	check "no driver: no directory written ($(ls -A "$out/cwd"))" '[ -z "$(ls -A "$out/cwd")" ]'
fi

# 2. Bad input: exit 1, one line naming the option, the value, what is allowed.
bad_case() {	# want_regex args...
	local want=$1
	shift
	(cd "$out/cwd" && "$mess" curves "$@" >"$out/stdout" 2>"$out/err")
	local rc=$?
	check "$*: exit 1 (got $rc)" '[ $rc -eq 1 ]'
	check "$*: one line ($(wc -l <"$out/err"))" '[ "$(wc -l <"$out/err")" -eq 1 ]'
	check "$*: the line says '$want': $(cat "$out/err")" 'grep -q -- "$want" "$out/err"'
	check "$*: nothing written" '[ -z "$(ls -A "$out/cwd")" ] && [ ! -s "$out/stdout" ]'
}
bad_case "^mess: --device: 'gpu:x' is not allowed; allowed: gpu:N" --device gpu:x
bad_case "^mess: --device: 'tpu:0' is not allowed; allowed: gpu:N" --device tpu:0
bad_case "^mess: --device: 'gpu:64' is not allowed; allowed: gpu:N, N a GPU's ordinal 0..63" --device gpu:64
bad_case "^mess: --device: 'gpu:' is not allowed" --device gpu:
bad_case "^mess: --gpu-timer: 'tsc' is not allowed; allowed: globaltimer or clock64" --device gpu:0 --gpu-timer tsc
bad_case "^mess: --gpu-timer: only with --device gpu:N" --gpu-timer clock64
bad_case "^mess: --cores: not with --device gpu:0" --device gpu:0 --cores 1
bad_case "^mess: --device: 'gpu:0' with --replay" --device gpu:0 --replay /nonexistent
check "--help names --device and --gpu-timer" \
	'"$mess" curves --help | grep -q -- "--device gpu:N" && "$mess" curves --help | grep -q -- "--gpu-timer"'

# 3. The PTX's static check: passes on the tree, fails on each broken copy.
check "tests/gpu-ptx.py passes: $(python3 tests/gpu-ptx.py "$root" 2>&1 | tail -1)" \
	'python3 tests/gpu-ptx.py "$root" >/dev/null'
broken() {	# what file sed-expression
	rm -rf "$out/tree"
	mkdir -p "$out/tree/kernels/ptx" "$out/tree/kernels/include" "$out/tree/harness/curves/gpu"
	cp kernels/ptx/*.ptx kernels/ptx/embed.S "$out/tree/kernels/ptx/"
	cp kernels/include/mess_ptx.h kernels/include/mess_kernels.h "$out/tree/kernels/include/"
	cp harness/curves/gpu/run.c harness/curves/gpu/gpu.c "$out/tree/harness/curves/gpu/"
	sed -i "$3" "$out/tree/$2"
	check "gpu-ptx.py fails on a copy where $1" \
		'! cmp -s "$out/tree/$2" "$2" && ! python3 tests/gpu-ptx.py "$out/tree" >/dev/null'
}
broken "one slot's store is 8 bytes, not the declared 16" kernels/ptx/gen.ptx '0,/st.global.v4.u32\t\[%a\], {%w, %x, %op, %tx}/s//st.global.v2.u32\t[%a], {%w, %x}/'
broken "one slot's load is 8 bytes" kernels/ptx/gen.ptx '0,/ld.global.v4.u32\t{%v4, %v5, %v6, %v7}/s//ld.global.v2.u32\t{%v4, %v5}/'
broken "one slot's store is not predicated" kernels/ptx/gen.ptx '0,/@%pst st.global/s//st.global/'
broken "a slot is missing" kernels/ptx/gen.ptx '/\/\/ slot 3/,/add.u64\t\t%off, %off, %stride;/d'
broken "the loop runs 50 operations" kernels/ptx/gen.ptx 's/setp.lt.u32\t%q, %op, 100;/setp.lt.u32\t%q, %op, 50;/'
broken "the declared load is 32 bytes" kernels/include/mess_ptx.h 's/MESS_PTX_GEN_LD_BYTES 16/MESS_PTX_GEN_LD_BYTES 32/'
broken "the store rule's threshold is 99" kernels/ptx/gen.ptx 's/%acc, %acc, 100;/%acc, %acc, 99;/g'
broken "a pass counts 8 operations" kernels/ptx/gen.ptx 's/add.u32\t\t%op, %op, 4;/add.u32\t\t%op, %op, 8;/'
broken "the generator's spin is a u64" kernels/ptx/gen.ptx 's/.param .u32 mess_gen_spin/.param .u64 mess_gen_spin/'
broken "the host passes the spin as a u64" harness/curves/gpu/run.c 's/uint32_t s = g->store_pct, spin/uint64_t s = g->store_pct, spin/'
broken "the host passes one argument fewer" harness/curves/gpu/run.c 's/&stop, &count };/\&stop };/'
broken "the clock64 chase is renamed" kernels/ptx/chase.ptx 's/mess_chase_clk(/mess_chase_cycles(/'
broken "the chase loads 4 bytes" kernels/ptx/chase.ptx '0,/ld.global.cg.u64\t%p, \[%p\]/s//ld.global.cg.u32\t%p, [%p]/'
broken "the target is sm_90" kernels/ptx/gen.ptx 's/^.target sm_80/.target sm_90/'
broken "embed.S leaves gen.ptx out" kernels/ptx/embed.S 's|.incbin\t"kernels/ptx/gen.ptx"||'

# 4. The fake driver (tests/gpu/fakecuda.c): the host side end to end.
if [ -n "$fake" ]; then
	. "$root/tests/gpu-fake.sh"
fi

echo "gpu: $pass passed, $fail failed"
[ $fail -eq 0 ]
