#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# usage: tests/nodes.sh MESS
#
# mess nodes and --mem-node KIND against the hwloc XML fixtures of
# tests/fixtures/topo/ (HWLOC_XMLFILE: rows that need an environment, which
# tests/cli/cases.txt cannot give), --json read back by jq, and one real
# ladder whose meta.json must say how its node was chosen.  Nothing is bound
# to a fixture's node: the fixtures are not this machine.  Run from the
# repository root (make check-cli).
set -u
mess=$1
fx=tests/fixtures/topo
pass=0 fail=0
tmp=$(mktemp -d /tmp/mess-nodes.XXXXXX)
trap 'rm -rf "$tmp"' EXIT

# check WHAT FIXTURE|- EXIT TEXT ARGS...: exit status and text in the output.
# The time limit only stops a hang: the ladder below measures, and beside
# make check's other suites it took over 60 s at a load of 10.
check() {
	local what=$1 fixture=$2 want=$3 text=$4 out got
	shift 4
	if [ "$fixture" = - ]; then
		out=$(timeout 300 "$mess" "$@" 2>&1 </dev/null)
	else
		out=$(HWLOC_XMLFILE=$fx/$fixture HWLOC_THISSYSTEM=0 timeout 300 "$mess" "$@" 2>&1 </dev/null)
	fi
	got=$?
	if [ "$got" = "$want" ] && grep -qF -- "$text" <<<"$out"; then
		pass=$((pass + 1))
	else
		fail=$((fail + 1))
		echo "FAIL: $what: mess $*: exit $got (want $want), output:"
		echo "$out" | head -5 | sed 's/^/    /'
		echo "    wanted text: $text"
	fi
}

# jqcheck WHAT FIXTURE|- FILTER: mess nodes --json satisfies the jq filter.
jqcheck() {
	local what=$1 fixture=$2 filter=$3
	if [ "$fixture" = - ]; then
		"$mess" nodes --json >"$tmp/j" 2>&1
	else
		HWLOC_XMLFILE=$fx/$fixture HWLOC_THISSYSTEM=0 "$mess" nodes --json >"$tmp/j" 2>&1
	fi
	if jq -e "$filter" "$tmp/j" >/dev/null 2>&1; then
		pass=$((pass + 1))
	else
		fail=$((fail + 1))
		echo "FAIL: $what: jq -e '$filter' on mess nodes --json:"
		head -5 "$tmp/j" | sed 's/^/    /'
	fi
}

x=xeon-max-flat.xml c=cxl-expander.xml
check "table" $x 0 "hbm" nodes
check "HMAT figures" $x 0 "408.9 GB/s; 130 ns (from cores 0-1)" nodes
check "MemoryTier" $x 0 "tier: hwloc's MemoryTier" nodes
check "no subtype" $c 0 "dram (no subtype: assumed)" nodes
check "read latency only" $c 0 "read 31.5 GB/s; read 250 ns (from cores 0-1)" nodes
check "no figures" $c 0 "not given by firmware" nodes
check "unknown subtype" $c 0 "unknown (GPUMemory)" nodes
check "capacity not given" $c 0 "unknown " nodes
check "kind absent (ladder)" $c 3 "--mem-node hbm: no HBM node on this machine (nodes: 0 dram, 1 dram, 2 cxl, 3 cxl, 4 nvm, 5 nvm, 6 unknown)" ladder --mem-node hbm
check "kind absent (curves)" $x 3 "--mem-node nvm: no NVM node on this machine (nodes: 0 dram, 1 dram, 2 hbm, 3 hbm)" --mem-node nvm
check "node out of range" $x 1 "--mem-node: node 4 out of range; allowed: a node number 0-3 (the nodes of this machine) or a kind: dram, hbm, cxl, nvm, spm" ladder --mem-node 4
check "bad kind" $c 1 "--mem-node: 'HBM' is not allowed; allowed: a node number 0-6" ladder --mem-node HBM

jqcheck "JSON" $x '.nodes | length == 4'
jqcheck "JSON kinds" $x '[.nodes[].kind] == ["dram", "dram", "hbm", "hbm"]'
jqcheck "JSON HMAT" $x '.nodes[2] | .firmware.bandwidth_mibs == 390000 and .firmware.latency_ns == 130 and .firmware.initiator_cores == "0-1" and .memory_tier == 0 and .package == 0 and .capacity_bytes == 68719476736'
jqcheck "JSON unknowns are null" $c '.nodes[0].firmware | .latency_ns == null and .bandwidth_mibs == null and .initiator_cores == null'
jqcheck "JSON machine-wide node" $c '.nodes[2] | .package == null and .cores == "0-3" and .kind == "cxl" and .subtype == "CXL-DRAM" and .firmware.read_latency_ns == 250'
jqcheck "JSON assumed" $c '.nodes[0].kind_from == "no subtype: assumed" and .nodes[5].capacity_bytes == null and .nodes[6].kind == "unknown"'

# Two HBM nodes both remote from core 0, equal in hwloc's figures (each
# node's nearest initiators only), apart in the ACPI HMAT of the tree that
# belongs to the fixture (MESS_FIRMWARE_ROOT): 190 ns to node 2, 135 ns to
# node 3.  --mem-node hbm and interfere's default other node take node 3,
# by the table's figure, and meta.json says so; without the table, the
# OS index (node 2).  interfere with no aggressor binds nothing to them.
r=hbm-remote-pair.xml
tests/fixtures/acpi/hbm-remote-pair.py "$tmp/fw"
# fwcheck WHAT FIRMWARE_ROOT ARGS -- FILTER: interfere's meta.json.
fwcheck() {
	local what=$1 root=$2 args=() filter
	shift 2
	while [ "$1" != -- ]; do args+=("$1"); shift; done
	filter=$2
	rm -rf "$tmp/fwrun"
	HWLOC_XMLFILE=$fx/$r HWLOC_THISSYSTEM=0 MESS_FIRMWARE_ROOT=$root timeout 60 "$mess" interfere \
		--quick --aggressors 0 --mixes 0 --no-plots --placement other-node "${args[@]}" \
		--out "$tmp/fwrun" >"$tmp/fwrun.out" 2>&1
	if jq -e "$filter" "$tmp/fwrun/meta.json" >/dev/null 2>&1; then
		pass=$((pass + 1))
	else
		fail=$((fail + 1))
		echo "FAIL: $what: jq -e '$filter' on interfere's meta.json:"
		jq -c '.memory_node_choice | {node, rule, decided_by, compared}' "$tmp/fwrun/meta.json" 2>&1 | sed 's/^/    /'
		tail -3 "$tmp/fwrun.out" | sed 's/^/    /'
	fi
}
fwcheck "--mem-node hbm: the remote pair told apart by the ACPI HMAT" "$tmp/fw" --mem-node hbm -- \
	'.memory_node_choice | .node == 3 and .decided_by == "ACPI HMAT latency" and
	 .compared == [{"node": 3, "latency_ns": 135, "source": "ACPI HMAT"}, {"node": 2, "latency_ns": 190, "source": "ACPI HMAT"}] and
	 (.rule | startswith("latency: the ACPI HMAT'"'"'s lowest from core 0'"'"'s node 0 among 2 remote hbm nodes (135 ns vs 190 ns)"))'
fwcheck "interfere's default other node: the remote pair told apart by the ACPI HMAT" "$tmp/fw" -- \
	'.aggressor_node == 3 and (.aggressor_node_rule | test("ACPI HMAT.s lowest .*135 ns vs 190 ns")) and
	 (.memory_node_choice | .given == null and .node == 3 and .decided_by == "ACPI HMAT latency")'
fwcheck "--mem-node hbm without the table: the OS index" "" --mem-node hbm -- \
	'.memory_node_choice | .node == 2 and .decided_by == "OS index" and (.rule | startswith("lowest OS index"))'

# This machine: the JSON is JSON; a kind it lacks is exit 3; a real
# (tiny) ladder on the kind of node 0 records the choice.
jqcheck "JSON here" - '.nodes | length >= 1'
kind=$("$mess" nodes --json | jq -r '.nodes[0].kind')
node=$("$mess" nodes --json | jq -r '.nodes[0].node')
for k in hbm cxl nvm spm; do
	if ! "$mess" nodes --json | jq -e --arg k $k 'any(.nodes[]; .kind == $k)' >/dev/null; then
		check "no $k here" - 3 "--mem-node $k: no ${k^^} node on this machine" ladder --mem-node $k
	fi
done
if [ "$kind" = unknown ]; then
	echo "SKIPPED the ladder by kind: node $node is of a kind mess does not know"
else
	check "ladder by kind" - 0 "--mem-node $kind: node" \
		ladder --quick --no-plots --core 0 --mem-node "$kind" --out "$tmp/ladder"
	if jq -e --arg k "$kind" '.memory_node_choice | .given == $k and (.kind | startswith($k)) and (.rule | length > 0) and .node == (.node | floor)' \
		"$tmp/ladder/meta.json" >/dev/null 2>&1 &&
		jq -e '.memory_node == .memory_node_choice.node' "$tmp/ladder/meta.json" >/dev/null; then
		pass=$((pass + 1))
	else
		fail=$((fail + 1))
		echo "FAIL: meta.json of ladder --mem-node $kind lacks memory_node_choice:"
		jq .memory_node_choice "$tmp/ladder/meta.json" 2>&1 | sed 's/^/    /'
	fi
fi

# --mem-node each: one complete family per kind `mess nodes` lists, named
# <kind>-node<N>; run again, the complete ones are kept, not re-measured.
kinds=$("$mess" nodes --json | jq -r '[.nodes[].kind | select(. != "unknown")] | unique | .[]')
"$mess" --mem-node each --quick --no-plots --buffer 32M --gen-bytes 8M --chase-ms 5 \
	--out "$tmp/each" >/dev/null 2>"$tmp/each.err"
rc=$?
nk=$(echo "$kinds" | grep -c .)
nd=$(ls -d "$tmp"/each/*-node* 2>/dev/null | wc -l)
if [ $rc -eq 0 ] && [ "$nd" -eq "$nk" ] &&
	for k in $kinds; do jq -e '.complete' "$tmp"/each/$k-node*/meta.json >/dev/null || exit 1; done &&
	{ [ "$nk" -lt 2 ] || jq -e '.' "$tmp/each/compare/compare.json" >/dev/null; }; then
	pass=$((pass + 1))
else
	fail=$((fail + 1))
	echo "FAIL: --mem-node each: exit $rc, $nd families for kinds: $kinds"
	sed 's/^/    /' "$tmp/each.err" | tail -5
fi
if "$mess" --mem-node each --quick --no-plots --out "$tmp/each" 2>&1 | grep -q "complete, kept"; then
	pass=$((pass + 1))
else
	fail=$((fail + 1))
	echo "FAIL: --mem-node each run again did not keep its complete families"
fi

echo "nodes: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
