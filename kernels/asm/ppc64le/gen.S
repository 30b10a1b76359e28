/* SPDX-License-Identifier: MIT */
/*
 * Traffic generators for the bandwidth side of the Mess curves (ppc64le,
 * ELFv2).
 *
 * One template, GEN_MIX, writes one kernel per read/write mix and, right
 * beside it, that kernel's entry in its variant's table.  The entry's load
 * and store counts are the counters the template bumped while it emitted the
 * instructions, so the traffic the harness accounts for cannot drift from
 * the traffic the code issues.
 *
 * Registers: r3 = ld, r4 = st, r5 = iters, r6 = nops, r7 = pattern,
 * r8 = cksum; ctr counts the nop spin and cr7 holds nops == 0.
 *  scalar: r9-r12 accumulators, r0 the load temporary.
 *  vec:    vs0-vs3 accumulators, vs4 the store pattern, vs6/vs8/vs10/vs12
 *          load temporaries; r9-r12, r0 and r7 (free once the pattern is in
 *          vs4) hold the offsets 16..96 that indexed VSX addressing needs.
 *  wide:   as vec, with the pairs vs4:vs5 and vs6:vs7 .. vs12:vs13.
 * Only volatile state (r0, r3-r12, ctr, cr0, cr7, XER[CA], vs0-vs13) is
 * touched, so no kernel needs a stack frame; none uses the TOC, so none
 * needs a separate global entry point.
 */

#include "mess_gen_table.h"

/*
 * Largest offsets before the pointer is moved.  ld/std (DS-form) reach a
 * signed 16-bit multiple of 4 and lxvp/stxvp (DQ-form) one of 16; both
 * limits are lowered so that the rebase (at most MAXOFF + width) still fits
 * addi's signed 16-bit immediate.  lxvd2x/stxvd2x take no displacement at
 * all: their reach is the six offset registers, 16..96.
 */
#define MAXOFF_DS		32752
#define MAXOFF_DQ		32704
#define MAXOFF_X		96

	.abiversion 2
	/* Base ISA of the port; only the wide kernels lift it (see below). */
	.machine power8

/*
 * VSX indexed access: offset 0 is RA = 0 with the pointer as RB, the others
 * use the register preloaded with that offset, so no access waits on an
 * address computed from the access before it.
 */
.macro GEN_VX op, t, base, off
	.if \off == 0
	\op	%vs\t, 0, %r\base
	.elseif \off == 16
	\op	%vs\t, %r\base, %r9
	.elseif \off == 32
	\op	%vs\t, %r\base, %r10
	.elseif \off == 48
	\op	%vs\t, %r\base, %r11
	.elseif \off == 64
	\op	%vs\t, %r\base, %r12
	.elseif \off == 80
	\op	%vs\t, %r\base, %r0
	.elseif \off == 96
	\op	%vs\t, %r\base, %r7
	.else
	.error	"GEN_VX: no offset register for this offset"
	.endif
.endm

/*
 * One load of w bytes XOR-folded into accumulator g (scalar) or v (VSX).
 * Doubleword order within a VSX register (lxvd2x swaps on little-endian,
 * lxvp orders the pair by endianness) cannot change an XOR of all words.
 */
.macro GEN_LOAD1 w, off, g, v, t, u
	.if \w == 8
	ld	%r0, \off(%r3)
	xor	%r\g, %r\g, %r0
	.elseif \w == 16
	GEN_VX	lxvd2x, \t, 3, \off
	xxlxor	%vs\v, %vs\v, %vs\t
	.else
	lxvp	%vs\t, \off(%r3)
	xxlxor	%vs\v, %vs\v, %vs\t
	xxlxor	%vs\v, %vs\v, %vs\u
	.endif
.endm

/*
 * Load k goes to accumulator k % 4: four independent chains keep the XOR
 * latency off the critical path, and XOR-folding (rather than dropping the
 * value) keeps the load observable to the tests.  Scalar loads share r0:
 * renaming removes the false dependence, and no GPR is left for more.
 */
.macro GEN_LOAD w, off, k
	.if ((\k) & 3) == 0
	GEN_LOAD1 \w, \off, 9, 0, 6, 7
	.elseif ((\k) & 3) == 1
	GEN_LOAD1 \w, \off, 10, 1, 8, 9
	.elseif ((\k) & 3) == 2
	GEN_LOAD1 \w, \off, 11, 2, 10, 11
	.else
	GEN_LOAD1 \w, \off, 12, 3, 12, 13
	.endif
.endm

/* Every doubleword of vs4 (and vs5) holds the pattern, so neither the
 * little-endian element order nor the pair order shows in memory. */
.macro GEN_STORE w, off
	.if \w == 8
	std	%r7, \off(%r4)
	.elseif \w == 16
	GEN_VX	stxvd2x, 4, 4, \off
	.else
	stxvp	%vs4, \off(%r4)
	.endif
.endm

/*
 * Rate control: a run-time count keeps one binary per mix for every
 * pressure level; inline, so nops = 0 costs one branch on cr7, which was
 * set once on entry, not a compare per spin.
 */
.macro GEN_SPIN
	beq	%cr7, 8f
	mtctr	%r6
7:
	nop
	bdnz	7b
8:
.endm

/* Moves a pointer on (GEN_OPS, past the addressing mode's reach). */
.macro GEN_ADVANCE reg, bytes
	addi	\reg, \reg, \bytes
.endm

/*
 * mess_gen_<var>_s<s>(ld, st, iters, nops, pattern, cksum) and its table
 * entry.  w: bytes per operation (8: ld/std, 16: lxvd2x/stxvd2x, 32:
 * lxvp/stxvp); nt: the table's nontemporal flag; emit = 0 writes only the
 * table entry, fn NULL.
 */
.macro GEN_MIX var, s, w, nt, emit
	.if \w == 8
	.set	.Lmaxoff, MAXOFF_DS
	.elseif \w == 16
	.set	.Lmaxoff, MAXOFF_X
	.else
	.set	.Lmaxoff, MAXOFF_DQ
	.endif

	.if \emit
	.text
	.p2align 6
	.globl	mess_gen_\var\()_s\s
	.type	mess_gen_\var\()_s\s, @function
mess_gen_\var\()_s\s:
	.if \w == 8
	li	%r9, 0
	li	%r10, 0
	li	%r11, 0
	li	%r12, 0
	.else
	xxlxor	%vs0, %vs0, %vs0
	xxlxor	%vs1, %vs1, %vs1
	xxlxor	%vs2, %vs2, %vs2
	xxlxor	%vs3, %vs3, %vs3
	.endif
	cmpdi	%r5, 0
	beq	9f
	cmpdi	%cr7, %r6, 0
	.if \w != 8
	/* mtvsrd fills doubleword 0 only; splat it to both. */
	mtvsrd	%vs4, %r7
	xxpermdi %vs4, %vs4, %vs4, 0
	.if \w == 32
	xxlor	%vs5, %vs4, %vs4
	.else
	li	%r9, 16
	li	%r10, 32
	li	%r11, 48
	li	%r12, 64
	li	%r0, 80
	li	%r7, 96
	.endif
	.endif

	.p2align 6
1:
	.endif
	GEN_OPS \emit, \s, \w, .Lmaxoff, %r3, %r4, \w

	.if \emit
	/* The spin owns ctr, so the iteration count lives in r5. */
	subic.	%r5, %r5, 1
	bne	1b
9:
	.if \w == 8
	xor	%r9, %r9, %r10
	xor	%r11, %r11, %r12
	xor	%r9, %r9, %r11
	.else
	xxlxor	%vs0, %vs0, %vs1
	xxlxor	%vs2, %vs2, %vs3
	xxlxor	%vs0, %vs0, %vs2
	/* POWER8 moves only doubleword 0 to a GPR: fold the other in. */
	xxpermdi %vs1, %vs0, %vs0, 2
	xxlxor	%vs0, %vs0, %vs1
	mfvsrd	%r9, %vs0
	.endif
	std	%r9, 0(%r8)
	blr
	.size	mess_gen_\var\()_s\s, . - mess_gen_\var\()_s\s
	.endif

	GEN_ENTRY \var, \s, \w, \nt, \emit
.endm


	GEN_VARIANT scalar,	8, 0, 1		/* ld / std */
	GEN_VARIANT vec,	16, 0, 1	/* lxvd2x / stxvd2x, VSX */
/* lxvp/stxvp are ISA 3.1: only these kernels may assume POWER10, and the
 * harness runs them only where AT_HWCAP2 says ARCH_3_1. */
	.machine push
	.machine power10
	GEN_VARIANT wide,	32, 0, 1	/* lxvp / stxvp */
	.machine pop
/* No non-temporal store instruction on this ISA: fn NULL. */
	GEN_VARIANT nt,		16, 1, 0
	GEN_VARIANT wide_nt,	32, 1, 0

	.section .note.GNU-stack, "", @progbits
