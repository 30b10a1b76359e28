#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# A run directory belongs to one command and one process (issue 22,
# "nothing lost when two runs meet"): another command's run is not taken
# over, a second writer is refused by the lock, the messages suggest
# --resume only where the command resumes, refusals are one line, the
# default directory's name is safe whatever the hostname.
# usage: tests/rundir.sh MESS
set -u
mess=$(realpath "$1")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0 fail=0
check() {
	if (eval "$2"); then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL: $1"; fi
}
S="--quick --no-plots --buffer 32M --gen-bytes 8M --chase-ms 5"
sums() { cat "$1"/*.json "$1"/*.csv 2>/dev/null | md5sum; }
# stopped ERR ARGS...: mess ARGS, sent SIGTERM (an asynchronous job of a
# script ignores SIGINT) once it measures (it said "writing": on a loaded
# machine a fixed delay could land before its handler is in); its stderr
# into ERR.
stopped() {
	local err=$1 pid line
	shift
	rm -f "$tmp/fifo" && mkfifo "$tmp/fifo"
	"$mess" "$@" >/dev/null 2>"$tmp/fifo" &
	pid=$!
	exec 3<"$tmp/fifo"
	while IFS= read -r line <&3; do
		echo "$line" >>"$err"
		case $line in *"writing "*) break ;; esac
	done
	kill -TERM $pid
	cat <&3 >>"$err"
	exec 3<&-
	wait $pid
}
lines() { wc -l <"$1"; }

# A complete curves run to meet, started as run.sh starts it.
R=$tmp/R
MESS_INVOKED_AS=./run.sh "$mess" $S --out "$R" >/dev/null 2>&1
check "a complete curves run" 'jq -e .complete "$R/meta.json" >/dev/null'
# Its unknown peak's hint names a command that works (issue 46): run.sh's
# own, with the run's directory, never a bare "mess report DIR".
check "under run.sh, summary.md's peak hint: ./run.sh report $R --peak-gbs GBS" \
	'grep -qF "also afterwards: ./run.sh report $R --peak-gbs GBS)" "$R/summary.md"'
sum=$(sums "$R")

# 1. Another command into it: refused, one line, nothing changed, and the
#    curves run still says it is complete on --resume.
"$mess" ladder --quick --no-plots --out "$R" >/dev/null 2>"$tmp/l.err"
rc=$?
check "ladder into a curves run: exit 1 (got $rc)" '[ $rc -eq 1 ]'
check "ladder into a curves run: one line naming the run" '[ $(lines "$tmp/l.err") -eq 1 ] && grep -q "already holds a run of '"'"'mess'"'"'" "$tmp/l.err"'
check "ladder into a curves run: nothing changed" '[ "$(sums "$R")" = "$sum" ]'
"$mess" --resume "$R" >/dev/null 2>"$tmp/r.err"
check "the curves run still resumes (complete)" 'grep -q "is complete" "$tmp/r.err"'
for c in absorb sample; do
	"$mess" $c --out "$R" >/dev/null 2>"$tmp/c.err"
	rc=$?
	check "$c into a curves run: exit 1 (got $rc), nothing changed" '[ $rc -eq 1 ] && [ "$(sums "$R")" = "$sum" ]'
done

# 9. An interrupted ladder: its message never suggests --resume (ladder
#    has none); curves into that ladder run is refused.
L=$tmp/L
stopped "$tmp/li.err" ladder --quick --no-plots --out "$L"
check "interrupted ladder: says interrupted ($(tail -1 "$tmp/li.err"))" 'grep -q "interrupted" "$tmp/li.err"'
check "interrupted ladder: no --resume suggested" '! grep -q -e "--resume" "$tmp/li.err"'
lsum=$(sums "$L")
"$mess" $S --out "$L" >/dev/null 2>"$tmp/cl.err"
rc=$?
check "curves into a ladder run: exit 1 (got $rc), one line" '[ $rc -eq 1 ] && [ $(lines "$tmp/cl.err") -eq 1 ] && grep -q "a run of '"'"'mess ladder'"'"'" "$tmp/cl.err"'
check "curves into a ladder run: nothing changed" '[ "$(sums "$L")" = "$lsum" ]'

# 2. Two writers on one directory: exactly one refuses, naming the lock
#    and its holder; the other completes whole.
D=$tmp/D
"$mess" $S --out "$D" >/dev/null 2>"$tmp/a.err" & a=$!
"$mess" $S --out "$D" >/dev/null 2>"$tmp/b.err" & b=$!
wait $a; ra=$?
wait $b; rb=$?
check "two writers: one 0 and one 1 (got $ra $rb)" '[ $((ra + rb)) -eq 1 ] && [ $((ra * rb)) -eq 0 ]'
check "two writers: the refusal is one line naming the holder ($(cat $tmp/a.err $tmp/b.err | grep -v "^mess: done" | head -c 400))" 'e=$tmp/a.err; [ $ra -eq 1 ] || e=$tmp/b.err; [ $(lines "$e") -eq 1 ] && grep -q "is being written by pid [0-9]* (mess) (lock $D/.lock)" "$e"'
check "two writers: the run is whole" 'jq -e .complete "$D/meta.json" >/dev/null && [ "$(jq .resumed "$D/meta.json")" = 0 ]'

# 2b. --resume beside the running writer: refused the same way.
E=$tmp/E
"$mess" $S --out "$E" >/dev/null 2>&1 & a=$!
for _ in $(seq 100); do [ -e "$E/resume.json" ] && break; sleep 0.05; done
"$mess" --resume "$E" >/dev/null 2>"$tmp/e.err"
rc=$?
wait $a; ra=$?
check "resume beside the writer: exit 1 (got $rc), the writer 0 (got $ra)" '[ $rc -eq 1 ] && [ $ra -eq 0 ]'
check "resume beside the writer: names the holder" 'grep -q "is being written by pid" "$tmp/e.err"'

# 17. Refusals alone, without the warnings of a run that never started.
"$mess" $S --out "$R" >/dev/null 2>"$tmp/x.err"
rc=$?
check "curves into its own complete run: exit 1 (got $rc), one line" '[ $rc -eq 1 ] && [ $(lines "$tmp/x.err") -eq 1 ]'
"$mess" --quick --buffer 32M --counters amd-umc --out "$tmp/C" >/dev/null 2>"$tmp/x.err"
rc=$?
if [ $rc -eq 3 ]; then
	check "--counters that cannot count: one line, nothing created" '[ $(lines "$tmp/x.err") -eq 1 ] && [ ! -e "$tmp/C" ]'
	# 12. --mem-node each the same: exit 3, nothing created.
	mkdir -p "$tmp/w12"
	(cd "$tmp/w12" && "$mess" $S --mem-node each --counters amd-umc >"$tmp/o12" 2>"$tmp/x.err")
	rc=$?
	check "--mem-node each --counters that cannot count: exit 3 (got $rc), nothing created" '[ $rc -eq 3 ] && [ -z "$(ls -A "$tmp/w12")" ] && [ ! -s "$tmp/o12" ]'
fi

# 16. fleet --out where no directory can be made: bad input like every
#     other command, before the scan.
mkdir -p "$tmp/F" && cp -r "$R" "$tmp/F/node1"
"$mess" fleet "$tmp/F" --out /proc/mess-fleet >/dev/null 2>"$tmp/f.err"
rc=$?
check "fleet --out /proc/...: exit 1 (got $rc) naming --out" '[ $rc -eq 1 ] && [ $(lines "$tmp/f.err") -eq 1 ] && grep -q "^mess fleet: --out: /proc/mess-fleet" "$tmp/f.err"'

# 14, 10. --resume with curves.csv a link out of the directory or a
#     directory: one line, exit 1, nothing written through the link; with
#     curves.csv gone: measured again whole (3 mixes of at least 6
#     points, and the header).
incomplete() { jq '.complete = false' "$1/meta.json" >"$1/m" && mv "$1/m" "$1/meta.json"; }
K=$tmp/K && cp -r "$R" "$K" && incomplete "$K"
mv "$K/curves.csv" "$tmp/outside.csv" && ln -s ../outside.csv "$K/curves.csv"
osum=$(md5sum <"$tmp/outside.csv")
"$mess" --resume "$K" >/dev/null 2>"$tmp/k.err"
rc=$?
check "curves.csv a link: exit 1 (got $rc), one line" '[ $rc -eq 1 ] && [ $(lines "$tmp/k.err") -eq 1 ] && grep -q "is a symbolic link" "$tmp/k.err"'
check "curves.csv a link: nothing written through it" '[ "$(md5sum <"$tmp/outside.csv")" = "$osum" ]'
rm "$K/curves.csv" && mkdir "$K/curves.csv"
"$mess" --resume "$K" >/dev/null 2>"$tmp/k.err"
rc=$?
check "curves.csv a directory: exit 1 (got $rc), one line" '[ $rc -eq 1 ] && [ $(lines "$tmp/k.err") -eq 1 ]'
rmdir "$K/curves.csv"
"$mess" --resume "$K" >/dev/null 2>"$tmp/k.err"
rc=$?
check "curves.csv gone: --resume measures it again (exit $rc)" '[ $rc -eq 0 ] && jq -e .complete "$K/meta.json" >/dev/null && [ $(lines "$K/curves.csv") -ge 19 ]'

# 13. A hostname is not a path: the default directory stays in results/.
if unshare -u true 2>/dev/null; then
	mkdir -p "$tmp/h/w"
	(cd "$tmp/h/w" && unshare -u sh -c 'printf ../../esc >/proc/sys/kernel/hostname && exec "$0" "$@"' "$mess" $S >/dev/null 2>&1)
	check "hostname ../../esc: the run stays in results/" '[ "$(ls "$tmp/h")" = w ] && ls "$tmp/h/w/results" | grep -q "^_\._\.__esc-"'
fi

# 10. An interrupted curves run names a command that works to go on
#     (issue 34 item 14): mess as it was invoked (here its full path, as
#     mess may not be on PATH), or what a wrapper exports as its own name
#     (run.sh: MESS_INVOKED_AS), never a bare "mess".
stopped "$tmp/i1.err" $S --out "$tmp/I1"
check "interrupted curves: continue with mess as invoked ($(tail -1 "$tmp/i1.err"))" \
	'grep -qF "(continue with $mess --resume $tmp/I1)" "$tmp/i1.err"'
"$mess" --resume "$tmp/I1" >/dev/null 2>&1
check "the command it named completes the run" 'jq -e .complete "$tmp/I1/meta.json" >/dev/null'
check "summary.md's peak hint: mess as invoked, report $tmp/I1" \
	'grep -qF "also afterwards: $mess report $tmp/I1 --peak-gbs GBS)" "$tmp/I1/summary.md"'
MESS_INVOKED_AS=./run.sh stopped "$tmp/i2.err" $S --out "$tmp/I2"
check "interrupted under run.sh: continue with ./run.sh --resume ($(tail -1 "$tmp/i2.err"))" \
	'grep -qF "(continue with ./run.sh --resume $tmp/I2)" "$tmp/i2.err"'

echo "rundir: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
