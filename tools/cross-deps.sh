#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# Static cmocka, hwloc, libnuma, jansson and libpfm4 for one foreign ISA,
# built from Debian's own source packages with Debian's cross compiler:
#
#   tools/cross-deps.sh <arch> <compiler-prefix> <prefix-dir>
#   e.g. tools/cross-deps.sh riscv64 riscv64-linux-gnu- build/deps/riscv64
#
# Why from source: bookworm has no riscv64 port, so there is no
# libhwloc-dev:riscv64 to install, and multiarch -dev packages for arm64 and
# ppc64el drag in (and upgrade) half the base system.  One static build per
# ISA, of the same versions as the native packages, works for all three and
# lets qemu-user run the binaries without a foreign sysroot.
#
# The result is also kept outside the checkout, in
# ${MESS_DEPS_CACHE:-${XDG_CACHE_HOME:-~/.cache}/mess/deps}/<arch>-<key>,
# and a fresh clone copies it from there: building the three ISAs' took 8
# of a fresh clone's make check minutes on a 2-core guest, and `make
# clean` or a second worktree threw them away.  The key is a hash of all
# that decides the libraries (the source package versions, the cross
# compiler's version line, its libc.a's checksum and $recipe), so a
# Debian update or another compiler builds anew, never uses a stale copy.
#
# Exit status: 0 built (or already there, or copied from the cache), 77
# cannot build here (the reason is on stderr; the Makefile reports the
# ISA's tests as skipped), other: a real failure.
set -euo pipefail

# Bump when a step below changes what is built (flags, options, a library).
recipe=1

arch=${1:?arch} cross=${2:?compiler prefix} prefix=${3:?prefix dir}
pkgs=(cmocka hwloc numactl jansson libpfm4)
here=$(pwd)
mkdir -p "$prefix"
prefix=$(cd "$prefix" && pwd)
src=$(dirname "$prefix")/src
log=$prefix/build.log

skip() { echo "cross-deps: $arch: $*" >&2; exit 77; }

command -v "${cross}gcc" >/dev/null ||
	skip "${cross}gcc not found (apt-get install gcc-${cross%-})"

# The stamp names the source versions, so a Debian update rebuilds.
versions() {
	local p v out=
	for p in "${pkgs[@]}"; do
		v=$(apt-cache showsrc "$p" 2>/dev/null |
			sed -n 's/^Version: //p' | sort -V | tail -n1)
		[ -n "$v" ] || return 1
		out+="$p=$v "
	done
	echo "$out"
}
if ! want=$(versions); then
	# Built before, index gone since: what is there is still good.
	[ -f "$prefix/.stamp" ] && exit 0
	skip "no Debian source index for ${pkgs[*]} (add a deb-src line to /etc/apt/sources.list.d and run apt-get update)"
fi
cc_id=$("${cross}gcc" --version | head -n1)
libc_sum=$(cksum <"$("${cross}gcc" -print-file-name=libc.a)" 2>/dev/null | cut -d' ' -f1) || true
stamp="$want cc=$cc_id libc=${libc_sum:-none} recipe=$recipe"
if [ -f "$prefix/.stamp" ] && [ "$(cat "$prefix/.stamp")" = "$stamp" ]; then
	exit 0
fi
# No home (some CI runners): no cache.
cache=${MESS_DEPS_CACHE:-}
[ -n "$cache" ] || [ -z "${XDG_CACHE_HOME:-}${HOME:-}" ] ||
	cache=${XDG_CACHE_HOME:-$HOME/.cache}/mess/deps
cached=$cache/$arch-$(printf '%s' "$stamp" | sha256sum | cut -c1-16)
if [ -n "$cache" ] && [ -f "$cached/.stamp" ] && [ "$(cat "$cached/.stamp")" = "$stamp" ]; then
	rm -rf "$prefix.new"
	cp -a "$cached" "$prefix.new"
	rm -rf "$prefix"
	mv "$prefix.new" "$prefix"
	echo "cross-deps: $arch: from the cache $cached" >&2
	exit 0
fi

for t in cmake autoreconf make dpkg-source; do
	command -v "$t" >/dev/null || skip "$t not found (apt-get install cmake autoconf automake libtool make dpkg-dev)"
done

# Sources are ISA-independent: fetch once, build per ISA out of tree.  The
# ISAs' checks run side by side (make check): one fetches at a time.
mkdir -p "$src"
exec 9>"$src/.lock"
flock 9
for p in "${pkgs[@]}"; do
	ver=$(echo "$want" | tr ' ' '\n' | sed -n "s/^$p=//p")
	upver=${ver#*:}
	upver=${upver%-*}
	if [ ! -d "$src/$p-$upver" ]; then
		echo "cross-deps: fetching Debian source $p $ver" >&2
		(cd "$src" && apt-get source -q "$p=$ver" >>"$log" 2>&1) ||
			skip "apt-get source $p=$ver failed (see $log)"
	fi
done
cmocka_src=$(ls -d "$src"/cmocka-*/ | tail -n1)
hwloc_src=$(ls -d "$src"/hwloc-*/ | tail -n1)
numa_src=$(ls -d "$src"/numactl-*/ | tail -n1)
jansson_src=$(ls -d "$src"/jansson-*/ | tail -n1)
pfm_src=$(ls -d "$src"/libpfm4-*/ | tail -n1)
flock -u 9

host=$("${cross}gcc" -dumpmachine)
obj=$prefix/obj
rm -rf "$obj" "$prefix/include" "$prefix/lib"
mkdir -p "$obj"
jobs=$(nproc 2>/dev/null || echo 2)
step() { echo "cross-deps: $arch: $*" >&2; }

step "cmocka ($cmocka_src)"
cmake -S "$cmocka_src" -B "$obj/cmocka" -DCMAKE_SYSTEM_NAME=Linux \
	-DCMAKE_SYSTEM_PROCESSOR="$arch" -DCMAKE_C_COMPILER="${cross}gcc" \
	-DCMAKE_INSTALL_PREFIX="$prefix" -DCMAKE_INSTALL_LIBDIR=lib \
	-DCMAKE_BUILD_TYPE=Release -DWITH_STATIC_LIB=ON \
	-DWITH_EXAMPLES=OFF -DUNIT_TESTING=OFF >>"$log" 2>&1
cmake --build "$obj/cmocka" -j"$jobs" >>"$log" 2>&1
cmake --install "$obj/cmocka" >>"$log" 2>&1
# cmocka installs its archive as libcmocka-static.a; -lcmocka wants this.
mv "$prefix/lib/libcmocka-static.a" "$prefix/lib/libcmocka.a"
rm -f "$prefix"/lib/libcmocka.so*

# Only the library: no lstopo, no I/O discovery, no plugins, so it needs
# nothing but libc.
step "hwloc ($hwloc_src)"
mkdir -p "$obj/hwloc"
(cd "$obj/hwloc" && "$hwloc_src/configure" --host="$host" \
	--prefix="$prefix" --libdir="$prefix/lib" --enable-static \
	--disable-shared --disable-io --disable-libxml2 --disable-libudev \
	--disable-cairo --disable-plugin-dlopen --disable-plugin-ltdl \
	--disable-readme --disable-picky >>"$log" 2>&1 &&
	make -C hwloc -j"$jobs" >>"$log" 2>&1 &&
	make -C hwloc install >>"$log" 2>&1 &&
	make -C include install >>"$log" 2>&1)

# numactl ships no generated configure; autoreconf a private copy so the
# shared source tree stays pristine.
step "libnuma ($numa_src)"
cp -a "$numa_src" "$obj/numactl"
(cd "$obj/numactl" && autoreconf -fi >>"$log" 2>&1 &&
	./configure --host="$host" --prefix="$prefix" --libdir="$prefix/lib" \
		--enable-static --disable-shared >>"$log" 2>&1 &&
	make -j"$jobs" libnuma.la >>"$log" 2>&1 &&
	mkdir -p "$prefix/include" "$prefix/lib" &&
	cp numa.h numaif.h numacompat1.h "$prefix/include/" &&
	cp .libs/libnuma.a "$prefix/lib/")

# lib/ (the maths and file formats) writes its JSON with jansson.  Only the
# static archive and its two headers: no docs (sphinx), tests or examples.
step "jansson ($jansson_src)"
cmake -S "$jansson_src" -B "$obj/jansson" -DCMAKE_SYSTEM_NAME=Linux \
	-DCMAKE_SYSTEM_PROCESSOR="$arch" -DCMAKE_C_COMPILER="${cross}gcc" \
	-DCMAKE_INSTALL_PREFIX="$prefix" -DCMAKE_BUILD_TYPE=Release \
	-DJANSSON_BUILD_SHARED_LIBS=OFF -DJANSSON_BUILD_DOCS=OFF \
	-DJANSSON_EXAMPLES=OFF -DJANSSON_WITHOUT_TESTS=ON \
	-DJANSSON_INSTALL=OFF >>"$log" 2>&1
cmake --build "$obj/jansson" -j"$jobs" >>"$log" 2>&1
mkdir -p "$prefix/include" "$prefix/lib"
cp "$obj/jansson/lib/libjansson.a" "$prefix/lib/"
cp "$obj/jansson/include/jansson.h" "$obj/jansson/include/jansson_config.h" \
	"$prefix/include/"

# The harness names its events through libpfm4 (perf_event encodings).  It
# has its own Makefiles, not autoconf: build only lib/ (no examples, tests
# or python) in a private copy, static only.  ARCH is libpfm4's name, as in
# Debian's rules; 4.13 has no riscv64 support, so there ARCH selects no
# core PMU tables and the library carries only the generic perf_events PMUs
# (perf::, perf_raw::), which is all a qemu-user run can use anyway.  DBG=
# drops upstream's -Werror (a newer cross gcc's new warning is no reason to
# fail); OPTIM is what Debian's CFLAGS give the native build.
case $arch in
aarch64) pfm_arch=arm64 ;;
ppc64le | ppc64 | powerpc*) pfm_arch=powerpc ;;
*) pfm_arch=$arch ;;
esac
step "libpfm4 ($pfm_src, ARCH=$pfm_arch)"
cp -a "$pfm_src" "$obj/libpfm4"
pfm_make=(CC="${cross}gcc" AR="${cross}ar" ARCH="$pfm_arch" SYS=Linux
	CONFIG_PFMLIB_SHARED=n CONFIG_PFMLIB_NOPYTHON=y DBG= OPTIM=-O2
	PREFIX="$prefix" LIBDIR="$prefix/lib" INCDIR="$prefix/include"
	LDCONFIG=true)
(cd "$obj/libpfm4/lib" && make -j"$jobs" "${pfm_make[@]}" libpfm.a >>"$log" 2>&1 &&
	make "${pfm_make[@]}" install >>"$log" 2>&1 &&
	cd ../include && make "${pfm_make[@]}" install >>"$log" 2>&1)

for f in lib/libcmocka.a lib/libhwloc.a lib/libnuma.a lib/libjansson.a \
	lib/libpfm.a include/cmocka.h include/hwloc.h include/numa.h \
	include/jansson.h include/jansson_config.h include/perfmon/pfmlib.h \
	include/perfmon/pfmlib_perf_event.h include/perfmon/perf_event.h; do
	[ -f "$prefix/$f" ] || { echo "cross-deps: $arch: $f missing after build (see $log)" >&2; exit 1; }
done
rm -rf "$obj"
echo "$stamp" >"$prefix/.stamp"
step "done: $prefix ($want)"
# Into the cache whole or not at all (a rename); a cache that cannot be
# written (read-only home) costs the next clone a build, nothing else.
if [ -n "$cache" ] && mkdir -p "$cache" 2>/dev/null && tmp=$(mktemp -d "$cache/.$arch.XXXXXX" 2>/dev/null); then
	if cp -a "$prefix/." "$tmp/" && mv -T "$tmp" "$cached" 2>/dev/null; then
		step "kept in $cached"
	else
		rm -rf "$tmp"
	fi
fi
cd "$here"
