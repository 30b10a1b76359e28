#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The writer contract (issue 31): every command that writes a directory
# takes it through one path (its kind checked, its .lock taken, only then
# anything deleted or written).  Whichever two commands meet in one
# directory, exactly one owns it; the other says so in one line before
# touching anything, and nothing the owner wrote is lost.  Readers take
# nothing.
#   A. every writer into a directory another process holds (the lock);
#   B. every writer into the finished result of every fast writer;
#   C. two of the same writer at once;
#   D. readers beside a writer that holds the directory;
#   G. links planted in a writer's directory (every writer);
#   H. an interrupted compare, a hung gnuplot.
# usage: tests/contract.sh MESS
set -u
mess=$(realpath "$1")
ref=$(realpath "$(dirname "$0")/../../shared/reference" 2>/dev/null || true)
fx=$(realpath "$(dirname "$0")/fixtures/trace")
. "$(dirname "$0")/reference.sh"
tmp=$(mktemp -d)
holder=
trap '[ -n "$holder" ] && kill $holder 2>/dev/null; rm -rf "$tmp"' EXIT
# hold FILE: the lock held by a process that is itself the sleep (so that
# killing $holder frees it; flock(1) FILE sleep would leave its child
# sleeping for 10 min, the lock and make's output pipe with it).
hold() {
	exec 9<>"$1" >/dev/null 2>&1
	flock 9 && exec sleep 600
}
pass=0 fail=0
check() {
	if (eval "$2"); then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL: $1"; fi
}
cd "$tmp" || exit 1
S="--quick --no-plots --buffer 32M --gen-bytes 8M --chase-ms 5"

# Inputs the writers read: a curve run, two public sets (or our run where
# ../shared is absent), a raw Mess tree, a fleet of two nodes.
"$mess" $S --out run >/dev/null 2>&1 || { echo "FAIL: the input run"; exit 1; }
G=$ref/mess-results/Grace-LPDDR5
A=$ref/mess-results/CTE-AMD-EPYC7742-DDR4
RAW=$ref/mess-results-raw/MN5-GPP-SPR8480-DDR5-AVX2-local
[ -d "$G" ] || G=$tmp/run
[ -d "$A" ] || A=$tmp/run
[ -d "$RAW" ] || no_reference contract "no raw Mess tree at $RAW: import left out of the writers"
mkdir -p fleet && cp -r run fleet/n1 && cp -r run fleet/n2

# One command line per writer, writing into $1.  The directories' names
# say replay: a replay refuses any other (a replay is never mistaken for
# a measurement).
w_curves() { "$mess" $S --out "$1"; }
w_replay() { "$mess" --replay "$G" --no-plots --out "$1"; }
w_absorb() { "$mess" absorb --quick --no-plots --out "$1"; }
w_ladder() { "$mess" ladder --quick --no-plots --out "$1"; }
w_sample() { "$mess" sample --out "$1"; }
w_compare() { "$mess" compare "$G" "$A" --no-plots --out "$1"; }
w_fleet() { "$mess" fleet fleet --no-plots --out "$1"; }
w_position() { "$mess" position --curves run "$fx/perf-imc-spr.csv" --no-plots --out "$1"; }
w_profile() { "$mess" profile --out "$1" -- true; }
w_export() { "$mess" export "$G" --out "$1"; }
w_import() { "$mess" import "$RAW" --out "$1"; }
w_report() { "$mess" report "$A" --no-plots --out "$1"; }
w_matrix() { "$mess" matrix --quick --no-plots --out "$1"; }
w_interfere() { "$mess" interfere --quick --no-plots --out "$1"; }
w_c2c() { "$mess" c2c --quick --no-plots --out "$1"; }
writers="curves replay absorb ladder sample compare fleet position profile export import report matrix interfere c2c"
[ -d "$RAW" ] || writers=${writers/import/}

# Every file under a directory, .lock aside (its text names the last
# holder), with its content.
sums() { (cd "$1" && find . -type f ! -name .lock -print0 | sort -z | xargs -0 md5sum 2>/dev/null) | md5sum; }
# A refusal: exit 1 (or 3: cannot run here at all, said before anything),
# one line on stderr, nothing on stdout.
refused() {
	local rc=$1 err=$2 out=$3
	{ [ "$rc" -eq 1 ] || [ "$rc" -eq 3 ]; } && [ "$(wc -l <"$err")" -eq 1 ] && [ ! -s "$out" ]
}

# A. The directory held by another process (flock(1) stands for a
#    writer mid-run): every writer refuses in one line naming the lock,
#    and the owner's files are as they were.
D=$tmp/held-replay
w_compare "$D" >/dev/null 2>&1
before=$(sums "$D")
hold "$D/.lock" & holder=$!
for i in $(seq 50); do flock -n "$D/.lock" true 2>/dev/null || break; sleep 0.1; done
for w in $writers; do
	start=$(date +%s)
	w_$w "$D" >"$w.out" 2>"$w.err"
	rc=$?
	took=$(( $(date +%s) - start ))
	check "A: $w into a held directory: refused in one line (rc $rc, $(head -c 300 "$w.err"))" 'refused $rc "$w.err" "$w.out"'
	# Held, or (for those that check first without the lock) not empty.
	check "A: $w into a held directory: the lock named, or not supported here" '[ $rc -eq 3 ] || grep -q -e "is being written by" -e "not empty" -e "not an empty" -e "already holds" "$w.err"'
	check "A: $w into a held directory: nothing changed" '[ "$(sums "$D")" = "$before" ]'
	# Before any measuring: the probes and sweeps take seconds.
	check "A: $w refused before measuring (${took}s)" '[ $took -le 5 ]'
done
# mess report on the held run itself (no --out): the run's own page is
# not rewritten under its writer.
"$mess" report "$D" >r.out 2>r.err
rc=$?
check "A: report DIR while DIR is held: refused (rc $rc)" 'refused $rc r.err r.out && grep -q "is being written by" r.err'
check "A: report DIR while DIR is held: nothing changed" '[ "$(sums "$D")" = "$before" ]'
kill $holder 2>/dev/null; wait $holder 2>/dev/null; holder=

# B. Into the finished result of a fast writer: every other writer
#    refuses and leaves it whole; the same writer again refuses too,
#    except those that replace their own earlier result (compare, report).
owners="curves replay compare export report"
[ -d "$RAW" ] && owners="$owners import"
for o in $owners; do
	D=$tmp/$o-owner-replay
	w_$o "$D" >/dev/null 2>"$o.owner.err" || { check "B: the $o owner ran ($(tail -1 "$o.owner.err"))" false; continue; }
	before=$(sums "$D")
	for w in $writers; do
		if [ "$w" = "$o" ] && { [ $w = compare ] || [ $w = report ]; }; then
			continue
		fi
		w_$w "$D" >"$w.out" 2>"$w.err"
		rc=$?
		check "B: $w into a finished $o: refused in one line (rc $rc, $(head -c 300 "$w.err"))" 'refused $rc "$w.err" "$w.out"'
		check "B: $w into a finished $o: nothing lost" '[ "$(sums "$D")" = "$before" ]'
	done
	# What each owner wrote still reads as its consumers read it.
	case $o in
	curves|replay|import) check "B: the $o result still loads" '"$mess" export "$D" --force --out "$tmp/$o-reread" >/dev/null 2>&1' ;;
	export) check "B: the export still loads" '"$mess" report "$D" --no-plots --out "$tmp/$o-reread" >/dev/null 2>&1' ;;
	compare) check "B: the comparison is whole" 'jq -e .sets "$D/compare.json" >/dev/null' ;;
	report) check "B: the report is whole" 'grep -q "</html>" "$D/report.html"' ;;
	esac
done
# The two that replace their own: exit 0, and the result whole again.
for o in compare report; do
	D=$tmp/$o-owner-replay
	w_$o "$D" >/dev/null 2>"$o.again.err"
	rc=$?
	check "B: $o into its own earlier result: replaced (rc $rc)" '[ $rc -eq 0 ]'
done
check "B: the comparison replaced is whole" 'jq -e .sets "$tmp/compare-owner-replay/compare.json" >/dev/null'

# C. Two of the same writer at once: exactly one result, the other
#    refused in one line (held or, when it came second, not empty).
for w in import export compare report replay; do
	[ $w = import ] && [ ! -d "$RAW" ] && continue
	D=$tmp/two-$w-replay
	w_$w "$D" >"$w.1.out" 2>"$w.1.err" & p1=$!
	w_$w "$D" >"$w.2.out" 2>"$w.2.err" & p2=$!
	wait $p1; r1=$?
	wait $p2; r2=$?
	ok=0
	{ [ $r1 -eq 0 ] && [ $r2 -eq 1 ]; } && ok=2
	{ [ $r1 -eq 1 ] && [ $r2 -eq 0 ]; } && ok=1
	# compare, report and replay replace their own finished result: one
	# after the other both may succeed, never both at once.
	if [ $ok -eq 0 ] && [ $r1 -eq 0 ] && [ $r2 -eq 0 ]; then
		case $w in compare|report) ok=3 ;; esac
	fi
	check "C: two $w at once: one owns it (rc $r1, $r2)" '[ $ok -ne 0 ]'
	[ $ok -eq 1 ] || [ $ok -eq 2 ] && \
		check "C: two $w at once: the other said so in one line ($(tail -1 "$w.$ok.err"))" '[ "$(grep -c -e "is being written by" -e "already holds" -e "not empty" "$w.$ok.err")" -eq 1 ] && tail -1 "$w.$ok.err" | grep -q -e "is being written by" -e "already holds" -e "not empty"'
	case $w in
	import) check "C: two imports: the run is whole" '"$mess" export "$D" --force --out "$tmp/two-import-x" >/dev/null 2>&1' ;;
	export) check "C: two exports: the set is whole" '[ -s "$D/info.txt" ] && [ $(ls "$D"/bwlat_*.txt | wc -l) -gt 0 ] && ! ls -a "$D" | grep -q mess-partial' ;;
	esac
done

# D. Readers take nothing: beside a writer that holds the directory,
#    export, compare and report (into another directory) read it.
D=$tmp/import-owner-replay
[ -d "$RAW" ] || D=$tmp/curves-owner-replay
hold "$D/.lock" & holder=$!
for i in $(seq 50); do flock -n "$D/.lock" true 2>/dev/null || break; sleep 0.1; done
"$mess" export "$D" --force --out "$tmp/read-x" >/dev/null 2>d1.err
check "D: export reads a held directory ($(tail -1 d1.err))" '[ -s "$tmp/read-x/info.txt" ]'
"$mess" compare "$D" "$A" --no-plots --out "$tmp/read-c" >/dev/null 2>d2.err
check "D: compare reads a held directory ($(tail -1 d2.err))" '[ -s "$tmp/read-c/compare.json" ]'
"$mess" report "$D" --no-plots --out "$tmp/read-r" >/dev/null 2>d3.err
check "D: report reads a held directory into another ($(tail -1 d3.err))" '[ -s "$tmp/read-r/report.html" ]'
kill $holder 2>/dev/null; wait $holder 2>/dev/null; holder=

# E. The lock's own failures name .lock: a link, a directory.
for kind in link dir; do
	D=$tmp/lock-$kind
	mkdir -p "$D"
	if [ $kind = link ]; then ln -s /nonexistent "$D/.lock"; else mkdir "$D/.lock"; fi
	w_export "$D" >e.out 2>e.err
	rc=$?
	check "E: .lock a $kind: refused in one line naming .lock (rc $rc: $(cat e.err))" '[ $rc -eq 1 ] && [ $(wc -l <e.err) -eq 1 ] && grep -q "\.lock" e.err'
done

# F. The defects of the third probe that the contract answers, each as
#    it was found (issue 31, numbered as there).
# 2. A redraw that cannot run (no gnuplot on PATH) keeps the figures.
D=$tmp/fig
cp -r run "$D"
"$mess" report "$D" --peak-gbs 100 >/dev/null 2>&1
sum=$(md5sum <"$D/plots/curves.svg")
PATH=/nonexistent "$mess" report "$D" --peak-gbs 300 >/dev/null 2>f2.err
check "2: report --peak-gbs without gnuplot: the figure kept, the failure said" '[ -s "$D/plots/curves.png" ] && [ "$(md5sum <"$D/plots/curves.svg")" = "$sum" ] && grep -q "not drawn" f2.err'
# 5. report RUN1 --out RUN2: another run's page is not overwritten.
sum=$(sums "$tmp/curves-owner-replay")
"$mess" report "$A" --out "$tmp/curves-owner-replay" >f5.out 2>f5.err
rc=$?
check "5: report into another run: refused in one line (rc $rc)" 'refused $rc f5.err f5.out && grep -q "holds a run of" f5.err'
check "5: report into another run: nothing changed" '[ "$(sums "$tmp/curves-owner-replay")" = "$sum" ]'
# 7. Two sets of one name into one --out: two pages.
mkdir -p a b && ln -s "$G" a/set && ln -s "$A" b/set
"$mess" report a/set b/set --no-plots --out two >f7.out 2>f7.err
check "7: two sets of one name: two pages, two paths printed" '[ $(sort -u f7.out | wc -l) -eq 2 ] && [ -s two/set/report.html ] && [ -s two/set-2/report.html ] && ! cmp -s two/set/report.html two/set-2/report.html'
# 19. Nothing readable: exit 1, said, nothing written.
mkdir -p empty
for d in empty /etc; do
	"$mess" report "$d" --out "$tmp/r19" >f19.out 2>f19.err
	rc=$?
	check "19: report $d: exit 1, one line (rc $rc)" '[ $rc -eq 1 ] && [ $(wc -l <f19.err) -eq 1 ] && [ ! -e "$tmp/r19" ]'
done
# 33. report --out FILE: exit 1 as every command.
touch afile
"$mess" report "$G" --out afile >/dev/null 2>f33.err
rc=$?
check "33: report --out FILE: exit 1 (rc $rc)" '[ $rc -eq 1 ] && [ $(wc -l <f33.err) -eq 1 ]'
# 24. export --out DIR/ and --out LINK to an empty directory.
"$mess" export "$G" --out "$tmp/x24/" >/dev/null 2>f24.err
check "24: export --out DIR/: written ($(cat f24.err | tail -1))" '[ -s "$tmp/x24/info.txt" ]'
mkdir -p x24t && ln -s x24t x24l
"$mess" export "$G" --out x24l >/dev/null 2>f24.err
check "24: export --out LINK: written through it ($(tail -1 f24.err))" '[ -s x24t/info.txt ]'
# 1. compare into a held comparison: refused before deleting anything
#    (A covers it for every writer; here the message's order).
# 23. import killed midway leaves only what the rerun accepts.
if [ -d "$RAW" ]; then
	D=$tmp/i23
	"$mess" import "$RAW" --out "$D" >/dev/null 2>&1 & p=$!
	sleep 0.3; kill -9 $p 2>/dev/null; wait $p 2>/dev/null
	# Killed before its end: no curves.csv without the meta.json that
	# makes it a run (a kill after the end finds the run whole).
	check "23: import killed: no half run left" '[ ! -e "$D/curves.csv" ] || [ -s "$D/meta.json" ]'
	"$mess" import "$RAW" --out "$D" >/dev/null 2>f23.err
	rc=$?
	check "23: import killed: the rerun is accepted (rc $rc, $(tail -1 f23.err))" '{ [ $rc -eq 0 ] || grep -q "not empty" f23.err; } && [ -s "$D/meta.json" ]'
	check "23: import: no build folder left" '! ls -A "$D" | grep -q mess-partial'
fi
# 32. absorb into a held directory says nothing of the machine first.
check "32: absorb refused before its probe's warnings" '[ $(wc -l <absorb.err) -eq 1 ]'

# G. Links planted in a writer's directory (issue 43): a writer works
#    inside the directory it holds and never through a link out of it.
#    a) a .mess-partial-x link in an empty --out (an interrupted build's
#       name, which the writer removes): the folder it names keeps its files;
#    b) (below) plots/ and files in it linked out of a directory that
#       already holds plots/ (a writer that takes only a new or empty
#       --out refuses one holding plots/ before anything);
#    c) a .lock that is a hard link: refused in one line, its other name
#       unchanged;
#    d) a refused writer leaves no .lock in a directory it did not own.
victim() { rm -rf "$1"; mkdir -p "$1/sub"; echo keep >"$1/f"; echo keep >"$1/sub/g"; }
vsum() { (cd "$1" && find . -type f -print0 | sort -z | xargs -0 md5sum) | md5sum; }
# Running, not a zombie waiting for its wait.
alive() { local s; s=$(ps -o stat= -p "$1" 2>/dev/null); [ -n "$s" ] && [ "${s#Z}" = "$s" ]; }
for w in $writers; do
	V=$tmp/victim-$w
	victim "$V"
	vs=$(vsum "$V")
	D=$tmp/ga-$w-replay
	mkdir -p "$D" && ln -s "$V" "$D/.mess-partial-x"
	# The leftover goes when the directory is claimed, before anything
	# is measured: the writer is stopped once it has gone (or the
	# victim changed), which keeps the slow writers' share short.
	# Its own process group (set -m), so that the stop reaches mess
	# and its children, not only the subshell running w_$w.
	set -m
	w_$w "$D" >/dev/null 2>ga.err & p=$!
	set +m
	for i in $(seq 300); do
		{ [ ! -L "$D/.mess-partial-x" ] || [ "$(vsum "$V")" != "$vs" ] || ! alive $p; } && break
		sleep 0.05
	done
	kill -9 -- -$p 2>/dev/null
	wait $p 2>/dev/null
	rc=$?
	check "G a: $w: a .mess-partial-x link in --out: the folder it names kept its files, the link removed, or left by a writer that finished (report, which removes nothing) or cannot run here (rc $rc, $(tail -1 ga.err | tr -d '\0'))" '[ "$(vsum "$V")" = "$vs" ] && { [ ! -L "$D/.mess-partial-x" ] || [ $rc -eq 3 ] || [ $rc -eq 0 ]; }'
	D=$tmp/gc-$w-replay
	mkdir -p "$D" && echo secret >"$tmp/vfile-$w" && ln "$tmp/vfile-$w" "$D/.lock"
	w_$w "$D" >gc.out 2>gc.err
	rc=$?
	check "G c: $w: .lock a hard link: refused in one line naming it, or not supported here (rc $rc, $(head -c 300 gc.err))" '[ $rc -eq 3 ] || { refused $rc gc.err gc.out && grep -q "\.lock" gc.err; }'
	check "G c: $w: .lock a hard link: its other name unchanged" '[ "$(cat "$tmp/vfile-$w")" = secret ]'
	D=$tmp/gd-$w-replay
	mkdir -p "$D" && echo mine >"$D/user-file"
	w_$w "$D" >gd.out 2>gd.err
	rc=$?
	check "G d: $w into a directory of someone's: refused, no .lock left (rc $rc, $(head -c 300 gd.err))" '[ $rc -ne 0 ] && [ ! -e "$D/.lock" ] && [ "$(ls -A "$D")" = user-file ]'
done
# b, drawn: the writers that draw into a directory that already holds
# plots/ (report redrawing a run's figure, compare replacing its own
# comparison), with links in plots/ where gnuplot and the writer put
# their files, symbolic and hard.
if command -v gnuplot >/dev/null; then
	V=$tmp/victim-plots
	rm -rf "$V" && mkdir -p "$V"
	D=$tmp/gb-report && cp -r run "$D" && mkdir -p "$D/plots"
	for f in gnuplot.log .curves-new.dat .curves-new.png .curves-new.svg curves.dat curves.svg tails.dat; do
		echo keep >"$V/$f" && ln -s "$V/$f" "$D/plots/$f"
	done
	echo keep >"$V/hard" && ln "$V/hard" "$D/plots/curves.png"
	vs=$(vsum "$V")
	"$mess" report "$D" --peak-gbs 100 >/dev/null 2>gbr.err
	rc=$?
	check "G b: report redraws through links in plots/: nothing written through (rc $rc, $(tail -1 gbr.err))" '[ "$(vsum "$V")" = "$vs" ] && [ $rc -eq 0 ] && [ -s "$D/plots/curves.svg" ] && [ ! -L "$D/plots/curves.svg" ]'
	D=$tmp/gb-report2 && cp -r run "$D" && victim "$V" && vs=$(vsum "$V") && ln -s "$V" "$D/plots"
	"$mess" report "$D" --peak-gbs 100 >/dev/null 2>gbr.err
	check "G b: report into a run whose plots/ is a link: the folder it names unchanged ($(tail -1 gbr.err))" '[ "$(vsum "$V")" = "$vs" ]'
	D=$tmp/gb-compare
	w_compare "$D" >/dev/null 2>&1
	rm -rf "$V" && mkdir -p "$V" "$D/plots"
	for f in gnuplot.log compare.dat compare-ratio.dat compare.png compare-ratio.svg; do
		echo keep >"$V/$f" && ln -s "$V/$f" "$D/plots/$f"
	done
	vs=$(vsum "$V")
	"$mess" compare "$G" "$A" --out "$D" >/dev/null 2>gbc.err
	rc=$?
	check "G b: compare redraws through links in plots/: nothing written through (rc $rc, $(tail -1 gbc.err))" '[ "$(vsum "$V")" = "$vs" ]'
fi

# H. The writer's other defects of issue 43, each as it was found.
# 5. compare interrupted (SIGINT, SIGTERM) while gnuplot draws: exit 130
#    and one line; the rerun into the same --out replaces what it left,
#    as it does a compare.md.tmp a kill left.
mkdir -p slowbin && printf '#!/bin/sh\nexec sleep 30\n' >slowbin/gnuplot && chmod +x slowbin/gnuplot
for sig in INT TERM; do
	D=$tmp/h5-$sig
	PATH=$tmp/slowbin:$PATH "$mess" compare "$G" "$A" --out "$D" >h5.out 2>h5.err & p=$!
	for i in $(seq 200); do [ -e "$D/plots/gnuplot.log" ] && break; sleep 0.05; done
	kill -$sig $p
	wait $p
	rc=$?
	check "5: compare killed by SIG$sig: exit 130, one line ($rc: $(cat h5.err))" '[ $rc -eq 130 ] && [ $(wc -l <h5.err) -eq 1 ] && grep -q interrupted h5.err'
	w_compare "$D" >/dev/null 2>h5.err
	rc=$?
	check "5: compare after SIG$sig: the rerun on the same --out replaces it (rc $rc, $(tail -1 h5.err))" '[ $rc -eq 0 ] && jq -e .sets "$D/compare.json" >/dev/null'
done
touch "$tmp/h5-INT/compare.md.tmp" "$tmp/h5-INT/compare.json.tmp"
w_compare "$tmp/h5-INT" >/dev/null 2>h5.err
rc=$?
check "5: compare over its own .tmp leftovers: replaced (rc $rc, $(tail -1 h5.err))" '[ $rc -eq 0 ] && [ ! -e "$tmp/h5-INT/compare.md.tmp" ]'
# 16. gnuplot that never exits: killed after MESS_GNUPLOT_TIMEOUT_S, said
#     in one line, the page written without the figure.
D=$tmp/h16 && cp -r run "$D"
start=$(date +%s)
MESS_GNUPLOT_TIMEOUT_S=1 PATH=$tmp/slowbin:$PATH "$mess" report "$D" --peak-gbs 100 >h16.out 2>h16.err
rc=$?
took=$(( $(date +%s) - start ))
check "16: gnuplot hung: report ends (rc $rc, ${took}s), one line says the figure was skipped ($(cat h16.err))" '[ $rc -eq 0 ] && [ $took -lt 25 ] && [ $(wc -l <h16.err) -eq 1 ] && grep -q "did not finish in 1 s" h16.err && [ -s "$D/report.html" ]'

echo "contract: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
