#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# usage: tools/layering.sh [ROOT]
#
# The include rules of the layers (README, Makefile): dependencies point
# down only, main.c -> harness/<command>/ -> harness/core/ -> lib/ with
# include/mess/, and the kernels stand alone.  From the #include lines of
# the tree at ROOT (default: this repository):
#   lib/, include/mess/  only "mess/..." headers, and none of hwloc, libnuma
#                        or pthread (a simulator links lib/ alone)
#   harness/core/        only "core/...", "mess/..." and the kernel headers
#                        (kernels/include/*.h, kernels/c/*.h and the ISA's
#                        kernels/asm/<isa>/port.h by bare name);
#                        never a command folder's header
#   harness/<command>/   never another command folder's header, and no
#                        libpfm4 header (<perfmon/...>): the PMU layer in
#                        harness/core/ is the one place that links libpfm4
#   kernels/             only their own headers: nothing of harness/, lib/
#                        or include/
#   harness/core/<svc>/  only the headers of its own service and of services
#                        a rank below it (harness/core/README.md; the
#                        files directly in harness/core/ are rank 0)
#   lib/<folder>/        (and include/mess/<x>.h, which belongs to the folder
#                        of lib/*/<x>.c, or to the table below) only the
#                        headers of its own folder and of folders a rank
#                        below it (lib/README.md)
# Prints each violation as "file:line: <what> includes <header>: <rule>".
# Exit status: 0 none, 1 some, 2 usage.
set -euo pipefail

root=${1:-$(dirname "$0")/..}
[ -d "$root/harness" ] || { echo "usage: $0 [ROOT] (no harness/ in $root)" >&2; exit 2; }
cd "$root"

# lib/'s folders by rank, and the public headers with no source of their
# own name.
lib_ranks="base:0 model:1 pmu:1 sample:1 formats:2 absorb:2 sets:3"
lib_extra="loadset:formats trace_parse:formats"
core_ranks="core:0 machine:1 measure:2 pmu:2 report:2 rundir:3 compare:3 ladder:3 tail:3"
core_dirs=$(find harness/core -mindepth 1 -maxdepth 1 -type d -printf '%f ' 2>/dev/null)
lib_owner=$(find lib -mindepth 2 -maxdepth 2 -name '*.c' 2>/dev/null |
	sed -E 's|^lib/([^/]+)/([^/]+)\.c$|\2:\1|' | tr '\n' ' ')
lib_dirs=$(find lib -mindepth 1 -maxdepth 1 -type d -printf '%f ' 2>/dev/null)

# The command folders, and the kernel headers included by bare name.
cmds=$(find harness -mindepth 1 -maxdepth 1 -type d ! -name core -printf '%f\n' | sort)
khdrs=$( { find kernels/include kernels/c -maxdepth 1 -name '*.h' -printf '%f\n'; find kernels/asm -mindepth 2 -maxdepth 2 -name port.h -printf '%f\n'; } 2>/dev/null | sort -u)
kall=$(find kernels -name '*.h' -printf '%f\n' 2>/dev/null | sort -u)

dirs=
for d in lib include/mess harness kernels; do
	[ -d "$d" ] && dirs+=" $d"
done
# shellcheck disable=SC2086
grep -rnE --include='*.c' --include='*.h' --include='*.S' \
	'^[[:space:]]*#[[:space:]]*include[[:space:]]*[<"][^">]+[">]' $dirs |
	awk -v cmds="$cmds" -v khdrs="$khdrs" -v kall="$kall" \
	    -v ranks="$lib_ranks" -v owners="$lib_owner $lib_extra" -v ldirs="$lib_dirs" \
	    -v cranks="$core_ranks" -v cdirs="$core_dirs" '
BEGIN {
	split(cmds, a, "\n")
	for (i in a)
		if (a[i] != "")
			is_cmd[a[i]] = 1
	split(khdrs, a, "\n")
	for (i in a)
		if (a[i] != "")
			is_khdr[a[i]] = 1
	split(kall, a, "\n")
	for (i in a)
		if (a[i] != "")
			is_kown[a[i]] = 1
	banned["hwloc.h"] = banned["numa.h"] = banned["numaif.h"] = 1
	banned["pthread.h"] = 1
	n = split(ranks, a, " ")
	for (i = 1; i <= n; i++) {
		split(a[i], kv, ":")
		rank[kv[1]] = kv[2]
	}
	n = split(owners, a, " ")
	for (i = 1; i <= n; i++) {
		split(a[i], kv, ":")
		owner[kv[1]] = kv[2]
	}
	n = split(ldirs, a, " ")
	for (i = 1; i <= n; i++)
		if (a[i] != "" && !(a[i] in rank)) {
			printf "lib/%s: a lib/ folder with no rank in tools/layering.sh\n", a[i]
			bad = 1
		}
	n = split(cranks, a, " ")
	for (i = 1; i <= n; i++) {
		split(a[i], kv, ":")
		crank[kv[1]] = kv[2]
	}
	n = split(cdirs, a, " ")
	for (i = 1; i <= n; i++)
		if (a[i] != "" && !(a[i] in crank)) {
			printf "harness/core/%s: a core service with no rank in tools/layering.sh\n", a[i]
			bad = 1
		}
	bad = bad + 0
}

# The core service of a path under harness/core/ or of a "core/..."
# header: its folder, "core" for the files directly in harness/core/.
function core_svc(f) {
	sub(/^harness\//, "", f)
	if (f ~ /^core\/[^\/]+\//) {
		sub(/^core\//, "", f)
		sub(/\/.*/, "", f)
		return f
	}
	return "core"
}

# The lib/ folder a file belongs to: its own folder, or the owner of the header.
function lib_folder(f,    b) {
	if (f ~ /^lib\/[^\/]+\//) {
		b = f
		sub(/^lib\//, "", b)
		sub(/\/.*/, "", b)
		return b
	}
	b = f
	sub(/^.*\//, "", b)
	sub(/\.h$/, "", b)
	return owner[b]
}

function say(what, hdr, rule) {
	printf "%s:%s: %s includes %s: %s\n", file, line, what, hdr, rule
	bad = 1
}

{
	# file:line:text; a path holds no colon here.
	file = $0
	sub(/:.*/, "", file)
	rest = substr($0, length(file) + 2)
	line = rest
	sub(/:.*/, "", line)
	text = substr(rest, length(line) + 2)
	match(text, /[<"][^">]+[">]/)
	hdr = substr(text, RSTART, RLENGTH)
	name = substr(hdr, 2, RLENGTH - 2)
	quoted = substr(hdr, 1, 1) == "\""
	top = name
	sub(/\/.*/, "", top)
	if (name !~ /\//)
		top = ""

	if (file ~ /^(lib|include\/mess)\//) {
		if (quoted && top != "mess")
			say("lib", hdr, "lib/ and include/mess/ include only \"mess/...\" headers")
		else if (!quoted && (name in banned || top == "hwloc"))
			say("lib", hdr, "lib/ and include/mess/ use neither hwloc, libnuma nor pthread")
		else if (!quoted && top == "perfmon")
			say("lib", hdr, "libpfm4 is used in harness/core/ only")
		else if (quoted && top == "mess") {
			from = lib_folder(file)
			h = name
			sub(/^mess\//, "", h)
			sub(/\.h$/, "", h)
			to = owner[h]
			if (from != "" && to != "" && from != to &&
			    (!(from in rank) || !(to in rank) || rank[to] >= rank[from]))
				say("lib/" from, hdr, "a lib/ folder includes only its own headers and those of folders a rank below it (lib/README.md)")
		}
	} else if (file ~ /^harness\/core\//) {
		if (!quoted)
			next
		if (top in is_cmd)
			say("core", hdr, "harness/core/ never includes a command folder'"'"'s header")
		else if (top != "core" && top != "mess" && !(top == "" && name in is_khdr))
			say("core", hdr, "harness/core/ includes only \"core/...\", \"mess/...\" and kernel headers")
		else if (top == "core") {
			from = core_svc(file)
			to = core_svc(name)
			if (from != to && (!(from in crank) || !(to in crank) || crank[to] >= crank[from]))
				say("core/" from, hdr, "a core service includes only its own headers and those of services a rank below it (harness/core/README.md)")
		}
	} else if (file ~ /^harness\/[^\/]+\//) {
		cmd = file
		sub(/^harness\//, "", cmd)
		sub(/\/.*/, "", cmd)
		if (quoted && top != cmd && (top in is_cmd))
			say("command " cmd, hdr, "a command never includes another command folder'"'"'s header")
		else if (!quoted && top == "perfmon")
			say("command " cmd, hdr, "libpfm4 is used in harness/core/ only")
	} else if (file ~ /^kernels\//) {
		if (!quoted)
			next
		if (top == "core" || top == "mess" || (top in is_cmd) || name ~ /^\.\.\/|\/\.\.\// ||
		    (top == "" && !(name in is_kown)))
			say("kernel", hdr, "kernels/ include only their own headers, nothing of harness/, lib/ or include/")
	}
}

END { exit bad }
'
