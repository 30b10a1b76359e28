// SPDX-License-Identifier: MIT
/*
 * SPMXV: CSR sparse matrix-vector product on a generated banded matrix
 * whose irregularity is set by the swapping probability q (Section 6 of the
 * noise-injection paper), with one noise site per non-zero.
 */
#include "ckernels.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC optimize("no-tree-vectorize")
#endif

void mess_spmxv_free(struct mess_csr *A)
{
	free(A->rowptr);
	free(A->col);
	free(A->val);
	memset(A, 0, sizeof(*A));
}

/* Rows are short (tens of entries): insertion sort, no allocation. */
static void sort_row(uint32_t *col, double *val, uint32_t w)
{
	for (uint32_t k = 1; k < w; k++) {
		uint32_t c = col[k], l = k;
		double v = val[k];

		for (; l > 0 && col[l - 1] > c; l--) {
			col[l] = col[l - 1];
			val[l] = val[l - 1];
		}
		col[l] = c;
		val[l] = v;
	}
}

/*
 * Row i, swapping probability q: see ckernels.h.  The linear search over
 * the row is what finding "the entry at column r" costs without a dense
 * row of n flags; w is small.
 */
static void gen_row(uint32_t *col, double *val, uint32_t i, uint32_t n,
		    uint32_t w, double q, uint64_t *rng)
{
	uint32_t first, k, l, r;
	double t;

	first = i >= w / 2 ? i - w / 2 : 0;
	if (first > n - w)
		first = n - w;
	for (k = 0; k < w; k++) {
		col[k] = first + k;
		val[k] = 0.5 + mess_ck_unit(rng);
	}
	if (q == 0.0)
		return;
	for (k = 0; k < w; k++) {
		if (!(mess_ck_unit(rng) < q))
			continue;
		r = (uint32_t)mess_ck_below(rng, n);
		for (l = 0; l < w && col[l] != r; l++)
			;
		if (l == w) {
			col[k] = r;
		} else {
			t = val[k];
			val[k] = val[l];
			val[l] = t;
		}
	}
	sort_row(col, val, w);
}

int mess_spmxv_gen(struct mess_csr *A, uint32_t n, uint32_t nnz_per_row,
		   double q, uint64_t seed)
{
	uint64_t rng = seed, i;

	memset(A, 0, sizeof(*A));
	/* Written so that a NaN q is rejected too. */
	if (!n || !nnz_per_row || nnz_per_row > n || !(q >= 0.0 && q <= 1.0))
		return -EINVAL;
	A->n = n;
	A->nnz_per_row = nnz_per_row;
	A->nnz = (uint64_t)n * nnz_per_row;
	A->rowptr = malloc(((uint64_t)n + 1) * sizeof(*A->rowptr));
	A->col = malloc(A->nnz * sizeof(*A->col));
	A->val = malloc(A->nnz * sizeof(*A->val));
	if (!A->rowptr || !A->col || !A->val) {
		mess_spmxv_free(A);
		return -ENOMEM;
	}
	for (i = 0; i <= n; i++)
		A->rowptr[i] = i * nnz_per_row;
	for (i = 0; i < n; i++)
		gen_row(A->col + A->rowptr[i], A->val + A->rowptr[i],
			(uint32_t)i, n, nnz_per_row, q, &rng);
	return 0;
}

/*
 * Row bounds live in locals: a noise site that clobbers memory would
 * otherwise force rowptr[] to be reloaded per non-zero in the noisy loops
 * only.
 */
#define MESS_SPMXV_KERNEL(m)                                                \
	void mess_spmxv_##m(const struct mess_csr *A, const double *x,      \
			    double *y, uint32_t lo, uint32_t hi,            \
			    struct mess_noise *nz)                          \
	{                                                                   \
		const uint64_t *rowptr = A->rowptr;                         \
		const uint32_t *col = A->col;                               \
		const double *val = A->val;                                 \
		struct mess_noise lnz = mess_ck_nz_enter(nz);               \
		uint64_t k = lo < hi ? rowptr[lo] : 0;                      \
									    \
		for (uint32_t i = lo; i < hi; i++) {                        \
			const uint64_t end = rowptr[i + 1];                 \
			double sum = 0.0;                                   \
									    \
			for (; k < end; k++) {                              \
				sum += val[k] * x[col[k]];                  \
				MESS_NOISE_##m(&lnz);                       \
			}                                                   \
			y[i] = sum;                                         \
		}                                                           \
		mess_ck_nz_leave(nz, &lnz);                                 \
	}
MESS_CK_MODES(MESS_SPMXV_KERNEL)

mess_spmxv_fn *const mess_spmxv[MESS_NOISE_NMODES] = {
#define MESS_SPMXV_ENTRY(m) [MESS_NOISE_MODE_##m] = mess_spmxv_##m,
	MESS_CK_MODES(MESS_SPMXV_ENTRY)
#undef MESS_SPMXV_ENTRY
};

void mess_spmxv_ref(const struct mess_csr *A, const double *x, double *y)
{
	for (uint32_t i = 0; i < A->n; i++) {
		double sum = 0.0;

		for (uint64_t k = A->rowptr[i]; k < A->rowptr[i + 1]; k++)
			sum += A->val[k] * x[A->col[k]];
		y[i] = sum;
	}
}

uint64_t mess_spmxv_bytes(const struct mess_csr *A)
{
	return A->nnz * (sizeof(*A->val) + sizeof(*A->col)) +
	       ((uint64_t)A->n + 1) * sizeof(*A->rowptr) +
	       (uint64_t)A->n * 2 * sizeof(double);
}
