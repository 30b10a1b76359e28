/* SPDX-License-Identifier: MIT */
/*
 * The pointer chase, timed per batch of n loads (aarch64): the generic
 * timer's virtual count, `mrs cntvct_el0` at cntfrq_el0 (both readable
 * from EL0 under Linux).  Before a batch: mrs, then isb, so the batch's
 * first load is not issued before the read.  After it: a branch on the
 * last loaded value, then isb, then mrs, so the read waits for that load
 * (a control dependency with an isb orders a load before what follows).
 * cntfrq_el0 is often 24 to 100 MHz (1 GHz from Armv8.6): tens of ns a
 * tick, too coarse for one load, so the harness batches n loads to keep a
 * batch many ticks long, and records n.
 */

#include "mess_kernels.h"

	.text

/* void *mess_chase_timed(void *p, uint64_t batches, uint64_t n,
 *                        uint64_t *bins) */
	.p2align 6
	.globl	mess_chase_timed
	.type	mess_chase_timed, %function
mess_chase_timed:
	cbz	x1, 3f
	cbz	x2, 3f
	mov	x9, #(MESS_CHASE_HIST_NBINS * 8)
	add	x9, x3, x9			/* the sum */
	mov	x11, #(63 - MESS_CHASE_HIST_SUB_BITS)
	.p2align 4
1:
	isb
	mrs	x4, cntvct_el0
	isb
	mov	x5, x2
2:
	ldr	x0, [x0]
	subs	x5, x5, #1
	b.ne	2b
	cbnz	x0, 4f
4:
	isb
	mrs	x6, cntvct_el0
	sub	x6, x6, x4			/* the delta, ticks */
	ldr	x7, [x9]
	add	x7, x7, x6
	str	x7, [x9]
	orr	x7, x6, #(1 << MESS_CHASE_HIST_SUB_BITS)
	clz	x7, x7
	sub	x7, x11, x7			/* shift = msb - S */
	lsr	x8, x6, x7
	add	x8, x8, x7, lsl #MESS_CHASE_HIST_SUB_BITS	/* the bin */
	ldr	x10, [x3, x8, lsl #3]
	add	x10, x10, #1
	str	x10, [x3, x8, lsl #3]
	subs	x1, x1, #1
	b.ne	1b
3:
	ret
	.size	mess_chase_timed, . - mess_chase_timed

/* uint64_t mess_timer_now(void) */
	.globl	mess_timer_now
	.type	mess_timer_now, %function
mess_timer_now:
	isb
	mrs	x0, cntvct_el0
	isb
	ret
	.size	mess_timer_now, . - mess_timer_now

/* uint64_t mess_timer_hz(void): the rate firmware programmed. */
	.globl	mess_timer_hz
	.type	mess_timer_hz, %function
mess_timer_hz:
	mrs	x0, cntfrq_el0
	ret
	.size	mess_timer_hz, . - mess_timer_hz

	.section .note.GNU-stack, "", %progbits
