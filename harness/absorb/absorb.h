/* SPDX-License-Identifier: MIT */
/*
 * `mess absorb`, inside its folder: the noise-absorption tables (Delval et
 * al., sections 4 and 6).  For every row (kernel, variant, cores, q) and
 * noise mode: the clean kernel's performance, then the search of
 * mess/absorb.h over k with every point measured, appended and flushed as
 * it comes, then the fit.
 *
 *   options.c  the option table, defaults, --help
 *   plan.c     the options against this machine: rows, modes, loop census
 *   measure.c  pinned threads, timed runs, points, searches, the ladder
 *   pairs.c    a point's pairs of runs against k = 0
 *   workload/  the kernels' description table, below the rest
 *   state.c    the run directory: points file, resume state, reloading
 *   report.c   absorption.csv and absorption.md
 *   plots.c    the gnuplot data and plots
 *   meta.c     meta.json
 *   verdict.c  whether to trust the table: its verdict
 *
 * The writers take the results (struct absorb_table) as const; only the
 * driver (struct mess_absorb) holds threads, files and progress.
 */
#ifndef MESS_ABSORB_ABSORB_H
#define MESS_ABSORB_ABSORB_H

#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>

#include "absorb/workload/workload.h"
#include "core/pmu/corectr.h"
#include "core/machine/environ.h"
#include "core/measure/disturb.h"
#include "core/measure/hoststate.h"
#include "core/ladder/ladder_run.h"
#include "core/measure/pool.h"
#include "core/rundir/rundir.h"
#include "core/util.h"
#include "core/machine/topo.h"
#include "mess/absorb.h"
#include "mess/json.h"
#include "mess/quality.h"

#define ABSORB_POINTS_CSV "absorption_points.csv"
/* 2: k1 with a bracket and a status from the sequential test, the fit's
 * shape beside it, disturbance counts, --tables; 3: environment, quality
 * and strict, the verdict (results/README.md). */
#define ABSORB_META_SCHEMA 3
#define ABSORB_MAX_TABLES 8
#define ABSORB_MAX_REPEATS 50
/* A baseline this spread (relative) is measured again: a disturbed one
 * would otherwise set the noise threshold for its whole search. */
#define ABSORB_REMEASURE_REL 0.05
#define ABSORB_REMEASURE_MAX 2
/* Deviations the test's pooled floor is taken from, at most (a search
 * counts a few hundred pairs near the line). */
#define ABSORB_POOL_CAP 2048
/* Searches extend k no further once a point is this many times t0. */
#define ABSORB_STOP_SLOWDOWN 16
#define ABSORB_MAX_COUNTS 8

/* A point whose nearest measured point below is this many times t0 or
 * slower runs less work (measure.c, work()). */
#define ABSORB_WORK_RATIO 2.0

struct mess_absorb_opts {
	char out[PATH_MAX];
	char resume[PATH_MAX];
	char kernels[256];
	char modes[256];
	char q[256];
	char cores[256];	/* core counts, "all" = every core */
	uint64_t repeats;	/* pairs of the baseline; perf trials */
	uint64_t min_pairs;	/* sequential test, other points */
	uint64_t max_pairs;
	uint64_t tables;	/* the table measured this many times */
	uint64_t kmax;
	double threshold;	/* relative slowdown floor */
	double sigmas;		/* x the baseline spread */
	double run_ms;		/* one timed run at k = 0 */
	uint64_t slices;	/* a pair's runs, cut and interleaved */
	uint64_t stride;	/* lat_mem_rd: bytes between pointers */
	int quick;
	int force;	/* --resume with another build (rundir.c) */
	int no_plots;
	int json;		/* summary.json on stdout when done */
	int strict;		/* an INVALID verdict exits 2 */
	int help;
};

/* What a point's row of absorption_points.csv adds to its search's
 * totals: taken away again when a later row replaces it. */
struct point_counts {
	unsigned disturbed, redone, kept;
	uint64_t steal, nivcsw;
};

/* One row x mode: its search. */
struct pair {
	struct mess_absorb_point pts[MESS_NOISE_KMAX + 1];
	struct point_counts cnt[MESS_NOISE_KMAX + 1];	/* of pts[i] */
	size_t n;
	uint64_t iters;		/* work per timed run; 0: not chosen yet */
	int done;
	struct mess_absorb_result res;
	/* Over its points: pairs counted, found disturbed, measured again,
	 * kept though disturbed (points.csv has them per point). */
	unsigned pairs, disturbed, redone, kept;
	/* The test's floor for the next point: the pair ratio's noise
	 * pooled over this session's points (mess_absorb_pool_sd), from
	 * noise_n deviations; NAN until there are enough: the baseline's
	 * spread then. */
	double noise;
	size_t noise_n;
};

/* What one point's runs saw (absorption_points.csv). */
struct point_obs {
	unsigned disturbed, redone, kept;
	uint64_t steal, nivcsw;	/* summed over its runs */
	double mhz_sum;		/* CPU frequency readings, where readable */
	unsigned mhz_n;
	const char *verdict;
	/* The runs at k (not their k = 0 partners): instructions and cycles
	 * summed, and their iterations; instr NAN without counters. */
	double instr, cycles;
	uint64_t iters;
};

/* A pool thread's timing and noise state: written by their thread every
 * run, so each on its own lines. */
struct worker {
	_Alignas(128) double elapsed;
	uint64_t done;
	/* Its own /proc status: involuntary switches before and after a
	 * run, read outside the timed interval. */
	int status_fd, cs_err;
	uint64_t cs0, cs1;
	double cpu;		/* the thread's CPU time in the run, ns */
	struct mess_noise nz[MESS_NOISE_NMODES];
	int nz_err[MESS_NOISE_NMODES];
	/* Its own core counters, read outside the timed interval like the
	 * switches; cc.set NULL: not counted. */
	struct mess_corectr cc;
	struct mess_corectr_snap c0, c1;
	char why[768];		/* why cc does not count, or "" */
};

struct timed {
	struct worker *wk;
	struct mess_wl *w;
	enum mess_noise_mode m;
	uint64_t iters;
	int phase;		/* clean-performance phase, or -1: a noisy run */
};

/* What disturbed one run: steal ticks on its CPUs, involuntary switches
 * of its threads, the frequency of its first CPU after it; and what the
 * core counters counted over it, summed over its threads (NAN when a
 * thread's counter gave nothing), with the iterations done. */
struct run_obs {
	uint64_t steal, nivcsw;
	double mhz;
	int disturbed, preempted;
	/* Wall time of the run, and the most a thread lost of it while it
	 * was switched out (wall - CPU time, when its switches grew), ns. */
	double wall, lost;
	double instr, cycles;
	uint64_t iters;
};

struct row {
	struct mess_wl_row wl;
	char id[96];		/* file names and the resume state */
	char key[128];		/* CSV columns kernel,variant,cores,q */
	double perf;		/* clean performance; NAN until measured */
	json_t *meta;		/* its meta.json object */
	const char *skip;	/* why it could not run, or NULL */
	int tb;			/* which table, 0 .. --tables - 1 */
	struct pair pair[MESS_NOISE_NMODES];
};

/* One kernel x mode's innermost noisy loop, from the disassembly. */
struct loop_census {
	int sites;		/* noise sites per loop iteration */
	int body;		/* loop less the payload: what runs at k = 0 */
	int clean_body;		/* the same loop in the clean function; 0: unknown */
	int overhead;		/* site instructions besides the payload */
	int extra;		/* what the compiler added around the sites */
};

/* What the tables, plots and meta.json are written from. */
struct absorb_table {
	struct mess_absorb_opts o;
	struct mess_absorb_cfg acfg;
	const char *cpu_model;
	int ncores;
	const int *core_pu;	/* OS PU of each core */
	uint64_t llc_bytes;
	int llc_level;
	int numa_nodes;
	int counts[ABSORB_MAX_COUNTS];
	int ncounts;
	enum mess_noise_mode modes[MESS_NOISE_NMODES];
	int nmodes;
	const char *mode_skip[MESS_NOISE_NMODES];	/* why not, or NULL */
	char mode_why[MESS_NOISE_NMODES][96];
	int mode_on[MESS_NOISE_NMODES];
	struct row *rows;
	size_t nrows;
	size_t noise_bytes;	/* memory_ld64 buffer per thread */
	double noise_huge_pct;	/* least THP share of those buffers */
	struct loop_census loops[MESS_WL_NKERNELS][MESS_NOISE_NMODES];
	char census_note[256];
	/* lat_mem_rd's latency ladder, measured before the rows. */
	int ladder_on, ladder_done;
	const char *ladder_skip;	/* why it could not run, or NULL */
	struct mess_ladder ladder;
	unsigned points_measured, points_reused, remeasured;
	/* Disturbance over the whole run (meta.json). */
	unsigned long dist_pairs, dist_redone, dist_kept, pairs_total;
	uint64_t steal_ticks, nivcsw;
	int steal_err, cs_err;	/* why not known, or 0 */
	/* The host's state on core 0 (core/measure/hoststate.h): pairs whose two
	 * probes, just before and just after them, were apart (measured
	 * again as disturbed ones are; this session's), the probes taken,
	 * and why there are none ("" when there are). */
	unsigned long state_pairs, state_probes;
	double state_l2_ref_ns, state_cost_ns;
	char state_why[160];
	double mhz_min, mhz_max;	/* NAN: not readable */
	/* Core counters on the pool threads: "" when they count, else why
	 * not (points then say nan for instructions and cycles). */
	char counters_why[768];
	char plots_note[512];
	/* The machine before this session's start (machine_ok 0: not looked
	 * at), and the verdict once the run ends (judged). */
	struct mess_env machine;
	int machine_ok;
	struct mess_verdict verdict;
	int judged;
};

struct worker;

/* The driver: the results, and the threads and files that make them. */
struct mess_absorb {
	struct absorb_table t;
	struct mess_topo topo;
	struct mess_wl_env env;
	struct mess_pool pool;
	struct worker *wk;
	struct mess_rundir rd;
	struct mess_appender points;	/* absorption_points.csv */
	struct mess_steal dist;	/* /proc/stat kept open between runs */
	double t0_ns;
	unsigned pairs_todo, pairs_now;
	uint64_t coin;		/* xorshift64: the order of a sub-pair's runs */
	/* core 0's state probes, its buffers first touched there; hs_ok 0:
	 * none (t.state_why says why) */
	struct mess_hoststate hs;
	int hs_ok;
};

/* ---- the command's phases (cmd.c) ---- */

/* 0, or -EINVAL with err naming the option. */
int mess_absorb_parse(struct mess_absorb_opts *o, int argc, char **argv,
		      char *err, size_t errlen);
/*
 * Resolve the options against this machine, open (or, with --resume,
 * reopen) the run directory and start the pinned threads.  0; -EINVAL
 * (bad option for this machine, err says why); -EEXIST (--out holds a
 * run); -EOPNOTSUPP (nothing can run here, err says why); other -errno.
 */
int mess_absorb_open(struct mess_absorb **a, const struct mess_absorb_opts *o,
		     int argc, char **argv, char *err, size_t errlen);
/* Measure every row and mode not finished: 0, -EINTR or -errno. */
int mess_absorb_measure(struct mess_absorb *a);
/* Tables, plots and meta.json (complete or not); 0 or -errno. */
int mess_absorb_finish(struct mess_absorb *a, int complete);
void mess_absorb_free(struct mess_absorb *a);

/* ---- between the files of this folder ---- */

/* A fitted line exists: k2 and the slope mean something. */
static inline int absorb_has_line(const struct mess_absorb_result *res)
{
	return isfinite(res->slope);
}

/* state.c: the resume state and the points file */
int absorb_state_open(struct mess_absorb *a, int argc, char **argv);
/* The most iterations calibration makes a run (measure.c), and so
 * the most a resumed state may hold. */
#define ABSORB_MAX_ITERS (1ULL << 40)
int absorb_record_point(struct mess_absorb *a, struct row *r,
			enum mess_noise_mode m,
			const struct mess_absorb_point *pt, double paired,
			const struct point_obs *po);
int absorb_record_work(struct mess_absorb *a, const struct row *r,
		       enum mess_noise_mode m);
int absorb_record_perf(struct mess_absorb *a, struct row *r, json_t *meta);
int absorb_record_done(struct mess_absorb *a, const struct row *r,
		       enum mess_noise_mode m);
int absorb_record_ladder(struct mess_absorb *a);
/* The partial result, valid after every finished search. */
int absorb_save(struct mess_absorb *a);

/* timing.c */
int absorb_pool_start(struct mess_absorb *a, int n);
void absorb_pool_stop(struct mess_absorb *a);
/* The host-state probes on pool thread 0 (core 0): opened once after the
 * pool; a failure leaves hs_ok 0 and t.state_why set, and the run goes
 * on.  A probe into *p (NAN figures without hs_ok). */
void absorb_host_open(struct mess_absorb *a);
void absorb_host_probe(struct mess_absorb *a, struct mess_hoststate_probe *p);
/* ns per iteration of the slowest thread; *elapsed its wall time; *o
 * what disturbed and counted it (NULL: not looked at). */
double absorb_timed_run(struct mess_absorb *a, int cores, struct timed *j,
			double *elapsed, struct run_obs *o);
/* Add a run at k to its point's observations. */
void absorb_observe(struct point_obs *po, const struct run_obs *o, int at_k);
/* Add run o to sum (zeroed first): one run's worth of slices; disturbed
 * as for a single run of their summed wall and lost time. */
void absorb_obs_add(struct run_obs *sum, const struct run_obs *o);

/* pairs.c: mode m's noise at k on threads 0 .. cores - 1; a
 * point at td->k of row r, pairs of runs against k = 0 up to td->pairs,
 * after h's (*paired: their k = 0 runs' median; *po what disturbed them,
 * h's pairs included); 0 or -errno. */
int absorb_set_k(struct mess_absorb *a, int cores, enum mess_noise_mode m,
		 unsigned k);
/* A point's pairs as this session measured them, so that a point taken
 * further (mess_absorb_step) goes on from them; zeroed: none yet. */
struct absorb_held {
	struct mess_absorb_seqstate s;
	double t0[MESS_ABSORB_MAX_PAIRS];	/* the pairs' k = 0 runs */
	struct point_obs po;
};
int absorb_measure_point(struct mess_absorb *a, struct row *r,
			 struct mess_wl *w, enum mess_noise_mode m,
			 const struct mess_absorb_todo *td,
			 struct absorb_held *h, struct mess_absorb_point *pt,
			 double *paired, struct point_obs *po);

/* report.c */
int absorb_write_tables(const struct absorb_table *t, const char *dir,
			const char *start_utc, int complete);

/* repeat.c: with --tables > 1, absorption_tables.csv and md's section. */
int absorb_write_repeat(const struct absorb_table *t, const char *dir,
			FILE *md);

/* plots.c: every plot; the outcome goes to t->plots_note. */
void absorb_plots(struct absorb_table *t, const char *rundir, int complete);

/* meta.c */
int absorb_write_meta(const struct absorb_table *t, struct mess_rundir *rd,
		      const struct mess_topo *topo, int complete);

/* verdict.c: the verdict of the table as it stands (complete 0: cut
 * short), into t->verdict. */
void absorb_judge(struct absorb_table *t, int complete);
/* meta.json `quality`: {"verdict": "pending"} until judged. */
json_t *absorb_quality_json(const struct absorb_table *t);
/* The head of absorption.md: the verdict (or pending) and the machine. */
void absorb_quality_md(FILE *f, const struct absorb_table *t);

#endif
