// SPDX-License-Identifier: MIT
/*
 * mess position's files: position.csv (every interval), summary.json
 * (time per region, bandwidth, latency, score, and the curve set with how
 * it was measured), position.md and the plot.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/report/plot.h"
#include "core/util.h"
#include "mess/json.h"
#include "position/position.h"

#define SUMMARY_SCHEMA 1
#define MD_ROWS 60	/* intervals listed in position.md */

static const char *const pos_region_names[POS_NREGIONS] = {
	[POS_LOW] = "low", [POS_RISING] = "rising",
	[POS_SATURATED] = "saturated", [POS_UNKNOWN] = "unknown",
	[POS_UNMEASURED] = "unmeasured",
};

static const char *const status_names[] = {
	[MESS_TRACE_MEASURED] = "measured",
	[MESS_TRACE_NOT_COUNTED] = "not counted",
	[MESS_TRACE_NOT_SUPPORTED] = "not supported",
};

#define CSV_HEADER "t_end_s,dur_s,read_bytes,write_bytes,bw_gbs,read_pct,lat_ns,lat_source," \
	"max_bw_gbs,bw_of_max_pct,beyond_max,sat_bw_gbs,stress_score,stress_curve_read_pct,region,status," \
	"running_pct,label"

/* Totals over the intervals, for summary.json and position.md. */
struct totals {
	double dur, measured_dur, bytes, read_bytes, max_bw, max_bw_at;
	double lat_time, lat_sum, max_lat, score_time, score_sum, max_score;
	double region_s[POS_NREGIONS];
	size_t region_n[POS_NREGIONS], extrapolated, no_score, measured;
};

static void totals(const struct position *p, struct totals *t)
{
	*t = (struct totals){ .max_bw = NAN, .max_lat = NAN, .max_score = NAN };
	for (size_t i = 0; i < p->tr.n; i++) {
		const struct mess_trace_interval *iv = &p->tr.iv[i];
		const struct pos_row *r = &p->rows[i];

		t->dur += iv->dur_s;
		t->region_s[r->region] += iv->dur_s;
		t->region_n[r->region]++;
		if (r->region == POS_UNMEASURED)
			continue;
		t->measured++;
		t->measured_dur += iv->dur_s;
		t->bytes += iv->read_bytes + iv->write_bytes;
		t->read_bytes += iv->read_bytes;
		if (!(r->bw_gbs <= t->max_bw)) {
			t->max_bw = r->bw_gbs;
			t->max_bw_at = iv->t_end_s;
		}
		if (isfinite(r->lat_ns)) {
			t->lat_time += iv->dur_s;
			t->lat_sum += r->lat_ns * iv->dur_s;
			t->max_lat = fmax(r->lat_ns, isnan(t->max_lat) ? r->lat_ns : t->max_lat);
		}
		if (r->lat_src > 0 && (r->lat_src & MESS_SRC_EXTRAPOLATED))
			t->extrapolated++;
		if (isfinite(r->score)) {
			t->score_time += iv->dur_s;
			t->score_sum += r->score * iv->dur_s;
			t->max_score = fmax(r->score, isnan(t->max_score) ? r->score : t->max_score);
		} else {
			t->no_score++;
		}
	}
}

static double ratio(double a, double b)
{
	return b > 0 ? a / b : NAN;
}

/* A likwid region name as one CSV field. */
static void csv_text(FILE *f, const char *s)
{
	fputs(",\"", f);
	for (; *s; s++)
		fprintf(f, *s == '"' ? "\"\"" : "%c", *s);
	fputc('"', f);
}

static int write_csv(const struct position *p, const char *dir)
{
	FILE *f = mess_tmp_open(dir, "position.csv");

	if (!f)
		return -errno;
	fprintf(f, CSV_HEADER "\n");
	for (size_t i = 0; i < p->tr.n; i++) {
		const struct mess_trace_interval *iv = &p->tr.iv[i];
		const struct pos_row *r = &p->rows[i];

		fprintf(f, "%.6f,%.6f", iv->t_end_s, iv->dur_s);
		mess_csv_num(f, iv->read_bytes, 0);
		mess_csv_num(f, iv->write_bytes, 0);
		mess_csv_num(f, r->bw_gbs, 4);
		mess_csv_num(f, r->read_pct, 3);
		mess_csv_num(f, r->lat_ns, 3);
		fprintf(f, ",%s", r->lat_src >= 0 ? mess_src_name(r->lat_src) : "");
		mess_csv_num(f, r->max_bw_gbs, 4);
		mess_csv_num(f, 100 * ratio(r->bw_gbs, r->max_bw_gbs), 2);
		fprintf(f, ",%d", r->beyond_max);
		mess_csv_num(f, r->sat_bw_gbs, 4);
		mess_csv_num(f, r->score, 4);
		mess_csv_num(f, r->score_curve_pct, 2);
		fprintf(f, ",%s,%s", pos_region_names[r->region],
			status_names[iv->status]);
		mess_csv_num(f, iv->running_pct, 2);
		csv_text(f, iv->label);
		fputc('\n', f);
	}
	return mess_tmp_commit(dir, "position.csv", f);
}

/* "" and -1 mean unknown in mess_set_info: null, never a made-up value. */
static json_t *str_or_null(const char *s)
{
	return s && s[0] ? json_string(s) : json_null();
}

static json_t *int_or_null(int v)
{
	return v >= 0 ? json_integer(v) : json_null();
}

const char *pos_verdict_means(const struct position *p)
{
	const char *v = mess_set_verdict(&p->info);

	if (!strcmp(v, "INVALID"))
		return "not a result to act on: the curves' figures are not to be trusted, nor the positions read on them; measure the curves again";
	if (!strcmp(v, "pending"))
		return "not a result to act on: the curves' run stopped before it was judged";
	if (!strcmp(v, "WARN"))
		return "the curves hold only within their stated spread, and so do the positions read on them";
	return "";
}

/* Nothing is measured here: the verdict is the curves', and says whose. */
json_t *pos_verdict_json(const struct position *p)
{
	char dir[PATH_MAX];

	mess_set_dir(&p->info, dir, sizeof(dir));
	return mess_json_pack("{s:s, s:o, s:i, s:s, s:o}",
		"verdict", mess_set_verdict(&p->info),
		"reason", str_or_null(p->info.verdict_reason),
		"reasons", p->info.verdict_reasons, "inherited_from", dir,
		"means", str_or_null(pos_verdict_means(p)));
}

static json_t *curves_json(const struct position *p)
{
	const struct mess_set_info *in = &p->info;

	return mess_json_pack("{s:s, s:s, s:s, s:o, s:s, s:o, s:o, s:b, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o}",
		"path", in->path, "kind", in->kind_name, "label", in->label,
		"unloaded_ns", mess_json_real(in->unloaded_ns, 3),
		"unloaded_source", in->unloaded_source ? in->unloaded_source : "none",
		"cpu_ghz", mess_json_real(in->cpu_ghz, 6),
		"cpu_ghz_measured", mess_json_real(in->cpu_ghz_measured, 6),
		"latency_from_cycles", in->latency_from_cycles == 1,
		"bw_source", str_or_null(in->bw_source),
		"huge_pages", str_or_null(in->huge_pages),
		"cores", int_or_null(in->cores),
		"stride_bytes", mess_json_real(in->stride_bytes > 0 ? in->stride_bytes : NAN, 0),
		"window_bytes", mess_json_real(in->window_bytes > 0 ? in->window_bytes : NAN, 0),
		"tool", str_or_null(in->tool), "cpu_model", str_or_null(in->cpu_model),
		"complete", in->complete < 0 ? json_null() : json_boolean(in->complete),
		"curves_in_model", json_integer((json_int_t)mess_model_ncurves(p->m)));
}

static json_t *trace_json(const struct position *p, const struct totals *t)
{
	json_t *un = json_array();

	for (size_t i = 0; un && i < p->tr.n; i++)
		if (p->tr.iv[i].status != MESS_TRACE_MEASURED)
			json_array_append_new(un, mess_json_pack("{s:o, s:i, s:s}",
				"t_end_s", mess_json_real(p->tr.iv[i].t_end_s, 6),
				"line", p->tr.iv[i].line,
				"status", status_names[p->tr.iv[i].status]));
	return mess_json_pack("{s:s, s:s, s:I, s:I, s:o, s:s, s:s, s:s, s:s, s:s, s:f, s:o}",
		"path", p->trace_path, "format", p->tr.format,
		"intervals", (json_int_t)p->tr.n, "measured", (json_int_t)t->measured,
		"duration_s", mess_json_real(t->dur, 6),
		"read_events", p->tr.read_events, "write_events", p->tr.write_events,
		"ignored_events", p->tr.ignored_events,
		"read_event", p->read_re, "write_event", p->write_re,
		"bytes_per_count", p->bytes_per_count, "unmeasured", un);
}

static int write_summary(const struct position *p, const struct totals *t,
			 const char *dir)
{
	json_t *reg = json_object(), *j;

	for (int i = 0; reg && i < POS_NREGIONS; i++)
		json_object_set_new(reg, pos_region_names[i], mess_json_pack("{s:o, s:o, s:I}",
			"seconds", mess_json_real(t->region_s[i], 6),
			"pct", mess_json_real(100 * ratio(t->region_s[i], t->dur), 2),
			"intervals", (json_int_t)t->region_n[i]));
	j = mess_json_pack("{s:i, s:o, s:o, s:o, s:o, s:o, s:{s:o, s:o, s:o, s:o}, s:{s:o, s:o, s:I, s:I}, s:{s:o, s:o, s:I, s:s, s:o, s:s}, s:s}",
		"schema", SUMMARY_SCHEMA, "trace", trace_json(p, t),
		"curves", curves_json(p), "inherited_verdict", pos_verdict_json(p),
		"saturation_latency_ns", mess_json_real(2 * p->unloaded_ns, 3),
		"regions", reg,
		"bandwidth", "mean_gbs", mess_json_real(ratio(t->bytes, t->measured_dur) / 1e9, 4),
		"max_gbs", mess_json_real(t->max_bw, 4),
		"max_at_s", mess_json_real(isfinite(t->max_bw) ? t->max_bw_at : NAN, 6),
		"read_pct", mess_json_real(100 * ratio(t->read_bytes, t->bytes), 3),
		"latency", "mean_ns", mess_json_real(ratio(t->lat_sum, t->lat_time), 3),
		"max_ns", mess_json_real(t->max_lat, 3),
		"extrapolated_intervals", (json_int_t)t->extrapolated,
		"beyond_max_intervals", (json_int_t)p->beyond,
		"stress_score", "mean", mess_json_real(ratio(t->score_sum, t->score_time), 4),
		"max", mess_json_real(t->max_score, 4),
		"undefined_intervals", (json_int_t)t->no_score,
		"definition", "PROFET's (bsc-mem/PROFET, Curve.get_stress_score): 0.8 (L - L0)/(Lmax - L0) + 0.2 angle/90 on the curve nearest in read share; see include/mess/stress.h",
		"cpu_ghz", mess_json_real(p->ghz, 6), "cpu_ghz_source", p->ghz_source,
		"method", "see results/README.md, 'mess position'");
	return mess_json_write(dir, "summary.json", j);
}

static void md_num(FILE *f, double v, const char *fmt)
{
	if (isfinite(v))
		fprintf(f, fmt, v);
	else
		fputs(" – |", f);
}

static int write_md(const struct position *p, const struct totals *t,
		    const char *dir)
{
	FILE *f = mess_tmp_open(dir, "position.md");
	const struct mess_set_info *in = &p->info;
	char from[PATH_MAX];

	if (!f)
		return -errno;
	fprintf(f, "# Memory position: %s on %s\n\n", p->trace_path, in->label);
	/* Nothing measured here: the verdict is the curves', said whose. */
	mess_set_dir(in, from, sizeof(from));
	fprintf(f, "## Verdict: %s, the curves'\n\nInherited from the curves read, `%s`%s%s.%s%s%s\n\n",
		mess_set_verdict(in), from, in->verdict_reason[0] ? ": " : "",
		in->verdict_reason, pos_verdict_means(p)[0] ? "  **For the positions: " : "",
		pos_verdict_means(p), pos_verdict_means(p)[0] ? ".**" : "");
	fprintf(f, "Curves: `%s` (%s%s%s%s%s), unloaded latency %.1f ns (%s); saturation point: the model's latency reaches %.1f ns, 2x unloaded.\n\n",
		in->path, in->kind_name, in->cpu_model[0] ? ", " : "", in->cpu_model,
		in->tool[0] ? ", " : "", in->tool, p->unloaded_ns,
		in->unloaded_source ? in->unloaded_source : "none", 2 * p->unloaded_ns);
	fprintf(f, "Trace: `%s` (%s), %zu intervals over %.3f s, %zu measured.  Read: %s.  Write: %s.\n\n",
		p->trace_path, p->tr.format, p->tr.n, t->dur, t->measured,
		p->tr.read_events, p->tr.write_events);
	fprintf(f, "| region | time s | %% of the trace | intervals |\n|---|---:|---:|---:|\n");
	for (int i = 0; i < POS_NREGIONS; i++)
		fprintf(f, "| %s | %.3f | %.1f | %zu |\n", pos_region_names[i],
			t->region_s[i], 100 * ratio(t->region_s[i], t->dur), t->region_n[i]);
	fprintf(f, "\nBandwidth: mean %.2f GB/s, max %.2f GB/s.  Model latency: mean %.1f ns, max %.1f ns (%zu intervals extrapolated).  Stress score: mean %.3f, max %.3f (%zu intervals without one).\n\n",
		ratio(t->bytes, t->measured_dur) / 1e9, t->max_bw,
		ratio(t->lat_sum, t->lat_time), t->max_lat, t->extrapolated,
		ratio(t->score_sum, t->score_time), t->max_score, t->no_score);
	if (p->beyond)
		fprintf(f, "**Beyond the curves: %zu of %zu intervals** carry more bandwidth than the curves reached at their read share (the family's maximum: %.1f GB/s): their latency is extrapolated past what was measured, and a %% of max above 100 is impossible for the measured memory; were the curves measured on the memory the trace counted (position.csv `beyond_max`)?\n\n",
			p->beyond, p->tr.n, p->fam_max_gbs);
	fprintf(f, "| end s | GB/s | read %% | latency ns | source | %% of max | score | region |\n|---:|---:|---:|---:|---|---:|---:|---|\n");
	for (size_t i = 0; i < p->tr.n && i < MD_ROWS; i++) {
		const struct pos_row *r = &p->rows[i];

		fprintf(f, "| %.3f |", p->tr.iv[i].t_end_s);
		md_num(f, r->bw_gbs, " %.2f |");
		md_num(f, r->read_pct, " %.1f |");
		md_num(f, r->lat_ns, " %.1f |");
		fprintf(f, " %s |", r->lat_src >= 0 ? mess_src_name(r->lat_src) : "–");
		/* Above 100 % the measured memory cannot be. */
		if (r->beyond_max)
			fprintf(f, " %.1f (impossible) |", 100 * ratio(r->bw_gbs, r->max_bw_gbs));
		else
			md_num(f, 100 * ratio(r->bw_gbs, r->max_bw_gbs), " %.1f |");
		md_num(f, r->score, " %.3f |");
		fprintf(f, " %s |\n", pos_region_names[r->region]);
	}
	if (p->tr.n > MD_ROWS)
		fprintf(f, "\nThe first %d of %zu intervals; all are in position.csv.\n",
			MD_ROWS, p->tr.n);
	fprintf(f, "\nRegions: low below 50%% of the maximum bandwidth at the interval's read share, rising up to the saturation point, saturated beyond; unmeasured where the counters did not count.  How each figure is computed: results/README.md, \"mess position\".\n");
	return mess_tmp_commit(dir, "position.md", f);
}

int pos_write(const struct position *p, const char *dir)
{
	struct totals t;
	int rc;

	totals(p, &t);
	rc = write_csv(p, dir);
	if (!rc)
		rc = write_summary(p, &t, dir);
	return rc ? rc : write_md(p, &t, dir);
}

/* The family as comma-separated blocks, points in pressure order. */
static int write_curves(const struct position *p, const char *dir)
{
	FILE *f = mess_file_open(dir, "position_curves.dat", "w");
	int blocks = 0;

	if (!f)
		return -errno;
	fprintf(f, "# bw_gbs,lat_ns,read_pct: one block per curve\n");
	for (size_t i = 0; i < p->fam.n; i++) {
		const struct mess_curve *c = &p->fam.curves[i];

		if (!mess_curve_usable(c))
			continue;
		fprintf(f, "%s# read %.2f%%\n", blocks++ ? "\n\n" : "", c->read_pct);
		for (size_t k = 0; k < c->n; k++)
			if (mess_point_usable(&c->pts[k]))
				fprintf(f, "%.6f,%.4f,%.3f\n", c->pts[k].bw_gbs,
					c->pts[k].lat_ns, c->read_pct);
	}
	return fclose(f) ? -EIO : blocks ? 0 : -ENODATA;
}

int pos_plot(const struct position *p, const char *dir, char *err,
	     size_t errlen)
{
	char pdir[PATH_MAX], qrun[2 * PATH_MAX], title[PATH_MAX + 200], qtitle[2 * PATH_MAX + 400];
	char log[PATH_MAX + 32], *expr;
	int rc;

	snprintf(pdir, sizeof(pdir), "%s/plots", dir);
	rc = mess_subdir(pdir);
	if (!rc)
		rc = write_curves(p, pdir);
	if (rc)
		return mess_fail(err, errlen, rc, "cannot write %s/position_curves.dat: %s", pdir,
			strerror(-rc));
	/* The curves' verdict first, as every figure's (issue 46): the
	 * positions are only as good as the curves they are read on.  The
	 * whole names: plots/style.gp wraps a long title. */
	snprintf(title, sizeof(title), "%s: %s on %s", p->info.verdict[0] ? p->info.verdict :
		 "no verdict", strrchr(p->trace_path, '/') ? strrchr(p->trace_path, '/') + 1 :
		 p->trace_path, p->info.label);
	mess_gp_quote(qrun, sizeof(qrun), dir);
	mess_gp_quote(qtitle, sizeof(qtitle), title);
	snprintf(log, sizeof(log), "%s/position-gnuplot.log", pdir);
	if (asprintf(&expr, "rundir='%s'; plottitle='%s'; unloaded=%.3f; beyond=%zu; curvemax=%.3f",
		     qrun, qtitle, isfinite(p->unloaded_ns) ? p->unloaded_ns : 0.0,
		     p->beyond, p->beyond ? p->fam_max_gbs : 0.0) < 0)
		return -ENOMEM;
	rc = mess_gnuplot("position.gp", expr, log, err, errlen);
	free(expr);
	return rc;
}
