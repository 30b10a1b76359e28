/* SPDX-License-Identifier: MIT */
/*
 * One distribution window of the timed dependent-load chase
 * (kernels/asm/<isa>/chase_timed.S): untimed and timed sub-windows in
 * turn, each timed batch of n loads binned in a log-linear histogram
 * (mess/hist.h), the timer's fixed cost measured on either side and the
 * host's state judged (core/measure/hoststate.h), the preemptions cut, and
 * why the window was disturbed.  The rules and the arithmetic (tail_stats.c,
 * known answers in tests/unit/model/test_tail_stats.c) are one for every
 * user: the curves' latency distributions (curves/tail/) and the victim of
 * mess interfere.
 */
#ifndef MESS_CORE_TAIL_WINDOW_H
#define MESS_CORE_TAIL_WINDOW_H

#include <stddef.h>
#include <stdint.h>

#include "core/measure/disturb.h"
#include "core/measure/hoststate.h"
#include "core/measure/timer.h"
#include "mess/hist.h"

/* A batch at least this many of the timer's steps long at the unloaded
 * latency (a step at most 1/8 of it); more loads a batch where the timer
 * is coarser. */
#define MESS_TAIL_MIN_STEPS 8
/*
 * The timer's fixed cost, the window's own (issue 32 item 1): each timed
 * sub-window is MESS_TAIL_CHUNKS chunks of its batches, each followed by a
 * burst of MESS_TAIL_BURST batches on the L1-resident chain of
 * core/measure/hoststate.h (after one untimed pass that brings the chain
 * back: the DRAM chase evicts it); the cost a batch is the bursts' mean
 * ticks a batch (preemptions cut) less n times the L1 chain's latency (a
 * few cycles, measured by the probes).  The bursts see the same moments as
 * the batches, about 0.1 ms apart, so a cost that moves with the host's
 * state is followed: on an Intel Xeon guest (Emerald Rapids, 16 vCPUs) the
 * cost measured just before and after each window ranged 30-66 ns within
 * a run (p10 33, p90 45), its two sides more than 1 ns apart at 30 of 87,
 * and subtracting their mean left the unloaded timed mean -7 to +5 % from
 * the untimed chase (issue 32: 27 ns and 33-42 ns on another, flipping
 * every 0.1 s to seconds).  A cost from batches of 1 and 2 DRAM loads
 * (2 m1 - m2) follows the state too but is noisy: on the AMD Zen 5 guest
 * its windows' costs spread 13.6-19.7 ns (p10-p90) against 17.8-18.6 ns
 * for the L1's.  The probes beside the window are kept as the state's
 * evidence (meta.json windows_check.fixed_costs) and as the cost of a
 * window that has none of its own (MESS_TAIL_DIST_COSTS: measured again).
 */
#define MESS_TAIL_CHUNKS 8
#define MESS_TAIL_BURST 128
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
#define MESS_TAIL_DIST_COSTS 1		/* no fixed cost of its own */
/* 2 is no longer given: it was "the probes' cost moved from the run's
 * median", a rule the window's own cost made needless; the bits keep their
 * numbers for the counts in meta.json. */
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

#define MESS_TAIL_NHIST 4

/* What one window found besides its histogram. */
struct mess_tail_win {
	double cost_ns;		/* its fixed cost, ns a batch (its own) */
	double probes_ns;	/* the mean of the L1 probes' beside it */
	double diff_pct;	/* the paired timed-untimed difference */
	double lost_pct;	/* the chase thread's; NAN unknown */
	uint64_t preempted;	/* batches cut */
	size_t pairs;
	double l2_share, l2_ns;	/* its L2 cluster */
	unsigned why;		/* MESS_TAIL_DIST_* */
	unsigned attempts;	/* the caller's count, kept */
	/* the L2 reference it was judged by, and its cluster's bound */
	double l2_ref_ns, l2_bound_ns;
};

/* What a window runs on: the chase's chain, the timer and probes. */
struct mess_tail_win_in {
	void **chase_p;		/* where the chase continues from */
	double tick_ns;		/* the timer's */
	uint64_t n;		/* loads a timed batch */
	struct mess_hoststate *hs;
	/* the earlier windows' L2 shares, the median a window is judged by */
	const double *shares;
	size_t nshares;
	/* MESS_TAIL_NHIST: the window's batches under their cut, a scratch,
	 * its L1 bursts' batches under theirs, a scratch */
	struct mess_hist *h;
	struct mess_disturb *dist;	/* its first thread the chase's; NULL none */
};

/* Loads a timed batch: MESS_TAIL_MIN_STEPS of the timer's steps at the
 * unloaded latency lat_ns (1 where the timer is fine enough or lat_ns is
 * not known). */
uint64_t mess_tail_batch_loads(const struct mess_timer *t, double lat_ns);
/* About ms of the window at about lat_ns a load (sizes its batches), and
 * its L1 bursts (about 5 % more): in->h[0] gets the timed sub-windows'
 * batches under their cut, w the rest.  Stops early when mess_interrupted. */
void mess_tail_window(const struct mess_tail_win_in *in, double ms,
		      double lat_ns, struct mess_tail_win *w);

/* tail_stats.c: the window's arithmetic.
 * The window's own fixed cost a batch, ns, into *cost_ns: its L1 bursts'
 * mean ticks a batch of n loads times tick_ns, less n times the L1 chain's
 * latency l1_ns; 0.  Where that is no cost (not finite, or below 0),
 * probes_ns (the probes' beside the window) and MESS_TAIL_DIST_COSTS. */
unsigned mess_tail_cost_own(double l1_batch_ticks, uint64_t n, double l1_ns,
			    double tick_ns, double probes_ns, double *cost_ns);
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
/* h's L2 cluster (above: the host's state): *share_pct the share of its
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

#endif
