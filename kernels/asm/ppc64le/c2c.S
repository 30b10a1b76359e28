/* SPDX-License-Identifier: MIT */
/*
 * The core-to-core ping-pong of `mess c2c` (mess_kernels.h gives the
 * semantics): one 64-bit count handed back and forth in one line.  A
 * release store is lwsync; std.  An acquire is the spin's loads, the
 * branch that depends on them, then isync (no later access starts before
 * the awaited value was read).  The exchange is an ldarx/stdcx. loop
 * between lwsync and isync, as compilers emit an acq_rel exchange.
 */

#include "mess_kernels.h"

	.abiversion 2
	.machine power8
	.text

/* uint64_t mess_c2c_ping_<op>(volatile uint64_t *line, uint64_t rounds,
 *                             uint64_t start): r3, r4, r5.  No TOC, no
 * stack: a leaf with a global entry only. */
.macro	PING name, xchg
	.p2align 6
	.globl	\name
	.type	\name, @function
\name:
	cmpdi	%r4, 0
	beq	3f
	mtctr	%r4
1:
	addi	%r6, %r5, 1
	lwsync
	.if \xchg
4:
	ldarx	%r7, 0, %r3
	stdcx.	%r6, 0, %r3
	bne-	4b
	.else
	std	%r6, 0(%r3)
	.endif
	addi	%r5, %r5, 2
2:
	ld	%r7, 0(%r3)
	cmpd	%r7, %r5
	bne	2b
	isync
	bdnz	1b
3:
	mr	%r3, %r5
	blr
	.size	\name, . - \name
.endm

/* uint64_t mess_c2c_pong_<op>(volatile uint64_t *line): r3 */
.macro	PONG name, xchg
	.p2align 6
	.globl	\name
	.type	\name, @function
\name:
	li	%r4, 0
1:
	ld	%r5, 0(%r3)
	andi.	%r6, %r5, 1
	beq	1b
	isync
	cmpdi	%r5, (MESS_C2C_STOP)
	beq	2f
	addi	%r5, %r5, 1
	lwsync
	.if \xchg
4:
	ldarx	%r7, 0, %r3
	stdcx.	%r5, 0, %r3
	bne-	4b
	isync
	.else
	std	%r5, 0(%r3)
	.endif
	addi	%r4, %r4, 1
	b	1b
2:
	mr	%r3, %r4
	blr
	.size	\name, . - \name
.endm

	PING	mess_c2c_ping_store, 0
	PONG	mess_c2c_pong_store, 0
	PING	mess_c2c_ping_xchg, 1
	PONG	mess_c2c_pong_xchg, 1

	.section .note.GNU-stack, "", @progbits
