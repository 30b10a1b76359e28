/* SPDX-License-Identifier: MIT */
/*
 * Pointer chase for the latency side of the Mess curves: every load's
 * address is the previous load's value, so the core cannot overlap two
 * misses and the time per load is the loaded latency of the memory system.
 *
 * Time source on riscv64: the harness times with
 * clock_gettime(CLOCK_MONOTONIC), which the vDSO serves from the `time` CSR
 * (rdtime), scaled to ns by the kernel.  rdtime stays readable from user
 * space, but it ticks at the platform's timebase-frequency (device tree
 * /cpus; 10 MHz on qemu's virt board), not at the core clock, so time whole
 * runs, never single loads.  rdcycle and rdinstret are no way out: since
 * Linux 6.6 user space may read them directly only when
 * kernel.perf_user_access = 2 (a deprecated legacy mode; the default, 1,
 * allows them only through perf), so a cycle count can only ever be an
 * optional extra, never the clock.  Nothing here reads a counter.
 */

#include "mess_kernels.h"

	.text

/* void *mess_chase(void *p, uint64_t iters): base RV64GC only. */
	.p2align 6
	.globl	mess_chase
	.type	mess_chase, @function
mess_chase:
	beqz	a1, 2f
	/* Unrolled so the loop branch is < 0.1 % of the work being timed. */
	.p2align 6
1:
	.rept	MESS_CHASE_UNROLL
	ld	a0, 0(a0)
	.endr
	addi	a1, a1, -1
	bnez	a1, 1b
2:
	ret
	.size	mess_chase, . - mess_chase

	.section .note.GNU-stack, "", @progbits
