/* SPDX-License-Identifier: MIT */
/*
 * Pointer chase for the latency side of the Mess curves: every load's
 * address is the previous load's value, so the core cannot overlap two
 * misses and the time per load is the loaded latency of the memory system.
 *
 * Time source on x86_64: the harness times with
 * clock_gettime(CLOCK_MONOTONIC), which the vDSO serves from the TSC when
 * the kernel trusts it (constant and invariant), else from a slower
 * clocksource.  The TSC ticks at a fixed reference rate, not the core clock,
 * so it is a time base, not a cycle counter; core cycles come only from the
 * PMU (perf), which a VM may not expose.  Nothing here reads a counter.
 */

#include "mess_kernels.h"

	.text

/* void *mess_chase(void *p, uint64_t iters) */
	.p2align 6
	.globl	mess_chase
	.type	mess_chase, @function
mess_chase:
	mov	%rdi, %rax
	test	%rsi, %rsi
	jz	2f
	/* Unrolled so the loop branch is < 0.1 % of the work being timed. */
	.p2align 6
1:
	.rept	MESS_CHASE_UNROLL
	mov	(%rax), %rax
	.endr
	dec	%rsi
	jnz	1b
2:
	ret
	.size	mess_chase, . - mess_chase

	.section .note.GNU-stack, "", @progbits
