#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# tools/circles.sh must pass a tree without circles and name every file of
# one made by a call and of one made by includes, and every folder of a
# folder circle unless tools/circles-allow.txt lists it (issue 44), so that
# make check can fail on them.
set -u
circles=$(cd "$(dirname "$0")/.." && pwd)/tools/circles.sh
cc=${CC:-cc}
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
# the repository's known circles are not this tree's
export CIRCLES_ALLOW=$t/none
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

# Folders: y/a.c -> y/z/b.c -> y/c.c, no file circle but y <-> y/z
rm -f "$t/src/harness/x/h2.h"
put harness/x/c.c 'int c(void) { return 1; }'
put harness/y/a.c 'int yb(void);' 'int ya(void) { return yb(); }'
put harness/y/z/b.c 'int yc(void);' 'int yb(void) { return yc(); }'
put harness/y/c.c 'int yc(void) { return 3; }'
build || { echo "circles self-test: cannot compile"; exit 1; }
out=$(CIRCLES_ALLOW=$t/none "$circles" "$t/build" "$t/src" 2>&1)
rc=$?
check "a folder circle: exit 1 (got $rc)" '[ $rc -eq 1 ]'
check "the folder circle named, no file circle" 'grep -q "circle of 2 folders" <<<"$out" && grep -q "harness/y/z -> harness/y$" <<<"$out" && ! grep -q "circle of .* files:" <<<"$out"'
printf '# known\n44 harness/y/z harness/y\n' >"$t/allow"
out=$(CIRCLES_ALLOW=$t/allow "$circles" "$t/build" "$t/src" 2>&1)
rc=$?
check "a listed folder circle: exit 0 (got $rc: $out)" '[ $rc -eq 0 ] && grep -q "known circle of 2 folders (44 removes it)" <<<"$out"'
put harness/y/z/b.c 'int yb(void) { return 2; }'
build || { echo "circles self-test: cannot compile"; exit 1; }
out=$(CIRCLES_ALLOW=$t/allow "$circles" "$t/build" "$t/src" 2>&1)
rc=$?
check "a listed folder circle gone: exit 1 (got $rc), said" '[ $rc -eq 1 ] && grep -q "harness/y harness/y/z no longer a circle" <<<"$out"'
# A command calling another command's function, with no include: named
put harness/w/a.c 'int ya(void);' 'int w(void) { return ya(); }'
build || { echo "circles self-test: cannot compile"; exit 1; }
out=$(CIRCLES_ALLOW=$t/none "$circles" "$t/build" "$t/src" 2>&1)
rc=$?
check "a command on another command: exit 1 (got $rc), named" '[ $rc -eq 1 ] && grep -q "harness/w/a.c -> harness/y/a.c: command w depends on command y" <<<"$out"'
rm -f "$t/src/harness/w/a.c"
check "usage: no objects, exit 2" '"$circles" "$t/nothing" "$t/src" >/dev/null 2>&1; [ $? -eq 2 ]'
[ "$fail" -eq 0 ] || echo "$out"
echo "circles self-test: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
