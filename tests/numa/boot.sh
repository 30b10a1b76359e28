#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# usage: tests/numa/boot.sh CACHE TOPO OUT [MESS]
#
# Boot the emulated machine of make check-numa, topology A, B or C, with the
# guest built by tests/numa/image.sh in CACHE; the guest runs
# tests/numa/guest.sh with MESS (default build/x86_64/mess of this
# checkout) and writes into OUT (a 9p share); its console goes to
# OUT/console.log.  QEMU system emulation: KVM where /dev/kvm works, else
# TCG, so nothing measured in it is a figure of anything.
#
# A and B: a q35 machine with hmat=on, 2 sockets of 2 cores, 1 GiB of DRAM on
# each socket (nodes 0 and 1, below 4 GiB) and three CPU-less nodes above
# 4 GiB (0x100000000, 0x120000000, 0x140000000: away from the firmware's
# reserved top of low memory, which would misalign the pmem), each nearer
# to one socket in the firmware's HMAT:
#   node 2  512 MiB  near socket 0, 4x socket 0's DRAM bandwidth (HBM-like)
#   node 3  512 MiB  near socket 1, 4x socket 1's DRAM bandwidth (HBM-like)
#   node 4  512 MiB  near socket 0, slow (NVM-like)
# A: nodes 2 and 3 soft-reserved (memmap=...%...+0xefffffff, i.e.
#    EFI_MEMORY_SP), node 4 legacy pmem (memmap=...!...); the guest onlines
#    them as system RAM with daxctl, so hwloc labels them from the DAX
#    devices (HBM/SPM, NVM).
# B: the same HMAT, all ordinary RAM: hwloc labels nothing and only the
#    HMAT says which node is HBM (Xeon Max flat mode on Debian 12).
# C: another machine: 4 sockets x 2 cores x 2 threads (SMT), 320 MiB of
#    DRAM on each socket (nodes 0-3) and one CPU-less HBM-like node 4 (256
#    MiB, nearest socket 0), all ordinary RAM, and an HMAT line for EVERY
#    initiator x node pair (hmat_c below), each figure its own so that a
#    figure in the wrong cell shows: local DRAM 100 ns, 20 GiB/s; remote
#    DRAM 130 + 10 x the socket distance ns, 12 - distance GiB/s; HBM 120
#    ns, 80 GiB/s from socket 0 and 200 + 10 x socket ns, 16 - socket
#    GiB/s from the others.  tests/numa/expect.sh computes the same.
set -euo pipefail
cache=$1 topo=$2 out=$3
# Physical paths: the guest reaches them under its /host, where an
# absolute symbolic link would point into the guest's own tree.
repo=$(cd "$(dirname "$0")/../.." && pwd -P)
out=$(mkdir -p "$out" && cd "$out" && pwd -P)
bin=$(readlink -f "${4:-$repo/build/x86_64/mess}")
[ -x "$bin" ] || { echo "$0: ${4:-$repo/build/x86_64/mess}: not an executable" >&2; exit 1; }

mb=$((1 << 20))
case $topo in
A) extra="memmap=512M%0x100000000-1+0xefffffff memmap=512M%0x120000000-1+0xefffffff memmap=512M!0x140000000" ;;
B|C) extra="" ;;
*) echo "usage: $0 CACHE A|B|C OUT [MESS]" >&2; exit 1 ;;
esac

accel="-accel tcg,thread=multi" cpu=max
if [ -w /dev/kvm ] && [ "${MESS_NUMA_KVM:-0}" = 1 ]; then
	accel="-accel kvm" cpu=host
fi

# hmat-lb: initiator, target, latency (ns), bandwidth.
lb=""
hmat() {
	lb="$lb -numa hmat-lb,initiator=$1,target=$2,hierarchy=memory,data-type=access-latency,latency=$3"
	lb="$lb -numa hmat-lb,initiator=$1,target=$2,hierarchy=memory,data-type=access-bandwidth,bandwidth=$4"
}
# hmat_c I T: topology C's pair (the figures in the header).
hmat_c() {
	local d=$(($1 > $2 ? $1 - $2 : $2 - $1))
	if [ "$2" = 4 ] && [ "$1" = 0 ]; then hmat 0 4 120 80G
	elif [ "$2" = 4 ]; then hmat "$1" 4 $((200 + 10 * $1)) $((16 - $1))G
	elif [ "$d" = 0 ]; then hmat "$1" "$2" 100 20G
	else hmat "$1" "$2" $((130 + 10 * d)) $((12 - d))G
	fi
}
if [ "$topo" = C ]; then
	# TCG's max CPU is an AMD one without topoext, on which Linux sees
	# no SMT (QEMU warns "doesn't support hyperthreading"): Intel's
	# topology leaf (0xB) gives the guest its threads.
	[ "$cpu" = max ] && cpu=max,vendor=GenuineIntel
	mem=1536M smp=16,sockets=4,cores=2,threads=2 numa=""
	for n in 0 1 2 3; do
		numa="$numa -object memory-backend-ram,id=m$n,size=320M"
		numa="$numa -numa node,nodeid=$n,cpus=$((4 * n))-$((4 * n + 3)),memdev=m$n,initiator=$n"
		for t in 0 1 2 3 4; do hmat_c $n $t; done
	done
	numa="$numa -object memory-backend-ram,id=m4,size=256M -numa node,nodeid=4,memdev=m4,initiator=0"
else
	mem=3584M smp=4,sockets=2,cores=2,threads=1
	numa="-object memory-backend-ram,id=m0,size=1G -object memory-backend-ram,id=m1,size=1G
	-object memory-backend-ram,id=m2,size=512M -object memory-backend-ram,id=m3,size=512M
	-object memory-backend-ram,id=m4,size=512M
	-numa node,nodeid=0,cpus=0-1,memdev=m0,initiator=0
	-numa node,nodeid=1,cpus=2-3,memdev=m1,initiator=1
	-numa node,nodeid=2,memdev=m2,initiator=0
	-numa node,nodeid=3,memdev=m3,initiator=1
	-numa node,nodeid=4,memdev=m4,initiator=0"
	hmat 0 0 100 20G; hmat 0 1 150 10G; hmat 0 2 120 80G; hmat 0 3 200 10G; hmat 0 4 300 4G
	hmat 1 0 150 10G; hmat 1 1 100 20G; hmat 1 2 200 10G; hmat 1 3 120 80G; hmat 1 4 400 2G
fi

# shellcheck disable=SC2086
exec timeout "${MESS_NUMA_TIMEOUT:-420}" qemu-system-x86_64 \
	-nodefaults -display none -no-reboot -serial file:"$out/console.log" \
	$accel -cpu $cpu -machine q35,hmat=on \
	-smp $smp -m $mem \
	$numa \
	$lb \
	-virtfs local,path=/,mount_tag=host,security_model=none,readonly=on,multidevs=remap \
	-virtfs local,path="$out",mount_tag=out,security_model=none \
	-kernel "$cache/vmlinuz" -initrd "$cache/initrd.img" \
	-append "console=ttyS0 panic=-1 quiet $extra mess_repo=$repo mess_bin=$bin mess_out=$out mess_topo=$topo"
