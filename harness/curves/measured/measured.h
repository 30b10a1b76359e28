/* SPDX-License-Identifier: MIT */
/*
 * The measured backend of `mess curves` (curves/backend/backend.h): this
 * machine's topology, chase, generators, counters, disturbance,
 * environment, distribution, LLC latency and clocks, behind the driver's
 * void *.  Its files see the options as a copy of their own (the buffer
 * sizes it resolves), never the driver's run.
 */
#ifndef MESS_MEASURED_H
#define MESS_MEASURED_H

#include <limits.h>
#include <stdio.h>

#include "curves/backend/backend.h"
#include "core/measure/gen.h"
#include "core/pmu/corectr.h"
#include "core/machine/cpufreq.h"
#include "core/measure/disturb.h"
#include "core/pmu/dram.h"
#include "core/machine/environ.h"
#include "core/machine/mem.h"
#include "core/machine/memsel.h"
#include "core/machine/place.h"
#include "core/options.h"
#include "core/signals.h"
#include "core/util.h"
#include "core/measure/registry.h"
#include "core/machine/topo.h"
#include "curves/measured/tail.h"

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

struct mess_measured {
	struct mess_cfg cfg;	/* the options, buffer sizes resolved */
	struct mess_run_desc *desc;	/* the driver's: trust kept up */
	struct mess_repeater *rep;	/* the driver's repeats */
	const char *dir;	/* the run directory */
	double prev_unloaded_ns;
	struct mess_topo topo;
	const struct mess_variant *var;
	const struct mess_gen_kernel *k;	/* the load set; NULL idle */
	int chase_core;
	int gen_cores[MESS_MAX_CORES];
	int ngen;
	int node;		/* NUMA node of every buffer */
	struct mess_memsel mem;	/* how --mem-node chose it */
	/* A split (mem.nsplit): how every buffer's pages are placed, the
	 * stripes used and the pages found afterwards (place.h). */
	struct mess_place place;
	size_t stripe_chase, stripe_gen;
	struct mess_place_count chase_pages, gen_pages;
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
	struct mess_unloaded u;	/* as measured, for the distribution */
	struct mess_cpufreq freq;
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
	 * window (the chase thread and every generator). */
	struct mess_env env;
	struct mess_disturb dist;
	int dist_ok;		/* dist opened with every thread */
	unsigned clock_attempts;
	struct mess_tail tail;	/* latency distributions (tail.c) */
};

/* point.c */
int mess_measure_unloaded(struct mess_measured *r, struct mess_unloaded *u);
double mess_settle(struct mess_measured *r, const struct mess_gen_kernel *k,
		   int *steady);
/* One chase window at the load set (r->k): the window hook. */
int mess_chase_window(void *bs, struct mess_window *s);
void mess_measured_figures(void *bs, const struct mess_window *w,
			   unsigned repeats, struct mess_point *p);
/* What disturbed the threads over a point: begun as its load is set,
 * ended after its repeats (the switches and migrations into p). */
void mess_measured_span_begin(struct mess_measured *r);
void mess_measured_span_end(struct mess_measured *r, struct mess_point *p);

/* judge.c: the environment, clocks and distribution in the verdict; the
 * measured sections of meta.json and summary.md */
void mess_measured_judge(void *bs, const struct mess_results *res,
			 struct mess_verdict *v);
json_t *mess_measured_json(const void *bs, const struct mess_results *res);
void mess_measured_md(const void *bs, FILE *f, enum mess_md_part part,
		      const struct mess_results *res);
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

/* split.c: a split --mem-node N:W,N:W: its method (--mem-place, parsed
 * into place.asked) before the directory, 0 or -errno said; the pages
 * found once the buffers are touched; the verdict's placement_off, the
 * summary.md line and memory_node_choice with its placement. */
int mess_split_choose(struct mess_measured *r);
void mess_split_count(struct mess_measured *r);
void mess_split_judge(const struct mess_measured *r, struct mess_verdict *v);
void mess_split_md(FILE *f, const struct mess_measured *r);
json_t *mess_split_json(const struct mess_measured *r);

/* each.c: --mem-node each: one family per memory kind, compared. */
int mess_curves_each(struct mess_measured *r, int argc, char **argv);

/* llc.c: LLC_LATENCY_NS, on the pinned chase core before any traffic
 * (nothing but why with --no-ladder); meta.json llc_latency; the
 * LLC_LATENCY_NS line of an export's info.txt into buf. */
void mess_run_llc_latency(struct mess_measured *r);
json_t *mess_run_llc_json(const struct mess_measured *r);
void mess_run_llc_kv(const struct mess_measured *r, char *buf, size_t len);

/* counted.c: --counters */
int mess_run_counters_open(struct mess_measured *r);
void mess_run_corectr_open(struct mess_measured *r);
void mess_run_counters_close(struct mess_measured *r);
json_t *mess_run_counters_json(const struct mess_measured *r,
			       const struct mess_family *fam);
void mess_run_counters_md(FILE *f, const struct mess_measured *r,
			  const struct mess_family *fam);

#endif
