/* SPDX-License-Identifier: MIT */
/*
 * Traffic generators for the bandwidth side of the Mess curves (x86_64).
 *
 * One template, GEN_MIX, writes one kernel per read/write mix and, right
 * beside it, that kernel's entry in its variant's table.  The entry's load
 * and store counts are the counters the template bumped while it emitted the
 * instructions, so the traffic the harness accounts for cannot drift from
 * the traffic the code issues.
 *
 * Registers (SysV): rdi = ld, rsi = st, rdx = iters, rcx = nops,
 * r8 = pattern, r9 = cksum; rax the spin counter.  Vector variants: ymm/zmm
 * 0-3 accumulators, 4 the store pattern, scratch r10; no callee-saved
 * register is touched.  Scalar: r9, r10, r11, rbx accumulators, stores
 * straight from r8; rbx and cksum wait in the red zone.
 */

#include "mess_gen_table.h"

/*
 * XOR one load into accumulator k % 4: four independent chains keep the
 * XOR latency off the critical path, and XOR-folding (rather than dropping
 * the value) keeps the load observable to the tests.  General-purpose
 * registers share no name stem, so the scalar ones are spelled out.
 */
.macro GEN_LOAD xorop, stop, vr, off, k
	.ifc \vr, gpr
	.if ((\k) & 3) == 0
	\xorop	\off(%rdi), %r9
	.elseif ((\k) & 3) == 1
	\xorop	\off(%rdi), %r10
	.elseif ((\k) & 3) == 2
	\xorop	\off(%rdi), %r11
	.else
	\xorop	\off(%rdi), %rbx
	.endif
	.elseif ((\k) & 3) == 0
	\xorop	\off(%rdi), %\vr\()0, %\vr\()0
	.elseif ((\k) & 3) == 1
	\xorop	\off(%rdi), %\vr\()1, %\vr\()1
	.elseif ((\k) & 3) == 2
	\xorop	\off(%rdi), %\vr\()2, %\vr\()2
	.else
	\xorop	\off(%rdi), %\vr\()3, %\vr\()3
	.endif
.endm

.macro GEN_STORE xorop, stop, vr, off
	.ifc \vr, gpr
	\stop	%r8, \off(%rsi)
	.else
	\stop	%\vr\()4, \off(%rsi)
	.endif
.endm

/* Moves a pointer on at the end of an iteration (GEN_OPS). */
.macro GEN_ADVANCE reg, bytes
	add	$(\bytes), \reg
.endm

/*
 * Rate control: a run-time count keeps one binary per mix for every
 * pressure level; inline, so nops = 0 costs a test and branch, not a call.
 */
.macro GEN_SPIN
	test	%rcx, %rcx
	jz	8f
	mov	%rcx, %rax
7:
	nop
	dec	%rax
	jnz	7b
8:
.endm

/*
 * mess_gen_<var>_s<s>(ld, st, iters, nops, pattern, cksum) and its table
 * entry.  w: bytes per operation; vr: ymm, zmm or gpr (64-bit integer
 * registers and no AVX, so it runs on any x86_64); xorop: the load-XOR;
 * stop: the store; nt: 1 if stop bypasses the caches.
 */
.macro GEN_MIX var, s, w, vr, xorop, stop, nt
	.text
	.p2align 6
	.globl	mess_gen_\var\()_s\s
	.type	mess_gen_\var\()_s\s, @function
mess_gen_\var\()_s\s:
	.ifc \vr, gpr
	/* Four accumulators need two registers beyond the free scratch ones.
	 * A leaf may park them in the red zone, and leaving rsp alone keeps
	 * unwinders right without CFI. */
	mov	%rbx, -8(%rsp)
	mov	%r9, -16(%rsp)
	xor	%r9d, %r9d
	xor	%r10d, %r10d
	xor	%r11d, %r11d
	xor	%ebx, %ebx
	.else
	/* VEX zeroing clears the whole zmm, so iters = 0 folds to 0. */
	vpxor	%xmm0, %xmm0, %xmm0
	vpxor	%xmm1, %xmm1, %xmm1
	vpxor	%xmm2, %xmm2, %xmm2
	vpxor	%xmm3, %xmm3, %xmm3
	.endif
	test	%rdx, %rdx
	jz	9f
	.ifc \vr, zmm
	vpbroadcastq %r8, %zmm4
	.endif
	.ifc \vr, ymm
	vmovq	%r8, %xmm4
	vpbroadcastq %xmm4, %ymm4
	.endif

	.p2align 6
1:
	/* disp32 reaches any offset of an iteration: no pointer steps. */
	GEN_OPS 1, \s, \w, 0x7fffffff, %rdi, %rsi, \xorop, \stop, \vr
	dec	%rdx
	jnz	1b
	.if \nt
	/* Drain the write-combining buffers before the caller reads a clock. */
	sfence
	.endif
9:
	.ifc \vr, gpr
	\xorop	%r10, %r9
	\xorop	%rbx, %r11
	\xorop	%r11, %r9
	mov	-16(%rsp), %rax
	mov	%r9, (%rax)
	mov	-8(%rsp), %rbx
	.else
	\xorop	%\vr\()1, %\vr\()0, %\vr\()0
	\xorop	%\vr\()3, %\vr\()2, %\vr\()2
	\xorop	%\vr\()2, %\vr\()0, %\vr\()0
	.ifc \vr, zmm
	vextracti64x4 $1, %zmm0, %ymm1
	vpxor	%ymm1, %ymm0, %ymm0
	.endif
	vextracti128 $1, %ymm0, %xmm1
	vpxor	%xmm1, %xmm0, %xmm0
	vpextrq	$1, %xmm0, %rax
	vmovq	%xmm0, %r10
	xor	%r10, %rax
	mov	%rax, (%r9)
	vzeroupper
	.endif
	ret
	.size	mess_gen_\var\()_s\s, . - mess_gen_\var\()_s\s

	GEN_ENTRY \var, \s, \w, \nt
.endm


	GEN_VARIANT scalar,	8,  gpr, xor,    mov,       0	/* base x86_64 */
	GEN_VARIANT vec,	32, ymm, vpxor,  vmovdqa,   0	/* AVX2 */
	GEN_VARIANT wide,	64, zmm, vpxorq, vmovdqa64, 0	/* AVX-512F */
	GEN_VARIANT nt,		32, ymm, vpxor,  vmovntpd,  1	/* AVX2 */
	GEN_VARIANT wide_nt,	64, zmm, vpxorq, vmovntpd,  1	/* AVX-512F */

	.section .note.GNU-stack, "", @progbits
