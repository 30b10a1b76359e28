/* SPDX-License-Identifier: MIT */
/*
 * The core-to-core ping-pong of `mess c2c` (mess_kernels.h gives the
 * semantics): one 64-bit count handed back and forth in one line.  A
 * release store is fence rw,w; sd, an acquire the spin's loads then
 * fence r,rw (the RVWMO mapping of C11); the exchange is amoswap.d.aqrl
 * (base A extension, RV64GC).
 */

#include "mess_kernels.h"

	.text

/* uint64_t mess_c2c_ping_<op>(volatile uint64_t *line, uint64_t rounds,
 *                             uint64_t start): a0, a1, a2 */
.macro	PING name, xchg
	.p2align 6
	.globl	\name
	.type	\name, @function
\name:
	beqz	a1, 3f
1:
	addi	t0, a2, 1
	.if \xchg
	amoswap.d.aqrl	zero, t0, (a0)
	.else
	fence	rw, w
	sd	t0, 0(a0)
	.endif
	addi	a2, a2, 2
2:
	ld	t1, 0(a0)
	bne	t1, a2, 2b
	fence	r, rw
	addi	a1, a1, -1
	bnez	a1, 1b
3:
	mv	a0, a2
	ret
	.size	\name, . - \name
.endm

/* uint64_t mess_c2c_pong_<op>(volatile uint64_t *line): a0 */
.macro	PONG name, xchg
	.p2align 6
	.globl	\name
	.type	\name, @function
\name:
	li	a1, 0
	li	t2, (MESS_C2C_STOP)
1:
	ld	t0, 0(a0)
	andi	t1, t0, 1
	beqz	t1, 1b
	fence	r, rw
	beq	t0, t2, 2f
	addi	t0, t0, 1
	.if \xchg
	amoswap.d.aqrl	zero, t0, (a0)
	.else
	fence	rw, w
	sd	t0, 0(a0)
	.endif
	addi	a1, a1, 1
	j	1b
2:
	mv	a0, a1
	ret
	.size	\name, . - \name
.endm

	PING	mess_c2c_ping_store, 0
	PONG	mess_c2c_pong_store, 0
	PING	mess_c2c_ping_xchg, 1
	PONG	mess_c2c_pong_xchg, 1

	.section .note.GNU-stack, "", @progbits
