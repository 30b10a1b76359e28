/* SPDX-License-Identifier: MIT */
/* The noise sites of aarch64 (kernels/c/noise_asm.h says what a site is). */
#ifndef MESS_NOISE_SITES_H
#define MESS_NOISE_SITES_H

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

#endif
