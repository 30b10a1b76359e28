/* SPDX-License-Identifier: MIT */
/*
 * Noise injection (Sections 2-3 of the noise-injection paper): k noise
 * instructions per inner-loop iteration of a C kernel, k chosen at run time
 * (0..MESS_NOISE_KMAX) without recompiling.
 *
 * How: each MESS_NOISE_<mode>(nz) site is one inline-asm statement holding a
 * straight-line block of MESS_NOISE_KMAX noise instructions of one fixed
 * encoded size; it jumps to block + nz->skip, so exactly the last k execute.
 * The jump target never changes during a run, so it is perfectly predicted.
 * Overhead (address setup, the indirect jump; for memory_ld64 the cursor
 * advance) is separate from the payload and counted from the disassembly.
 *
 * Kernels are instantiated once per mode (and once with MESS_NOISE_none,
 * which emits nothing, for the clean loop) with MESS_NOISE_MODES below.
 */
#ifndef MESS_NOISE_H
#define MESS_NOISE_H

#include <stddef.h>
#include <stdint.h>

#define MESS_NOISE_KMAX 256

/* X(name): every noise mode, same names on every ISA. */
#define MESS_NOISE_MODES(X) \
	X(fp_add64)         \
	X(int64_add)        \
	X(l1_ld64)          \
	X(memory_ld64)

enum mess_noise_mode {
	MESS_NOISE_MODE_none,
#define MESS_NOISE_ENUM(m) MESS_NOISE_MODE_##m,
	MESS_NOISE_MODES(MESS_NOISE_ENUM)
#undef MESS_NOISE_ENUM
	MESS_NOISE_NMODES
};

/* Per-thread noise state; read by the noise sites, written by
 * mess_noise_init/_set only (and the memory cursor by the asm). */
struct mess_noise {
	uintptr_t skip;		/* bytes of the block to jump over */
	unsigned k;		/* noise instructions per iteration */
	enum mess_noise_mode mode;
	const uint64_t *l1;	/* l1_ld64: small L1-resident buffer */
	const char *mem;	/* memory_ld64: cursor, advances each iteration */
	const char *mem_lo, *mem_hi;	/* memory_ld64: [lo, hi) wraps */
	void *alloc;		/* what mess_noise_free releases */
	size_t alloc_bytes;
};

/*
 * Using a site in a kernel.  A site reads nz->skip (and nz->l1, or
 * nz->mem_lo/mem_hi) as register operands, and memory_ld64 reads and
 * writes the cursor nz->mem as an in/out register operand.  If nz points
 * at the caller's state, a store of the kernel that may alias it (char or
 * integer stores) makes the compiler reload those fields, and load and
 * store the cursor, on every iteration: overhead that is not the noise's.
 * So copy the state into a local whose address does not escape, use the
 * local in the loop, and hand the cursor back after it, so that the next
 * run goes on where this one stopped (and does not meet lines it left in
 * the cache):
 *
 *	struct mess_noise n = *nz;
 *
 *	for (i = 0; i < len; i++) {
 *		a[i] = b[i] + s * c[i];
 *		MESS_NOISE_fp_add64(&n);
 *	}
 *	mess_noise_leave(nz, &n);
 */
static inline void mess_noise_leave(struct mess_noise *nz,
				    const struct mess_noise *local)
{
	nz->mem = local->mem;
}

/* Name <-> mode ("none" included); NULL / -EINVAL for unknown. */
const char *mess_noise_mode_name(enum mess_noise_mode m);
int mess_noise_mode_parse(const char *name, enum mess_noise_mode *m);

/*
 * Set up per-thread state for mode with k noise instructions (k <=
 * MESS_NOISE_KMAX, else -EINVAL; an unknown mode is -EINVAL too).
 * memory_ld64 allocates mem_bytes (>> LLC; rounded up to whole
 * MESS_NOISE_SPANs, 0 is -EINVAL) of its own, first-touched by the calling
 * thread; l1_ld64 a page of its own.  On an ISA without noise sites every
 * mode but none is -EOPNOTSUPP.  0 or -errno; nz is zeroed on error (so
 * mess_noise_free is always safe).
 */
int mess_noise_init(struct mess_noise *nz, enum mess_noise_mode mode,
		    unsigned k, size_t mem_bytes);
/* Change k between runs without reallocating. */
int mess_noise_set_k(struct mess_noise *nz, unsigned k);
void mess_noise_free(struct mess_noise *nz);

/* Encoded bytes of one noise instruction of mode on this ISA; 0 for none,
 * an unknown mode, or an ISA without noise (MESS_NOISE_SUPPORTED == 0). */
unsigned mess_noise_insn_bytes(enum mess_noise_mode m);

/* MESS_NOISE_none(nz) .. MESS_NOISE_memory_ld64(nz): per-ISA inline asm. */
#include "noise_asm.h"

#endif
