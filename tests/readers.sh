#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# usage: tests/readers.sh MESS
#
# What a hostile set does to its readers (issue 43 items 6 to 10), each
# under `timeout 60` so that a hang fails rather than blocks:
#  6. system.md and plotter.txt links to a secret outside the set: the
#     secret is in no page (report.html, compare.md), the link named in
#     one line;
#  7. ESC ] 0 ; title BEL, a screen clear and newlines in meta.json strings
#     and in a directory's name: compare's, export's and report's stderr
#     hold no control byte, each message one line;
#  8. a FIFO named interference.csv beside a set: compare finishes;
#  9. inputs that never end (links to /proc/self/pagemap, /dev/zero, a
#     FIFO): import and report refuse them in one line;
# 10. a 128 x 128 matrix summary.json (2.6 MB) and 20,000 interfere rows
#     of as many mixes: the page in well under a wide bound (on a loaded
#     2-core guest, --no-plots: 41.2 s and 58.4 s before, 0.2 s and 0.3 s
#     now).
# Run it against a build before 43's readers only with care: its
# /proc/self/pagemap inputs are read whole there, until memory runs out.
# Reads $MESS_REFERENCE (the Makefile exports it).
set -u
mess=$(realpath "$1")
here=$(cd "$(dirname "$0")" && pwd)
ref=${MESS_REFERENCE:-$here/../../shared/reference/mess-results}
raw=$(dirname "$ref")/mess-results-raw/MN5-GPP-SPR8480-DDR5-AVX2-local
run=$here/golden/curves/MN5-GPP-SPR8480-DDR5-replay
tmp=$(mktemp -d /tmp/mess-readers.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
pass=0 fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: readers: $*"; }
check() { if eval "$2"; then ok; else bad "$1"; fi; }
lines() { wc -l <"$1"; }
# no byte of the C0 controls but the line ends, no DEL
clean() { ! LC_ALL=C grep -q "[$(printf '\001-\011\013-\037\177')]" "$1"; }
. "$here/reference.sh"
if [ ! -d "$ref/MN5-GPP-SPR8480-DDR5" ]; then
	no_reference readers "no public sets in $ref (set MESS_REFERENCE)"
	exit 0
fi
if ! command -v jq >/dev/null; then
	echo "SKIPPED readers: no jq"
	exit 0
fi
gpp=$ref/MN5-GPP-SPR8480-DDR5
mkdir "$tmp/a" "$tmp/b"
cp "$gpp"/* "$tmp/a/" && cp "$ref/Grace-LPDDR5"/* "$tmp/b/"

# 6. Links out of the set to a secret.
echo "TOPSECRET-43 hunter2" >"$tmp/secret"
mkdir "$tmp/s6" && cp "$gpp/memory_curves.csv" "$tmp/s6/"
ln -s ../secret "$tmp/s6/system.md" && ln -s "$tmp/secret" "$tmp/s6/plotter.txt"
timeout 60 "$mess" report "$tmp/s6" --no-plots --out "$tmp/r6" >/dev/null 2>"$tmp/e6"
rc=$?
check "6: report of a set linking out: exit 0 (got $rc)" '[ $rc -eq 0 ] && [ -s "$tmp/r6/report.html" ]'
check "6: the secret is not in report.html" '! grep -q TOPSECRET "$tmp/r6/report.html"'
check "6: the page says system.md and plotter.txt are not shown" \
	'grep -q "Not shown: system.md" "$tmp/r6/report.html" && grep -q "Not shown: plotter.txt" "$tmp/r6/report.html"'
check "6: each link named in one line ($(head -1 "$tmp/e6"))" \
	'[ $(lines "$tmp/e6") -eq 2 ] && grep -q "s6/system.md: a symbolic link" "$tmp/e6" && grep -q "s6/plotter.txt: a symbolic link" "$tmp/e6"'
timeout 60 "$mess" compare "$tmp/s6" "$tmp/b" --no-plots --out "$tmp/c6" >/dev/null 2>"$tmp/e6c"
rc=$?
check "6: compare of it: exit 0 (got $rc), the secret in none of its files" \
	'[ $rc -eq 0 ] && ! grep -rq TOPSECRET "$tmp/c6"'

# a run's meta.json a link to a JSON secret: its strings in no page
cp -r "$run" "$tmp/run6" && jq '.host = "TOPSECRET-43" | .cpu_model = "TOPSECRET-43"' "$run/meta.json" >"$tmp/secret.json"
rm "$tmp/run6/meta.json" && ln -s ../secret.json "$tmp/run6/meta.json"
timeout 60 "$mess" report "$tmp/run6" --no-plots --out "$tmp/r6m" >/dev/null 2>"$tmp/e6m"
rc=$?
check "6: report of a run whose meta.json links out: exit 0 (got $rc), the secret not in report.html" \
	'[ $rc -eq 0 ] && [ -s "$tmp/r6m/report.html" ] && ! grep -q TOPSECRET "$tmp/r6m/report.html"'

# 7. Control characters from files and names.
cp -r "$run" "$tmp/run7"
jq '.version = "0.1\u001b]0;PWNED\u0007\nNEWLINE\u001b[2J" | .git_revision = "g\u001b[2J\nx" |
	.cpu_model = "CPU\u001b]0;T\u0007\nY" | .host = "h\u001b[2J\nz"' "$run/meta.json" >"$tmp/run7/meta.json"
timeout 60 "$mess" compare "$tmp/run7" "$tmp/a" --no-plots --out "$tmp/c7" >/dev/null 2>"$tmp/e7"
rc=$?
check "7: compare: exit 0 (got $rc), its warnings hold no control byte" '[ $rc -eq 0 ] && clean "$tmp/e7"'
check "7: compare: every line a message of its own" '! grep -qv "^mess compare: " "$tmp/e7"'
grep -q "different tools or versions" "$tmp/e7" || bad "7: compare: no warning of the versions (the test's premise)"
jq '.sets[0].argument = "a\u001b]0;T\u0007\nb\u001b[2J" | .tool = "mess compare"' "$tmp/c7/meta.json" >"$tmp/m" &&
	mv "$tmp/m" "$tmp/c7/meta.json"
timeout 60 "$mess" export "$tmp/c7" --format json --out "$tmp/x7" >/dev/null 2>"$tmp/e7x"
rc=$?
check "7: export of a comparison: exit 1 (got $rc), one line, no control byte ($(cat "$tmp/e7x"))" \
	'[ $rc -eq 1 ] && [ $(lines "$tmp/e7x") -eq 1 ] && clean "$tmp/e7x" && grep -q "export the sets it compared" "$tmp/e7x"'
d7=$tmp/d$(printf '\033]0;T\007\nx\033[2J')
mkdir "$d7"
timeout 60 "$mess" report "$d7" --no-plots --out "$tmp/r7" >/dev/null 2>"$tmp/e7r"
rc=$?
check "7: report of a directory named with ESC and a newline: exit 1 (got $rc), one line, no control byte" \
	'[ $rc -eq 1 ] && [ $(lines "$tmp/e7r") -eq 1 ] && clean "$tmp/e7r" && grep -q "is empty" "$tmp/e7r"'

# 8. A FIFO named interference.csv beside a set.
cp -r "$tmp/a" "$tmp/a8" && mkfifo "$tmp/a8/interference.csv"
timeout 60 "$mess" compare "$tmp/a8" "$tmp/b" --no-plots --out "$tmp/c8" >/dev/null 2>"$tmp/e8"
rc=$?
check "8: compare beside a FIFO interference.csv: finishes, exit 0 (got $rc)" '[ $rc -eq 0 ] && [ -s "$tmp/c8/compare.md" ]'
check "8: the FIFO named in one line" \
	'[ $(grep -c "interference.csv" "$tmp/e8") -eq 1 ] && grep -q "a8/interference.csv: a pipe" "$tmp/e8"'

# 9. Inputs that never end, through links: refused in one line.
mkfifo "$tmp/fifo"
# refused9 WHAT WHY CMD...: exit 1, one line holding WHY, under a timeout
refused9() {
	local what=$1 why=$2 rc
	shift 2
	timeout 60 "$@" >/dev/null 2>"$tmp/e9" </dev/null
	rc=$?
	check "9: $what: exit 1 (got $rc), one line with '$why' ($(head -1 "$tmp/e9"))" \
		'[ $rc -eq 1 ] && [ $(lines "$tmp/e9") -eq 1 ] && grep -q "$why" "$tmp/e9"'
}
# report: a memory_curves.csv that is no file is no set's (the loader's
# stat); one that is a kernel file is refused by the reader.
for t in /proc/self/pagemap:"a kernel file" /dev/zero:"no curve set here" "$tmp/fifo":"no curve set here"; do
	rm -rf "$tmp/s9" "$tmp/r9" && mkdir "$tmp/s9" && cp "$gpp"/* "$tmp/s9/"
	rm "$tmp/s9/memory_curves.csv" && ln -s "${t%%:*}" "$tmp/s9/memory_curves.csv"
	refused9 "report, memory_curves.csv a link to ${t%%:*}" "${t#*:}" \
		"$mess" report "$tmp/s9" --no-plots --out "$tmp/r9"
	# a run's meta.json that cannot be read: the page goes on without it
	rm -rf "$tmp/s9" "$tmp/r9" && cp -r "$run" "$tmp/s9" && rm "$tmp/s9/meta.json" &&
		ln -s "${t%%:*}" "$tmp/s9/meta.json"
	timeout 60 "$mess" report "$tmp/s9" --no-plots --out "$tmp/r9" >/dev/null 2>"$tmp/e9" </dev/null
	rc=$?
	check "9: report, a run's meta.json a link to ${t%%:*}: finishes (exit $rc), at most one line" \
		'[ $rc -le 1 ] && [ $(lines "$tmp/e9") -le 1 ]'
done
for t in /proc/self/pagemap:"a kernel file" /dev/zero:"a device" "$tmp/fifo":"a pipe"; do
	[ -d "$raw/bw" ] || break
	rm -rf "$tmp/t9" "$tmp/i9" && cp -r "$raw" "$tmp/t9"
	rm "$tmp/t9/bw/bw_0_100.txt" && ln -s "${t%%:*}" "$tmp/t9/bw/bw_0_100.txt"
	refused9 "import, bw/bw_0_100.txt a link to ${t%%:*}" "${t#*:}" \
		"$mess" import "$tmp/t9" --out "$tmp/i9"
	rm -rf "$tmp/i9" "$tmp/t9/plotter.txt" "$tmp/t9/bw/bw_0_100.txt" && cp "$raw/bw/bw_0_100.txt" "$tmp/t9/bw/"
	ln -s "${t%%:*}" "$tmp/t9/plotter.txt"
	refused9 "import, plotter.txt a link to ${t%%:*}" "${t#*:}" \
		"$mess" import "$tmp/t9" --out "$tmp/i9"
done

# 10. Pages linear in their input: generated, hostile but well formed.
printf '{"tool": "mess matrix", "schema": 1, "hmat_source": "none"}\n' >"$tmp/m10.json"
mkdir "$tmp/mx" "$tmp/ifr"
mv "$tmp/m10.json" "$tmp/mx/meta.json"
awk -v n=128 'BEGIN { printf "{\"cells\": [";
	for (i = 0; i < n; i++) for (t = 0; t < n; t++)
		printf "%s{\"initiator_node\": %d, \"initiator_cores\": \"%d\", \"target_node\": %d, \"target_kind\": \"DRAM\", \"label\": \"local\", \"lat_ns\": %d.5, \"bw_gbs\": %d.25, \"bw21_gbs\": 3.5}\n",
			(i || t) ? "," : "", i, i, t, 80 + (i + t) % 50, 10 + t % 7;
	print "]}" }' >"$tmp/mx/summary.json"
printf '{"tool": "mess interfere", "schema": 1}\n' >"$tmp/ifr/meta.json"
awk -v n=20000 'BEGIN { printf "{\"rows\": [";
	for (i = 0; i < n; i++)
		printf "%s{\"store_pct\": %d, \"aggressors\": %d, \"lat_p50_ns\": 90.5, \"lat_p90_ns\": 95, \"lat_p99_ns\": 120, \"lat_p999_ns\": 150, \"lat_mean_ns\": 92, \"p99_vs_none\": 1.2, \"bw_gbs\": 10, \"disturbed\": 0, \"disturbed_kept\": 0}\n", i ? "," : "", i, i % 8;
	printf "], \"knees\": [";
	for (i = 0; i < n; i++)
		printf "%s{\"store_pct\": %d, \"knee_aggressors\": null, \"knee\": \"not reached\"}\n", i ? "," : "", i;
	print "]}" }' >"$tmp/ifr/summary.json"
# The bound: 15 s; a page of either takes 0.2 to 0.3 s here, the
# quadratic pages took 41 s and 58 s.
for d in mx:16384 ifr:20000; do
	s=$(date +%s%N)
	timeout 60 "$mess" report "$tmp/${d%%:*}" --no-plots --out "$tmp/r-${d%%:*}" >/dev/null 2>"$tmp/e10"
	rc=$?
	ms=$((($(date +%s%N) - s) / 1000000))
	echo "readers: report of ${d%%:*} (${d#*:} cells or rows): $ms ms"
	check "10: ${d%%:*}: exit 0 (got $rc) in under 15 s (took $ms ms)" '[ $rc -eq 0 ] && [ $ms -lt 15000 ]'
done
check "10: matrix: every cell in the page (3 tables of 16384)" \
	'[ $(grep -o "<td class=\"heat\"" "$tmp/r-mx/report.html" | wc -l) -eq 49152 ]'
check "10: interfere: every row in the page" \
	'[ $(grep -c "^<tr><th>[0-9]*</th><td" "$tmp/r-ifr/report.html") -eq 20000 ]'

echo "readers: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
