# SPDX-License-Identifier: MIT
# Sourced by tests/numa/check.sh for each topology ($1) with the guest's
# outputs in $2 (tests/numa/guest.sh): what each step must have left.
# Placement, files, messages and exit codes; never a timing.
topo=$1 o=$(cd "$2" && pwd) r=$(cd "$2" && pwd)/r
# rc NAME: the exit status step NAME had.
rc() { cat "$o/$1.rc" 2>/dev/null; }
# has NAME TEXT: step NAME's stdout or stderr holds TEXT.
has() { grep -qF -- "$2" "$o/$1.out" "$o/$1.err"; }
lacks() { ! grep -qF -- "$2" "$o/$1.out" "$o/$1.err"; }
jqo() { jq -e "$2" "$1"; }
# bound NAME N: while step NAME ran, a mess mapping was bound to node N
# with its pages there, and no bound mapping had pages on another node.
bound() {
	grep -q "bind:$2 .*N$2=" "$o/$1.numa_maps" &&
		! grep -E "bind:" "$o/$1.numa_maps" | grep -Evq "bind:$2( |\$)" &&
		! grep -E " N[0-9]+=" "$o/$1.numa_maps" | grep -Eq " N[^$2][0-9]*="
}
# own_nodes FILE: every bound mapping of a numa_maps watch has its pages
# on the node it is bound to, none elsewhere.
own_nodes() {
	awk '{ b = ""; for (i = 1; i <= NF; i++) if ($i ~ /^bind:/) b = substr($i, 6)
	       if (b == "") next
	       for (i = 1; i <= NF; i++) if ($i ~ /^N[0-9]+=/ && $i !~ "^N" b "=") bad++ }
	     END { exit bad > 0 }' "$1"
}
# share FILE N: node N's share (%) of the KiB on any node in a fullest
# snapshot of mappings with a policy (numa_maps, read by the guest's
# watch, never by mess).
share() {
	awk -v n="$2" '{ k = 4; for (i = 1; i <= NF; i++) if ($i ~ /^kernelpagesize_kB=/) k = substr($i, 19)
		for (i = 1; i <= NF; i++) if ($i ~ /^N[0-9]+=/) { split($i, a, "="); t += a[2] * k
			if (a[1] == "N" n) s += a[2] * k } }
		END { if (t > 0) printf "%.2f\n", 100 * s / t }' "$1"
}
# near A B: |A - B| <= 2 (percentage points).
near() { awk -v a="$1" -v b="$2" 'BEGIN { d = a - b; exit !(a != "" && d <= 2 && d >= -2) }'; }
# ok_step NAME: exit 0.
ok_step() { expect "$topo: $1 exits 0 (see $o/$1.err)" test "$(rc "$1")" = 0; }
# node_of DIR N KIND: meta.json says the memory was on node N, of KIND.
node_of() {
	expect "$topo: $1 meta.json memory on node $2 ($3)" \
		jqo "$r/$1/meta.json" ".memory_node == $2 and .memory_node_choice.node == $2 and (.memory_node_choice.kind | startswith(\"$3\"))"
}

ok_step nodes
j=$o/nodes-json.out
expect "$topo: mess nodes --json: 5 nodes" jqo "$j" '.nodes | length == 5'
expect "$topo: mess nodes: capacities" jqo "$j" '[.nodes[].capacity_bytes | . > 0] == [true,true,true,true,true]'
if [ "$topo" != C ]; then
	expect "$topo: mess nodes: packages 0 1 0 1 0" jqo "$j" '[.nodes[].package] == [0,1,0,1,0]'
	expect "$topo: mess nodes: cores of the sockets" jqo "$j" '[.nodes[].cores] == ["0-1","2-3","0-1","2-3","0-1"]'
	expect "$topo: mess nodes: HMAT latency from the nearest cores" jqo "$j" '[.nodes[].firmware.latency_ns] == [100,100,120,120,300]'
	expect "$topo: mess nodes: HMAT bandwidth" jqo "$j" '[.nodes[].firmware.bandwidth_mibs] == [20480,20480,81920,81920,4096]'
fi
# Defect 6: under TCG the kernel has no core PMU; say its reason.
expect "$topo: counters: the kernel's reason, not 'add a row'" has counters "PMU not available due to virtualization"
expect "$topo: counters: no 'add one'" lacks counters "add one"

if [ "$topo" = A ]; then
	expect "A: kinds dram dram hbm hbm nvm (hwloc, from the DAX devices)" jqo "$j" '[.nodes[].kind] == ["dram","dram","hbm","hbm","nvm"] and ([.nodes[].kind_from] | all(. == "subtype"))'
	expect "A: the HBM node's capacity: 512 MiB" jqo "$j" '.nodes[2].capacity_bytes == 536870912'
	expect "A: the table names hbm and nvm" grep -Eq '^4 +nvm ' "$o/nodes.out"

	# --mem-node N, and defect 1: the pool's hugetlb pages all on node 0.
	ok_step n2
	node_of n2 2 hbm
	expect "A: n2 bound to node 2 (numa_maps)" bound n2 2
	expect "A: n2 meta.json: why not hugetlb (defect 1)" jqo "$r/n2/meta.json" '.memory_node_choice.hugetlb | test("node 2 has 0 free 2 MiB hugetlb pages of the pool.s 80")'
	expect "A: n2 meta.json: the HMAT's figures from core 0" jqo "$r/n2/meta.json" '.memory_node_choice.firmware == {"latency_ns": 120, "bandwidth_gbs": 85.899, "source": "hwloc"}'
	expect "A: n2 says it on stderr" has n2 "warning: node 2 has 0 free 2 MiB hugetlb pages"
	expect "A: n2: the kernel's PMU reason (defect 6)" has n2 "PMU not available due to virtualization"
	expect "A: n2: no 'add one' (defect 6)" lacks n2 "add one"
	expect "A: n2 summary.md names node and kind (defect 7)" grep -q "^Memory: node 2, hbm (given by number" "$r/n2/summary.md"
	ok_step ladder-n2
	expect "A: ladder-n2 bound to node 2" bound ladder-n2 2
	expect "A: ladder-n2 meta.json: why not hugetlb" jqo "$r/ladder-n2/meta.json" '.memory_node == 2 and (.memory_node_choice.hugetlb | test("node 2 has 0 free"))'

	ok_step ladder-n0
	expect "A: ladder-n0: hugetlb pages from node 0's pool" jqo "$r/ladder-n0/meta.json" '.memory_node == 0 and .huge_pages == "hugetlb" and .memory_node_choice.hugetlb == null'
	expect "A: ladder-n0 bound to node 0, huge pages" grep -q "bind:0 .*huge .*N0=.*kernelpagesize_kB=2048" "$o/ladder-n0.numa_maps"

	# --mem-node KIND from a core on socket 1, generators on both.
	ok_step hbm-s1
	node_of hbm-s1 3 hbm
	expect "A: hbm-s1 bound to node 3" bound hbm-s1 3
	expect "A: hbm-s1 rule: locality from core 2" jqo "$r/hbm-s1/meta.json" '.memory_node_choice.rule | test("locality: the hbm node whose cpuset holds core 2")'
	expect "A: --cores all: generators 0,1,3, packages 1 and 0 loaded" jqo "$r/hbm-s1/meta.json" '.cores.generators == [0,1,3] and (.counters.packages_loaded | sort) == [0,1]'
	# Fairness with three generator cores (issue 25): each loaded point
	# gives the cores' shares and Jain's index, 1/3 <= J <= 1 (values of
	# TCG mean nothing; that they are there and consistent does; the file
	# gives 4 decimals, hence the 1e-4).
	# A window in which no generator moved (TCG on a loaded host starves
	# the guest's vCPUs for whole windows: 4 of 9 points once) has no
	# shares to compare, and says so with an empty field, never a 0.
	expect "A: --cores all: fairness on loaded points, min <= median <= max, 1/3 <= Jain <= 1" \
		awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
			 $c["nop"] != "" { j = $c["fair_jain"]; if (j == "") { if ($c["fair_min"] != "") bad++; next }
			   n++; if (j < 1/3 - 1e-4 || j > 1 + 1e-4 ||
			   $c["fair_min"] > $c["fair_median"] || $c["fair_median"] > $c["fair_max"]) bad++ }
			 END { exit !(n > 0 && !bad) }' "$r/hbm-s1/curves.csv"
	expect "A: latency_hist.csv written" test -s "$r/hbm-s1/latency_hist.csv"
	# The default: the chase core's node and package.
	ok_step default
	node_of default 0 dram
	expect "A: default generators: the chase core's package" jqo "$r/default/meta.json" '.cores.generators == [1] and .counters.packages_loaded == [0]'
	expect "A: default bound to node 0" bound default 0

	# Issue 36 item 4: remote said (stderr, meta.json), and the CPU-less
	# node's package among those loaded (hwloc's parent of the node).
	ok_step remote
	node_of remote 2 hbm
	expect "A: remote bound to node 2" bound remote 2
	expect "A: remote: stderr says node 2 is remote from core 2" has remote "warning: --mem-node 2: node 2 (hbm) is remote from chase core 2"
	expect "A: remote: stderr names the local hbm node 3" has remote "node 3 is the hbm node local to it"
	expect "A: remote: meta.json names the local hbm node" jqo "$r/remote/meta.json" '.memory_node_choice.remote.local_node_of_kind == 3'
	# hwloc keeps each node's nearest initiators only: the remote pair's
	# HMAT figures (boot.sh: 1 -> 2, 200 ns, 10 GiB/s) come from the table.
	expect "A: remote: meta.json the HMAT's figures for the remote pair, from the ACPI table" jqo "$r/remote/meta.json" '.memory_node_choice.firmware == {"latency_ns": 200, "bandwidth_gbs": 10.737, "source": "acpi_table"}'
	expect "A: remote: packages 1 (cores) and 0 (the CPU-less node's) loaded" jqo "$r/remote/meta.json" '.cores.generators == [3] and (.counters.packages_loaded | sort) == [0,1]'
	expect "A: n2 (local to core 0): no remote line" lacks n2 "is remote from"
	expect "A: n2 meta.json: no remote record" jqo "$r/n2/meta.json" '.memory_node_choice.remote == null'
	ok_step ladder-hbm
	node_of ladder-hbm 2 hbm
	expect "A: ladder-hbm bound to node 2" bound ladder-hbm 2
	expect "A: ladder.md names node and kind (defect 7)" grep -q "^Memory: node 2, hbm (locality" "$r/ladder-hbm/ladder.md"
	ok_step ladder-nvm
	node_of ladder-nvm 4 nvm
	expect "A: ladder-nvm bound to node 4" bound ladder-nvm 4
	expect "A: ladder-nvm: remote from core 2, no local nvm node" has ladder-nvm "no nvm node is local to it"
	expect "A: ladder-nvm meta.json: remote, no local node of its kind" jqo "$r/ladder-nvm/meta.json" '.memory_node_choice.remote.local_node_of_kind == null and (.memory_node_choice.remote.said | test("node 4 .nvm. is remote from chase core 2"))'
	ok_step ladder-dram-s1
	node_of ladder-dram-s1 1 dram
	expect "A: ladder-dram-s1 bound to node 1" bound ladder-dram-s1 1

	# --mem-node each: defects 3, 4, 7.
	ok_step each
	expect "A: each: one line on stdout, the top directory (defect 4)" test "$(cat "$o/each.out")" = "$r/each"
	expect "A: each: no plots with --no-plots (defect 3)" test ! -e "$r/each/compare/plots"
	for f in dram-node0:0:dram hbm-node2:2:hbm nvm-node4:4:nvm; do
		d=${f%%:*} n=${f#*:} k=${n#*:} n=${n%%:*}
		node_of "each/$d" "$n" "$k"
		rule=$(sed -n "s/^mess: --mem-node each: $k: node $n (\(.*\))\$/\1/p" "$o/each.err")
		expect "A: each/$d keeps the parent's rule (defect 7)" \
			jqo "$r/each/$d/meta.json" ".memory_node_choice.given == \"$k\" and .memory_node_choice.rule == \"$rule\" and \"$rule\" != \"\""
		expect "A: each/$d summary.md names node and kind" grep -q "^Memory: node $n, $k" "$r/each/$d/summary.md"
	done
	expect "A: each bound to nodes 0, 2 and 4" grep -q "bind:4 .*N4=" "$o/each.numa_maps"
	# Issue 36 item 4: with the HMAT's figures from the chase core.
	expect "A: each compare.md names the kinds and the HMAT's figures" grep -qF 'Memory (meta.json `memory_node_choice`): dram node 0: dram node 0 (HMAT 100 ns, 21.5 GB/s); hbm node 2: hbm node 2 (HMAT 120 ns, 85.9 GB/s)' "$r/each/compare/compare.md"
	expect "A: each compare: different kinds are a measurement difference (defect 7)" \
		grep -q "memory kinds or nodes differ" "$r/each/compare/compare.md"
	ok_step compare
	expect "A: compare.json names each set's memory" jqo "$r/cmp/compare.json" '[.sets[].memory] == ["dram node 0 (HMAT 100 ns, 21.5 GB/s)","hbm node 2 (HMAT 120 ns, 85.9 GB/s)"]'
	expect "A: compare.json warns of it" jqo "$r/cmp/compare.json" '.warnings | map(test("memory kinds or nodes differ")) | any'
	ok_step export
	expect "A: export info.txt names the memory (defect 7)" grep -qx "SOURCE_MEMORY=hbm node 2 (HMAT 120 ns, 85.9 GB/s)" "$r/exp/info.txt"

	# Defect 2: a buffer larger than the node: one line, exit 1, nothing written.
	expect "A: d2 exits 1" test "$(rc d2)" = 1
	expect "A: d2: one line naming the node" test "$(wc -l <"$o/d2.err")" = 1
	expect "A: d2: the node's capacity" has d2 "node 4 has"
	expect "A: d2: nothing written" test ! -e "$r/d2"

	# CXL: a relabelled topology of this machine (see guest.sh).
	ok_step cxl
	node_of ladder-cxl 4 cxl
	expect "A: cxl bound to node 4" bound cxl 4

	# mess matrix: 2 initiators x 5 nodes, each pair's memory on its
	# target, labels and the HMAT's figures for every pair (boot.sh).
	ok_step matrix
	mj=$r/matrix/summary.json
	expect "A: matrix: 10 pairs, complete" jqo "$r/matrix/meta.json" '.pairs_measured == 10 and .complete == true and .initiators == 2 and .targets == 5'
	expect "A: matrix: initiators 0 and 1 by every node" jqo "$mj" '[.cells[] | [.initiator_node, .target_node]] == [[0,0],[0,1],[0,2],[0,3],[0,4],[1,0],[1,1],[1,2],[1,3],[1,4]]'
	expect "A: matrix: chase cores 0 and 2" jqo "$mj" '[.cells[].chase_core] == [0,0,0,0,0,2,2,2,2,2]'
	expect "A: matrix: labels" jqo "$mj" '[.cells[].label] == ["local","remote","local cpu-less","remote cpu-less","local cpu-less","remote","local","remote cpu-less","local cpu-less","remote cpu-less"]'
	# Every pair's, remote ones too: hwloc's sysfs path has only each
	# node's nearest initiators, the ACPI table itself has them all.
	expect "A: matrix: the HMAT read from the ACPI table" jqo "$r/matrix/meta.json" '.hmat_table == "read" and (.hmat_source | startswith("the ACPI HMAT table"))'
	expect "A: matrix: HMAT latency of every pair (boot.sh)" jqo "$mj" '[.cells[].hmat_lat_ns] == [100,150,120,200,300,150,100,200,120,400]'
	expect "A: matrix: HMAT bandwidth of every pair (GiB/s as GB/s)" jqo "$mj" '[.cells[].hmat_bw_gbs] == [21.475,10.737,85.899,10.737,4.295,10.737,21.475,10.737,85.899,2.147]'
	expect "A: matrix: the labels agree with the HMAT: a node's least latency is from its local initiator" \
		jqo "$mj" '[.cells | group_by(.target_node)[] | (min_by(.hmat_lat_ns) | .label | startswith("local")) and ([.[] | select(.label | startswith("local"))] | length == 1)] | all'
	expect "A: matrix: each pair's pages on its target (mess's numa_maps)" \
		jqo "$mj" '[.cells[] | .chase_mib_on_target >= 32 and .chase_mib_elsewhere == 0 and .gen_mib_on_target >= 64 and .gen_mib_elsewhere == 0] | all'
	expect "A: matrix: every pair measured" jqo "$mj" '[.cells[] | (.lat_ns > 0 and .bw_gbs > 0 and .bw21_gbs > 0 and .lat_repeats == 5 and .bw_repeats == 5 and .bw21_repeats == 5 and .bw_cores == 2)] | all'
	expect "A: matrix: kinds" jqo "$mj" '[.cells[0:5][].target_kind] == ["dram","dram","hbm","hbm","nvm"]'
	expect "A: matrix.csv: a header and 10 rows" test "$(wc -l <"$r/matrix/matrix.csv")" = 11
	expect "A: matrix summary.md: the latency row of node 1, the remote pair's HMAT too" grep -Eq "^\| node 1 \(cores 2-3\) \| [0-9.]+ ns \(HMAT 150, [0-9.]+x\), remote \| [0-9.]+ ns \(HMAT 100, [0-9.]+x\), local \|" "$r/matrix/summary.md"
	for n in 0 1 2 3 4; do
		expect "A: matrix bound memory to node $n" grep -q "bind:$n .*N$n=" "$o/matrix.numa_maps"
	done
	expect "A: matrix: every bound mapping's pages on its node" \
		own_nodes "$o/matrix.numa_maps"

	# mess c2c: the 6 pairs of 4 PUs, grouped as the sockets (each with
	# its L3) make them; this machine has no SMT.
	ok_step c2c
	expect "A: c2c: 6 pairs, each measured" jqo "$r/c2c/summary.json" '(.c2c.pairs | length) == 6 and ([.c2c.pairs[] | .samples == 20 and .median_ns > 0] | all)'
	expect "A: c2c: same cache within a socket, other socket across" jqo "$r/c2c/summary.json" '[.c2c.pairs[] | [.pu_a, .pu_b, .group]] == [[0,1,"same cache"],[0,2,"other socket"],[0,3,"other socket"],[1,2,"other socket"],[1,3,"other socket"],[2,3,"same cache"]]'
	expect "A: c2c.csv: a header and 6 rows" test "$(wc -l <"$r/c2c/c2c.csv")" = 7

	ok_step absorb
	expect "A: absorb's all-core row spans both sockets (4 cores)" \
		awk -F, 'NR > 1 && $3 == 4 { f = 1 } END { exit !f }' "$r/absorb/absorption.csv"

	# Issue 49: a split of nodes; 6.1 has no weighted interleave, so
	# auto binds ranges in turn and says why; the shares from numa_maps.
	# split11 a curves run of its own; mess interleave's sweep of splits
	# 3:1 and 1:3, each a child run (its step's stderr, its own snapshot).
	ok_step interleave
	for f in split11:split11:1:1 interleave:il/split-A3-B1:3:1 interleave:il/split-A1-B3:1:3; do
		st=${f%%:*} f=${f#*:}
		d=${f%%:*} w0=${f#*:} w2=${w0#*:} w0=${w0%%:*}
		m=$r/$d/meta.json
		full=$o/$st.numa_full
		if [ "$st" = interleave ]; then
			full=$(grep -l -- "--out $r/$d " "$o"/interleave.cmd.* 2>/dev/null | head -1)
			full=${full/.cmd./.numa_full.}
			expect "A: $d: its child's mappings were seen" test -s "$full"
		else
			ok_step "$d"
		fi
		expect "A: $d: ranges, and why (stderr)" has "$st" "ranges bound in turn: this kernel has no weighted interleave"
		expect "A: $d meta.json: ranges chosen by auto, the weights, no system weights" \
			jqo "$m" ".memory_node_choice.placement | .method == \"ranges\" and .asked == \"auto\" and (.why | test(\"no weighted interleave\")) and .nodes == [0,2] and .weights_asked == [$w0,$w2] and .system_weights == null"
		expect "A: $d meta.json: stripes of whole huge pages" \
			jqo "$m" '.memory_node_choice.placement.stripe_bytes | .chase > 0 and .chase % 2097152 == 0 and .generators > 0 and .generators % 2097152 == 0'
		expect "A: $d meta.json: every page counted, within 2 points" \
			jqo "$m" '.memory_node_choice.placement.pages | [.chase, .generators] | all(.not_present == 0 and .other_nodes == 0 and .largest_deviation_points <= 2 and .pages > 0)'
		expect "A: $d meta.json: the split in memory_node_choice" jqo "$m" ".memory_node_choice.split == [{\"node\":0,\"kind\":\"dram\",\"weight\":$w0},{\"node\":2,\"kind\":\"hbm\",\"weight\":$w2}]"
		expect "A: $d summary.md: the split" grep -q "^Memory: split, given as a split of pages over node 0 (dram) weight $w0, node 2 (hbm) weight $w2" "$r/$d/summary.md"
		expect "A: $d summary.md: its pages" grep -q "^Pages: ranges (ranges bound in turn" "$r/$d/summary.md"
		expect "A: $d: no placement_off" eval 'test -s "$m" && ! grep -q placement_off "$m" "$r/$d/summary.md"'
		s0=$(share "$full" 0) s2=$(share "$full" 2)
		expect "A: $d numa_maps: node 0 ${s0:-none} % of $((100 * w0 / (w0 + w2))) within 2" near "$s0" $((100 * w0 / (w0 + w2)))
		expect "A: $d numa_maps: node 2 ${s2:-none} % of $((100 * w2 / (w0 + w2))) within 2" near "$s2" $((100 * w2 / (w0 + w2)))
		expect "A: $d numa_maps: ranges bound to 0 and 2 only" eval 'grep -q "bind:2 .*N2=" "$full" && own_nodes "$full"'
		mine=$(jq -r '.memory_node_choice.placement.pages | (.chase.on_node["0"] + .generators.on_node["0"]) * 100 / (.chase.pages + .generators.pages)' "$m")
		expect "A: $d: meta.json's node 0 share (${mine:-none}) agrees with numa_maps' ($s0)" near "$mine" "$s0"
	done
	i=$r/il/interleave.json
	expect "A: interleave.json: the two splits and the app answered" \
		jqo "$i" '(.splits | length == 2) and (.apps | length == 1)'
	expect "A: interleave: summary.md leads with the answer" grep -q . "$r/il/summary.md"
	expect "A: split --mem-place weighted: exit 3" test "$(rc split-weighted)" = 3
	expect "A: split --mem-place weighted: the reason, one line" \
		test "$(cat "$o/split-weighted.err")" = "mess: --mem-place weighted: this kernel has no weighted interleave (no /sys/kernel/mm/mempolicy/weighted_interleave; Linux 6.9 has it); allowed here: --mem-place ranges or auto"
	expect "A: split --mem-place weighted: nothing written" test ! -e "$r/split-w"
elif [ "$topo" = B ]; then
	# Defect 5: HBM only in the HMAT, no subtype from hwloc.
	expect "B: kinds dram dram hbm hbm dram (HMAT for 2 and 3)" jqo "$j" '[.nodes[].kind] == ["dram","dram","hbm","hbm","dram"]'
	expect "B: kind_from says the HMAT" jqo "$j" '[.nodes[].kind_from] == ["no subtype: assumed","no subtype: assumed","no subtype: firmware (HMAT) bandwidth","no subtype: firmware (HMAT) bandwidth","no subtype: assumed"]'
	expect "B: the table says so" has nodes "hbm (no subtype: HMAT bandwidth 4.0x node 1's)"
	ok_step ladder-hbm
	node_of ladder-hbm 3 hbm
	expect "B: ladder-hbm bound to node 3" bound ladder-hbm 3
	expect "B: ladder-hbm says the kind came from the HMAT" has ladder-hbm "hbm by the HMAT's bandwidth, hwloc gives no subtype"
	# Defect 8: the rule counts the nodes it chose among (0 and 4 local).
	ok_step ladder-dram
	expect "B: rule among 2 local dram nodes (defect 8)" \
		jqo "$r/ladder-dram/meta.json" '.memory_node == 0 and (.memory_node_choice.rule | test("among 2 local dram nodes"))'
else
	# Topology C: 4 sockets x 2 cores x 2 threads, DRAM nodes 0-3, HBM
	# node 4 nearest socket 0; the HMAT of boot.sh's hmat_c, every pair.
	expect "C: mess nodes: packages 0 1 2 3 0" jqo "$j" '[.nodes[].package] == [0,1,2,3,0]'
	expect "C: mess nodes: cores of the sockets (2 each)" jqo "$j" '[.nodes[].cores] == ["0-1","2-3","4-5","6-7","0-1"]'
	expect "C: mess nodes: kinds dram x4 and hbm (by the HMAT)" jqo "$j" '[.nodes[].kind] == ["dram","dram","dram","dram","hbm"]'
	expect "C: mess nodes: HMAT from the nearest cores" jqo "$j" '[.nodes[].firmware.latency_ns] == [100,100,100,100,120] and [.nodes[].firmware.bandwidth_mibs] == [20480,20480,20480,20480,81920]'
	# boot.sh's figures, initiator by initiator: ns, GiB/s, and the label.
	lat= gib= lab=
	for i in 0 1 2 3; do
		for t in 0 1 2 3 4; do
			d=$((i > t ? i - t : t - i))
			if [ $t = 4 ] && [ $i = 0 ]; then l=120 g=80 b='"local cpu-less"'
			elif [ $t = 4 ]; then l=$((200 + 10 * i)) g=$((16 - i)) b='"remote cpu-less"'
			elif [ $d = 0 ]; then l=100 g=20 b='"local"'
			else l=$((130 + 10 * d)) g=$((12 - d)) b='"remote"'
			fi
			lat=$lat${lat:+,}$l gib=$gib${gib:+,}$g lab=$lab${lab:+,}$b
		done
	done
	ok_step matrix
	mj=$r/matrix/summary.json
	expect "C: matrix: 20 pairs, complete" jqo "$r/matrix/meta.json" '.pairs_measured == 20 and .complete == true and .initiators == 4 and .targets == 5'
	expect "C: matrix: every initiator by every node" jqo "$mj" '[.cells[] | [.initiator_node, .target_node]] == [range(4) as $i | range(5) as $t | [$i, $t]]'
	expect "C: matrix: chase cores 0 2 4 6, 2 generator cores each" jqo "$mj" '[.cells[] | .chase_core == 2 * .initiator_node and .bw_cores == 2] | all'
	expect "C: matrix: labels: local, remote, cpu-less" jqo "$mj" "[.cells[].label] == [$lab]"
	expect "C: matrix: the HMAT read from the ACPI table" jqo "$r/matrix/meta.json" '.hmat_table == "read"'
	expect "C: matrix: HMAT latency of every pair = boot.sh's" jqo "$mj" "[.cells[].hmat_lat_ns] == [$lat]"
	expect "C: matrix: HMAT bandwidth of every pair = boot.sh's (GiB/s as GB/s)" \
		jq -e --argjson g "[$gib]" '[.cells[].hmat_bw_gbs] as $b | [range(20) | ($b[.] - $g[.] * 1.073741824 | fabs) < 0.001] | all' "$mj"
	expect "C: matrix: the labels agree with the HMAT: a node's least latency is from its local initiator" \
		jqo "$mj" '[.cells | group_by(.target_node)[] | (min_by(.hmat_lat_ns) | .label | startswith("local")) and ([.[] | select(.label | startswith("local"))] | length == 1)] | all'
	expect "C: matrix: every pair measured (figures present, not judged)" jqo "$mj" '[.cells[] | .lat_ns > 0 and .bw_gbs > 0 and .bw21_gbs > 0 and .lat_repeats == 3] | all'
	expect "C: matrix: each pair's chase buffer and generator arrays on its target (mess's numa_maps)" \
		jqo "$mj" '[.cells[] | .chase_mib_on_target >= 32 and .chase_mib_elsewhere == 0 and .gen_mib_on_target >= 64 and .gen_mib_elsewhere == 0] | all'
	for n in 0 1 2 3 4; do
		expect "C: matrix bound memory to node $n (the guest's watch)" grep -q "bind:$n .*N$n=" "$o/matrix.numa_maps"
	done
	expect "C: matrix: every bound mapping's pages on its node (the guest's watch)" \
		own_nodes "$o/matrix.numa_maps"
	expect "C: matrix.csv: a header and 20 rows" test "$(wc -l <"$r/matrix/matrix.csv")" = 21
	for f in latency:'Unloaded latency' bandwidth:'Peak bandwidth, read only'; do
		expect "C: matrix plots/matrix-${f%%:*}.svg: its title and node 4's column" \
			grep -q "${f#*:}" "$r/matrix/plots/matrix-${f%%:*}.svg"
		expect "C: matrix-${f%%:*}.svg names node 4 hbm" grep -q "node 4 hbm" "$r/matrix/plots/matrix-${f%%:*}.svg"
	done
	expect "C: matrix report.html: the latency table with a remote pair's HMAT" \
		grep -q "HMAT 230, " "$r/matrix/report.html"
	ok_step c2c
	cj=$r/c2c/summary.json
	expect "C: c2c: the 120 pairs of 16 PUs, each measured" jqo "$cj" '(.c2c.pairs | length) == 120 and ([.c2c.pairs[] | .samples == 10 and .median_ns > 0] | all)'
	# QEMU numbers the PUs thread-first: PU p is thread p%2 of core p/2,
	# socket p/4.  The same socket's cores share QEMU's L3: same cache.
	expect "C: c2c: each pair's group from its PUs (smt, same socket, other socket)" \
		jqo "$cj" '[.c2c.pairs[] | .group == (if (.pu_a / 2 | floor) == (.pu_b / 2 | floor) then "smt" elif (.pu_a / 4 | floor) == (.pu_b / 4 | floor) then (if .group == "same socket" then "same socket" else "same cache" end) else "other socket" end)] | all'
	expect "C: c2c: 8 smt, 16 same-socket, 96 other-socket pairs" \
		jqo "$cj" '[.c2c.pairs[] | .group] | (map(select(. == "smt")) | length) == 8 and (map(select(. == "same cache" or . == "same socket")) | length) == 16 and (map(select(. == "other socket")) | length) == 96'
	expect "C: c2c plots/c2c.svg: its title" grep -q "Core-to-core latency" "$r/c2c/plots/c2c.svg"
	expect "C: c2c report.html: the groups" grep -q "<th>other socket</th><td class=\"n\">96</td>" "$r/c2c/report.html"
	# mess interfere --placement other-socket: each aggressor core (hwloc
	# logical, 2 a socket: core c on package c/2) off the victim's
	# package, their arrays on the victim's node 0.
	ok_step interfere
	im=$r/interfere/meta.json
	expect "C: interfere: other-socket, victim core 0 on node 0, 2 aggressors with arrays on node 0" \
		jqo "$im" '.placement == "other-socket" and .victim_core == 0 and .victim_node == 0 and .max_aggressors == 2 and .aggressor_node == 0'
	ag=$(jq -r .aggressor_cores "$im" 2>/dev/null | tr ',' '\n' |
		awk -F- '{ for (c = $1; c <= ($2 == "" ? $1 : $2); c++) print c }')
	expect "C: interfere: aggressor cores ($(echo $ag)) all on other packages than the victim's" \
		test -n "$ag" -a -z "$(for c in $ag; do [ $((c / 2)) != 0 ] || echo "$c"; done)"
	expect "C: interfere: the aggressors' memory bound to node 0 (the guest's watch)" bound interfere 0
fi
