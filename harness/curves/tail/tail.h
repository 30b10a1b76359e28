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
/* A batch at least this many of the timer's steps long at the unloaded
 * latency (a step at most 1/8 of it); more loads a batch where the timer
 * is coarser. */
#define MESS_TAIL_MIN_STEPS 8
/*
 * Every distribution window (the unloaded one and each point's) has the
 * timer's fixed cost measured just before and just after it on the
 * L1-resident chain (core/measure/hoststate.h: about 0.1 ms each side) and
 * subtracts their
 * mean: the cost moves with the host's state (issue 32: 27 ns and 33-42 ns
 * on one guest, flipping every 0.1 s to seconds), so a cost from another
 * moment is off by that much a batch.  The window is disturbed, and
 * measured again, when the two differ by more than MESS_TAIL_COST_PAIR_NS
 * (the state changed during it), or their mean lies more than
 * MESS_TAIL_COST_MOVE_PCT from the run's median cost (the whole window in
 * another state than the run's usual one: on the AMD Zen 5 guest, at a load
 * average of 5 on 2 vCPUs, a run's costs lay within 0.7 ns (4 %) from
 * their 10th to their 90th percentile and within 1.1 ns (6 %) in all,
 * while issue 32's state flip moves them by 20-55 %).
 */
#define MESS_TAIL_COST_PAIR_NS MESS_HOSTSTATE_COST_APART_NS
#define MESS_TAIL_COST_MOVE_PCT 10.0
/*
 * The host's state, from the window's own data and a probe beside it
 * (issue 32 item 4).  The window's L2 cluster: its batches whose latency a
 * load, the cost off, lies under MESS_TAIL_L2_BOUND times the run's L2
 * latency (the L2 chain of core/measure/hoststate.h, measured at the start): their
 * share, and where they sit (their mean, with at least
 * MESS_TAIL_L2_MIN_BATCHES of them; a batch of several loads has no L2
 * hit of its own to see, so only with one load a batch).  The state
 * changed during the window when the cluster sits more than
 * MESS_TAIL_STATE_NS from the run's L2 reference (mess_hoststate_l2_ref),
 * when the L2 probes just before and after it lie that far apart, or both
 * that far above the reference, or when its share jumped from the median
 * share of the windows before: by more than
 * MESS_TAIL_SHARE_JUMP_PP percentage points and MESS_TAIL_SHARE_JUMP_X
 * times (one Xeon guest: 2-4.5 % of loads in one state, 0.1 % in the
 * other; a 2 MiB window's 0.01-0.02 % is no jump).
 */
#define MESS_TAIL_L2_BOUND 3.0
#define MESS_TAIL_L2_MIN_BATCHES 32
#define MESS_TAIL_STATE_NS MESS_HOSTSTATE_L2_APART_NS
#define MESS_TAIL_SHARE_JUMP_PP 0.5
#define MESS_TAIL_SHARE_JUMP_X 3.0
/* The verdict warns when more than this share of the windows were kept
 * across a change of state (curves/verdict/quality.c). */
#define MESS_TAIL_STATE_WARN_SHARE 0.10
/* A window measured again while disturbed, up to this many attempts
 * (one when the last window had to be kept disturbed: a state that stays
 * is not waited out window by window). */
#define MESS_TAIL_ATTEMPTS 3
/*
 * Paired means: a window is untimed and timed sub-windows in turn,
 * U T U ... T U, the timed ones MESS_TAIL_SUB_MS long and the untimed half
 * that (the plain chase: its mean converges in far fewer loads than a
 * quantile); each timed sub-window's mean against the mean of the two
 * untimed ones beside it, so both see the same moment, and the window's
 * mean_diff_pct the median of those pairs (a pair that straddles a state
 * flip, or a preemption in an untimed half, which nothing sees, is a
 * minority the median ignores).  At most MESS_TAIL_MAX_SUBS timed ones.
 */
#define MESS_TAIL_SUB_MS 1.0
#define MESS_TAIL_MAX_SUBS 256
/*
 * Preemptions: a batch longer than MESS_TAIL_CUT_NS, or than
 * MESS_TAIL_CUT_MEDIANS times its sub-window's median batch when that is
 * longer (many loads a batch on a coarse timer, or a memory loaded to
 * several µs a load), is no load's latency but time the chase thread was
 * not running (a scheduler slice, a vCPU descheduled by the host: 0.1 to
 * several ms; under saturation a load's queueing stays under about 2 µs):
 * it is left out of the mean and the quantiles and counted.  An interrupt
 * (1-5 µs) stays in: it is part of the machine's tail.  A window whose cut
 * batches hold more than MESS_LOST_MAX_PCT of its timed time is disturbed,
 * the bound on the time a measuring thread may lose in any window (a share
 * of batches would be no bound: 1 % of 140 ns batches cut at 20 µs is
 * longer than the window).
 */
#define MESS_TAIL_CUT_NS 20000.0
#define MESS_TAIL_CUT_MEDIANS 100.0
/* Why a window was disturbed (bits). */
#define MESS_TAIL_DIST_COSTS 1		/* the two costs beside it differ */
#define MESS_TAIL_DIST_MOVED 2		/* its cost moved from the run's median */
#define MESS_TAIL_DIST_PREEMPTED 4	/* cut batches over the bound */
#define MESS_TAIL_DIST_LOST 8		/* the chase thread lost time */
#define MESS_TAIL_DIST_STATE 16		/* the host's state changed */
/* its paired difference beyond MESS_Q_DIST_DIFF_PCT: the flag
 * dist_disagrees judges a point after its window's repeats (issue 32 item
 * 6), and with 5 pairs a --quick window's median is noisy (on the AMD
 * guest, quiet: -0.8 % median over loaded points, -3.3 to +1.7 % from the
 * 10th to the 90th percentile) */
#define MESS_TAIL_DIST_DIFF 32
#define MESS_TAIL_NWHY 6
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

struct mess_run;
struct mess_gen_kernel;

/* Open the timer, choose n from the unloaded latency, measure the fixed
 * cost, then the unloaded distribution (generators idle).  A failure
 * leaves tail.ok 0 and the reason in tail.why: the run goes on. */
void mess_tail_open(struct mess_run *r);
/* The distribution window of point p, at the load it was measured at,
 * and latency_hist.csv rewritten with it: 0 or -errno (the file could not
 * be written: the run stops, p is not recorded). */
int mess_tail_point(struct mess_run *r, struct mess_point *p);
void mess_tail_free(struct mess_tail *t);

/* tail_report.c */
int mess_tail_write_csv(struct mess_run *r);
/* --resume: the rows of earlier sessions' points.  0; -EINVAL when the
 * file is not latency_hist.csv as written (said in one line naming it and
 * the line, nothing changed); other -errno. */
int mess_tail_load_csv(struct mess_run *r);
/* Replace the rows of (mix, nop) by h's non-empty bins, in ns a load. */
int mess_tail_set_rows(struct mess_tail *t, int mix, uint64_t nop,
		       const struct mess_hist *h);
json_t *mess_tail_json(const struct mess_run *r);

/* tail_stats.c: the window's arithmetic.
 * The window's cost, the mean of the two beside it, into *cost_ns; 0, or
 * the MESS_TAIL_DIST_COSTS / _MOVED bits (median_ns NAN: no median yet). */
unsigned mess_tail_cost_check(double before_ns, double after_ns,
			      double median_ns, double *cost_ns);
/* The preemption cut of a sub-window's histogram h, in ticks. */
double mess_tail_cut_ticks(const struct mess_hist *h, double tick_ns);
/* h's bins under cut_ticks added to kept, kept's sum by h's less the cut
 * batches' (their bins' midpoints); the cut batches' count returned and
 * their estimated ticks added to *cut_sum (may be NULL). */
uint64_t mess_tail_cut(struct mess_hist *kept, const struct mess_hist *h,
		       double cut_ticks, double *cut_sum);
/* The median over the k timed sub-windows of (timed_ns[i] - u) / u in %,
 * u the mean of untimed_ns[i] and untimed_ns[i + 1] (k + 1 of them); a
 * timed NAN is no pair; NAN when none is. */
double mess_tail_paired_diff(const double *timed_ns, const double *untimed_ns,
			     size_t k);
/* h's L2 cluster (tail.h: the host's state): *share_pct the share of its
 * batches whose latency a load ((ticks x tick_ns - cost_ns) / n, at the
 * bin's midpoint) lies under bound_ns, *at_ns their mean (NAN under
 * MESS_TAIL_L2_MIN_BATCHES of them, or n > 1: *share_pct NAN too). */
void mess_tail_l2_cluster(const struct mess_hist *h, double tick_ns,
			  double cost_ns, uint64_t n, double bound_ns,
			  double *share_pct, double *at_ns);
/* MESS_TAIL_DIST_STATE or 0: the cluster at at_ns more than
 * MESS_TAIL_STATE_NS from ref_ns, the probes before_ns and after_ns that
 * far apart or both that far above ref_ns, or share_pct jumped from
 * median_share_pct; NAN figures are not judged. */
unsigned mess_tail_state_check(double ref_ns, double at_ns, double before_ns,
			       double after_ns, double share_pct,
			       double median_share_pct);
void mess_tail_md(FILE *f, const struct mess_run *r);
/* tail_plot.c: plots/tails.png and .svg; plot_note says what happened. */
void mess_tail_plot(struct mess_run *r, const char *title);

#endif
