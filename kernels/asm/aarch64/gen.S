/* SPDX-License-Identifier: MIT */
/*
 * Traffic generators for the bandwidth side of the Mess curves (aarch64).
 *
 * One template, GEN_MIX, writes one kernel per read/write mix and, right
 * beside it, that kernel's entry in its variant's table.  The entry's load
 * and store counts are the counters the template bumped while it emitted the
 * instructions, so the traffic the harness accounts for cannot drift from
 * the traffic the code issues.
 *
 * Registers (AAPCS64): x0 = ld, x1 = st, x2 = iters, x3 = nops,
 * x4 = pattern (stored as is by scalar), x5 = cksum; x9 the spin counter.
 * Vector variants: v0-v3 accumulators, v4 the store pattern, v16-v23 load
 * temporaries, scratch x10.  Scalar: x10-x13 accumulators, x14-x17 load
 * temporaries.  v8-v15 and x19-x28 are callee-saved and never touched.
 */

#include "mess_gen_table.h"

/* Largest immediate offsets: ldr/str x and q scale an unsigned imm12 by 8
 * and 16, ldp/stp q a signed imm7 by 16. */
#define MAXOFF_X		32760
#define MAXOFF_Q		65520
#define MAXOFF_QPAIR		1008

/*
 * One load of w bytes (8: ldr x, 16: ldr q, 32: ldp q) XOR-folded into
 * x<xa> or v<a>.  Each accumulator has its own temporaries so that in-order
 * cores, which do not rename, need not wait for one load before the next.
 */
.macro GEN_LOAD1 w, off, a, t, u, xa, xt
	.if \w == 32
	ldp	q\t, q\u, [x0, #\off]
	eor	v\a\().16b, v\a\().16b, v\t\().16b
	eor	v\a\().16b, v\a\().16b, v\u\().16b
	.elseif \w == 16
	ldr	q\t, [x0, #\off]
	eor	v\a\().16b, v\a\().16b, v\t\().16b
	.else
	ldr	x\xt, [x0, #\off]
	eor	x\xa, x\xa, x\xt
	.endif
.endm

/*
 * Load k goes to accumulator k % 4: four independent chains keep the XOR
 * latency off the critical path, and XOR-folding (rather than dropping the
 * value) keeps the load observable to the tests.
 */
.macro GEN_LOAD w, off, k
	.if ((\k) & 3) == 0
	GEN_LOAD1 \w, \off, 0, 16, 20, 10, 14
	.elseif ((\k) & 3) == 1
	GEN_LOAD1 \w, \off, 1, 17, 21, 11, 15
	.elseif ((\k) & 3) == 2
	GEN_LOAD1 \w, \off, 2, 18, 22, 12, 16
	.else
	GEN_LOAD1 \w, \off, 3, 19, 23, 13, 17
	.endif
.endm

.macro GEN_STORE w, off
	.if \w == 32
	stp	q4, q4, [x1, #\off]
	.elseif \w == 16
	str	q4, [x1, #\off]
	.else
	str	x4, [x1, #\off]
	.endif
.endm

/*
 * Rate control: a run-time count keeps one binary per mix for every
 * pressure level; inline, so nops = 0 costs a test and branch, not a call.
 */
.macro GEN_SPIN
	cbz	x3, 8f
	mov	x9, x3
7:
	nop
	subs	x9, x9, #1
	b.ne	7b
8:
.endm

/* Moves a pointer on (GEN_OPS, past the addressing mode's reach). */
.macro GEN_ADVANCE reg, bytes
	add	\reg, \reg, #\bytes
.endm

/*
 * mess_gen_<var>_s<s>(ld, st, iters, nops, pattern, cksum) and its table
 * entry.  w: bytes per operation (8: x registers, 16: q registers, 32: q
 * pairs); nt: the table's nontemporal flag; emit = 0 writes only the table
 * entry, fn NULL.
 */
.macro GEN_MIX var, s, w, nt, emit
	.if \w == 32
	.set	.Lmaxoff, MAXOFF_QPAIR
	.elseif \w == 16
	.set	.Lmaxoff, MAXOFF_Q
	.else
	.set	.Lmaxoff, MAXOFF_X
	.endif

	.if \emit
	.text
	.p2align 6
	.globl	mess_gen_\var\()_s\s
	.type	mess_gen_\var\()_s\s, %function
mess_gen_\var\()_s\s:
	.if \w == 8
	mov	x10, #0
	mov	x11, #0
	mov	x12, #0
	mov	x13, #0
	cbz	x2, 9f
	.else
	movi	v0.2d, #0
	movi	v1.2d, #0
	movi	v2.2d, #0
	movi	v3.2d, #0
	cbz	x2, 9f
	dup	v4.2d, x4
	.endif

	.p2align 6
1:
	.endif
	GEN_OPS \emit, \s, \w, .Lmaxoff, x0, x1, \w

	.if \emit
	subs	x2, x2, #1
	b.ne	1b
9:
	.if \w == 8
	eor	x10, x10, x11
	eor	x12, x12, x13
	eor	x9, x10, x12
	.else
	eor	v0.16b, v0.16b, v1.16b
	eor	v2.16b, v2.16b, v3.16b
	eor	v0.16b, v0.16b, v2.16b
	mov	x9, v0.d[0]
	mov	x10, v0.d[1]
	eor	x9, x9, x10
	.endif
	str	x9, [x5]
	ret
	.size	mess_gen_\var\()_s\s, . - mess_gen_\var\()_s\s
	.endif

	GEN_ENTRY \var, \s, \w, \nt, \emit
.endm


	GEN_VARIANT scalar,	8,  0, 1	/* ldr x / str x */
	GEN_VARIANT vec,	16, 0, 1	/* ldr q / str q */
	GEN_VARIANT wide,	32, 0, 1	/* ldp q / stp q */
/* No equivalent streaming store yet (DC ZVA is future work): fn NULL. */
	GEN_VARIANT nt,		16, 1, 0
	GEN_VARIANT wide_nt,	32, 1, 0

	.section .note.GNU-stack, "", %progbits
