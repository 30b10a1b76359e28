/* SPDX-License-Identifier: MIT */
/*
 * Pointer chase for the latency side of the Mess curves (ppc64le, ELFv2):
 * every load's address is the previous load's value, so the core cannot
 * overlap two misses and the time per load is the loaded latency of the
 * memory system.
 *
 * Time source on this ISA: the harness times with
 * clock_gettime(CLOCK_MONOTONIC), which Linux serves from the vDSO by
 * reading the Time Base (mftb).  The Time Base is readable from user space
 * and ticks at a fixed frequency the kernel reports as "timebase" in
 * /proc/cpuinfo (512000000 in published listings of POWER7, POWER8 and
 * POWER9 systems; read it, do not assume it).  It is not a CPU-cycle
 * counter: cycles, if wanted at all, come from the PMU (perf), which
 * nothing here needs.
 */

#include "mess_kernels.h"

	.abiversion 2
	.machine power8
	.text

/* void *mess_chase(void *p, uint64_t iters): r3 = p, r4 = iters.  No TOC
 * use, so the global and local entry points coincide. */
	.p2align 6
	.globl	mess_chase
	.type	mess_chase, @function
mess_chase:
	cmpdi	%r4, 0
	beqlr
	/* ctr, not a GPR, counts: the loop branch then costs no integer op. */
	mtctr	%r4
	/* Unrolled so the loop branch is < 0.1 % of the work being timed. */
	.p2align 6
1:
	.rept	MESS_CHASE_UNROLL
	ld	%r3, 0(%r3)
	.endr
	bdnz	1b
	blr
	.size	mess_chase, . - mess_chase

	.section .note.GNU-stack, "", @progbits
