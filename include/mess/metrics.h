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
 *    >= 2 x unloaded_ns, among the loaded points only: at least
 *    MESS_SAT_MIN_BW_FRAC of the curve's maximum bandwidth, and not
 *    flagged disturbed or unsteady; sat_bw_gbs/sat_lat_ns are that
 *    point's.  A curve that never gets there is not saturated;
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
#define MESS_SAT_MIN_BW_FRAC 0.5

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
 * The key figures' tables, the family's rows and then a row a curve:
 * their rows and cells decided here once (mess_kf_family, mess_kf_curves),
 * spelled by a format, summary.md's or report.html's.  A cell is printed
 * through look[] by what it is; a column or family row without a name is
 * left out, and a % of the peak column shown only where the peak is known.
 */
enum mess_kf_col {
	MESS_KF_NAME, MESS_KF_NOMINAL, MESS_KF_MEASURED, MESS_KF_POINTS,
	MESS_KF_MAX_BW, MESS_KF_MAX_BW_PCT, MESS_KF_LAT_AT_MAX, MESS_KF_SAT_BW,
	MESS_KF_SAT_BW_PCT, MESS_KF_MAX_LAT, MESS_KF_WAVES,
	MESS_KF_FAM_MAX_BW, MESS_KF_FAM_SAT, MESS_KF_FAM_MAX_LAT, MESS_KF_NCOLS
};
enum mess_kf_look {
	MESS_KF_FIG, MESS_KF_WORD, MESS_KF_TEXT, MESS_KF_UNKNOWN, MESS_KF_HEAD,
	MESS_KF_GAP, MESS_KF_NOT_SAT, MESS_KF_LOOKS
};
struct mess_kf_fmt {
	const char *row, *end, *rule;	/* rule: a column's, under the header */
	const char *look[MESS_KF_LOOKS];
	const char *name[MESS_KF_NCOLS];
	/* a family row's last cell, given 2 x unloaded; saturation's then
	 * given its % of the peak */
	const char *note[MESS_KF_NCOLS], *sat_pct;
	const char *bw;		/* a bandwidth and its % of the peak */
	const char *unknown, *no_bw, *no_sat;	/* the words for none */
	int skip_empty;		/* a curve with no usable point has no row */
};
void mess_kf_family(FILE *fp, const struct mess_summary *s,
		    const struct mess_kf_fmt *f);
void mess_kf_curves(FILE *fp, const struct mess_summary *s,
		    const struct mess_kf_fmt *f);

#endif
