/* SPDX-License-Identifier: MIT */
/*
 * Noise absorption (Delval et al., "Noise Injection for Performance
 * Bottleneck Analysis", sections 2-4): a kernel's inner loop gets k noise
 * instructions per iteration and its time per iteration t(k) is flat up to
 * k1 (the noise fills idle resources), goes through a transient and grows
 * linearly (slope s per noise instruction) from k2 on.  k1, the absorption,
 * is the largest k whose slowdown stays within the noise threshold
 *
 *	thr = max(rel_min * t0, n_sigma * sigma0)
 *
 * with t0 and sigma0 the median and spread of the baseline (k = 0).  A
 * point is "slow" when t(k) - t0 > thr.
 *
 * Whether a point is slow is decided with stated confidence
 * (mess_absorb_seq): its pairs of runs (k = 0, then k) are measured until
 * the confidence interval of their ratio lies on one side of 1 + thr / t0,
 * or a maximum number of pairs; k1 then comes with a bracket [k1_lo,
 * k1_hi] of points decided either way (mess_absorb_bracket).  A point
 * faster than the baseline has not degraded: it is absorbed, and the
 * speed-up recorded.
 *
 * Pure functions (no I/O, no allocation visible to the caller):
 *  - mess_absorb_next() chooses the next k to measure: baseline, then k =
 *    1, 2, 4, ... up to the first slow k, bisection of (largest fast k,
 *    smallest slow k) down to the precision (confident verdicts; with
 *    doubtful points between, the wider gap between them and an end), then doubling past k1 until
 *    saturation is established or kmax is reached;
 *  - mess_absorb_fit() fits the three-phase model to the points.
 */
#ifndef MESS_ABSORB_H
#define MESS_ABSORB_H

#include <stddef.h>

/* One measured noise level.  One point per k. */
struct mess_absorb_point {
	unsigned k;		/* noise instructions per iteration */
	double t;		/* median time per iteration, > 0 */
	double sigma;		/* spread of the repeats, >= 0 */
	unsigned repeats;	/* for the caller's records only */
	/* Confidence interval of t (mess_absorb_seq, scaled by t0); lo = hi
	 * = 0: none, t is taken at its value (decided either way). */
	double lo, hi;
};

/* Defaults in brackets. */
struct mess_absorb_cfg {
	unsigned kmax;		/* largest k to measure, >= 1 */
	double rel_min;		/* threshold floor, x t0 (0.01) */
	double n_sigma;		/* threshold, x sigma0 (3) */
	unsigned prec_div;	/* bracket k1 to max(1, k1 / this) (32) */
	double slope_tol;	/* saturation: slopes agree within (0.1) */
	double r2_min;		/* fit: R^2 below is not linear (0.9) */
	unsigned min_pairs;	/* sequential test: pairs at least (4) */
	unsigned max_pairs;	/* ... and at most (15, MESS_ABSORB_MAX_PAIRS) */
	double tol_rel;		/* ok: bracket within max(1, this x k1) (0.12) */
	/* mess_absorb_step: a doubtful point next to the knee taken on to
	 * ext_pairs (40; at most max_pairs: never), ext_entry pairs past
	 * max_pairs per search at most (50) */
	unsigned ext_pairs, ext_entry;
	/* Disturbed pairs a point measures again: redo (0: min_pairs);
	 * past the smallest slow k, redo_far (1) */
	unsigned redo, redo_far;
	/* The test's indifference zone, x thr (0.5, in [0, 1)): a point is
	 * slow when its median is above the line and its interval above
	 * line - zone x thr, fast when its median is not and its interval
	 * is below line + zone x thr.  Without one (0) a point whose
	 * slowdown sits on the line is never decided: on a 2-core Xeon
	 * guest (session 17) stream and haccmk under fp_add64 and
	 * int64_add sat at +1.8 to +2.2 % from k = 1 to 3, and the entries
	 * stayed wide in one run of three. */
	double zone;
};

enum mess_absorb_status {
	MESS_ABSORB_OK,		/* k1 bracketed within max(1, tol_rel x k1) */
	MESS_ABSORB_NONE,	/* k = 1 confidently slow: k1 = 0 */
	MESS_ABSORB_WIDE,	/* the bracket is wider: see k1_lo, k1_hi */
	MESS_ABSORB_UNCLEAR,	/* no k > 0 decided either way */
};

/* What the points past k1 look like (the paper asks only that they grow
 * "linearly, or at least in a consistent way"): reported beside k1, never
 * deciding it. */
enum mess_absorb_shape {
	MESS_ABSORB_SHAPE_NONE,		/* no fit, or points not rising */
	MESS_ABSORB_SHAPE_LINEAR,	/* the three-phase model holds */
	MESS_ABSORB_SHAPE_SUBLINEAR,	/* rising, not on a line (saturation) */
};

/* A point's verdict in the sequential test. */
enum mess_absorb_verdict {
	MESS_ABSORB_MORE,	/* undecided: measure another pair */
	MESS_ABSORB_FAST,	/* confidently not slow (speed-ups included) */
	MESS_ABSORB_SLOW,	/* confidently slow */
	MESS_ABSORB_DOUBTFUL,	/* undecided after max_pairs */
};

struct mess_absorb_result {
	enum mess_absorb_status status;
	const char *why;	/* WIDE, UNCLEAR: why, else NULL */
	unsigned k1;		/* threshold rule (see mess_absorb_bracket) */
	int k1_lower_bound;	/* nothing confidently slow: k1 >= that */
	unsigned k1_lo;		/* largest k confidently not slow below k1_hi */
	unsigned k1_hi;		/* smallest k confidently slow; 0: none */
	unsigned doubtful;	/* points decided neither way */
	/* The greatest confident speed-up up to k1: (t0 - t) / t0 at k; k =
	 * 0 and NAN when none. */
	unsigned speedup_k;
	double speedup;
	enum mess_absorb_shape shape;
	const char *shape_why;	/* not LINEAR: the line check that failed */
	unsigned prec;		/* k1 + prec is the first slow k */
	double base;		/* t0, median at k = 0 */
	double thr;		/* noise threshold, unit of t */
	/* The fitted model; k1_fit = k2 = 0 and NAN when no fit was made. */
	unsigned k1_fit;	/* fitted end of the flat phase */
	unsigned k2;		/* fitted start of the linear phase */
	double flat;		/* fitted flat level */
	double a, slope;	/* t = a + slope * k for k >= k2 */
	double r2;		/* of the whole model over all points */
	/* Cost: runs = points measured; runs_linear = points a sweep
	 * 0, prec, 2 prec, ... needs to reach the largest k measured. */
	unsigned runs, runs_linear;
};

/* Defaults: rel_min 0.01, n_sigma 3, prec_div 32, slope_tol 0.1, r2_min
 * 0.9, pairs 4 to 15, tol_rel 0.12, ext_pairs 40, ext_entry 50, redo 0
 * (min_pairs), redo_far 1. */
void mess_absorb_cfg_default(struct mess_absorb_cfg *cfg, unsigned kmax);

/*
 * The next k to measure given the n points so far (any order, n may be 0).
 * Returns 1 with *k set (never a k already measured, never above kmax), 0
 * when the search is done, -EINVAL on a bad cfg or point (t <= 0 or not
 * finite, sigma < 0, the same k twice).
 *
 * Done means one of: k1 bracketed to the precision and the last three
 * points past k1, each at least 1.5x the one before, are slow and lie on
 * a rising line (their two slopes agree within slope_tol) with a rise
 * beyond thr; the largest k measured is kmax; nothing slow up to kmax (k1
 * is then only a lower bound).  No local test tells a straight transient
 * from the line: one spanning 4x past the first slow k ends the search
 * early and the fit takes it for the line.
 */
int mess_absorb_next(const struct mess_absorb_point *pts, size_t n,
		     const struct mess_absorb_cfg *cfg, unsigned *k);

/* What a search measures next (mess_absorb_step). */
struct mess_absorb_todo {
	unsigned k;
	int further;		/* k is measured: take its pairs on, keeping them */
	unsigned pairs;		/* the point's pairs at most, all told */
	unsigned redo;		/* disturbed pairs it measures again at most */
};

/*
 * mess_absorb_next's k with max_pairs pairs, or, once the bisection has
 * nothing left inside k1's bracket (it is done, or doubles past k1) and
 * the bracket is wide, a doubtful point inside it taken further (further
 * 1), 5 pairs at a time up to ext_pairs: of the points whose decision,
 * at the side of the threshold its median lies, would make the status ok
 * (else the first of two that would together, else one that leaves the
 * bisection a k to place inside the bracket), the one the fewest pairs
 * should decide (its pairs x (interval half-width / its median's distance
 * to the line)^2), none whose estimate exceeds ext_pairs; the search's
 * pairs past max_pairs bounded by ext_entry.  A point is decided only by
 * the sequential test: one still doubtful at ext_pairs stays doubtful and
 * the bracket wide.  Points past the smallest slow k cannot move k1: they
 * measure redo_far disturbed pairs again, not redo.  1 with *t set, 0
 * when the search is done, -EINVAL as mess_absorb_next, -ENOMEM.
 */
int mess_absorb_step(const struct mess_absorb_point *pts, size_t n,
		     const struct mess_absorb_cfg *cfg,
		     struct mess_absorb_todo *t);

/*
 * Fit the three-phase model: flat level up to k1_fit, straight transient
 * to the line t = a + slope * k from k2 on, the breakpoints chosen by least
 * squares over the measured ks (then refined over integers between their
 * neighbours), with at least three points on the line.
 *
 * k1, its bracket and the status: mess_absorb_bracket; the fit never
 * decides them.  Nothing confidently slow: k1 a lower bound, prec =
 * max(1, k1 / prec_div) (the sweep step runs_linear assumes), no line
 * (k2 = 0, slope NAN), shape NONE.
 *
 * The shape: LINEAR when the model passes every check; shape_why names
 * the first that failed: fewer than three points past k1; slope <= 0;
 * R^2 < r2_min; a point past both k1 and k2 within thr of t0 (not
 * monotonic); a point from k2 on off the line by more than max(thr,
 * rel_min * t, n_sigma * sigma); the line rising by no more than thr from
 * k2 to the largest k.  SUBLINEAR when a line check failed but the points
 * past k1 still rise: the largest k is slower than the first point past
 * k1 by more than thr, and the fitted slope is positive.  NONE otherwise.
 *
 * Needs the baseline (k = 0); with nothing else, k1 = 0 as a lower bound.
 * 0, -EINVAL (n == 0, no baseline, NULL out, bad point or cfg as for
 * mess_absorb_next) or -ENOMEM.
 */
int mess_absorb_fit(const struct mess_absorb_point *pts, size_t n,
		    const struct mess_absorb_cfg *cfg,
		    struct mess_absorb_result *out);

/*
 * A table's trust (its verdict, mess/quality.h): its searches by k1
 * status and its pairs of runs by disturbance.
 */
struct mess_absorb_tally {
	unsigned entries;	/* searches done (row x mode x table) */
	unsigned status[MESS_ABSORB_UNCLEAR + 1];	/* of them, per status */
	unsigned long pairs;	/* pairs run: counted, and measured again */
	unsigned long disturbed, redone, kept;	/* found disturbed, measured
						 * again, kept at the bound */
};

/* A table is INVALID when more than this share of its entries have a k1
 * status of wide or unclear: it then says more about the host's noise than
 * about the kernels. */
#define MESS_ABSORB_DOUBTFUL_INVALID 0.5

struct mess_verdict;
/*
 * The table's reasons, added to v: `k1_doubtful` when entries are wide or
 * unclear (WARN; INVALID past MESS_ABSORB_DOUBTFUL_INVALID of them), with
 * which (doubtful: "row mode, ..." or NULL); `disturbed` (WARN) when
 * disturbed pairs were kept, with their share; `disturbed_replaced` (a
 * note) when every disturbed pair was measured again.
 */
void mess_absorb_table_verdict(const struct mess_absorb_tally *t,
			       const char *doubtful, struct mess_verdict *v);

/* "ok", "none", "wide", "unclear" ("?" for anything else). */
const char *mess_absorb_status_name(enum mess_absorb_status s);
/* "none", "linear", "sublinear" ("?" for anything else). */
const char *mess_absorb_shape_name(enum mess_absorb_shape s);
/* "more", "fast", "slow", "doubtful" ("?" for anything else). */
const char *mess_absorb_verdict_name(enum mess_absorb_verdict v);

/* The noise threshold of a baseline point: max(rel_min t, n_sigma sigma). */
double mess_absorb_threshold(const struct mess_absorb_cfg *cfg,
			     const struct mess_absorb_point *base);

/* The confidence of the interval of mess_absorb_seq, two-sided. */
#define MESS_ABSORB_CONF 0.95

/* One point's sequential test, after each pair. */
struct mess_absorb_seq {
	double ratio;		/* median of the pairs' ratios t(k) / t(0)
				 * (mess_absorb_pair_ratio) */
	double lo, hi;		/* its 95 % confidence interval */
	double scale;		/* the spread used: max(own, floor) */
	enum mess_absorb_verdict verdict;
};

/*
 * The n ratios q (each pair's t(k) / t(0)) of a point against the slow
 * line 1 + thr_rel: the median, and the interval median +- t(n-1) x
 * 1.2533 x s / sqrt(n), t the Student quantile of MESS_ABSORB_CONF,
 * 1.2533 the median's standard error over the mean's, s the larger of the
 * ratios' robust spread (1.4826 MAD) and floor_rel (the baseline's: a few
 * ratios that agree by chance do not make a narrow interval).  With
 * line = 1 + thr_rel and z = cfg zone x thr_rel: SLOW when the median is
 * above the line and lo > line - z, FAST when it is not and
 * hi <= line + z (from min_pairs pairs on), else MORE below max_pairs
 * and DOUBTFUL at it: a slowdown within z of the line may be called
 * either way, one outside it wrongly at most 2.5 % of the time per look.
 * The confidence is per look, not corrected for the repeated looks.
 * Median and MAD stand one disturbed pair in a few.
 * 0, or -EINVAL (NULL, n < 1, q not finite or <= 0, bad cfg, floor_rel or
 * thr_rel negative or not finite).
 */
int mess_absorb_seq(const double *q, size_t n, double floor_rel,
		    double thr_rel, const struct mess_absorb_cfg *cfg,
		    struct mess_absorb_seq *out);

/*
 * One pair's ratio t(k) / t(0) from its ns slices run as sub-pairs
 * (x[i] at k = 0 and y[i] at k, run back to back): the median of the ns
 * sub-pairs' ratios y[i] / x[i], not the ratio of the sums.  A slice that
 * the host hit (12.5 ms of a 100 ms run) moves one sub-ratio, where it
 * moved the sums' ratio by its whole cost: on a 2-core Xeon guest
 * (session 17, stream and haccmk, 420 pairs near the line) the pairs'
 * ratios spread 1.56 % about their points' medians against 2.14 % for the
 * sums', and their largest tenth of deviations began at 4.5 % against
 * 12.7 %, at no systematic difference in the points' medians (most
 * moved within +-1.2 %, both ways; the most, 4.7 %, a point whose pairs
 * had slices hit).  NAN if ns is 0 or over MESS_ABSORB_MAX_SLICES or
 * a time is not finite and > 0.
 */
#define MESS_ABSORB_MAX_SLICES 64
double mess_absorb_pair_ratio(const double *x, const double *y, size_t ns);

/* Pairs one point may hold (cfg max_pairs at most). */
#define MESS_ABSORB_MAX_PAIRS 64

/*
 * A point's pairs as they come, disturbed ones dropped: a pair during
 * which the machine was disturbed (the caller says how it knows: steal
 * time, a preempted thread) is not counted and is measured again, up to
 * cfg redo (0: min_pairs) times per point; past that it is kept (a machine disturbed
 * all the time still gets a figure, in bounded time) and counted as kept.
 */
struct mess_absorb_seqstate {
	double q[MESS_ABSORB_MAX_PAIRS];
	size_t n;		/* pairs counted */
	unsigned disturbed;	/* pairs found disturbed */
	unsigned redone;	/* ... dropped, measured again */
	unsigned kept;		/* ... kept, the budget spent */
	struct mess_absorb_seq last;	/* the test after the last pair */
};

/*
 * Add one pair's ratio q.  Returns the verdict (MORE: measure another
 * pair; a pair dropped, up to cfg redo (0: min_pairs) per point, returns
 * MORE) or -EINVAL (bad q, cfg or state, as
 * for mess_absorb_seq).  want > 0: a fixed number of pairs (the baseline):
 * MORE below it, FAST at it, no test.
 */
int mess_absorb_seq_add(struct mess_absorb_seqstate *s, double q,
			int disturbed, size_t want, double floor_rel,
			double thr_rel, const struct mess_absorb_cfg *cfg);

/*
 * The noise of one pair's ratio, pooled over a search's points, for the
 * test's floor (floor_rel above): the baseline's 5 pairs alone gave
 * floors from a sixth to more than twice what the search's own pairs
 * then showed (a 2-core Xeon guest, session 16: lat_mem_rd's 3.4 %
 * against 1.4 %, and every point within 2 % of the line doubtful at 15
 * pairs).  A point adds its ratios when it has MESS_ABSORB_POOL_N pairs
 * or more and its median lies within MESS_ABSORB_POOL_NEAR of 1 (far
 * past k1 a ratio's spread grows with the slowdown: not the noise near
 * the line), as deviations from its median, scaled by sqrt(n / (n - 1))
 * (a median taken from the same pairs sits closer to them).  mess_absorb_pool_add
 * returns the new count (at most cap); mess_absorb_pool_sd the
 * deviations' MAD as a standard deviation, NAN below MESS_ABSORB_POOL_MIN
 * of them (dev is overwritten).
 */
#define MESS_ABSORB_POOL_N 6
#define MESS_ABSORB_POOL_NEAR 0.10
#define MESS_ABSORB_POOL_MIN 30
size_t mess_absorb_pool_add(double *dev, size_t ndev, size_t cap,
			    const double *q, size_t n);
double mess_absorb_pool_sd(double *dev, size_t ndev);

/* A point's verdict from its interval (FAST, SLOW or DOUBTFUL; the
 * baseline FAST), z = cfg zone x thr: slow when t - t0 > thr and
 * lo - t0 > thr - z, fast when t - t0 <= thr and hi - t0 <= thr + z. */
enum mess_absorb_verdict mess_absorb_verdict(const struct mess_absorb_point *p,
					     double base, double thr,
					     const struct mess_absorb_cfg *cfg);

/*
 * k1 and its bracket from the n points sorted by k, the baseline first,
 * into out's k1, k1_lo, k1_hi, k1_lower_bound, prec, doubtful, speedup_k,
 * speedup, status and why (base and thr must be set):
 *  - k1_hi: the smallest k confidently slow (0: none);
 *  - k1_lo: the largest k below it confidently not slow (the baseline
 *    is: k1_lo >= 0);
 *  - k1: the largest measured k below k1_hi up to which every median is
 *    within thr (faster counts), at least k1_lo;
 *  - NONE when k1_hi = 1; UNCLEAR when no k > 0 is decided either way;
 *    OK when k1 - k1_lo and (k1_hi - 1) - k1 are within max(1, tol_rel x k1)
 *    (the true k1 lies in [k1_lo, k1_hi - 1]),
 *    or nothing is confidently slow and the largest k is confidently not
 *    (k1 is then that k, a lower bound); WIDE otherwise.
 */
void mess_absorb_bracket(const struct mess_absorb_point *v, size_t n,
			 const struct mess_absorb_cfg *cfg,
			 struct mess_absorb_result *out);

#endif
