/* SPDX-License-Identifier: MIT */
/*
 * Every point's latency distribution (issue 25): after the point's mean
 * windows, at the same load (the generators keep running), the timed chase
 * (kernels/asm/<isa>/chase_timed.S) bins each batch of n loads in a
 * log-linear histogram (mess/hist.h); the quantiles, the mean's agreement
 * with the point's chase mean and each generator core's share of the
 * bandwidth over that window go into the point, its histogram into
 * latency_hist.csv.  The unloaded distribution is measured once, and its
 * secondary modes reported.
 */
#ifndef MESS_TAIL_H
#define MESS_TAIL_H

#include <stdint.h>
#include <stdio.h>

#include "core/measure/hoststate.h"
#include "core/measure/timer.h"
#include "core/tail/window.h"
#include "mess/curve.h"
#include "mess/hist.h"
#include "mess/json.h"
#include "mess/quality.h"

/* A window of the timed chase per point: this share of one repeat's
 * --chase-ms (the point has at least three repeats and a settle: < 17 %
 * more time a point). */
#define MESS_TAIL_WINDOW_SHARE 0.5
/* The unloaded distribution: this many repeats' worth. */
#define MESS_TAIL_UNLOADED_WINDOWS 4
/* Jain's index under this at a saturated point flags the mix. */
#define MESS_FAIR_JAIN_MIN 0.95
/* Secondary modes kept, and the offsets "consistent with DRAM refresh"
 * (tRFC of DDR4/DDR5 8-32 Gb dies; a report, never a cause). */
#define MESS_TAIL_MAX_MODES 4
#define MESS_REFRESH_LO_NS 250
#define MESS_REFRESH_HI_NS 450

/* One row of latency_hist.csv (mix -1: the unloaded distribution). */
struct mess_tail_row {
	int mix;
	uint64_t nop;
	double lo_ns, hi_ns;
	uint64_t count;
};

struct mess_tail {
	int ok;			/* timer and fixed cost measured */
	char why[160];		/* else why not */
	struct mess_timer timer;
	uint64_t n;		/* loads per timed batch */
	double l1_ns;		/* untimed chase, per load, L1-resident chain */
	double l1_batch_ticks;	/* timed chase, per batch, same chain */
	double overhead_ticks;	/* the fixed cost per batch, subtracted */
	unsigned l1_lines;
	/* the probes' chains and every cost and L2 latency they measured */
	struct mess_hoststate hs;
	double l2_start_ns;	/* the L2 chain's latency at the start */
	/* the reference the last window was judged by, and the bound of
	 * its L2 cluster (MESS_TAIL_L2_BOUND times it), ns a load */
	double l2_ref_ns, l2_bound_ns;
	/* every window's L2 share (%), for the median a window is judged
	 * by; the cluster's positions where it had one */
	double *shares, *l2_at;
	size_t nshares, capshares, nl2_at, capl2_at;
	/* the kept windows' own fixed costs (window.h), ns a batch */
	double *own;
	size_t nown, capown;
	unsigned state_changed;	/* windows kept across a state change */
	/* the windows measured again: how many, kept disturbed at the
	 * bound, and each reason's count (MESS_TAIL_DIST_* bit order) */
	unsigned win_disturbed, win_kept_disturbed, why_count[MESS_TAIL_NWHY];
	int persists;		/* the last window was kept disturbed */
	double window_ms;
	struct mess_hist *h;	/* the window's */
	/* the unloaded distribution, in ns per load (modes: per batch) */
	struct mess_hist_summary idle;
	double idle_chase_ns, idle_diff_pct;
	unsigned idle_attempts;
	double idle_lost_pct;	/* the kept window's; NAN unknown */
	double idle_cost_ns;	/* its fixed cost, ns a batch */
	uint64_t idle_preempted;
	unsigned idle_why;	/* MESS_TAIL_DIST_* of the kept window */
	double idle_l2_share, idle_l2_ns;	/* its L2 cluster */
	size_t idle_pairs;
	struct mess_hist_mode modes[MESS_TAIL_MAX_MODES];
	size_t nmodes;
	double main_mode_ns;
	/* cost */
	double extra_ns;	/* spent in the points' distribution windows */
	double point_ns;	/* spent in those points, windows included */
	unsigned windows;
	double setup_ns;	/* timer, fixed cost, unloaded distribution */
	double plot_ns;		/* plots/tails.* */
	/* latency_hist.csv, kept whole so a point measured again replaces
	 * its rows */
	struct mess_tail_row *rows;
	size_t nrows, caprows;
	char plot_note[400];	/* plots/tails.*, or why not */
};

struct mess_measured;
struct mess_results;
struct mess_gen_kernel;

/* Open the timer, choose n from the unloaded latency, measure the fixed
 * cost, then the unloaded distribution (generators idle).  A failure
 * leaves tail.ok 0 and the reason in tail.why: the run goes on. */
void mess_tail_open(struct mess_measured *r);
/* The distribution window of point p, at the load it was measured at,
 * and latency_hist.csv rewritten with it: 0 or -errno (the file could not
 * be written: the run stops, p is not recorded). */
int mess_tail_point(struct mess_measured *r, struct mess_point *p);
void mess_tail_free(struct mess_tail *t);

/* tail_report.c */
int mess_tail_write_csv(struct mess_measured *r);
/* --resume (the backend's hook): the rows of earlier sessions' points in
 * dir.  0; -EINVAL when the file is not latency_hist.csv as written (said
 * in one line naming it and the line, nothing changed); other -errno. */
int mess_tail_load_csv(void *bs, const char *dir);
/* Replace the rows of (mix, nop) by h's non-empty bins, in ns a load. */
int mess_tail_set_rows(struct mess_tail *t, int mix, uint64_t nop,
		       const struct mess_hist *h);
json_t *mess_tail_json(const struct mess_measured *r,
		       const struct mess_family *fam);
void mess_tail_md(FILE *f, const struct mess_measured *r,
		  const struct mess_results *res);
/* tail_plot.c: plots/tails.png and .svg; plot_note says what happened. */
void mess_tail_plot(struct mess_measured *r, const struct mess_family *fam,
		    const char *title);

#endif
