#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# usage: tests/counters.sh MESS
#
# The counter layer end to end.  On this machine as it is: mess counters
# reports what opens and why not; without memory-controller counters the
# curves say `accounted`, mess profile exits 3 before running anything, and
# a family asked for by name exits 3 with nothing written.  Through
# tests/fixtures/sysfs-soft (a "memory controller" that is the kernel's
# software PMU: read = CPU-wide task-clock, 64 B per count): the whole
# counted path, whose known answer is that a CPU busy for the whole window
# counts one ns per ns, 64 GB/s.  That part needs CPU-wide counting (root,
# CAP_PERFMON or perf_event_paranoid <= 0) and says SKIPPED otherwise.
# Run from the repository root (make check-cli).
set -u
mess=$1
pass=0 fail=0
tmp=$(mktemp -d /tmp/mess-counters.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
soft=$PWD/tests/fixtures/sysfs-soft

check() {
	local what=$1
	shift
	if eval "$@"; then
		pass=$((pass + 1))
	else
		fail=$((fail + 1))
		echo "FAIL: $what"
	fi
}

# --- this machine as it is -------------------------------------------------
"$mess" counters >"$tmp/c.txt" 2>&1
rc=$?
check "counters: exit 0" '[ $rc -eq 0 ]'
check "counters: paranoid, core PMU, DRAM table and verdict" \
	'grep -q "^perf_event_paranoid" "$tmp/c.txt" && grep -q "^core PMU:" "$tmp/c.txt" && grep -q "^  amd-umc" "$tmp/c.txt" && grep -q "^curves here:" "$tmp/c.txt"'
"$mess" counters --json >"$tmp/c.json"
check "counters --json: families with opens and why_not" \
	'jq -e "(.dram.families | length) > 3 and all(.dram.families[]; has(\"opens\")) and (.perf_event_paranoid | type) == \"number\"" "$tmp/c.json" >/dev/null'
"$mess" counters --list --json >"$tmp/l.json"
check "counters --list: every family has read event, bytes and a source" \
	'jq -e "all(.dram_families[]; (.read | length) > 0 and (.source | length) > 20 and .bytes_per_count != null)" "$tmp/l.json" >/dev/null'
family=$(jq -r '.dram.family // empty' "$tmp/c.json")
if [ -z "$family" ]; then
	check "counters: says the curves are accounted, and why" \
		'grep -q "curves here: bandwidth accounted" "$tmp/c.txt"'
	"$mess" profile --out "$tmp/prof" -- touch "$tmp/ran" >"$tmp/p.txt" 2>&1
	rc=$?
	check "profile without DRAM counters: exit 3 with the reason" \
		'[ $rc -eq 3 ] && grep -q "cannot profile here: no memory-controller counters" "$tmp/p.txt"'
	check "profile without DRAM counters: the command never ran, nothing written" \
		'[ ! -e "$tmp/ran" ] && [ ! -e "$tmp/prof" ]'
	"$mess" --quick --no-plots --mixes 0 --points 3 --out "$tmp/acc" >"$tmp/a.txt" 2>&1
	rc=$?
	check "curves without DRAM counters: accounted, and meta says what was tried and why" \
		'[ $rc -eq 0 ] && grep -q "bandwidth accounted from the generators" "$tmp/a.txt" && jq -e ".bw_source == \"accounted\" and .counters.dram_family == null and .counters.read_pct_source == \"accounted\" and (.counters.dram_status | test(\"amd-umc: \")) and (.counters.packages_loaded | length) >= 1 and (.generator_cores_rule | startswith(\"default: the other cores of the chase core\"))" "$tmp/acc/meta.json" >/dev/null'
	check "curves without DRAM counters: accounted columns filled, counter columns empty" \
		'awk -F, "NR > 1 { n++; if (\$10 != \"accounted\" || \$11 == \"\" || \$14 != \"\") bad++ } END { exit !(n >= 3 && !bad) }" "$tmp/acc/curves.csv"'
	"$mess" --quick --counters amd-umc --out "$tmp/named" >"$tmp/n.txt" 2>&1
	rc=$?
	check "curves --counters NAME that cannot count: exit 3, nothing written" \
		'[ $rc -eq 3 ] && grep -q "counters amd-umc cannot count here" "$tmp/n.txt" && [ ! -e "$tmp/named" ]'
else
	echo "note: this machine counts DRAM with $family: the no-counter cases are not run"
fi

# --- the software-PMU fixture ----------------------------------------------
paranoid=$(cat /proc/sys/kernel/perf_event_paranoid 2>/dev/null || echo 3)
if [ "$(id -u)" != 0 ] && [ "$paranoid" -gt 0 ]; then
	echo "SKIPPED: counted path through $soft: CPU-wide counting needs root, CAP_PERFMON or perf_event_paranoid <= 0 (it is $paranoid)"
	[ -n "${SKIPPED_FILE:-}" ] && echo "tests/counters.sh: counted path: perf_event_paranoid $paranoid" >>"$SKIPPED_FILE"
else
	export MESS_SYSFS_PMU_ROOT=$soft
	"$mess" counters >"$tmp/s.txt" 2>&1
	check "fixture: counters finds and opens the family" \
		'grep -q "intel-icx-imc-free *counts: 2 counters on 1 package" "$tmp/s.txt"'
	"$mess" --quick --no-plots --mixes 0,100 --points 4 --out "$tmp/run" >"$tmp/r.txt" 2>&1
	rc=$?
	check "fixture: curves run" '[ $rc -eq 0 ]'
	check "fixture: meta says counters, the family and the packages" \
		'jq -e ".bw_source == \"counters\" and .counters.dram_family == \"intel-icx-imc-free\" and .counters.read_pct_source == \"counters\" and .counters.packages_counted == [0] and (.counters.measured_over_accounted_by_store_pct | length) == 2" "$tmp/run/meta.json" >/dev/null'
	# Known answer: CPU-wide task-clock on the busy chase CPU is 1 ns per
	# ns, at 64 B per count 64 GB/s: never more (a CPU cannot run longer
	# than the window), less only by the time the host stole.  Wide bounds
	# on the median, hard ones on every row.
	check "fixture: every row counted, read at most 64 GB/s from task-clock (median near it), accounted beside it" \
		'awk -F, "NR > 1 { n++; v[n] = \$5; if (\$10 != \"counters\" || \$5 <= 0 || \$5 > 66 || \$11 == \"\" || \$14 == \"\") bad++ } END { asort_n = n; for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) if (v[j] < v[i]) { t = v[i]; v[i] = v[j]; v[j] = t } exit !(n >= 8 && !bad && v[int((n + 1) / 2)] > 48) }" "$tmp/run/curves.csv"'
	check "fixture: summary has the measured/accounted table" \
		'grep -q "measured / accounted" "$tmp/run/summary.md"'
	"$mess" profile --interval-ms 20 --out "$tmp/prof" -- sleep 0.3 >"$tmp/pp.txt" 2>&1
	rc=$?
	check "fixture: profile records" '[ $rc -eq 0 ]'
	check "fixture: profile.csv has read and write rows per interval, in perf stat form" \
		'[ "$(grep -c ",B,mess_dram_read_bytes," "$tmp/prof/profile.csv")" -ge 10 ] && [ "$(grep -c ",B,mess_dram_write_bytes," "$tmp/prof/profile.csv")" -ge 10 ]'
	check "fixture: profile meta names the command and its exit" \
		'jq -e ".command == [\"sleep\", \"0.3\"] and .command_exit == 0 and .intervals >= 10" "$tmp/prof/meta.json" >/dev/null'
	"$mess" position --no-plots --curves "$tmp/run" --out "$tmp/pos" "$tmp/prof/profile.csv" >"$tmp/po.txt" 2>&1
	rc=$?
	check "fixture: mess position reads the profile as it is" '[ $rc -eq 0 ] && [ -s "$tmp/pos/position.csv" ]'
	"$mess" profile --interval-ms 20 --no-plots --curves "$tmp/run" --out "$tmp/prof2" -- sleep 0.1 >"$tmp/p2.txt" 2>&1
	rc=$?
	check "fixture: profile --curves places it in one step" '[ $rc -eq 0 ] && [ -s "$tmp/prof2/position/position.csv" ]'
	"$mess" profile --interval-ms 20 --out "$tmp/prof3" -- false >"$tmp/p3.txt" 2>&1
	rc=$?
	check "fixture: a failing command: exit 2, its profile kept" \
		'[ $rc -eq 2 ] && grep -q "exited with status 1" "$tmp/p3.txt" && jq -e ".command_exit == 1" "$tmp/prof3/meta.json" >/dev/null'
	# The same tree for a user without privileges: the paranoid level
	# and the fix, never a figure.
	if [ "$(id -u)" = 0 ] && [ "$paranoid" -gt 0 ] && command -v setpriv >/dev/null; then
		cp "$mess" "$tmp/mess-user" && chmod 755 "$tmp" "$tmp/mess-user"
		setpriv --reuid=65534 --regid=65534 --clear-groups \
			env MESS_SYSFS_PMU_ROOT="$soft" "$tmp/mess-user" counters >"$tmp/u.txt" 2>&1
		check "fixture, unprivileged: cannot count, the paranoid level and its fix" \
			'grep -q "intel-icx-imc-free .*cannot count: .*refused at perf_event_paranoid $paranoid; fix: sysctl -w kernel.perf_event_paranoid=0, or run with CAP_PERFMON" "$tmp/u.txt" && grep -q "curves here: bandwidth accounted" "$tmp/u.txt"'
	fi
	unset MESS_SYSFS_PMU_ROOT
fi

echo "counters: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
