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
 * Any other ISA: no noise yet, every site is empty and mess_noise_init
 * refuses every mode but none with -EOPNOTSUPP.
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

#if defined(__x86_64__)

#define MESS_NOISE_SUPPORTED		1
#define MESS_NOISE_BYTES_fp_add64	5	/* F2 45 0F 58 /r (or VEX) */
#define MESS_NOISE_BYTES_int64_add	3	/* 4D 01 /r */
#define MESS_NOISE_BYTES_l1_ld64	7	/* 4C 8B /r disp32 */
#define MESS_NOISE_BYTES_memory_ld64	7	/* 4C 8B /r disp32 */

/*
 * fp_add64: xmm8-15 each doubled in place: 8 independent chains (enough to
 * cover a 4-cycle add latency on two ports), no dependency between noise
 * instructions within an iteration.  The registers hold whatever the
 * compiler left there; x+x takes any double to +-0, +-inf or NaN within
 * ~2100 iterations and keeps it there, so denormals appear only in
 * transit (<= 52 doublings) and only as add operands/results, which SSE
 * adds handle without microcode assists on Intel since Sandy Bridge and
 * on AMD; inf and NaN never need assists in SSE.  The only side effect
 * is MXCSR's sticky flags (overflow, inexact, invalid on an sNaN), which
 * the kernels never read and which trap only if unmasked.
 */
#ifdef __AVX__
/*
 * Code built for AVX is VEX-encoded and leaves the upper halves of the
 * YMM registers dirty inside loops; a legacy-SSE addsd there costs an extra
 * merge uop (or a state transition) on Intel, so the noise would not be
 * one add.  VEX vaddsd x,x,x is 5 bytes too ({vex3}: C4 41 3B 58 /r).
 */
#define MESS_NZ_X86_FPADD(r) \
	"%{vex3%} vaddsd %%xmm" #r ", %%xmm" #r ", %%xmm" #r "\n\t"
#else
#define MESS_NZ_X86_FPADD(r)	"addsd %%xmm" #r ", %%xmm" #r "\n\t"
#endif
#define MESS_NZ_X86_FP8(j)						\
	MESS_NZ_X86_FPADD(8)	MESS_NZ_X86_FPADD(9)			\
	MESS_NZ_X86_FPADD(10)	MESS_NZ_X86_FPADD(11)			\
	MESS_NZ_X86_FPADD(12)	MESS_NZ_X86_FPADD(13)			\
	MESS_NZ_X86_FPADD(14)	MESS_NZ_X86_FPADD(15)
/* int64_add: r8-r11 doubled in place, 4 chains for 4 ALU ports. */
#define MESS_NZ_X86_INT4(j)						\
	"add %%r8, %%r8\n\t"	"add %%r9, %%r9\n\t"			\
	"add %%r10, %%r10\n\t"	"add %%r11, %%r11\n\t"
/*
 * Loads into r8-r11 in turn (only WAW between them, renamed away).  The
 * base is an "R" operand (rax..rbp): r12 as a base needs a SIB byte, which
 * would make the size depend on the compiler's choice of register, and
 * {disp32} keeps small offsets (0 included) 4 bytes.
 */
#define MESS_NZ_X86_LD(r, j, off)					\
	"%{disp32%} movq " off(j) "(%[b]), %%r" #r "\n\t"
#define MESS_NZ_X86_L14(j)						\
	MESS_NZ_X86_LD(8, j, MESS_NZ_L1_OFF)				\
	MESS_NZ_X86_LD(9, j + 1, MESS_NZ_L1_OFF)			\
	MESS_NZ_X86_LD(10, j + 2, MESS_NZ_L1_OFF)			\
	MESS_NZ_X86_LD(11, j + 3, MESS_NZ_L1_OFF)
#define MESS_NZ_X86_MEM4(j)						\
	MESS_NZ_X86_LD(8, j, MESS_NZ_MEM_OFF)				\
	MESS_NZ_X86_LD(9, j + 1, MESS_NZ_MEM_OFF)			\
	MESS_NZ_X86_LD(10, j + 2, MESS_NZ_MEM_OFF)			\
	MESS_NZ_X86_LD(11, j + 3, MESS_NZ_MEM_OFF)

#define MESS_NZ_JUMP							\
	"lea 1f(%%rip), %[t]\n\t"					\
	"add %[skip], %[t]\n\t"						\
	"notrack jmp *%[t]\n"						\
	"1:\n\t"
#define MESS_NZ_ADVANCE							\
	"add $" MESS_NZ_STR(MESS_NOISE_SPAN) ", %[b]\n\t"		\
	"cmp %[hi], %[b]\n\t"						\
	"cmovae %[lo], %[b]\n\t"
#define MESS_NZ_BASE	"R"
#define MESS_NZ_CLOB_FP							\
	"xmm8", "xmm9", "xmm10", "xmm11", "xmm12", "xmm13", "xmm14", "xmm15"
#define MESS_NZ_CLOB_GPR	"r8", "r9", "r10", "r11"
#define MESS_NZ_FP8	MESS_NZ_X86_FP8
#define MESS_NZ_INT4	MESS_NZ_X86_INT4
#define MESS_NZ_L14	MESS_NZ_X86_L14
#define MESS_NZ_MEM4	MESS_NZ_X86_MEM4

#elif defined(__aarch64__)

#define MESS_NOISE_SUPPORTED		1
#define MESS_NOISE_BYTES_fp_add64	4
#define MESS_NOISE_BYTES_int64_add	4
#define MESS_NOISE_BYTES_l1_ld64	4
#define MESS_NOISE_BYTES_memory_ld64	4

/*
 * fp_add64: d24-d31 (caller-saved v16-v31) each doubled in place, 8 chains.
 * As on x86, garbage contents settle at +-0, +-inf or NaN; FPCR.FZ is left
 * alone, and denormals only pass through in adds, which Arm cores handle
 * in hardware; FPSR's sticky flags are the only side effect.
 */
#define MESS_NZ_A64_FP8(j)						\
	"fadd d24, d24, d24\n\t"	"fadd d25, d25, d25\n\t"	\
	"fadd d26, d26, d26\n\t"	"fadd d27, d27, d27\n\t"	\
	"fadd d28, d28, d28\n\t"	"fadd d29, d29, d29\n\t"	\
	"fadd d30, d30, d30\n\t"	"fadd d31, d31, d31\n\t"
/* int64_add: x9-x12 (temporaries) doubled in place, 4 chains. */
#define MESS_NZ_A64_INT4(j)						\
	"add x9, x9, x9\n\t"	"add x10, x10, x10\n\t"			\
	"add x11, x11, x11\n\t"	"add x12, x12, x12\n\t"
/* ldr x, [base, #imm] scales imm by 8: reaches 32760, enough for a span. */
#define MESS_NZ_A64_LD(r, j, off)					\
	"ldr x" #r ", [%[b], #" off(j) "]\n\t"
#define MESS_NZ_A64_L14(j)						\
	MESS_NZ_A64_LD(9, j, MESS_NZ_L1_OFF)				\
	MESS_NZ_A64_LD(10, j + 1, MESS_NZ_L1_OFF)			\
	MESS_NZ_A64_LD(11, j + 2, MESS_NZ_L1_OFF)			\
	MESS_NZ_A64_LD(12, j + 3, MESS_NZ_L1_OFF)
#define MESS_NZ_A64_MEM4(j)						\
	MESS_NZ_A64_LD(9, j, MESS_NZ_MEM_OFF)				\
	MESS_NZ_A64_LD(10, j + 1, MESS_NZ_MEM_OFF)			\
	MESS_NZ_A64_LD(11, j + 2, MESS_NZ_MEM_OFF)			\
	MESS_NZ_A64_LD(12, j + 3, MESS_NZ_MEM_OFF)

#define MESS_NZ_JUMP							\
	"adr %[t], 1f\n\t"						\
	"add %[t], %[t], %[skip]\n\t"					\
	"br %[t]\n"							\
	"1:\n\t"
/* 32768 is an add immediate (8, lsl #12): no register for the span. */
#define MESS_NZ_ADVANCE							\
	"add %[b], %[b], #" MESS_NZ_STR(MESS_NOISE_SPAN) "\n\t"		\
	"cmp %[b], %[hi]\n\t"						\
	"csel %[b], %[lo], %[b], hs\n\t"
#define MESS_NZ_BASE	"r"
#define MESS_NZ_CLOB_FP							\
	"v24", "v25", "v26", "v27", "v28", "v29", "v30", "v31"
#define MESS_NZ_CLOB_GPR	"x9", "x10", "x11", "x12"
#define MESS_NZ_FP8	MESS_NZ_A64_FP8
#define MESS_NZ_INT4	MESS_NZ_A64_INT4
#define MESS_NZ_L14	MESS_NZ_A64_L14
#define MESS_NZ_MEM4	MESS_NZ_A64_MEM4

#else

#define MESS_NOISE_SUPPORTED		0
#define MESS_NOISE_BYTES_fp_add64	0
#define MESS_NOISE_BYTES_int64_add	0
#define MESS_NOISE_BYTES_l1_ld64	0
#define MESS_NOISE_BYTES_memory_ld64	0

#endif

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
