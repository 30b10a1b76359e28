// SPDX-License-Identifier: MIT
/*
 * The workloads of the absorption tables: sizes, data, runs and checks of
 * the C kernels (kernels/c/ckernels.h), one instance per table row.
 */
#include "absorb/workload/workload.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/machine/mem.h"

const struct mess_wl_kinfo mess_wl_kernels[MESS_WL_NKERNELS] = {
#define MESS_WL_INFO(n, sym, u, it, sc, q, l, wa, sh) \
	[MESS_WL_##n] = { #n, sym, u, it, sc, q, l, wa, sh },
	MESS_WL_KERNELS(MESS_WL_INFO)
#undef MESS_WL_INFO
};

double mess_wl_perf_wa(enum mess_wl_kernel k, double perf)
{
	const struct mess_stream_op *tr = &mess_stream_ops[MESS_STREAM_TRIAD];

	return mess_wl_kernels[k].wa ? perf * tr->bytes_wa / tr->bytes : NAN;
}

/*
 * lat_mem_rd: --stride (lmbench's default, 512 / sizeof(char *) = 64) over
 * 4x the LLC, chased in one random cycle: a load then costs the memory latency,
 * as the paper's figures (~90-150 ns per load) show its runs did.
 * lmbench's own backward order is followed by stride prefetchers (about
 * 10 ns per load on the KVM Xeon): a bandwidth figure, not a latency one.
 */
#define LAT_SEED 1

/*
 * HACCmk: the reference driver's neighbour counts run from 400 to 14980;
 * the rows use their mean, 7690 (data 246 KiB: L2-resident, as most of
 * the driver's rounds are), and the driver's 327 targets for the check.
 */
#define HACC_COUNT 7690

/*
 * SPMXV: the paper's matrices hold 44 MB for 134k rows and 480 MB for
 * 1346k rows, about 28 non-zeros of 12 bytes per row.  "small" keeps 134k
 * rows unless its data exceeds half the LLC (then fewer, so that it fits
 * in this machine's caches at q = 0); "large" keeps 1346k rows (>= 480 MB)
 * and at least 4x the LLC, or 2x the LLC with --quick.
 */
#define SPMXV_NNZ_ROW 28
#define SPMXV_SMALL_ROWS 134000u
#define SPMXV_LARGE_ROWS 1346000u
#define SPMXV_SEED 42
/* Bytes per row: val and col per non-zero, rowptr, x, y. */
#define SPMXV_ROW_BYTES (SPMXV_NNZ_ROW * 12 + 3 * 8)

static const char *const v_stream[] = { "triad", NULL };
static const char *const v_lat[] = { "random", NULL };
static const char *const v_hacc[] = { "n7690", NULL };
static const char *const v_spmxv[] = { "small", "large", NULL };

const char *const *mess_wl_variants(enum mess_wl_kernel k)
{
	static const char *const *const v[MESS_WL_NKERNELS] = {
		[MESS_WL_stream] = v_stream,
		[MESS_WL_lat_mem_rd] = v_lat,
		[MESS_WL_haccmk] = v_hacc,
		[MESS_WL_spmxv] = v_spmxv,
	};

	return (unsigned)k < MESS_WL_NKERNELS ? v[k] : NULL;
}

int mess_wl_kernel_parse(const char *name, enum mess_wl_kernel *k)
{
	for (unsigned i = 0; i < MESS_WL_NKERNELS; i++)
		if (!strcmp(name, mess_wl_kernels[i].name)) {
			*k = i;
			return 0;
		}
	return -EINVAL;
}

/* Per-thread data and cursor; padded: cursors are written every run. */
struct wl_thread {
	_Alignas(128) struct mess_buf buf;	/* lat_mem_rd chain */
	struct mess_buf arr[3];			/* STREAM a, b, c */
	struct mess_stream st;
	size_t n;		/* STREAM elements of this thread */
	size_t cur;		/* STREAM element, HACCmk target, SPMXV row */
	void *p;		/* lat_mem_rd: where the chase stands */
	struct mess_haccmk h;
	uint32_t lo, hi;	/* SPMXV rows of this thread */
	unsigned rounds;	/* STREAM rounds done, for its check */
};

/* The SPMXV matrix and vectors: shared by the threads, moved between
 * rows of the same matrix (see mess_wl_create). */
struct wl_matrix {
	struct mess_csr A;
	uint32_t n;
	double q;
	struct mess_buf x, y, yref;
};

struct mess_wl {
	struct mess_wl_row row;
	struct mess_wl_env env;
	struct wl_thread *th;
	size_t stream_n;	/* elements per array, all threads */
	size_t lat_bytes;
	struct wl_matrix *mx;
};

static int spmxv_rows(const struct mess_wl *w, uint32_t *n)
{
	uint64_t llc = w->env.llc_bytes, rows;

	if (!strcmp(w->row.variant, "small")) {
		rows = SPMXV_SMALL_ROWS;
		if (rows * SPMXV_ROW_BYTES > llc / 2)
			rows = llc / 2 / SPMXV_ROW_BYTES;
	} else {
		uint64_t want = (w->env.quick ? 2 : 4) * llc / SPMXV_ROW_BYTES;

		rows = w->env.quick ? want : SPMXV_LARGE_ROWS;
		if (rows < want)
			rows = want;
	}
	if (rows < SPMXV_NNZ_ROW || rows > UINT32_MAX)
		return -EINVAL;
	*n = (uint32_t)rows;
	return 0;
}

static void matrix_free(struct wl_matrix *mx)
{
	if (!mx)
		return;
	mess_spmxv_free(&mx->A);
	mess_buf_free(&mx->x);
	mess_buf_free(&mx->y);
	mess_buf_free(&mx->yref);
	free(mx);
}

static int matrix_make(struct mess_wl *w, struct mess_wl *prev)
{
	struct wl_matrix *mx;
	uint32_t n;
	int err = spmxv_rows(w, &n);

	if (err)
		return err;
	if (prev && prev->mx && prev->mx->n == n && prev->mx->q == w->row.q) {
		w->mx = prev->mx;
		prev->mx = NULL;
		return 0;
	}
	mx = calloc(1, sizeof(*mx));
	if (!mx)
		return -ENOMEM;
	mx->n = n;
	mx->q = w->row.q;
	err = mess_spmxv_gen(&mx->A, n, SPMXV_NNZ_ROW, w->row.q, SPMXV_SEED);
	if (!err)
		err = mess_buf_alloc(&mx->x, n * sizeof(double), w->env.node, 1);
	if (!err)
		err = mess_buf_alloc(&mx->y, n * sizeof(double), w->env.node, 1);
	if (!err)
		err = mess_buf_alloc(&mx->yref, n * sizeof(double),
				     w->env.node, 1);
	if (err) {
		matrix_free(mx);
		return err;
	}
	/* Values away from 0 and 1 so a dropped or doubled term shows. */
	for (uint32_t i = 0; i < n; i++)
		((double *)mx->x.p)[i] = 1.0 + (double)(i % 61) / 64.0;
	mess_spmxv_ref(&mx->A, mx->x.p, mx->yref.p);
	w->mx = mx;
	return 0;
}

int mess_wl_create(struct mess_wl **wp, const struct mess_wl_row *row,
		   const struct mess_wl_env *env, struct mess_wl *prev)
{
	struct mess_wl *w;
	int err = 0;

	if (row->cores < 1 || (unsigned)row->kernel >= MESS_WL_NKERNELS ||
	    (!mess_wl_kernels[row->kernel].scales && row->cores != 1))
		return -EINVAL;
	w = calloc(1, sizeof(*w));
	if (!w)
		return -ENOMEM;
	w->row = *row;
	w->env = *env;
	w->th = aligned_alloc(_Alignof(struct wl_thread),
			      sizeof(*w->th) * (size_t)row->cores);
	if (!w->th) {
		free(w);
		return -ENOMEM;
	}
	memset(w->th, 0, sizeof(*w->th) * (size_t)row->cores);
	/* STREAM's rule: each array at least 4x the largest cache. */
	w->stream_n = 4 * env->llc_bytes / sizeof(double);
	w->lat_bytes = 4 * env->llc_bytes;
	if (row->kernel == MESS_WL_spmxv)
		err = matrix_make(w, prev);
	if (err) {
		mess_wl_destroy(w);
		return err;
	}
	*wp = w;
	return 0;
}

void mess_wl_destroy(struct mess_wl *w)
{
	if (!w)
		return;
	for (int t = 0; t < w->row.cores; t++) {
		struct wl_thread *th = &w->th[t];

		for (int i = 0; i < 3; i++)
			mess_buf_free(&th->arr[i]);
		mess_buf_free(&th->buf);
		mess_haccmk_free(&th->h);
	}
	matrix_free(w->mx);
	free(w->th);
	free(w);
}

int mess_wl_thread_init(struct mess_wl *w, int tid)
{
	struct wl_thread *th = &w->th[tid];
	int node = w->env.node, err = 0;

	switch (w->row.kernel) {
	case MESS_WL_stream:
		/* Each thread its own chunk of every array, as STREAM's static
		 * OpenMP schedule gives. */
		th->n = (w->stream_n + w->row.cores - 1) / w->row.cores;
		for (int i = 0; !err && i < 3; i++)
			err = mess_buf_alloc(&th->arr[i], th->n * sizeof(double),
					     node, 1);
		if (err)
			return err;
		th->st = (struct mess_stream){ th->arr[0].p, th->arr[1].p,
					       th->arr[2].p, MESS_STREAM_SCALAR };
		mess_stream_init(&th->st, 0, th->n);
		return 0;
	case MESS_WL_lat_mem_rd:
		err = mess_buf_alloc(&th->buf, w->lat_bytes, node, 1);
		if (!err)
			err = mess_latmemrd_chain(th->buf.p, w->lat_bytes,
						  w->env.stride, MESS_LATMEMRD_RANDOM,
						  LAT_SEED, &th->p);
		return err;
	case MESS_WL_haccmk:
		err = mess_haccmk_alloc(&th->h, HACC_COUNT);
		if (!err)
			err = mess_haccmk_setup(&th->h, HACC_COUNT);
		return err;
	case MESS_WL_spmxv: {
		uint64_t n = w->mx->n, c = (uint64_t)w->row.cores;

		th->lo = (uint32_t)(n * (uint64_t)tid / c);
		th->hi = (uint32_t)(n * (uint64_t)(tid + 1) / c);
		th->cur = th->lo;
		return th->hi > th->lo ? 0 : -EINVAL;
	}
	default:
		return -EINVAL;
	}
}

/*
 * Every kernel works on a cyclic range [lo, hi) of units (elements,
 * targets, rows) of `per` iterations each: run `want` iterations (rounded
 * up to whole units, the count in `done`) from *cur, wrapping, in calls
 * `call` over [a_, b_) of at most one lap.
 */
#define CYCLE(done, cur, lo, hi, per, want, call)                           \
	do {                                                                \
		uint64_t left_ = ((want) + (per) - 1) / (per);              \
		(done) = left_ * (per);                                     \
		while (left_) {                                             \
			size_t a_ = *(cur), b_ = (hi);                      \
			if (b_ - a_ > left_)                                \
				b_ = a_ + left_;                            \
			call;                                               \
			left_ -= b_ - a_;                                   \
			*(cur) = b_ == (hi) ? (lo) : b_;                    \
		}                                                           \
	} while (0)

uint64_t mess_wl_run(struct mess_wl *w, int tid, enum mess_noise_mode m,
		     struct mess_noise *nz, uint64_t iters)
{
	struct wl_thread *th = &w->th[tid];
	uint64_t done = 0;

	switch (w->row.kernel) {
	case MESS_WL_stream:
		CYCLE(done, &th->cur, 0, th->n, 1, iters,
		      mess_stream_triad[m](&th->st, a_, b_, nz));
		break;
	case MESS_WL_lat_mem_rd:
		th->p = mess_latmemrd[m](th->p, iters, nz);
		done = iters;
		break;
	case MESS_WL_haccmk:
		CYCLE(done, &th->cur, 0, th->h.count, th->h.count, iters,
		      mess_haccmk[m](&th->h, (uint32_t)a_, (uint32_t)b_, nz));
		break;
	case MESS_WL_spmxv:
		CYCLE(done, &th->cur, th->lo, th->hi, w->mx->A.nnz_per_row, iters,
		      mess_spmxv[m](&w->mx->A, w->mx->x.p, w->mx->y.p,
				    (uint32_t)a_, (uint32_t)b_, nz));
		break;
	default:
		break;
	}
	return done;
}

unsigned mess_wl_nphases(const struct mess_wl *w)
{
	return w->row.kernel == MESS_WL_stream ? MESS_STREAM_NOPS : 1;
}

unsigned mess_wl_perf_phase(const struct mess_wl *w)
{
	return w->row.kernel == MESS_WL_stream ? MESS_STREAM_TRIAD : 0;
}

const char *mess_wl_phase_name(const struct mess_wl *w, unsigned phase)
{
	if (w->row.kernel == MESS_WL_stream && phase < MESS_STREAM_NOPS)
		return mess_stream_ops[phase].name;
	return mess_wl_kernels[w->row.kernel].name;
}

uint64_t mess_wl_phase(struct mess_wl *w, int tid, unsigned phase,
		       uint64_t iters)
{
	struct wl_thread *th = &w->th[tid];

	if (w->row.kernel != MESS_WL_stream)
		return mess_wl_run(w, tid, MESS_NOISE_MODE_none, NULL, iters);
	/* STREAM's rounds: the check counts the triads, the last phase. */
	mess_stream_ops[phase].fn[MESS_NOISE_MODE_none](&th->st, 0, th->n, NULL);
	if (phase == MESS_STREAM_NOPS - 1)
		th->rounds++;
	return th->n;
}

double mess_wl_perf(const struct mess_wl *w, unsigned phase, double ns_iter)
{
	switch (w->row.kernel) {
	case MESS_WL_stream:
		/* The threads' elements in parallel: GB/s = B/ns. */
		return mess_stream_ops[phase].bytes * w->row.cores / ns_iter;
	case MESS_WL_lat_mem_rd:
		return ns_iter;
	case MESS_WL_haccmk:
		return MESS_HACCMK_FLOPS / ns_iter;
	case MESS_WL_spmxv:
		return MESS_SPMXV_FLOPS / ns_iter;
	default:
		return NAN;
	}
}

/* Units of `per` iterations in max_iters, at least one, at most n. */
static uint64_t units(uint64_t max_iters, uint64_t per, uint64_t n)
{
	uint64_t u = max_iters / per + 1;

	return u < n ? u : n;
}

static int check_hacc(struct wl_thread *th, enum mess_noise_mode m,
		      struct mess_noise *nz, uint64_t max_iters)
{
	const double *v[3];
	double f[3], mag[3];
	uint32_t targets = (uint32_t)units(max_iters, th->h.count,
					   MESS_HACCMK_TARGETS);
	int err = mess_haccmk_setup(&th->h, th->h.count);

	if (err)
		return err;
	mess_haccmk[m](&th->h, 0, targets, nz);
	v[0] = th->h.vx, v[1] = th->h.vy, v[2] = th->h.vz;
	for (uint32_t i = 0; i < targets; i++) {
		mess_haccmk_ref(&th->h, i, f, mag);
		for (int c = 0; c < 3; c++)
			if (!(fabs(v[c][i] - MESS_HACCMK_FCOEFF * f[c]) <=
			      MESS_HACCMK_RTOL * MESS_HACCMK_FCOEFF * mag[c]))
				return -EDOM;
	}
	return 0;
}

int mess_wl_check(struct mess_wl *w, int tid, enum mess_noise_mode m,
		  struct mess_noise *nz, uint64_t max_iters)
{
	struct wl_thread *th = &w->th[tid];

	switch (w->row.kernel) {
	case MESS_WL_stream:
		/* A triad leaves a = b + s c as STREAM's rounds left it. */
		return mess_stream_check(&th->st, th->n, th->rounds);
	case MESS_WL_lat_mem_rd: {
		size_t off = (size_t)((char *)th->p - (char *)th->buf.p);

		return off < w->lat_bytes && off % w->env.stride == 0 ? 0 : -EDOM;
	}
	case MESS_WL_haccmk:
		return check_hacc(th, m, nz, max_iters);
	case MESS_WL_spmxv: {
		const double *y = w->mx->y.p, *yref = w->mx->yref.p;
		uint32_t hi = th->lo + (uint32_t)units(max_iters,
			w->mx->A.nnz_per_row, th->hi - th->lo);

		mess_spmxv[m](&w->mx->A, w->mx->x.p, w->mx->y.p, th->lo, hi,
			      nz);
		/* Same summation order as the reference: equal, not close. */
		for (uint32_t i = th->lo; i < hi; i++)
			if (y[i] != yref[i])
				return -EDOM;
		return 0;
	}
	default:
		return -EINVAL;
	}
}

void mess_wl_row_id(const struct mess_wl_row *row, char *buf, size_t len)
{
	int n = snprintf(buf, len, "%s-%s-c%d",
			 mess_wl_kernels[row->kernel].name, row->variant,
			 row->cores);

	if (!isnan(row->q) && n > 0 && (size_t)n < len)
		snprintf(buf + n, len - (size_t)n, "-q%g", row->q);
}

static void meta_buf(json_t *j, const char *name, const struct mess_buf *b)
{
	char k[64];

	snprintf(k, sizeof(k), "%s_huge_pages", name);
	json_object_set_new(j, k, json_string(mess_hp_name(b->hp)));
	snprintf(k, sizeof(k), "%s_huge_pct", name);
	json_object_set_new(j, k, mess_json_real(b->huge_pct, 1));
}

json_t *mess_wl_meta(const struct mess_wl *w)
{
	const struct wl_thread *th = &w->th[0];
	json_t *j = mess_json_pack("{s:s}", "iteration",
				   mess_wl_kernels[w->row.kernel].iteration);

	if (!j)
		return NULL;
	switch (w->row.kernel) {
	case MESS_WL_stream:
		mess_json_merge(j, mess_json_pack("{s:I, s:I, s:I, s:i, s:i, s:f}",
			"array_bytes", (json_int_t)(th->n * sizeof(double) * w->row.cores),
			"array_bytes_per_thread", (json_int_t)(th->n * sizeof(double)),
			"elements_per_thread", (json_int_t)th->n,
			"bytes_per_element_stream", (int)mess_stream_ops[MESS_STREAM_TRIAD].bytes,
			"bytes_per_element_write_allocate", (int)mess_stream_ops[MESS_STREAM_TRIAD].bytes_wa,
			"scalar", (double)MESS_STREAM_SCALAR));
		meta_buf(j, "arrays", &th->arr[0]);
		break;
	case MESS_WL_lat_mem_rd:
		mess_json_merge(j, mess_json_pack("{s:I, s:I, s:s, s:i}",
			"buffer_bytes", (json_int_t)w->lat_bytes,
			"stride_bytes", (json_int_t)w->env.stride,
			"order", w->row.variant, "seed", LAT_SEED));
		meta_buf(j, "buffer", &th->buf);
		break;
	case MESS_WL_haccmk:
		mess_json_merge(j, mess_json_pack("{s:i, s:i, s:i, s:I}",
			"neighbours", (int)th->h.count,
			"check_targets", MESS_HACCMK_TARGETS,
			"flops_per_interaction", MESS_HACCMK_FLOPS,
			"data_bytes", (json_int_t)((size_t)th->h.count * 7 * sizeof(double))));
		break;
	case MESS_WL_spmxv:
		mess_json_merge(j, mess_json_pack("{s:i, s:i, s:I, s:I, s:f, s:i, s:i, s:s}",
			"rows", (int)w->mx->n, "nnz_per_row", (int)w->mx->A.nnz_per_row,
			"nnz", (json_int_t)w->mx->A.nnz,
			"bytes", (json_int_t)mess_spmxv_bytes(&w->mx->A),
			"q", w->row.q, "seed", SPMXV_SEED,
			"flops_per_nnz", MESS_SPMXV_FLOPS,
			"matrix_memory", "malloc by the generator (no huge-page request)"));
		meta_buf(j, "vectors", &w->mx->x);
		break;
	default:
		break;
	}
	return j;
}
