/* SPDX-License-Identifier: MIT */
/*
 * The parts of `mess sample`'s sweep: the plan and the run directory
 * (sweep.c), one point measured (measure.c: pairs of unsampled and
 * sampled runs, every thread with its rings, a reader draining them
 * live), the workloads (work.c), the recommendation (recommend.c) and
 * the files (report.c).
 */
#ifndef MESS_SAMPLE_SWEEP_H
#define MESS_SAMPLE_SWEEP_H

#include <limits.h>
#include <stdint.h>

#include "core/measure/pool.h"
#include "core/rundir/rundir.h"
#include "core/machine/topo.h"
#include "sample/backend.h"

#define SAMPLE_MAX_THREADS 256
#define SAMPLE_MAXP 32
#define SAMPLE_NLEVELS 12
#define SAMPLE_LAT_BINS 16	/* [0,2), [2,4), ... [2^15, inf) cycles */
#define SAMPLE_TBINS 10		/* time bins of a sampled run */
#define SAMPLE_MAX_REGIONS 6

#define SAMPLE_REG_OUTSIDE SAMPLE_MAX_REGIONS
#define SAMPLE_REG_NOADDR (SAMPLE_MAX_REGIONS + 1)

struct sample_region {
	const char *name;
	uintptr_t lo, hi;
};

struct sample_work;
const char *sample_work_names(void);
int sample_work_known(const char *name);
int sample_work_create(struct sample_work **w, const char *name, int threads,
		       uint64_t bytes);
void sample_work_destroy(struct sample_work *w);
uint64_t sample_work_run(struct sample_work *w, int tid, uint64_t iters);
int sample_work_regions(const struct sample_work *w, struct sample_region *r);
const char *sample_work_desc(const struct sample_work *w);
const char *sample_work_iteration(const struct sample_work *w);

/* One point of the sweep and what was measured there. */
struct sample_point {
	char sweep[8];		/* "period" or "aux" */
	int threads;		/* 0: a command's own threads (-- CMD) */
	uint64_t period;
	unsigned aux_pages, ring_pages;
	double period_eff;
	uint64_t samples;
	double counted;		/* NAN: the counter did not count */
	double accuracy, overhead, spread;
	uint64_t collisions, truncated, lost, throttled, undecodable;
	double run_s;		/* median sampled run */
	double tool_cpu_s;	/* the reader's CPU time, all runs */
	double tool_share;	/* tool_cpu_s / sampled run time, all runs */
	uint64_t with_addr, in_region, with_level, with_lat;
	int nlevels;
	char level[SAMPLE_NLEVELS][16];
	uint64_t lat[SAMPLE_NLEVELS][SAMPLE_LAT_BINS];
	/* Samples per time bin and buffer; [SAMPLE_REG_OUTSIDE]: an address
	 * in none of the workload's buffers, [SAMPLE_REG_NOADDR]: no data
	 * address at all (cpu-clock, or an op without one). */
	uint64_t region[SAMPLE_TBINS][SAMPLE_MAX_REGIONS + 2];
};

struct sample_opts {
	char backend[16];
	char periods[256];
	char aux_pages[128];
	char threads[64];
	char workload[32];
	char filter[16];
	uint64_t ring_pages, pairs, size_mib, min_latency, core;
	double min_accuracy, budget, run_s;
	char out[PATH_MAX], resume[PATH_MAX];
	int quick, help, l3miss, force;
};

/* What one session measures with. */
struct sample_ctx {
	const struct sample_backend *b;
	const struct sample_opts *o;
	struct sample_cfg cfg;	/* period set per point */
	struct mess_topo topo;
	struct mess_pool pool;
	int pool_on, ncores;
	int cores[SAMPLE_MAX_THREADS];	/* the chase core's socket, chase core first */
	struct sample_work *work;	/* NULL with -- CMD */
	int work_threads;
	uint64_t iters;		/* per thread per run */
	char **cmd;		/* -- CMD ARGS, NULL-terminated */
	struct sample_region reg[SAMPLE_MAX_REGIONS];
	int nreg;
};

/* Measure p (its threads, period, aux and ring pages set): 0, -EINTR
 * (Ctrl-C: nothing kept of the point), or -errno with why. */
int sample_measure(struct sample_ctx *x, struct sample_point *p, char *why,
		   size_t whylen);
/* Calibrate x->iters so that one thread's run lasts about seconds. */
int sample_calibrate(struct sample_ctx *x, double seconds);

/* recommend.c: what an overhead figure is.  Below 0 it is noise
 * (sampling does not speed the work up): within the pairs' spread, or
 * beyond it (drift between runs); at or above 0 but no larger than the
 * spread, within noise. */
enum sample_oh_kind {
	SAMPLE_OH_UNKNOWN,	/* not measured */
	SAMPLE_OH_SLOWDOWN,	/* above the pairs' spread */
	SAMPLE_OH_IN_SPREAD,
	SAMPLE_OH_NEGATIVE,
	SAMPLE_OH_NEGATIVE_DRIFT,
};
enum sample_oh_kind sample_overhead_kind(double overhead, double spread);
/* "" or " (noise: ...)", to print right after the figure. */
const char *sample_overhead_note(double overhead, double spread);
/* 1 for the kinds that are noise, 0 for a slowdown or no figure. */
int sample_overhead_is_noise(double overhead, double spread);

/* The recommended period and the figures its sentence quotes: those of
 * the period's worst thread count, as the table shows them. */
struct sample_advice {
	int64_t period;		/* -1: no period reaches the target */
	int64_t lowest;		/* none: the period of the lowest worst-case
				 * overhead, whose figures follow (-1: none) */
	double overhead;	/* worst over the thread counts, < 0 as 0 */
	double measured;	/* that row's overhead as measured */
	int threads;		/* that row's thread count */
	double accuracy;	/* lowest over the thread counts */
	int acc_threads;	/* that row's thread count */
	int nthreads;		/* rows at the period */
};
/* Among the period sweep's points of p: the largest period whose every
 * thread count reaches min_accuracy with an overhead (a negative one as
 * 0) within budget.  0, or -EINVAL. */
int sample_recommend_period(const struct sample_point *p, int n, double min_accuracy,
			    double budget, struct sample_advice *r);

/* report.c */
#define SAMPLE_CSV_HEADER "backend,workload,threads,period,aux_pages,ring_pages,samples,counted,accuracy,overhead,overhead_spread,collisions,truncated,lost,throttled,overhead_noise"
/* The n figures v as a JSON array of integers (meta.json, the points). */
json_t *sample_u64_array(const uint64_t *v, int n);
json_t *sample_point_json(const struct sample_point *p);
int sample_point_from_json(json_t *j, struct sample_point *p);
int sample_write_files(const char *dir, const struct sample_ctx *x,
		       const char *workload, const struct sample_point *p, int n,
		       int complete);

#endif
