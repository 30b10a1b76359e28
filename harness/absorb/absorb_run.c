// SPDX-License-Identifier: MIT
/*
 * `mess absorb`: rows x noise modes, each a search over k (absorb.h) whose
 * every point is a median of timed runs on pinned threads.  The run
 * directory is valid after every point: absorption_points.csv is appended
 * and flushed per point, the tables are rewritten after every finished
 * row x mode, and --resume continues the searches from the points (the
 * search step is a pure function of them).
 */
#include "absorb/absorb_run.h"

#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "absorb/workload.h"
#include "core/buildinfo.h"
#include "core/clock.h"
#include "core/isa.h"
#include "mess/ladder.h"
#include "core/ladder_run.h"
#include "core/options.h"
#include "core/plot.h"
#include "core/pool.h"
#include "core/topo.h"
#include "core/rundir.h"
#include "core/signals.h"
#include "core/util.h"
#include "mess/absorb.h"
#include "mess/stats.h"

#define POINTS_CSV "absorption_points.csv"
#define POINTS_HEADER "kernel,variant,cores,q,mode,k,time_ns,repeats,spread_ns,paired_base_ns"
#define TABLE_CSV "absorption.csv"
#define TABLE_HEADER "kernel,variant,cores,q,mode,k1,k1_rel,k2,slope_ns,base_ns,perf,perf_unit,runs,status"
#define META_SCHEMA 1
#define SPREAD_DESC "1.4826 x median absolute deviation (a standard deviation robust to one disturbed repeat)"
#define MAX_REPEATS 50
/* A baseline this spread (relative) is measured again: a disturbed one
 * would otherwise set the noise threshold for its whole search. */
#define REMEASURE_REL 0.05
#define REMEASURE_MAX 2
#define LADDER_CSV "ladder.csv"
#define LADDER_HEADER "size_bytes,lat_ns,repeats,spread_ns,loads_per_run"
#define LADDER_MAX 128
#define LADDER_CACHES 8
/* A plateau: its window's spread, and its step over the level below. */
#define LADDER_FLAT_TOL 0.20
/* Searches extend k no further once a point is this many times t0. */
#define STOP_SLOWDOWN 16

/* ---- options ---- */

#define F(field) MESS_OPT_F(struct mess_absorb_opts, field)
#define S(field) MESS_OPT_S(struct mess_absorb_opts, field)

static const struct mess_opt absorb_opts[] = {
	{ "quick", MESS_OPT_FLAG, F(quick), 0, 0, 0, NULL,
	  "smoke-sized table (about a minute on 2 cores): runs of 10 ms, q 0,1, kmax 64, k1 to k1/8, slopes within 25%, SPMXV large 2x LLC" },
	{ "out", MESS_OPT_STR, S(out), 0, 0, "DIR",
	  "run directory (default results/<host>-absorb-<UTC timestamp>)" },
	{ "resume", MESS_OPT_STR, S(resume), 0, 0, "DIR",
	  "continue an interrupted run in DIR with its original options" },
	{ "kernels", MESS_OPT_STR, S(kernels), 0, 0, "LIST",
	  "kernels: stream, lat_mem_rd, haccmk, spmxv (default all)" },
	{ "modes", MESS_OPT_STR, S(modes), 0, 0, "LIST",
	  "noise modes: fp_add64, int64_add, l1_ld64, memory_ld64 (default all)" },
	{ "q", MESS_OPT_STR, S(q), 0, 0, "LIST",
	  "SPMXV swapping probabilities in [0,1] (default 0,0.25,0.5,1)" },
	{ "cores", MESS_OPT_STR, S(cores), 0, 0, "LIST",
	  "core counts of the STREAM and SPMXV rows, or 'all' (default 1,all)" },
	{ "repeats", MESS_OPT_UINT, F(repeats), 0, 1, MAX_REPEATS, "N",
	  "timed runs per point: median and spread (default 5)" },
	{ "kmax", MESS_OPT_UINT, F(kmax), 0, 1, MESS_NOISE_KMAX, "K",
	  "largest noise quantity measured (default 256)" },
	{ "threshold", MESS_OPT_DOUBLE, F(threshold), 0, 0, 1, "REL",
	  "slowdown floor of the noise threshold, x baseline (default 0.01)" },
	{ "sigmas", MESS_OPT_DOUBLE, F(sigmas), 0, 0, 100, "N",
	  "noise threshold in baseline spreads (default 3)" },
	{ "run-ms", MESS_OPT_DOUBLE, F(run_ms), 0, 1, 10000, "MS",
	  "length of one timed run at k = 0 (default 100)" },
	{ "stride", MESS_OPT_SIZE, F(stride), 0, 8, 1 << 20, "BYTES",
	  "lat_mem_rd stride, ladder and row, a multiple of 8 (default 64, lmbench's)" },
	{ "no-plots", MESS_OPT_FLAG, F(no_plots), 0, 0, 0, NULL,
	  "do not run gnuplot" },
	{ "help", MESS_OPT_FLAG, F(help), 0, 0, 0, NULL, "this text" },
};

#define NOPTS (sizeof(absorb_opts) / sizeof(absorb_opts[0]))

static void defaults(struct mess_absorb_opts *o, int quick)
{
	memset(o, 0, sizeof(*o));
	strcpy(o->kernels, "stream,lat_mem_rd,haccmk,spmxv");
	strcpy(o->modes, "fp_add64,int64_add,l1_ld64,memory_ld64");
	strcpy(o->q, quick ? "0,1" : "0,0.25,0.5,1");
	strcpy(o->cores, "1,all");
	o->repeats = 5;
	o->kmax = quick ? 64 : MESS_NOISE_KMAX;
	o->threshold = 0.01;
	o->sigmas = 3;
	o->run_ms = quick ? 10 : 100;
	o->stride = 64;
}

int mess_absorb_parse(struct mess_absorb_opts *o, int argc, char **argv,
		      char *err, size_t errlen)
{
	defaults(o, mess_opts_given(argc, argv, "quick"));
	if (mess_opts_parse(absorb_opts, NOPTS, o, argc, argv, err, errlen))
		return -EINVAL;
	if (o->stride % sizeof(void *)) {
		snprintf(err, errlen, "--stride: '%llu' is not allowed; allowed: a multiple of %zu bytes from 8",
			 (unsigned long long)o->stride, sizeof(void *));
		return -EINVAL;
	}
	return 0;
}

void mess_absorb_usage(FILE *f)
{
	const char *prog = "mess";

	fprintf(f,
		"usage: %s absorb [OPTION]...\n"
		"Noise-absorption tables (Delval et al., \"Noise Injection for Performance\n"
		"Bottleneck Analysis\"): k noise instructions of one mode are injected per\n"
		"inner-loop iteration of STREAM triad, lat_mem_rd, HACCmk and SPMXV; the\n"
		"absorption k1 is the largest k the kernel takes without slowing down beyond\n"
		"the noise threshold max(threshold x t0, sigmas x spread0).\n\n",
		prog);
	mess_opts_print(f, absorb_opts, NOPTS);
	fprintf(f,
		"\nRows: stream triad and spmxv (small, large) x q at each --cores count;\n"
		"lat_mem_rd (one random chain over 4x LLC, lmbench's 64-byte stride) and\n"
		"haccmk on 1 core.\n"
		"\nExamples:\n"
		"  %s absorb --quick                          the whole table, smoke-sized (about a minute)\n"
		"  %s absorb                                  the whole table\n"
		"  %s absorb --kernels stream --modes fp_add64,memory_ld64 --cores all\n"
		"  %s absorb --kernels spmxv --q 0,0.1,0.25,0.5,1 --repeats 7\n"
		"  %s absorb --resume results/host-absorb-20261122T101500Z\n"
		"\nFiles: absorption.csv, absorption.md, absorption_points.csv, meta.json, plots/.\n"
		"Exit status: 0 ok, 1 bad usage, 2 failure, 3 nothing can run here (no noise\n"
		"modes on this ISA), 130 interrupted (partial result kept; --resume continues).\n",
		prog, prog, prog, prog, prog);
}

/* ---- state ---- */

/* One row x mode: its search. */
struct pair {
	struct mess_absorb_point pts[MESS_NOISE_KMAX + 1];
	size_t n;
	uint64_t iters;		/* work per timed run; 0: not chosen yet */
	int done;
	struct mess_absorb_result res;
};

struct row {
	struct mess_wl_row wl;
	char id[96];		/* file names and resume.txt */
	char key[128];		/* CSV columns kernel,variant,cores,q */
	double perf;		/* clean performance; NAN until measured */
	char *meta;		/* its meta.json object, one line */
	const char *skip;	/* why it could not run, or NULL */
	struct pair pair[MESS_NOISE_NMODES];
};

/* A pool thread's timing and noise state: written by their thread every
 * run, so each on its own lines. */
struct worker {
	_Alignas(128) double elapsed;
	uint64_t done;
	struct mess_noise nz[MESS_NOISE_NMODES];
	int nz_err[MESS_NOISE_NMODES];
};

/* One kernel x mode's innermost noisy loop, from the disassembly. */
struct loop_census {
	int sites;		/* noise sites per loop iteration */
	int body;		/* loop less the payload: what runs at k = 0 */
	int clean_body;		/* the same loop in the clean function; 0: unknown */
	int overhead;		/* site instructions besides the payload */
	int extra;		/* what the compiler added around the sites */
};

struct mess_absorb {
	struct mess_absorb_opts o;
	struct mess_topo topo;
	uint64_t llc_bytes;
	int llc_level;
	int counts[8];
	int ncounts;
	enum mess_noise_mode modes[MESS_NOISE_NMODES];
	int nmodes;
	const char *mode_skip[MESS_NOISE_NMODES];	/* why not, or NULL */
	char mode_why[MESS_NOISE_NMODES][96];
	int mode_on[MESS_NOISE_NMODES];
	struct row *rows;
	size_t nrows;
	struct mess_absorb_cfg acfg;
	struct mess_wl_env env;
	size_t noise_bytes;	/* memory_ld64 buffer per thread */
	double noise_huge_pct;	/* least THP share of those buffers */
	struct mess_pool pool;
	struct worker *wk;

	char dir[PATH_MAX];
	FILE *points, *resume;
	char start_utc[32], end_utc[32];
	int resumed;
	unsigned points_measured, points_reused, remeasured;
	double t0_ns;
	unsigned pairs_todo, pairs_now;
	char plots_note[256];
	struct loop_census loops[MESS_WL_NKERNELS][MESS_NOISE_NMODES];
	char census_note[256];

	/* lat_mem_rd's latency ladder, measured before the rows. */
	int ladder_on, ladder_done;
	const char *ladder_skip;	/* why it could not run, or NULL */
	struct mess_ladder_pt ladder[LADDER_MAX];
	size_t nladder;
	char ladder_hp[32];
	double ladder_huge_pct;
	struct mess_ladder_cache caches[LADDER_CACHES];
	size_t ncaches;
	struct mess_ladder_plateau plat[LADDER_CACHES + 1];
	int plat_ok;
};

const char *mess_absorb_dir(const struct mess_absorb *a)
{
	return a->dir;
}

/* ---- option lists against this machine ---- */

/* One word of a list option as a number (kernel, mode, q, core count). */
typedef int list_item_fn(const char *w, int ncores, double *v);

static int item_kernel(const char *w, int ncores, double *v)
{
	enum mess_wl_kernel k;
	int err = mess_wl_kernel_parse(w, &k);

	*v = k;
	return err;
}

static int item_mode(const char *w, int ncores, double *v)
{
	enum mess_noise_mode m;
	int err = mess_noise_mode_parse(w, &m);

	*v = m;
	return err || m == MESS_NOISE_MODE_none ? -EINVAL : 0;
}

static int item_q(const char *w, int ncores, double *v)
{
	char *end;

	*v = strtod(w, &end);
	return end != w && !*end && *v >= 0 && *v <= 1 ? 0 : -EINVAL;
}

static int item_cores(const char *w, int ncores, double *v)
{
	char *end;

	*v = strcmp(w, "all") ? (double)strtol(w, &end, 10) : ncores;
	if (strcmp(w, "all") && (end == w || *end))
		return -EINVAL;
	return *v >= 1 && *v <= ncores ? 0 : -EINVAL;
}

struct list_opt {
	const char *name;
	list_item_fn *item;
	const char *allowed;	/* %d: the machine's cores */
};

static const struct list_opt list_opts[] = {
	{ "kernels", item_kernel, "is not a kernel; allowed: a comma-separated list of stream, lat_mem_rd, haccmk, spmxv" },
	{ "modes", item_mode, "is not a noise mode; allowed: a comma-separated list of fp_add64, int64_add, l1_ld64, memory_ld64" },
	{ "q", item_q, "is not allowed; allowed: up to 32 swapping probabilities from 0 to 1, comma-separated (e.g. 0,0.25,1)" },
	{ "cores", item_cores, "is not allowed; allowed: up to 8 core counts from 1 to %d, or 'all', comma-separated" },
};

/* The distinct values of a comma-separated list, in order, at most max. */
static int parse_list(const struct list_opt *lo, const char *s, int ncores,
		      double *v, int max, int *n, char *err, size_t errlen)
{
	char w[64], fmt[256];

	*n = 0;
	while (*s) {
		size_t len = strcspn(s, ",");
		double x;
		int dup = 0;

		snprintf(w, sizeof(w), "%.*s", (int)(len < sizeof(w) ? len : sizeof(w) - 1), s);
		s += len + (s[len] == ',');
		if (!len || lo->item(w, ncores, &x) || *n >= max) {
			snprintf(fmt, sizeof(fmt), "--%s: '%%s' %s", lo->name,
				 lo->allowed);
			snprintf(err, errlen, fmt, w, ncores);
			return -EINVAL;
		}
		for (int i = 0; i < *n; i++)
			dup |= v[i] == x;
		if (!dup)
			v[(*n)++] = x;
	}
	if (!*n) {
		snprintf(err, errlen, "--%s: needs at least one value", lo->name);
		return -EINVAL;
	}
	return 0;
}

static int resolve(struct mess_absorb *a, char *err, size_t errlen,
		   enum mess_wl_kernel *kern, int *nkern, double *qs, int *nq)
{
	const char *lists[] = { a->o.kernels, a->o.modes, a->o.q, a->o.cores };
	const int max[] = { MESS_WL_NKERNELS, MESS_NOISE_NMODES, 32, 8 };
	double v[4][32];
	int n[4];

	for (int i = 0; i < 4; i++)
		if (parse_list(&list_opts[i], lists[i], a->topo.ncores, v[i],
			       max[i], &n[i], err, errlen))
			return -EINVAL;
	*nkern = n[0];
	for (int i = 0; i < n[0]; i++)
		kern[i] = (enum mess_wl_kernel)v[0][i];
	a->nmodes = n[1];
	for (int i = 0; i < n[1]; i++) {
		a->modes[i] = (enum mess_noise_mode)v[1][i];
		a->mode_on[a->modes[i]] = 1;
	}
	*nq = n[2];
	memcpy(qs, v[2], sizeof(double) * (size_t)n[2]);
	a->ncounts = n[3];
	for (int i = 0; i < n[3]; i++)
		a->counts[i] = (int)v[3][i];
	return 0;
}

static void q_str(double q, char *buf, size_t len)
{
	if (isnan(q))
		snprintf(buf, len, "nan");
	else
		snprintf(buf, len, "%g", q);
}

static int add_row(struct mess_absorb *a, enum mess_wl_kernel k,
		   const char *variant, double q, int cores)
{
	struct row *r, *rows = realloc(a->rows, (a->nrows + 1) * sizeof(*rows));
	char qs[32];

	if (!rows)
		return -ENOMEM;
	a->rows = rows;
	r = &rows[a->nrows++];
	memset(r, 0, sizeof(*r));
	r->wl = (struct mess_wl_row){ k, variant, cores, q };
	r->perf = NAN;
	mess_wl_row_id(&r->wl, r->id, sizeof(r->id));
	q_str(q, qs, sizeof(qs));
	snprintf(r->key, sizeof(r->key), "%s,%s,%d,%s",
		 mess_wl_kernels[k].name, variant, cores, qs);
	return 0;
}

/* Rows of one SPMXV matrix stay together: it moves between them. */
static int make_rows(struct mess_absorb *a, const enum mess_wl_kernel *kern,
		     int nkern, const double *qs, int nq)
{
	for (int i = 0; i < nkern; i++) {
		const struct mess_wl_kinfo *ki = &mess_wl_kernels[kern[i]];

		for (const char *const *v = mess_wl_variants(kern[i]); *v; v++)
			for (int j = 0; j < (ki->has_q ? nq : 1); j++)
				for (int c = 0; c < (ki->scales ? a->ncounts : 1); c++) {
					int err = add_row(a, kern[i], *v,
						ki->has_q ? qs[j] : NAN,
						ki->scales ? a->counts[c] : 1);

					if (err)
						return err;
				}
	}
	return 0;
}

/* ---- pinned threads: thread i on core i, started together ---- */

static void job_noise_init(struct mess_pool_thread *pt, void *arg)
{
	const struct mess_absorb *a = arg;
	struct worker *t = &a->wk[pt->idx];

	for (int m = 0; m < MESS_NOISE_NMODES; m++)
		if (m == MESS_NOISE_MODE_none || a->mode_on[m])
			t->nz_err[m] = mess_noise_init(&t->nz[m], m, 0,
						       a->noise_bytes);
}

static int pool_start(struct mess_absorb *a, int n)
{
	struct mess_pool *p = &a->pool;
	int err;

	a->wk = aligned_alloc(_Alignof(struct worker), sizeof(*a->wk) * (size_t)n);
	if (!a->wk)
		return -ENOMEM;
	memset(a->wk, 0, sizeof(*a->wk) * (size_t)n);
	err = mess_pool_start(p, &a->topo, NULL, n);
	if (err) {
		fprintf(stderr, "mess: cannot pin a thread: %s\n", strerror(-err));
		return err;
	}
	/* Each thread's noise buffer is first touched by that thread. */
	mess_pool_call(p, n, job_noise_init, a);
	/* Huge pages are best effort: without them every memory_ld64 load
	 * may add a page walk, so what was obtained goes to meta.json. */
	a->noise_huge_pct = NAN;
	for (int i = 0; i < n; i++) {
		const struct mess_noise *nz = &a->wk[i].nz[MESS_NOISE_MODE_memory_ld64];

		if (a->mode_on[MESS_NOISE_MODE_memory_ld64] &&
		    !a->wk[i].nz_err[MESS_NOISE_MODE_memory_ld64])
			a->noise_huge_pct = fmin(a->noise_huge_pct,
				mess_thp_pct(nz->mem_lo, (size_t)(nz->mem_hi - nz->mem_lo)));
	}
	for (int m = 0; m < MESS_NOISE_NMODES; m++)
		for (int i = 0; i < n; i++) {
			err = a->wk[i].nz_err[m];
			if (!err || a->mode_skip[m])
				continue;
			if (m == MESS_NOISE_MODE_none)
				return err;
			snprintf(a->mode_why[m], sizeof(a->mode_why[m]),
				 "its noise state cannot be set up on core %d: %s",
				 i, strerror(-err));
			a->mode_skip[m] = a->mode_why[m];
			fprintf(stderr, "absorb: mode %s skipped: %s\n",
				mess_noise_mode_name(m), a->mode_skip[m]);
		}
	return 0;
}

static void pool_stop(struct mess_absorb *a)
{
	mess_pool_stop(&a->pool);
	for (int i = 0; a->wk && i < a->topo.ncores; i++)
		for (int m = 0; m < MESS_NOISE_NMODES; m++)
			mess_noise_free(&a->wk[i].nz[m]);
	free(a->wk);
	a->wk = NULL;
}

/* ---- timing ---- */

struct timed {
	struct worker *wk;
	struct mess_wl *w;
	enum mess_noise_mode m;
	uint64_t iters;
	int phase;		/* clean-performance phase, or -1: a noisy run */
};

/* A run in this many calls: Ctrl-C is noticed within a slice even where
 * heavy noise makes one run last seconds. */
#define SLICES 8

static void job_timed(struct mess_pool_thread *pt, void *arg)
{
	const struct timed *j = arg;
	struct worker *t = &j->wk[pt->idx];
	uint64_t left = j->iters, slice = j->iters / SLICES + 1, done = 0;
	double t0;

	mess_pool_barrier(pt);
	t0 = mess_now_ns();
	if (j->phase >= 0) {
		done = mess_wl_phase(j->w, pt->idx, (unsigned)j->phase, j->iters);
	} else {
		while (left && !mess_interrupted) {
			uint64_t n = left < slice ? left : slice;

			done += mess_wl_run(j->w, pt->idx, j->m, &t->nz[j->m], n);
			left -= n;
		}
	}
	t->elapsed = mess_now_ns() - t0;
	t->done = done;
}

/* ns per iteration of the slowest thread; *elapsed its wall time. */
static double timed_run(struct mess_absorb *a, int cores, struct timed *j,
			double *elapsed)
{
	double worst = 0, el = 0;

	j->wk = a->wk;
	mess_pool_call(&a->pool, cores, job_timed, j);
	for (int i = 0; i < cores; i++) {
		const struct worker *t = &a->wk[i];
		double per = t->done ? t->elapsed / (double)t->done : INFINITY;

		if (per > worst)
			worst = per;
		if (t->elapsed > el)
			el = t->elapsed;
	}
	if (elapsed)
		*elapsed = el;
	return worst;
}

static int set_k(struct mess_absorb *a, int cores, enum mess_noise_mode m,
		 unsigned k)
{
	for (int c = 0; c < cores; c++) {
		int err = mess_noise_set_k(&a->wk[c].nz[m], k);

		if (err)
			return err;
	}
	return 0;
}

/*
 * Work per timed run: the iterations that take run_ms at k = 0 of this
 * instantiation, found by growing a short run; every k of the row and
 * mode then does the same work.
 */
static int calibrate(struct mess_absorb *a, struct mess_wl *w, int cores,
		     enum mess_noise_mode m, uint64_t *iters)
{
	double target = a->o.run_ms * 1e6, el, per;
	struct timed j = { NULL, w, m, 256, -1 };
	int err = set_k(a, cores, m, 0);

	if (err)
		return err;
	for (;;) {
		if (mess_interrupted)
			return -EINTR;
		per = timed_run(a, cores, &j, &el);
		if (el >= target / 16 || j.iters >= (1ULL << 40))
			break;
		j.iters *= el > 0 && target / 16 / el < 16 ? 4 : 16;
	}
	/* From the time per iteration: kernels round a run up to whole
	 * targets or rows, so short runs do more than asked. */
	*iters = (uint64_t)(target / per);
	if (!*iters)
		*iters = 1;
	return 0;
}

/*
 * A point: --repeats pairs of runs, k = 0 then k, back to back.  The
 * slowdown is the median of the pairs' ratios, scaled by the baseline t0
 * (the k = 0 point), so that drift slower than a pair of runs (a shared
 * host, frequency, a VM's neighbours) cancels instead of reading as
 * absorption or slowdown; the k = 0 point pairs k = 0 with itself, its
 * ratios' spread being the noise floor the threshold compares with.
 * *paired gets the median of the pairs' own k = 0 runs, to show the drift.
 */
static int measure_pairs(struct mess_absorb *a, struct row *r,
			 struct mess_wl *w, enum mess_noise_mode m, unsigned k,
			 struct mess_absorb_point *pt, double *paired)
{
	struct pair *pr = &r->pair[m];
	struct timed j = { NULL, w, m, pr->iters, -1 };
	double t0[MAX_REPEATS], tk[2 * MAX_REPEATS], q[MAX_REPEATS] = { 0 };
	double base = NAN, med, mad;
	unsigned n = (unsigned)a->o.repeats;
	int err = 0;

	for (size_t i = 0; i < pr->n; i++)
		if (pr->pts[i].k == 0)
			base = pr->pts[i].t;
	for (unsigned i = 0; i < n && !err; i++) {
		if (mess_interrupted)
			return -EINTR;
		err = set_k(a, r->wl.cores, m, 0);
		t0[i] = timed_run(a, r->wl.cores, &j, NULL);
		if (!err)
			err = set_k(a, r->wl.cores, m, k);
		tk[i] = timed_run(a, r->wl.cores, &j, NULL);
		q[i] = tk[i] / t0[i];
	}
	if (err)
		return err;
	mad = mess_mad_sd(q, n, &med);
	if (k == 0 || isnan(base)) {
		/* Both runs of every pair are the baseline here. */
		memcpy(tk + n, t0, n * sizeof(*t0));
		base = mess_median(tk, 2 * n);
	}
	*paired = mess_median(t0, n);
	*pt = (struct mess_absorb_point){
		.k = k,
		.t = k ? base * med : base,
		.sigma = base * mad,
		.repeats = n,
	};
	return isfinite(pt->t) && pt->t > 0 ? 0 : -EIO;
}

/*
 * A point.  The baseline (k = 0) is measured again while its spread is too
 * wide: its spread sets the noise threshold of the whole search.  Other
 * points keep their spread (the fit sees it); measuring them again too
 * would double a quick table's time on a noisy host for little.
 */
static int measure_point(struct mess_absorb *a, struct row *r,
			 struct mess_wl *w, enum mess_noise_mode m, unsigned k,
			 struct mess_absorb_point *pt, double *paired)
{
	struct mess_absorb_point c;
	double cp;
	int err = measure_pairs(a, r, w, m, k, pt, paired);

	for (int i = 0; !err && k == 0 && i < REMEASURE_MAX &&
			pt->sigma > REMEASURE_REL * pt->t; i++) {
		a->remeasured++;
		err = measure_pairs(a, r, w, m, k, &c, &cp);
		if (!err && c.sigma < pt->sigma) {
			*pt = c;
			*paired = cp;
		}
	}
	return err;
}

/* ---- the run directory ---- */

static struct row *find_row(struct mess_absorb *a, const char *key,
			    int by_id)
{
	for (size_t i = 0; i < a->nrows; i++)
		if (!strcmp(by_id ? a->rows[i].id : a->rows[i].key, key))
			return &a->rows[i];
	return NULL;
}

static int resume_line(struct mess_absorb *a, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static int resume_line(struct mess_absorb *a, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vfprintf(a->resume, fmt, ap);
	va_end(ap);
	return fflush(a->resume) ? -EIO : 0;
}

static int add_point(struct pair *pr, const struct mess_absorb_point *pt)
{
	for (size_t i = 0; i < pr->n; i++)
		if (pr->pts[i].k == pt->k)
			return -EEXIST;
	if (pr->n >= sizeof(pr->pts) / sizeof(pr->pts[0]))
		return -ENOSPC;
	pr->pts[pr->n++] = *pt;
	return 0;
}

static int fit_pair(struct mess_absorb *a, struct pair *pr)
{
	return mess_absorb_fit(pr->pts, pr->n, &a->acfg, &pr->res);
}

/* Points of an earlier session; rows and modes no longer asked for are
 * ignored (the options are the original ones, so there are none). */
static int load_points(struct mess_absorb *a)
{
	char line[512];
	FILE *f = mess_file_open(a->dir, POINTS_CSV, "r");

	if (!f)
		return errno == ENOENT ? 0 : -errno;
	while (fgets(line, sizeof(line), f)) {
		char key[256], mode[32];
		struct mess_absorb_point pt;
		enum mess_noise_mode m;
		struct row *r;
		int n = 0, commas = 0;

		line[strcspn(line, "\n")] = 0;
		/* The row key is the first four columns. */
		for (; line[n] && commas < 4; n++)
			commas += line[n] == ',';
		if (commas < 4 || n >= (int)sizeof(key))
			continue;
		snprintf(key, sizeof(key), "%.*s", n - 1, line);
		if (sscanf(line + n, "%31[^,],%u,%lf,%u,%lf", mode, &pt.k,
			   &pt.t, &pt.repeats, &pt.sigma) != 5 ||
		    mess_noise_mode_parse(mode, &m) || !(r = find_row(a, key, 0)))
			continue;
		if (!add_point(&r->pair[m], &pt))
			a->points_reused++;
	}
	fclose(f);
	return 0;
}

static void ladder_fit(struct mess_absorb *a)
{
	uint64_t sizes[LADDER_MAX];
	double lat[LADDER_MAX];

	for (size_t i = 0; i < a->nladder; i++) {
		sizes[i] = a->ladder[i].size;
		lat[i] = a->ladder[i].lat_ns;
	}
	a->plat_ok = !mess_ladder_plateaus(sizes, lat, a->nladder, a->caches,
					   a->ncaches, LADDER_FLAT_TOL,
					   a->plat);
}

/* The ladder of an earlier session: ladder.csv is written whole. */
static int load_ladder(struct mess_absorb *a)
{
	char line[256];
	FILE *f = mess_file_open(a->dir, LADDER_CSV, "r");

	if (!f)
		return -errno;
	a->nladder = 0;
	while (fgets(line, sizeof(line), f) && a->nladder < LADDER_MAX) {
		struct mess_ladder_pt *p = &a->ladder[a->nladder];
		unsigned long long size, loads;

		if (sscanf(line, "%llu,%lf,%u,%lf,%llu", &size, &p->lat_ns,
			   &p->repeats, &p->spread_ns, &loads) != 5)
			continue;
		p->size = size;
		p->loads = loads;
		a->nladder++;
	}
	fclose(f);
	if (!a->nladder)
		return -EIO;
	ladder_fit(a);
	return 0;
}

static int load_resume(struct mess_absorb *a)
{
	char line[8192], id[96], mode[32];
	FILE *f = mess_file_open(a->dir, "resume.txt", "r");
	int err;

	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f)) {
		enum mess_noise_mode m;
		unsigned long long iters;
		double perf;
		struct row *r;
		int off = 0;

		line[strcspn(line, "\n")] = 0;
		if (!strncmp(line, "resumed ", 8)) {
			a->resumed++;
		} else if (sscanf(line, "ladder %31s %lf", a->ladder_hp,
				  &a->ladder_huge_pct) == 2) {
			a->ladder_done = 1;
		} else if (sscanf(line, "work %95s %31s %llu", id, mode, &iters) == 3) {
			if ((r = find_row(a, id, 1)) && !mess_noise_mode_parse(mode, &m))
				r->pair[m].iters = iters;
		} else if (sscanf(line, "done %95s %31s", id, mode) == 2) {
			if ((r = find_row(a, id, 1)) && !mess_noise_mode_parse(mode, &m))
				r->pair[m].done = 1;
		} else if (sscanf(line, "perf %95s %lf", id, &perf) == 2) {
			if ((r = find_row(a, id, 1)))
				r->perf = perf;
		} else if (sscanf(line, "meta %95s %n", id, &off) == 1 && off) {
			if ((r = find_row(a, id, 1))) {
				free(r->meta);
				r->meta = strdup(line + off);
			}
		}
	}
	fclose(f);
	err = load_points(a);
	if (!err && a->ladder_done)
		err = load_ladder(a);
	for (size_t i = 0; !err && i < a->nrows; i++)
		for (int m = 0; !err && m < MESS_NOISE_NMODES; m++)
			if (a->rows[i].pair[m].done)
				err = fit_pair(a, &a->rows[i].pair[m]);
	return err;
}

static int open_dir(struct mess_absorb *a, int argc, char **argv)
{
	char host[256] = "host", utc[32];
	int fresh, err;
	FILE *f;

	gethostname(host, sizeof(host) - 1);
	mess_utc_now(a->start_utc, sizeof(a->start_utc), 0);
	if (a->o.resume[0]) {
		snprintf(a->dir, sizeof(a->dir), "%s", a->o.resume);
	} else if (a->o.out[0]) {
		snprintf(a->dir, sizeof(a->dir), "%s", a->o.out);
	} else {
		mess_utc_now(utc, sizeof(utc), 1);
		snprintf(a->dir, sizeof(a->dir), "results/%s-absorb-%s", host, utc);
	}
	f = mess_file_open(a->dir, POINTS_CSV, "r");
	fresh = !f;
	if (f)
		fclose(f);
	/* Points of two sessions' machines must not mix unasked. */
	if (!fresh && !a->o.resume[0])
		return -EEXIST;
	err = mess_mkdir_p(a->dir);
	if (err)
		return err;
	if (a->o.resume[0]) {
		err = load_resume(a);
		if (err)
			return err;
	}
	a->points = mess_file_open(a->dir, POINTS_CSV, "a");
	a->resume = mess_file_open(a->dir, "resume.txt", "a");
	if (!a->points || !a->resume)
		return -errno;
	if (fresh) {
		fprintf(a->points, POINTS_HEADER "\n");
		fflush(a->points);
	}
	if (a->o.resume[0]) {
		a->resumed++;
		return resume_line(a, "resumed %s\n", a->start_utc);
	}
	fprintf(a->resume, "# mess absorb run state: the original options; per row x mode the work per run, then done; per row its performance and meta\n");
	mess_resume_write_args(a->resume, argc, argv);
	return fflush(a->resume) ? -EIO : 0;
}

static int record_point(struct mess_absorb *a, struct row *r,
			enum mess_noise_mode m,
			const struct mess_absorb_point *pt, double paired)
{
	int err = add_point(&r->pair[m], pt);

	if (err)
		return err;
	a->points_measured++;
	fprintf(a->points, "%s,%s,%u,%.9g,%u,%.9g,%.9g\n", r->key,
		mess_noise_mode_name(m), pt->k, pt->t, pt->repeats, pt->sigma,
		paired);
	/* Per point: an interrupted run loses at most the point in flight. */
	return fflush(a->points) ? -EIO : 0;
}

/* ---- measuring ---- */

static void fmt_dur(double s, char *buf, size_t len)
{
	long t = (long)(s + 0.5);

	snprintf(buf, len, "%ld:%02ld", t / 60, t % 60);
}

static void progress(struct mess_absorb *a, const struct row *r,
		     enum mess_noise_mode m, const struct mess_absorb_point *pt)
{
	const struct pair *pr = &r->pair[m];
	double el = (mess_now_ns() - a->t0_ns) / 1e9, base = NAN;
	char e[16], eta[32] = "";

	for (size_t i = 0; i < pr->n; i++)
		if (pr->pts[i].k == 0)
			base = pr->pts[i].t;
	fmt_dur(el, e, sizeof(e));
	/* Whole row x mode searches left, at this session's pace so far. */
	if (a->pairs_now) {
		char t[16];

		fmt_dur(el / a->pairs_now * (a->pairs_todo - a->pairs_now), t,
			sizeof(t));
		snprintf(eta, sizeof(eta), ", ETA ~%s", t);
	} else {
		snprintf(eta, sizeof(eta), ", ETA after the first search");
	}
	fprintf(stderr, "absorb: [%u/%u] %s %s k=%u: %.4g ns/iter (spread %.2g, x%.3f of k=0) | %s elapsed%s\n",
		a->pairs_now + 1, a->pairs_todo, r->id, mess_noise_mode_name(m),
		pt->k, pt->t, pt->sigma, pt->t / base, e, eta);
}

struct job_ctx {
	struct worker *wk;
	struct mess_wl *w;
	enum mess_noise_mode m;
	uint64_t max_iters;
};

static void job_wl_init(struct mess_pool_thread *t, void *arg)
{
	t->err = mess_wl_thread_init(arg, t->idx);
}

static void job_check(struct mess_pool_thread *t, void *arg)
{
	const struct job_ctx *c = arg;

	t->err = mess_wl_check(c->w, t->idx, c->m, &c->wk[t->idx].nz[c->m],
			       c->max_iters);
}

/* The clean check covers all the data; a noisy one costs about a run. */
static int check(struct mess_absorb *a, struct row *r, struct mess_wl *w,
		 enum mess_noise_mode m)
{
	struct job_ctx c = { a->wk, w, m, m == MESS_NOISE_MODE_none ? UINT64_MAX :
				   r->pair[m].iters };
	int err;

	err = mess_pool_call(&a->pool, r->wl.cores, job_check, &c);
	if (err == -EDOM)
		fprintf(stderr, "mess: %s %s: wrong results: the %s instantiation broke the kernel\n",
			r->id, mess_noise_mode_name(m),
			m == MESS_NOISE_MODE_none ? "clean" : "noisy");
	return err;
}

/*
 * The clean kernel's performance: one warm-up trial, then the best of
 * --repeats trials (STREAM's rule: rounds of its four operations over the
 * whole arrays, the triad reported).
 */
static int measure_perf(struct mess_absorb *a, struct row *r,
			struct mess_wl *w)
{
	unsigned nph = mess_wl_nphases(w), pp = mess_wl_perf_phase(w);
	double best[MESS_STREAM_NOPS];
	struct timed j = { NULL, w, MESS_NOISE_MODE_none, 0, 0 };
	char *buf = NULL;
	size_t len = 0;
	FILE *f;
	int err = 0;

	if (nph == 1)
		err = calibrate(a, w, r->wl.cores, MESS_NOISE_MODE_none, &j.iters);
	for (unsigned p = 0; p < nph; p++)
		best[p] = INFINITY;
	for (unsigned t = 0; !err && t <= a->o.repeats; t++) {
		for (unsigned p = 0; p < nph; p++) {
			double x;

			j.phase = (int)p;
			x = timed_run(a, r->wl.cores, &j, NULL);
			if (t && x < best[p])
				best[p] = x;
		}
		if (mess_interrupted)
			err = -EINTR;
	}
	if (!err)
		err = check(a, r, w, MESS_NOISE_MODE_none);
	if (err)
		return err;
	r->perf = mess_wl_perf(w, pp, best[pp]);

	f = open_memstream(&buf, &len);
	if (!f)
		return -ENOMEM;
	fprintf(f, "\"id\": \"%s\", \"kernel\": \"%s\", \"variant\": \"%s\", \"cores\": %d, \"q\": ",
		r->id, mess_wl_kernels[r->wl.kernel].name, r->wl.variant,
		r->wl.cores);
	if (isnan(r->wl.q))
		fprintf(f, "null");
	else
		fprintf(f, "%g", r->wl.q);
	fprintf(f, ", \"perf\": %.6g, \"perf_unit\": \"%s\", \"perf_rule\": \"best of %llu trials after one warm-up\", \"phases\": {",
		r->perf, mess_wl_kernels[r->wl.kernel].perf_unit,
		(unsigned long long)a->o.repeats);
	for (unsigned p = 0; p < nph; p++)
		fprintf(f, "%s\"%s\": %.6g", p ? ", " : "",
			mess_wl_phase_name(w, p), mess_wl_perf(w, p, best[p]));
	fprintf(f, "}, ");
	if (r->wl.kernel == MESS_WL_stream)
		fprintf(f, "\"triad_gbs_write_allocate\": %.6g, ",
			r->perf * mess_stream_ops[MESS_STREAM_TRIAD].bytes_wa /
				mess_stream_ops[MESS_STREAM_TRIAD].bytes);
	else
		fprintf(f, "\"clean_iters_per_run\": %llu, ",
			(unsigned long long)j.iters);
	mess_wl_meta(w, f);
	if (fclose(f)) {
		free(buf);
		return -ENOMEM;
	}
	free(r->meta);
	r->meta = buf;
	err = resume_line(a, "perf %s %.9g\n", r->id, r->perf);
	return err ? err : resume_line(a, "meta %s %s\n", r->id, r->meta);
}

static int save(struct mess_absorb *a);

/*
 * Whether to stop short of k: a step past the largest k measured once a
 * point is STOP_SLOWDOWN x the baseline and three points at least twice
 * it give the fit its line.  The kernel is buried under the noise there
 * (memory_ld64 costs a memory access per instruction), every further run
 * lasts that many k = 0 runs, and no point past the largest can move k1
 * (bisection steps, below it, still run).
 */
static int buried(const struct pair *pr, unsigned k)
{
	double base = NAN, worst = 0;
	unsigned kmax = 0, slow = 0;

	for (size_t i = 0; i < pr->n; i++) {
		if (pr->pts[i].k == 0)
			base = pr->pts[i].t;
		if (pr->pts[i].k > kmax)
			kmax = pr->pts[i].k;
		if (pr->pts[i].t > worst)
			worst = pr->pts[i].t;
	}
	for (size_t i = 0; i < pr->n; i++)
		slow += pr->pts[i].t >= 2 * base;
	return k > kmax && slow >= 3 && worst >= STOP_SLOWDOWN * base;
}

static int run_pair(struct mess_absorb *a, struct row *r, struct mess_wl *w,
		    enum mess_noise_mode m)
{
	struct pair *pr = &r->pair[m];
	const char *mn = mess_noise_mode_name(m);
	struct timed warm = { NULL, w, m, 0, -1 };
	unsigned kmax = 0;
	int err = 0;

	if (!pr->iters) {
		err = calibrate(a, w, r->wl.cores, m, &pr->iters);
		if (!err)
			err = resume_line(a, "work %s %s %llu\n", r->id, mn,
					  (unsigned long long)pr->iters);
	}
	/* One whole run before the first point: the calibration's runs
	 * are shorter, and this instantiation's code and noise buffers may
	 * not have run since the row was set up. */
	warm.iters = pr->iters;
	if (!err)
		err = set_k(a, r->wl.cores, m, 0);
	if (!err)
		timed_run(a, r->wl.cores, &warm, NULL);
	while (!err) {
		struct mess_absorb_point pt;
		unsigned k;
		int rc = mess_absorb_next(pr->pts, pr->n, &a->acfg, &k);

		if (rc <= 0) {
			err = rc;
			break;
		}
		if (buried(pr, k))
			break;
		double paired;

		err = measure_point(a, r, w, m, k, &pt, &paired);
		if (!err)
			err = record_point(a, r, m, &pt, paired);
		if (!err)
			progress(a, r, m, &pt);
	}
	/* The noise at the largest k must not have changed the results. */
	for (size_t i = 0; i < pr->n; i++)
		if (pr->pts[i].k > kmax)
			kmax = pr->pts[i].k;
	if (!err)
		err = set_k(a, r->wl.cores, m, kmax);
	if (!err)
		err = check(a, r, w, m);
	if (!err)
		err = fit_pair(a, pr);
	if (err)
		return err;
	pr->done = 1;
	a->pairs_now++;
	fprintf(stderr, "absorb: %s %s: k1 %s%u (%s%s%s), %u runs\n", r->id,
		mn, pr->res.k1_lower_bound ? ">=" : "", pr->res.k1,
		mess_absorb_status_name(pr->res.status),
		pr->res.why ? ": " : "", pr->res.why ? pr->res.why : "",
		pr->res.runs);
	err = resume_line(a, "done %s %s\n", r->id, mn);
	return err ? err : save(a);
}

static int row_todo(const struct mess_absorb *a, const struct row *r)
{
	int n = 0;

	if (r->skip)
		return 0;
	for (int i = 0; i < a->nmodes; i++)
		n += !a->mode_skip[a->modes[i]] && !r->pair[a->modes[i]].done;
	return n;
}

/* Rows that share an SPMXV matrix pass it on instead of regenerating. */
static int same_data(const struct row *x, const struct row *y)
{
	return x && x->wl.kernel == MESS_WL_spmxv &&
	       y->wl.kernel == MESS_WL_spmxv &&
	       !strcmp(x->wl.variant, y->wl.variant) && x->wl.q == y->wl.q;
}

static int run_row(struct mess_absorb *a, struct row *r, struct mess_wl **prev,
		   struct row **prev_row)
{
	struct mess_wl *w = NULL;
	int err;

	if (*prev && !same_data(*prev_row, r)) {
		mess_wl_destroy(*prev);
		*prev = NULL;
	}
	fprintf(stderr, "absorb: %s: setting up\n", r->id);
	err = mess_wl_create(&w, &r->wl, &a->env, *prev);
	mess_wl_destroy(*prev);
	*prev = NULL;
	if (!err) {
		err = mess_pool_call(&a->pool, r->wl.cores, job_wl_init, w);
	}
	if (err == -ENOMEM) {
		/* Too big for this machine: the others still run. */
		r->skip = "not enough memory for its data";
		fprintf(stderr, "absorb: %s: skipped: %s\n", r->id, r->skip);
		mess_wl_destroy(w);
		return 0;
	}
	if (!err)
		err = measure_perf(a, r, w);
	if (!err)
		fprintf(stderr, "absorb: %s: clean performance %.4g %s\n", r->id,
			r->perf, mess_wl_kernels[r->wl.kernel].perf_unit);
	for (int i = 0; !err && i < a->nmodes; i++) {
		enum mess_noise_mode m = a->modes[i];

		if (!a->mode_skip[m] && !r->pair[m].done)
			err = run_pair(a, r, w, m);
	}
	*prev = w;
	*prev_row = r;
	return err;
}

/* ---- the latency ladder ---- */

static void job_ladder(struct mess_pool_thread *t, void *arg)
{
	struct mess_absorb *a = arg;
	struct mess_buf b = { .node = -1 };
	/* From well inside L1 to STREAM's 4x the LLC (so that, in random
	 * order, three loads in four miss it). */
	uint64_t lo = 4096 > 16 * a->o.stride ? 4096 : 16 * a->o.stride;
	struct mess_ladder_opts o = { lo, 4 * a->llc_bytes, a->o.stride,
				      a->o.run_ms, (unsigned)a->o.repeats,
				      a->env.node };

	t->err = mess_ladder_measure(&o, a->ladder, LADDER_MAX, &a->nladder, &b);
	snprintf(a->ladder_hp, sizeof(a->ladder_hp), "%s", mess_hp_name(b.hp));
	a->ladder_huge_pct = b.huge_pct;
	mess_buf_free(&b);
}

static int write_ladder_csv(struct mess_absorb *a)
{
	FILE *f = mess_tmp_open(a->dir, LADDER_CSV);

	if (!f)
		return -errno;
	fprintf(f, LADDER_HEADER "\n");
	for (size_t i = 0; i < a->nladder; i++)
		fprintf(f, "%llu,%.6g,%u,%.6g,%llu\n",
			(unsigned long long)a->ladder[i].size,
			a->ladder[i].lat_ns, a->ladder[i].repeats,
			a->ladder[i].spread_ns,
			(unsigned long long)a->ladder[i].loads);
	return mess_tmp_commit(a->dir, LADDER_CSV, f);
}

/* summary.json: the machine parameters other tools read (the plateaus). */
static int write_summary(struct mess_absorb *a)
{
	FILE *f;

	if (!a->ladder_done)
		return 0;
	f = mess_tmp_open(a->dir, "summary.json");
	if (!f)
		return -errno;
	fprintf(f, "{\n  \"schema\": %d,\n  \"cpu_model\": ", META_SCHEMA);
	mess_json_str(f, a->topo.cpu_model);
	fprintf(f, ",\n  \"latency_ladder\": {\n    \"what\": \"lat_mem_rd: ns per dependent load (median of %llu runs of %g ms) over one random cycle (Sattolo) through buffers of growing size, clean kernel, 1 thread pinned to core 0\",\n",
		(unsigned long long)a->o.repeats, a->o.run_ms);
	fprintf(f, "    \"stride_bytes\": %llu,\n    \"sizes\": %zu,\n    \"min_bytes\": %llu,\n    \"max_bytes\": %llu,\n    \"huge_pages\": \"%s\",\n    \"huge_pct\": %.1f,\n    \"points\": \"%s\",\n",
		(unsigned long long)a->o.stride, a->nladder,
		(unsigned long long)(a->nladder ? a->ladder[0].size : 0),
		(unsigned long long)(a->nladder ? a->ladder[a->nladder - 1].size : 0),
		a->ladder_hp, a->ladder_huge_pct, LADDER_CSV);
	fprintf(f, "    \"method\": \"per level, the median over sizes in (2 x the level below, half this level] (hwloc sizes); memory: sizes >= 2 x the last cache; a level is ok when its sizes agree within flat_tol and it is flat_tol above the level below; measured_capacity_bytes: the largest size still nearer this level than the next (geometric mean)\",\n    \"flat_tol\": %g,\n    \"levels\": [",
		LADDER_FLAT_TOL);
	for (size_t i = 0; a->plat_ok && i <= a->ncaches; i++) {
		const struct mess_ladder_plateau *p = &a->plat[i];

		fprintf(f, "%s\n      {\"level\": ", i ? "," : "");
		if (p->level)
			fprintf(f, "\"L%d\", \"hwloc_bytes\": %llu", p->level,
				(unsigned long long)p->cap_bytes);
		else
			fprintf(f, "\"memory\", \"llc_hit_share_at_max\": %.3g",
				a->nladder ? (double)a->llc_bytes /
					(double)a->ladder[a->nladder - 1].size : NAN);
		fprintf(f, ", \"window_bytes\": [%llu, %llu], \"points\": %u, \"latency_ns\": ",
			(unsigned long long)p->lo, (unsigned long long)p->hi,
			p->npts);
		mess_json_num(f, p->lat_ns, 3);
		fprintf(f, ", \"spread\": ");
		mess_json_num(f, p->spread, 3);
		fprintf(f, ", \"measured_capacity_bytes\": ");
		if (p->edge_bytes)
			fprintf(f, "%llu", (unsigned long long)p->edge_bytes);
		else
			fprintf(f, "null");
		fprintf(f, ", \"status\": ");
		mess_json_str(f, p->status);
		fprintf(f, "}");
	}
	fprintf(f, "\n    ]%s\n  }\n}\n",
		a->plat_ok ? "" : ",\n    \"levels_error\": \"the ladder could not be read into plateaus\"");
	return mess_tmp_commit(a->dir, "summary.json", f);
}

static int run_ladder(struct mess_absorb *a)
{
	int err;

	fprintf(stderr, "absorb: lat_mem_rd latency ladder, %llu B stride, up to %llu MiB\n",
		(unsigned long long)a->o.stride,
		(unsigned long long)(4 * a->llc_bytes >> 20));
	err = mess_pool_call(&a->pool, 1, job_ladder, a);
	if (err == -ENOMEM) {
		/* The rows may still fit: they go on without it. */
		a->ladder_skip = "not enough memory for its buffer (4x the LLC)";
		fprintf(stderr, "absorb: latency ladder skipped: %s\n", a->ladder_skip);
		return 0;
	}
	if (err)
		return err;
	a->ladder_done = 1;
	ladder_fit(a);
	err = write_ladder_csv(a);
	if (!err)
		err = write_summary(a);
	for (size_t i = 0; !err && a->plat_ok && i <= a->ncaches; i++)
		fprintf(stderr, "absorb: ladder %s%.0d: %.2f ns (%s)\n",
			a->plat[i].level ? "L" : "memory", a->plat[i].level,
			a->plat[i].lat_ns, a->plat[i].status);
	return err ? err : resume_line(a, "ladder %s %.1f\n", a->ladder_hp,
				       a->ladder_huge_pct);
}

int mess_absorb_measure(struct mess_absorb *a)
{
	struct mess_wl *prev = NULL;
	struct row *prev_row = NULL;
	int err = 0;

	if (a->ladder_on && !a->ladder_done) {
		err = run_ladder(a);
		if (err)
			return mess_interrupted ? -EINTR : err;
	}
	a->t0_ns = mess_now_ns();
	for (size_t i = 0; i < a->nrows; i++)
		a->pairs_todo += (unsigned)row_todo(a, &a->rows[i]);
	for (size_t i = 0; !err && i < a->nrows; i++)
		if (row_todo(a, &a->rows[i]))
			err = run_row(a, &a->rows[i], &prev, &prev_row);
	mess_wl_destroy(prev);
	if (mess_interrupted)
		err = -EINTR;
	return err;
}

/* ---- tables ---- */

/*
 * k1_rel = k1 / |l1.l2| (section 2.4): noise instructions per instruction
 * of the loop around the sites.  The counts come from the disassembly of
 * this very binary (tools/noise-census.sh): the clean loop body, and the
 * sites per loop iteration (lat_mem_rd's loop is unrolled, one site per
 * load, so k per load is sites x k per loop iteration).
 */
static double k1_rel(const struct mess_absorb *a, const struct row *r,
		     enum mess_noise_mode m)
{
	const struct loop_census *c = &a->loops[r->wl.kernel][m];

	if (!c->clean_body)
		return NAN;
	return (double)r->pair[m].res.k1 * c->sites / c->clean_body;
}

static void csv_num(FILE *f, double x)
{
	if (isfinite(x))
		fprintf(f, ",%.6g", x);
	else
		fprintf(f, ",nan");
}

/* A fitted line exists: k2 and the slope mean something. */
static int has_line(const struct mess_absorb_result *res)
{
	return isfinite(res->slope);
}

static int write_csv(struct mess_absorb *a)
{
	FILE *f = mess_tmp_open(a->dir, TABLE_CSV);

	if (!f)
		return -errno;
	fprintf(f, TABLE_HEADER "\n");
	for (size_t i = 0; i < a->nrows; i++) {
		const struct row *r = &a->rows[i];

		for (int j = 0; j < a->nmodes; j++) {
			const struct pair *pr = &r->pair[a->modes[j]];
			const struct mess_absorb_result *res = &pr->res;

			if (!pr->done)
				continue;
			fprintf(f, "%s,%s,%u", r->key,
				mess_noise_mode_name(a->modes[j]), res->k1);
			csv_num(f, k1_rel(a, r, a->modes[j]));
			csv_num(f, has_line(res) ? res->k2 : NAN);
			csv_num(f, res->slope);
			csv_num(f, res->base);
			csv_num(f, r->perf);
			fprintf(f, ",%s,%u,%s\n",
				mess_wl_kernels[r->wl.kernel].perf_unit,
				res->runs, mess_absorb_status_name(res->status));
		}
	}
	return mess_tmp_commit(a->dir, TABLE_CSV, f);
}

static void k1_cell(char *buf, size_t len, const struct pair *pr)
{
	const struct mess_absorb_result *res = &pr->res;

	if (!pr->done)
		snprintf(buf, len, "–");
	else
		snprintf(buf, len, "%s%u%s", res->k1_lower_bound ? "≥" : "",
			 res->k1,
			 res->status == MESS_ABSORB_UNCLEAR ? "?" : "");
}

static void md_q(FILE *f, double q)
{
	if (isnan(q))
		fprintf(f, " |");
	else
		fprintf(f, " %g |", q);
}

static void md_notes(FILE *f, const struct mess_absorb *a)
{
	const struct mess_stream_op *tr = &mess_stream_ops[MESS_STREAM_TRIAD];

	fprintf(f, "\n## How to read it\n\n"
		"- **k1** (absorption): noise instructions per inner-loop iteration the kernel takes without slowing down: the largest measured k such that it and every smaller measured k stay within the noise threshold.  A point is slow when t(k) − t0 > max(%g × t0, %g × spread0), t0 and spread0 being the median and spread of the baseline (k = 0 of the noisy instantiation).\n"
		"- **≥k1**: nothing was slow up to the largest k measured (`--kmax` %llu, K_MAX %d): k1 is a lower bound, no line was fitted (k2 and slope are nan in absorption.csv, status ok).\n"
		"- **status** ok: absorbs k1 ≥ 1 (or the lower bound); none: slower from the first noise instruction (k1 = 0); unclear (marked ?): the points show no clean flat-transient-linear shape, never a forced fit — the reason is in the details table (a speed-up below the baseline, too few points past k1, a non-positive slope, R² below %g, a point back within the threshold past k1, points off the line, or a rise within the noise).\n"
		"- **k2, slope**: the three-phase model fitted by least squares: flat to k1_fit, straight transient to the line t = a + slope·k from k2 on (slope in ns per noise instruction per iteration).  The search doubles k until k1 is bracketed, bisects to max(1, k1/%u), then doubles past k1 until three points lie on a rising line (slopes within %g), k reaches kmax, or a point is %d× t0 with three points at 2× t0 or more (the kernel is buried under the noise; no larger k could move k1); *runs* counts the points measured, *linear sweep* the points a sweep 0, prec, 2·prec, … to the same largest k would need.\n"
		"- **k1_rel** = k1 × sites per loop iteration / clean loop body (section 2.4): noise instructions per instruction of the kernel's innermost loop (lat_mem_rd's loop holds 8 loads, each with its site); %s.\n"
		"- **Timing**: clock_gettime(CLOCK_MONOTONIC) around each run on pinned threads started together; time per inner-loop iteration of the slowest thread.  A point is %llu pairs of runs, k = 0 then k back to back: its time is t0 × the median of the pairs' ratios (drift slower than a pair cancels; absorption_points.csv keeps the pairs' own k = 0 median), its spread t0 × %s of the ratios; a baseline spread above %g × t0 is measured again (up to %d times).  The work per run is chosen at k = 0 of each row and mode so that a run takes %g ms, and kept for every k.\n"
		"- **Performance** of the clean kernel (no noise site), best of %llu trials after a warm-up: STREAM triad GB/s counts STREAM's %u bytes per element (in brackets with the write-allocate read of the stored line, %u bytes; the other three STREAM operations are in meta.json); lat_mem_rd ns per dependent load; HACCmk GFLOP/s (%d flops per interaction); SPMXV GFLOP/s per core (%d flops per non-zero).\n",
		a->o.threshold, a->o.sigmas, (unsigned long long)a->o.kmax,
		MESS_NOISE_KMAX, a->acfg.r2_min, a->acfg.prec_div,
		a->acfg.slope_tol, STOP_SLOWDOWN, a->census_note, (unsigned long long)a->o.repeats,
		SPREAD_DESC, REMEASURE_REL, REMEASURE_MAX,
		a->o.run_ms, (unsigned long long)a->o.repeats, tr->bytes,
		tr->bytes_wa, MESS_HACCMK_FLOPS,
		MESS_SPMXV_FLOPS);
	for (int i = 0; i < MESS_NOISE_NMODES; i++)
		if (a->mode_on[i] && a->mode_skip[i])
			fprintf(f, "- **%s not run**: %s.\n",
				mess_noise_mode_name(i), a->mode_skip[i]);
	for (size_t i = 0; i < a->nrows; i++)
		if (a->rows[i].skip)
			fprintf(f, "- **%s not run**: %s.\n", a->rows[i].id,
				a->rows[i].skip);
	if (a->ladder_skip)
		fprintf(f, "- **latency ladder not run**: %s.\n", a->ladder_skip);
}

static void md_ladder(FILE *f, const struct mess_absorb *a)
{
	if (!a->ladder_done)
		return;
	fprintf(f, "\n## Latency ladder (lat_mem_rd, %llu B stride, random order)\n\n",
		(unsigned long long)a->o.stride);
	if (!a->plat_ok) {
		fprintf(f, "The ladder (%s) could not be read into plateaus.\n", LADDER_CSV);
		return;
	}
	fprintf(f, "| level | size (hwloc) | sizes used | points | latency ns | spread | measured capacity | status |\n|---|---:|---|---:|---:|---:|---:|---|\n");
	for (size_t i = 0; i <= a->ncaches; i++) {
		const struct mess_ladder_plateau *p = &a->plat[i];

		if (p->level)
			fprintf(f, "| L%d | %llu KiB |", p->level,
				(unsigned long long)(p->cap_bytes >> 10));
		else
			fprintf(f, "| memory | |");
		fprintf(f, " %llu KiB – %llu KiB | %u | %.3g | %.2f |",
			(unsigned long long)(p->lo >> 10),
			(unsigned long long)(p->hi >> 10), p->npts, p->lat_ns,
			p->spread);
		if (p->edge_bytes)
			fprintf(f, " %llu KiB |", (unsigned long long)(p->edge_bytes >> 10));
		else
			fprintf(f, " – |");
		fprintf(f, " %s |\n", p->status);
	}
	fprintf(f, "\nEvery size is in %s; the plateaus are also in summary.json.  The memory figure still includes LLC hits: a random load over a buffer of s bytes hits an LLC of S bytes with probability about S/s (%.2f at the largest size).\n",
		LADDER_CSV, a->nladder ? (double)a->llc_bytes / (double)a->ladder[a->nladder - 1].size : NAN);
}

static int write_md(struct mess_absorb *a, int complete)
{
	const struct mess_stream_op *tr = &mess_stream_ops[MESS_STREAM_TRIAD];
	FILE *f = mess_tmp_open(a->dir, "absorption.md");
	char cell[32];

	if (!f)
		return -errno;
	fprintf(f, "# Noise absorption: %s\n\n", a->topo.cpu_model);
	fprintf(f, "mess absorb %s (%s), ISA %s, %d cores, LLC %llu MiB; started %s%s.\n\n",
		mess_version, mess_git_rev, MESS_ISA, a->topo.ncores,
		(unsigned long long)(a->llc_bytes >> 20), a->start_utc,
		complete ? "" : "; **partial** (interrupted or still running: continue with --resume)");
	fprintf(f, "Absorption k1 per noise mode, in noise instructions per inner-loop iteration.\n\n");
	fprintf(f, "| kernel | variant | cores | q | performance |");
	for (int j = 0; j < a->nmodes; j++)
		fprintf(f, " %s |", mess_noise_mode_name(a->modes[j]));
	fprintf(f, "\n|---|---|---:|---:|---:|");
	for (int j = 0; j < a->nmodes; j++)
		fprintf(f, "---:|");
	fprintf(f, "\n");
	for (size_t i = 0; i < a->nrows; i++) {
		const struct row *r = &a->rows[i];

		fprintf(f, "| %s | %s | %d |", mess_wl_kernels[r->wl.kernel].name,
			r->wl.variant, r->wl.cores);
		md_q(f, r->wl.q);
		if (isfinite(r->perf) && r->wl.kernel == MESS_WL_stream)
			fprintf(f, " %.4g GB/s (%.4g with write-allocate) |",
				r->perf, r->perf * tr->bytes_wa / tr->bytes);
		else if (isfinite(r->perf))
			fprintf(f, " %.4g %s |", r->perf,
				mess_wl_kernels[r->wl.kernel].perf_unit);
		else
			fprintf(f, " %s |", r->skip ? "not run" : "–");
		for (int j = 0; j < a->nmodes; j++) {
			k1_cell(cell, sizeof(cell), &r->pair[a->modes[j]]);
			fprintf(f, " %s |", cell);
		}
		fprintf(f, "\n");
	}
	fprintf(f, "\n## Details\n\n| row | mode | k1 | k1_rel | k2 | slope ns/insn | base ns/iter | R² | runs (linear sweep) | status |\n|---|---|---:|---:|---:|---:|---:|---:|---:|---|\n");
	for (size_t i = 0; i < a->nrows; i++) {
		const struct row *r = &a->rows[i];

		for (int j = 0; j < a->nmodes; j++) {
			const struct pair *pr = &r->pair[a->modes[j]];
			const struct mess_absorb_result *res = &pr->res;

			if (!pr->done)
				continue;
			k1_cell(cell, sizeof(cell), pr);
			fprintf(f, "| %s | %s | %s | %.3g |", r->id,
				mess_noise_mode_name(a->modes[j]), cell,
				k1_rel(a, r, a->modes[j]));
			if (has_line(res))
				fprintf(f, " %u | %.4g |", res->k2, res->slope);
			else
				fprintf(f, " – | – |");
			fprintf(f, " %.4g | %.3f | %u (%u) | %s%s%s |\n",
				res->base, res->r2, res->runs, res->runs_linear,
				mess_absorb_status_name(res->status),
				res->why ? ": " : "", res->why ? res->why : "");
		}
	}
	md_ladder(f, a);
	md_notes(f, a);
	return mess_tmp_commit(a->dir, "absorption.md", f);
}

static int write_tables(struct mess_absorb *a, int complete)
{
	int err = write_csv(a);

	return err ? err : write_md(a, complete);
}

/* ---- plots ---- */

static int has_points(const struct mess_absorb *a, const struct row *r)
{
	for (int j = 0; j < a->nmodes; j++)
		if (r->pair[a->modes[j]].n)
			return 1;
	return 0;
}

/* The fitted three-phase model at k; a lower bound is flat throughout. */
static double model_at(const struct mess_absorb_result *res, unsigned k)
{
	double end;

	if (!has_line(res) || k <= res->k1_fit)
		return has_line(res) ? res->flat : res->base;
	if (k >= res->k2)
		return res->a + res->slope * k;
	end = res->a + res->slope * res->k2;
	return res->flat + (end - res->flat) * (k - res->k1_fit) /
				   (res->k2 - res->k1_fit);
}

/*
 * plots/absorb.dat: "plot mode k t spread", plot numbering the rows
 * with points; plots/absorb_model.dat: each fitted model at every integer
 * k up to the largest measured ("plot mode k t", a blank line between
 * models); rows and modes go to gnuplot as word lists.
 */
static int write_plot_data(struct mess_absorb *a, const char *dir,
			   char *rows, size_t rowslen)
{
	FILE *d = mess_file_open(dir, "absorb.dat", "w");
	FILE *mf = mess_file_open(dir, "absorb_model.dat", "w");
	int np = 0, err = 0;
	size_t o = 0;

	if (!d || !mf) {
		err = -errno;
		goto out;
	}
	fprintf(d, "# plot mode k time_ns spread_ns\n");
	fprintf(mf, "# plot mode k time_ns: fitted three-phase model\n");
	rows[0] = 0;
	for (size_t i = 0; i < a->nrows; i++) {
		const struct row *r = &a->rows[i];

		if (!has_points(a, r))
			continue;
		o += (size_t)snprintf(rows + o, o < rowslen ? rowslen - o : 0,
				      "%s%s", np ? " " : "", r->id);
		for (int j = 0; j < a->nmodes; j++) {
			const struct pair *pr = &r->pair[a->modes[j]];
			const struct mess_absorb_result *res = &pr->res;
			unsigned km = 0;

			for (size_t p = 0; p < pr->n; p++) {
				fprintf(d, "%d %d %u %.6g %.6g\n", np, j,
					pr->pts[p].k, pr->pts[p].t,
					pr->pts[p].sigma);
				if (pr->pts[p].k > km)
					km = pr->pts[p].k;
			}
			if (!pr->done || (!has_line(res) && !res->k1_lower_bound))
				continue;
			/* Every integer k: the plot's axes are logarithmic. */
			for (unsigned k = 0; k <= km; k++)
				fprintf(mf, "%d %d %u %.6g\n", np, j, k,
					model_at(res, k));
			fprintf(mf, "\n");
		}
		np++;
	}
	if (o >= rowslen)
		err = -ENAMETOOLONG;
out:
	if (d && fclose(d) && !err)
		err = -EIO;
	if (mf && fclose(mf) && !err)
		err = -EIO;
	return err ? err : np;
}

/*
 * plots/absorb_spmxv.dat: one index block per SPMXV variant and core
 * count, "q perf k1_fp_add64 k1_l1_ld64" (NaN: not measured or unclear;
 * lower bounds are plotted at their value and flagged in columns 5, 6).
 */
static int write_spmxv_data(struct mess_absorb *a, const char *dir,
			    char *series, size_t len, int have[2])
{
	const enum mess_noise_mode pm[2] = { MESS_NOISE_MODE_fp_add64,
					     MESS_NOISE_MODE_l1_ld64 };
	FILE *f = mess_file_open(dir, "absorb_spmxv.dat", "w");
	int blocks = 0;
	size_t o = 0;

	if (!f)
		return -errno;
	series[0] = 0;
	fprintf(f, "# q perf k1_fp_add64 k1_l1_ld64 lower_bound_fp lower_bound_l1\n");
	for (size_t i = 0; i < a->nrows; i++) {
		const struct row *s = &a->rows[i];
		int seen = 0;

		if (s->wl.kernel != MESS_WL_spmxv || !isfinite(s->perf))
			continue;
		/* The first row of each (variant, cores) opens its block. */
		for (size_t j = 0; j < i; j++)
			seen |= a->rows[j].wl.kernel == MESS_WL_spmxv &&
				isfinite(a->rows[j].perf) &&
				!strcmp(a->rows[j].wl.variant, s->wl.variant) &&
				a->rows[j].wl.cores == s->wl.cores;
		if (seen)
			continue;
		fprintf(f, "%s# %s c%d\n", blocks ? "\n\n" : "", s->wl.variant,
			s->wl.cores);
		o += (size_t)snprintf(series + o, o < len ? len - o : 0, "%s%s-c%d",
				      blocks ? " " : "", s->wl.variant, s->wl.cores);
		for (size_t j = i; j < a->nrows; j++) {
			const struct row *r = &a->rows[j];

			if (r->wl.kernel != MESS_WL_spmxv || !isfinite(r->perf) ||
			    strcmp(r->wl.variant, s->wl.variant) ||
			    r->wl.cores != s->wl.cores)
				continue;
			fprintf(f, "%g %.6g", r->wl.q, r->perf);
			for (int m = 0; m < 2; m++) {
				const struct pair *pr = &r->pair[pm[m]];

				if (pr->done && pr->res.status != MESS_ABSORB_UNCLEAR) {
					fprintf(f, " %u", pr->res.k1);
					have[m] = 1;
				} else
					fprintf(f, " NaN");
			}
			for (int m = 0; m < 2; m++)
				fprintf(f, " %d", r->pair[pm[m]].done &&
					r->pair[pm[m]].res.k1_lower_bound);
			fprintf(f, "\n");
		}
		blocks++;
	}
	if (fclose(f))
		return -EIO;
	return o < len ? blocks : -ENAMETOOLONG;
}

/* plots/ladder.png, .svg; 0 or -errno with err set. */
static int plot_ladder(struct mess_absorb *a, const char *dir,
		       const char *qtitle, char *err, size_t errlen)
{
	char qrun[2 * PATH_MAX + 16], log[PATH_MAX + 32], *expr;
	FILE *f = mess_file_open(dir, "ladder_levels.dat", "w");
	int rc;

	if (!f) {
		snprintf(err, errlen, "cannot write ladder_levels.dat: %s",
			 strerror(errno));
		return -errno;
	}
	for (size_t i = 0; a->plat_ok && i <= a->ncaches; i++) {
		const struct mess_ladder_plateau *p = &a->plat[i];
		uint64_t hi = p->hi;

		if (!p->npts)
			continue;
		/* The window's sizes actually measured. */
		for (size_t j = 0; j < a->nladder; j++)
			if (a->ladder[j].size <= p->hi)
				hi = a->ladder[j].size;
		fprintf(f, "%llu,%llu,%.6g,%s%.0d\n",
			(unsigned long long)(p->lo > a->ladder[0].size ? p->lo : a->ladder[0].size),
			(unsigned long long)hi, p->lat_ns,
			p->level ? "L" : "memory", p->level);
	}
	if (fclose(f))
		return -EIO;
	mess_gp_quote(qrun, sizeof(qrun), a->dir);
	snprintf(log, sizeof(log), "%s/ladder-gnuplot.log", dir);
	if (asprintf(&expr, "rundir='%s'; plottitle='%s'", qrun, qtitle) < 0)
		return -ENOMEM;
	rc = mess_gnuplot("ladder.gp", expr, log, err, errlen);
	free(expr);
	return rc;
}

static void plots(struct mess_absorb *a, int complete)
{
	char dir[PATH_MAX + 8], rows[8192], series[512], err[256], modes[128];
	char qdir[2 * PATH_MAX + 16], qtitle[512], title[300], log[PATH_MAX + 32];
	char *expr = NULL;
	int np, ns, rc, have[2] = { 0, 0 };

	snprintf(dir, sizeof(dir), "%s/plots", a->dir);
	rc = mess_mkdir_p(dir);
	np = rc ? rc : write_plot_data(a, dir, rows, sizeof(rows));
	ns = np < 0 ? 0 : write_spmxv_data(a, dir, series, sizeof(series), have);
	snprintf(title, sizeof(title), "%s%s", a->topo.cpu_model,
		 complete ? "" : " (partial)");
	mess_gp_quote(qdir, sizeof(qdir), dir);
	mess_gp_quote(qtitle, sizeof(qtitle), title);
	snprintf(log, sizeof(log), "%s/absorb-gnuplot.log", dir);
	for (int j = 0, o = 0; j < a->nmodes; j++)
		o += snprintf(modes + o, sizeof(modes) - (size_t)o, "%s%s",
			      j ? " " : "", mess_noise_mode_name(a->modes[j]));
	err[0] = 0;
	if (np <= 0 || ns < 0) {
		snprintf(err, sizeof(err), "%s", np == 0 ? "no points to plot" :
			 strerror(-(np < 0 ? np : ns)));
		rc = -ENODATA;
	} else if (asprintf(&expr, "outdir='%s'; rows='%s'; modes='%s'; spseries='%s'; sphave='%d %d'; plottitle='%s'",
			    qdir, rows, modes, ns ? series : "", have[0],
			    have[1], qtitle) < 0) {
		expr = NULL;
		snprintf(err, sizeof(err), "out of memory");
		rc = -ENOMEM;
	} else {
		rc = mess_gnuplot("absorb.gp", expr, log, err, sizeof(err));
	}
	if (rc)
		snprintf(a->plots_note, sizeof(a->plots_note), "skipped: %s",
			 err[0] ? err : "gnuplot failed");
	else
		snprintf(a->plots_note, sizeof(a->plots_note),
			 "plots/absorb-<row>.png and .svg (time per iteration vs k, fitted model)%s",
			 ns ? ", plots/absorb-spmxv.png and .svg (SPMXV vs q)" : "");
	if (a->ladder_done && a->nladder && np >= 0) {
		err[0] = 0;
		rc = plot_ladder(a, dir, qtitle, err, sizeof(err));
		snprintf(a->plots_note + strlen(a->plots_note),
			 sizeof(a->plots_note) - strlen(a->plots_note), "%s%s",
			 rc ? "; ladder plot skipped: " : "; plots/ladder.png and .svg (latency ladder)",
			 rc ? (err[0] ? err : "gnuplot failed") : "");
	}
	free(expr);
	if (a->plots_note[0] == 's')
		fprintf(stderr, "warning: plots %s\n", a->plots_note);
}

/* ---- meta.json ---- */

static int write_meta(struct mess_absorb *a, int complete)
{
	FILE *f = mess_tmp_open(a->dir, "meta.json");
	int first = 1;

	if (!f)
		return -errno;
	fprintf(f, "{\n  \"schema\": %d,\n  \"tool\": \"mess absorb\",\n",
		META_SCHEMA);
	mess_meta_identity(f, &a->topo);
	fprintf(f, "  \"cores\": {\"machine_cores\": %d, \"counts\": [",
		a->topo.ncores);
	for (int i = 0; i < a->ncounts; i++)
		fprintf(f, "%s%d", i ? ", " : "", a->counts[i]);
	fprintf(f, "], \"placement\": \"thread i pinned to core i (hwloc logical index), i < the row's count\", \"pus\": [");
	for (int i = 0; i < a->topo.ncores; i++)
		fprintf(f, "%s%d", i ? ", " : "", a->topo.core_pu[i]);
	fprintf(f, "]},\n");
	fprintf(f, "  \"llc_bytes\": %llu,\n  \"llc_level\": %d,\n  \"numa_nodes\": %d,\n",
		(unsigned long long)a->llc_bytes, a->llc_level,
		a->topo.nnodes);
	fprintf(f, "  \"huge_pages\": \"requested for every mess_buf (hugetlbfs, else THP); what each row obtained is in rows[]\",\n");
	fprintf(f, "  \"timer\": \"clock_gettime(CLOCK_MONOTONIC) around each run\",\n");
	fprintf(f, "  \"time\": \"ns per inner-loop iteration of the slowest thread; threads pinned, started together by a spinning barrier; a point is repeats pairs of runs (k = 0, then k): t0 x median of the pairs' ratios, t0 the k = 0 point (paired with itself); spread: t0 x the spread of the ratios\",\n");
	fprintf(f, "  \"repeats\": %llu,\n  \"spread\": \"%s\",\n",
		(unsigned long long)a->o.repeats, SPREAD_DESC);
	fprintf(f, "  \"run_ms\": %g,\n  \"work\": \"iterations per run chosen at k = 0 of each row and mode so that a run takes run_ms, the same for every k (rows[].work_per_run)\",\n",
		a->o.run_ms);
	fprintf(f, "  \"threshold\": {\"rule\": \"slow when t(k) - t0 > max(threshold * t0, sigmas * spread0); k1 = largest measured k with it and every smaller k not slow\", \"threshold\": %g, \"sigmas\": %g},\n",
		a->o.threshold, a->o.sigmas);
	fprintf(f, "  \"search\": {\"kmax\": %u, \"K_MAX\": %d, \"prec_div\": %u, \"slope_tol\": %g, \"r2_min\": %g, \"stop_slowdown\": %d, \"stop_rule\": \"no k past the largest measured once a point is stop_slowdown x t0 and three are 2 x t0 or more\"},\n",
		a->acfg.kmax, MESS_NOISE_KMAX, a->acfg.prec_div,
		a->acfg.slope_tol, a->acfg.r2_min, STOP_SLOWDOWN);
	fprintf(f, "  \"noise\": {\"memory_ld64_bytes_per_thread\": %zu, \"memory_ld64_huge_pct_min\": ",
		a->noise_bytes);
	mess_json_num(f, a->noise_huge_pct, 1);
	fprintf(f, ", \"memory_ld64_huge_pages\": \"THP requested (madvise); huge_pct_min is the least share obtained over the threads, null if not measured\", \"insn_bytes\": {");
	for (int i = 0; i < a->nmodes; i++)
		fprintf(f, "%s\"%s\": %u", i ? ", " : "",
			mess_noise_mode_name(a->modes[i]),
			mess_noise_insn_bytes(a->modes[i]));
	fprintf(f, "}},\n  \"modes\": [");
	for (int i = 0; i < a->nmodes; i++)
		fprintf(f, "%s\"%s\"", i ? ", " : "",
			mess_noise_mode_name(a->modes[i]));
	fprintf(f, "],\n  \"k1_rel\": {\"rule\": \"k1 x sites / clean_body of loops[<kernel>_<mode>]\", \"source\": ");
	mess_json_str(f, a->census_note);
	fprintf(f, "}");
	fprintf(f, ",\n  \"loops\": {");
	first = 1;
	for (int k = 0; k < MESS_WL_NKERNELS; k++)
		for (int i = 0; i < a->nmodes; i++) {
			const struct loop_census *c = &a->loops[k][a->modes[i]];

			if (!c->clean_body)
				continue;
			fprintf(f, "%s\"%s_%s\": {\"sites\": %d, \"body\": %d, \"clean_body\": %d, \"overhead\": %d, \"extra\": %d}",
				first ? "" : ", ", mess_wl_kernels[k].symbol,
				mess_noise_mode_name(a->modes[i]), c->sites,
				c->body, c->clean_body, c->overhead, c->extra);
			first = 0;
		}
	fprintf(f, "},\n");
	first = 1;
	fprintf(f, "  \"perf\": \"clean kernel, best of repeats trials after a warm-up: stream GB/s with STREAM bytes (triad_gbs_write_allocate adds the write-allocate read), lat_mem_rd ns per load, haccmk GFLOP/s, spmxv GFLOP/s per core\",\n");
	fprintf(f, "  \"not_run\": [");
	for (int i = 0; i < MESS_NOISE_NMODES; i++)
		if (a->mode_on[i] && a->mode_skip[i]) {
			fprintf(f, "%s{\"mode\": \"%s\", \"why\": ", first ? "" : ", ",
				mess_noise_mode_name(i));
			mess_json_str(f, a->mode_skip[i]);
			fprintf(f, "}");
			first = 0;
		}
	for (size_t i = 0; i < a->nrows; i++)
		if (a->rows[i].skip) {
			fprintf(f, "%s{\"row\": \"%s\", \"why\": ", first ? "" : ", ",
				a->rows[i].id);
			mess_json_str(f, a->rows[i].skip);
			fprintf(f, "}");
			first = 0;
		}
	if (a->ladder_skip) {
		fprintf(f, "%s{\"ladder\": \"lat_mem_rd\", \"why\": ", first ? "" : ", ");
		mess_json_str(f, a->ladder_skip);
		fprintf(f, "}");
	}
	fprintf(f, "],\n  \"rows\": [");
	first = 1;
	for (size_t i = 0; i < a->nrows; i++) {
		const struct row *r = &a->rows[i];

		if (!r->meta)
			continue;
		fprintf(f, "%s\n    {%s, \"work_per_run\": {", first ? "" : ",",
			r->meta);
		for (int j = 0; j < a->nmodes; j++)
			fprintf(f, "%s\"%s\": %llu", j ? ", " : "",
				mess_noise_mode_name(a->modes[j]),
				(unsigned long long)r->pair[a->modes[j]].iters);
		fprintf(f, "}}");
		first = 0;
	}
	fprintf(f, "\n  ],\n  \"quick\": %s,\n  \"points_measured\": %u,\n  \"points_reused\": %u,\n  \"points_remeasured_for_spread\": %u,\n  \"remeasure_rule\": \"a baseline (k = 0) point whose spread exceeds %g of its time is measured again, up to %d times; the least spread one is kept\",\n",
		a->o.quick ? "true" : "false", a->points_measured,
		a->points_reused, a->remeasured, REMEASURE_REL, REMEASURE_MAX);
	fprintf(f, "  \"plots\": ");
	mess_json_str(f, a->plots_note[0] ? a->plots_note : "pending");
	fprintf(f, ",\n");
	mess_meta_close(f, a->resumed, a->start_utc, a->end_utc, complete);
	return mess_tmp_commit(a->dir, "meta.json", f);
}

/* ---- open, finish ---- */

/* The partial result, valid after every finished search. */
static int save(struct mess_absorb *a)
{
	int err = write_tables(a, 0);

	return err ? err : write_meta(a, 0);
}

/*
 * The loop sizes for k1_rel: tools/noise-census.sh on this binary.  Per
 * kernel and mode, the loop with the most sites (lat_mem_rd's unrolled
 * loop, not its remainder loop).
 */
static void census(struct mess_absorb *a)
{
	char exe[PATH_MAX], script[PATH_MAX], cmd[2 * PATH_MAX + 64], line[4096];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	int rows = 0, st;
	FILE *p;

	if (n <= 0 || mess_find_repo_file("tools/noise-census.sh", script,
					  sizeof(script)) ||
	    strchr(script, '\'') || memchr(exe, '\'', (size_t)n)) {
		snprintf(a->census_note, sizeof(a->census_note),
			 "nan: tools/noise-census.sh not found next to this binary");
		return;
	}
	exe[n] = 0;
	snprintf(cmd, sizeof(cmd), "sh '%s' objdump '%s' 2>/dev/null", script, exe);
	p = popen(cmd, "r");
	while (p && fgets(line, sizeof(line), p)) {
		char fn[128], kern[128], mode[32];
		int sites, body, ovh, extra, clean;
		enum mess_noise_mode m;

		/* file function kernel mode loop sites payload overhead
		 * overhead_insns body clean_body extra ... */
		if (sscanf(line, "%*s %127s %127s %31s %*s %d %*d %d %*s %d %d %d",
			   fn, kern, mode, &sites, &ovh, &body, &clean, &extra) != 8 ||
		    mess_noise_mode_parse(mode, &m) || m == MESS_NOISE_MODE_none)
			continue;
		for (int k = 0; k < MESS_WL_NKERNELS; k++) {
			struct loop_census *c = &a->loops[k][m];

			if (strcmp(kern, mess_wl_kernels[k].symbol) || sites <= c->sites)
				continue;
			*c = (struct loop_census){ sites, body, clean, ovh, extra };
			rows++;
		}
	}
	st = p ? pclose(p) : -1;
	if (rows)
		snprintf(a->census_note, sizeof(a->census_note),
			 "loop sizes from tools/noise-census.sh on this binary (meta.json loops)%s",
			 st ? "; it also flagged malformed noise sites, left out" : "");
	else
		snprintf(a->census_note, sizeof(a->census_note),
			 "nan: tools/noise-census.sh gave no loop sizes (is binutils' objdump installed?)");
}

/* Which modes run here: an ISA without noise sites says so at init. */
static void probe_modes(struct mess_absorb *a)
{
	for (int i = 0; i < a->nmodes; i++) {
		struct mess_noise nz;
		int err = mess_noise_init(&nz, a->modes[i], 0, 1 << 20);

		mess_noise_free(&nz);
		if (err == -EOPNOTSUPP)
			a->mode_skip[a->modes[i]] =
				"noise modes not implemented on this ISA (" MESS_ISA ")";
		else if (err)
			a->mode_skip[a->modes[i]] = "its noise state cannot be set up here";
	}
}

int mess_absorb_open(struct mess_absorb **ap, const struct mess_absorb_opts *o,
		     int argc, char **argv, char *err, size_t errlen)
{
	struct mess_absorb *a = calloc(1, sizeof(*a));
	enum mess_wl_kernel kern[MESS_WL_NKERNELS];
	double qs[32];
	int nkern, nq, rc, runnable = 0;

	if (!a)
		return -ENOMEM;
	*ap = a;
	a->o = *o;
	rc = mess_topo_init(&a->topo);
	if (rc) {
		snprintf(err, errlen, "hwloc could not read the topology: %s",
			 strerror(-rc));
		return rc == -EINVAL ? -EIO : rc;
	}
	mess_topo_llc_of_core(&a->topo, 0, &a->llc_bytes, &a->llc_level);
	rc = resolve(a, err, errlen, kern, &nkern, qs, &nq);
	if (!rc)
		rc = make_rows(a, kern, nkern, qs, nq);
	if (rc)
		return rc;
	for (int i = 0; i < nkern; i++)
		a->ladder_on |= kern[i] == MESS_WL_lat_mem_rd;
	{
		int lv[LADDER_CACHES], n;
		uint64_t by[LADDER_CACHES];

		n = mess_topo_caches_of_core(&a->topo, 0, lv, by, LADDER_CACHES);
		for (int i = 0; i < n; i++)
			a->caches[a->ncaches++] = (struct mess_ladder_cache){ lv[i], by[i] };
	}
	mess_absorb_cfg_default(&a->acfg, (unsigned)o->kmax);
	a->acfg.rel_min = o->threshold;
	a->acfg.n_sigma = o->sigmas;
	/* A coarser k1 and an earlier stop past it: at large k a run of
	 * memory_ld64 noise takes a hundred times the k = 0 run. */
	if (o->quick) {
		a->acfg.prec_div = 8;
		a->acfg.slope_tol = 0.25;
	}
	a->env = (struct mess_wl_env){ a->llc_bytes, o->quick, -1, o->stride };
	/* memory_ld64 loads must miss every cache: 4x the LLC per thread. */
	a->noise_bytes = 4 * a->llc_bytes;
	probe_modes(a);
	census(a);
	for (int i = 0; i < a->nmodes; i++) {
		const char *why = a->mode_skip[a->modes[i]];

		if (why)
			fprintf(stderr, "absorb: mode %s skipped: %s\n",
				mess_noise_mode_name(a->modes[i]), why);
		else
			runnable++;
	}
	/* The ladder needs no noise: an ISA without noise sites still gets
	 * its cache and memory latencies. */
	if (!runnable && !a->ladder_on) {
		snprintf(err, errlen, "no noise mode can run: %s",
			 a->mode_skip[a->modes[0]]);
		return -EOPNOTSUPP;
	}
	if (!runnable)
		fprintf(stderr, "absorb: no noise mode can run here; measuring the latency ladder only\n");
	rc = open_dir(a, argc, argv);
	if (rc) {
		if (rc != -EEXIST)
			snprintf(err, errlen, "cannot set up %s: %s", a->dir,
				 strerror(-rc));
		return rc;
	}
	fprintf(stderr, "absorb: %s, %d cores, LLC %llu MiB; %zu rows x %d modes; writing %s\n",
		a->topo.cpu_model, a->topo.ncores,
		(unsigned long long)(a->llc_bytes >> 20), a->nrows, runnable,
		a->dir);
	rc = pool_start(a, a->topo.ncores);
	if (!rc)
		rc = save(a);
	if (rc)
		snprintf(err, errlen, "cannot start the measuring threads: %s",
			 strerror(-rc));
	return rc;
}

int mess_absorb_finish(struct mess_absorb *a, int complete)
{
	int err;

	mess_utc_now(a->end_utc, sizeof(a->end_utc), 0);
	err = write_tables(a, complete);
	if (a->o.no_plots)
		snprintf(a->plots_note, sizeof(a->plots_note), "skipped: --no-plots");
	else if (!err)
		plots(a, complete);
	if (!err)
		err = write_meta(a, complete);
	if (!err)
		err = write_summary(a);
	return err;
}

void mess_absorb_free(struct mess_absorb *a)
{
	if (!a)
		return;
	pool_stop(a);
	if (a->points)
		fclose(a->points);
	if (a->resume)
		fclose(a->resume);
	for (size_t i = 0; i < a->nrows; i++)
		free(a->rows[i].meta);
	free(a->rows);
	if (a->topo.hw)
		mess_topo_fini(&a->topo);
	free(a);
}
