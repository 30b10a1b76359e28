# SPDX-License-Identifier: MIT
# Sourced by tests/numa/check.sh for each topology ($1) with the guest's
# outputs in $2: what each step of tests/numa/guest.sh must have left.
topo=$1 o=$2
# rc NAME: the exit status step NAME had.
rc() { cat "$o/$1.rc" 2>/dev/null; }
# has NAME TEXT: step NAME's stdout or stderr holds TEXT.
has() { grep -qF -- "$2" "$o/$1.out" "$o/$1.err"; }
# jqo FILE FILTER
jqo() { jq -e "$2" "$1"; }

expect "$topo: mess nodes exits 0" test "$(rc nodes)" = 0
expect "$topo: mess nodes --json: 5 nodes" jqo "$o/nodes-json.out" '.nodes | length == 5'
expect "$topo: mess nodes: packages 0 1 0 1 0" jqo "$o/nodes-json.out" '[.nodes[].package] == [0,1,0,1,0]'
expect "$topo: mess nodes: cores of nodes 0 and 1" jqo "$o/nodes-json.out" '[.nodes[0,1].cores] == ["0-1","2-3"]'
expect "$topo: mess nodes: HMAT latency from the nearest cores" jqo "$o/nodes-json.out" '[.nodes[].firmware.latency_ns] == [100,100,120,120,300]'
if [ "$topo" = A ]; then
	expect "A: kinds dram dram hbm hbm nvm" jqo "$o/nodes-json.out" '[.nodes[].kind] == ["dram","dram","hbm","hbm","nvm"]'
	expect "A: capacity of the HBM node" jqo "$o/nodes-json.out" '.nodes[2].capacity_bytes == 268435456'
fi
