#!/bin/sh
# SPDX-License-Identifier: MIT
#
# usage: tools/suite-times.sh FILE
#
# make check's time per suite from tools/suite-time.sh's lines: for each
# check-* target the wall time from its first recipe line's start to its
# last one's end (the builds it waited for are not in it), longest first,
# then the builds' summed time and the whole span.  Only the outermost
# make's lines count: an inner make's (a suite running make again) lie
# inside a line of its suite.
[ -s "$1" ] || exit 0
top=$(awk -F'\t' 'NR == 1 || $4 < m { m = $4 } END { print m }' "$1")
awk -F'\t' -v top="$top" '
	$4 != top { next }
	$1 ~ /^check-/ { if (!($1 in s) || $2 < s[$1]) s[$1] = $2; if ($3 > e[$1]) e[$1] = $3 }
	$1 !~ /^check-/ { b += $3 - $2 }
	{ if (lo == "" || $2 < lo) lo = $2; if ($3 > hi) hi = $3 }
	END {
		for (k in s) printf "%8.0f s  %s\n", e[k] - s[k], k | "sort -rn"
		close("sort -rn")
		printf "%8.0f s  builds (summed, side by side with the suites)\n", b
		printf "%8.0f s  from the first recipe line to the last\n", hi - lo
	}' "$1"
