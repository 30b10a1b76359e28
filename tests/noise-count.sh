#!/bin/sh
# SPDX-License-Identifier: MIT
#
# usage: tests/noise-count.sh TEST_NOISE [EMULATOR]
#
# Proves that a noise site runs exactly k payload instructions per iteration
# and that its overhead does not depend on k.  TEST_NOISE is a build of
# tests/unit/kernels/test_noise.c: "TEST_NOISE count MODE K N" runs mess_count_MODE,
# a loop of N iterations around one site.  For every mode, k and N, the
# instructions executed inside mess_count_MODE are counted exactly, and
#   count(k, N) - count(0, N) == k * N	(nothing else changes with k)
#   executions inside the 256-slot block == k * N	(and only its last k
#					slots run, each exactly N times)
#
# Counters (both count retired guest instructions, not samples):
#   no EMULATOR: valgrind --tool=callgrind, collecting only in mess_count_*
#     (per-instruction costs with --dump-instr);
#   EMULATOR (qemu-user, e.g. qemu-aarch64): -singlestep makes every
#     translation block one instruction and -d exec,nochain logs every block
#     it executes, so the log has one line per executed instruction, with
#     its guest PC and symbol; -dfilter keeps only the function's range
#     (static, non-PIE binaries: what the foreign builds are).
#
# Exit: 0 all exact, 1 a count is off, 77 skipped (no noise on this ISA,
# or no counter available), 2 usage.
set -eu

KMAX=256
MODES="fp_add64 int64_add l1_ld64 memory_ld64"
KS=${NOISE_COUNT_KS:-"1 2 7 100 255 256"}
NS=${NOISE_COUNT_NS:-"1 37 1000"}

if [ $# -lt 1 ] || [ $# -gt 2 ]; then
	echo "usage: $0 TEST_NOISE [EMULATOR]" >&2
	exit 2
fi
bin=$1
emu=${2:-}
[ -x "$bin" ] || { echo "$0: $bin: not an executable" >&2; exit 2; }

skip() { echo "SKIPPED noise-count ($bin): $1"; exit 77; }

rc=0
$emu "$bin" count fp_add64 0 1 >/dev/null 2>&1 || rc=$?
[ $rc -ne 77 ] || skip "no noise on this ISA"
[ $rc -eq 0 ] || { echo "$0: '$emu $bin count' failed ($rc)" >&2; exit 1; }

machine=$(readelf -h "$bin" | sed -n 's/^ *Machine: *//p')
case $machine in
*X86-64*) objdump=${OBJDUMP:-objdump} ;;
*AArch64*) objdump=${OBJDUMP:-aarch64-linux-gnu-objdump} ;;
*) objdump=${OBJDUMP:-objdump} ;;
esac
command -v "$objdump" >/dev/null || skip "no $objdump"
if [ -z "$emu" ]; then
	command -v valgrind >/dev/null || skip "no valgrind"
fi
pie=0
readelf -h "$bin" | grep -q 'Type: *DYN' && pie=1

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# fn_MODE: start and size of mess_count_MODE; blk_MODE: the block's start
# (the instruction after the site's indirect jump) and its size in bytes
# (256 instructions on).  Link-time addresses.
locate() {
	f=mess_count_$1
	readelf -sW "$bin" | awk -v f="$f" '$8 == f { print $2, $3; exit }' >"$tmp/fn"
	read -r fstart fsize <"$tmp/fn" || { echo "$0: no symbol $f" >&2; exit 1; }
	"$objdump" -d --no-show-raw-insn --disassemble="$f" "$bin" | awk -v kmax=$KMAX '
		/^ *[0-9a-f]+:\t/ {
			a = $1; sub(/:$/, "", a)
			if (!n) {
				if ($2 == "br" || ($0 ~ /jmp/ && $0 ~ /\*%/))
					n = 1
				next
			}
			if (n == 1)
				s = a
			if (n++ == kmax + 1) { print s, a; exit }
		}' >"$tmp/blk"
	read -r bstart bend <"$tmp/blk" || { echo "$0: no site in $f" >&2; exit 1; }
}

# Prints "total inblock slots_ok" for one run: instructions executed in the
# function, those in the block, and 1 if exactly the block's last k
# instructions ran, each n times.
count() {
	mode=$1 k=$2 n=$3
	if [ -z "$emu" ]; then
		valgrind -q --tool=callgrind --toggle-collect="mess_count_$mode" \
			--dump-instr=yes --dump-line=no --compress-pos=no \
			--compress-strings=no --callgrind-out-file="$tmp/cg" \
			"$bin" count "$mode" "$k" "$n" >/dev/null ||
			{ echo "$0: valgrind $bin count $mode $k $n failed" >&2; return 1; }
		# "ADDR COST" lines of fn=mess_count_MODE (no calls in it).
		awk -v f="fn=mess_count_$mode" '
			/^fn=/ { in_f = ($0 == f); next }
			in_f && /^0x[0-9a-f]+ [0-9]+$/ { print $1, $2 }' "$tmp/cg" >"$tmp/cost"
	else
		range=
		[ $pie = 1 ] || range="-dfilter 0x$fstart+$fsize"
		# shellcheck disable=SC2086
		$emu -singlestep -d exec,nochain $range -D "$tmp/log" \
			"$bin" count "$mode" "$k" "$n" >/dev/null ||
			{ echo "$0: $emu $bin count $mode $k $n failed" >&2; return 1; }
		# "Trace CPU: HOSTPTR [FLAGS/PC/...] SYMBOL"; one per insn.
		awk -v f="mess_count_$mode" '
			$1 == "Trace" && $NF == f {
				split($4, p, "/"); print "0x" p[2], 1 }' "$tmp/log" >"$tmp/cost"
	fi
	awk -v fstart=$((0x$fstart)) -v bstart=$((0x$bstart)) \
		-v bend=$((0x$bend)) -v k="$k" -v n="$n" -v kmax=$KMAX -v pie=$pie '
		function hex(s,   i, v) {
			v = 0; s = tolower(substr(s, 3))
			for (i = 1; i <= length(s); i++)
				v = v * 16 + index("0123456789abcdef", substr(s, i, 1)) - 1
			return v
		}
		# Keys as "%.0f": awks may turn big numbers into "%.6g" keys.
		{ a = hex($1); if (NR == 1 || a < first) first = a; cost[sprintf("%.0f", a)] += $2; total += $2 }
		END {
			# A PIE runs at some load base.  The entry is the function'"'"'s
			# lowest address and always runs, so the lowest address seen
			# is fstart (callgrind lists costs in no particular order).
			base = pie ? first - fstart : 0
			bytes = (bend - bstart) / kmax
			from = bend - k * bytes
			ok = bytes == int(bytes)
			for (a in cost) {
				r = a + 0 - base
				if (r >= bstart && r < bend) {
					in_blk += cost[a]
					if (r < from || cost[a] != n || (r - bstart) % bytes)
						ok = 0
				}
			}
			# Every one of the last k slots ran.
			for (r = from; r < bend; r += bytes)
				if (cost[sprintf("%.0f", r + base)] != n)
					ok = 0
			print total + 0, in_blk + 0, ok
		}' "$tmp/cost"
}

fail=0
checks=0
for mode in $MODES; do
	locate "$mode"
	for n in $NS; do
		count "$mode" 0 "$n" >"$tmp/res" || exit 1
		read -r base inblk ok <"$tmp/res"
		if [ "$inblk" -ne 0 ]; then
			echo "FAIL $mode k=0 n=$n: $inblk block insns ran"
			fail=1
		fi
		for k in $KS; do
			count "$mode" "$k" "$n" >"$tmp/res" || exit 1
			read -r total inblk ok <"$tmp/res"
			diff=$((total - base))
			status=ok
			if [ $diff -ne $((k * n)) ] || [ "$inblk" -ne $((k * n)) ] ||
			   [ "$ok" -ne 1 ]; then
				status=FAIL
				fail=1
			fi
			checks=$((checks + 1))
			printf '%s\t%s\tk=%s\tn=%s\ttotal=%s\tbase=%s\tdiff=%s\tk*n=%s\tblock=%s\tslots=%s\n' \
				"$status" "$mode" "$k" "$n" "$total" "$base" "$diff" \
				$((k * n)) "$inblk" "$ok"
		done
	done
done
if [ $fail -ne 0 ]; then
	echo "noise-count ($bin${emu:+ under $emu}): FAILED"
	exit 1
fi
echo "noise-count ($bin${emu:+ under $emu}): $checks exact counts, count(k,N) - count(0,N) == k*N"
