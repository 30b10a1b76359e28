#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Round trips (issue 35 item 4): every public curve set and both raw Mess
# trees exported in each consumer's format, read back by that consumer's
# own reading rules (tests/roundtrip_read.py: the Mess simulator's bwlat
# loader, PROFET's Curves() directory and JSON reader, Mess's CSV as
# pandas reads it), and compared with what was exported, within the
# consumer's rounding:
#  - mess:   51 files bwlat_0 .. bwlat_100, two numbers a line, highest
#            bandwidth first, equal to the --format json export's curves
#            (full precision, MB/s and ns) within the 3 decimals written;
#  - profet: the folder's one .json, keys int(R), [[MB/s, cycles]] sorted
#            by bandwidth: cycles / info.txt CPU_FREQ equal those ns
#            (within CPU_FREQ's 6 decimals);
#            and a --format mess folder refused by that same loader;
#  - csv:    memory_curves.csv rows keyed (read_pct_rounded, pause) equal
#            the source's rows (a public set's own memory_curves.csv, a
#            raw tree's `mess import` curves.csv) within the decimals
#            written (6; a run's latency 4).
# Issue 48, the consumers mess did not write before, each read by its rule
# as a python3 reader written below (sim_read), strict, on a fresh replay
# run, two public sets and an imported raw tree:
#  - mess-json:  the newer MessMemCtrl's one file: exactly the top-level
#            keys measuredChannels (an integer, = info.txt CHANNELS, from
#            the set's plotter.txt) and curves ("0" .. "100", pairs of
#            numbers); an unknown key is an error;
#  - ramulator2: every line exactly three numbers, read_pct an even
#            integer 0..100;
#  both equal to the json export's curves within the decimals written, and
#  every point of a share curve-sources.tsv calls measured is one of the
#  source's own points (curves.csv / memory_curves.csv), the 0 GB/s row
#  aside.  And: mess-json without a channel count refused (one line,
#  --channels, nothing written); --unloaded-row; the read axis of an AMD
#  set said, and mapped by --read-axis memory; curve-sources.tsv's two
#  decimals and the 0.1 %-of-share snapping.
# usage: tests/roundtrip.sh MESS
set -u
mess=$1
here=$(cd "$(dirname "$0")" && pwd)
ref=${MESS_REFERENCE:-$here/../../shared/reference/mess-results}
raw=$(dirname "$ref")/mess-results-raw
read_py=$here/roundtrip_read.py
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
sim_py=$tmp/sim_read.py
cat >"$sim_py" <<'EOF'
# The two simulators' reading rules, strict.  usage:
#   sim_read.py mess-json|ramulator2 EXPORT_DIR JSON_EXPORT SOURCE_CSV
import csv, json, re, sys
fmt, d, ref, src = sys.argv[1:5]
def die(m): sys.exit(fmt + ": " + m)
def num(x):
    if isinstance(x, bool) or not isinstance(x, (int, float)): die("not a number: %r" % (x,))
    return float(x)
shares = [str(r) for r in range(0, 101, 2)]
got = {}
if fmt == "mess-json":
    doc = json.load(open(d + "/mess-simulator.json"))
    if set(doc) != {"measuredChannels", "curves"}: die("top-level keys %s" % sorted(doc))
    ch = doc["measuredChannels"]
    if not isinstance(ch, int) or isinstance(ch, bool) or ch < 1: die("measuredChannels %r" % (ch,))
    info = open(d + "/info.txt").read()
    m = re.search(r"^CHANNELS=(\d+) ", info, re.M)
    if not m or int(m.group(1)) != ch: die("measuredChannels %d is not info.txt CHANNELS" % ch)
    if sorted(doc["curves"], key=int) != shares: die("curve keys %s" % sorted(doc["curves"]))
    for k, pts in doc["curves"].items():
        if not pts: die(k + ": no point")
        for p in pts:
            if not isinstance(p, list) or len(p) != 2: die(k + ": not a pair: %r" % (p,))
        got[k] = sorted((num(b), num(l)) for b, l in pts)
    tb, tl = 1e-6, 1e-6
else:
    for i, line in enumerate(open(d + "/ramulator2-curves.txt"), 1):
        f = line.split()
        if len(f) != 3: die("line %d: %d fields" % (i, len(f)))
        try: r, b, l = int(f[0]), float(f[1]), float(f[2])
        except ValueError: die("line %d: not three numbers" % i)
        if str(r) not in shares: die("line %d: read_pct %d" % (i, r))
        got.setdefault(str(r), []).append((b * 1e3, l))
    if sorted(got, key=int) != shares: die("shares %s" % sorted(got, key=int))
    tb, tl = 0.51e-3, 0.51e-3   # %.6f GB/s, %.3f ns
want = {k: sorted((b, l) for b, l in v["points"]) for k, v in json.load(open(ref))["curves"].items()}
for k in shares:
    if len(got[k]) != len(want[k]): die("%s%%: %d points, the json export %d" % (k, len(got[k]), len(want[k])))
    for (b, l), (wb, wl) in zip(got[k], want[k]):
        if abs(b - wb) > tb + 1e-9 * wb or abs(l - wl) > tl + 1e-9 * wl:
            die("%s%%: (%g, %g) against (%g, %g)" % (k, b, l, wb, wl))
# The measured shares: the source's own points (GB/s there, 6 decimals).
rows = list(csv.DictReader(open(src)))
bc, lc = ("bw_gbs", "lat_ns") if "bw_gbs" in rows[0] else ("bandwidth_mean", "latency_mean")
pts = [(float(r[bc]) * 1e3, float(r[lc])) for r in rows if r[bc] and r[lc]]
measured = [r["read_pct"] for r in csv.DictReader(open(d + "/curve-sources.tsv"), delimiter="\t") if r["source"] == "measured"]
seen = 0
for k in measured:
    for b, l in got[k]:
        if b <= 0: continue
        if not any(abs(b - pb) <= 2e-3 + 1e-6 * pb + tb and abs(l - pl) <= 1e-3 + 1e-6 * pl + tl for pb, pl in pts):
            die("%s%% (measured): (%g MB/s, %g ns) is none of the source's points" % (k, b, l))
        seen += 1
print("%s: 51 shares, %d measured points found in the source" % (fmt, seen))
EOF
pass=0 fail=0
check() {
	if eval "$2"; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL: $1"; fi
}
. "$here/reference.sh"
if [ ! -d "$ref" ]; then
	no_reference roundtrip "no public sets at $ref"
	exit 0
fi
if ! command -v python3 >/dev/null; then
	echo "SKIPPED roundtrip: no python3"
	echo "roundtrip: no python3" >>"${SKIPPED_FILE:-/dev/null}"
	exit 0
fi

# One set: every format, each read back as its consumer reads it.
# $1 a name, $2 the set, $3 the rows a csv export must give back.
trip() {
	local n=$1 set=$2 rows=$3 d=$tmp/$1 f
	mkdir -p "$d"
	for f in json mess profet csv; do
		# --force: whether a set may be exported (its verdict, its clock's
		# spread) is tests/export.sh's; here, what the consumers read.
		"$mess" export "$set" --format $f --force --out "$d/$f" 2>"$d/$f.err" ||
			{ fail=$((fail + 1)); echo "FAIL: $n: export --format $f: $(head -1 "$d/$f.err")"; return; }
	done
	check "$n: the simulator's loader reads the mess folder as the curves exported" \
		'python3 "$read_py" bwlat "$d/mess" "$d/json/mess-curves.json" >"$d/r.mess" 2>&1 || { cat "$d/r.mess"; false; }'
	check "$n: PROFET's reader reads the profet folder as the same curves, in cycles at CPU_FREQ" \
		'python3 "$read_py" profet "$d/profet" "$d/json/mess-curves.json" >"$d/r.profet" 2>&1 || { cat "$d/r.profet"; false; }'
	check "$n: PROFET's reader refuses the mess folder (it would read ns as cycles)" \
		'python3 "$read_py" not-profet "$d/mess" >"$d/r.np" 2>&1 || { cat "$d/r.np"; false; }'
	check "$n: Mess's CSV reader reads the csv export's rows as the source's" \
		'python3 "$read_py" csv "$d/csv/memory_curves.csv" "$rows" >"$d/r.csv" 2>&1 || { cat "$d/r.csv"; false; }'
	for f in mess-json ramulator2; do
		"$mess" export "$set" --format $f --force --out "$d/$f" 2>"$d/$f.err" ||
			{ fail=$((fail + 1)); echo "FAIL: $n: export --format $f: $(head -1 "$d/$f.err")"; continue; }
		check "$n: the $f reader reads its file strictly as the curves exported, the measured shares as the source's points" \
			'python3 "$sim_py" $f "$d/$f" "$d/json/mess-curves.json" "$rows" >"$d/r.$f" 2>&1 || { cat "$d/r.$f"; false; }'
	done
	echo "roundtrip: $n: $(cat "$d/r.mess" "$d/r.profet" "$d/r.csv" "$d/r.mess-json" "$d/r.ramulator2" 2>/dev/null | tr '\n' ' ')"
}

for s in "$ref"/*/; do
	s=${s%/}
	[ -s "$s/memory_curves.csv" ] || continue
	trip "$(basename "$s")" "$s" "$s/memory_curves.csv"
done
for t in "$raw"/*/; do
	t=${t%/}
	[ -d "$t/bw" ] || continue
	b=$(basename "$t")
	# The tree as Mess-Results keeps it (its processed/ curves) ...
	trip "$b-processed" "$t" "$t/processed/memory_curves.csv"
	# ... and as the benchmark wrote it: bw/, lat/ and plotter.txt only.
	mkdir -p "$tmp/tree-$b"
	for x in bw lat plotter.txt; do ln -s "$t/$x" "$tmp/tree-$b/$x"; done
	"$mess" import "$tmp/tree-$b" --out "$tmp/imp-$b" 2>/dev/null
	check "$b: imported" '[ -s "$tmp/imp-$b/curves.csv" ]'
	trip "$b-raw" "$tmp/tree-$b" "$tmp/imp-$b/curves.csv"
	trip "$b-import" "$tmp/imp-$b" "$tmp/imp-$b/curves.csv"
done

# A fresh replay run of a public set: its channels are the replayed set's.
gpp=$ref/MN5-GPP-SPR8480-DDR5
"$mess" --replay "$gpp" --no-plots --quick --replay-seed 1 --out "$tmp/a-replay" >/dev/null 2>&1
check "a replay run for the export" '[ -s "$tmp/a-replay/curves.csv" ]'
trip replay "$tmp/a-replay" "$tmp/a-replay/curves.csv"
check "replay: measuredChannels is the replayed set's plotter.txt N_CHANNELS (8)" \
	'jq -e ".measuredChannels == 8" "$tmp/replay/mess-json/mess-simulator.json" >/dev/null &&
	 grep -q "^CHANNELS=8 (the replayed set" "$tmp/replay/mess/info.txt"'

# Every format says the channels and where they came from.
for f in mess profet csv json ramulator2; do
	check "$f: info.txt CHANNELS from plotter.txt" \
		'grep -q "^CHANNELS=8 (plotter.txt N_CHANNELS" "$tmp/MN5-GPP-SPR8480-DDR5/$f/info.txt"'
done

# A set that states no channel count: mess-json needs --channels, said in
# one line naming it, exit 1, nothing written; given, it is the figure.
mkdir -p "$tmp/bare"
cp "$tmp/MN5-GPP-SPR8480-DDR5/mess"/bwlat_*.txt "$tmp/bare/"
"$mess" export "$tmp/bare" --format mess-json --out "$tmp/bare-out" 2>"$tmp/bare.err"
rc=$?
check "no channel count: mess-json refused, exit 1, one line naming --channels, nothing written" \
	'[ $rc -eq 1 ] && [ "$(wc -l <"$tmp/bare.err")" -eq 1 ] && grep -q -- "--channels" "$tmp/bare.err" && [ ! -e "$tmp/bare-out" ]'
"$mess" export "$tmp/bare" --format mess-json --channels 6 --out "$tmp/bare-6" 2>/dev/null
check "--channels 6: measuredChannels 6, info.txt CHANNELS=6 (--channels)" \
	'jq -e ".measuredChannels == 6" "$tmp/bare-6/mess-simulator.json" >/dev/null && grep -q "^CHANNELS=6 (--channels)" "$tmp/bare-6/info.txt"'
"$mess" export "$tmp/bare" --format mess --out "$tmp/bare-mess" 2>/dev/null
check "no channel count: the other formats say CHANNELS=unknown" 'grep -q "^CHANNELS=unknown (" "$tmp/bare-mess/info.txt"'

# --unloaded-row, on an imported raw tree: Mess's processing puts each
# share's least-loaded point at 0 GB/s with the share's least latency; the
# export otherwise keeps that point and starts the curve at the family's
# one unloaded latency (the chase alone), below it.  With it: a point less
# in every file, the 0 GB/s row each file's least latency, and not the
# unloaded one everywhere; info.txt says which.
imp=$tmp/imp-MN5-GPP-SPR8480-DDR5-AVX2-local
base=$tmp/MN5-GPP-SPR8480-DDR5-AVX2-local-import/mess
"$mess" export "$imp" --unloaded-row --force --out "$tmp/unl" 2>/dev/null
unl_ok() {
	local r
	for r in $(seq 0 2 100); do
		[ $(($(wc -l <"$base/bwlat_$r.txt") - 1)) -eq "$(wc -l <"$1/bwlat_$r.txt")" ] || return 1
		awk '{ if (NR == 1 || $2 < m) m = $2; b = $1; l = $2 } END { exit !(b == "0.000" && l == m) }' \
			"$1/bwlat_$r.txt" || return 1
	done
}
check "--unloaded-row: each share's least-loaded point at 0 GB/s with its least latency; info.txt UNLOADED_ROW" \
	'unl_ok "$tmp/unl" && grep -q "^UNLOADED_ROW=yes" "$tmp/unl/info.txt"'
check "--unloaded-row: the 0 GB/s rows are the shares' own, not all the family's unloaded latency" \
	'[ "$(for r in $(seq 0 2 100); do tail -1 "$tmp/unl/bwlat_$r.txt" 2>/dev/null; done | sort -u | wc -l)" -gt 1 ] &&
	 [ "$(for r in $(seq 0 2 100); do tail -1 "$base/bwlat_$r.txt"; done | sort -u | wc -l)" -eq 1 ]'
check "without --unloaded-row: no UNLOADED_ROW" '! grep -q "^UNLOADED_ROW" "$base/info.txt"'

# The read axis: the AMD set's share is the generator's R, said in
# info.txt and curve-sources.tsv; an Intel set's is the memory's.
amd=$ref/CTE-AMD-EPYC7742-DDR4
"$mess" export "$amd" --format json --out "$tmp/amd" 2>/dev/null
check "AMD set: info.txt READ_AXIS says the generator's read fraction R, not the memory's" \
	'grep -q "^READ_AXIS=the generator.s read fraction R, NOT the memory.s read share" "$tmp/amd/info.txt"'
check "AMD set: every curve-sources.tsv row says so" \
	'[ "$(grep -c "the generator.s read fraction R, not the memory.s read share" "$tmp/amd/curve-sources.tsv")" -eq 51 ]'
check "Intel set: READ_AXIS the memory's read share" \
	'grep -q "^READ_AXIS=the memory.s read share, as measured" "$tmp/MN5-GPP-SPR8480-DDR5/json/info.txt"'
# --read-axis memory: R = 0 is the memory's 50 %, R = 50 % its 66.67 %.
"$mess" export "$amd" --format json --read-axis memory --out "$tmp/amd-mem" 2>/dev/null
check "AMD set, --read-axis memory: READ_AXIS says the mapping 1 / (2 - R)" \
	'grep -q "^READ_AXIS=the memory.s read share, mapped from the generator.s read fraction R as 1 / (2 - R)" "$tmp/amd-mem/info.txt"'
check "AMD set, --read-axis memory: the memory's 50 % is the generator's R = 0 curve, 100 % its R = 100 %" \
	'jq -e --slurpfile a "$tmp/amd/mess-curves.json" \
		"(.curves[\"50\"].points == \$a[0].curves[\"0\"].points) and (.curves[\"100\"].points == \$a[0].curves[\"100\"].points)" \
		"$tmp/amd-mem/mess-curves.json" >/dev/null'
check "AMD set, --read-axis memory: shares below 50 % are no generator's (extrapolated)" \
	'awk -F"\t" "NR > 1 && \$2 < 50 && \$3 != \"extrapolated\" { bad = 1 } END { exit bad }" "$tmp/amd-mem/curve-sources.tsv"'
# compare says it too, for the AMD set only; a replay of the AMD set is at
# the set's R, and its export says so.
"$mess" compare "$amd" "$gpp" --no-plots --out "$tmp/cmp-amd" >/dev/null 2>&1
check "compare: compare.md says the AMD set's share is the generator's R, and the Intel set's nothing" \
	'grep -q "^Read share of CTE-AMD-EPYC7742-DDR4: the generator.s read fraction R, NOT the memory.s read share" "$tmp/cmp-amd/compare.md" &&
	 [ "$(grep -c "^Read share of" "$tmp/cmp-amd/compare.md")" -eq 1 ]'
"$mess" --replay "$amd" --no-plots --quick --replay-seed 1 --out "$tmp/amd-replay" >/dev/null 2>&1
"$mess" export "$tmp/amd-replay" --force --out "$tmp/amd-replay-x" 2>/dev/null
check "a replay of the AMD set: its export's READ_AXIS says the generator's R" \
	'grep -q "^READ_AXIS=the generator.s read fraction R" "$tmp/amd-replay-x/info.txt"'

# Snapping (issue 48 item 6): a share is a measured curve only within
# 0.1 % of share of it, else interpolated at it (as libmess answers); the
# curves' shares with two decimals.  The imported AVX2 tree has a curve
# 0.85 % from 52 % (51.15 %), which the 1 % of before called measured.
srcs=$tmp/MN5-GPP-SPR8480-DDR5-AVX2-local-import/json/curve-sources.tsv
check "snapping: every measured share's curve within 0.1 % of it, given with two decimals" \
	'awk -F"\t" "NR > 1 && \$3 == \"measured\" { n++; if (!match(\$4, /^the curve at [0-9]+\.[0-9][0-9]% reads/)) bad = 1;
		c = substr(\$4, 14) + 0; d = c - \$2; if (d < 0) d = -d; if (d > 0.1) bad = 1 } END { exit bad || !n }" "$srcs"'
check "snapping: a share with a curve 0.1 to 1 % away is interpolated at it, from curves named with two decimals" \
	'awk -F"\t" "\$2 == 52 { if (\$3 != \"interpolated\" || !match(\$4, /^the curves at [0-9]+\.[0-9][0-9]% and [0-9]+\.[0-9][0-9]% reads/)) next;
		c = substr(\$4, 15) + 0; d = c - 52; if (d < 0) d = -d; f = d > 0.1 && d <= 1 } END { exit !f }" "$srcs"'
check "info.txt SNAPPING states the policy" 'grep -q "^SNAPPING=.*within 0.1 % of share" "$tmp/MN5-GPP-SPR8480-DDR5-AVX2-local-import/json/info.txt"'

echo "roundtrip: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
