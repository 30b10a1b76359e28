/* SPDX-License-Identifier: MIT */
/*
 * Pointer chase for the latency side of the Mess curves: every load's
 * address is the previous load's value, so the core cannot overlap two
 * misses and the time per load is the loaded latency of the memory system.
 *
 * Time source on aarch64: the harness times with
 * clock_gettime(CLOCK_MONOTONIC), which the vDSO serves from the generic
 * timer's virtual count (CNTVCT_EL0, readable from user space at the
 * CNTFRQ_EL0 rate, typically 1 to 1000 MHz), not from a cycle counter:
 * PMCCNTR_EL0 is not user-readable unless the kernel allows it, so core
 * cycles come only through perf.  Nothing here reads a counter.
 */

#include "mess_kernels.h"

	.text

/* void *mess_chase(void *p, uint64_t iters) */
	.p2align 6
	.globl	mess_chase
	.type	mess_chase, %function
mess_chase:
	cbz	x1, 2f
	/* Unrolled so the loop branch is < 0.1 % of the work being timed. */
	.p2align 6
1:
	.rept	MESS_CHASE_UNROLL
	ldr	x0, [x0]
	.endr
	subs	x1, x1, #1
	b.ne	1b
2:
	ret
	.size	mess_chase, . - mess_chase

	.section .note.GNU-stack, "", %progbits
