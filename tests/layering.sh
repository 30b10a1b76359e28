#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# tools/layering.sh must pass a tree that keeps the rules and name every
# violation of one that breaks each, so that make check can fail on it.
set -u
layering=$(cd "$(dirname "$0")/.." && pwd)/tools/layering.sh
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
pass=0 fail=0
check() { if eval "$2"; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL: $1"; fi; }

mkdir -p "$t"/lib "$t"/include/mess "$t"/harness/core "$t"/harness/curves \
	"$t"/harness/absorb "$t"/kernels/include "$t"/kernels/c "$t"/kernels/asm/x86_64
# put FILE LINE...: one line each.
put() { local f=$1; shift; printf '%s\n' "$@" >"$t/$f"; }
put lib/a.c '#include <jansson.h>' '#include "mess/a.h"'
mkdir -p "$t"/lib/base "$t"/lib/model
# lib/'s folders: model (rank 1) may include base's headers (rank 0).
put lib/base/p.c '#include "mess/p.h"'
put lib/model/m.c '#include "mess/m.h"' '#include "mess/p.h"'
put include/mess/m.h '#include "mess/p.h"'
# harness/core's services: report (rank 2) may include machine's (1) and
# the files directly in core/ (0).
mkdir -p "$t"/harness/core/machine "$t"/harness/core/report
put harness/core/machine/topo.c '#include "core/machine/topo.h"' '#include "core/x.h"'
put harness/core/report/html.c '#include "core/machine/topo.h"' '#include "core/x.h"'
put include/mess/a.h '#include "mess/b.h"'
put harness/core/x.c '#include "core/x.h"' '#include "mess/a.h"' \
	'#include "ckernels.h"' '#include "mess_kernels.h"' '#include <hwloc.h>' \
	'#include <perfmon/pfmlib_perf_event.h>'
put harness/curves/c.c '#include "curves/result/run.h"' '#include "core/x.h"' '#include "ckernels.h"'
put harness/absorb/a.c '#include "absorb/cmd.h"' '#include "mess/a.h"'
put harness/main.c '#include "curves/cmd.h"' '#include "absorb/cmd.h"'
put kernels/include/mess_kernels.h '#include <stdint.h>'
put kernels/c/ckernels.h '#include "mess_kernels.h"'
put kernels/asm/x86_64/gen.S '#include "mess_kernels.h"'

out=$("$layering" "$t" 2>&1)
rc=$?
check "a tree that keeps the rules passes (exit $rc: $out)" '[ $rc -eq 0 ] && [ -z "$out" ]'

put lib/bad.c '#include <stdio.h>' '#include "core/util.h"' '#include <pthread.h>' \
	'#include <perfmon/pfmlib.h>'
put include/mess/bad.h '#  include <hwloc.h>'
put harness/core/bad.c '#include "curves/result/run.h"' '#include "foo/bar.h"'
put harness/absorb/bad.c '#include "absorb/x.h"' '#include "curves/result/run.h"' \
	'#include <perfmon/pfmlib.h>'
put kernels/c/bad.c '#include "ckernels.h"' '#include "mess/curve.h"' '#include "core/util.h"'
# base includes model's header; a header of base includes model's; a
# folder with no rank.
put lib/base/q.c '#include "mess/p.h"' '#include "mess/m.h"'
put include/mess/p.h '#include "mess/m.h"'
mkdir -p "$t"/lib/zzz
# machine includes report's header; core/ itself includes a service's;
# a service with no rank.
put harness/core/machine/bad.c '#include "core/report/html.h"'
put harness/core/bad2.c '#include "core/machine/topo.h"'
mkdir -p "$t"/harness/core/zzz

out=$("$layering" "$t" 2>&1)
rc=$?
check "violations: exit 1 (got $rc)" '[ $rc -eq 1 ]'
for want in \
	'lib/bad.c:2: lib includes "core/util.h": ' \
	'lib/bad.c:3: lib includes <pthread.h>: ' \
	'lib/bad.c:4: lib includes <perfmon/pfmlib.h>: ' \
	'include/mess/bad.h:1: lib includes <hwloc.h>: ' \
	'harness/core/bad.c:1: core includes "curves/result/run.h": ' \
	'harness/core/bad.c:2: core includes "foo/bar.h": ' \
	'harness/absorb/bad.c:2: command absorb includes "curves/result/run.h": ' \
	'harness/absorb/bad.c:3: command absorb includes <perfmon/pfmlib.h>: ' \
	'kernels/c/bad.c:2: kernel includes "mess/curve.h": ' \
	'kernels/c/bad.c:3: kernel includes "core/util.h": ' \
	'lib/base/q.c:2: lib/base includes "mess/m.h": ' \
	'include/mess/p.h:1: lib/base includes "mess/m.h": ' \
	'lib/zzz: a lib/ folder with no rank in tools/layering.sh' \
	'harness/core/machine/bad.c:1: core/machine includes "core/report/html.h": ' \
	'harness/core/bad2.c:1: core/core includes "core/machine/topo.h": ' \
	'harness/core/zzz: a core service with no rank in tools/layering.sh'; do
	check "reported: $want" 'grep -qF "$want" <<<"$out"'
done
check "nothing else reported" '[ "$(wc -l <<<"$out")" -eq 16 ]'
[ "$fail" -eq 0 ] || echo "$out"
echo "layering self-test: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
