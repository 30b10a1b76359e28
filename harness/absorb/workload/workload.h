/* SPDX-License-Identifier: MIT */
/*
 * The workloads of the absorption tables: a row of the table is one kernel
 * of kernels/c/ckernels.h at one size (variant), core count and, for
 * SPMXV, swapping probability q.  A workload owns its data on each of its
 * threads and runs any instantiation (clean or one noise mode) for a given
 * number of inner-loop iterations, continuing where its last run stopped:
 * runs of the same length do the same work whatever ran before, and a
 * large array is streamed, never re-read from cache.
 *
 * Threads, pinning and timing belong to the caller (absorb_run.c); every
 * per-thread call is made on the thread that owns tid, so first touch
 * places the data.
 */
#ifndef MESS_WORKLOAD_H
#define MESS_WORKLOAD_H

#include <stdint.h>

#include "ckernels.h"
#include "mess/json.h"

/*
 * X(name, kernel functions (their names less _<mode>), perf unit,
 *   iteration, scales with cores, has q, ladder, wa, shares data):
 *   ladder       asking for the kernel also measures the latency ladder
 *                (lat_mem_rd is its kernel);
 *   wa           performance is also reported with the write-allocate read
 *                of every stored line (STREAM's bytes leave it out);
 *   shares data  rows that differ only in core count pass their data on
 *                instead of generating it again (SPMXV's matrix).
 */
#define MESS_WL_KERNELS(X)                                                 \
	X(stream, "mess_stream_triad", "GB/s",                             \
	  "array element (triad a = b + s c)", 1, 0, 0, 1, 0)              \
	X(lat_mem_rd, "mess_latmemrd", "ns/load", "dependent load", 0, 0,  \
	  1, 0, 0)                                                         \
	X(haccmk, "mess_haccmk", "GFLOP/s",                                \
	  "particle-particle interaction", 0, 0, 0, 0, 0)                  \
	X(spmxv, "mess_spmxv", "GFLOP/s/core", "non-zero", 1, 1, 0, 0, 1)

enum mess_wl_kernel {
#define MESS_WL_ENUM(n, sym, u, it, sc, q, l, wa, sh) MESS_WL_##n,
	MESS_WL_KERNELS(MESS_WL_ENUM)
#undef MESS_WL_ENUM
	MESS_WL_NKERNELS
};

struct mess_wl_kinfo {
	const char *name;
	const char *symbol;	/* <symbol>_<mode> is each instantiation */
	const char *perf_unit;
	const char *iteration;	/* what "per iteration" means */
	int scales;		/* runs at the --cores counts; else 1 core */
	int has_q;		/* rows for every --q; plotted against q */
	int ladder;		/* comes with the latency ladder */
	int wa;			/* has a write-allocate performance */
	int shares_data;	/* rows of other core counts reuse the data */
};

extern const struct mess_wl_kinfo mess_wl_kernels[MESS_WL_NKERNELS];

int mess_wl_kernel_parse(const char *name, enum mess_wl_kernel *k);
/* The variants of a kernel, in table order: NULL-terminated. */
const char *const *mess_wl_variants(enum mess_wl_kernel k);

struct mess_wl_row {
	enum mess_wl_kernel kernel;
	const char *variant;	/* one of mess_wl_variants() */
	int cores;
	double q;		/* SPMXV swapping probability, else NAN */
};

/* What the sizes depend on. */
struct mess_wl_env {
	uint64_t llc_bytes;
	int quick;		/* smaller SPMXV "large" matrix */
	int node;		/* NUMA node of the buffers, -1: default */
	uint64_t stride;	/* lat_mem_rd bytes between pointers */
};

struct mess_wl;

/*
 * A workload for row; its per-thread data comes with mess_wl_thread_init.
 * prev (may be NULL) is a workload about to be destroyed: data that does
 * not depend on the core count (the SPMXV matrix) moves over instead of
 * being generated again.  0, -EINVAL or -ENOMEM.
 */
int mess_wl_create(struct mess_wl **w, const struct mess_wl_row *row,
		   const struct mess_wl_env *env, struct mess_wl *prev);
void mess_wl_destroy(struct mess_wl *w);
/* On thread tid (0 .. cores - 1): allocate and first-touch its data. */
int mess_wl_thread_init(struct mess_wl *w, int tid);

/*
 * Run instantiation m (MESS_NOISE_MODE_none: the clean loop) with nz on
 * thread tid for about iters inner-loop iterations, from where the last
 * run stopped; returns the iterations done (kernels that work in whole
 * rows or targets round up).
 */
uint64_t mess_wl_run(struct mess_wl *w, int tid, enum mess_noise_mode m,
		     struct mess_noise *nz, uint64_t iters);

/*
 * The clean-performance trial: nphases timed phases, each a whole pass
 * over the thread's data for STREAM (copy, scale, add, triad, STREAM's
 * rounds) or `iters` clean iterations for the others (one phase).
 * perf_phase is the phase whose time gives the reported performance.
 */
unsigned mess_wl_nphases(const struct mess_wl *w);
unsigned mess_wl_perf_phase(const struct mess_wl *w);
const char *mess_wl_phase_name(const struct mess_wl *w, unsigned phase);
uint64_t mess_wl_phase(struct mess_wl *w, int tid, unsigned phase,
		       uint64_t iters);
/* Performance of a phase from the time per iteration of its slowest
 * thread, in the kernel's unit. */
double mess_wl_perf(const struct mess_wl *w, unsigned phase, double ns_iter);

/*
 * Validate thread tid's results with instantiation m at nz's k, over at
 * most about max_iters iterations (a check with heavy noise costs what a
 * run costs): STREAM's own check, HACCmk's targets against the pow()
 * reference, SPMXV's rows against the plain product, lat_mem_rd's chase
 * still on the chain.  0, -EDOM (wrong results) or -errno.
 */
int mess_wl_check(struct mess_wl *w, int tid, enum mess_noise_mode m,
		  struct mess_noise *nz, uint64_t max_iters);

/* Performance with the write-allocate read of every stored line, from
 * the reported one; NAN when the kernel has no such figure (wa 0). */
double mess_wl_perf_wa(enum mess_wl_kernel k, double perf);

/* Row identity: "kernel-variant-cN[-qQ]", for file names and resume. */
void mess_wl_row_id(const struct mess_wl_row *row, char *buf, size_t len);
/* The row's sizes and memory, members of its meta.json object. */
json_t *mess_wl_meta(const struct mess_wl *w);

#endif
