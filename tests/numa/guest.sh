#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# usage (in the guest, from tests/numa/init): guest.sh REPO OUT TOPO
#
# Topology A: the soft-reserved ranges and the pmem onlined as system RAM
# with daxctl (ndctl first turns the pmem namespace into a DAX device);
# then every step: its stdout, stderr and exit status in OUT/NAME.{out,err,rc}
# for tests/numa/expect.sh to check on the host.  OUT/done when finished.
set -u
repo=$1 out=$2 topo=$3
cd "$repo" || exit 1
mess=$repo/build/x86_64/mess
exec >"$out/guest.log" 2>&1
export TMPDIR=/tmp
echo "topology $topo"

# step NAME CMD...: run, keep its outputs.
step() {
	local name=$1
	shift
	echo "== $name: $*"
	"$@" >"$out/$name.out" 2>"$out/$name.err"
	echo $? >"$out/$name.rc"
	echo "   exit $(cat "$out/$name.rc")"
}

if [ "$topo" = A ]; then
	ns=$(ndctl list -N | jq -r '.[0].dev')
	ndctl create-namespace -f -e "$ns" -m devdax
	daxctl reconfigure-device --mode=system-ram all
fi
numactl -H
step nodes "$mess" nodes
step nodes-json "$mess" nodes --json
touch "$out/done"
