// SPDX-License-Identifier: MIT
/*
 * The C kernels of the absorption tables: each against its reference
 * (STREAM's own check, HACCmk against plain pow, SPMXV against a dense
 * product, lat_mem_rd's chain one cycle through every line), the SPMXV
 * generator, and that noise never changes a result: every kernel, every
 * mode, several k, bit for bit equal to the clean instantiation.
 *
 * Sizes are small so that the file runs in seconds under qemu-user too.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ckernels.h"

/* memory_ld64's own buffer: enough spans to wrap, modest for qemu. */
#define NOISE_MEM (8u << 20)

static const unsigned ks[] = { 0, 1, 3, 64, 256 };
#define NKS (sizeof(ks) / sizeof(ks[0]))

static void *xmalloc(size_t size)
{
	void *p = malloc(size);

	assert_non_null(p);
	return p;
}

/*
 * State for mode m at k = 0 (then mess_noise_set_k); false when this ISA
 * has no noise sites, where every mode but none is refused.
 */
static int noise_init(struct mess_noise *nz, enum mess_noise_mode m)
{
	int err = mess_noise_init(nz, m, 0, NOISE_MEM);

	if (err == -EOPNOTSUPP && !MESS_NOISE_SUPPORTED &&
	    m != MESS_NOISE_MODE_none)
		return 0;
	assert_int_equal(err, 0);
	return 1;
}

static void assert_same_doubles(const double *a, const double *b, size_t n,
				const char *what, enum mess_noise_mode m,
				unsigned k)
{
	if (memcmp(a, b, n * sizeof(*a)))
		fail_msg("%s: mode %s k %u differs from none", what,
			 mess_noise_mode_name(m), k);
}

static void test_tables_complete(void **state)
{
	for (unsigned m = 0; m < MESS_NOISE_NMODES; m++) {
		for (unsigned o = 0; o < MESS_STREAM_NOPS; o++)
			assert_non_null(mess_stream_ops[o].fn[m]);
		assert_non_null(mess_latmemrd[m]);
		assert_non_null(mess_haccmk[m]);
		assert_non_null(mess_spmxv[m]);
	}
	assert_ptr_equal(mess_stream_triad[MESS_NOISE_MODE_none],
			 mess_stream_triad_none);
	assert_ptr_equal(mess_spmxv[MESS_NOISE_MODE_memory_ld64],
			 mess_spmxv_memory_ld64);
	assert_ptr_equal(mess_stream_ops[MESS_STREAM_TRIAD].fn,
			 mess_stream_triad);
}

/* ---- STREAM ---- */

struct stream_bufs {
	struct mess_stream st;
	size_t n;
};

static void stream_alloc(struct stream_bufs *s, size_t n)
{
	s->n = n;
	s->st.a = xmalloc(n * sizeof(double));
	s->st.b = xmalloc(n * sizeof(double));
	s->st.c = xmalloc(n * sizeof(double));
	s->st.scalar = MESS_STREAM_SCALAR;
	mess_stream_init(&s->st, 0, n);
}

static void stream_free(struct stream_bufs *s)
{
	free(s->st.a);
	free(s->st.b);
	free(s->st.c);
}

/* STREAM's main loop: ntimes rounds of the four operations, in order. */
static void stream_rounds(struct stream_bufs *s, enum mess_noise_mode m,
			  struct mess_noise *nz, unsigned ntimes)
{
	for (unsigned t = 0; t < ntimes; t++)
		for (unsigned o = 0; o < MESS_STREAM_NOPS; o++)
			mess_stream_ops[o].fn[m](&s->st, 0, s->n, nz);
}

static void test_stream_figures(void **state)
{
	static const char *const names[] = { "copy", "scale", "add", "triad" };
	static const unsigned bytes[] = { 16, 16, 24, 24 };

	for (unsigned o = 0; o < MESS_STREAM_NOPS; o++) {
		const struct mess_stream_op *op = &mess_stream_ops[o];

		assert_string_equal(op->name, names[o]);
		assert_int_equal(op->bytes, bytes[o]);
		assert_int_equal(op->bytes, 8 * (op->loads + op->stores));
		assert_int_equal(op->bytes_wa, op->bytes + 8 * op->stores);
	}
}

static void test_stream_check(void **state)
{
	struct stream_bufs s;
	double aj, bj, cj;

	stream_alloc(&s, 20000);
	assert_int_equal(mess_stream_check(&s.st, s.n, 0), 0);
	stream_rounds(&s, MESS_NOISE_MODE_none, NULL, MESS_STREAM_NTIMES);
	assert_int_equal(mess_stream_check(&s.st, s.n, MESS_STREAM_NTIMES), 0);
	/* The check must be able to fail. */
	assert_int_equal(mess_stream_check(&s.st, s.n, MESS_STREAM_NTIMES - 1),
			 -EDOM);
	mess_stream_expected(MESS_STREAM_NTIMES, MESS_STREAM_SCALAR, &aj, &bj,
			     &cj);
	s.st.b[123] = bj * 1.5;
	assert_int_equal(mess_stream_check(&s.st, s.n, MESS_STREAM_NTIMES),
			 -EDOM);
	s.st.b[123] = NAN;
	assert_int_equal(mess_stream_check(&s.st, s.n, MESS_STREAM_NTIMES),
			 -EDOM);
	assert_int_equal(mess_stream_check(&s.st, 0, 1), -EINVAL);
	stream_free(&s);
}

/* [lo, hi) pieces (threads) give what one whole pass gives, nothing more. */
static void test_stream_ranges(void **state)
{
	const size_t n = 1000, cut[] = { 0, 1, 333, 334, 999, 1000 };
	struct stream_bufs s;

	stream_alloc(&s, n);
	for (unsigned t = 0; t < 3; t++)
		for (unsigned o = 0; o < MESS_STREAM_NOPS; o++)
			for (unsigned p = 0; p + 1 < 6; p++)
				mess_stream_ops[o].fn[MESS_NOISE_MODE_none](
					&s.st, cut[p], cut[p + 1], NULL);
	assert_int_equal(mess_stream_check(&s.st, n, 3), 0);
	/* An empty range touches nothing. */
	s.st.a[5] = -1.0;
	mess_stream_triad_none(&s.st, 5, 5, NULL);
	mess_stream_triad_none(&s.st, 6, 5, NULL);
	assert_true(s.st.a[5] == -1.0);
	stream_free(&s);
}

static void test_stream_noise(void **state)
{
	const size_t n = 2000;
	const unsigned ntimes = 2;
	struct stream_bufs ref, s;
	struct mess_noise nz;

	stream_alloc(&ref, n);
	stream_rounds(&ref, MESS_NOISE_MODE_none, NULL, ntimes);
	assert_int_equal(mess_stream_check(&ref.st, n, ntimes), 0);
	stream_alloc(&s, n);
	for (unsigned m = 0; m < MESS_NOISE_NMODES; m++) {
		if (!noise_init(&nz, m))
			continue;
		for (unsigned i = 0; i < NKS; i++) {
			assert_int_equal(mess_noise_set_k(&nz, ks[i]), 0);
			mess_stream_init(&s.st, 0, n);
			stream_rounds(&s, m, &nz, ntimes);
			assert_same_doubles(s.st.a, ref.st.a, n, "stream a", m,
					    ks[i]);
			assert_same_doubles(s.st.b, ref.st.b, n, "stream b", m,
					    ks[i]);
			assert_same_doubles(s.st.c, ref.st.c, n, "stream c", m,
					    ks[i]);
		}
		mess_noise_free(&nz);
	}
	stream_free(&s);
	stream_free(&ref);
}

/* ---- lat_mem_rd ---- */

/*
 * Follow the chain from start through every line: each pointer lands on a
 * line boundary inside the chased part, every line exactly once, and the
 * cycle closes after n lines.
 */
static void check_cycle(char *buf, size_t size, size_t stride, void *start)
{
	size_t n = size / stride, i, idx;
	char *seen = calloc(n, 1);
	char *p = start;

	assert_non_null(seen);
	for (i = 0; i < n; i++) {
		assert_true(p >= buf && p < buf + n * stride);
		assert_int_equal((size_t)(p - buf) % stride, 0);
		idx = (size_t)(p - buf) / stride;
		if (seen[idx])
			fail_msg("line %zu visited twice (step %zu of %zu)",
				 idx, i, n);
		seen[idx] = 1;
		p = *(char **)p;
	}
	assert_ptr_equal(p, start);
	free(seen);
}

static void test_latmemrd_chain(void **state)
{
	static const size_t strides[] = { 8, 64, 136, 4096 };
	static const size_t lines[] = { 1, 2, 3, 1000 };
	const enum mess_latmemrd_order orders[] = { MESS_LATMEMRD_BACKWARD,
						    MESS_LATMEMRD_RANDOM };
	void *start;

	for (unsigned s = 0; s < 4; s++) {
		for (unsigned l = 0; l < 4; l++) {
			/* A partial line at the end stays untouched. */
			size_t size = lines[l] * strides[s] + strides[s] / 2;
			char *buf = xmalloc(size + 64);

			for (unsigned o = 0; o < 2; o++) {
				memset(buf, 0x5a, size + 64);
				assert_int_equal(mess_latmemrd_chain(
					buf, size, strides[s], orders[o], 42,
					&start), 0);
				check_cycle(buf, size, strides[s], start);
				for (size_t b = lines[l] * strides[s];
				     b < size + 64; b++)
					assert_int_equal((unsigned char)buf[b],
							 0x5a);
			}
			free(buf);
		}
	}
}

static void test_latmemrd_orders(void **state)
{
	const size_t stride = 64, n = 4096, size = n * stride;
	char *buf = xmalloc(size), *other = xmalloc(size);
	void *start, *start2;
	size_t i, backward = 0;

	/* lmbench: every line to the one below, the first to the last. */
	assert_int_equal(mess_latmemrd_chain(buf, size, stride,
					     MESS_LATMEMRD_BACKWARD, 0,
					     &start), 0);
	assert_ptr_equal(start, buf);
	assert_ptr_equal(*(char **)buf, buf + (n - 1) * stride);
	for (i = 1; i < n; i++)
		assert_ptr_equal(*(char **)(buf + i * stride),
				 buf + (i - 1) * stride);

	/* Random: reproducible from the seed, and not a stride walk. */
	assert_int_equal(mess_latmemrd_chain(buf, size, stride,
					     MESS_LATMEMRD_RANDOM, 7, &start),
			 0);
	assert_int_equal(mess_latmemrd_chain(other, size, stride,
					     MESS_LATMEMRD_RANDOM, 7, &start2),
			 0);
	for (i = 0; i < n; i++)
		assert_int_equal(*(char **)(buf + i * stride) - buf,
				 *(char **)(other + i * stride) - other);
	for (i = 0; i < n; i++)
		backward += *(char **)(buf + i * stride) ==
			    buf + ((i + n - 1) % n) * stride;
	assert_true(backward < n / 100);
	assert_int_equal(mess_latmemrd_chain(other, size, stride,
					     MESS_LATMEMRD_RANDOM, 8, &start2),
			 0);
	for (i = 0, backward = 0; i < n; i++)
		backward += *(char **)(buf + i * stride) - buf ==
			    *(char **)(other + i * stride) - other;
	assert_true(backward < n / 100);
	free(other);
	free(buf);
}

static void test_latmemrd_invalid(void **state)
{
	uint64_t buf[64];
	void *start;

	assert_int_equal(mess_latmemrd_chain(buf, sizeof(buf), 0,
					     MESS_LATMEMRD_BACKWARD, 0,
					     &start), -EINVAL);
	assert_int_equal(mess_latmemrd_chain(buf, sizeof(buf), 12,
					     MESS_LATMEMRD_BACKWARD, 0,
					     &start), -EINVAL);
	assert_int_equal(mess_latmemrd_chain(buf, 64, 128,
					     MESS_LATMEMRD_RANDOM, 0, &start),
			 -EINVAL);
	assert_int_equal(mess_latmemrd_chain((char *)buf + 4, 256, 64,
					     MESS_LATMEMRD_BACKWARD, 0,
					     &start), -EINVAL);
	assert_int_equal(mess_latmemrd_chain(NULL, 256, 64,
					     MESS_LATMEMRD_BACKWARD, 0,
					     &start), -EINVAL);
	assert_int_equal(mess_latmemrd_chain(buf, sizeof(buf), 64,
					     (enum mess_latmemrd_order)9, 0,
					     &start), -EINVAL);
}

static void *walk(void *p, uint64_t n)
{
	while (n--)
		p = *(void **)p;
	return p;
}

/* Any n (unrolled body and tail), every mode and k: the same end point. */
static void test_latmemrd_chase(void **state)
{
	static const uint64_t ns[] = { 0, 1, 7, 8, 9, 17, 3001 };
	const size_t stride = 64, size = 509 * stride;
	char *buf = xmalloc(size);
	struct mess_noise nz;
	void *start;

	assert_int_equal(mess_latmemrd_chain(buf, size, stride,
					     MESS_LATMEMRD_RANDOM, 1, &start),
			 0);
	for (unsigned j = 0; j < 7; j++)
		assert_ptr_equal(mess_latmemrd_none(start, ns[j], NULL),
				 walk(start, ns[j]));
	for (unsigned m = 0; m < MESS_NOISE_NMODES; m++) {
		if (!noise_init(&nz, m))
			continue;
		for (unsigned i = 0; i < NKS; i++) {
			assert_int_equal(mess_noise_set_k(&nz, ks[i]), 0);
			for (unsigned j = 0; j < 7; j++)
				if (mess_latmemrd[m](start, ns[j], &nz) !=
				    walk(start, ns[j]))
					fail_msg("chase: mode %s k %u n %u",
						 mess_noise_mode_name(m), ks[i],
						 (unsigned)ns[j]);
		}
		mess_noise_free(&nz);
	}
	free(buf);
}

/* ---- HACCmk ---- */

static void test_haccmk_setup(void **state)
{
	struct mess_haccmk h;
	double final;

	assert_int_equal(mess_haccmk_alloc(&h, 0), -EINVAL);
	assert_int_equal(mess_haccmk_alloc(&h, 500), 0);
	assert_int_equal(mess_haccmk_setup(&h, 0), -EINVAL);
	assert_int_equal(mess_haccmk_setup(&h, 501), -EINVAL);
	assert_int_equal(mess_haccmk_setup(&h, 400), 0);
	assert_int_equal(h.count, 400);
	/* The driver's line of particles. */
	assert_true(h.x[0] == 0.0 && h.mass[0] == 2.0);
	assert_true(fabs(h.x[399] - 399.0 / 400) < 1e-12);
	assert_true(fabs(h.y[200] - 2 * 200.0 / 400) < 1e-12);
	assert_true(fabs(h.z[100] - 3 * 100.0 / 400) < 1e-12);
	assert_true(fabs(h.mass[10] - (0.1 + h.x[10])) < 1e-15);
	assert_true(mess_haccmk_validation(&h) == 0.0);
	assert_int_equal(mess_haccmk_driver(&h, NULL, NULL, 401, 400, 20,
					    &final), -EINVAL);
	assert_int_equal(mess_haccmk_driver(&h, NULL, NULL, 10, 400, 0,
					    &final), -EINVAL);
	mess_haccmk_free(&h);
}

/*
 * Reduced driver (N = 2000, n = 400, 600, ... 1800, all 327 targets):
 * every force within MESS_HACCMK_RTOL of the pow evaluation, scaled by the
 * magnitude of its terms, and the validation figures close.
 */
static void test_haccmk_reference(void **state)
{
	struct mess_haccmk h;
	double final, final_ref = 0.0, f[3], mag[3], v[3], want;
	uint32_t n, i;
	int c;

	assert_int_equal(mess_haccmk_alloc(&h, 2000), 0);
	for (n = 400; n < 2000; n += 200) {
		double round = 0.0;

		assert_int_equal(mess_haccmk_setup(&h, n), 0);
		mess_haccmk_none(&h, 0, MESS_HACCMK_TARGETS, NULL);
		for (i = 0; i < MESS_HACCMK_TARGETS; i++) {
			mess_haccmk_ref(&h, i, f, mag);
			v[0] = h.vx[i];
			v[1] = h.vy[i];
			v[2] = h.vz[i];
			for (c = 0; c < 3; c++) {
				double tol = MESS_HACCMK_RTOL * mag[c] *
					     MESS_HACCMK_FCOEFF;

				want = f[c] * MESS_HACCMK_FCOEFF;
				round += want;
				assert_true(mag[c] > 0.0);
				if (!(fabs(v[c] - want) <= tol))
					fail_msg("n %u target %u comp %d: %.17g"
						 " vs pow %.17g (tol %.3g)",
						 n, i, c, v[c], want, tol);
			}
		}
		final_ref += round;
	}
	/* The driver runs the same rounds and sums the same figure. */
	assert_int_equal(mess_haccmk_driver(&h, mess_haccmk_none, NULL,
					    MESS_HACCMK_TARGETS, 400, 200,
					    &final), 0);
	assert_true(final_ref != 0.0);
	assert_true(fabs(final - final_ref) <= 1e-12 * fabs(final_ref));
	mess_haccmk_free(&h);
}

/* The pow path of the driver (fn NULL) on a tiny problem. */
static void test_haccmk_driver_ref(void **state)
{
	struct mess_haccmk h;
	double final, final_ref;

	assert_int_equal(mess_haccmk_alloc(&h, 200), 0);
	assert_int_equal(mess_haccmk_driver(&h, mess_haccmk_none, NULL, 30,
					    100, 20, &final), 0);
	assert_int_equal(mess_haccmk_driver(&h, NULL, NULL, 30, 100, 20,
					    &final_ref), 0);
	assert_true(final_ref != 0.0);
	assert_true(fabs(final - final_ref) <= 1e-12 * fabs(final_ref));
	mess_haccmk_free(&h);
}

static void test_haccmk_noise(void **state)
{
	const uint32_t n = 400, targets = 24;
	struct mess_haccmk h;
	double ref[3][24];
	struct mess_noise nz;

	assert_int_equal(mess_haccmk_alloc(&h, n), 0);
	assert_int_equal(mess_haccmk_setup(&h, n), 0);
	/* Targets in two pieces, as two threads would run them. */
	mess_haccmk_none(&h, 0, 10, NULL);
	mess_haccmk_none(&h, 10, targets, NULL);
	memcpy(ref[0], h.vx, sizeof(ref[0]));
	memcpy(ref[1], h.vy, sizeof(ref[1]));
	memcpy(ref[2], h.vz, sizeof(ref[2]));
	for (unsigned m = 0; m < MESS_NOISE_NMODES; m++) {
		if (!noise_init(&nz, m))
			continue;
		for (unsigned i = 0; i < NKS; i++) {
			assert_int_equal(mess_noise_set_k(&nz, ks[i]), 0);
			assert_int_equal(mess_haccmk_setup(&h, n), 0);
			mess_haccmk[m](&h, 0, targets, &nz);
			assert_same_doubles(h.vx, ref[0], targets, "haccmk vx",
					    m, ks[i]);
			assert_same_doubles(h.vy, ref[1], targets, "haccmk vy",
					    m, ks[i]);
			assert_same_doubles(h.vz, ref[2], targets, "haccmk vz",
					    m, ks[i]);
		}
		mess_noise_free(&nz);
	}
	mess_haccmk_free(&h);
}

/* ---- SPMXV ---- */

static uint32_t band_first(uint32_t i, uint32_t n, uint32_t w)
{
	uint32_t first = i >= w / 2 ? i - w / 2 : 0;

	return first > n - w ? n - w : first;
}

/* CSR shape: w entries per row, sorted, unique, in range; values too. */
static void check_shape(const struct mess_csr *A)
{
	assert_int_equal(A->nnz, (uint64_t)A->n * A->nnz_per_row);
	assert_int_equal(A->rowptr[0], 0);
	for (uint32_t i = 0; i < A->n; i++) {
		assert_int_equal(A->rowptr[i + 1] - A->rowptr[i],
				 A->nnz_per_row);
		for (uint64_t k = A->rowptr[i]; k < A->rowptr[i + 1]; k++) {
			assert_true(A->col[k] < A->n);
			if (k > A->rowptr[i])
				assert_true(A->col[k - 1] < A->col[k]);
			assert_true(A->val[k] >= 0.5 && A->val[k] < 1.5);
		}
	}
}

/* Fraction of non-zeros outside their row's band. */
static double off_band(const struct mess_csr *A)
{
	uint64_t off = 0;

	for (uint32_t i = 0; i < A->n; i++) {
		uint32_t first = band_first(i, A->n, A->nnz_per_row);

		for (uint64_t k = A->rowptr[i]; k < A->rowptr[i + 1]; k++)
			off += A->col[k] < first ||
			       A->col[k] >= first + A->nnz_per_row;
	}
	return (double)off / (double)A->nnz;
}

static void test_spmxv_gen(void **state)
{
	struct mess_csr A, B;
	uint32_t i, k;

	/* q = 0: exactly the band, shifted inward at the edges. */
	assert_int_equal(mess_spmxv_gen(&A, 1000, 16, 0.0, 5), 0);
	check_shape(&A);
	for (i = 0; i < A.n; i++)
		for (k = 0; k < 16; k++)
			assert_int_equal(A.col[A.rowptr[i] + k],
					 band_first(i, 1000, 16) + k);
	assert_true(off_band(&A) == 0.0);
	mess_spmxv_free(&A);

	/* q = 1 scatters almost every column; q = 0.25 about a quarter. */
	assert_int_equal(mess_spmxv_gen(&A, 4096, 16, 1.0, 5), 0);
	check_shape(&A);
	assert_true(off_band(&A) > 0.95);
	mess_spmxv_free(&A);
	assert_int_equal(mess_spmxv_gen(&A, 4096, 16, 0.25, 5), 0);
	check_shape(&A);
	assert_true(off_band(&A) > 0.22 && off_band(&A) < 0.28);

	/* Same seed, same matrix; another seed, another one. */
	assert_int_equal(mess_spmxv_gen(&B, 4096, 16, 0.25, 5), 0);
	assert_memory_equal(A.col, B.col, A.nnz * sizeof(*A.col));
	assert_memory_equal(A.val, B.val, A.nnz * sizeof(*A.val));
	mess_spmxv_free(&B);
	assert_int_equal(mess_spmxv_gen(&B, 4096, 16, 0.25, 6), 0);
	assert_memory_not_equal(A.col, B.col, A.nnz * sizeof(*A.col));
	mess_spmxv_free(&B);
	mess_spmxv_free(&A);

	/* A full row: every swap is between two non-zeros. */
	assert_int_equal(mess_spmxv_gen(&A, 8, 8, 1.0, 3), 0);
	check_shape(&A);
	mess_spmxv_free(&A);
}

static void test_spmxv_invalid(void **state)
{
	struct mess_csr A;

	assert_int_equal(mess_spmxv_gen(&A, 100, 16, -0.01, 1), -EINVAL);
	assert_null(A.rowptr);
	assert_int_equal(mess_spmxv_gen(&A, 100, 16, 1.01, 1), -EINVAL);
	assert_int_equal(mess_spmxv_gen(&A, 100, 16, NAN, 1), -EINVAL);
	assert_int_equal(mess_spmxv_gen(&A, 0, 16, 0.5, 1), -EINVAL);
	assert_int_equal(mess_spmxv_gen(&A, 100, 0, 0.5, 1), -EINVAL);
	assert_int_equal(mess_spmxv_gen(&A, 10, 11, 0.5, 1), -EINVAL);
	mess_spmxv_free(&A);
}

/* Against the dense product, summed over every column in order. */
static void test_spmxv_reference(void **state)
{
	const uint32_t n = 300;
	struct mess_csr A;
	double *dense = calloc((size_t)n * n, sizeof(double));
	double *x = xmalloc(n * sizeof(double));
	double *y = xmalloc(n * sizeof(double));
	double *yr = xmalloc(n * sizeof(double));
	uint64_t rng = 11;

	assert_non_null(dense);
	assert_int_equal(mess_spmxv_gen(&A, n, 16, 0.5, 9), 0);
	assert_int_equal(mess_spmxv_bytes(&A),
			 A.nnz * 12 + (n + 1) * 8 + n * 16);
	for (uint32_t i = 0; i < n; i++) {
		x[i] = mess_ck_unit(&rng) - 0.5;
		for (uint64_t k = A.rowptr[i]; k < A.rowptr[i + 1]; k++)
			dense[(size_t)i * n + A.col[k]] = A.val[k];
	}
	/* Rows in pieces, as threads would run them. */
	mess_spmxv_none(&A, x, y, 0, 1, NULL);
	mess_spmxv_none(&A, x, y, 1, 150, NULL);
	mess_spmxv_none(&A, x, y, 150, 150, NULL);
	mess_spmxv_none(&A, x, y, 150, n, NULL);
	mess_spmxv_ref(&A, x, yr);
	assert_memory_equal(y, yr, n * sizeof(double));
	/*
	 * Not bit-equal: the compiler may contract a * b + c into an FMA
	 * in one loop and not in the other (ppc64le does).
	 */
	for (uint32_t i = 0; i < n; i++) {
		double sum = 0.0, mag = 0.0;

		for (uint32_t j = 0; j < n; j++) {
			sum += dense[(size_t)i * n + j] * x[j];
			mag += fabs(dense[(size_t)i * n + j] * x[j]);
		}
		if (!(fabs(sum - y[i]) <= 1e-14 * mag))
			fail_msg("row %u: %.17g vs dense %.17g", i, y[i], sum);
	}
	mess_spmxv_free(&A);
	free(yr);
	free(y);
	free(x);
	free(dense);
}

static void test_spmxv_noise(void **state)
{
	const uint32_t n = 2000;
	struct mess_csr A;
	double *x = xmalloc(n * sizeof(double));
	double *y = xmalloc(n * sizeof(double));
	double *yr = xmalloc(n * sizeof(double));
	struct mess_noise nz;
	uint64_t rng = 13;

	assert_int_equal(mess_spmxv_gen(&A, n, 16, 0.3, 4), 0);
	for (uint32_t i = 0; i < n; i++)
		x[i] = mess_ck_unit(&rng);
	mess_spmxv_ref(&A, x, yr);
	for (unsigned m = 0; m < MESS_NOISE_NMODES; m++) {
		if (!noise_init(&nz, m))
			continue;
		for (unsigned i = 0; i < NKS; i++) {
			assert_int_equal(mess_noise_set_k(&nz, ks[i]), 0);
			memset(y, 0, n * sizeof(double));
			mess_spmxv[m](&A, x, y, 0, n, &nz);
			assert_same_doubles(y, yr, n, "spmxv", m, ks[i]);
		}
		mess_noise_free(&nz);
	}
	mess_spmxv_free(&A);
	free(yr);
	free(y);
	free(x);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_tables_complete),
		cmocka_unit_test(test_stream_figures),
		cmocka_unit_test(test_stream_check),
		cmocka_unit_test(test_stream_ranges),
		cmocka_unit_test(test_stream_noise),
		cmocka_unit_test(test_latmemrd_chain),
		cmocka_unit_test(test_latmemrd_orders),
		cmocka_unit_test(test_latmemrd_invalid),
		cmocka_unit_test(test_latmemrd_chase),
		cmocka_unit_test(test_haccmk_setup),
		cmocka_unit_test(test_haccmk_reference),
		cmocka_unit_test(test_haccmk_driver_ref),
		cmocka_unit_test(test_haccmk_noise),
		cmocka_unit_test(test_spmxv_gen),
		cmocka_unit_test(test_spmxv_invalid),
		cmocka_unit_test(test_spmxv_reference),
		cmocka_unit_test(test_spmxv_noise),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
