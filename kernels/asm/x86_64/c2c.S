/* SPDX-License-Identifier: MIT */
/*
 * The core-to-core ping-pong of `mess c2c` (mess_kernels.h gives the
 * semantics): one 64-bit count handed back and forth in one line.  x86 is
 * TSO, so a plain mov store is already a release and a plain mov load an
 * acquire; xchg with a memory operand is implicitly locked, the atomic
 * exchange variant.  No pause in the spins: it would add its own delay to
 * every hand-over being timed.
 */

#include "mess_kernels.h"

	.text

/* uint64_t mess_c2c_ping_<op>(volatile uint64_t *line, uint64_t rounds,
 *                             uint64_t start): rdi, rsi, rdx */
.macro	PING name, xchg
	.p2align 6
	.globl	\name
	.type	\name, @function
\name:
	mov	%rdx, %rax
	test	%rsi, %rsi
	jz	3f
1:
	lea	1(%rax), %rcx
	.if \xchg
	xchg	%rcx, (%rdi)
	.else
	mov	%rcx, (%rdi)
	.endif
	add	$2, %rax
2:
	cmp	(%rdi), %rax
	jne	2b
	dec	%rsi
	jnz	1b
3:
	ret
	.size	\name, . - \name
.endm

/* uint64_t mess_c2c_pong_<op>(volatile uint64_t *line): rdi */
.macro	PONG name, xchg
	.p2align 6
	.globl	\name
	.type	\name, @function
\name:
	xor	%eax, %eax
1:
	mov	(%rdi), %rcx
	test	$1, %cl
	jz	1b
	cmp	$(MESS_C2C_STOP), %rcx
	je	2f
	inc	%rcx
	.if \xchg
	xchg	%rcx, (%rdi)
	.else
	mov	%rcx, (%rdi)
	.endif
	inc	%rax
	jmp	1b
2:
	ret
	.size	\name, . - \name
.endm

	PING	mess_c2c_ping_store, 0
	PONG	mess_c2c_pong_store, 0
	PING	mess_c2c_ping_xchg, 1
	PONG	mess_c2c_pong_xchg, 1

	.section .note.GNU-stack, "", @progbits
