/* SPDX-License-Identifier: MIT */
/*
 * The C kernels of the absorption tables (Section 4 and 6 of the
 * noise-injection paper): STREAM, lmbench's lat_mem_rd, CORAL HACCmk and
 * SPMXV.  Each is a single-threaded function over a range; the harness does
 * threads, pinning, timing and sizes.
 *
 * Every kernel is compiled once per noise mode plus "none" from one body,
 * with the noise site MESS_NOISE_<mode>(nz) once per iteration of the
 * innermost loop, and exported as mess_<kernel>_<mode> and as a table
 * indexed by enum mess_noise_mode, so a run picks the mode at run time.
 * "k noise instructions per iteration" therefore means, per kernel:
 *   STREAM      per array element
 *   lat_mem_rd  per dependent load (the loop is unrolled, one site per load)
 *   HACCmk      per particle-particle interaction
 *   SPMXV       per non-zero
 *
 * The loops are kept scalar on purpose (vectorisation is disabled in these
 * files): an inline-asm noise site blocks the vectoriser, so letting it
 * vectorise only the "none" loop would compare two different programs.
 *
 * Functions return 0 or -errno.
 */
#ifndef MESS_CKERNELS_H
#define MESS_CKERNELS_H

#include <stddef.h>
#include <stdint.h>

#include "noise.h"

/* Every instantiation: the clean loop and one per noise mode. */
#define MESS_CK_MODES(X) X(none) MESS_NOISE_MODES(X)

/*
 * Random numbers for the generators (chain order, SPMXV swaps): splitmix64,
 * tiny, full period 2^64, and good enough to defeat prefetchers.  A run is
 * reproducible from its seed.
 */
static inline uint64_t mess_ck_rand(uint64_t *state)
{
	uint64_t z = (*state += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/* Uniform in [0, n), n > 0; Lemire's multiply-shift, bias < n / 2^64. */
static inline uint64_t mess_ck_below(uint64_t *state, uint64_t n)
{
	return (uint64_t)(((unsigned __int128)mess_ck_rand(state) * n) >> 64);
}

/* Uniform in [0, 1) with 53 random bits. */
static inline double mess_ck_unit(uint64_t *state)
{
	return (double)(mess_ck_rand(state) >> 11) * 0x1p-53;
}

/*
 * Kernels run their loop on a local copy of the noise state, as noise.h
 * asks (so the site's operands stay in registers), and hand the memory
 * cursor back after it.  The clean loop needs no state: for the none
 * instantiations nz may be NULL; the noisy ones need an initialised nz.
 */
static inline struct mess_noise mess_ck_nz_enter(const struct mess_noise *nz)
{
	struct mess_noise n = { 0 };

	if (nz)
		n = *nz;
	return n;
}

static inline void mess_ck_nz_leave(struct mess_noise *nz,
				    const struct mess_noise *local)
{
	if (nz)
		mess_noise_leave(nz, local);
}

/* ------------------------------------------------------------------ */
/* STREAM (McCalpin): copy c=a, scale b=s*c, add c=a+b, triad a=b+s*c. */

#define MESS_STREAM_SCALAR 3.0
/* STREAM's own iteration count; the check takes the count actually run. */
#define MESS_STREAM_NTIMES 10

struct mess_stream {
	double *a, *b, *c;
	double scalar;		/* MESS_STREAM_SCALAR for the check */
};

/* One pass of one operation over elements [lo, hi). */
typedef void mess_stream_fn(const struct mess_stream *st, size_t lo,
			    size_t hi, struct mess_noise *nz);

enum mess_stream_opid {
	MESS_STREAM_COPY,
	MESS_STREAM_SCALE,
	MESS_STREAM_ADD,
	MESS_STREAM_TRIAD,
	MESS_STREAM_NOPS
};

/* Per-element figures of one operation, declared beside the kernel. */
struct mess_stream_op {
	const char *name;		/* "copy", "scale", "add", "triad" */
	mess_stream_fn *const *fn;	/* [MESS_NOISE_NMODES] */
	unsigned loads, stores;		/* doubles per element */
	unsigned bytes;			/* STREAM's count: 8 per load/store */
	unsigned bytes_wa;		/* plus the write-allocate read */
	unsigned flops;
};

extern mess_stream_fn *const mess_stream_copy[MESS_NOISE_NMODES];
extern mess_stream_fn *const mess_stream_scale[MESS_NOISE_NMODES];
extern mess_stream_fn *const mess_stream_add[MESS_NOISE_NMODES];
extern mess_stream_fn *const mess_stream_triad[MESS_NOISE_NMODES];
/* In STREAM's order, which is also the order the check assumes. */
extern const struct mess_stream_op mess_stream_ops[MESS_STREAM_NOPS];

/* STREAM's initial values a=1, b=2, c=0 over [lo, hi) (first touch). */
void mess_stream_init(const struct mess_stream *st, size_t lo, size_t hi);
/*
 * Values every element holds after ntimes rounds of the four operations
 * from a=1, b=2, c=0.  (STREAM itself also doubles a once, while timing its
 * clock, before the rounds; we do not, and neither does the check.)
 */
void mess_stream_expected(unsigned ntimes, double scalar, double *a,
			  double *b, double *c);
/*
 * STREAM's checkSTREAMresults: the average absolute error of each array
 * over [0, n), relative to the expected value, must be <= 1e-13.
 * 0, or -EDOM if any array fails (-EINVAL for n == 0).
 */
int mess_stream_check(const struct mess_stream *st, size_t n,
		      unsigned ntimes);

/* ------------------------------------------------------------------ */
/*
 * lat_mem_rd (lmbench): a chain of pointers, one per `stride` bytes of a
 * buffer of `size` bytes, chased by dependent loads.
 *
 * BACKWARD is lmbench's default (each line points `stride` bytes lower, the
 * first to the last).  A backward constant stride is caught by stride
 * prefetchers once stride is small, which makes it a bandwidth figure;
 * RANDOM (one random cycle, Sattolo, seeded) defeats them and gives latency
 * proper, so the absorption row and the latency ladder chase RANDOM.
 */
enum mess_latmemrd_order {
	MESS_LATMEMRD_BACKWARD,
	MESS_LATMEMRD_RANDOM,
};

/* Loads per iteration of the chase loop; one noise site after each. */
#define MESS_LATMEMRD_UNROLL 8

/*
 * Link size / stride lines of buf in `order` and return the first line to
 * chase from in *start.  stride must be a multiple of sizeof(void *) and
 * size >= stride (a trailing partial line is left alone), buf aligned to
 * sizeof(void *); else -EINVAL.  Needs no memory of its own.
 */
int mess_latmemrd_chain(void *buf, size_t size, size_t stride,
			enum mess_latmemrd_order order, uint64_t seed,
			void **start);

/* n dependent loads from p (any n); returns where the chase stopped. */
typedef void *mess_latmemrd_fn(void *p, uint64_t n, struct mess_noise *nz);
extern mess_latmemrd_fn *const mess_latmemrd[MESS_NOISE_NMODES];
/* Per load: one pointer-sized load; the line traffic is the stride. */
#define MESS_LATMEMRD_LOADS 1

/* ------------------------------------------------------------------ */
/*
 * HACCmk (CORAL): the short-range force of HACC's particle-particle step,
 * in double precision.  The reference driver: N = 15000 particles; for
 * every neighbour count n = 400, 420, ... < N, particles 0..n-1 are laid on
 * the line x = i/n, y = 2i/n, z = 3i/n (accumulated increments, as the
 * driver does), mass[0] = 2, mass[i] = 0.01 i + x[i], and the first 327
 * particles each get the force of neighbours 0..n-1, scaled by fcoeff into
 * v (v zeroed per n).  The validation figure is the sum over every n of
 * sum_i (vx + vy + vz)[i], i < n.
 */
#define MESS_HACCMK_N 15000
#define MESS_HACCMK_TARGETS 327
#define MESS_HACCMK_COUNT_MIN 400
#define MESS_HACCMK_COUNT_STEP 20
#define MESS_HACCMK_FSRRMAX2 0.5
#define MESS_HACCMK_MP_RSM2 0.03
#define MESS_HACCMK_FCOEFF 0.23
/*
 * Flops per interaction: 3 sub (d), 5 (r2), 1 add (s), 1 mul + 1 sqrt +
 * 1 div (s^-1.5), 10 (polynomial), 1 sub, 1 mul (m f), 6 (accumulate):
 * 30, counting sqrt and div as one each and the two selects as none.
 */
#define MESS_HACCMK_FLOPS 30
/* Doubles loaded per interaction: x, y, z, mass of the neighbour. */
#define MESS_HACCMK_LOADS 4
/*
 * The kernel computes pow(s, -1.5) as 1 / (s sqrt(s)); results agree with
 * the pow reference to this relative error of the sum of the magnitudes
 * of the terms (a few ulp per term; the plain relative error of a force is
 * meaningless where neighbours on both sides cancel).
 */
#define MESS_HACCMK_RTOL 1e-13

struct mess_haccmk {
	uint32_t nmax;			/* particles allocated */
	uint32_t count;			/* neighbours this round (n) */
	double *x, *y, *z, *mass;	/* [nmax] */
	double *vx, *vy, *vz;		/* [nmax] */
};

/* 0, -EINVAL (nmax == 0) or -ENOMEM; arrays zeroed. */
int mess_haccmk_alloc(struct mess_haccmk *h, uint32_t nmax);
void mess_haccmk_free(struct mess_haccmk *h);
/* The driver's preparation for neighbour count n: 0 or -EINVAL. */
int mess_haccmk_setup(struct mess_haccmk *h, uint32_t n);
/* sum_i (vx + vy + vz)[i] over i < count: the driver's per-n figure. */
double mess_haccmk_validation(const struct mess_haccmk *h);

/* Targets [lo, hi) (hi <= count): v[i] += fcoeff * force of 0..count-1. */
typedef void mess_haccmk_fn(struct mess_haccmk *h, uint32_t lo, uint32_t hi,
			    struct mess_noise *nz);
extern mess_haccmk_fn *const mess_haccmk[MESS_NOISE_NMODES];
/*
 * The straightforward evaluation with pow(s, -1.5), one target: the
 * force in f[3] and, in mag[3], the sum of |term| per component (the scale
 * for MESS_HACCMK_RTOL).
 */
void mess_haccmk_ref(const struct mess_haccmk *h, uint32_t i, double f[3],
		     double mag[3]);
/*
 * The reference driver on h: every n = count_min, count_min + step, ...
 * < h->nmax, `targets` targets (<= count_min), single-threaded with fn
 * (NULL: the pow reference).  *final gets the validation figure.  0 or
 * -EINVAL.
 */
int mess_haccmk_driver(struct mess_haccmk *h, mess_haccmk_fn *fn,
		       struct mess_noise *nz, uint32_t targets,
		       uint32_t count_min, uint32_t step, double *final);

/* ------------------------------------------------------------------ */
/*
 * SPMXV (EPI): y = A x, A square in CSR with exactly nnz_per_row non-zeros
 * per row, columns sorted and unique within a row.
 *
 * Generation: row i starts as the band of nnz_per_row consecutive columns
 * centred on the diagonal (shifted inward at the edges).  Then, with
 * swapping probability q, each non-zero of the row in turn swaps its
 * position with a uniformly random column position of the same row (any
 * of the n, not only the band): with a zero position the non-zero moves
 * there, with another non-zero the two values trade places.  A swap is a
 * permutation of the row, so the columns stay unique; the row is then
 * sorted back into CSR order.  The fraction of non-zeros leaving the band
 * is about q (1 - nnz_per_row / n): q = 0 is the pure band, q = 1 scatters
 * almost every x access.  Values are deterministic from the seed, in
 * [0.5, 1.5).
 */
struct mess_csr {
	uint32_t n;		/* rows = columns */
	uint32_t nnz_per_row;
	uint64_t nnz;		/* n * nnz_per_row */
	uint64_t *rowptr;	/* [n + 1] */
	uint32_t *col;		/* [nnz] */
	double *val;		/* [nnz] */
};

/*
 * 0, -EINVAL (n == 0, nnz_per_row == 0 or > n, q outside [0, 1] or NaN)
 * or -ENOMEM.  Same arguments, same matrix.
 */
int mess_spmxv_gen(struct mess_csr *A, uint32_t n, uint32_t nnz_per_row,
		   double q, uint64_t seed);
void mess_spmxv_free(struct mess_csr *A);

/* y[i] = sum_k val[k] x[col[k]] for rows [lo, hi), in CSR order. */
typedef void mess_spmxv_fn(const struct mess_csr *A, const double *x,
			   double *y, uint32_t lo, uint32_t hi,
			   struct mess_noise *nz);
extern mess_spmxv_fn *const mess_spmxv[MESS_NOISE_NMODES];
/* The plain product, same summation order: for validation. */
void mess_spmxv_ref(const struct mess_csr *A, const double *x, double *y);

#define MESS_SPMXV_FLOPS 2	/* per non-zero */
/* Per non-zero: val (8) + col (4) streamed, x[col] (8) gathered. */
#define MESS_SPMXV_LOADS 3
/* Compulsory bytes of one product: A, x once, y stored. */
uint64_t mess_spmxv_bytes(const struct mess_csr *A);

/* ------------------------------------------------------------------ */
/* Every instantiation, for direct calls and disassembly. */
#define MESS_CK_DECLARE(m)                                                  \
	mess_stream_fn mess_stream_copy_##m, mess_stream_scale_##m,         \
		mess_stream_add_##m, mess_stream_triad_##m;                 \
	mess_latmemrd_fn mess_latmemrd_##m;                                 \
	mess_haccmk_fn mess_haccmk_##m;                                     \
	mess_spmxv_fn mess_spmxv_##m;
MESS_CK_MODES(MESS_CK_DECLARE)
#undef MESS_CK_DECLARE

#endif
