/* SPDX-License-Identifier: MIT */
/*
 * Traffic generators for the bandwidth side of the Mess curves (riscv64).
 *
 * One template, GEN_MIX, writes one kernel per read/write mix and, right
 * beside it, that kernel's entry in its variant's table.  The entry's load
 * and store counts are the counters the template bumped while it emitted the
 * instructions, so the traffic the harness accounts for cannot drift from
 * the traffic the code issues.
 *
 * Registers (LP64D): a0 = ld, a1 = st, a2 = iters, a3 = nops,
 * a4 = pattern, a5 = cksum; a7 the spin count.
 *  scalar: t0-t3 accumulators, t4-t6 and a6 load temporaries.
 *  vector: v8, v12, v16, v20 accumulators, v4 the store pattern, v24 and
 *          v28 load temporaries (register groups aligned for LMUL = 4);
 *          t0-t3 load addresses, t4 store addresses.
 * Every one of these is caller-saved (the psABI has no callee-saved vector
 * register); s0-s11 are never touched.
 *
 * The file assembles with the default -march (rv64gc): V is enabled only
 * around the vec and wide kernels, so scalar can run on any RV64GC core and
 * an assembler slip into a vector instruction there is an error, not a
 * SIGILL on a board without V.
 */

#include "mess_gen_table.h"

/* Largest I-type immediate: ld/sd offsets and addi both take a signed imm12. */
#define MAXIMM			2047

/*
 * vl is fixed, never VLMAX: V guarantees VLEN >= 128, so e64 with vl = 2 at
 * LMUL = 1 (16 B) and vl = 8 at LMUL = 4 (64 B) exist on every
 * implementation, and each operation moves exactly w bytes whatever the
 * VLEN.  Tail agnostic is safe: only elements below vl are ever reduced.
 */
.macro GEN_VSET w
	.if \w == 16
	vsetivli zero, 2, e64, m1, ta, ma
	.elseif \w == 64
	vsetivli zero, 8, e64, m4, ta, ma
	.else
	.error "riscv64 vector kernels are 16 or 64 bytes wide"
	.endif
.endm

/*
 * One load XOR-folded into accumulator acc.  Vector loads take no
 * immediate, so the address is formed from the base rather than by
 * stepping a pointer: each address then depends only on the base, not on
 * the address before it.
 */
.macro GEN_LOAD1 vec, off, acc, t, ar
	.if \vec
	.if \off
	addi	\ar, a0, \off
	vle64.v	\t, (\ar)
	.else
	vle64.v	\t, (a0)
	.endif
	vxor.vv	\acc, \acc, \t
	.else
	ld	\t, \off(a0)
	xor	\acc, \acc, \t
	.endif
.endm

/*
 * Load k goes to accumulator k % 4: four independent chains keep the XOR
 * latency off the critical path, and XOR-folding (rather than dropping the
 * value) keeps the load observable to the tests.  LMUL = 4 leaves room for
 * only two vector temporaries beside four accumulators and the pattern.
 */
.macro GEN_LOAD vec, off, k
	.if \vec
	.if ((\k) & 3) == 0
	GEN_LOAD1 1, \off, v8, v24, t0
	.elseif ((\k) & 3) == 1
	GEN_LOAD1 1, \off, v12, v28, t1
	.elseif ((\k) & 3) == 2
	GEN_LOAD1 1, \off, v16, v24, t2
	.else
	GEN_LOAD1 1, \off, v20, v28, t3
	.endif
	.else
	.if ((\k) & 3) == 0
	GEN_LOAD1 0, \off, t0, t4
	.elseif ((\k) & 3) == 1
	GEN_LOAD1 0, \off, t1, t5
	.elseif ((\k) & 3) == 2
	GEN_LOAD1 0, \off, t2, t6
	.else
	GEN_LOAD1 0, \off, t3, a6
	.endif
	.endif
.endm

.macro GEN_STORE vec, off
	.if \vec
	.if \off
	addi	t4, a1, \off
	vse64.v	v4, (t4)
	.else
	vse64.v	v4, (a1)
	.endif
	.else
	sd	a4, \off(a1)
	.endif
.endm

/*
 * Rate control: a run-time count keeps one binary per mix for every
 * pressure level; inline, so nops = 0 costs a test and branch, not a call.
 */
.macro GEN_SPIN
	beqz	a3, 8f
	mv	a7, a3
7:
	nop
	addi	a7, a7, -1
	bnez	a7, 7b
8:
.endm

/*
 * Moves a pointer on (GEN_OPS, past the imm12 reach).  maxoff + w <=
 * MAXIMM, so the step itself, and the one closing the iteration, fit one
 * addi.
 */
.macro GEN_ADVANCE reg, bytes
	addi	\reg, \reg, \bytes
.endm

/*
 * mess_gen_<var>_s<s>(ld, st, iters, nops, pattern, cksum) and its table
 * entry.  w: bytes per operation (8: ld/sd, 16 or 64: RVV); nt: the
 * table's nontemporal flag; emit = 0 writes only the table entry, fn NULL.
 */
.macro GEN_MIX var, s, w, nt, emit
	.if \w == 8
	.set	.Lvec, 0
	.else
	.set	.Lvec, 1
	.endif
	.set	.Lmaxoff, MAXIMM - \w

	.if \emit
	.text
	.p2align 6
	.globl	mess_gen_\var\()_s\s
	.type	mess_gen_\var\()_s\s, @function
mess_gen_\var\()_s\s:
	.if .Lvec
	GEN_VSET \w
	vmv.v.i	v8, 0
	vmv.v.i	v12, 0
	vmv.v.i	v16, 0
	vmv.v.i	v20, 0
	beqz	a2, 9f
	vmv.v.x	v4, a4
	.else
	li	t0, 0
	li	t1, 0
	li	t2, 0
	li	t3, 0
	beqz	a2, 9f
	.endif

	.p2align 6
1:
	.endif
	GEN_OPS \emit, \s, \w, .Lmaxoff, a0, a1, .Lvec

	.if \emit
	addi	a2, a2, -1
	bnez	a2, 1b
9:
	.if .Lvec
	vxor.vv	v8, v8, v12
	vxor.vv	v16, v16, v20
	vxor.vv	v8, v8, v16
	/* Fold the vl elements (and only those) into element 0. */
	vmv.s.x	v24, zero
	vredxor.vs v24, v8, v24
	vmv.x.s	t0, v24
	.else
	xor	t0, t0, t1
	xor	t2, t2, t3
	xor	t0, t0, t2
	.endif
	sd	t0, 0(a5)
	ret
	.size	mess_gen_\var\()_s\s, . - mess_gen_\var\()_s\s
	.endif

	GEN_ENTRY \var, \s, \w, \nt, \emit
.endm


	GEN_VARIANT scalar,	8, 0, 1		/* ld / sd, base RV64GC */

	.option	push
	.option	arch, +v
	GEN_VARIANT vec,	16, 0, 1	/* vle64 / vse64, LMUL = 1 */
	GEN_VARIANT wide,	64, 0, 1	/* vle64 / vse64, LMUL = 4 */
	.option	pop

/*
 * No non-temporal store exists in RV64GC or RVV 1.0 (Zihintntl only hints
 * at locality and does not promise to skip the write-allocate): fn NULL.
 */
	GEN_VARIANT nt,		16, 1, 0
	GEN_VARIANT wide_nt,	64, 1, 0

	.section .note.GNU-stack, "", @progbits
