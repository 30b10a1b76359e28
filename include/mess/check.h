/* SPDX-License-Identifier: MIT */
/*
 * A run against a baseline (mess check): which figures moved the bad way
 * by more than k of their combined spreads, with no file read or written
 * here.  The figures, per mix both families have (curves matched by
 * store %, else by read share within MESS_CHECK_READ_TOL):
 *  - the unloaded latency (the family's, with the spread its caller gives);
 *  - the maximum bandwidth (mess_model_max_bw on the mix's curve), spread:
 *    that point's bw_gbs_std;
 *  - the latency at mess_check_levels[] of the smaller of the two maxima
 *    (mess_model_latency on the mix's curve, which interpolates linearly
 *    between neighbouring points), spread: the points' lat_ns_std
 *    interpolated the same way, by the same model over the spreads (as if
 *    the neighbours' errors were fully correlated: never less than the
 *    independent case); below the curve's first point, that point's;
 *    combined (root of the sum of squares) with the curve's shape between
 *    the points: half the range the neighbouring segments, extended,
 *    leave between them and the chord (0 at a point).
 * Each figure: limit = k * sqrt(sd_base^2 + sd_run^2) + drift_base x base
 * + drift_run x run, a run's drift the fraction its host moved while it
 * ran (mess curves: the unloaded latency at its end against its start);
 * regressed when it moved the bad way (latency up, bandwidth down) by
 * more than limit,
 * improved when the good way by more; unjudged when either spread is
 * unknown or 0, or either value is, or the figure is read from a point
 * its run flags (it still breaks a trust rule, mess/quality.h: such a
 * point moves as a whole, which its back-to-back repeats do not see).
 */
#ifndef MESS_CHECK_H
#define MESS_CHECK_H

#include <stddef.h>
#include <stdint.h>

#include "mess/curve.h"

#define MESS_CHECK_K 3.0
#define MESS_CHECK_NLEVELS 3
extern const double mess_check_levels[MESS_CHECK_NLEVELS];	/* 0.25, 0.5, 0.75 */
#define MESS_CHECK_READ_TOL 0.5	/* %: two sets' curves of one read share */

enum mess_check_what {
	MESS_CHECK_UNLOADED,
	MESS_CHECK_MAX_BW,
	MESS_CHECK_LAT_AT_BW,
};

enum mess_check_state {
	MESS_CHECK_WITHIN,
	MESS_CHECK_REGRESSED,
	MESS_CHECK_IMPROVED,
	MESS_CHECK_UNJUDGED,
};

struct mess_check_fig {
	enum mess_check_what what;
	uint32_t store_pct;	/* the mix; MESS_STORE_PCT_UNKNOWN: by read share */
	double read_pct;	/* the baseline's curve */
	double level;		/* LAT_AT_BW: the share of the smaller maximum */
	double bw_gbs;		/* LAT_AT_BW: the bandwidth it is read at */
	double base, run;	/* ns, or GB/s for MAX_BW */
	double base_sd, run_sd;	/* LAT_AT_BW: noise and shape combined */
	double base_shape, run_shape;	/* LAT_AT_BW: the shape's part */
	int flagged;		/* read from a point its run flags (quality
				 * flags): 1 the baseline's, 2 the run's, 3
				 * both; then not judged */
	double drift;		/* the runs' drift's part of limit */
	double limit;		/* k combined spreads + drift, the figure's unit */
	double change_pct;	/* (run - base) / base x 100 */
	double sigmas;		/* the move the bad way in combined spreads */
	enum mess_check_state state;
};

struct mess_check {
	double k;
	double base_drift, run_drift;	/* fractions; 0: none known */
	size_t n;
	struct mess_check_fig *fig;
	size_t count[4];	/* per enum mess_check_state */
	size_t mixes;		/* mixes both have */
};

/* Whether f has a spread at all: a usable point with a finite lat_ns_std
 * (a public set or an import has none, and cannot be judged). */
int mess_check_has_spreads(const struct mess_family *f);

/*
 * Compare run against base with k (> 0) combined spreads; *_unloaded_sd is
 * the spread of each family's unloaded latency (NAN: unknown), *_drift how
 * far (a fraction) each run's host moved while it ran (NAN: unknown,
 * taken as 0).  0,
 * -EINVAL (k not > 0, or no mix in common), -ENOMEM.  mess_check_free
 * also after an error.
 */
int mess_check_new(const struct mess_family *base, double base_unloaded_sd,
		   double base_drift, const struct mess_family *run,
		   double run_unloaded_sd, double run_drift, double k,
		   struct mess_check *c);
void mess_check_free(struct mess_check *c);

/* Indices of the regressed figures, the worst (most spreads) first, into
 * idx (room for c->n): how many. */
size_t mess_check_worst(const struct mess_check *c, size_t *idx);

/* The figure in words: "unloaded latency", "mix 0 % stores: maximum
 * bandwidth", "mix 0 % stores: latency at 50 % of max (52.1 GB/s)"; a
 * curve without store %: "75 % read: ...". */
void mess_check_name(const struct mess_check_fig *f, char *buf, size_t len);
/* "within", "REGRESSED", "improved", "unjudged". */
const char *mess_check_state_name(enum mess_check_state s);

#endif
