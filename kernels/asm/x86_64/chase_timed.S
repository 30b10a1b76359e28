/* SPDX-License-Identifier: MIT */
/*
 * The pointer chase, timed per batch of n loads (x86_64): the TSC read as
 * `lfence; rdtsc; lfence` before a batch (the first lfence waits for what
 * came before, the second keeps the batch's first load from issuing before
 * the read) and `lfence; rdtsc` after it (waits for the last load).  The
 * TSC ticks at a constant rate (the harness takes it from the kernel, the
 * CPUID leaf 0x15 or a calibration against CLOCK_MONOTONIC, and records
 * which); at GHz rates one tick is under a nanosecond, so n = 1 suffices.
 * The bin is found with bsr (every x86_64 has it; lzcnt needs ABM) and two
 * shifts, outside the timed span.
 */

#include "mess_kernels.h"

	.text

/* void *mess_chase_timed(void *p, uint64_t batches, uint64_t n,
 *                        uint64_t *bins)
 * rdi p, rsi batches, rdx n (rdtsc takes rdx: n moves to r8), rcx bins
 * (shifts take cl: bins move to r9). */
	.p2align 6
	.globl	mess_chase_timed
	.type	mess_chase_timed, @function
mess_chase_timed:
	mov	%rdx, %r8
	mov	%rcx, %r9
	test	%rsi, %rsi
	jz	3f
	test	%r8, %r8
	jz	3f
	.p2align 4
1:
	lfence
	rdtsc
	lfence
	shl	$32, %rdx
	or	%rdx, %rax
	mov	%rax, %r11
	mov	%r8, %r10
2:
	mov	(%rdi), %rdi
	dec	%r10
	jnz	2b
	lfence
	rdtsc
	shl	$32, %rdx
	or	%rdx, %rax
	sub	%r11, %rax			/* the delta, ticks */
	add	%rax, MESS_CHASE_HIST_NBINS * 8(%r9)
	mov	%rax, %rdx
	or	$(1 << MESS_CHASE_HIST_SUB_BITS), %rdx
	bsr	%rdx, %rcx
	sub	$MESS_CHASE_HIST_SUB_BITS, %ecx	/* shift */
	shr	%cl, %rax
	shl	$MESS_CHASE_HIST_SUB_BITS, %rcx
	add	%rcx, %rax			/* the bin */
	incq	(%r9, %rax, 8)
	dec	%rsi
	jnz	1b
3:
	mov	%rdi, %rax
	ret
	.size	mess_chase_timed, . - mess_chase_timed

/* uint64_t mess_timer_now(void) */
	.globl	mess_timer_now
	.type	mess_timer_now, @function
mess_timer_now:
	lfence
	rdtsc
	lfence
	shl	$32, %rdx
	or	%rdx, %rax
	ret
	.size	mess_timer_now, . - mess_timer_now

/* uint64_t mess_timer_hz(void): no register states the TSC's rate. */
	.globl	mess_timer_hz
	.type	mess_timer_hz, @function
mess_timer_hz:
	xor	%eax, %eax
	ret
	.size	mess_timer_hz, . - mess_timer_hz

	.section .note.GNU-stack, "", @progbits
