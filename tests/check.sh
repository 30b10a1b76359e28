#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# mess check BASELINE [RUN], the CI gate: two replays of one public set
# at 1 % noise with other seeds pass; latencies raised 10 % regress (exit
# 1, the line names what moved, the JUnit XML has the failures); a run
# whose verdict is INVALID, an incomplete one and a public set (no
# spreads) are not judged (exit 2, one line); bad usage exits 1 naming
# the option; RUN omitted takes the newest run under results/.
#   tests/check.sh MESS
set -u
mess=$(realpath "$1")
set_dir=$(realpath -m "${MESS_REFERENCE:-../shared/reference/mess-results}/MN5-GPP-SPR8480-DDR5")
out=$(mktemp -d /tmp/mess-check.XXXXXX)
trap 'rm -rf "$out"' EXIT
pass=0 fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*"; }
check() { if eval "$2"; then ok; else bad "$1"; fi; }

. "$(dirname "$0")/reference.sh"
if [ ! -d "$set_dir" ]; then
	no_reference check "no public set at $set_dir"
	exit 0
fi
R="curves --replay $set_dir --replay-noise 0.01 --quick --no-plots"
for s in 1 2 3; do
	$mess $R --replay-seed $s --out "$out/s$s-replay" >/dev/null 2>&1 ||
		bad "a replay with seed $s runs"
done
a=$out/s1-replay b=$out/s2-replay

# Noise alone: the same set, other seeds, both ways round.
for p in "$a $b" "$b $a" "$a $out/s3-replay" "$out/s3-replay $b"; do
	$mess check $p >"$out/o" 2>"$out/e"; rc=$?
	check "two replays at 1 % noise pass ($p: exit $rc)" '[ $rc -eq 0 ]' || cat "$out/o" "$out/e"
done
check "the line says PASS, once, on stdout" \
	'[ "$(wc -l <"$out/o")" -eq 1 ] && grep -q "^mess check: PASS: 13 figures within 3 spreads" "$out/o"'

# Every latency 10 % up (curves.csv's lat_ns, meta.json's unloaded).
up=$out/up-replay
cp -r "$a" "$up"
awk -F, -v OFS=, 'NR > 1 && $7 != "" { $7 = sprintf("%.4f", $7 * 1.1) } 1' "$a/curves.csv" >"$up/curves.csv"
jq '.unloaded_ns *= 1.1 | if .quality.unloaded_end_ns then .quality.unloaded_end_ns *= 1.1 else . end' "$a/meta.json" >"$up/meta.json"
$mess check "$a" "$up" --junit "$out/j.xml" >"$out/o" 2>"$out/e"; rc=$?
check "latencies 10 % up: exit 1 (got $rc)" '[ $rc -eq 1 ]'
check "the line says REGRESSED and names a latency moved +10.0 %" \
	'[ "$(wc -l <"$out/o")" -eq 1 ] && grep -q "^mess check: REGRESSED: .*latency at .* +10.0 % (beyond 3 spreads[^:]*: " "$out/o"'
check "the line says how many more" 'grep -q "; and [0-9]* more" "$out/o"'
check "stderr's table names the unloaded latency REGRESSED" \
	'grep -q "unloaded latency .* +10.0 % .*REGRESSED" "$out/e"'
check "the JUnit XML parses: one testsuite, a testcase per figure, failures where regressed" \
	'python3 - "$out/j.xml" <<EOF
import sys, xml.etree.ElementTree as ET
s = ET.parse(sys.argv[1]).getroot()
assert s.tag == "testsuite" and s.get("name") == "mess check", s.tag
cases = s.findall("testcase")
failed = {c.get("name") for c in cases if c.find("failure") is not None}
assert len(cases) == 13 and int(s.get("tests")) == 13, len(cases)
assert "unloaded latency" in failed, failed
assert not any("maximum bandwidth" in n for n in failed), failed
assert int(s.get("failures")) == len(failed) >= 5, failed
assert all("+10.0 %" in c.find("failure").get("message") for c in cases if c.find("failure") is not None)
EOF'
# The other way round the latencies fell: nothing regressed.
$mess check "$up" "$a" >/dev/null 2>&1; rc=$?
check "latencies 10 % down: exit 0 (got $rc)" '[ $rc -eq 0 ]'
# --json: the same answer.
$mess check "$a" "$up" --json >"$out/j.json" 2>/dev/null; rc=$?
check "--json: exit 1, verdict REGRESSED, each figure with its state" \
	'[ $rc -eq 1 ] && [ "$(jq -r ".verdict, (.figures | length), ([.figures[] | select(.state == \"REGRESSED\")] | length > 4)" "$out/j.json" | tr "\n" " ")" = "REGRESSED 13 true " ]'
# The maximum bandwidth 20 % down on every point of every mix.
dn=$out/dn-replay
cp -r "$a" "$dn"
awk -F, -v OFS=, 'NR > 1 { $4 = sprintf("%.6f", $4 * 0.8) } 1' "$a/curves.csv" >"$dn/curves.csv"
$mess check "$a" "$dn" >"$out/o" 2>/dev/null; rc=$?
check "bandwidth 20 % down: exit 1 naming a maximum bandwidth (got $rc)" \
	'[ $rc -eq 1 ] && grep -q "maximum bandwidth -20.0 %" "$out/o"'

# Not trustworthy: exit 2, one line, nothing on stdout.
inv=$out/inv-replay
cp -r "$b" "$inv"
jq '.quality.verdict = "INVALID"' "$b/meta.json" >"$inv/meta.json"
$mess check "$a" "$inv" --junit "$out/k.xml" >"$out/o" 2>"$out/e"; rc=$?
check "a run judged INVALID: exit 2 (got $rc)" '[ $rc -eq 2 ]'
check "... said in one line naming the verdict, nothing on stdout, no XML" \
	'[ "$(wc -l <"$out/e")" -eq 1 ] && grep -q "verdict INVALID" "$out/e" && [ ! -s "$out/o" ] && [ ! -e "$out/k.xml" ]'
inc=$out/inc-replay
cp -r "$b" "$inc"
jq '.complete = false' "$b/meta.json" >"$inc/meta.json"
$mess check "$inc" "$a" >/dev/null 2>"$out/e"; rc=$?
check "an incomplete baseline: exit 2, one line (got $rc)" \
	'[ $rc -eq 2 ] && [ "$(wc -l <"$out/e")" -eq 1 ] && grep -q "incomplete" "$out/e"'
# A set without spreads (a PROFET set: curves only): exit 2, one line
# (beside the loader's warning about its rows).
profet=$(realpath -m "$set_dir/../../profet/data/bw_lat_curves/cascade_lake__DDR4_2666__local_socket")
if [ -d "$profet" ]; then
	$mess check "$profet" "$a" >"$out/o" 2>"$out/e"; rc=$?
	check "a set without spreads: exit 2, one line (got $rc)" \
		'[ $rc -eq 2 ] && [ "$(grep -c "cannot be judged" "$out/e")" -eq 1 ] && [ "$(grep -vc "warning:" "$out/e")" -eq 1 ] && [ ! -s "$out/o" ]'
fi
# A Mess-Results set carries latency_std and bandwidth_std: judged, its
# unloaded latency (no meta.json spread) not.
$mess check "$set_dir" "$a" >"$out/o" 2>/dev/null; rc=$?
check "a Mess-Results set is judged by its own std columns (exit $rc)" \
	'[ $rc -eq 0 ] && grep -q ", 1 not judged (no spread" "$out/o"'

# Bad usage: exit 1, one line naming the option or what is missing.
usage() {
	$mess check "$@" >"$out/o" 2>"$out/e"; rc=$?
	[ $rc -eq 1 ] && [ "$(wc -l <"$out/e")" -eq 1 ] && [ ! -s "$out/o" ]
}
check "--spreads 0: exit 1, one line naming --spreads" 'usage "$a" "$b" --spreads 0 && grep -q -- "--spreads" "$out/e"'
check "--bogus: exit 1, one line naming it" 'usage "$a" "$b" --bogus && grep -q -- "--bogus" "$out/e"'
check "three sets: exit 1, one line" 'usage "$a" "$b" "$b"'
check "no BASELINE: exit 1, one line" 'usage && grep -q BASELINE "$out/e"'
check "--junit into a missing directory: exit 1, one line naming --junit" \
	'usage "$a" "$b" --junit "$out/nowhere/j.xml" && grep -q -- "--junit" "$out/e"'
check "a missing set: exit 1, one line" 'usage "$a" "$out/missing"'

# --junit: written whole, a link planted at the name is replaced, not
# followed.
ln -s "$out/target" "$out/l.xml"
$mess check "$a" "$b" --junit "$out/l.xml" >/dev/null 2>&1; rc=$?
check "--junit over a link: exit 0, the link replaced, its target untouched" \
	'[ $rc -eq 0 ] && [ ! -L "$out/l.xml" ] && [ ! -e "$out/target" ] && python3 -c "import sys, xml.etree.ElementTree as E; E.parse(sys.argv[1])" "$out/l.xml"'
check "no .tmp left" '[ -z "$(ls "$out" | grep "\.tmp$")" ]'

# RUN omitted: the newest run under results/ (by its start), named.
mkdir -p "$out/cwd/results"
cp -r "$a" "$out/cwd/results/old"
cp -r "$up" "$out/cwd/results/new"
jq '.start_utc = "2000-01-01T00:00:00Z"' "$a/meta.json" >"$out/cwd/results/old/meta.json"
# Newer still, but another command's directory: never the run.
cp -r "$b" "$out/cwd/results/zfleet"
jq '.tool = "mess fleet" | .start_utc = "2999-01-01T00:00:00Z"' "$b/meta.json" >"$out/cwd/results/zfleet/meta.json"
(cd "$out/cwd" && $mess check "$b" >"$out/o" 2>/dev/null); rc=$?
check "RUN omitted: the newest run (latencies up) is checked: exit 1 (got $rc)" \
	'[ $rc -eq 1 ] && grep -q "run results/new (the newest under results/)" "$out/o"'
(cd "$out/cwd" && rm -rf results/new && $mess check "$b" >"$out/o" 2>/dev/null); rc=$?
check "... the other when it is the newest: exit 0 (got $rc)" \
	'[ $rc -eq 0 ] && grep -q "run results/old" "$out/o"'
(cd "$out" && $mess check "$b" >/dev/null 2>"$out/e"); rc=$?
check "RUN omitted and no results/: exit 1, one line" '[ $rc -eq 1 ] && [ "$(wc -l <"$out/e")" -eq 1 ]'

echo "check: $pass passed, $fail failed"
[ $fail -eq 0 ]
