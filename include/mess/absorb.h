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
 * Two pure functions (no I/O, no allocation visible to the caller):
 *  - mess_absorb_next() chooses the next k to measure: baseline, then k =
 *    1, 2, 4, ... up to the first slow k, bisection of (largest fast k,
 *    smallest slow k) down to the precision, then doubling past k1 until
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
};

/* Defaults in brackets. */
struct mess_absorb_cfg {
	unsigned kmax;		/* largest k to measure, >= 1 */
	double rel_min;		/* threshold floor, x t0 (0.01) */
	double n_sigma;		/* threshold, x sigma0 (3) */
	unsigned prec_div;	/* bracket k1 to max(1, k1 / this) (32) */
	double slope_tol;	/* saturation: slopes agree within (0.1) */
	double r2_min;		/* fit: R^2 below is unclear (0.9) */
};

enum mess_absorb_status {
	MESS_ABSORB_OK,		/* absorbs k1 >= 1 noise instructions */
	MESS_ABSORB_NONE,	/* slower from the first one */
	MESS_ABSORB_UNCLEAR,	/* no clear phases: see why */
};

struct mess_absorb_result {
	enum mess_absorb_status status;
	const char *why;	/* UNCLEAR: the failed check, else NULL */
	unsigned k1;		/* threshold rule (see mess_absorb_fit) */
	int k1_lower_bound;	/* never slower: k1 >= that */
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

/* Defaults: rel_min 0.01, n_sigma 3, prec_div 32, slope_tol 0.1, r2_min 0.9. */
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

/*
 * Fit the three-phase model: flat level up to k1_fit, straight transient
 * to the line t = a + slope * k from k2 on, the breakpoints chosen by least
 * squares over the measured ks (then refined over integers between their
 * neighbours), with at least three points on the line.
 *
 * k1 is not the fitted breakpoint but the threshold rule: the largest
 * measured k such that it and every smaller measured k are within thr.  If
 * none is slow, k1 is the largest k measured with k1_lower_bound set, prec
 * = max(1, k1 / prec_div) (the sweep step runs_linear assumes) and no
 * line is fitted (k2 = 0, slope NAN): status OK.  If the first measured
 * k > 0 is slow, k1 = 0 and the status is NONE.
 *
 * UNCLEAR, never a forced fit, when: a point up to k1 is faster than t0 -
 * thr (not flat); fewer than three points past k1; slope <= 0; R^2 <
 * r2_min; a point past both k1 and k2 is within thr of t0 (not monotonic);
 * a point from k2 on is off the line by more than max(thr, rel_min * t,
 * n_sigma * sigma); or the line rises by no more than thr from k2 to the
 * largest k.  The checks are tried in that order; why names the first
 * that failed.
 *
 * Needs the baseline (k = 0); with nothing else, k1 = 0 as a lower bound.
 * 0, -EINVAL (n == 0, no baseline, NULL out, bad point or cfg as for
 * mess_absorb_next) or -ENOMEM.
 */
int mess_absorb_fit(const struct mess_absorb_point *pts, size_t n,
		    const struct mess_absorb_cfg *cfg,
		    struct mess_absorb_result *out);

/* "ok", "none", "unclear" ("?" for anything else). */
const char *mess_absorb_status_name(enum mess_absorb_status s);

#endif
