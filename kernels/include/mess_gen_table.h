/* SPDX-License-Identifier: MIT */
/*
 * Assembly only: the ISA-independent half of every kernels/asm/<isa>/gen.S.
 * Each ISA defines GEN_MIX var, s, ... (one kernel for s % stores, with its
 * load and store counts in the assembler symbols .Lnld and .Lnst) and calls
 * GEN_ENTRY at its end; GEN_VARIANT lays out the table around the 51 mixes.
 */
#ifndef MESS_GEN_TABLE_H
#define MESS_GEN_TABLE_H

#include "mess_kernels.h"

/* The kernel's entry in its variant's table (struct mess_gen_kernel): the
 * counts are the ones the template bumped while emitting the code, so the
 * traffic the harness accounts for cannot drift from what the code issues.
 * emit = 0: no kernel on this ISA, fn NULL. */
.macro GEN_ENTRY var, s, w, nt, emit=1
	.pushsection .data.rel.ro.mess_gen_\var, "aw", %progbits
	.if \emit
	.quad	mess_gen_\var\()_s\s
	.else
	.quad	0
	.endif
	.long	\s, \w, .Lnld, .Lnst, .Lnld * \w, .Lnst * \w, \nt, 0
	.popsection
.endm

/* One variant: its table, and one kernel per mix filling it in order
 * (0..100 % stores in MESS_GEN_MIX_STEP steps; the kernel tests check each
 * entry's store share against its index).  args: GEN_MIX's own. */
.macro GEN_VARIANT var, args:vararg
	.pushsection .data.rel.ro.mess_gen_\var, "aw", %progbits
	.p2align 6
	.globl	mess_gen_\var
	.type	mess_gen_\var, %object
mess_gen_\var:
	.popsection

	.irp s, 0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24, 26, 28, 30, \
		32, 34, 36, 38, 40, 42, 44, 46, 48, 50, 52, 54, 56, 58, 60, \
		62, 64, 66, 68, 70, 72, 74, 76, 78, 80, 82, 84, 86, 88, 90, \
		92, 94, 96, 98, 100
	GEN_MIX \var, \s, \args
	.endr

	.pushsection .data.rel.ro.mess_gen_\var, "aw", %progbits
	.size	mess_gen_\var, . - mess_gen_\var
	.popsection
.endm

#endif
