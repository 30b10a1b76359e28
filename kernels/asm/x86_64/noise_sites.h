/* SPDX-License-Identifier: MIT */
/* The noise sites of x86_64 (kernels/c/noise_asm.h says what a site is). */
#ifndef MESS_NOISE_SITES_H
#define MESS_NOISE_SITES_H

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

#endif
