#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# usage (in the guest, from tests/numa/init): guest.sh REPO OUT TOPO [MESS]
#
# Topology A: the soft-reserved ranges and the pmem are onlined as system
# RAM with daxctl (ndctl first turns the pmem namespace into a DAX device).
# Then every step: its stdout, stderr and exit status in OUT/NAME.{out,err,rc}
# and, for a step that binds memory, the bound mappings of every mess
# process seen while it ran in OUT/NAME.numa_maps, for tests/numa/expect.sh
# to check on the host.  OUT/done when finished.  Timing is never looked at.
set -u
repo=$1 out=$2 topo=$3
cd "$repo" || exit 1
# The binary check.sh was given (make BUILD=... check-numa), not another.
mess=${4:-$repo/build/x86_64/mess}
exec >"$out/guest.log" 2>&1
export TMPDIR=/tmp
r=$out/r
mkdir -p "$r"
echo "topology $topo"

# step NAME CMD...: run, keep its outputs, and watch /proc/PID/numa_maps of
# the mess processes for bound mappings (bind:N) while it runs.  Of the
# snapshots, the one whose mappings with a policy (bind, interleave) held
# the most KiB is also kept whole in OUT/NAME.numa_full: the buffers all
# at once, for a split's shares (the sorted watch mixes snapshots); and
# each mess process's own fullest in OUT/NAME.numa_full.PID, its command
# line in OUT/NAME.cmd.PID (mess interleave's children, one a split).
# kib_of FILE: the KiB on any node in numa_maps lines.
kib_of() {
	awk '{ k = 4; for (i = 1; i <= NF; i++) if ($i ~ /^kernelpagesize_kB=/) k = substr($i, 19)
	       for (i = 1; i <= NF; i++) if ($i ~ /^N[0-9]+=/) { split($i, a, "="); s += a[2] * k } }
	     END { print s + 0 }' "$1"
}
step() {
	local name=$1 pid p kib best=0 full
	local -A mine=()
	shift
	echo "== $name: $*"
	local t0=$SECONDS
	"$@" >"$out/$name.out" 2>"$out/$name.err" &
	pid=$!
	: >"$out/$name.numa_maps"
	: >"$out/$name.numa_full"
	# The whole snapshots only where a split is checked: each costs the
	# watch time, and a short phase (interfere's aggressors) must not be
	# missed between two looks.
	case $name in split* | interleave) full=1 ;; *) full= ;; esac
	while kill -0 "$pid" 2>/dev/null; do
		: >/tmp/snap
		# Children of --mem-node each run as /proc/self/exe, argv[0] mess.
		for p in $(pgrep -f "^($mess|mess) "); do
			grep -h 'bind:' "/proc/$p/numa_maps" 2>/dev/null |
				sed "s/^/$(cat "/proc/$p/comm" 2>/dev/null) /" >>"$out/$name.numa_maps"
			[ -n "$full" ] || continue
			grep -hE 'bind:|interleave' "/proc/$p/numa_maps" 2>/dev/null |
				sed "s/^/$p /" >/tmp/snap.1
			cat /tmp/snap.1 >>/tmp/snap
			kib=$(kib_of /tmp/snap.1)
			if [ "$kib" -gt "${mine[$p]:-0}" ]; then
				mine[$p]=$kib
				cp /tmp/snap.1 "$out/$name.numa_full.$p"
				tr '\0' ' ' <"/proc/$p/cmdline" >"$out/$name.cmd.$p" 2>/dev/null
			fi
		done
		if [ -n "$full" ]; then
			kib=$(kib_of /tmp/snap)
			if [ "$kib" -gt "$best" ]; then
				best=$kib
				cp /tmp/snap "$out/$name.numa_full"
			fi
		fi
		sleep 0.5
	done
	wait "$pid"
	echo $? >"$out/$name.rc"
	sort -u -o "$out/$name.numa_maps" "$out/$name.numa_maps"
	echo "   exit $(cat "$out/$name.rc") in $((SECONDS - t0)) s"
}
q="--quick --no-plots"

if [ "$topo" = A ]; then
	ns=$(ndctl list -N | jq -r '.[0].dev')
	ndctl create-namespace -f -e "$ns" -m devdax
	daxctl reconfigure-device --mode=system-ram all
fi
numactl -H
lstopo-no-graphics --of xml >"$out/topo.xml" 2>/dev/null
step nodes "$mess" nodes
step nodes-json "$mess" nodes --json
step counters "$mess" counters

# Curves with one mix: what is checked is where the memory was, so
# few points, no ladder and small buffers (TCG's page faults cost
# milliseconds: the default 4 x LLC buffers took a third of a run).
c="--quick --no-plots --mixes 0 --points 4 --no-ladder --buffer 32M --gen-bytes 8M"
hp=/sys/devices/system/node/node0/hugepages/hugepages-2048kB/nr_hugepages
if [ "$topo" = A ]; then
	# Defect 1 too: hugetlb pages in the pool, all on node 0, none on the
	# node bound to.
	echo 80 >$hp
	grep HugePages_Free /proc/meminfo
	step n2 "$mess" $c --mem-node 2 --out "$r/n2"
	step ladder-n2 "$mess" ladder $q --mem-node 2 --out "$r/ladder-n2"
	# ... and where the node's own pool has them: hugetlb, bound.
	step ladder-n0 "$mess" ladder $q --mem-node 0 --out "$r/ladder-n0"
	echo 0 >$hp
	step hbm-s1 "$mess" $c --mem-node hbm --chase-core 2 --cores all --out "$r/hbm-s1"
	step default "$mess" $c --out "$r/default"
	# Issue 36 item 4: a node remote from the chase core is said, with
	# the local node of its kind; packages_loaded counts its package.
	step remote "$mess" $c --mem-node 2 --chase-core 2 --out "$r/remote"
	step ladder-hbm "$mess" ladder $q --mem-node hbm --out "$r/ladder-hbm"
	# Issue 49: pages split 3:1 and 1:1 over DRAM node 0 and HBM node 2;
	# Debian's 6.1 has no weighted interleave: ranges, and weighted
	# refused.
	# Later options win: 64 MiB, pages enough for a share within 2 points.
	sp="$c --buffer 64M --gen-bytes 16M"
	step split11 "$mess" $sp --mem-node 0:1,hbm:1 --out "$r/split11"
	# mess interleave: a sweep of splits, each a child curves run.
	step interleave "$mess" interleave 0 2 --splits 3:1,1:3 $sp --app 70:1 --out "$r/il"
	step split-weighted "$mess" $sp --mem-node 0:1,2:1 --mem-place weighted --out "$r/split-w"
	step ladder-nvm "$mess" ladder $q --mem-node nvm --core 2 --out "$r/ladder-nvm"
	step ladder-dram-s1 "$mess" ladder $q --mem-node dram --core 2 --out "$r/ladder-dram-s1"
	step each "$mess" $c --mem-node each --out "$r/each"
	step compare "$mess" compare "$r/each/dram-node0" "$r/each/hbm-node2" --no-plots --out "$r/cmp"
	# TCG's figures make every run INVALID: exported anyway, to see info.txt.
	step export "$mess" export "$r/n2" --format mess --force --out "$r/exp"
	# Defect 2: more than the node has.
	step d2 "$mess" $c --mem-node 4 --buffer 1G --out "$r/d2"
	# CXL: hwloc 2.9 has no CXL subtype and QEMU 7.2's cxl-type3 offers
	# only persistent memory: this machine's own topology with its NVM
	# node relabelled CXL-DRAM, bound for real (HWLOC_THISSYSTEM=1).
	sed 's/subtype="NVM"/subtype="CXL-DRAM"/' "$out/topo.xml" >/tmp/cxl.xml
	step cxl env HWLOC_XMLFILE=/tmp/cxl.xml HWLOC_THISSYSTEM=1 "$mess" ladder $q --mem-node cxl --out "$r/ladder-cxl"
	# Issue 36: every node with CPUs to every node; long enough windows
	# for the watch (every 0.5 s) to see each pair's buffers.
	step matrix "$mess" matrix --quick --repeats 5 --window-ms 100 --buffer 32M --gen-bytes 16M --no-plots --out "$r/matrix"
	step c2c "$mess" c2c --quick --samples 20 --batch 5 --no-plots --out "$r/c2c"
	step absorb "$mess" absorb $q --kernels stream --modes memory_ld64 --cores all --out "$r/absorb"
elif [ "$topo" = B ]; then
	step ladder-hbm "$mess" ladder $q --mem-node hbm --core 2 --out "$r/ladder-hbm"
	step ladder-dram "$mess" ladder $q --mem-node dram --out "$r/ladder-dram"
else
	# Topology C, 4 sockets with SMT: every socket to every node (mess
	# records where each pair's pages were), its heat maps and page;
	# every pair of the 16 PUs, as few samples as c2c takes.
	step matrix "$mess" matrix --quick --buffer 32M --gen-bytes 16M --out "$r/matrix"
	step c2c "$mess" c2c --quick --samples 10 --batch 2 --out "$r/c2c"
	# Aggressors on another socket than the victim's (core 0, socket 0),
	# their arrays on the victim's node; settled 1.5 s a row so that the
	# watch (every 0.5 s) sees their pages (quick's 50 ms was missed).
	step interfere "$mess" interfere --quick --settle-ms 1500 --placement other-socket --aggressors 2 --mixes 0 \
		--buffer 32M --gen-bytes 16M --no-plots --out "$r/interfere"
fi
touch "$out/done"
