#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# usage: tools/circles.sh BUILD_DIR [ROOT]
#
# Circles between files (issue 33): a source depends on the source that
# defines a function it calls or an object it uses (from the objects'
# symbol tables, nm), and a file on every header it includes.  A circle is
# a set of files each reaching every other:
# such files cannot be read, tested or moved one at a time.  Prints each
# circle, its files one line each, and the edges inside it; the kernels
# (assembly, one per ISA) and tests are left out.
# Exit status: 0 none, 1 some, 2 usage (no objects under BUILD_DIR).
set -euo pipefail

build=${1:-}
root=${2:-$(dirname "$0")/..}
nm=${NM:-nm}
[ -n "$build" ] && build=$(cd "$build" 2>/dev/null && pwd) && [ -d "$build/harness" ] ||
	{ echo "usage: $0 BUILD_DIR [ROOT] (with harness/ objects: make BUILD=... all)" >&2; exit 2; }
cd "$root"

{
	# calls: "D sym file" for what an object defines, "U sym file" for
	# what it uses
	find "$build/harness" "$build/pic/lib" -name '*.o' 2>/dev/null | while read -r o; do
		src=${o#"$build"/}
		src=${src#pic/}
		src=${src%.o}.c
		[ -f "$src" ] || continue
		"$nm" "$o" | awk -v s="$src" '
			NF == 3 && $2 ~ /^[TDBRGV]$/ { print "D", $3, s }
			NF == 2 && $1 == "U" { print "U", $2, s }'
	done
	# includes: "I header file"
	grep -rnoE --include='*.c' --include='*.h' '^#[[:space:]]*include[[:space:]]*"[^"]+"' harness lib include/mess 2>/dev/null |
		sed -E 's/^([^:]+):[0-9]+:#[[:space:]]*include[[:space:]]*"([^"]+)"$/I \2 \1/'
} | python3 -c '
import os, sys
from collections import defaultdict

defs, uses, incs = {}, [], []
for line in sys.stdin:
    kind, what, f = line.split()
    if kind == "D":
        defs[what] = f
    elif kind == "U":
        uses.append((f, what))
    else:
        incs.append((f, what))
# the header a quoted include names: beside the file, under harness/, or
# include/ for "mess/..."; None for a kernel header
def header(f, h):
    for base in (os.path.dirname(f) + "/", "harness/", "include/"):
        if os.path.exists(base + h):
            return os.path.normpath(base + h)
    return None
g = defaultdict(set)
for f, s in uses:
    if s in defs and defs[s] != f:
        g[f].add(defs[s])
for f, h in incs:
    t = header(f, h)
    if t and t != f:
        g[f].add(t)
# Tarjan, iteratively: the strongly connected components
index, low, on, stack, sccs, n = {}, {}, set(), [], [], [0]
nodes = sorted(set(g) | {t for v in g.values() for t in v})
for root in nodes:
    if root in index:
        continue
    work = [(root, iter(sorted(g[root])))]
    index[root] = low[root] = n[0]; n[0] += 1
    stack.append(root); on.add(root)
    while work:
        v, it = work[-1]
        for w in it:
            if w not in index:
                index[w] = low[w] = n[0]; n[0] += 1
                stack.append(w); on.add(w)
                work.append((w, iter(sorted(g[w]))))
                break
            if w in on:
                low[v] = min(low[v], index[w])
        else:
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[v])
            if low[v] == index[v]:
                c = []
                while True:
                    w = stack.pop(); on.discard(w); c.append(w)
                    if w == v:
                        break
                if len(c) > 1:
                    sccs.append(sorted(c))
for c in sorted(sccs):
    print("circle of %d files:" % len(c))
    for f in c:
        print("  %s -> %s" % (f, ", ".join(t for t in sorted(g[f]) if t in c)))
print("%d files, %d dependencies, %d circles" % (len(nodes), sum(len(v) for v in g.values()), len(sccs)), file=sys.stderr)
sys.exit(1 if sccs else 0)
'
