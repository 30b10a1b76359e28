/* SPDX-License-Identifier: MIT */
/*
 * The curve model: latency as a function of bandwidth and read share, built
 * from a measured family, for simulators and for the suite's own exports,
 * comparisons and application positioning.
 *
 * Units: bandwidth in GB/s (1e9 B/s), latency in ns, read share in % of the
 * memory-level traffic (0..100).
 *
 * How the family becomes a model (every step is a rule, none a fit):
 *  - Per curve, the points are taken in pressure order (nop descending) and
 *    kept while their bandwidth rises: the model is latency(bandwidth), a
 *    function, so the points past the curve's maximum bandwidth (the
 *    saturated, wave region, where bandwidth falls while latency grows) and
 *    any point whose bandwidth is not above every earlier one are left out
 *    (mess_model_curve says how many).  Points whose bandwidth or latency
 *    is not finite are left out.
 *  - When the family has an unloaded latency (chase alone, bandwidth ~0),
 *    it is the curve's first point, at bandwidth 0, if it lies below the
 *    curve's first kept point; otherwise the curve starts at its first
 *    point and a query below it gets that point's latency (flat, flagged
 *    extrapolated).
 *  - Along a curve: linear interpolation between neighbouring points.
 *  - Beyond a curve's maximum bandwidth B with latency L there: the
 *    straight line from (B, L) with slope s = max(slope of the last
 *    segment, (L - L0) / (B - B0)) where (B0, L0) is the curve's first
 *    point, so the extrapolation rises at least as steeply as the curve on
 *    average and is monotonic.  Such answers carry MESS_SRC_EXTRAP_BW.
 *  - Between read shares: the two curves whose read shares bracket the
 *    query, r0 <= r <= r1, with weight w = (r - r0) / (r1 - r0).  Both are
 *    read at the same fraction u = bw / maxbw(r) of their own maximum
 *    bandwidth, maxbw(r) = (1 - w) maxbw(r0) + w maxbw(r1), and their
 *    latencies are mixed with the same weight.  So a query at r's maximum
 *    bandwidth reads both curves at their maximum.  (The Mess simulator
 *    instead rounds to the nearest 2%.)
 *  - A read share outside the measured range uses the nearest curve as it
 *    is, flagged MESS_SRC_EXTRAP_READ.
 *  - Curves whose read shares are within 0.01% of each other: the one
 *    with the higher maximum bandwidth is kept.
 *
 * Queries allocate nothing and only read the model, so one model may be
 * queried from any number of threads at once.
 */
#ifndef MESS_MODEL_H
#define MESS_MODEL_H

#include <stddef.h>

#include "mess/curve.h"

/* Where an answer came from: 0 (measured) or an OR of these. */
#define MESS_SRC_MEASURED	0
#define MESS_SRC_INTERP_BW	0x1	/* between two points of a curve */
#define MESS_SRC_INTERP_READ	0x2	/* between two read-share curves */
#define MESS_SRC_EXTRAP_BW	0x4	/* outside a curve's bandwidth range */
#define MESS_SRC_EXTRAP_READ	0x8	/* read share outside the family's */
#define MESS_SRC_EXTRAPOLATED	(MESS_SRC_EXTRAP_BW | MESS_SRC_EXTRAP_READ)

/* "measured", "interpolated" or "extrapolated": the strongest flag wins. */
const char *mess_src_name(int src);

struct mess_model;

/*
 * Build a model from f (copied: f may be freed afterwards).  Curves with
 * a non-finite read_pct or fewer than one usable point are left out.
 * 0, -EINVAL (no usable curve) or -ENOMEM.
 */
int mess_model_new(const struct mess_family *f, struct mess_model **out);
void mess_model_free(struct mess_model *m);

/* The family's unloaded latency, NAN when it had none. */
double mess_model_unloaded_ns(const struct mess_model *m);
/* Curves kept, in increasing read share. */
size_t mess_model_ncurves(const struct mess_model *m);

/*
 * Curve i as the model uses it: read share, points (bandwidth strictly
 * increasing, the bandwidth-0 anchor included when used) and how many of
 * the family's usable points were left out (past the maximum, or not above
 * an earlier bandwidth).  The arrays stay valid while the model lives.
 * 0 or -EINVAL (i out of range); any out pointer may be NULL.
 */
int mess_model_curve(const struct mess_model *m, size_t i, double *read_pct,
		     size_t *n, const double **bw_gbs, const double **lat_ns,
		     size_t *dropped);

/*
 * Latency at (read_pct, bw_gbs).  Returns the MESS_SRC_* flags (>= 0) or
 * -EINVAL (a non-finite argument, bw_gbs < 0, read_pct outside 0..100).
 */
int mess_model_latency(const struct mess_model *m, double read_pct,
		       double bw_gbs, double *lat_ns);

/* Highest measured bandwidth at read_pct (interpolated between curves as
 * above).  Flags or -EINVAL. */
int mess_model_max_bw(const struct mess_model *m, double read_pct,
		      double *bw_gbs);

/*
 * The inverse: the lowest bandwidth at which latency reaches lat_ns at
 * read_pct, on the same interpolation (beyond the maximum bandwidth the
 * extrapolation is used and flagged).  Flags, -EINVAL, or -ERANGE when
 * lat_ns is below the latency at the curve's lowest bandwidth.
 */
int mess_model_bw_at_latency(const struct mess_model *m, double read_pct,
			     double lat_ns, double *bw_gbs);

#endif
