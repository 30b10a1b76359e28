// SPDX-License-Identifier: MIT
/*
 * The workloads `mess sample` samples, from kernels/c/ (one table row
 * each): STREAM triad, the lat_mem_rd chase, SPMXV.  Each knows its
 * buffers as address ranges, so that a sample's data address is placed
 * in one (the memory-region profile), and splits its work over the
 * threads as STREAM's static schedule does.  Threads call run on their
 * own thread; the data is first touched by thread 0 (one NUMA node: the
 * sweep stays on the chase core's socket).
 */
#include "sample/sweep.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "ckernels.h"
#include "core/machine/mem.h"

#define SPMXV_NNZ_ROW 28
#define LAT_STRIDE 64

struct sample_work {
	const struct work_row *row;
	int threads;
	size_t n;		/* elements (STREAM), bytes per chain, rows */
	struct mess_buf buf[3];
	struct mess_stream st;
	struct mess_csr A;
	void *chase[SAMPLE_MAX_THREADS];
	size_t cur[SAMPLE_MAX_THREADS];
};

static size_t lo_of(const struct sample_work *w, int tid)
{
	return w->n * (size_t)tid / (size_t)w->threads;
}

static int stream_init(struct sample_work *w, uint64_t bytes)
{
	int rc = 0;

	w->n = bytes / 3 / sizeof(double);
	for (int i = 0; i < 3 && !rc; i++)
		rc = mess_buf_alloc(&w->buf[i], w->n * sizeof(double), -1, 1);
	if (rc)
		return rc;
	w->st = (struct mess_stream){ w->buf[0].p, w->buf[1].p, w->buf[2].p, MESS_STREAM_SCALAR };
	mess_stream_init(&w->st, 0, w->n);
	return 0;
}

/* STREAM triad over the thread's chunk, from where it stopped. */
static uint64_t stream_run(struct sample_work *w, int tid, uint64_t iters)
{
	size_t lo = lo_of(w, tid), hi = lo_of(w, tid + 1), left = iters;

	while (left) {
		size_t a = lo + w->cur[tid], b = a + left > hi ? hi : a + left;

		mess_stream_triad[MESS_NOISE_MODE_none](&w->st, a, b, NULL);
		left -= b - a;
		w->cur[tid] = b == hi ? 0 : b - lo;
	}
	return iters;
}

/* One random chain per thread, each in its own slice of one buffer. */
static int lat_init(struct sample_work *w, uint64_t bytes)
{
	size_t slice;
	int rc;

	slice = (bytes / (size_t)w->threads) & ~(size_t)(LAT_STRIDE - 1);
	rc = mess_buf_alloc(&w->buf[0], slice * (size_t)w->threads, -1, 1);
	for (int t = 0; !rc && t < w->threads; t++)
		rc = mess_latmemrd_chain((char *)w->buf[0].p + slice * (size_t)t, slice,
					 LAT_STRIDE, MESS_LATMEMRD_RANDOM, 1 + (uint64_t)t,
					 &w->chase[t]);
	w->n = slice;
	return rc;
}

static uint64_t lat_run(struct sample_work *w, int tid, uint64_t iters)
{
	w->chase[tid] = mess_latmemrd[MESS_NOISE_MODE_none](w->chase[tid], iters, NULL);
	return iters;
}

/* A matrix of bytes / (28 x 12 + 24) rows, rows split over the threads. */
static int spmxv_init(struct sample_work *w, uint64_t bytes)
{
	uint64_t rows = bytes / (SPMXV_NNZ_ROW * 12 + 24);
	int rc;

	if (rows < 1024)
		rows = 1024;
	w->n = rows;
	rc = mess_spmxv_gen(&w->A, (uint32_t)rows, SPMXV_NNZ_ROW, 0.1, 42);
	if (!rc)
		rc = mess_buf_alloc(&w->buf[0], rows * sizeof(double), -1, 1);
	if (!rc)
		rc = mess_buf_alloc(&w->buf[1], rows * sizeof(double), -1, 1);
	if (rc)
		return rc;
	for (uint64_t i = 0; i < rows; i++)
		((double *)w->buf[0].p)[i] = 1.0 + (double)(i % 61) / 64.0;
	return 0;
}

/* iters non-zeros, in whole rows. */
static uint64_t spmxv_run(struct sample_work *w, int tid, uint64_t iters)
{
	size_t lo = lo_of(w, tid), hi = lo_of(w, tid + 1);
	uint64_t rows = (iters + SPMXV_NNZ_ROW - 1) / SPMXV_NNZ_ROW, left = rows;

	while (left) {
		size_t a = lo + w->cur[tid], b = a + left > hi ? hi : a + left;

		mess_spmxv[MESS_NOISE_MODE_none](&w->A, w->buf[0].p, w->buf[1].p, (uint32_t)a,
						 (uint32_t)b, NULL);
		left -= b - a;
		w->cur[tid] = b == hi ? 0 : b - lo;
	}
	return rows * SPMXV_NNZ_ROW;
}

static int stream_regions(const struct sample_work *w, struct sample_region *r)
{
	static const char *const names[3] = { "a", "b", "c" };

	for (int i = 0; i < 3; i++)
		r[i] = (struct sample_region){ names[i], (uintptr_t)w->buf[i].p,
					       (uintptr_t)w->buf[i].p + w->n * sizeof(double) };
	return 3;
}

static int lat_regions(const struct sample_work *w, struct sample_region *r)
{
	r[0] = (struct sample_region){ "chain", (uintptr_t)w->buf[0].p,
				       (uintptr_t)w->buf[0].p + w->n * (size_t)w->threads };
	return 1;
}

static int spmxv_regions(const struct sample_work *w, struct sample_region *r)
{
	r[0] = (struct sample_region){ "val", (uintptr_t)w->A.val,
				       (uintptr_t)(w->A.val + w->A.nnz) };
	r[1] = (struct sample_region){ "col", (uintptr_t)w->A.col,
				       (uintptr_t)(w->A.col + w->A.nnz) };
	r[2] = (struct sample_region){ "rowptr", (uintptr_t)w->A.rowptr,
				       (uintptr_t)(w->A.rowptr + w->A.n + 1) };
	r[3] = (struct sample_region){ "x", (uintptr_t)w->buf[0].p,
				       (uintptr_t)w->buf[0].p + w->n * sizeof(double) };
	r[4] = (struct sample_region){ "y", (uintptr_t)w->buf[1].p,
				       (uintptr_t)w->buf[1].p + w->n * sizeof(double) };
	return 5;
}

struct work_row {
	const char *name, *desc, *iteration;
	int (*init)(struct sample_work *w, uint64_t bytes);
	uint64_t (*run)(struct sample_work *w, int tid, uint64_t iters);
	int (*regions)(const struct sample_work *w, struct sample_region *r);
};

static const struct work_row rows[] = {
	{ "stream", "STREAM triad a = b + s c (kernels/c/stream.c), arrays a, b, c split over the threads",
	  "array element", stream_init, stream_run, stream_regions },
	{ "lat_mem_rd", "lat_mem_rd random pointer chase (kernels/c/latmemrd.c), one chain per thread, stride 64",
	  "dependent load", lat_init, lat_run, lat_regions },
	{ "spmxv", "SPMXV y = A x (kernels/c/spmxv.c), CSR of 28 non-zeros per row, q 0.1, rows split over the threads",
	  "non-zero", spmxv_init, spmxv_run, spmxv_regions },
};

#define NROWS (sizeof(rows) / sizeof(rows[0]))

const char *sample_work_names(void)
{
	return "stream, lat_mem_rd, spmxv";
}

int sample_work_known(const char *name)
{
	for (size_t i = 0; i < NROWS; i++)
		if (!strcmp(name, rows[i].name))
			return 1;
	return 0;
}

int sample_work_create(struct sample_work **wp, const char *name, int threads, uint64_t bytes)
{
	struct sample_work *w;
	int rc;

	if (threads < 1 || threads > SAMPLE_MAX_THREADS)
		return -EINVAL;
	w = calloc(1, sizeof(*w));
	if (!w)
		return -ENOMEM;
	for (size_t i = 0; i < NROWS; i++)
		if (!strcmp(name, rows[i].name))
			w->row = &rows[i];
	w->threads = threads;
	rc = w->row ? w->row->init(w, bytes) : -EINVAL;
	if (rc) {
		sample_work_destroy(w);
		return rc;
	}
	*wp = w;
	return 0;
}

void sample_work_destroy(struct sample_work *w)
{
	if (!w)
		return;
	for (int i = 0; i < 3; i++)
		mess_buf_free(&w->buf[i]);
	if (w->A.val)
		mess_spmxv_free(&w->A);
	free(w);
}

uint64_t sample_work_run(struct sample_work *w, int tid, uint64_t iters)
{
	return w->row->run(w, tid, iters);
}

int sample_work_regions(const struct sample_work *w, struct sample_region *r)
{
	return w->row->regions(w, r);
}

const char *sample_work_desc(const struct sample_work *w)
{
	return w->row->desc;
}

const char *sample_work_iteration(const struct sample_work *w)
{
	return w->row->iteration;
}
