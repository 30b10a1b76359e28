#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# usage: [CIRCLES_ALLOW=FILE] tools/circles.sh BUILD_DIR [ROOT]
#
# Circles between files (issue 33): a source depends on the source that
# defines a function it calls or an object it uses (from the objects'
# symbol tables, nm), and a file on every header it includes.  A circle is
# a set of files each reaching every other:
# such files cannot be read, tested or moved one at a time.  Prints each
# circle, its files one line each, and the edges inside it; the kernels
# (assembly, one per ISA) and tests are left out.
# Circles between folders too (issue 44), by the same edges: a folder
# depends on another when one of its files does on one of the other's.  A
# folder circle listed in tools/circles-allow.txt (with the issue that
# removes it) is known; one not listed fails, and so does a listed one
# that is gone, so that the list cannot outlive its circles.  A command
# folder's file depending on another command's, or a harness/core/ one on
# any command's, fails too.
# Exit status: 0 none, 1 some, 2 usage (no objects under BUILD_DIR).
set -euo pipefail

build=${1:-}
root=${2:-$(dirname "$0")/..}
nm=${NM:-nm}
[ -n "$build" ] && build=$(cd "$build" 2>/dev/null && pwd) && [ -d "$build/harness" ] ||
	{ echo "usage: $0 BUILD_DIR [ROOT] (with harness/ objects: make BUILD=... all)" >&2; exit 2; }
allow=$(realpath -m "${CIRCLES_ALLOW:-$(dirname "$0")/circles-allow.txt}")
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
# Tarjan, iteratively: the strongly connected components of more than one
def circles(g):
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
    return nodes, sorted(sccs)
nodes, sccs = circles(g)
for c in sccs:
    print("circle of %d files:" % len(c))
    for f in c:
        print("  %s -> %s" % (f, ", ".join(t for t in sorted(g[f]) if t in c)))
print("%d files, %d dependencies, %d circles" % (len(nodes), sum(len(v) for v in g.values()), len(sccs)), file=sys.stderr)

gd = defaultdict(set)
for f, ts in list(g.items()):
    for t in ts:
        if os.path.dirname(f) != os.path.dirname(t):
            gd[os.path.dirname(f)].add(os.path.dirname(t))
dnodes, dsccs = circles(gd)
# the allowed ones: "ISSUE FOLDER FOLDER...", # a comment
allow = {}
for line in open(sys.argv[1]) if os.path.exists(sys.argv[1]) else []:
    w = line.split("#")[0].split()
    if w:
        allow[tuple(sorted(w[1:]))] = w[0]
bad = 0
for c in dsccs:
    if tuple(c) in allow:
        print("known circle of %d folders (%s removes it): %s" % (len(c), allow.pop(tuple(c)), " ".join(c)), file=sys.stderr)
        continue
    bad += 1
    print("circle of %d folders:" % len(c))
    for d in c:
        print("  %s -> %s" % (d, ", ".join(t for t in sorted(gd[d]) if t in c)))
for c, issue in sorted(allow.items()):
    bad += 1
    print("%s: %s no longer a circle: take it out of the list" % (sys.argv[1], " ".join(c)))
# Above the circles, by symbols as well as includes (layering.sh sees
# only the includes): no command leans on another command, nor a service
# on any command.
def command(d):
    p = d.split("/")
    return p[1] if len(p) > 1 and p[0] == "harness" and p[1] != "core" else None
for f, ts in sorted(g.items()):
    for t in sorted(ts):
        a, b = command(os.path.dirname(f)), command(os.path.dirname(t))
        if b and a != b and f.startswith("harness/") and os.path.dirname(f) != "harness":
            bad += 1
            print("%s -> %s: %s depends on command %s" % (f, t, "command " + a if a else "a service", b))
print("%d folders, %d dependencies, %d circles" % (len(dnodes), sum(len(v) for v in gd.values()), len(dsccs)), file=sys.stderr)
sys.exit(1 if sccs or bad else 0)
' "$allow"
