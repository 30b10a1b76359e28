#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# usage: tests/numa/check.sh MESS   (make check-numa)
#
# The multi-node paths on a real kernel: an emulated 2-socket, 5-node
# machine (tests/numa/boot.sh: QEMU, TCG) boots twice, topology A (HBM and
# NVM from DAX devices, as hwloc labels them) and B (HBM only in the HMAT),
# then a 4-socket machine with SMT and an HMAT line for every pair,
# topology C (mess matrix and c2c); each runs tests/numa/guest.sh, and the
# outputs it left in the 9p share are checked here.
# MESS_NUMA_TOPOS (default "A B C") boots only those.  The emulated machine's figures mean nothing: placement,
# files, messages and exit codes are checked, never timing.
# Where QEMU or the guest kernel cannot be had: "SKIPPED: <reason>", exit 0
# (and a line in $SKIPPED_FILE), never "passed".
set -u
mess=$1
cache=build/numa
pass=0 fail=0
skip() {
	echo "SKIPPED check-numa: $*"
	[ -z "${SKIPPED_FILE:-}" ] || echo "check-numa: $*" >>"$SKIPPED_FILE"
	exit 0
}
command -v qemu-system-x86_64 >/dev/null || skip "no qemu-system-x86_64 (apt-get install qemu-system-x86)"
[ "$(uname -m)" = x86_64 ] || skip "the guest is x86_64 and this is $(uname -m)"
for t in numactl daxctl ndctl jq; do
	command -v $t >/dev/null || skip "no $t (tools/deps.sh check)"
done
msg=$(tests/numa/image.sh "$cache") || skip "${msg:+${msg#SKIPPED: }}${msg:-cannot build the guest image (tests/numa/image.sh)}"

ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*"; }
# expect WHAT COND...: the condition (a command) holds.
expect() {
	local what=$1
	shift
	if "$@" >/dev/null 2>&1; then ok; else bad "$what"; fi
}

t_all=$(date +%s)
for topo in ${MESS_NUMA_TOPOS:-A B C}; do
	out=$cache/out-$topo
	rm -rf "$out"
	mkdir -p "$out"
	t0=$(date +%s)
	tests/numa/boot.sh "$cache" "$topo" "$out" "$mess" >"$out/qemu.log" 2>&1
	rc=$?
	echo "check-numa: topology $topo: guest ran $(($(date +%s) - t0)) s (QEMU exit $rc)"
	if [ ! -f "$out/done" ]; then
		grep -q 'Could not access KVM\|failed to initialize' "$out/qemu.log" &&
			skip "QEMU cannot start here: $(head -1 "$out/qemu.log")"
		bad "topology $topo: the guest did not finish (console: $out/console.log, log: $out/guest.log)"
		tail -5 "$out/console.log" "$out/qemu.log" 2>/dev/null | sed 's/^/    /'
		continue
	fi
	# shellcheck source=tests/numa/expect.sh
	. tests/numa/expect.sh "$topo" "$out"
done
echo "check-numa: $pass passed, $fail failed ($(($(date +%s) - t_all)) s)"
[ "$fail" = 0 ]
