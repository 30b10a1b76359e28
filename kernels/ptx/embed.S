/* SPDX-License-Identifier: MIT */
/*
 * The PTX texts as NUL-terminated strings in .rodata, for the driver's JIT
 * (kernels/include/mess_ptx.h): GNU as on every ISA the Makefile builds,
 * no tool beyond it.  The paths are the repository root's, where make
 * runs; the Makefile names the .ptx files as this object's prerequisites.
 */
	.section .rodata
	.globl	mess_ptx_chase
	.type	mess_ptx_chase, %object
mess_ptx_chase:
	.incbin	"kernels/ptx/chase.ptx"
	.byte	0
	.size	mess_ptx_chase, . - mess_ptx_chase

	.globl	mess_ptx_gen
	.type	mess_ptx_gen, %object
mess_ptx_gen:
	.incbin	"kernels/ptx/gen.ptx"
	.byte	0
	.size	mess_ptx_gen, . - mess_ptx_gen

	.section .note.GNU-stack, "", %progbits
