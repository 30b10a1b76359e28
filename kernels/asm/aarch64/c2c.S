/* SPDX-License-Identifier: MIT */
/*
 * The core-to-core ping-pong of `mess c2c` (mess_kernels.h gives the
 * semantics): one 64-bit count handed back and forth in one line.  Release
 * stores (stlr) and acquire loads (ldar); the exchange is a load-acquire
 * exclusive / store-release exclusive loop, which every ARMv8.0 core has
 * (LSE's swpal is ARMv8.1: a baseline kernel cannot assume it).
 */

#include "mess_kernels.h"

	.text

/* uint64_t mess_c2c_ping_<op>(volatile uint64_t *line, uint64_t rounds,
 *                             uint64_t start): x0, x1, x2 */
.macro	PING name, xchg
	.p2align 6
	.globl	\name
	.type	\name, %function
\name:
	cbz	x1, 3f
1:
	add	x4, x2, #1
	.if \xchg
4:
	ldaxr	x5, [x0]
	stlxr	w6, x4, [x0]
	cbnz	w6, 4b
	.else
	stlr	x4, [x0]
	.endif
	add	x2, x2, #2
2:
	ldar	x5, [x0]
	cmp	x5, x2
	b.ne	2b
	subs	x1, x1, #1
	b.ne	1b
3:
	mov	x0, x2
	ret
	.size	\name, . - \name
.endm

/* uint64_t mess_c2c_pong_<op>(volatile uint64_t *line): x0 */
.macro	PONG name, xchg
	.p2align 6
	.globl	\name
	.type	\name, %function
\name:
	mov	x1, #0
1:
	ldar	x2, [x0]
	tbz	x2, #0, 1b
	cmn	x2, #-(MESS_C2C_STOP)
	b.eq	2f
	add	x2, x2, #1
	.if \xchg
4:
	ldaxr	x5, [x0]
	stlxr	w6, x2, [x0]
	cbnz	w6, 4b
	.else
	stlr	x2, [x0]
	.endif
	add	x1, x1, #1
	b	1b
2:
	mov	x0, x1
	ret
	.size	\name, . - \name
.endm

	PING	mess_c2c_ping_store, 0
	PONG	mess_c2c_pong_store, 0
	PING	mess_c2c_ping_xchg, 1
	PONG	mess_c2c_pong_xchg, 1

	.section .note.GNU-stack, "", %progbits
