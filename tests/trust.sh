#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# A run must say when it cannot be trusted.  A competing process pinned to
# the generator core takes half of that core: the run may still finish,
# but its verdict must not be PASS, and a reason must name the
# competition.  --strict must exit 2 exactly when the verdict is INVALID.
#   tests/trust.sh MESS
set -u
mess=$1
out=$(mktemp -d /tmp/mess-trust.XXXXXX)
hog=
cleanup() { [ -n "$hog" ] && kill "$hog" 2>/dev/null; wait 2>/dev/null; rm -rf "$out"; }
trap cleanup EXIT
pass=0 fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*"; }
check() { if eval "$2"; then ok; else bad "$1"; fi; }

if [ "$(nproc)" -lt 2 ]; then
	echo "trust: skipped: one CPU, no generator core to compete for"
	echo "trust: one CPU" >>"${SKIPPED_FILE:-/dev/null}"
	exit 0
fi
# The OS CPU of the generator core (hwloc logical core 1).
pu=$(hwloc-calc --physical-output --intersect PU core:1 2>/dev/null | cut -d, -f1)
pu=${pu:-1}
S="--quick --no-plots --cores 1 --chase-core 0 --buffer 64M --gen-bytes 16M"

# A competitor: a busy loop that also walks memory, pinned to the PU.
taskset -c "$pu" sh -c 'x=0; while :; do x=$((x+1)); done' &
hog=$!
sleep 0.3
start=$(date +%s)
$mess $S --out "$out/r" >/dev/null 2>"$out/r.err"
rc=$?
echo "trust: a run beside a competitor on PU $pu took $(($(date +%s) - start)) s, exit $rc"
check "the run finishes (exit 0, got $rc)" '[ $rc -eq 0 ]' || tail -5 "$out/r.err"
v=$(jq -r .quality.verdict "$out/r/meta.json" 2>/dev/null)
check "the verdict is not PASS (got $v)" '[ "$v" = WARN ] || [ "$v" = INVALID ]'
# The competitor among the tasks meta.json lists, or, where others on a
# loaded machine filled the list (environ.h MESS_ENV_MAX_TASKS) before it,
# among those counted beyond it: the reason's text is cut after the first
# few (issue 31 item 34), so the pid is looked for here, not there.
listed='.environment.other_tasks as $o | any($o.listed[]; .pid == $p and .pu == $u) or
	($o.running_or_runnable > ($o.listed | length) and all($o.listed[]; .pid != $p))'
check "a reason is the competition" \
	'jq -e "any(.quality.reasons[]; .rule == \"competition\")" "$out/r/meta.json" >/dev/null'
check "meta.json environment lists the competitor on PU $pu (or counts it beyond a full list)" \
	'jq -e --argjson p "$hog" --argjson u "$pu" "$listed" "$out/r/meta.json" >/dev/null'
check "the competitor cost the generator its windows: disturbed windows counted" \
	'jq -e ".quality.windows.disturbed > 0" "$out/r/meta.json" >/dev/null'
check "stderr warns of the competition before measuring and names it in the verdict" \
	'grep -q "^warning: competition before the start" "$out/r.err" && grep -q "^mess:   WARN: competition" "$out/r.err"'
check "summary.md's verdict names the competition" 'grep -q "(\`competition\`)" "$out/r/summary.md"'

# --strict: exit 2 exactly when INVALID; the results stay.
$mess $S --strict --out "$out/s" >/dev/null 2>"$out/s.err"
rc=$?
v=$(jq -r .quality.verdict "$out/s/meta.json" 2>/dev/null)
check "--strict exits 2 if and only if INVALID (verdict $v, exit $rc)" \
	'{ [ "$v" = INVALID ] && [ $rc -eq 2 ] && grep -q "^mess: --strict: the verdict is INVALID" "$out/s.err"; } ||
	 { [ "$v" != INVALID ] && [ -n "$v" ] && [ $rc -eq 0 ]; }'
check "--strict keeps the results" '[ -s "$out/s/curves.csv" ] && jq -e ".complete == true" "$out/s/meta.json" >/dev/null'
kill "$hog" 2>/dev/null
wait "$hog" 2>/dev/null
hog=

# The host's earlier runs: three PASS runs of the same kind beside a new
# one, their maximum bandwidth made ten times the real one, must make it
# warn "history"; an INVALID sibling is never a baseline.
h=$out/hist
mkdir -p "$h"
for k in 1 2 3 4; do
	cp -r "$out/s" "$h/old$k"
	v=PASS
	[ $k -eq 4 ] && v=INVALID
	jq --arg v $v '.quality.verdict = $v' "$h/old$k/meta.json" >"$h/m" && mv "$h/m" "$h/old$k/meta.json"
	jq '.family.max_bw_gbs *= 10' "$h/old$k/summary.json" >"$h/m" && mv "$h/m" "$h/old$k/summary.json"
done
$mess $S --out "$h/new" >/dev/null 2>"$h/new.err"
rc=$?
check "beside earlier runs: exit 0 (got $rc)" '[ $rc -eq 0 ]'
check "the three PASS siblings compared, the INVALID one not" \
	'jq -e ".quality.history.compared == 3 and .quality.history.comparable_runs == 3" "$h/new/meta.json" >/dev/null'
check "a maximum bandwidth a tenth of the host's usual warns 'history'" \
	'jq -e "any(.quality.reasons[]; .rule == \"history\" and .level == \"WARN\")" "$h/new/meta.json" >/dev/null &&
	 jq -e ".quality.verdict != \"PASS\"" "$h/new/meta.json" >/dev/null'

echo "trust: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
