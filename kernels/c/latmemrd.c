// SPDX-License-Identifier: MIT
/*
 * lmbench's lat_mem_rd: a chain of pointers over a buffer, chased by
 * dependent loads, with one noise site after every load.
 */
#include "ckernels.h"

#include <errno.h>

#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC optimize("no-tree-vectorize")
#endif

static inline void **line(char *buf, size_t stride, size_t i)
{
	return (void **)(buf + i * stride);
}

/*
 * The random cycle is built in place (Sattolo's algorithm with the
 * permutation kept in the lines themselves, then turned into addresses),
 * so a chain over most of memory needs no second buffer.
 */
static void chain_random(char *buf, size_t stride, size_t n, uint64_t seed)
{
	uint64_t rng = seed;
	size_t i, j;
	uintptr_t t;

	for (i = 0; i < n; i++)
		*(uintptr_t *)line(buf, stride, i) = i;
	/* j < i strictly: the permutation is one n-cycle, never a split. */
	for (i = n - 1; i > 0; i--) {
		j = mess_ck_below(&rng, i);
		t = *(uintptr_t *)line(buf, stride, i);
		*(uintptr_t *)line(buf, stride, i) =
			*(uintptr_t *)line(buf, stride, j);
		*(uintptr_t *)line(buf, stride, j) = t;
	}
	for (i = 0; i < n; i++)
		*line(buf, stride, i) =
			line(buf, stride, *(uintptr_t *)line(buf, stride, i));
}

int mess_latmemrd_chain(void *buf, size_t size, size_t stride,
			enum mess_latmemrd_order order, uint64_t seed,
			void **start)
{
	size_t n, i;

	if (!buf || !stride || stride % sizeof(void *) || size < stride ||
	    (uintptr_t)buf % sizeof(void *))
		return -EINVAL;
	n = size / stride;
	switch (order) {
	case MESS_LATMEMRD_BACKWARD:
		/* lmbench: each line to the one below, the first to the last. */
		for (i = 1; i < n; i++)
			*line(buf, stride, i) = line(buf, stride, i - 1);
		*line(buf, stride, 0) = line(buf, stride, n - 1);
		break;
	case MESS_LATMEMRD_RANDOM:
		chain_random(buf, stride, n, seed);
		break;
	default:
		return -EINVAL;
	}
	*start = buf;
	return 0;
}

#define LOAD(m)                                                             \
	do {                                                                \
		q = (void **)*q;                                            \
		MESS_NOISE_##m(&lnz);                                       \
	} while (0)

/*
 * Unrolled so the counter update and branch come once per
 * MESS_LATMEMRD_UNROLL loads; the noise stays one site per load.
 */
#define MESS_LATMEMRD_KERNEL(m)                                             \
	void *mess_latmemrd_##m(void *p, uint64_t n, struct mess_noise *nz) \
	{                                                                   \
		struct mess_noise lnz = mess_ck_nz_enter(nz);               \
		void **q = p;                                               \
									    \
		for (uint64_t i = n / MESS_LATMEMRD_UNROLL; i; i--) {       \
			LOAD(m);                                            \
			LOAD(m);                                            \
			LOAD(m);                                            \
			LOAD(m);                                            \
			LOAD(m);                                            \
			LOAD(m);                                            \
			LOAD(m);                                            \
			LOAD(m);                                            \
		}                                                           \
		for (uint64_t i = n % MESS_LATMEMRD_UNROLL; i; i--)         \
			LOAD(m);                                            \
		mess_ck_nz_leave(nz, &lnz);                                 \
		return q;                                                   \
	}
_Static_assert(MESS_LATMEMRD_UNROLL == 8, "one LOAD per unrolled load");
MESS_CK_MODES(MESS_LATMEMRD_KERNEL)

mess_latmemrd_fn *const mess_latmemrd[MESS_NOISE_NMODES] = {
#define MESS_LATMEMRD_ENTRY(m) [MESS_NOISE_MODE_##m] = mess_latmemrd_##m,
	MESS_CK_MODES(MESS_LATMEMRD_ENTRY)
#undef MESS_LATMEMRD_ENTRY
};
