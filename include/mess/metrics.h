/* SPDX-License-Identifier: MIT */
/*
 * Summary metrics of a curve family (Mess paper, sections II.C and III).
 *
 * Per curve, with its points taken in increasing pressure order (nop
 * descending; the family is not modified, the order is computed here) and
 * points whose bandwidth or latency is not finite left out:
 *  - max_bw_gbs: the highest bandwidth; lat_at_max_bw_ns its latency (the
 *    lowest-pressure point when several share the maximum);
 *  - saturation: the FIRST point in pressure order whose latency is
 *    >= 2 x unloaded_ns; sat_bw_gbs/sat_lat_ns are that point's.  A curve
 *    that never gets there is not saturated;
 *  - max_lat_ns: the highest latency;
 *  - waves: every point i (i >= 1) with bw[i] < bw[i-1] * (1 - wave_tol),
 *    i.e. bandwidth fell by more than wave_tol (relative) although the
 *    pressure rose.  nwaves counts them all; the first MESS_MAX_WAVES are
 *    kept.
 * An empty curve (no usable point) has npoints 0, NAN metrics and is left
 * out of the family ranges.
 *
 * A curve whose latency at its maximum bandwidth is within noise of the
 * unloaded latency (at most MESS_LOADED_REL above it plus two of that
 * point's standard deviations) never loaded the memory: whatever moved
 * the bandwidth, it queued nothing.  It is not loaded (loaded 0), and has
 * no saturation and no waves (a 2x point there is a disturbed window, a
 * drop noise).  When no curve loaded the memory the writers say "not
 * saturated: N generator cores reached X GB/s" instead of saturation.
 *
 * Family:
 *  - saturated bandwidth range: min..max of sat_bw_gbs over saturated curves
 *    (NAN when none is: have_sat == 0);
 *  - maximum latency range: min..max of max_lat_ns over non-empty curves;
 *  - max_bw_gbs: the highest bandwidth of any curve.
 * Percentages of the theoretical peak are derived by the writers, only when
 * peak_gbs > 0.
 */
#ifndef MESS_METRICS_H
#define MESS_METRICS_H

#include <stdio.h>

#include "mess/curve.h"
#include "mess/json.h"

#define MESS_LOADED_REL 0.10

/* "not saturated: 1 generator core reached 6.7 GB/s" into buf when no
 * curve of s loaded the memory (and it has one); else "" and 0. */
int mess_summary_not_saturated(const struct mess_summary *s, char *buf, size_t len);

/*
 * Fill *out (out->curves is allocated, free with mess_summary_free).
 * unloaded_ns must be finite and > 0 (saturation is relative to it);
 * peak_gbs >= 0 (0: unknown); 0 <= wave_tol < 1.  0, -EINVAL or -ENOMEM.
 */
int mess_summarise(const struct mess_family *f, double unloaded_ns,
		   double peak_gbs, double wave_tol, struct mess_summary *out);
void mess_summary_free(struct mess_summary *s);

/*
 * Unloaded latency of a family measured without a chase-only run (the
 * reference data): the minimum latency among the points whose bandwidth is
 * at most 2% of the family's maximum bandwidth, i.e. the near-idle points
 * every curve starts with.  The minimum, not the mean, because such points
 * can only be slowed by residual traffic, never sped up.  NAN when the
 * family has no such point.
 */
double mess_unloaded_from_curves(const struct mess_family *f);

/*
 * The summary as JSON: "schema": 1; units in key names (_gbs, _ns, _pct),
 * NAN and "not saturated" as null, "_pct_peak" members null when the peak
 * is unknown.  The members of extra (may be NULL) follow wave_tol_pct.
 * NULL when out of memory.
 */
json_t *mess_summary_json(const struct mess_summary *s, const json_t *extra);
/* The same, written to fp: 0, -ENOMEM or -EIO. */
int mess_summary_write_json(FILE *fp, const struct mess_summary *s,
			    const json_t *extra);

/* Markdown tables for people; title may be NULL.  0 or -EIO. */
int mess_summary_write_md(FILE *fp, const struct mess_summary *s,
			  const char *title);

/*
 * The key figures' rows and cells, decided here once for summary.md and
 * report.html, each spelled by its format's renderer.  A row is the
 * curves' table's header or a curve's, or one of the family's (its cell
 * takes the row's name); a cell is one of the table's columns.
 */
enum mess_kf {
	MESS_KF_HEAD, MESS_KF_CURVE,
	MESS_KF_NAME, MESS_KF_NOMINAL, MESS_KF_MEASURED, MESS_KF_POINTS,
	MESS_KF_MAX_BW, MESS_KF_LAT_AT_MAX, MESS_KF_SAT_BW, MESS_KF_MAX_LAT,
	MESS_KF_WAVES,
	MESS_KF_FAM_MAX_BW, MESS_KF_FAM_SAT, MESS_KF_FAM_MAX_LAT,
};
enum mess_kf_cell {
	MESS_KF_LABEL,		/* the column's name */
	MESS_KF_NUM,		/* v, one decimal; NAN unknown */
	MESS_KF_COUNT,		/* v, a whole number */
	MESS_KF_READ,		/* a curve named by its read share v */
	MESS_KF_BW,		/* v GB/s and its % of the peak, where known */
	MESS_KF_RANGE,		/* v to hi (GB/s and % of peak, or ns) */
	MESS_KF_NONE,		/* no saturation */
	MESS_KF_NOT_LOADED,	/* a curve that never loaded the memory */
	MESS_KF_NOT_SAT,	/* no curve did (mess_summary_not_saturated) */
	MESS_KF_DASH,		/* nothing to count */
};
struct mess_kf_ops {
	/* Nonzero leaves the row out; c is the curve's, else NULL. */
	int (*row)(void *ctx, enum mess_kf row, const struct mess_curve_summary *c);
	void (*cell)(void *ctx, enum mess_kf col, enum mess_kf_cell k,
		     double v, double hi);
	void (*end)(void *ctx);
};
/* The family's rows: maximum bandwidth, saturated and maximum latency. */
void mess_summary_family_rows(const struct mess_summary *s,
			      const struct mess_kf_ops *o, void *ctx);
/* The curves' table: its header, then a row a curve. */
void mess_summary_curve_rows(const struct mess_summary *s,
			     const struct mess_kf_ops *o, void *ctx);

#endif
