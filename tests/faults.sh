#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Results survive faults and hostile state (issue: disk full, corrupted
# resume state, another build, a complete run resumed, a slow Ctrl-C).
# Each case starts from a real quick run; the damage is done by hand, the
# full disk by tests/fault/enospc.c (LD_PRELOAD), so no mount is needed.
# usage: tests/faults.sh MESS ENOSPC_SHIM
set -u
mess=$1 shim=$(realpath "$2")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0 fail=0
check() {
	if (eval "$2"); then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL: $1"; fi
}
Q="--quick --no-plots --buffer 32M --gen-bytes 8M --chase-ms 5 --points 6"
# Every mix with at least 6 rows, whole (39 fields), no (store_pct, nop) twice.
whole() {
	awk -F, 'NR == 1 { next } NF != 39 { exit 1 } { n[$1]++; if (seen[$1 "," $3]++) exit 1 }
		END { if (n[0] < 6 || n[50] < 6 || n[100] < 6) exit 1 }' "$1/curves.csv" &&
	jq -e '.complete' "$1/meta.json" >/dev/null
}
incomplete() { jq '.complete = false' "$1/meta.json" >"$1/m" && mv "$1/m" "$1/meta.json"; }

# 1. A full disk while points are appended: stop at once, say which file
#    and "disk full", keep every whole row; --resume completes it exactly.
d=$tmp/full
LD_PRELOAD=$shim MESS_FAULT_FILE=/full/curves.csv MESS_FAULT_BYTES=1500 \
	"$mess" $Q --out "$d" >/dev/null 2>"$tmp/full.err"
rc=$?
check "disk full: exit 2 (got $rc)" '[ $rc -eq 2 ]'
check "disk full: the file and 'disk full' named" 'grep -q "curves.csv: cannot write: No space left on device (disk full)" "$tmp/full.err"'
check "disk full: curves.csv ends with a whole line" '[ "$(tail -c1 "$d/curves.csv" | od -An -c | tr -d " ")" = "\n" ]'
check "disk full: every row whole" 'awk -F, "NF != 39 {exit 1}" "$d/curves.csv"'
check "disk full: no .tmp file left" '! ls "$d" | grep -q "\.tmp$"'
rows=$(($(wc -l <"$d/curves.csv") - 1))
"$mess" --resume "$d" >/dev/null 2>"$tmp/full2.err"
check "disk full: --resume after freeing space completes ($rows rows were kept)" 'whole "$d"'
check "disk full: the kept rows were reused" '[ "$(jq .points_reused "$d/meta.json")" -eq $rows ]'

# 1b. A full disk under latency_hist.csv, rewritten whole a point at a
#    time (the shim lets 3 rewrites through): stop at that point, the file
#    and "disk full" named, the point not recorded; --resume after freeing
#    space measures it again and every point has its histogram's rows.
# Every (store_pct, nop) of curves.csv has rows in latency_hist.csv.
hists() {
	awk -F, 'NR == FNR { if (FNR > 1) h[$1 "," $2] = 1; next }
		FNR > 1 && !(($1 "," $3) in h) { m++ } END { exit m > 0 }' \
		"$1/latency_hist.csv" "$1/curves.csv"
}
d=$tmp/hist
LD_PRELOAD=$shim MESS_FAULT_FILE=/hist/latency_hist.csv.tmp MESS_FAULT_OPENS=3 \
	"$mess" $Q --out "$d" >/dev/null 2>"$tmp/hist.err"
rc=$?
check "histograms, disk full: exit 2 (got $rc)" '[ $rc -eq 2 ]'
check "histograms, disk full: latency_hist.csv and 'disk full' named, --resume advised" \
	'grep -q "hist/latency_hist.csv: cannot write: No space left on device (disk full).*--resume $d" "$tmp/hist.err"'
check "histograms, disk full: stopped at once (3 points kept, got $(($(wc -l <"$d/curves.csv") - 1)))" \
	'[ "$(wc -l <"$d/curves.csv")" -eq 4 ] && hists "$d"'
"$mess" --resume "$d" >/dev/null 2>&1
check "histograms, disk full: --resume completes, every point with its histogram" \
	'whole "$d" && hists "$d" && [ "$(jq -r .distribution.status "$d/meta.json")" = measured ]'

# A complete run to damage copies of.
good=$tmp/good
"$mess" $Q --out "$good" >/dev/null 2>&1
check "a quick run for the cases" 'whole "$good"'
copy() { rm -rf "$tmp/$1"; cp -r "$good" "$tmp/$1"; incomplete "$tmp/$1"; echo "$tmp/$1"; }

# 2. A complete run resumed: says so, changes nothing.
sum=$(cat "$good"/*.json "$good/curves.csv" | md5sum)
out=$("$mess" --resume "$good" 2>&1)
check "complete run: nothing to do" 'grep -q "is complete (meta.json): nothing to do" <<<"$out"'
check "complete run: nothing changed" '[ "$(cat "$good"/*.json "$good/curves.csv" | md5sum)" = "$sum" ]'

# 2b. mess export onto a full disk: exit 2, the file and "disk full" named
#     (once only "mess export: "), nothing left in --out (once up to 30
#     bwlat files, and a rerun refused: not empty); the rerun succeeds.
for f in mess json; do
	file=$([ $f = json ] && echo mess-curves.json || echo bwlat_40.txt)
	LD_PRELOAD=$shim MESS_FAULT_FILE=/$file.tmp "$mess" export "$good" --force \
		--format $f --out "$tmp/x-$f" >/dev/null 2>"$tmp/x-$f.err"
	rc=$?
	check "export $f, disk full: exit 2 (got $rc)" '[ $rc -eq 2 ]'
	check "export $f, disk full: $file and 'disk full' named" \
		'grep -q "x-$f/$file: cannot write: No space left on device (disk full)" "$tmp/x-$f.err"'
	# The directory stays, holding its .lock only (the writer contract:
	# locked, then built aside inside it).
	check "export $f, disk full: nothing left behind" '[ -z "$(ls -A "$tmp/x-$f" | grep -v "^\.lock$")" ]'
	"$mess" export "$good" --force --format $f --out "$tmp/x-$f" >/dev/null 2>&1
	rc=$?
	check "export $f, disk full: the rerun succeeds (exit $rc)" '[ $rc -eq 0 ] && [ -s "$tmp/x-$f/info.txt" ]'
done

# 2c. mess import onto a full disk: exit 2, the file and "disk full" named
#     (once "Input/output error"), nothing in --out but its .lock, and the
#     rerun into the same --out accepted (once "not empty").
raw=$(realpath -m "$(dirname "$0")/../../shared/reference/mess-results-raw/MN5-GPP-SPR8480-DDR5-AVX2-local")
. "$(dirname "$0")/reference.sh"
[ -d "$raw" ] || no_reference "faults 2c" "no raw Mess tree at $raw: import on a full disk not checked"
if [ -d "$raw" ]; then
	for file in curves.csv summary.md meta.json.tmp; do
		d=$tmp/i-${file%%.*}
		LD_PRELOAD=$shim MESS_FAULT_FILE=/$file "$mess" import "$raw" --out "$d" \
			>/dev/null 2>"$tmp/i.err"
		rc=$?
		check "import, $file on a full disk: exit 2 (got $rc), named with 'disk full' ($(cat "$tmp/i.err"))" \
			'[ $rc -eq 2 ] && grep -q "${file%.tmp}: cannot write: No space left on device (disk full)" "$tmp/i.err"'
		check "import, $file on a full disk: nothing left but .lock" '[ -z "$(ls -A "$d" | grep -v "^\.lock$")" ]'
		"$mess" import "$raw" --out "$d" >/dev/null 2>&1
		rc=$?
		check "import, $file on a full disk: the rerun succeeds (exit $rc)" '[ $rc -eq 0 ] && jq -e .complete "$d/meta.json" >/dev/null'
	done
fi

# 3. A partial last line: dropped and measured again, never appended to.
d=$(copy partial)
truncate -s -20 "$d/curves.csv"
"$mess" --resume "$d" >/dev/null 2>"$tmp/p.err"
check "partial line: said with its line" 'grep -q "curves.csv:[0-9]*: partial last line" "$tmp/p.err"'
check "partial line: the run completes whole" 'whole "$d"'

# 4. A mix marked done without its rows: measured again.
d=$(copy undone)
grep -v '^50,' "$d/curves.csv" >"$d/c" && mv "$d/c" "$d/curves.csv"
"$mess" --resume "$d" >/dev/null 2>"$tmp/u.err"
check "done without rows: said" 'grep -q "mix 50% is marked done but curves.csv holds 0" "$tmp/u.err"'
check "done without rows: measured again" 'whole "$d"'

# 5. Rows outside the contract: a mix the run has not, a second row for a
#    point, a NaN latency; reported and dropped, the file rewritten.
d=$(copy rows)
r=$(sed -n 2p "$d/curves.csv")
{ echo "99999,${r#*,}"; echo "$r"; echo "0,100.0,77,1.0,1.0,0.0,nan,0.0,1,accounted"; } >>"$d/curves.csv"
"$mess" --resume "$d" >/dev/null 2>"$tmp/r.err"
check "bad rows: a mix not of this run said" 'grep -q "store_pct 99999, not a mix of this run" "$tmp/r.err"'
check "bad rows: a second row said" 'grep -q "a second row for store_pct" "$tmp/r.err"'
check "bad rows: NaN said with its line" 'grep -q "curves.csv:[0-9]*: .*dropped, measured again" "$tmp/r.err"'
check "bad rows: the result is whole and clean" 'whole "$d" && ! grep -q -e "^99999," -e nan "$d/curves.csv"'

# 6. Not our header: refused with the file, nothing changed.
d=$(copy header)
sed -i '1s/.*/a,b,c/' "$d/curves.csv"
sum=$(md5sum <"$d/curves.csv")
"$mess" --resume "$d" >/dev/null 2>"$tmp/h.err"
check "bad header: refused, file and line named" 'grep -q "curves.csv:1: not the header of curves.csv" "$tmp/h.err"'
check "bad header: nothing changed" '[ "$(md5sum <"$d/curves.csv")" = "$sum" ]'

# 6b. latency_hist.csv: a BOM before its header is taken (the earlier
#     points keep their rows); a line that is not one of its rows refuses
#     the resume, naming the file and line, nothing changed.
d=$(copy hbom)
printf '\xef\xbb\xbf' | cat - "$d/latency_hist.csv" >"$d/h" && mv "$d/h" "$d/latency_hist.csv"
"$mess" --resume "$d" >/dev/null 2>"$tmp/hb.err"
rc=$?
check "histograms with a BOM: resumed (exit $rc), every point keeps its rows" '[ $rc -eq 0 ] && hists "$d"'
d=$(copy hbad)
sed -i '5s/.*/0,64,garbage/' "$d/latency_hist.csv"
sum=$(cat "$d"/*.json "$d"/*.csv | md5sum)
"$mess" --resume "$d" >/dev/null 2>"$tmp/hd.err"
rc=$?
check "damaged histograms: refused (exit $rc), one line naming file and line" \
	'[ $rc -eq 1 ] && [ "$(wc -l <"$tmp/hd.err")" -eq 1 ] && grep -q "latency_hist.csv:5: not a row of latency_hist.csv" "$tmp/hd.err"'
check "damaged histograms: nothing changed (resume.json too)" '[ "$(cat "$d"/*.json "$d"/*.csv | md5sum)" = "$sum" ]'

# 7. Another build: refused; --force continues and meta.json names both.
d=$(copy build)
jq '.build = "mess 0.0.0 (git 000000000000)" | .builds = ["mess 0.0.0 (git 000000000000)"]' \
	"$d/resume.json" >"$d/r" && mv "$d/r" "$d/resume.json"
"$mess" --resume "$d" >/dev/null 2>"$tmp/b.err"
rc=$?
check "another build: exit 1 (got $rc)" '[ $rc -eq 1 ]'
check "another build: said, with --force named" 'grep -q "was measured by mess 0.0.0 (git 000000000000).*--force" "$tmp/b.err"'
"$mess" --resume "$d" --force >/dev/null 2>&1
check "another build, --force: meta.json names both builds" 'jq -e "(.builds | length) == 2 and .complete" "$d/meta.json" >/dev/null'

# 8. mess absorb: a corrupt work count is calibrated again (it once ran
#    for 51 minutes), a partial points line is dropped.
A="absorb --quick --no-plots --kernels stream --modes fp_add64 --kmax 4 --run-ms 4 --repeats 3 --cores 1"
d=$tmp/abs
"$mess" $A --out "$d" >/dev/null 2>&1
check "absorb: a quick run for the cases" 'jq -e .complete "$d/meta.json" >/dev/null'
incomplete "$d"
jq '(.rows[] | .work) |= map_values(99999999999999999) | (.rows[] | .done) = []' "$d/resume.json" >"$d/r" && mv "$d/r" "$d/resume.json"
truncate -s -1 "$d/absorption_points.csv"
start=$(date +%s)
timeout 120 "$mess" absorb --resume "$d" >/dev/null 2>"$tmp/a.err"
rc=$? secs=$(($(date +%s) - start))
check "absorb: corrupt work count said and calibrated again" 'grep -q "is not 1..2^40: calibrated again" "$tmp/a.err"'
check "absorb: partial points line said" 'grep -q "absorption_points.csv:[0-9]*: partial last line" "$tmp/a.err"'
check "absorb: resumed run completes (exit $rc in ${secs}s)" '[ $rc -eq 0 ] && jq -e .complete "$d/meta.json" >/dev/null'
check "absorb: every points line whole" 'awk -F, "NF != 22 {exit 1}" "$d/absorption_points.csv"'

# 8b. Nothing measurable (too little memory for every row): a failure,
#     never an empty table marked complete.
(ulimit -v 150000; "$mess" absorb --quick --no-plots --kernels stream --modes fp_add64 \
	--out "$tmp/empty" >/dev/null 2>"$tmp/e.err")
rc=$?
check "empty table: exit 2 (got $rc)" '[ $rc -eq 2 ]'
check "empty table: said" 'grep -q "nothing could be measured" "$tmp/e.err"'
check "empty table: not complete" 'jq -e ".complete == false" "$tmp/empty/meta.json" >/dev/null'

# 8c. A full disk under each command's whole-file writes (the shim opens
#     /dev/full for them): exit 2, ONE line naming the file and "disk full"
#     (no "setup failed: Input/output error" after it); curves and absorb
#     are completed by --resume, or started again into the same --out
#     when no resume.json could be written.  full WHAT DIR FILE[.tmp] CMD...
#     (name.tmp: a whole-file write; a points file: its appends, 300 bytes)
full() {
	local what=$1 dir=$2 file=${3%.tmp} rc n
	local want=/$(basename "$dir")/$3
	shift 3
	rm -rf "$dir"
	LD_PRELOAD=$shim MESS_FAULT_FILE=$want MESS_FAULT_BYTES=${BYTES:-300} \
		"$mess" "$@" --out "$dir" >/dev/null 2>"$dir.err"
	rc=$?
	n=$(grep -c -e "cannot write" -e "setup failed" -e "Input/output" -e "failed:" "$dir.err")
	check "$what, $file full: exit 2 (got $rc)" '[ $rc -eq 2 ]'
	check "$what, $file full: one line names it and 'disk full' ($n lines)" \
		'[ "$n" -eq 1 ] && grep -q "$dir/$file: cannot write: No space left on device (disk full)" "$dir.err"'
}
for f in meta.json resume.json; do
	full "curves (setup)" "$tmp/cf-${f%.json}" $f.tmp $Q
	check "curves (setup), $f full: said how to go on" \
		'grep -q -e "--resume $tmp/cf-${f%.json}" -e "run it again" "$tmp/cf-${f%.json}.err"'
	if [ -e "$tmp/cf-${f%.json}/resume.json" ]; then
		"$mess" --resume "$tmp/cf-${f%.json}" >/dev/null 2>&1
	else
		"$mess" $Q --out "$tmp/cf-${f%.json}" >/dev/null 2>&1
	fi
	check "curves (setup), $f full: then completed" 'whole "$tmp/cf-${f%.json}"'
done
# Late: past curves.csv's header (about 400 bytes since schema 4).
BYTES=800 full "curves (late)" "$tmp/cl" curves.csv $Q
"$mess" --resume "$tmp/cl" >/dev/null 2>&1
check "curves (late): --resume completes" 'whole "$tmp/cl"'
for f in meta.json.tmp absorption_points.csv; do
	full absorb "$tmp/af-${f%%.*}" $f $A
	check "absorb, $f full: --resume named" 'grep -q -- "--resume $tmp/af-${f%%.*}" "$tmp/af-${f%%.*}.err"'
	"$mess" absorb --resume "$tmp/af-${f%%.*}" >/dev/null 2>&1
	check "absorb, $f full: --resume completes" 'jq -e .complete "$tmp/af-${f%%.*}/meta.json" >/dev/null'
done
for f in compare.json compare.md meta.json; do
	full compare "$tmp/kf-${f%.*}" $f.tmp compare "$good" "$tmp/full" --no-plots
	check "compare, $f full: says run again" 'grep -q "run it again with a new --out" "$tmp/kf-${f%.*}.err"'
done
mkdir -p "$tmp/fleet" && cp -r "$good" "$tmp/fleet/n1" && cp -r "$good" "$tmp/fleet/n2"
for f in fleet.csv fleet.md meta.json; do
	full fleet "$tmp/ff-${f%.*}" $f.tmp fleet "$tmp/fleet" --no-plots
	check "fleet, $f full: says run again" 'grep -q "run it again with a new --out" "$tmp/ff-${f%.*}.err"'
done

# 9-10. A signal is noticed within about a second even in long runs: the
#    bound is 10 s, wide because make check runs this beside QEMU guests (a
#    9 s stop was seen at load 10), and the runs long (absorb's longest,
#    10 s; 30 s chase windows) so that a command waiting its run out fails
#    it mostly (absorb) or always (curves).  stopped SIG WAIT WHAT DIR
#    MESS-ARGS...: start mess into DIR, send SIG after WAIT s, check it.
stopped() {
	local sig=$1 wait=$2 what=$3 dir=$4 pid rc ms t0
	shift 4
	"$mess" "$@" --out "$dir" >/dev/null 2>&1 &
	pid=$!
	sleep "$wait"
	t0=$(date +%s%N)
	kill -"$sig" $pid
	wait $pid
	rc=$?
	ms=$((($(date +%s%N) - t0) / 1000000))
	echo "faults: $what stopped ${ms} ms after SIG$sig"
	check "SIG$sig: exit 130 (got $rc)" '[ $rc -eq 130 ]'
	check "SIG$sig: stopped within 10 s (took $ms ms)" '[ $ms -lt 10000 ]'
	check "SIG$sig: meta.json says incomplete, no latency made up" \
		'jq -e ".complete == false and (.unloaded_ns == null or .unloaded_ns > 0)" "$dir/meta.json" >/dev/null'
}
stopped INT 6 "mess absorb (10 s runs)" "$tmp/slow" \
	absorb --no-plots --kernels stream --modes fp_add64 --run-ms 10000 --cores 1
stopped TERM 8 "mess (curves, 30 s chase windows)" "$tmp/term" \
	--no-plots --buffer 32M --gen-bytes 8M --chase-ms 30000

# 11. A replay (of the quick run) is never resumed: a full disk or a
#     signal ends it with the partial result and the advice to run the same
#     command again into the same --out, which then completes it.  The
#     signal is sent once the replay said "writing" and is blocked on its
#     unread stderr (a pipe), so it always lands mid-sweep.
R="--replay $good --no-plots --mixes all --points 200"
d=$tmp/f-replay
LD_PRELOAD=$shim MESS_FAULT_FILE=/f-replay/curves.csv MESS_FAULT_BYTES=1500 \
	"$mess" $R --out "$d" >/dev/null 2>"$tmp/fr.err"
rc=$?
check "replay, disk full: exit 2 (got $rc)" '[ $rc -eq 2 ]'
check "replay, disk full: curves.csv and 'disk full' named, run it again advised (no --resume)" \
	'grep -q "f-replay/curves.csv: cannot write: No space left on device (disk full); a replay does not resume: free space, then run it again with the same --out $d" "$tmp/fr.err" &&
	 ! grep -q -- "--resume" "$tmp/fr.err"'
"$mess" $R --out "$d" >/dev/null 2>&1
rc=$?
check "replay, disk full: the same command again completes it (exit $rc)" '[ $rc -eq 0 ] && jq -e .complete "$d/meta.json" >/dev/null'
for sig in INT TERM; do
	d=$tmp/s$sig-replay
	rm -f "$tmp/fifo" && mkfifo "$tmp/fifo"
	"$mess" $R --out "$d" >/dev/null 2>"$tmp/fifo" &
	pid=$!
	exec 3<"$tmp/fifo"
	while IFS= read -r line <&3; do
		echo "$line" >>"$tmp/s$sig.err"
		case $line in "mess: writing "*) break ;; esac
	done
	kill -$sig $pid
	cat <&3 >>"$tmp/s$sig.err"
	exec 3<&-
	wait $pid
	rc=$?
	check "replay, SIG$sig: exit 130 (got $rc), the run again advised" \
		'[ $rc -eq 130 ] && grep -q "mess: interrupted; partial result in $d (a replay does not resume: run it again with the same --out $d)" "$tmp/s$sig.err"'
	check "replay, SIG$sig: the summary written, meta.json incomplete" \
		'[ -s "$d/summary.md" ] && jq -e ".complete == false" "$d/meta.json" >/dev/null'
	"$mess" $R --out "$d" >/dev/null 2>"$tmp/s$sig-2.err"
	rc=$?
	check "replay, SIG$sig: the same command again completes it (exit $rc)" \
		'[ $rc -eq 0 ] && jq -e .complete "$d/meta.json" >/dev/null'
done

# 12. mess report on a full disk (issue 43 item 15): "disk full" in one
#     line naming the file, the page's (exit 2) or the figure's data (the
#     page still written), never "Input/output error".
for file in report.html.tmp .curves-new.dat; do
	d=$tmp/r12-${file#.}
	cp -r "$good" "$d"
	LD_PRELOAD=$shim MESS_FAULT_FILE=/$file "$mess" report "$d" --peak-gbs 100 >/dev/null 2>"$tmp/r12.err"
	rc=$?
	want=2 && [ "$file" = .curves-new.dat ] && want=0
	check "report, $file on a full disk: exit $want (got $rc), one line naming it with 'disk full' ($(cat "$tmp/r12.err"))" \
		'[ $rc -eq $want ] && [ $(wc -l <"$tmp/r12.err") -eq 1 ] && grep -q "${file%.tmp}: No space left on device (disk full)" "$tmp/r12.err"'
done
# 13. import writes its page under its lock (issue 43 item 4): while the
#     page is being written (its open slowed by the shim) the lock is
#     held, and a report DIR --peak-gbs in that window is refused.
if [ -d "$raw" ]; then
	d=$tmp/i13
	LD_PRELOAD=$shim MESS_FAULT_SLOW_FILE=/report.html.tmp MESS_FAULT_SLOW_MS=3000 \
		"$mess" import "$raw" --out "$d" >/dev/null 2>"$tmp/i13.err" & p=$!
	for i in $(seq 400); do [ -e "$d/meta.json" ] && break; sleep 0.05; done
	sleep 0.5
	flock -n "$d/.lock" true 2>/dev/null
	held=$?
	"$mess" report "$d" --no-plots --peak-gbs 77 >/dev/null 2>"$tmp/r13.err"
	rc=$?
	wait $p
	check "import: the lock held while its page is written (flock -n: $held)" '[ $held -ne 0 ]'
	check "import: report DIR --peak-gbs while import writes the page: refused (rc $rc, $(cat "$tmp/r13.err"))" '[ $rc -eq 1 ] && grep -q "is being written by" "$tmp/r13.err"'
	check "import: its page is whole" 'grep -q "</html>" "$d/report.html"'
fi

# 14. The floor under which a chase window read nothing is the chase
#     core's own L1 hit x 0.8 (issue 46), not a fixed 0.8 ns: an L1 that
#     reads 4000 ns (the hook) makes every window of about 100 ns
#     impossible, where the fixed floor kept them all: discarded, counted,
#     no figure, INVALID for them; the floor and its source in meta.json.
d=$tmp/l1
MESS_FAULT_L1_NS=4000 "$mess" $Q --out "$d" >/dev/null 2>"$tmp/l1.err"
rc=$?
check "L1 of 4000 ns: the run ends (exit $rc)" '[ $rc -eq 0 ]'
check "L1 of 4000 ns: floor 3200 ns from it in meta.json quality.windows" \
	'jq -e ".quality.windows.floor_ns == 3200 and .quality.windows.floor_source == \"MESS_FAULT_L1_NS 4000.00 ns x 0.8\"" "$d/meta.json" >/dev/null'
check "L1 of 4000 ns: every chase window discarded ($(jq .quality.windows.impossible "$d/meta.json")), no latency in curves.csv" \
	'jq -e ".quality.windows.impossible > 0" "$d/meta.json" >/dev/null &&
	 awk -F, "NR == 1 && \$7 != \"lat_ns\" { exit 1 } NR > 1 && \$7 != \"\" { exit 1 }" "$d/curves.csv"'
check "L1 of 4000 ns: INVALID, the reason impossible naming the floor" \
	'jq -e ".quality.verdict == \"INVALID\" and any(.quality.reasons[]; .rule == \"impossible\" and .level == \"INVALID\" and (.text | test(\"below 3200.00 ns: MESS_FAULT_L1_NS 4000.00 ns x 0.8\")))" "$d/meta.json" >/dev/null'
check "a run without the hook: the floor 0.8 x the L1 hit measured on its chase core" \
	'jq -e ".quality.windows.floor_source | test(\"^measured L1 hit [0-9.]+ ns x 0.8$\")" "$tmp/full/meta.json" >/dev/null &&
	 jq -e "(.quality.windows.floor_source | capture(\"hit (?<l1>[0-9.]+) ns\").l1 | tonumber) * 0.8 - .quality.windows.floor_ns | fabs < 0.01" "$tmp/full/meta.json" >/dev/null'

echo "faults: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
