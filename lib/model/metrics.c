// SPDX-License-Identifier: MIT
/*
 * Summary metrics of a curve family and their JSON / Markdown reports.
 */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "mess/metrics.h"
#include "mess/quality.h"
#include "mess/json.h"
#include "mess/stats.h"

/* The median of the points' finite read shares, NAN when none has one. */
static double points_read(const struct mess_curve *c, const size_t *idx,
			  size_t n)
{
	double *v = malloc((n ? n : 1) * sizeof(*v)), m = NAN;

	for (size_t i = 0; v && i < n; i++)
		v[i] = c->pts[idx[i]].read_pct;
	if (v)
		m = mess_median_finite(v, n, NULL);
	free(v);
	return m;
}

/*
 * Whether p may say where its curve saturates: a loaded point, one that
 * moved at least MESS_SAT_MIN_BW_FRAC of the curve's maximum bandwidth
 * (a doubled latency at a tenth of it is a preempted window, not a queue:
 * a default run here said "saturated 0.1-0.9 GB/s" beside a 4.7 GB/s
 * maximum), and not one whose windows were disturbed or whose generators
 * never settled (flagged, mess/quality.h).
 */
static int sat_witness(const struct mess_point *p, double max_bw_gbs)
{
	uint32_t untrusted = MESS_QF(MESS_QR_DISTURBED) | MESS_QF(MESS_QR_UNSTEADY);

	return !(p->flags & untrusted) &&
	       p->bw_gbs >= MESS_SAT_MIN_BW_FRAC * max_bw_gbs;
}

static void summarise_curve(const struct mess_curve *c, const size_t *idx,
			    size_t n, double unloaded_ns, double wave_tol,
			    struct mess_curve_summary *cs)
{
	double sat_ns = 2.0 * unloaded_ns;
	size_t i, imax = 0;

	memset(cs, 0, sizeof(*cs));
	cs->store_pct = c->store_pct;
	cs->read_pct = c->read_pct;
	cs->npoints = n;
	cs->sat_bw_gbs = NAN;
	cs->sat_lat_ns = NAN;
	cs->max_lat_ns = NAN;
	cs->read_points_pct = points_read(c, idx, n);

	for (i = 0; i < n; i++)
		if (c->pts[idx[i]].bw_gbs > c->pts[idx[imax]].bw_gbs)
			imax = i;
	cs->max_bw_gbs = n ? c->pts[idx[imax]].bw_gbs : NAN;
	cs->lat_at_max_bw_ns = n ? c->pts[idx[imax]].lat_ns : NAN;
	for (i = 0; i < n; i++) {
		const struct mess_point *p = &c->pts[idx[i]];

		/* A stalled point's latency is the stall's, not the memory's:
		 * it is flagged in curves.csv and the verdict, and left out of
		 * the latency figures here (mess/quality.h). */
		int stalled = !!(p->flags & MESS_QF(MESS_QR_STALL));

		if (!stalled && (isnan(cs->max_lat_ns) || p->lat_ns > cs->max_lat_ns))
			cs->max_lat_ns = p->lat_ns;
		if (!cs->saturated && !stalled && p->lat_ns >= sat_ns &&
		    !sat_witness(p, cs->max_bw_gbs))
			cs->sat_unknown = 1;
		else if (!cs->saturated && !stalled && p->lat_ns >= sat_ns) {
			cs->saturated = 1;
			cs->sat_unknown = 0;
			cs->sat_bw_gbs = p->bw_gbs;
			cs->sat_lat_ns = p->lat_ns;
		}
		/* Below the maximum a drop is no wave but a non-monotone
		 * point (mess/quality.h). */
		if (i > imax) {
			const struct mess_point *q = &c->pts[idx[i - 1]];

			/* A wave is the paper's pattern: past the maximum,
			 * bandwidth falls while latency keeps rising.  A drop
			 * with falling latency is measurement noise, not a
			 * memory-system effect. */
			/* A measured point (one with trust figures) is a
			 * wave only once a repeat confirmed it (remeasured);
			 * sets from elsewhere say nothing of repeats. */
			int confirmed = isnan(p->disturbed) || p->remeasured;

			if (p->bw_gbs < q->bw_gbs * (1.0 - wave_tol) &&
			    p->lat_ns > q->lat_ns && confirmed) {
				if (cs->nwaves < MESS_MAX_WAVES) {
					struct mess_wave *w = &cs->waves[cs->nwaves];

					w->nop_from = q->nop;
					w->nop_to = p->nop;
					w->bw_from_gbs = q->bw_gbs;
					w->bw_to_gbs = p->bw_gbs;
					w->lat_to_ns = p->lat_ns;
				}
				cs->nwaves++;
			}
		}
	}
	/* Nothing queued at the maximum: no memory figure past it. */
	cs->loaded = n && cs->lat_at_max_bw_ns > unloaded_ns * (1 + MESS_LOADED_REL) +
		2 * (isfinite(c->pts[idx[imax]].lat_ns_std) ? c->pts[idx[imax]].lat_ns_std : 0);
	if (!cs->loaded) {
		cs->saturated = cs->sat_unknown = 0;
		cs->sat_bw_gbs = cs->sat_lat_ns = NAN;
		cs->nwaves = 0;
	}
}

static void widen(double *lo, double *hi, double v)
{
	if (isnan(*lo) || v < *lo)
		*lo = v;
	if (isnan(*hi) || v > *hi)
		*hi = v;
}

int mess_summarise(const struct mess_family *f, double unloaded_ns,
		   double peak_gbs, double wave_tol, struct mess_summary *out)
{
	size_t i, maxn = 0, *idx = NULL;

	if (!f || !out || (f->n && !f->curves))
		return -EINVAL;
	if (!isfinite(unloaded_ns) || unloaded_ns <= 0.0)
		return -EINVAL;
	if (!isfinite(peak_gbs) || peak_gbs < 0.0)
		return -EINVAL;
	if (!(wave_tol >= 0.0 && wave_tol < 1.0))
		return -EINVAL;

	memset(out, 0, sizeof(*out));
	out->unloaded_ns = unloaded_ns;
	out->peak_gbs = peak_gbs;
	out->wave_tol = wave_tol;
	out->sat_bw_min_gbs = NAN;
	out->sat_bw_max_gbs = NAN;
	out->max_lat_min_ns = NAN;
	out->max_lat_max_ns = NAN;
	out->max_bw_gbs = NAN;
	if (!f->n)
		return 0;

	for (i = 0; i < f->n; i++)
		if (f->curves[i].n > maxn)
			maxn = f->curves[i].n;
	out->curves = calloc(f->n, sizeof(*out->curves));
	idx = malloc((maxn ? maxn : 1) * sizeof(*idx));
	if (!out->curves || !idx) {
		free(idx);
		mess_summary_free(out);
		return -ENOMEM;
	}
	out->ncurves = f->n;

	for (i = 0; i < f->n; i++) {
		struct mess_curve_summary *cs = &out->curves[i];
		size_t n = mess_curve_pressure_index(&f->curves[i], idx);

		summarise_curve(&f->curves[i], idx, n, unloaded_ns, wave_tol,
				cs);
		if (!n)
			continue;
		out->loaded_curves += cs->loaded;
		if (isnan(out->max_bw_gbs) || cs->max_bw_gbs > out->max_bw_gbs)
			out->max_bw_gbs = cs->max_bw_gbs;
		widen(&out->max_lat_min_ns, &out->max_lat_max_ns,
		      cs->max_lat_ns);
		if (cs->saturated) {
			out->have_sat = 1;
			widen(&out->sat_bw_min_gbs, &out->sat_bw_max_gbs,
			      cs->sat_bw_gbs);
		}
	}
	free(idx);
	return 0;
}

int mess_summary_not_saturated(const struct mess_summary *s, char *buf, size_t len)
{
	buf[0] = 0;
	if (s->loaded_curves || !isfinite(s->max_bw_gbs))
		return 0;
	if (s->gen_cores)
		snprintf(buf, len, "not saturated: %u generator core%s reached %.1f GB/s",
			 s->gen_cores, s->gen_cores == 1 ? "" : "s", s->max_bw_gbs);
	else
		snprintf(buf, len, "not saturated: the generators reached %.1f GB/s",
			 s->max_bw_gbs);
	return 1;
}

void mess_summary_free(struct mess_summary *s)
{
	if (!s)
		return;
	free(s->curves);
	s->curves = NULL;
	s->ncurves = 0;
}

double mess_unloaded_from_curves(const struct mess_family *f)
{
	double max_bw = NAN, lim, best = NAN;
	size_t i, j;

	if (!f)
		return NAN;
	for (i = 0; i < f->n; i++)
		for (j = 0; j < f->curves[i].n; j++) {
			const struct mess_point *p = &f->curves[i].pts[j];

			if (mess_point_usable(p) && (isnan(max_bw) || p->bw_gbs > max_bw))
				max_bw = p->bw_gbs;
		}
	if (isnan(max_bw))
		return NAN;
	/* An all-idle family (max 0) still has its idle points qualify. */
	lim = 0.02 * fmax(max_bw, 0.0);
	for (i = 0; i < f->n; i++)
		for (j = 0; j < f->curves[i].n; j++) {
			const struct mess_point *p = &f->curves[i].pts[j];

			if (mess_point_usable(p) && p->bw_gbs <= lim &&
			    (isnan(best) || p->lat_ns < best))
				best = p->lat_ns;
		}
	return best;
}

/* ---- writers ---- */

/* JSON has no NaN: an unknown number is null. */
static double pct_of(double v, double peak)
{
	return peak > 0.0 ? 100.0 * v / peak : NAN;
}

static json_t *json_store(uint32_t store_pct)
{
	return store_pct == MESS_STORE_PCT_UNKNOWN ? json_null() :
						     json_integer(store_pct);
}

static json_t *json_curve(const struct mess_curve_summary *cs, double peak)
{
	size_t kept = cs->nwaves < MESS_MAX_WAVES ? cs->nwaves : MESS_MAX_WAVES;
	json_t *waves = json_array(), *sat = json_null();

	for (size_t k = 0; k < kept; k++) {
		const struct mess_wave *w = &cs->waves[k];

		json_array_append_new(waves, mess_json_pack("{s:I, s:I, s:o, s:o, s:o}",
			"nop_from", (json_int_t)w->nop_from,
			"nop_to", (json_int_t)w->nop_to,
			"bw_from_gbs", mess_json_real(w->bw_from_gbs, 4),
			"bw_to_gbs", mess_json_real(w->bw_to_gbs, 4),
			"lat_to_ns", mess_json_real(w->lat_to_ns, 4)));
	}
	if (cs->saturated)
		sat = mess_json_pack("{s:o, s:o, s:o}",
				"bw_gbs", mess_json_real(cs->sat_bw_gbs, 4),
				"bw_pct_peak", mess_json_real(pct_of(cs->sat_bw_gbs, peak), 2),
				"lat_ns", mess_json_real(cs->sat_lat_ns, 4));
	return mess_json_pack("{s:o, s:o, s:I, s:b, s:o, s:o, s:o, s:o, s:o, s:I, s:o}",
		"store_pct", json_store(cs->store_pct),
		"read_pct", mess_json_real(cs->read_pct, 2),
		"points", (json_int_t)cs->npoints,
		"loaded", cs->loaded,
		"max_bw_gbs", mess_json_real(cs->max_bw_gbs, 4),
		"max_bw_pct_peak", mess_json_real(pct_of(cs->max_bw_gbs, peak), 2),
		"lat_at_max_bw_ns", mess_json_real(cs->lat_at_max_bw_ns, 4),
		"saturation", sat,
		"max_lat_ns", mess_json_real(cs->max_lat_ns, 4),
		"waves_count", (json_int_t)cs->nwaves,
		"waves", waves);
}

json_t *mess_summary_json(const struct mess_summary *s, const json_t *extra)
{
	double peak = s->peak_gbs;
	size_t nsat = 0, nwaves = 0;
	json_t *j, *curves = json_array();
	char ns[96];
	const char *key;
	json_t *v;

	for (size_t i = 0; i < s->ncurves; i++) {
		nsat += !!s->curves[i].saturated;
		nwaves += s->curves[i].nwaves;
		json_array_append_new(curves, json_curve(&s->curves[i], peak));
	}
	j = mess_json_pack("{s:i, s:o, s:o, s:o}", "schema", 1,
		      "unloaded_ns", mess_json_real(s->unloaded_ns, 4),
		      "peak_gbs", mess_json_real(peak > 0.0 ? peak : NAN, 4),
		      "wave_tol_pct", mess_json_real(100.0 * s->wave_tol, 2));
	if (!j || !curves) {
		json_decref(j);
		json_decref(curves);
		return NULL;
	}
	if (extra)
		json_object_foreach((json_t *)extra, key, v)
			json_object_set(j, key, v);
	json_object_set_new(j, "family", mess_json_pack(
		"{s:o, s:o, s:I, s:I, s:o, s:I, s:o, s:o, s:o, s:o, s:o, s:o, s:I}",
		"max_bw_gbs", mess_json_real(s->max_bw_gbs, 4),
		"max_bw_pct_peak", mess_json_real(pct_of(s->max_bw_gbs, peak), 2),
		"curves", (json_int_t)s->ncurves,
		"loaded_curves", (json_int_t)s->loaded_curves,
		"not_saturated", mess_summary_not_saturated(s, ns, sizeof(ns)) ?
			json_string(ns) : json_null(),
		"saturated_curves", (json_int_t)nsat,
		"sat_bw_min_gbs", mess_json_real(s->sat_bw_min_gbs, 4),
		"sat_bw_max_gbs", mess_json_real(s->sat_bw_max_gbs, 4),
		"sat_bw_min_pct_peak", mess_json_real(pct_of(s->sat_bw_min_gbs, peak), 2),
		"sat_bw_max_pct_peak", mess_json_real(pct_of(s->sat_bw_max_gbs, peak), 2),
		"max_lat_min_ns", mess_json_real(s->max_lat_min_ns, 4),
		"max_lat_max_ns", mess_json_real(s->max_lat_max_ns, 4),
		"waves_count", (json_int_t)nwaves));
	json_object_set_new(j, "curves", curves);
	return j;
}

int mess_summary_write_json(FILE *fp, const struct mess_summary *s,
			    const json_t *extra)
{
	json_t *j = mess_summary_json(s, extra);
	int err = j ? mess_json_dumpf(j, fp) : -ENOMEM;

	json_decref(j);
	return err;
}

/* A figure, or the format's word for unknown. */
static enum mess_kf_look kf_num(const struct mess_kf_fmt *f, double v,
				char *buf, size_t len)
{
	if (!isfinite(v)) {
		snprintf(buf, len, "%s", f->unknown);
		return MESS_KF_UNKNOWN;
	}
	snprintf(buf, len, "%.1f", v);
	return MESS_KF_FIG;
}

/* A bandwidth in cell i, its % of the peak in cell i + 1. */
static void kf_bw(const struct mess_kf_fmt *f, double v, double peak,
		  char (*cell)[96], enum mess_kf_look *look, int i)
{
	look[i] = isfinite(v) ? MESS_KF_FIG : MESS_KF_WORD;
	if (isfinite(v))
		snprintf(cell[i], 96, peak > 0.0 ? f->bw : "%.1f", v, pct_of(v, peak));
	else
		snprintf(cell[i], 96, "%s", f->no_bw);
	look[i + 1] = kf_num(f, pct_of(v, peak), cell[i + 1], 96);
}

static void kf_row(FILE *fp, const struct mess_summary *s,
		   const struct mess_kf_fmt *f, enum mess_kf_col row,
		   char (*cell)[96], enum mess_kf_look *look)
{
	char note[160] = "";

	if (!f->name[row])
		return;
	fputs(f->row, fp);
	fprintf(fp, f->look[MESS_KF_HEAD], f->name[row]);
	fprintf(fp, f->look[look[0]], cell[0]);
	if (s->peak_gbs > 0.0 && f->name[MESS_KF_MAX_BW_PCT])
		fprintf(fp, f->look[look[1]], cell[1]);
	if (f->note[row]) {
		snprintf(note, sizeof(note), f->note[row], 2.0 * s->unloaded_ns);
		if (row == MESS_KF_FAM_SAT && s->have_sat && s->peak_gbs > 0.0)
			snprintf(note + strlen(note), sizeof(note) - strlen(note), f->sat_pct,
				 pct_of(s->sat_bw_min_gbs, s->peak_gbs),
				 pct_of(s->sat_bw_max_gbs, s->peak_gbs));
		fprintf(fp, f->look[MESS_KF_TEXT], note);
	}
	fputs(f->end, fp);
}

void mess_kf_family(FILE *fp, const struct mess_summary *s,
		    const struct mess_kf_fmt *f)
{
	double peak = s->peak_gbs;
	char cell[2][96];
	enum mess_kf_look look[2] = { MESS_KF_FIG, MESS_KF_FIG };

	kf_bw(f, s->max_bw_gbs, peak, cell, look, 0);
	kf_row(fp, s, f, MESS_KF_FAM_MAX_BW, cell, look);
	look[0] = MESS_KF_FIG;
	look[1] = MESS_KF_FIG;
	snprintf(cell[0], 96, "%.1f – %.1f", s->sat_bw_min_gbs, s->sat_bw_max_gbs);
	snprintf(cell[1], 96, "%.1f – %.1f", pct_of(s->sat_bw_min_gbs, peak),
		 pct_of(s->sat_bw_max_gbs, peak));
	if (!s->have_sat && mess_summary_not_saturated(s, cell[0], 96)) {
		look[0] = MESS_KF_NOT_SAT;
		snprintf(cell[1], 96, "–");
	} else if (!s->have_sat) {
		look[0] = MESS_KF_UNKNOWN;
		snprintf(cell[0], 96, "%s", f->no_sat);
		snprintf(cell[1], 96, "none");
	}
	kf_row(fp, s, f, MESS_KF_FAM_SAT, cell, look);
	snprintf(cell[0], 96, "%.1f – %.1f", s->max_lat_min_ns, s->max_lat_max_ns);
	if (!isfinite(s->max_lat_min_ns) || !isfinite(s->max_lat_max_ns))
		snprintf(cell[0], 96, "–");
	look[1] = MESS_KF_GAP;
	kf_row(fp, s, f, MESS_KF_FAM_MAX_LAT, cell, look);
}

static int kf_shown(const struct mess_summary *s, const struct mess_kf_fmt *f,
		    enum mess_kf_col col)
{
	if (col == MESS_KF_MAX_BW_PCT || col == MESS_KF_SAT_BW_PCT)
		return f->name[col] && s->peak_gbs > 0.0;
	return f->name[col] && (col != MESS_KF_MEASURED || s->read_counted);
}

void mess_kf_curves(FILE *fp, const struct mess_summary *s,
		    const struct mess_kf_fmt *f)
{
	char cell[MESS_KF_WAVES + 1][96];
	enum mess_kf_look look[MESS_KF_WAVES + 1];
	int col, ncol = 0;

	fputs(f->row, fp);
	for (col = MESS_KF_NAME; col <= MESS_KF_WAVES; col++)
		if (kf_shown(s, f, col) && ++ncol)
			fprintf(fp, f->look[MESS_KF_HEAD], f->name[col]);
	fputs(f->end, fp);
	if (f->rule) {
		fputs(f->row, fp);
		while (ncol--)
			fputs(f->rule, fp);
		fputs(f->end, fp);
	}
	for (size_t i = 0; i < s->ncurves; i++) {
		const struct mess_curve_summary *c = &s->curves[i];
		int by_read = c->store_pct == MESS_STORE_PCT_UNKNOWN;
		/* A curve that never loaded the memory has no saturation and
		 * no waves to count (mess/metrics.h); an empty one has none. */
		int counts = c->loaded || !c->npoints;

		if (f->skip_empty && !c->npoints)
			continue;
		look[MESS_KF_NAME] = by_read ? MESS_KF_TEXT : MESS_KF_FIG;
		snprintf(cell[MESS_KF_NAME], 96, by_read ? "%.0f %% read" : "%.0f",
			 by_read ? c->read_pct : c->store_pct);
		look[MESS_KF_NOMINAL] = kf_num(f, c->read_pct, cell[MESS_KF_NOMINAL], 96);
		look[MESS_KF_MEASURED] = kf_num(f, c->read_points_pct, cell[MESS_KF_MEASURED], 96);
		look[MESS_KF_POINTS] = MESS_KF_FIG;
		snprintf(cell[MESS_KF_POINTS], 96, "%zu", c->npoints);
		kf_bw(f, c->max_bw_gbs, s->peak_gbs, cell, look, MESS_KF_MAX_BW);
		look[MESS_KF_LAT_AT_MAX] = kf_num(f, c->lat_at_max_bw_ns, cell[MESS_KF_LAT_AT_MAX], 96);
		kf_bw(f, c->sat_bw_gbs, s->peak_gbs, cell, look, MESS_KF_SAT_BW);
		if (!c->saturated) {
			look[MESS_KF_SAT_BW] = look[MESS_KF_SAT_BW_PCT] = MESS_KF_WORD;
			snprintf(cell[MESS_KF_SAT_BW], 96, !counts ? "not loaded" :
				 c->sat_unknown ? "unknown" : "none");
			snprintf(cell[MESS_KF_SAT_BW_PCT], 96, !counts ? "–" :
				 c->sat_unknown ? "unknown" : "none");
		}
		look[MESS_KF_MAX_LAT] = kf_num(f, c->max_lat_ns, cell[MESS_KF_MAX_LAT], 96);
		look[MESS_KF_WAVES] = MESS_KF_FIG;
		snprintf(cell[MESS_KF_WAVES], 96, counts ? "%zu" : "–", c->nwaves);
		fputs(f->row, fp);
		for (col = MESS_KF_NAME; col <= MESS_KF_WAVES; col++)
			if (kf_shown(s, f, col))
				fprintf(fp, f->look[look[col]], cell[col]);
		fputs(f->end, fp);
	}
}

#define MD_CELL " %s |"
static const struct mess_kf_fmt md_fmt = {
	.row = "|", .end = "\n", .rule = "---:|",
	.look = { MD_CELL, MD_CELL, MD_CELL, MD_CELL, MD_CELL, " |", MD_CELL },
	.name = {
		[MESS_KF_NAME] = "mix (store %)",
		[MESS_KF_NOMINAL] = "read share, nominal [%]",
		[MESS_KF_MEASURED] = "read share, measured [%]",
		[MESS_KF_POINTS] = "points", [MESS_KF_MAX_BW] = "max BW [GB/s]",
		[MESS_KF_MAX_BW_PCT] = "max BW [% peak]",
		[MESS_KF_LAT_AT_MAX] = "lat at max BW [ns]",
		[MESS_KF_SAT_BW] = "sat. BW [GB/s]",
		[MESS_KF_SAT_BW_PCT] = "sat. BW [% peak]",
		[MESS_KF_MAX_LAT] = "max lat [ns]", [MESS_KF_WAVES] = "waves",
		[MESS_KF_FAM_MAX_BW] = "max bandwidth [GB/s]",
		[MESS_KF_FAM_SAT] = "saturated bandwidth range [GB/s]",
		[MESS_KF_FAM_MAX_LAT] = "maximum latency range [ns]",
	},
	.bw = "%.1f", .unknown = "–", .no_bw = "–", .no_sat = "none",
};

int mess_summary_write_md(FILE *fp, const struct mess_summary *s,
			  const char *title)
{
	double peak = s->peak_gbs;
	int have_peak = peak > 0.0;
	char ns[96];

	if (title && *title)
		fprintf(fp, "## %s\n\n", title);
	fprintf(fp, "Unloaded latency: %.1f ns. ", s->unloaded_ns);
	if (have_peak)
		fprintf(fp, "Theoretical peak: %.1f GB/s. ", peak);
	else
		fprintf(fp, "Theoretical peak: unknown (give it with --peak-gbs GBS, also afterwards: %s --peak-gbs GBS). ",
			s->report_cmd ? s->report_cmd : "mess report DIR");
	fprintf(fp, "Saturation: latency >= 2 x unloaded (%.1f ns); wave: past a curve's maximum bandwidth, a drop > %.1f%% while pressure and latency rise.\n\n",
		2.0 * s->unloaded_ns, 100.0 * s->wave_tol);

	/* Said before the figures, which would otherwise read as memory's. */
	if (mess_summary_not_saturated(s, ns, sizeof(ns)))
		fprintf(fp, "**%c%s**: at that bandwidth the latency stayed within noise of the unloaded latency, so the generators never loaded the memory; the figures below are the chase's latency at the traffic moved, not the memory's bandwidth limit, and no curve has a saturation or waves.\n\n",
			toupper((unsigned char)ns[0]), ns + 1);
	fputs(have_peak ? "| family metric | GB/s or ns | % of peak |\n|---|---:|---:|\n" :
			  "| family metric | GB/s or ns |\n|---|---:|\n", fp);
	mess_kf_family(fp, s, &md_fmt);
	/* One vocabulary (results/README.md, Glossary): a curve is named by
	 * the store % asked for (--mixes), else by its read share; the
	 * memory's read share is a column of its own, nominal (the mix's,
	 * write-allocate counted) and, where counted, measured. */
	fputc('\n', fp);
	mess_kf_curves(fp, s, &md_fmt);
	return ferror(fp) ? -EIO : 0;
}
