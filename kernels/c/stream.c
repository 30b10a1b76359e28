// SPDX-License-Identifier: MIT
/*
 * STREAM's four operations, one scalar element per iteration as in the
 * paper's runs, with one noise site per element.
 */
#include "ckernels.h"

#include <errno.h>
#include <math.h>

/* See ckernels.h: the noisy loops cannot vectorise, so none may not. */
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC optimize("no-tree-vectorize")
#endif

/* One element per iteration, then the site (on the local noise copy). */
#define MESS_STREAM_LOOP(m, stmt)                                           \
	do {                                                                \
		struct mess_noise lnz = mess_ck_nz_enter(nz);               \
									    \
		for (size_t j = lo; j < hi; j++) {                          \
			stmt;                                               \
			MESS_NOISE_##m(&lnz);                               \
		}                                                           \
		mess_ck_nz_leave(nz, &lnz);                                 \
	} while (0)

#define MESS_STREAM_KERNELS(m)                                              \
	void mess_stream_copy_##m(const struct mess_stream *st, size_t lo,  \
				  size_t hi, struct mess_noise *nz)         \
	{                                                                   \
		const double *a = st->a;                                    \
		double *c = st->c;                                          \
									    \
		MESS_STREAM_LOOP(m, c[j] = a[j]);                           \
	}                                                                   \
	void mess_stream_scale_##m(const struct mess_stream *st, size_t lo, \
				   size_t hi, struct mess_noise *nz)        \
	{                                                                   \
		const double *c = st->c;                                    \
		double *b = st->b;                                          \
		const double s = st->scalar;                                \
									    \
		MESS_STREAM_LOOP(m, b[j] = s * c[j]);                       \
	}                                                                   \
	void mess_stream_add_##m(const struct mess_stream *st, size_t lo,   \
				 size_t hi, struct mess_noise *nz)          \
	{                                                                   \
		const double *a = st->a, *b = st->b;                        \
		double *c = st->c;                                          \
									    \
		MESS_STREAM_LOOP(m, c[j] = a[j] + b[j]);                    \
	}                                                                   \
	void mess_stream_triad_##m(const struct mess_stream *st, size_t lo, \
				   size_t hi, struct mess_noise *nz)        \
	{                                                                   \
		const double *b = st->b, *c = st->c;                        \
		double *a = st->a;                                          \
		const double s = st->scalar;                                \
									    \
		MESS_STREAM_LOOP(m, a[j] = b[j] + s * c[j]);                \
	}
MESS_CK_MODES(MESS_STREAM_KERNELS)

#define MESS_STREAM_TABLE(op)                                               \
	mess_stream_fn *const mess_stream_##op[MESS_NOISE_NMODES] = {       \
		[MESS_NOISE_MODE_none] = mess_stream_##op##_none,           \
		MESS_NOISE_MODES(MESS_STREAM_ENTRY_##op)                    \
	}
#define MESS_STREAM_ENTRY_copy(m) [MESS_NOISE_MODE_##m] = mess_stream_copy_##m,
#define MESS_STREAM_ENTRY_scale(m) [MESS_NOISE_MODE_##m] = mess_stream_scale_##m,
#define MESS_STREAM_ENTRY_add(m) [MESS_NOISE_MODE_##m] = mess_stream_add_##m,
#define MESS_STREAM_ENTRY_triad(m) [MESS_NOISE_MODE_##m] = mess_stream_triad_##m,
MESS_STREAM_TABLE(copy);
MESS_STREAM_TABLE(scale);
MESS_STREAM_TABLE(add);
MESS_STREAM_TABLE(triad);

/*
 * STREAM counts 8 bytes per double read or written; a store to a line not
 * in cache also reads it first (write-allocate) unless the stores are
 * non-temporal, which these plain C stores are not.
 */
const struct mess_stream_op mess_stream_ops[MESS_STREAM_NOPS] = {
	[MESS_STREAM_COPY] = { "copy", mess_stream_copy, 1, 1, 16, 24, 0 },
	[MESS_STREAM_SCALE] = { "scale", mess_stream_scale, 1, 1, 16, 24, 1 },
	[MESS_STREAM_ADD] = { "add", mess_stream_add, 2, 1, 24, 32, 1 },
	[MESS_STREAM_TRIAD] = { "triad", mess_stream_triad, 2, 1, 24, 32, 2 },
};

void mess_stream_init(const struct mess_stream *st, size_t lo, size_t hi)
{
	for (size_t j = lo; j < hi; j++) {
		st->a[j] = 1.0;
		st->b[j] = 2.0;
		st->c[j] = 0.0;
	}
}

void mess_stream_expected(unsigned ntimes, double scalar, double *a,
			  double *b, double *c)
{
	double aj = 1.0, bj = 2.0, cj = 0.0;

	for (unsigned k = 0; k < ntimes; k++) {
		cj = aj;
		bj = scalar * cj;
		cj = aj + bj;
		aj = bj + scalar * cj;
	}
	*a = aj;
	*b = bj;
	*c = cj;
}

/*
 * Average absolute error over the array, relative to the expected value
 * (absolute where that is 0: c before any round).
 */
static double rel_avg_err(const double *x, size_t n, double want)
{
	double sum = 0.0, avg;

	for (size_t j = 0; j < n; j++)
		sum += fabs(x[j] - want);
	avg = sum / (double)n;
	return want != 0.0 ? fabs(avg / want) : avg;
}

int mess_stream_check(const struct mess_stream *st, size_t n,
		      unsigned ntimes)
{
	/* STREAM's epsilon for 8-byte elements. */
	const double eps = 1.e-13;
	double aj, bj, cj;

	if (!n)
		return -EINVAL;
	mess_stream_expected(ntimes, st->scalar, &aj, &bj, &cj);
	/* Written so that a NaN fails too. */
	if (!(rel_avg_err(st->a, n, aj) <= eps) ||
	    !(rel_avg_err(st->b, n, bj) <= eps) ||
	    !(rel_avg_err(st->c, n, cj) <= eps))
		return -EDOM;
	return 0;
}
