#!/usr/bin/env bash
# End to end: ./run.sh --quick, then every file of the result contract.
set -u
out=$(mktemp -d /tmp/mess-smoke.XXXXXX)
trap 'rm -rf "$out"' EXIT
pass=0 fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*"; }
check() { if eval "$2"; then ok; else bad "$1"; fi; }

start=$(date +%s)
./run.sh --quick --out "$out/run" >"$out/stdout" 2>"$out/stderr"
rc=$?
echo "smoke: ./run.sh --quick took $(($(date +%s) - start)) s, exit $rc"
check "exit status 0" '[ $rc -eq 0 ]' || tail -20 "$out/stderr"
d=$out/run
check "stdout names the run directory" 'grep -qx "$d" "$out/stdout"'
check "progress on stderr" 'grep -q "ETA" "$out/stderr"'
for f in meta.json curves.csv summary.json summary.md plots/curves.png plots/curves.svg plots/curves.gp; do
	[ "$f" = plots/curves.gp ] && continue
	check "$f exists and is not empty" '[ -s "$d/$f" ]'
done
check "meta.json is JSON" 'jq -e . "$d/meta.json" >/dev/null'
for k in schema version git_revision host cpu_model isa cores llc_bytes numa_nodes huge_pages bw_source compiler cflags start_utc end_utc complete; do
	check "meta.json has $k" 'jq -e "has(\"$k\")" "$d/meta.json" >/dev/null'
done
check "meta.json complete" 'jq -e ".complete == true" "$d/meta.json" >/dev/null'
check "meta.json huge_pages is hugetlb/thp/none" 'jq -e ".huge_pages | test(\"^(hugetlb|thp|none)$\")" "$d/meta.json" >/dev/null'
check "meta.json vector width" 'jq -e ".generator.vector_width_bytes > 0" "$d/meta.json" >/dev/null'
check "chase buffer >= 4x LLC" 'jq -e ".chase.buffer_bytes >= 4 * .llc_bytes" "$d/meta.json" >/dev/null'
check "curves.csv header" '[ "$(head -1 "$d/curves.csv")" = "store_pct,read_pct,nop,bw_gbs,read_bw_gbs,write_bw_gbs,lat_ns,lat_ns_std,repeats,bw_source" ]'
for s in 0 50 100; do
	check "mix $s has >= 6 points" '[ "$(awk -F, -v s=$s "NR>1 && \$1==s" "$d/curves.csv" | wc -l)" -ge 6 ]'
done
check "every row: 10 fields, positive bw and latency, accounted" \
	'awk -F, "NR>1 && !(NF==10 && \$4>0 && \$7>0 && \$10==\"accounted\") {exit 1}" "$d/curves.csv"'
check "100%-store curve at full pressure reads about 50% at memory level" \
	'awk -F, "NR>1 && \$1==100 && \$3==0 {n++; if (\$2<45 || \$2>60) exit 1} END {exit n!=1}" "$d/curves.csv"'
check "summary.json is JSON with unloaded latency" 'jq -e ".unloaded_ns > 0" "$d/summary.json" >/dev/null'
check "summary.json has one entry per curve" 'jq -e "(.curves | length) == 3" "$d/summary.json" >/dev/null'
check "summary.md mentions unloaded latency" 'grep -qi "unloaded" "$d/summary.md"'
check "plots/curves.png is a PNG" 'head -c 8 "$d/plots/curves.png" | grep -q PNG'
check "plots/curves.svg is SVG" 'grep -q "<svg" "$d/plots/curves.svg"'
n=$(ls "$d"/mess/bwlat_*.txt 2>/dev/null | wc -l)
check "mess/ has one bwlat file per curve (3), got $n" '[ "$n" -eq 3 ]'
check "bwlat_100.txt and bwlat_50.txt exist" '[ -s "$d/mess/bwlat_100.txt" ] && [ -s "$d/mess/bwlat_50.txt" ]'
check "bwlat files: two numeric columns, bandwidth descending" \
	'for f in "$d"/mess/bwlat_*.txt; do awk "NF!=2 || (NR>1 && \$1>prev) {exit 1} {prev=\$1}" "$f" || exit 1; done'

./run.sh --quick --out "$d" >/dev/null 2>"$out/again.err"
rc=$?
check "a second run into the same --out is refused (exit $rc)" '[ $rc -eq 1 ] && grep -q "already holds a run" "$out/again.err"'

# Interrupt a run, then resume it to completion.
./run.sh --quick --out "$out/intr" >/dev/null 2>"$out/intr.err" &
pid=$!
for _ in $(seq 1 300); do
	[ -f "$out/intr/curves.csv" ] && [ "$(wc -l <"$out/intr/curves.csv")" -ge 3 ] && break
	sleep 0.1
done
pkill -INT -f "mess --quick --out $out/intr"
wait $pid
rc=$?
check "interrupted run exits 130 (got $rc)" '[ $rc -eq 130 ]'
check "interrupted meta.json says complete: false" 'jq -e ".complete == false" "$out/intr/meta.json" >/dev/null'
check "interrupted curves.csv still has its header and rows" '[ "$(wc -l <"$out/intr/curves.csv")" -ge 2 ]'
./run.sh --resume "$out/intr" >/dev/null 2>"$out/resume.err"
rc=$?
check "resume exits 0 (got $rc)" '[ $rc -eq 0 ]' || tail -5 "$out/resume.err"
check "resumed meta.json complete" 'jq -e ".complete == true and .resumed == 1" "$out/intr/meta.json" >/dev/null'
check "resumed run reused points" 'jq -e ".points_reused >= 1" "$out/intr/meta.json" >/dev/null'

echo "smoke: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
