#!/bin/sh
# SPDX-License-Identifier: MIT
#
# usage: tools/noise-census.sh [-o FILE] OBJDUMP OBJECT...
#
# Payload and overhead of the noise sites (kernels/c/noise_asm.h) in built
# objects, from their disassembly, and the size of the loops around them,
# for the relative absorption k1_rel = k1 / |clean loop body| (Section 2.4
# of the noise-injection paper).  OBJDUMP is the binutils objdump of the
# objects' ISA (objdump, aarch64-linux-gnu-objdump, ...).
#
# A site is found as its indirect jump (x86_64 "jmp *%reg", aarch64 "br")
# followed by MESS_NOISE_KMAX instructions of one noise mode; its overhead
# is the two instructions before the jump (block address, + skip), the jump,
# and for memory_ld64 the three after the block (cursor advance, compare,
# conditional move/select).  A loop is a backward branch to a target in the
# same function that the target reaches within target .. branch (its body,
# merged per target and where bodies overlap); a site
# belongs to the smallest loop around it.  Functions are kernels named
# mess_<kernel>_<mode>, the clean one mess_<kernel>_none.
#
# Output, TSV, one row per loop holding sites and per innermost loop of a
# clean (_none) function; sizes are static instruction counts:
#   file function kernel mode loop	where it is (function-relative
#					start-end of the body, or - for a site
#					outside any loop)
#   sites				noise sites in the loop
#   payload				KMAX per site: the block, of which k run
#   overhead				site instructions run per iteration
#					besides the payload, all sites
#   overhead_insns			their mnemonics, sites separated by ;
#   body				the loop without the payload blocks:
#					what runs per iteration at k = 0
#   clean_body				the same loop in mess_<kernel>_none
#					(matched by order among the innermost
#					loops; a list if they do not match up)
#   extra				body - overhead - clean_body: what the
#					compiler added around the sites (spills,
#					moves, rematerialized constants)
#   stack_ops clean_stack_ops		stack-addressed operands in body and
#					clean_body: spills show up here
# A site whose block is not KMAX instructions of one mode is reported with
# mode "?" on stderr, and the exit status is 1; 2 when objdump cannot read
# an object.
#
# With -o FILE (the build's share/mess/noise-loops.tsv, which mess absorb
# reads for k1_rel): the same table in FILE after comment lines (#) that
# say what it is and name the columns; a flagged site adds a "# flagged:"
# line.  When the census cannot run (no objdump, say) FILE is the single
# line "# unavailable: <reason>".  Exit 0 either way, so that a build never
# fails for want of it; 2 if FILE cannot be written.
set -eu

KMAX=256
usage() { echo "usage: $0 [-o FILE] OBJDUMP OBJECT..." >&2; exit 2; }
if [ "${1:-}" = -o ]; then
	[ $# -ge 4 ] || usage
	out=$2
	shift 2
	rc=0
	sh "$0" "$@" >"$out.tmp" 2>"$out.err" || rc=$?
	if [ $rc -le 1 ] && head -n1 "$out.tmp" | grep -q '^file	function	'; then
		{
			echo "# noise-loops.tsv: the noise sites of the C kernels and the loops around"
			echo "# them, by tools/noise-census.sh $1 at build time (its header explains"
			echo "# each column).  Lines starting with # are comments; the first other line"
			echo "# names the tab-separated columns, one row per loop; sizes are static"
			echo "# instruction counts, - when there is none.  mess absorb reads function"
			echo "# kernel mode sites overhead body clean_body extra."
			[ $rc -eq 0 ] || sed 's/^/# flagged: /' "$out.err"
			cat "$out.tmp"
		} >"$out.new" || exit 2
	else
		why=$(sed -n '1{s/^[^:]*noise-census[.sh]*: //;p;}' "$out.err")
		echo "# unavailable: ${why:-tools/noise-census.sh failed (exit $rc)}" >"$out.new" || exit 2
		echo "noise-census: $out: unavailable: ${why:-exit $rc}" >&2
	fi
	rm -f "$out.tmp" "$out.err"
	mv "$out.new" "$out" || exit 2
	exit 0
fi
[ $# -ge 2 ] || usage
objdump=$1
shift
command -v "$objdump" >/dev/null || { echo "$0: no $objdump" >&2; exit 2; }

# An object objdump cannot read is said (exit 2), not taken as no sites.
for f in "$@"; do
	echo "@@FILE $f"
	"$objdump" -d --no-show-raw-insn "$f" || echo "@@FAILED $f"
done | awk -v kmax=$KMAX -v objdump="$objdump" '
function hex(s,   i, v) {
	v = 0
	s = tolower(s)
	sub(/^0x/, "", s)
	for (i = 1; i <= length(s); i++)
		v = v * 16 + index("0123456789abcdef", substr(s, i, 1)) - 1
	return v
}

function strip_prefixes(t) {
	while (t ~ /^(notrack|bnd|lock|rep|repz|repnz|repe|repne|data16|cs|ds|ss|es|fs|gs|addr32|rex\.?[wrxb]*) /)
		sub(/^[^ ]+ +/, "", t)
	return t
}

# Noise class of one instruction text ("mnemonic operands"), "" if none.
function noise_class(t,   a) {
	if (t ~ /^addsd %xmm([89]|1[0-5]),%xmm([89]|1[0-5])$/) {
		split(substr(t, 7), a, ",")
		return a[1] == a[2] ? "fp_add64" : ""
	}
	if (t ~ /^vaddsd %xmm([89]|1[0-5]),%xmm([89]|1[0-5]),%xmm([89]|1[0-5])$/) {
		split(substr(t, 8), a, ",")
		return a[1] == a[2] && a[2] == a[3] ? "fp_add64" : ""
	}
	if (t ~ /^fadd d(2[4-9]|3[01]), d(2[4-9]|3[01]), d(2[4-9]|3[01])$/) {
		split(substr(t, 6), a, ", ")
		return a[1] == a[2] && a[2] == a[3] ? "fp_add64" : ""
	}
	if (t ~ /^add %r(8|9|10|11),%r(8|9|10|11)$/) {
		split(substr(t, 5), a, ",")
		return a[1] == a[2] ? "int64_add" : ""
	}
	if (t ~ /^add x(9|1[0-2]), x(9|1[0-2]), x(9|1[0-2])$/) {
		split(substr(t, 5), a, ", ")
		return a[1] == a[2] && a[2] == a[3] ? "int64_add" : ""
	}
	if (t ~ /^mov (0x[0-9a-f]+)?\(%r[a-z0-9]+\),%r(8|9|10|11)$/ ||
	    t ~ /^ldr x(9|1[0-2]), \[x[0-9]+(, #[0-9]+)?\]$/)
		return "ld64"
	return ""
}

# Load offset of a payload load (0 if none).
function ld_off(t,   m) {
	if (match(t, /0x[0-9a-f]+\(/))
		return hex(substr(t, RSTART, RLENGTH - 1))
	if (match(t, /#[0-9]+\]/))
		return substr(t, RSTART + 1, RLENGTH - 2) + 0
	return 0
}

function is_branch(t) {
	return t ~ /^(j[a-z]+|b|b\.[a-z]+|cbz|cbnz|tbz|tbnz|bc\.[a-z]+)[ \t]/
}

function is_indirect_jump(t) {
	return t ~ /^jmp +\*%/ || t ~ /^br x[0-9]+$/
}

function is_stack_op(t) {
	return t ~ /\(%rsp[),]|\[sp[],]|\[x29[],]/
}

function new_func(name) {
	nf++
	fname[nf] = name
	ffile[nf] = file
	ninsn[nf] = 0
}

/^@@FILE / { file = substr($0, 8); next }

/^@@FAILED / {
	printf "noise-census: %s cannot read %s\n", objdump, substr($0, 10) > "/dev/stderr"
	unread = 1
	next
}

/^[0-9a-f]+ <[^>]+>:$/ {
	name = $2
	gsub(/^<|>:$/, "", name)
	new_func(name)
	next
}

/^ *[0-9a-f]+:\t/ && nf {
	line = $0
	sub(/^ *[0-9a-f]+:\t/, "", line)
	if (line == "" || line ~ /^\(bad\)/)
		next
	addr = $1
	sub(/:$/, "", addr)
	n = ++ninsn[nf]
	ia[nf, n] = hex(addr)
	# "%.0f" keys: some awks turn big numbers into "%.6g" keys.
	at[nf, sprintf("%.0f", ia[nf, n])] = n
	# Drop the comments objdump adds (x86 "# 29c3 <f+0x23>", aarch64
	# "// b.any"; an aarch64 immediate "#8" is no comment).
	sub(/[ \t]+#[ \t]+(0x)?[0-9a-f]+( <[^>]*>)?$/, "", line)
	sub(/[ \t]+\/\/.*$/, "", line)
	gsub(/[ \t]+/, " ", line)
	it[nf, n] = strip_prefixes(line)
	next
}

END {
	bad = 0
	print "file\tfunction\tkernel\tmode\tloop\tsites\tpayload\toverhead\toverhead_insns\tbody\tclean_body\textra\tstack_ops\tclean_stack_ops"
	for (f = 1; f <= nf; f++)
		scan(f)
	# Clean functions by kernel, for the noisy rows.
	for (f = 1; f <= nf; f++) {
		kern = fname[f]
		sub(/\..*$/, "", kern)
		if (kern ~ /_none$/) {
			sub(/_none$/, "", kern)
			clean_of[kern] = f
		}
	}
	for (f = 1; f <= nf; f++)
		report(f)
	exit unread ? 2 : bad
}

# Sites and loops of function f.
function scan(f,   i, j, n, t, cls, c, tgt, m, s, lo, hi, off_max) {
	n = ninsn[f]
	nsite[f] = 0
	for (i = 1; i <= n; i++) {
		t = it[f, i]
		if (!is_indirect_jump(t) || i + kmax > n)
			continue
		cls = noise_class(it[f, i + 1])
		if (cls == "")
			continue
		off_max = 0
		for (j = 1; j <= kmax; j++) {
			c = noise_class(it[f, i + j])
			if (c != cls)
				break
			if (c == "ld64" && ld_off(it[f, i + j]) > off_max)
				off_max = ld_off(it[f, i + j])
		}
		s = ++nsite[f]
		site_at[f, s] = i + 1
		ovh_n[f, s] = 3
		ovh_t[f, s] = mnem(it[f, i - 2]) "," mnem(it[f, i - 1]) "," mnem(t)
		if (j <= kmax) {
			site_mode[f, s] = "?"
			bad = 1
			printf "noise-census: %s: %s: site at +0x%x: instruction %d of the block is \"%s\"\n", \
			    ffile[f], fname[f], ia[f, i + 1] - ia[f, 1], j, it[f, i + j] > "/dev/stderr"
			continue
		}
		if (cls == "ld64") {
			# Same instructions: the cursor advance after the block
			# tells memory_ld64 from l1_ld64.
			t = it[f, i + kmax + 1]
			if (t ~ /^add +\$0x8000,/ || t ~ /^add x[0-9]+, x[0-9]+, #0x8, lsl #12$/) {
				cls = "memory_ld64"
				ovh_n[f, s] = 6
				ovh_t[f, s] = ovh_t[f, s] ";" mnem(it[f, i + kmax + 1]) \
				    "," mnem(it[f, i + kmax + 2]) "," mnem(it[f, i + kmax + 3])
			} else if (off_max < 64) {
				cls = "l1_ld64"
			} else {
				cls = "?"
				bad = 1
				printf "noise-census: %s: %s: loads of a site spread beyond a line with no cursor advance\n", \
				    ffile[f], fname[f] > "/dev/stderr"
			}
		}
		site_mode[f, s] = cls
		fmode[f] = fmode[f] == "" || fmode[f] == cls ? cls : "mixed"
		i += kmax
	}
	# Loops: backward branches, merged per target.
	nloop[f] = 0
	for (i = 1; i <= n; i++) {
		t = it[f, i]
		if (!is_branch(t) || !match(t, /[0-9a-f]+ <[^>]+>$/))
			continue
		tgt = hex(substr(t, RSTART, index(substr(t, RSTART), " ") - 1))
		if (tgt > ia[f, i] || tgt < ia[f, 1])
			continue
		tgt = sprintf("%.0f", tgt)
		if (!((f, tgt) in at))
			continue
		lo = at[f, tgt]
		if (!reaches(f, lo, i))
			continue
		for (m = 1; m <= nloop[f]; m++)
			if (loop_lo[f, m] == lo)
				break
		if (m > nloop[f]) {
			nloop[f] = m
			loop_lo[f, m] = lo
			loop_hi[f, m] = i
		} else if (i > loop_hi[f, m])
			loop_hi[f, m] = i
	}
	merge_overlaps(f)
}

# Two back edges whose bodies overlap without nesting are one loop laid out
# in pieces (a rotated loop with an if-else, say): take the union.
function merge_overlaps(f,   m, o, changed, a, b) {
	do {
		changed = 0
		for (m = 1; m <= nloop[f] && !changed; m++)
			for (o = m + 1; o <= nloop[f] && !changed; o++) {
				a = loop_lo[f, m] < loop_lo[f, o] ? m : o
				b = a == m ? o : m
				if (loop_lo[f, b] > loop_hi[f, a] ||
				    loop_hi[f, b] <= loop_hi[f, a])
					continue
				loop_hi[f, a] = loop_hi[f, b]
				loop_lo[f, b] = loop_lo[f, nloop[f]]
				loop_hi[f, b] = loop_hi[f, nloop[f]]
				nloop[f]--
				changed = 1
			}
	} while (changed)
	sort_loops(f)
}

# Address order, so that the n-th innermost loops of two functions match.
function sort_loops(f,   m, o, t) {
	for (m = 2; m <= nloop[f]; m++)
		for (o = m; o > 1 && loop_lo[f, o - 1] > loop_lo[f, o]; o--) {
			t = loop_lo[f, o]; loop_lo[f, o] = loop_lo[f, o - 1]; loop_lo[f, o - 1] = t
			t = loop_hi[f, o]; loop_hi[f, o] = loop_hi[f, o - 1]; loop_hi[f, o - 1] = t
		}
}

function target(t) {
	if (!match(t, /[0-9a-f]+ <[^>]+>$/))
		return -1
	return hex(substr(t, RSTART, index(substr(t, RSTART), " ") - 1))
}

function is_uncond(t) {
	return t ~ /^(jmp|ret|retq|ud2|b|ret|brk|udf)([ \t]|$)/ && !is_indirect_jump(t)
}

# Whether the branch at index hi can be reached from index lo without
# leaving lo..hi: a backward branch to a join point is no loop.  Indirect
# jumps (the sites) are taken to fall through.
function reaches(f, lo, hi,   i, r, changed, t, g) {
	split("", r)
	r[lo] = 1
	do {
		changed = 0
		for (i = lo; i <= hi; i++) {
			if (!(i in r))
				continue
			t = it[f, i]
			if (!is_uncond(t) && i < hi && !((i + 1) in r)) {
				r[i + 1] = 1
				changed = 1
			}
			if (is_branch(t) && (g = target(t)) >= 0 &&
			    ((f, g = sprintf("%.0f", g)) in at)) {
				g = at[f, g]
				if (g >= lo && g <= hi && !(g in r)) {
					r[g] = 1
					changed = 1
				}
			}
		}
	} while (changed)
	return hi in r
}

function mnem(t) {
	sub(/[ \t].*$/, "", t)
	return t
}

# Loop m of f contains no other loop of f.
function innermost(f, m,   o) {
	for (o = 1; o <= nloop[f]; o++)
		if (o != m && loop_lo[f, o] >= loop_lo[f, m] &&
		    loop_hi[f, o] <= loop_hi[f, m] &&
		    (loop_lo[f, o] != loop_lo[f, m] || loop_hi[f, o] != loop_hi[f, m]))
			return 0
	return 1
}

# Static size of loop m of f less its payload blocks, and its stack ops.
function body_size(f, m,   i, s, n) {
	n = loop_hi[f, m] - loop_lo[f, m] + 1
	for (s = 1; s <= nsite[f]; s++)
		if (site_at[f, s] >= loop_lo[f, m] && site_at[f, s] <= loop_hi[f, m])
			n -= kmax
	return n
}

function stack_ops(f, m,   i, n, s) {
	n = 0
	for (i = loop_lo[f, m]; i <= loop_hi[f, m]; i++)
		if (is_stack_op(it[f, i]))
			n++
	for (s = 1; s <= nsite[f]; s++)
		if (site_at[f, s] >= loop_lo[f, m] && site_at[f, s] <= loop_hi[f, m])
			for (i = site_at[f, s]; i < site_at[f, s] + kmax; i++)
				if (is_stack_op(it[f, i]))
					n--
	return n
}

function range(f, m) {
	return sprintf("0x%x-0x%x", ia[f, loop_lo[f, m]] - ia[f, 1], ia[f, loop_hi[f, m]] - ia[f, 1])
}

function report(f,   kern, base, mode, c, m, s, best, nin, cin, cl, k, sites, ovh, ovt, body, cbody, cst, list, idx) {
	base = fname[f]
	sub(/\..*$/, "", base)
	if (nsite[f] == 0) {
		if (base !~ /_none$/)
			return
		kern = base
		sub(/_none$/, "", kern)
		for (m = 1; m <= nloop[f]; m++)
			if (innermost(f, m))
				printf "%s\t%s\t%s\tnone\t%s\t0\t0\t0\t-\t%d\t%d\t0\t%d\t%d\n", \
				    ffile[f], fname[f], kern, range(f, m), \
				    body_size(f, m), body_size(f, m), stack_ops(f, m), stack_ops(f, m)
		return
	}
	mode = fmode[f]
	kern = base
	if (mode != "mixed" && mode != "?")
		sub("_" mode "$", "", kern)
	c = (kern in clean_of) ? clean_of[kern] : 0
	# The innermost loops of the clean function, in address order.
	cin = 0
	if (c)
		for (m = 1; m <= nloop[c]; m++)
			if (innermost(c, m))
				cl[++cin] = m
	# Group sites by their smallest enclosing loop.
	nin = 0
	for (m = 1; m <= nloop[f]; m++) {
		sites = 0
		ovh = 0
		ovt = ""
		for (s = 1; s <= nsite[f]; s++)
			if (site_at[f, s] >= loop_lo[f, m] && site_at[f, s] <= loop_hi[f, m] &&
			    smallest(f, site_at[f, s]) == m) {
				sites++
				ovh += ovh_n[f, s]
				ovt = ovt (ovt == "" ? "" : ";") ovh_t[f, s]
			}
		if (innermost(f, m))
			nin++
		if (!sites)
			continue
		body = body_size(f, m)
		cbody = "-"
		cst = "-"
		if (cin == 1 || (innermost(f, m) && cin == count_innermost(f))) {
			idx = cin == 1 ? 1 : nin
			cbody = body_size(c, cl[idx])
			cst = stack_ops(c, cl[idx])
		} else if (cin) {
			cbody = ""
			for (idx = 1; idx <= cin; idx++)
				cbody = cbody (idx > 1 ? "," : "") body_size(c, cl[idx])
		}
		printf "%s\t%s\t%s\t%s\t%s\t%d\t%d\t%d\t%s\t%d\t%s\t%s\t%d\t%s\n", \
		    ffile[f], fname[f], kern, site_mode[f, first_site(f, m)], range(f, m), \
		    sites, kmax, ovh, ovt, body, cbody, \
		    cbody ~ /^[0-9]+$/ ? body - ovh - cbody : "-", stack_ops(f, m), cst
	}
	# Sites outside any loop.
	for (s = 1; s <= nsite[f]; s++)
		if (!smallest(f, site_at[f, s]))
			printf "%s\t%s\t%s\t%s\t-\t1\t%d\t%d\t%s\t-\t-\t-\t-\t-\n", \
			    ffile[f], fname[f], kern, site_mode[f, s], kmax, ovh_n[f, s], ovh_t[f, s]
}

function smallest(f, i,   m, best) {
	best = 0
	for (m = 1; m <= nloop[f]; m++)
		if (i >= loop_lo[f, m] && i <= loop_hi[f, m] &&
		    (!best || loop_hi[f, m] - loop_lo[f, m] < loop_hi[f, best] - loop_lo[f, best]))
			best = m
	return best
}

function first_site(f, m,   s) {
	for (s = 1; s <= nsite[f]; s++)
		if (smallest(f, site_at[f, s]) == m)
			return s
	return 0
}

function count_innermost(f,   m, n) {
	n = 0
	for (m = 1; m <= nloop[f]; m++)
		if (innermost(f, m))
			n++
	return n
}
'
