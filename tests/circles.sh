#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# tools/circles.sh must pass a tree without circles and name every file of
# one made by a call and of one made by includes, so that make check can
# fail on them.
set -u
circles=$(cd "$(dirname "$0")/.." && pwd)/tools/circles.sh
cc=${CC:-cc}
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
pass=0 fail=0
check() { if eval "$2"; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL: $1"; fi; }
put() { local f=$1; shift; mkdir -p "$(dirname "$t/src/$f")"; printf '%s\n' "$@" >"$t/src/$f"; }
build() {
	rm -rf "$t/build"
	for c in $(cd "$t/src" && find harness lib -name '*.c'); do
		o=$t/build/${c%.c}.o
		case $c in lib/*) o=$t/build/pic/${c%.c}.o ;; esac
		mkdir -p "$(dirname "$o")"
		$cc -c -I"$t/src/harness" -I"$t/src/include" -o "$o" "$t/src/$c" || return 1
	done
}

# a -> b -> c, no way back
put harness/x/a.c 'int b(void);' 'int a(void) { return b(); }'
put harness/x/b.c 'int c(void);' 'int b(void) { return c(); }'
put harness/x/c.c 'int c(void) { return 1; }'
put lib/base/p.c '#include "mess/p.h"' 'int p(void) { return 2; }'
put include/mess/p.h 'int p(void);'
build || { echo "circles self-test: cannot compile"; exit 1; }
out=$("$circles" "$t/build" "$t/src" 2>&1)
rc=$?
check "no circle: exit 0 (got $rc: $out)" '[ $rc -eq 0 ]'

# c calls a back: a circle of three by calls; two headers that include
# each other: a circle by includes
put harness/x/c.c 'int a(void);' 'int c(void) { return a(); }'
put harness/x/h1.h '#include "x/h2.h"'
put harness/x/h2.h '#include "x/h1.h"'
build || { echo "circles self-test: cannot compile"; exit 1; }
out=$("$circles" "$t/build" "$t/src" 2>&1)
rc=$?
check "circles: exit 1 (got $rc)" '[ $rc -eq 1 ]'
check "the call circle named whole" 'grep -q "circle of 3 files" <<<"$out" && grep -q "harness/x/c.c -> harness/x/a.c" <<<"$out"'
check "the include circle named" 'grep -q "circle of 2 files" <<<"$out" && grep -q "harness/x/h1.h -> harness/x/h2.h" <<<"$out"'
check "lib/ outside both" '! grep -q "lib/base/p.c ->" <<<"$out"'
check "usage: no objects, exit 2" '"$circles" "$t/nothing" "$t/src" >/dev/null 2>&1; [ $? -eq 2 ]'
[ "$fail" -eq 0 ] || echo "$out"
echo "circles self-test: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
