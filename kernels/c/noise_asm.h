/* SPDX-License-Identifier: MIT */
/*
 * Per-ISA noise sites; included by noise.h only.
 *
 * A site is one asm volatile statement:
 *
 *	t = &block; t += nz->skip; jump *t	(overhead: 3 instructions)
 *   block:
 *	MESS_NOISE_KMAX payload instructions, all MESS_NOISE_BYTES_<mode> long
 *   end:
 *	[memory_ld64 only: cursor += SPAN; if (cursor >= hi) cursor = lo]
 *					(overhead: 3 more instructions)
 *
 * so exactly the last k payload instructions run, and the overhead does not
 * depend on k: the instruction count difference between k and 0 is exactly
 * k per iteration (tests/noise-count.sh checks it).  The jump target is the
 * same on every iteration, so the indirect branch is always predicted.
 *
 * The block is spelt out as 256 source lines, not .rept: GCC sizes an asm
 * by its lines, and an undercount could push an aarch64 tbz/cbz around the
 * loop out of range.  The assembler checks every block's size (.error), so
 * an encoding that is not of the fixed size fails the build instead of
 * jumping into the middle of an instruction.
 *
 * Payload registers are clobbers and caller-saved only, so the compiler
 * keeps the kernel's values elsewhere (or spills around the site, which
 * tools/noise-census.sh shows as extra overhead).  No "memory" clobber:
 * that would make the kernel reload from memory every iteration and change
 * the code under test; the noise loads only read buffers that the C code
 * never writes after mess_noise_init, so the compiler needs no ordering.
 *
 * Inputs are register operands read from nz, so when nz is a local copy
 * (see noise.h) the loads of skip/l1/lo/hi are hoisted out of the loop and
 * memory_ld64's cursor stays in a register across iterations.
 *
 * x86_64: baseline x86-64/SSE2 encodings, VEX for fp_add64 where the code
 * around is built for AVX (so that noise and kernel do not mix encodings).
 * The jump is "notrack" so that it also runs with CET indirect-branch
 * tracking on (the prefix is a no-op otherwise).
 * aarch64: the block has no BTI landing pads, so these objects must not be
 * built with -mbranch-protection=bti/standard (Debian does not by default).
 *
 * An ISA whose port has no sites yet (riscv64, ppc64le): every site is
 * empty and mess_noise_init refuses every mode but none with -EOPNOTSUPP.
 */
#ifndef MESS_NOISE_ASM_H
#define MESS_NOISE_ASM_H

/*
 * memory_ld64: slot j of the block loads from cursor + MESS_NZ_MEM_OFF(j),
 * one 8-byte word per 128-byte pair of lines (so no noise load is served by
 * the adjacent-line prefetch that another one triggers; the buddy line it
 * may fetch is never used), in a permuted order (167 is odd, so j -> j * 167
 * mod 256 is a permutation and any k consecutive slots hit k distinct
 * lines, with no constant stride for a stream prefetcher to follow).  The
 * cursor then moves a whole span on: every iteration misses anew.
 */
#define MESS_NOISE_SPAN		32768
#define MESS_NOISE_MEM_STRIDE	128
#define MESS_NOISE_MEM_MULT	167
/* l1_ld64: slot j loads word j % 8 of one 64-byte line of nz->l1. */
#define MESS_NOISE_L1_BYTES	64

#define MESS_NZ_STR_(x)	#x
#define MESS_NZ_STR(x)	MESS_NZ_STR_(x)
/* Assembler expressions ("%%" is "%" once GCC has read the template). */
#define MESS_NZ_MEM_OFF(j) \
	"((((" #j ")*" MESS_NZ_STR(MESS_NOISE_MEM_MULT) ")%%256)*" \
	MESS_NZ_STR(MESS_NOISE_MEM_STRIDE) ")"
#define MESS_NZ_L1_OFF(j)	"((" #j ")%%8*8)"

/*
 * 256 lines from G(j), G covering s slots j..j+s-1.  j is spelt as a sum
 * ("0 + 32 + 4 * 4") that only the assembler evaluates.
 */
#define MESS_NZ_X2(G, j, s)	G(j) G(j + s)
#define MESS_NZ_X4(G, j, s)	MESS_NZ_X2(G, j, s) MESS_NZ_X2(G, j + 2 * s, s)
#define MESS_NZ_X8(G, j, s)	MESS_NZ_X4(G, j, s) MESS_NZ_X4(G, j + 4 * s, s)
#define MESS_NZ_X16(G, j, s)	MESS_NZ_X8(G, j, s) MESS_NZ_X8(G, j + 8 * s, s)
#define MESS_NZ_X32(G, j, s)	MESS_NZ_X16(G, j, s) MESS_NZ_X16(G, j + 16 * s, s)
#define MESS_NZ_X64(G, j, s)	MESS_NZ_X32(G, j, s) MESS_NZ_X32(G, j + 32 * s, s)
#define MESS_NZ_BLOCK8(G8)	MESS_NZ_X32(G8, 0, 8)
#define MESS_NZ_BLOCK4(G4)	MESS_NZ_X64(G4, 0, 4)

/* After the block (labels 1: start, 2: end): its size must be exact. */
#define MESS_NZ_CHECK(bytes)						\
	"2:\n\t"							\
	".if 2b - 1b - 256 * " MESS_NZ_STR(bytes) "\n\t"		\
	".error \"mess noise block is not 256 fixed-size insns\"\n\t"	\
	".endif\n\t"

/* The ISA's own sites (kernels/asm/<isa>/noise_sites.h): the payload
 * encodings, their sizes, the jump, the clobbers; MESS_NOISE_SUPPORTED 0
 * and sizes 0 where the ISA has none yet, said by its port, never
 * another ISA's. */
#include "noise_sites.h"

#define MESS_NOISE_none(nz)	do { } while (0)

#if MESS_NOISE_SUPPORTED

#define MESS_NOISE_fp_add64(nz) do {					\
	uintptr_t mess_nz_t;						\
	__asm__ volatile(MESS_NZ_JUMP					\
			 MESS_NZ_BLOCK8(MESS_NZ_FP8)			\
			 MESS_NZ_CHECK(MESS_NOISE_BYTES_fp_add64)	\
			 : [t] "=&r" (mess_nz_t)			\
			 : [skip] "r" ((nz)->skip)			\
			 : MESS_NZ_CLOB_FP);				\
} while (0)

#define MESS_NOISE_int64_add(nz) do {					\
	uintptr_t mess_nz_t;						\
	__asm__ volatile(MESS_NZ_JUMP					\
			 MESS_NZ_BLOCK4(MESS_NZ_INT4)			\
			 MESS_NZ_CHECK(MESS_NOISE_BYTES_int64_add)	\
			 : [t] "=&r" (mess_nz_t)			\
			 : [skip] "r" ((nz)->skip)			\
			 : MESS_NZ_CLOB_GPR, "cc");			\
} while (0)

#define MESS_NOISE_l1_ld64(nz) do {					\
	uintptr_t mess_nz_t;						\
	__asm__ volatile(MESS_NZ_JUMP					\
			 MESS_NZ_BLOCK4(MESS_NZ_L14)			\
			 MESS_NZ_CHECK(MESS_NOISE_BYTES_l1_ld64)	\
			 : [t] "=&r" (mess_nz_t)			\
			 : [skip] "r" ((nz)->skip),			\
			   [b] MESS_NZ_BASE ((nz)->l1)			\
			 : MESS_NZ_CLOB_GPR);				\
} while (0)

/* The cursor (nz)->mem is read and written: see noise.h on local copies. */
#define MESS_NOISE_memory_ld64(nz) do {					\
	uintptr_t mess_nz_t;						\
	__asm__ volatile(MESS_NZ_JUMP					\
			 MESS_NZ_BLOCK4(MESS_NZ_MEM4)			\
			 MESS_NZ_CHECK(MESS_NOISE_BYTES_memory_ld64)	\
			 MESS_NZ_ADVANCE				\
			 : [t] "=&r" (mess_nz_t),			\
			   [b] "+" MESS_NZ_BASE ((nz)->mem)		\
			 : [skip] "r" ((nz)->skip),			\
			   [lo] "r" ((nz)->mem_lo),			\
			   [hi] "r" ((nz)->mem_hi)			\
			 : MESS_NZ_CLOB_GPR, "cc");			\
} while (0)

#else

#define MESS_NOISE_fp_add64(nz)		do { (void)(nz); } while (0)
#define MESS_NOISE_int64_add(nz)	do { (void)(nz); } while (0)
#define MESS_NOISE_l1_ld64(nz)		do { (void)(nz); } while (0)
#define MESS_NOISE_memory_ld64(nz)	do { (void)(nz); } while (0)

#endif

#endif
