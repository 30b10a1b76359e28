/* SPDX-License-Identifier: MIT */
/*
 * The pointer chase, timed per batch of n loads (riscv64): rdtime, the
 * `time` CSR, at the platform's timebase-frequency (device tree /cpus;
 * 10 MHz on qemu's virt board, 1 MHz to 25 MHz on boards): 40 to 1000 ns a
 * tick, far too coarse for one load, so the harness batches n loads and
 * records n.  The ISA orders no CSR read against loads (no fence does), so
 * the batch, many ticks long, is what keeps the error to a tick.  Base
 * RV64GC has no count of leading zeros (Zbb does, not everywhere): the
 * bin's octave is found by a branch-free binary search, outside the timed
 * span.
 */

#include "mess_kernels.h"

	.text

/* One step of the msb search: if v >> (1 << k) is non-zero, shift it down
 * and add 1 << k to the msb.  t3 v, t4 msb, t5 scratch. */
.macro	msb_step k
	srli	t5, t3, (1 << \k)
	snez	t5, t5
	slli	t5, t5, \k
	srl	t3, t3, t5
	add	t4, t4, t5
.endm

/* void *mess_chase_timed(void *p, uint64_t batches, uint64_t n,
 *                        uint64_t *bins): a0 p, a1 batches, a2 n, a3 bins */
	.p2align 6
	.globl	mess_chase_timed
	.type	mess_chase_timed, @function
mess_chase_timed:
	beqz	a1, 3f
	beqz	a2, 3f
	li	t6, MESS_CHASE_HIST_NBINS * 8
	add	t6, a3, t6			/* the sum */
	.p2align 4
1:
	rdtime	t0
	mv	t1, a2
2:
	ld	a0, 0(a0)
	addi	t1, t1, -1
	bnez	t1, 2b
	rdtime	t2
	sub	t2, t2, t0			/* the delta, ticks */
	ld	t3, 0(t6)
	add	t3, t3, t2
	sd	t3, 0(t6)
	ori	t3, t2, (1 << MESS_CHASE_HIST_SUB_BITS)
	li	t4, 0
	msb_step 5
	msb_step 4
	msb_step 3
	msb_step 2
	msb_step 1
	msb_step 0
	addi	t4, t4, -MESS_CHASE_HIST_SUB_BITS	/* shift */
	srl	t5, t2, t4
	slli	t4, t4, MESS_CHASE_HIST_SUB_BITS
	add	t5, t5, t4			/* the bin */
	slli	t5, t5, 3
	add	t5, t5, a3
	ld	t3, 0(t5)
	addi	t3, t3, 1
	sd	t3, 0(t5)
	addi	a1, a1, -1
	bnez	a1, 1b
3:
	ret
	.size	mess_chase_timed, . - mess_chase_timed

/* uint64_t mess_timer_now(void) */
	.globl	mess_timer_now
	.type	mess_timer_now, @function
mess_timer_now:
	rdtime	a0
	ret
	.size	mess_timer_now, . - mess_timer_now

/* uint64_t mess_timer_hz(void): no CSR states the timebase. */
	.globl	mess_timer_hz
	.type	mess_timer_hz, @function
mess_timer_hz:
	li	a0, 0
	ret
	.size	mess_timer_hz, . - mess_timer_hz

	.section .note.GNU-stack, "", @progbits
