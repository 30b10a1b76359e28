/* SPDX-License-Identifier: MIT */
/* One characterisation run: its machine state, buffers and result files. */
#ifndef MESS_RUN_H
#define MESS_RUN_H

#include <limits.h>
#include <stdio.h>

#include "mess/curve.h"
#include "mess/json.h"
#include "mess/quality.h"
#include "curves/backend.h"
#include "core/measure/gen.h"
#include "core/pmu/corectr.h"
#include "core/machine/cpufreq.h"
#include "core/measure/disturb.h"
#include "core/pmu/dram.h"
#include "core/machine/environ.h"
#include "core/machine/mem.h"
#include "core/machine/memsel.h"
#include "core/options.h"
#include "core/rundir/rundir.h"
#include "core/signals.h"
#include "core/util.h"
#include "core/measure/registry.h"
#include "curves/tail/tail.h"
#include "core/machine/topo.h"

/* The last cache's latency plateau, measured with the run (llc.c). */
#define MESS_LLC_SIZES 3
struct mess_llc_lat {
	double ns;		/* the median of the sizes; NAN: why says */
	int level, flat;	/* flat: within MESS_LADDER_FLAT_TOL */
	uint64_t size[MESS_LLC_SIZES];
	double lat[MESS_LLC_SIZES];
	double seconds;		/* what it added to the run */
	char why[160];
};

struct mess_cfg {
	char out[PATH_MAX];	/* run directory ("" = results/<host>-<utc>) */
	char resume[PATH_MAX];
	char mixes[512];	/* "default", "all" or a list */
	char cores[512];	/* generator cores; "" = all but the chase core */
	char variant[32];	/* "" = default from the registry */
	int quick;
	int force;	/* --resume with another build (rundir.c) */
	int list;
	int help;
	int no_plots;
	int no_ladder;	/* no LLC_LATENCY_NS (llc.c) */
	int json;	/* summary.json on stdout when done */
	int strict;	/* an INVALID verdict exits 2 */
	uint64_t points;	/* minimum points per curve */
	uint64_t repeats;
	int64_t chase_core;
	uint64_t buffer;	/* chase buffer bytes; 0 = auto */
	uint64_t stride;
	uint64_t window;	/* TLB window bytes; 0 = fully random */
	uint64_t gen_bytes;	/* per generator array; 0 = auto */
	double chase_ms;	/* chase time per repeat */
	double peak_gbs;
	double wave_tol;
	char mem_node[MESS_MEMSEL_LEN];	/* "": the chase core's node */
	char counters[256];	/* "auto", "off" or memory-controller families */
	int64_t seed;		/* 0..2^63-1: a JSON integer in meta.json */
	uint64_t max_nop;
	/* --replay SET: the sweep against a virtual machine made from a
	 * curve set (replay.c); "" measures this machine. */
	char replay[PATH_MAX];
	double replay_noise, replay_disturb;
	double replay_ghz;	/* --ghz: a set in CPU cycles (PROFET); 0 none */
	int64_t replay_seed;	/* as seed */
	/* Resolved after parsing. */
	int nmixes;
	unsigned mix[MESS_GEN_NMIXES];	/* store percentages */
};

/*
 * Parse argv into cfg.  Returns 0, or -EINVAL after printing one line that
 * names the option and what it allows into err.
 */
int mess_options_parse(struct mess_cfg *cfg, int argc, char **argv,
		       char *err, size_t errlen);
void mess_options_defaults(struct mess_cfg *cfg);
void mess_options_usage(FILE *f, const char *prog);
struct mess_replay_run;

struct mess_run {
	struct mess_cfg cfg;
	/* what measures the points (backend.h), and the replay's state
	 * (replay.c's own: NULL when measured) */
	const struct mess_curves_backend *be;
	struct mess_replay_run *replay;
	struct mess_topo topo;
	const struct mess_variant *var;
	int chase_core;
	int gen_cores[MESS_MAX_CORES];
	int ngen;
	int node;		/* NUMA node of every buffer */
	struct mess_memsel mem;	/* how --mem-node chose it */
	uint64_t llc_bytes;
	int llc_level;
	size_t gen_bytes;

	struct mess_buf chase;
	void *chase_p;		/* where the chase continues from */
	uint32_t nlines;
	uint64_t chase_iters;	/* per repeat, adapted to chase_ms */
	struct mess_gens gens;
	enum mess_hp gen_hp;	/* worst over the generator arrays */
	double gen_huge_pct;

	double unloaded_ns, unloaded_std_ns;
	double prev_unloaded_ns;	/* --resume: the earlier session's */
	double unloaded_random_ns, unloaded_random_std_ns;
	unsigned unloaded_repeats;
	struct mess_family fam;
	int done[MESS_GEN_OPS + 1];	/* mixes finished (resume) */

	struct mess_rundir rd;
	struct mess_appender csv;	/* curves.csv, one whole row at a time */
	size_t resume_dropped;	/* rows of earlier sessions not kept */
	double t0_ns;
	unsigned points_measured, points_reused, remeasured, unsteady;
	unsigned probes;
	double point_ns_total;	/* time spent in measured points, for ETA */
	char plots_note[256];
	char export_note[512];
	struct mess_cpufreq freq;	/* for cycle-based consumers */
	struct mess_llc_lat llc_lat;	/* LLC_LATENCY_NS (llc.c) */

	/* Counters (--counters): DRAM traffic on the packages loaded, the
	 * chase thread's core events.  dram.fam NULL / cc.set NULL: not
	 * counted, and their status says why. */
	struct mess_dram dram;
	struct mess_corectr cc;
	int npkgs_loaded;
	int pkgs_loaded[MESS_DRAM_MAX_PKG];
	unsigned dram_zero_windows;	/* windows the DRAM counters read 0 */
	char cores_rule[128];	/* how the generator cores were chosen */

	/* Trust: the machine before the start, what disturbed each chase
	 * window (the chase thread and every generator), the run's counts
	 * and its verdict. */
	struct mess_env env;
	struct mess_disturb dist;
	int dist_ok;		/* dist opened with every thread */
	unsigned windows, windows_disturbed, windows_kept_disturbed;
	unsigned points_rule_remeasured, waves_checked;
	unsigned clock_attempts;
	int disturb_persists;	/* the last point kept disturbed windows */
	double migrations;	/* summed over the points; NAN unknown */
	double clock_lo, clock_hi;	/* chase core's clock over all windows */
	double unloaded_cv_first;	/* before a re-measure; NAN if none */
	double unloaded_end_ns, unloaded_end_std_ns;	/* NAN: not measured */
	double worst_lost_pct, worst_steal_ms;	/* the worst disturbed window */
	char worst_who[24];	/* whose time it was */
	struct mess_verdict verdict;
	int judged;		/* verdict final (mess_run_verdict ran) */
	/* The host's earlier comparable PASS runs beside this one: how many
	 * were read and compared, their median maximum bandwidth and
	 * unloaded latency (NAN: not compared), where they were looked for. */
	size_t history_seen, history_runs;
	double history_bw_ns[2];
	char history_dir[PATH_MAX];
	double trust_ns;	/* spent reading clocks and disturbance */
	unsigned trust_points;	/* measure_repeats calls behind it */
	enum mess_level mix_level[MESS_GEN_OPS + 1];	/* by store_pct */
	struct mess_tail tail;	/* latency distributions (tail.c) */
};


/* point.c: one point's measurement */
int mess_measure_unloaded(struct mess_run *r);
/* The windowed chase alone once more, after the sweep (unloaded_end_*). */
void mess_measure_unloaded_end(struct mess_run *r);
/* Generators at p->nop, settled, then the chase's repeats into p, then
 * its distribution: 0, or -errno when latency_hist.csv could not be
 * written (the run stops; p is not to be recorded). */
int mess_measure_point(struct mess_run *r, const struct mess_gen_kernel *k,
		       struct mess_point *p);
/* The generators' bandwidth once steady (GB/s); *steady whether it got so. */
double mess_settle(struct mess_run *r, const struct mess_gen_kernel *k,
		   int *steady);
/* The measured backend's window and figures (backend.h): one chase window
 * with the generators' and counters' traffic over it; a point's bandwidth
 * from the counters where they count, else from the accounting. */
int mess_chase_window(struct mess_run *r, const struct mess_gen_kernel *k,
		      struct mess_window *s);
void mess_measured_figures(struct mess_run *r, const struct mess_window *w,
			   unsigned repeats, struct mess_point *p);

/* A point's repeats grow, up to MESS_SPREAD_ROUNDS times --repeats, while
 * their central width is over MESS_REPEAT_SPREAD_MAX of their median. */
#define MESS_REPEAT_SPREAD_MAX 0.10
#define MESS_SPREAD_ROUNDS 3
#define MESS_MAX_WINDOWS 150	/* MESS_SPREAD_ROUNDS x the largest --repeats */

/* repeats.c: the windows of one point at kernel k (NULL: the chase alone)
 * through r->be->window, for every backend: a disturbed window measured
 * again (at most as many times as there are repeats, then kept and
 * counted), more repeats while they disagree; p's latency, trust and
 * flags, its bandwidth from r->be->figures.  0, or -EINTR (p's figures
 * NAN). */
int mess_repeats(struct mess_run *r, const struct mess_gen_kernel *k,
		 unsigned repeats, struct mess_point *p);


/* Points a curve usually gets past --points (the maximum's probe and
 * its confirmation, a bisection where it bends): the ETA's estimate, and
 * what --quick's help says it measures. */
#define MESS_SWEEP_EXTRA_POINTS 3

/* sweep.c */
/* --mem-node each (each.c): one family per memory kind, compared. */
int mess_curves_each(struct mess_run *r, int argc, char **argv);
int mess_sweep(struct mess_run *r);

/* verdict/quality.c: the verdict at the end */
void mess_run_verdict(struct mess_run *r);
/* What the chase core's clock readings were, and what the machine says of
 * its clock: governor "" where there is no cpufreq, NAN or 0 unknown. */
struct mess_clock_seen {
	double lo, hi;			/* GHz, the readings' extremes */
	char governor[32];
	double pstate_min_ghz;		/* cpuinfo_min_freq */
	double nominal_ghz;
};
/* Why the clock ranged lo-hi, one clause into buf (a table of causes). */
const char *mess_clock_range_cause(const struct mess_clock_seen *c, char *buf,
				   size_t len);
json_t *mess_run_quality_json(const struct mess_run *r);
/* verdict/history.c: a complete run against the host's earlier runs */
void mess_run_history(struct mess_run *r, struct mess_verdict *v);
void mess_run_quality_md(FILE *f, const struct mess_run *r);
/* result/csv.c: curves.csv rewritten from memory (after points were
 * measured again), appending continued; written whole (sorted), appending
 * closed */
int mess_run_rewrite_csv(struct mess_run *r);
int mess_run_write_csv(struct mess_run *r);
/* Where a run's bandwidth comes from: its backend says. */
#define MESS_RUN_BW_SOURCE(r) ((r)->be->bw_source(r))

/* llc.c: LLC_LATENCY_NS, on the pinned chase core before any traffic
 * (nothing but why with --no-ladder); meta.json llc_latency; the
 * LLC_LATENCY_NS line of an export's info.txt into buf. */
void mess_run_llc_latency(struct mess_run *r);
json_t *mess_run_llc_json(const struct mess_run *r);
void mess_run_llc_kv(const struct mess_run *r, char *buf, size_t len);

/* counted.c: --counters */
int mess_run_counters_open(struct mess_run *r);
void mess_run_corectr_open(struct mess_run *r);
void mess_run_counters_close(struct mess_run *r);
json_t *mess_run_counters_json(const struct mess_run *r);
void mess_run_counters_md(FILE *f, const struct mess_run *r);

/* result/: the run directory's files (csv.c, meta.c, summary.c) */
/* --resume, before anything is changed or allocated: curves.csv's header
 * and the earlier points' histograms (latency_hist.csv, loaded).  0, or
 * -EINVAL said in one line naming the file. */
int mess_run_resume_check(struct mess_run *r);
/* After mess_rundir_open and the buffers: curves.csv, the points of
 * earlier sessions, meta.json. */
int mess_run_open(struct mess_run *r);
int mess_run_write_meta(struct mess_run *r, int complete);
int mess_run_record_point(struct mess_run *r, const struct mess_point *p);
int mess_run_mark_done(struct mess_run *r, unsigned store_pct);
int mess_run_finish(struct mess_run *r, int complete);

#endif
