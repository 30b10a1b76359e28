#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# usage: tests/numa/image.sh CACHE
#
# The guest of make check-numa, cached under CACHE (build/numa): Debian's
# current linux-image-*-amd64, downloaded and unpacked (never installed),
# and an initramfs of busybox-static and the kernel modules the guest needs
# (virtio 9p, DAX, NVDIMM).  Everything else the guest runs (mess, numactl,
# daxctl, ndctl, hwloc, jq) is this machine's own, reached through a
# read-only 9p share of / (tests/numa/init), so nothing is copied twice.
# Prints "SKIPPED: <reason>" on stdout and exits 3 where it cannot be built.
set -euo pipefail
cache=$1
here=$(dirname "$(readlink -f "$0")")
skip() { echo "SKIPPED: $*"; exit 3; }
mkdir -p "$cache"
cd "$cache"

command -v busybox >/dev/null || skip "no busybox (apt-get install busybox-static)"
file -L "$(command -v busybox)" 2>/dev/null | grep -q 'statically linked' ||
	[ -x /bin/busybox ] || skip "busybox is not static (apt-get install busybox-static)"

if [ ! -s kernel.name ]; then
	# The one flavour that linux-image-amd64 names today: never a glob
	# (every flavour is 1.6 GB).
	pkg=$(apt-cache depends linux-image-amd64 2>/dev/null |
		awk '/Depends: linux-image-[0-9]/ { print $2; exit }')
	[ -n "$pkg" ] || skip "apt-cache names no linux-image for linux-image-amd64 (apt-get update?)"
	rm -rf kernel ./*.deb
	apt-get download "$pkg" >download.log 2>&1 || skip "cannot download $pkg (see $cache/download.log)"
	dpkg-deb -x ./"$pkg"_*.deb kernel || skip "cannot unpack $pkg"
	rm -f ./"$pkg"_*.deb
	echo "$pkg" >kernel.name
fi
ver=$(basename kernel/lib/modules/*)
[ -f kernel/boot/vmlinuz-"$ver" ] || skip "no vmlinuz in the unpacked $(cat kernel.name)"
cp -f kernel/boot/vmlinuz-"$ver" vmlinuz

if [ initrd.img -nt "$here/init" ] && [ initrd.img -nt "$here/image.sh" ] &&
	[ initrd.img -nt kernel.name ]; then
	exit 0
fi
[ -f kernel/lib/modules/"$ver"/modules.dep ] || busybox depmod -b kernel "$ver"

# The modules to load, in this order, and what each needs (modules.dep).
mods="virtio_pci 9pnet_virtio 9p libnvdimm nd_pmem nd_e820 nd_btt dax_pmem
device_dax kmem dax_hmem"
rm -rf root
mkdir -p root/bin root/lib/modules/"$ver" root/proc root/sys root/dev root/host
cp "$(command -v busybox)" root/bin/busybox
dep=kernel/lib/modules/$ver/modules.dep
need=$(for m in $mods; do
	line=$(grep -E "/$m\.ko(\.xz)?:" "$dep") || skip "kernel $ver has no module $m"
	echo "$line" | tr -d ':' | tr ' ' '\n'
done | sort -u)
for f in $need; do
	mkdir -p root/lib/modules/"$ver"/"$(dirname "$f")"
	cp kernel/lib/modules/"$ver"/"$f" root/lib/modules/"$ver"/"$f"
done
grep -E "^($(echo $need | tr ' ' '|')):" "$dep" >root/lib/modules/"$ver"/modules.dep
echo "$mods" >root/modules.list
cp "$here/init" root/init
chmod +x root/init
(cd root && find . | busybox cpio -o -H newc 2>/dev/null | gzip -1) >initrd.img.tmp
mv initrd.img.tmp initrd.img
