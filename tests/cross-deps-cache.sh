#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# usage: tests/cross-deps-cache.sh   (make check-deps-cache)
#
# tools/cross-deps.sh's cache outside the checkout (issue 47): an entry
# under the key of the source versions, the cross compiler and its libc
# is copied into a fresh prefix and nothing is built or fetched; an entry
# whose stamp says another compiler is never used.  A failing apt-get,
# cmake and autoreconf come first on PATH, so that any build or fetch
# fails instead of taking minutes.  Needs an aarch64 cross compiler and
# Debian's source index (the versions): else SKIPPED, never passed.
# shellcheck disable=SC2016  # check conditions are eval'd
set -u
arch=aarch64 cross=aarch64-linux-gnu-
pass=0 fail=0
skip() {
	echo "SKIPPED check-deps-cache: $*"
	[ -z "${SKIPPED_FILE:-}" ] || echo "check-deps-cache: $*" >>"$SKIPPED_FILE"
	exit 0
}
check() {
	if eval "$2"; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL: $1"; fi
}
command -v ${cross}gcc >/dev/null || skip "no ${cross}gcc"
want=
for p in cmocka hwloc numactl jansson libpfm4; do
	v=$(apt-cache showsrc "$p" 2>/dev/null | sed -n 's/^Version: //p' | sort -V | tail -n1)
	[ -n "$v" ] || skip "no Debian source index for $p"
	want+="$p=$v "
done
# The key as the script's header describes it.
recipe=$(sed -n 's/^recipe=//p' tools/cross-deps.sh)
stamp="$want cc=$(${cross}gcc --version | head -n1) libc=$(cksum <"$(${cross}gcc -print-file-name=libc.a)" | cut -d' ' -f1) recipe=$recipe"
key=$(printf '%s' "$stamp" | sha256sum | cut -c1-16)

tmp=$(mktemp -d /tmp/mess-deps-cache.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/bin"
for t in apt-get cmake autoreconf; do
	printf '#!/bin/sh\necho "fake %s: no build here" >&2\nexit 1\n' "$t" >"$tmp/bin/$t"
	chmod +x "$tmp/bin/$t"
done
entry() { # DIR STAMP: a cache entry holding a marker library
	mkdir -p "$1/lib" "$1/include"
	echo "$2" >"$1/.stamp"
	echo marker >"$1/lib/libmarker.a"
}
deps() { # PREFIX: the script on the test's cache, the fakes first
	PATH=$tmp/bin:$PATH MESS_DEPS_CACHE=$tmp/cache tools/cross-deps.sh $arch $cross "$1" >"$tmp/out" 2>"$tmp/err"
}

entry "$tmp/cache/$arch-$key" "$stamp"
deps "$tmp/a/deps/$arch"
rc=$?
check "an entry under this machine's key: copied, exit 0 (rc $rc: $(tail -n1 "$tmp/err"))" \
	'[ $rc -eq 0 ] && [ "$(cat "$tmp/a/deps/$arch/lib/libmarker.a")" = marker ]'
check "the copy's stamp is the key's" '[ "$(cat "$tmp/a/deps/$arch/.stamp")" = "$stamp" ]'
check "nothing fetched or built" '! grep -q -e fetching -e "fake " "$tmp/err"'
deps "$tmp/a/deps/$arch"
rc=$?
check "run again: the prefix is kept, exit 0" '[ $rc -eq 0 ] && [ -f "$tmp/a/deps/$arch/lib/libmarker.a" ]'

# The same directory name, a stamp of another compiler: stale, not used.
rm -rf "$tmp/cache"
entry "$tmp/cache/$arch-$key" "${stamp/cc=/cc=another }"
deps "$tmp/b/deps/$arch"
rc=$?
check "a stale entry (another compiler): not copied, a build tried (rc $rc)" \
	'[ $rc -ne 0 ] && [ ! -f "$tmp/b/deps/$arch/lib/libmarker.a" ] && grep -q "fake apt-get" "$tmp/b/deps/$arch/build.log"'

echo "deps-cache: $pass passed, $fail failed"
[ "$fail" = 0 ]
