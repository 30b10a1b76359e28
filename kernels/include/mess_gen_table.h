/* SPDX-License-Identifier: MIT */
/*
 * Assembly only: the ISA-independent half of every kernels/asm/<isa>/gen.S.
 * Each ISA defines GEN_MIX var, s, ... (one kernel for s % stores: its
 * prologue, GEN_OPS for the body, its loop branch and epilogue) and calls
 * GEN_ENTRY at its end; GEN_VARIANT lays out the table around the 51 mixes.
 */
#ifndef MESS_GEN_TABLE_H
#define MESS_GEN_TABLE_H

#include "mess_kernels.h"

/*
 * The MESS_GEN_OPS operations of one iteration, in the order every ISA
 * issues them: op i is a store iff floor((i+1)s/100) > floor(is/100)
 * (Bresenham), with the nop spin every MESS_GEN_SPIN_EVERY operations.
 * Each ISA supplies
 *   GEN_LOAD  isa_args, off, k   load at off(load pointer) into chain k % 4
 *   GEN_STORE isa_args, off      store at off(store pointer)
 *   GEN_ADVANCE reg, bytes       add bytes to a pointer
 *   GEN_SPIN
 * Offsets beyond maxoff (the addressing mode's reach) move the pointer
 * forward and count how far in .Lldb / .Lstb, instead of stepping it on
 * every access, which would chain each address on the one before it; the
 * pointers end the iteration advanced by what it covered.  The counts are
 * left in .Lnld / .Lnst for GEN_ENTRY.  emit = 0: only the counts.
 */
.macro GEN_OPS emit, s, w, maxoff, ldp, stp, isa_args:vararg
	.set	.Lnld, 0
	.set	.Lnst, 0
	.set	.Lldb, 0
	.set	.Lstb, 0
	.set	.Lop, 0
	.rept	MESS_GEN_OPS
	.if ((.Lop + 1) * \s) / MESS_GEN_OPS - (.Lop * \s) / MESS_GEN_OPS
	.set	.Loff, .Lnst * \w - .Lstb
	.if .Loff > \maxoff
	.if \emit
	GEN_ADVANCE \stp, .Loff
	.endif
	.set	.Lstb, .Lstb + .Loff
	.set	.Loff, 0
	.endif
	.if \emit
	GEN_STORE \isa_args, .Loff
	.endif
	.set	.Lnst, .Lnst + 1
	.else
	.set	.Loff, .Lnld * \w - .Lldb
	.if .Loff > \maxoff
	.if \emit
	GEN_ADVANCE \ldp, .Loff
	.endif
	.set	.Lldb, .Lldb + .Loff
	.set	.Loff, 0
	.endif
	.if \emit
	GEN_LOAD \isa_args, .Loff, .Lnld
	.endif
	.set	.Lnld, .Lnld + 1
	.endif
	.set	.Lop, .Lop + 1
	.if \emit && (.Lop % MESS_GEN_SPIN_EVERY) == 0
	GEN_SPIN
	.endif
	.endr
	.if \emit && .Lnld * \w - .Lldb
	GEN_ADVANCE \ldp, (.Lnld * \w - .Lldb)
	.endif
	.if \emit && .Lnst * \w - .Lstb
	GEN_ADVANCE \stp, (.Lnst * \w - .Lstb)
	.endif
.endm

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
