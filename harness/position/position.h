/* SPDX-License-Identifier: MIT */
/*
 * `mess position`: an application's traffic, interval by interval, placed
 * on a curve family.  cmd.c reads and places, report.c writes the files.
 */
#ifndef MESS_POSITION_H
#define MESS_POSITION_H

#include <limits.h>

#include "mess/curve.h"
#include "mess/json.h"
#include "mess/load.h"
#include "mess/model.h"
#include "mess/trace.h"

/* Where an interval sits on the family (results/README.md says how). */
enum pos_region {
	POS_LOW,		/* below half the maximum bandwidth */
	POS_RISING,		/* from there to the saturation point */
	POS_SATURATED,		/* at or past it */
	POS_UNKNOWN,		/* above half the maximum, no saturation point */
	POS_UNMEASURED,		/* the counters did not count */
	POS_NREGIONS,
};

struct pos_row {
	double bw_gbs, read_pct;	/* NAN read share: no traffic */
	double lat_ns;			/* the model's, NAN when not asked */
	int lat_src;			/* MESS_SRC_* or -1 */
	double max_bw_gbs, sat_bw_gbs;	/* at the read share; NAN unknown */
	double score;			/* stress score, NAN undefined */
	double score_curve_pct;		/* read share of the curve it used */
	int beyond_max;			/* bw_gbs above max_bw_gbs: impossible
					 * on the measured memory, its latency
					 * extrapolated */
	enum pos_region region;
};

struct position {
	char trace_path[PATH_MAX], run_path[PATH_MAX];
	double bytes_per_count;
	const char *read_re, *write_re;	/* as given, or "default" */
	struct mess_trace tr;
	struct mess_family fam;
	struct mess_set_info info;
	struct mess_model *m;
	double fam_max_gbs;		/* the family's highest bandwidth */
	size_t beyond;			/* intervals with beyond_max */
	double unloaded_ns;		/* the model's, NAN none */
	double ghz;			/* the score's cycles per ns, NAN: ns */
	const char *ghz_source;
	struct pos_row *rows;		/* one per tr.iv */
};

/* position.csv, position.md and summary.json in dir: 0 or -errno. */
int pos_write(const struct position *p, const char *dir);
/* The curves' verdict this run inherits, for summary.json and meta.json:
 * its level, its first reason, where it was read and what it means. */
json_t *pos_verdict_json(const struct position *p);
/* What the inherited verdict means for the positions, in words: "" for
 * PASS and none. */
const char *pos_verdict_means(const struct position *p);
/* plots/position.png and .svg; 0 or -errno with err saying why. */
int pos_plot(const struct position *p, const char *dir, char *err,
	     size_t errlen);

#endif
