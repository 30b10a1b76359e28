#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# usage: tests/fleet-synth.sh RUN OUT N [I:EDIT...]
#
# A synthetic fleet for mess fleet: N node directories OUT/node0001 ...
# made from ONE real run RUN (a curve run directory; its absorb/ and
# ladder/ are copied along where there are), so that the nodes differ only
# by what is put in here, never by the noise of separate runs.
#
# Every node gets a small deterministic spread, so that the group has one:
# latencies x (1 + l_i), l_i spread evenly over -0.5 % .. +0.5 % (i x 59
# mod 101), bandwidths x (1 + b_i), b_i over -0.1 % .. +0.1 % (i x 37 mod
# 101): less, because the latency at a common bandwidth multiplies a
# bandwidth difference by the curve's slope there, which a noisy quick run
# can make steep.  The EDITs of node I (1-based) come on top:
#   I:bw=F          every bandwidth of the curves x F (0.8: 20 % lower)
#   I:lat=F         every latency of the curves, the unloaded latency and
#                   the ladder's memory level x F (1.15: 15 % higher)
#   I:stride=B      meta.json says the chase stride was B bytes
#   I:cpu=MODEL     meta.json's cpu_model (another group)
#   I:incomplete    meta.json says "complete": false
#   I:verdict=V     meta.json's quality.verdict (PASS, WARN, INVALID,
#                   pending; RUN's meta.json must have a quality)
# With JITTER=J and SEED=S in the environment, every node's bandwidths are
# also x (1 + U(-J, J)), drawn by awk's srand(S): a fleet of "identical"
# nodes with a real one's noise (JITTER=0.02: +-2 %).
# Only the files mess fleet reads are written.  One awk process writes
# every node: 1,000 nodes take a few seconds.
set -euo pipefail

[ $# -ge 3 ] || { sed -n '3,29p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2; }
run=$1 out=$2 n=$3
shift 3
for f in curves.csv meta.json; do
	[ -f "$run/$f" ] || { echo "fleet-synth: $run/$f: no such file" >&2; exit 2; }
done
mkdir -p "$out"

# The source files, each as "<relative path>\t<file>"; the awk program
# reads them all, then writes each node's copies.
list=$(for f in curves.csv meta.json summary.json ladder/summary.json ladder/meta.json \
	absorb/meta.json absorb/summary.json absorb/absorption.csv; do
	if [ -f "$run/$f" ]; then printf '%s\n' "$f"; fi
done)
dirs=$(for ((i = 1; i <= n; i++)); do
	printf '%s/node%04d\n' "$out" "$i"
	for d in ladder absorb; do
		if [ -d "$run/$d" ]; then printf '%s/node%04d/%s\n' "$out" "$i" "$d"; fi
	done
done)
printf '%s\n' "$dirs" | xargs mkdir -p

# shellcheck disable=SC2016
awk -v n="$n" -v out="$out" -v run="$run" -v edits="$*" -v files="$list" \
	-v jitter="${JITTER:-0}" -v seed="${SEED:-1}" '
function scale_csv(line, fb, fl,   f, k, m) {
	m = split(line, f, ",")
	for (k = 4; k <= 6; k++) if (f[k] != "") f[k] = sprintf("%.6f", f[k] * fb)
	if (f[7] != "") f[7] = sprintf("%.4f", f[7] * fl)
	line = f[1]
	for (k = 2; k <= m; k++) line = line "," f[k]
	return line
}
# "key": number  ->  "key": number x factor, keeping the rest of the line.
function scale_num(line, fac,   pre, num, post) {
	if (!match(line, /: -?[0-9.]+/)) return line
	pre = substr(line, 1, RSTART + 1)
	num = substr(line, RSTART + 2, RLENGTH - 2)
	post = substr(line, RSTART + RLENGTH)
	return pre sprintf("%.4f", num * fac) post
}
BEGIN {
	srand(seed)
	nf = split(files, name, "\n")
	for (k = 1; k <= nf; k++) {
		src = run "/" name[k]
		nl[k] = 0
		while ((getline l < src) > 0) text[k, ++nl[k]] = l
		close(src)
	}
	ne = split(edits, e, " ")
	for (k = 1; k <= ne; k++) {
		split(e[k], ie, ":")
		split(ie[2], kv, "=")
		ed[ie[1] + 0, kv[1]] = (kv[1] == "incomplete") ? 1 : kv[2]
	}
	for (i = 1; i <= n; i++) {
		node = sprintf("%s/node%04d", out, i)
		fb = 1 + ((i * 37) % 101 - 50) / 50000
		fl = 1 + ((i * 59) % 101 - 50) / 10000
		if (jitter > 0) fb *= 1 + jitter * (2 * rand() - 1)
		if ((i, "bw") in ed) fb *= ed[i, "bw"]
		if ((i, "lat") in ed) fl *= ed[i, "lat"]
		for (k = 1; k <= nf; k++) {
			dst = node "/" name[k]
			inlevel = ""
			for (r = 1; r <= nl[k]; r++) {
				l = text[k, r]
				if (name[k] == "curves.csv" && r > 1)
					l = scale_csv(l, fb, fl)
				else if (name[k] == "meta.json" || name[k] == "summary.json") {
					if (l ~ /^  "quality": \{/) inq = 1
					else if (l ~ /^  [}"]/) inq = 0
					if (inq && l ~ /^    "verdict": / && (i, "verdict") in ed && name[k] == "meta.json")
						sub(/: "[^"]*"/, ": \"" ed[i, "verdict"] "\"", l)
					if (l ~ /^  "unloaded_ns": / || l ~ /^  "unloaded_random_ns": /)
						l = scale_num(l, fl)
					if (l ~ /"stride_bytes": / && (i, "stride") in ed && name[k] == "meta.json")
						sub(/: [0-9]+/, ": " ed[i, "stride"], l)
					if (l ~ /^  "cpu_model": / && (i, "cpu") in ed)
						l = "  \"cpu_model\": \"" ed[i, "cpu"] "\","
					if (l ~ /^  "complete": / && (i, "incomplete") in ed)
						l = "  \"complete\": false"
				} else if (name[k] == "ladder/summary.json" || name[k] == "absorb/summary.json") {
					if (l ~ /"level": "memory"/) inlevel = "memory"
					if (inlevel == "memory" && l ~ /"latency_ns": /) {
						l = scale_num(l, fl)
						inlevel = ""
					}
				}
				print l > dst
			}
			close(dst)
		}
	}
}'
