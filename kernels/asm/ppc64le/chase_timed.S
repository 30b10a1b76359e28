/* SPDX-License-Identifier: MIT */
/*
 * The pointer chase, timed per batch of n loads (ppc64le, ELFv2): the Time
 * Base, mftb, at the rate /proc/cpuinfo calls "timebase" (512 MHz on
 * POWER7 to POWER9 listings: about 2 ns a tick, fine enough for a batch of
 * one load at DRAM latencies).  Before a batch: mftb, then isync, so the
 * batch is not started before the read.  After it: `twi 0,r3,0; isync`
 * on the last loaded value (the kernel's acquire idiom: isync cannot
 * complete before the trap test has the value), then mftb.  The bin:
 * cntlzd and two shifts.
 */

#include "mess_kernels.h"

	.abiversion 2
	.machine power8
	.text

/* void *mess_chase_timed(void *p, uint64_t batches, uint64_t n,
 *                        uint64_t *bins): r3 p, r4 batches, r5 n, r6 bins.
 * No TOC use, so the global and local entry points coincide. */
	.p2align 6
	.globl	mess_chase_timed
	.type	mess_chase_timed, @function
mess_chase_timed:
	cmpdi	%r4, 0
	beqlr
	cmpdi	%r5, 0
	beqlr
	li	%r7, MESS_CHASE_HIST_NBINS * 8
	add	%r7, %r6, %r7			/* the sum */
	.p2align 4
1:
	mftb	%r8
	isync
	mtctr	%r5
2:
	ld	%r3, 0(%r3)
	bdnz	2b
	twi	0, %r3, 0
	isync
	mftb	%r9
	subf	%r9, %r8, %r9			/* the delta, ticks */
	ld	%r10, 0(%r7)
	add	%r10, %r10, %r9
	std	%r10, 0(%r7)
	ori	%r10, %r9, (1 << MESS_CHASE_HIST_SUB_BITS)
	cntlzd	%r10, %r10
	subfic	%r10, %r10, 63 - MESS_CHASE_HIST_SUB_BITS	/* shift */
	srd	%r11, %r9, %r10
	sldi	%r10, %r10, MESS_CHASE_HIST_SUB_BITS
	add	%r11, %r11, %r10		/* the bin */
	sldi	%r11, %r11, 3
	ldx	%r10, %r6, %r11
	addi	%r10, %r10, 1
	stdx	%r10, %r6, %r11
	addi	%r4, %r4, -1
	cmpdi	%r4, 0
	bne	1b
	blr
	.size	mess_chase_timed, . - mess_chase_timed

/* uint64_t mess_timer_now(void) */
	.globl	mess_timer_now
	.type	mess_timer_now, @function
mess_timer_now:
	isync
	mftb	%r3
	isync
	blr
	.size	mess_timer_now, . - mess_timer_now

/* uint64_t mess_timer_hz(void): no register states the timebase. */
	.globl	mess_timer_hz
	.type	mess_timer_hz, @function
mess_timer_hz:
	li	%r3, 0
	blr
	.size	mess_timer_hz, . - mess_timer_hz

	.section .note.GNU-stack, "", @progbits
