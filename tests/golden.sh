#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# usage: tests/golden.sh MESS OUTDIR [--record]
#
# The outputs of fixed-seed, deterministic invocations, compared with the
# ones recorded in tests/golden/ (issue 33: behaviour unchanged, proven):
#   - mess curves --replay of every public set in ../shared/reference/
#     mess-results (seed 1, noise CV 0.01; one set again with disturbed
#     points, seed 2): the whole run directory but its .lock;
#   - mess export of one replayed run in every --format, and of a public
#     set to PROFET (--ghz);
#   - mess compare of a replayed run, its set and two exports of it
#     (four readers), with an application;
#   - mess import of both raw Mess trees;
#   - mess fleet on a synthetic fleet (tests/fleet-synth.sh, no jitter)
#     made from a replayed run, two nodes made sick;
#   - mess report of a public set and of a replayed run again.
# Every command's stdout and stderr are kept beside its files (NAME.out).
# No plots: gnuplot's output carries its version and fonts.
#
# What legitimately varies is normalised before the comparison (normalise
# below): in JSON the values of keys holding times, revisions and this
# host's identity become "@KEY@" (the key stays, so a key lost is seen);
# in every file the reference and output directories' paths, UTC
# timestamps, git revisions and run durations become placeholders.
# Whatever else differs is a change of output: on purpose, record again
# (tests/golden.sh MESS DIR --record, or make check-golden GOLDEN=--record)
# and commit tests/golden/ with the change that explains it.
#
# The recordings are x86_64's (tests/golden/ISA): elsewhere the compiler
# may contract multiply-adds and move the last digits, so another ISA is
# skipped (exit 77), never passed.
set -u
[ $# -ge 2 ] || { sed -n '3,33p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2; }
mess=$(realpath "$1")
# The hints name the command as it was invoked (mess_invocation): this
# checkout's path would be recorded; every hint says "mess" here.
export MESS_INVOKED_AS=mess
here=$(cd "$(dirname "$0")" && pwd)
golden=$here/golden
record=${3:-}
ref=$(realpath -m "${MESS_REFERENCE:-$here/../../shared/reference/mess-results}")
refroot=$(dirname "$ref")
raw=$refroot/mess-results-raw
skip() {
	echo "SKIPPED golden: $1"
	echo "golden: $1" >>"${SKIPPED_FILE:-/dev/null}"
	exit 77
}
for t in jq awk sed diff; do
	command -v $t >/dev/null || skip "no $t"
done
. "$here/reference.sh"
[ -d "$ref" ] || { no_reference golden "no public sets at $ref"; exit 77; }
[ -d "$raw" ] || { no_reference golden "no raw Mess trees at $raw"; exit 77; }
isa=$(uname -m)
if [ "$record" != --record ] && [ "$(cat "$golden/ISA" 2>/dev/null)" != "$isa" ]; then
	skip "recorded on $(cat "$golden/ISA" 2>/dev/null || echo nothing), this is $isa"
fi

mkdir -p "$2"
out=$(realpath "$2")
rm -rf "$out/run" "$out/norm"
mkdir -p "$out/run" "$out/norm"
cd "$out/run" || exit 2
start=$(date +%s)
# run NAME ARGS...: mess ARGS, its stdout and stderr in NAME.out, its exit
# status on the last line (a refusal is output too).
run() {
	local name=$1
	shift
	mkdir -p "$(dirname "$name")"
	"$mess" "$@" >"$name.out" 2>&1
	echo "exit $?" >>"$name.out"
}

# ---- curves --replay: every public set ----
sets=$(cd "$ref" && for d in */; do [ -f "$d/memory_curves.csv" ] && echo "${d%/}"; done)
[ -n "$sets" ] || { no_reference golden "no set in $ref"; exit 77; }
for s in $sets; do
	run "curves/$s-replay" curves --replay "$ref/$s" --replay-noise 0.01 --replay-seed 1 \
		--no-plots --out "curves/$s-replay"
done
g=MN5-GPP-SPR8480-DDR5
run curves/$g-disturbed-replay curves --replay "$ref/$g" --replay-noise 0.03 --replay-seed 2 \
	--replay-disturb 0.2 --no-plots --out curves/$g-disturbed-replay
rm -f curves/*/.lock

# ---- export: every format ----
for f in mess profet csv json; do
	run export/$g-$f export curves/$g-replay --format $f --out export/$g-$f
done
run export/hbm-profet export "$ref/MN5-HBM-XeonMax9480-HBM2" --format profet --ghz 2 --out export/hbm-profet

# ---- compare: a run, its set, two exports of it ----
run compare/replay-set compare curves/$g-replay "$ref/$g" export/$g-mess export/$g-profet/curves.json \
	--ghz 2.976174 --app 70:150 --app 100:200 --no-plots --out compare/replay-set
run compare/ddr-hbm compare "$ref/$g" "$ref/MN5-HBM-XeonMax9480-HBM2" --no-plots --out compare/ddr-hbm

# ---- import: both raw trees ----
for t in "$raw"/*/; do
	t=${t%/}
	run "import/${t##*/}" import "$t" --no-plots --out "import/${t##*/}"
done
# The import against the tree's own processed curves (the raw tree's reader).
i=MN5-GPP-SPR8480-DDR5-AVX2-local
run compare/import-raw compare import/$i "$raw/$i" --no-plots --out compare/import-raw

# ---- fleet: a synthetic one ----
# Its source is the replayed run with this host's identity replaced by a
# fixed one: fleet.csv and fleet.md group nodes by it, as bare values.
mkdir -p fleet/src
cp curves/$g-replay/curves.csv curves/$g-replay/summary.json fleet/src/
jq '.host = "golden" | .kernel = "golden" | .compiler = "golden" | .cflags = "golden" |
	.cores.machine_cores = 2 | .numa_nodes = 1' curves/$g-replay/meta.json >fleet/src/meta.json
JITTER=0 "$here/fleet-synth.sh" fleet/src fleet/nodes 12 5:bw=0.8 9:lat=1.15 >/dev/null ||
	{ echo "FAIL: tests/fleet-synth.sh"; exit 2; }
run fleet/out fleet fleet/nodes --no-plots --out fleet/out
rm -rf fleet/src fleet/nodes

# ---- report: a public set, a replayed run again ----
run report/set report "$ref/MN5-HBM-XeonMax9480-HBM2" --no-plots --out report/set
cp -r curves/$g-replay report/run
rm -f report/run/report.html
run report/run report report/run --no-plots
# Only the page is new: the rest is the replayed run's, kept above.
find report/run -type f ! -name report.html -delete

find . -name .lock -delete
took=$(($(date +%s) - start))

# ---- normalise ----
# Where this build and this host are named, by the keys and rows that
# name them; the host name also where prose gives it ("on HOST").
export G_OUT=$out/run G_REF=$refroot
G_HOST=$(jq -r '.host // empty' curves/$g-replay/meta.json)
export G_HOST
cp -r . "$out/norm"
# git keeps no empty folder: a recording checked out holds none
find "$out/norm" -mindepth 1 -type d -empty -delete
# shellcheck disable=SC2016 # perl's variables, not the shell's
find "$out/norm" -type f -print0 | xargs -0 perl -pi -e '
	s/\Q$ENV{G_OUT}\E/\@OUT\@/g;
	s/\Q$ENV{G_REF}\E/\@REF\@/g;
	s/\(git [^)]*\)/(git \@REV\@)/g;
	s/"(git_revision|host|kernel|compiler|cflags)": "[^"]*"/"$1": "\@\U$1\E\@"/g;
	s/<th>(host|kernel)<\/th><td>[^<]*</<th>$1<\/th><td>\@\U$1\E\@</g;
	s/(<th>tool<\/th><td>[^<]*\(git \@REV\@\)), [^<]*</$1, \@COMPILER\@</g;
	s/ on \Q$ENV{G_HOST}\E( \(|<\/h1>)/ on \@HOST\@$1/g if length $ENV{G_HOST};
	s/"(machine_cores|numa_nodes)": \d+/"$1": "\@\U$1\E\@"/g;
	s/(of the machine.s) \d+/$1 \@MACHINE_CORES\@/g;
	s/"(wide|vec|wide_nt|nt|scalar)": "[^"]*"/"$1": "\@CPU\@"/g;
	s/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ/\@UTC\@/g;
	s/\d+ min \d\d s\b/\@DURATION\@/g;
	s/\| ETA .*$/| ETA \@ETA\@/;
'
echo "$isa" >"$out/norm/ISA"

# ---- record, or compare ----
if [ "$record" = --record ]; then
	rm -rf "$golden"
	cp -r "$out/norm" "$golden"
	echo "golden: recorded $(find "$golden" -type f | wc -l) files ($(du -sb "$golden" | cut -f1) bytes) in tests/golden/ (ran in $took s)"
	exit 0
fi
if ! diff -r "$golden" "$out/norm" >"$out/diff.txt" 2>&1; then
	echo "FAIL: golden: the outputs differ from tests/golden/ (all of it: $out/diff.txt); the first files:"
	diff -rq "$golden" "$out/norm" | head -n 10 | sed 's/^/    /'
	head -n 40 "$out/diff.txt"
	echo "golden: a change on purpose is recorded again: tests/golden.sh MESS DIR --record, then commit tests/golden/"
	exit 1
fi
echo "golden: $(find "$golden" -type f | wc -l) files identical to tests/golden/ (ran in $took s)"
