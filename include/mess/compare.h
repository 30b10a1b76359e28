/* SPDX-License-Identifier: MIT */
/*
 * Side by side: the figures that say how two or more memory systems
 * differ, computed from their curve families through the curve model
 * (mess/model.h), with no file read or written here.
 *
 * Per set:
 *  - unloaded latency: the family's (a chase-only run), else the
 *    lowest-bandwidth points (mess_unloaded_from_curves);
 *  - maximum bandwidth, saturated-bandwidth range and maximum-latency
 *    range: mess_summarise over the whole family (saturation = 2x the
 *    unloaded latency; unknown when the unloaded latency is);
 *  - per read share of the grid mess_cmp_shares:
 *      max_bw      mess_model_max_bw;
 *      lat_common  mess_model_latency at the common bandwidth of that
 *                  share: MESS_CMP_COMMON_FRAC of the LOWEST max_bw among
 *                  the sets, so every set answers inside its own range;
 *      bw_2x       mess_model_bw_at_latency at MESS_CMP_SAT_FACTOR x the
 *                  set's unloaded latency.
 *    Every answer keeps the model's MESS_SRC_* flags: a set whose curves
 *    do not reach a share answers MESS_SRC_EXTRAP_READ there.
 */
#ifndef MESS_COMPARE_H
#define MESS_COMPARE_H

#include <stddef.h>

#include "mess/curve.h"
#include "mess/load.h"
#include "mess/model.h"

/* One palette per set in the plots: more would not tell apart. */
#define MESS_CMP_MAX_SETS 8
#define MESS_CMP_NSHARES 6
/* 50..100 %: every curve family measured with ordinary stores reaches
 * 50 % (a store is a read and a write at memory level), not below. */
extern const double mess_cmp_shares[MESS_CMP_NSHARES];
#define MESS_CMP_COMMON_FRAC 0.5
#define MESS_CMP_SAT_FACTOR 2.0

/* An answer: value and MESS_SRC_* flags; src -1 and v NAN when there is
 * none (unknown unloaded latency, no crossing). */
struct mess_cmp_val {
	double v;
	int src;
};

struct mess_cmp_set {
	struct mess_model *model;
	double unloaded_ns;	/* NAN: unknown */
	int unloaded_from_family; /* 1: the family's own, 0: from its points */
	double max_bw_gbs;
	int have_sat;		/* 0: no curve reached 2x, or unloaded unknown */
	double sat_bw_min_gbs, sat_bw_max_gbs;
	double max_lat_min_ns, max_lat_max_ns;
	double read_min_pct, read_max_pct;	/* the model's curves */
	size_t ncurves;
	struct mess_cmp_val max_bw[MESS_CMP_NSHARES];
	struct mess_cmp_val lat_common[MESS_CMP_NSHARES];
	struct mess_cmp_val bw_2x[MESS_CMP_NSHARES];
};

struct mess_cmp {
	size_t n;
	/* Per share: the common bandwidth, the set with the lowest maximum
	 * and that maximum's flags. */
	double common_bw_gbs[MESS_CMP_NSHARES];
	size_t common_set[MESS_CMP_NSHARES];
	int common_src[MESS_CMP_NSHARES];
	struct mess_cmp_set set[MESS_CMP_MAX_SETS];
};

/*
 * Compute the comparison of f[0..n-1] into *c (the families may be freed
 * afterwards: the models copy them).  0; -EINVAL (n not 1..MESS_CMP_MAX_SETS,
 * or a family with no usable curve: *bad says which, when bad is not NULL);
 * -ENOMEM.  mess_compare_free also after an error.
 */
int mess_compare_new(const struct mess_family *const *f, size_t n,
		     struct mess_cmp *c, size_t *bad);
void mess_compare_free(struct mess_cmp *c);

/* The flags in words: "measured", "interpolated", "extrapolated in
 * bandwidth", "extrapolated in read share", "extrapolated in bandwidth and
 * read share", or "none" (src < 0). */
const char *mess_cmp_src(int src);

/* a / b, the flags of both; none when either is none or b is not > 0. */
struct mess_cmp_val mess_cmp_ratio(struct mess_cmp_val a, struct mess_cmp_val b);

/*
 * An application that moves bw_gbs at read_pct: each set's latency there
 * and whether bw_gbs is beyond the set's maximum at that share (its
 * latency then extrapolated).  best: the lowest latency among the sets
 * that sustain bw_gbs, or among all when none does (best_sustains 0).
 * Per set, lower_ns / lower_pct: how much lower best's latency is than
 * that set's ((lat - best) / lat x 100); tie: the set answers as best
 * does (sustains as best does, latency within MESS_CMP_TIE_NS), so
 * neither is lower.  A latency that is not finite is no answer.
 */
#define MESS_CMP_TIE_NS 0.05	/* below the 0.1 ns the verdicts print */
/* The largest --app bandwidth taken: 100 TB/s, far beyond any memory
 * system measured, so that an answer is an extrapolation, not inf. */
#define MESS_CMP_APP_MAX_GBS 1e5
struct mess_cmp_app {
	double read_pct, bw_gbs;
	size_t n;
	struct {
		struct mess_cmp_val lat, max_bw;
		int sustains, tie;
		double lower_ns, lower_pct;
	} set[MESS_CMP_MAX_SETS];
	size_t best;
	int best_sustains;
};

/* 0, or -EINVAL (read_pct outside 0..100, bw_gbs not > 0, or no set
 * answered). */
int mess_compare_app(const struct mess_cmp *c, double read_pct, double bw_gbs,
		     struct mess_cmp_app *out);
/* The verdict in one sentence for people, naming the sets by labels[i]. */
void mess_compare_app_text(const struct mess_cmp_app *a,
			   const char *const *labels, char *buf, size_t len);

/*
 * Parse an --app list "R:BW[,R:BW...]" (read share 0..100 %, GB/s > 0)
 * appending to r[], bw[] (at most max, *n in use).  0, or -EINVAL with err
 * naming the item and what is allowed.
 */
int mess_compare_parse_apps(const char *s, double *r, double *bw, size_t max,
			    size_t *n, char *err, size_t errlen);

/*
 * How the sets were measured differently, as far as their files say: one
 * line per difference naming every set and its value (bandwidth source,
 * huge pages, generator cores, chase stride and window, tool, latency
 * converted from cycles, partial run).  Lines go to lines[0..max-1]; the
 * count of differences found is returned (it may exceed max).
 */
#define MESS_CMP_LINE 512
size_t mess_compare_warnings(const struct mess_set_info *const *info,
			     const char *const *labels, size_t n,
			     char (*lines)[MESS_CMP_LINE], size_t max);

#endif
