// SPDX-License-Identifier: MIT
/*
 * The comparison service: figures from mess/compare.h, written as
 * compare.json (here), compare.md (compare_md.c) and the plots
 * (compare_plot.c), which share the words of compare_verdict.c.
 */
#include "core/compare/compare.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "core/buildinfo.h"
#include "core/compare/compare_files.h"
#include "core/signals.h"
#include "core/util.h"
#include "mess/json.h"
#include "mess/parse.h"

/* Rounded as the figures support: a model answer is no better than the
 * measured points it comes from. */
#define DEC_NS 1
#define DEC_GBS 2
#define DEC_RATIO 3

/* "value": v, "value_source": "..." */
static int val(json_t *o, const char *key, struct mess_cmp_val v, int dec)
{
	char k[96];

	snprintf(k, sizeof(k), "%s_source", key);
	if (mess_json_set(o, key, mess_json_real(v.v, dec)))
		return -ENOMEM;
	return mess_json_set(o, k, json_string(mess_cmp_src(v.src)));
}

static json_t *set_json(const struct mess_compare_ctx *c, size_t i)
{
	const struct mess_set_info *in = c->sets[i].info;
	const struct mess_cmp_set *s = &c->cmp.set[i];
	char dir[PATH_MAX];

	mess_set_dir(in, dir, sizeof(dir));
	return mess_json_pack(
		"{s:s, s:s, s:s, s:s, s:o, s:s, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:s, s:s, s:I,"
		" s:s, s:s, s:o, s:o, s:o, s:o, s:s, s:b, s:o, s:o, s:o, s:s, s:o, s:s}",
		"label", c->labels[i], "path", in->path,
		"kind", in->kind_name ? in->kind_name : "",
		"cpu_model", in->cpu_model,
		"unloaded_ns", mess_json_real(s->unloaded_ns, DEC_NS),
		"unloaded_source", mess_compare_unloaded_source(c, i),
		"max_bw_gbs", mess_json_real(s->max_bw_gbs, DEC_GBS),
		"sat_bw_min_gbs", mess_json_real(s->sat_bw_min_gbs, DEC_GBS),
		"sat_bw_max_gbs", mess_json_real(s->sat_bw_max_gbs, DEC_GBS),
		"max_lat_min_ns", mess_json_real(s->max_lat_min_ns, DEC_NS),
		"max_lat_max_ns", mess_json_real(s->max_lat_max_ns, DEC_NS),
		"read_pct_min", mess_json_real(s->read_min_pct, 2),
		"read_pct_max", mess_json_real(s->read_max_pct, 2),
		"read_pct_kind", mess_compare_share_kind(c, i),
		"saturation", mess_compare_saturation(c, i),
		"curves", (json_int_t)s->ncurves,
		"bw_source", in->bw_source, "huge_pages", in->huge_pages,
		"memory", in->memory[0] ? json_string(in->memory) : json_null(),
		"cores", in->cores >= 0 ? json_integer(in->cores) : json_null(),
		"stride_bytes", mess_json_real(in->stride_bytes, 0),
		"window_bytes", mess_json_real(in->window_bytes, 0),
		"tool", in->tool,
		"latency_from_cycles", in->latency_from_cycles == 1,
		"cpu_ghz", mess_json_real(in->cpu_ghz, 3),
		/* Mess's plotter.txt clock is measured, not nominal. */
		"cpu_ghz_measured", mess_json_real(in->cpu_ghz_measured, 3),
		"complete", in->complete < 0 ? json_null() :
			    json_boolean(in->complete),
		"verdict", mess_compare_verdict(c, i),
		"verdict_reason", in->verdict_reason[0] ?
			json_string(in->verdict_reason) : json_null(),
		"verdict_inherited_from", dir);
}

static json_t *share_json(const struct mess_compare_ctx *c, size_t k)
{
	json_t *sets = json_array();
	json_t *o = mess_json_pack("{s:f, s:o, s:s, s:s, s:b, s:o}",
		"read_pct", mess_cmp_shares[k],
		"common_bw_gbs", mess_json_real(c->cmp.common_bw_gbs[k], DEC_GBS),
		"common_bw_of", c->labels[c->cmp.common_set[k]],
		"common_bw_source", mess_cmp_src(c->cmp.common_src[k]),
		"covered_by_all", mess_compare_covered(c, k), "sets", sets);

	for (size_t i = 0; o && i < c->n; i++) {
		const struct mess_cmp_set *s = &c->cmp.set[i];
		json_t *e = mess_json_pack("{s:s}", "label", c->labels[i]);

		if (!e || val(e, "max_bw_gbs", s->max_bw[k], DEC_GBS) ||
		    val(e, "lat_at_common_bw_ns", s->lat_common[k], DEC_NS) ||
		    val(e, "bw_at_2x_unloaded_gbs", s->bw_2x[k], DEC_GBS) ||
		    json_array_append_new(sets, e)) {
			json_decref(o);
			return NULL;
		}
	}
	return o;
}

/* Set i against set 0. */
static json_t *ratio_json(const struct mess_compare_ctx *c, size_t i)
{
	const struct mess_cmp_set *a = &c->cmp.set[i], *b = &c->cmp.set[0];
	json_t *per = json_array();
	json_t *o = mess_json_pack("{s:s, s:s, s:o, s:o, s:o}",
		"set", c->labels[i], "against", c->labels[0],
		"unloaded_latency", mess_json_real(a->unloaded_ns / b->unloaded_ns, DEC_RATIO),
		"max_bw", mess_json_real(a->max_bw_gbs / b->max_bw_gbs, DEC_RATIO),
		"per_read_share", per);

	for (size_t k = 0; o && k < MESS_CMP_NSHARES; k++) {
		json_t *e = mess_json_pack("{s:f}", "read_pct", mess_cmp_shares[k]);

		if (!e || val(e, "max_bw", mess_cmp_ratio(a->max_bw[k], b->max_bw[k]), DEC_RATIO) ||
		    val(e, "lat_at_common_bw", mess_cmp_ratio(a->lat_common[k], b->lat_common[k]), DEC_RATIO) ||
		    val(e, "bw_at_2x_unloaded", mess_cmp_ratio(a->bw_2x[k], b->bw_2x[k]), DEC_RATIO) ||
		    json_array_append_new(per, e)) {
			json_decref(o);
			return NULL;
		}
	}
	return o;
}

static json_t *app_json(const struct mess_compare_ctx *c, size_t j)
{
	const struct mess_cmp_app *a = &c->apps[j];
	json_t *sets = json_array();
	json_t *o = mess_json_pack("{s:f, s:f, s:s, s:b, s:s, s:o}",
		"read_pct", a->read_pct, "bw_gbs", a->bw_gbs,
		"best", c->labels[a->best], "best_sustains", a->best_sustains,
		"verdict", c->verdict[j], "sets", sets);

	for (size_t i = 0; o && i < a->n; i++) {
		json_t *e = mess_json_pack("{s:s}", "label", c->labels[i]);

		if (!e || val(e, "lat_ns", a->set[i].lat, DEC_NS) ||
		    val(e, "max_bw_gbs", a->set[i].max_bw, DEC_GBS) ||
		    mess_json_set(e, "sustains", json_boolean(a->set[i].sustains)) ||
		    mess_json_set(e, "ties_best", json_boolean(a->set[i].tie)) ||
		    mess_json_set(e, "best_lower_by_ns", mess_json_real(a->set[i].lower_ns, DEC_NS)) ||
		    mess_json_set(e, "best_lower_by_pct", mess_json_real(a->set[i].lower_pct, 1)) ||
		    json_array_append_new(sets, e)) {
			json_decref(o);
			return NULL;
		}
	}
	return o;
}

static json_t *build_json(const struct mess_compare_ctx *c)
{
	json_t *j = mess_json_pack("{s:i, s:s, s:s, s:s, s:{}, s:[], s:[], s:[], s:[], s:[], s:s}",
		"schema", MESS_COMPARE_SCHEMA, "tool", "mess compare",
		"version", mess_version, "git_revision", mess_git_rev,
		"method", "sets", "read_shares", "ratios", "apps", "warnings",
		"plots", c->plots);
	json_t *m = json_object_get(j, "method");
	int err = j ? 0 : -ENOMEM;

	for (size_t k = 0; !err && mess_compare_method[k][0]; k++)
		err = mess_json_set(m, mess_compare_method[k][0],
				    json_string(mess_compare_method[k][1]));
	for (size_t i = 0; !err && i < c->n; i++)
		err = json_array_append_new(json_object_get(j, "sets"), set_json(c, i));
	for (size_t k = 0; !err && k < MESS_CMP_NSHARES; k++)
		err = json_array_append_new(json_object_get(j, "read_shares"), share_json(c, k));
	for (size_t i = 1; !err && i < c->n; i++)
		err = json_array_append_new(json_object_get(j, "ratios"), ratio_json(c, i));
	for (size_t a = 0; !err && a < c->napps; a++)
		err = json_array_append_new(json_object_get(j, "apps"), app_json(c, a));
	for (size_t w = 0; !err && w < c->nwarn; w++)
		err = json_array_append_new(json_object_get(j, "warnings"),
					    json_string(c->warn[w]));
	if (!err) {
		const struct mess_set_info *info[MESS_CMP_MAX_SETS];

		for (size_t i = 0; i < c->n; i++)
			info[i] = c->sets[i].info;
		err = mess_json_set(j, "inherited_verdict",
				    mess_compare_inherited(info, c->labels, c->n));
	}
	if (err) {
		json_decref(j);
		return NULL;
	}
	return j;
}

static int write_md(const struct mess_compare_ctx *c, const char *dir)
{
	FILE *f = mess_tmp_open(dir, "compare.md");

	if (!f)
		return -errno;
	if (mess_compare_write_md(c, f))
		return mess_tmp_abandon(dir, "compare.md", f, -EIO);
	return mess_tmp_commit(dir, "compare.md", f);
}

/*
 * A set that broke its rules is compared all the same, and the reader is
 * told: each such verdict is a warning (stderr, compare.json and
 * compare.md say the same list), and an application's answer that names
 * a winner says when sets it weighed cannot be trusted.
 */
static void untrusted_said(struct mess_compare_ctx *c)
{
	char bad[MESS_CMP_LINE] = "";
	size_t nbad = 0, at = 0;

	for (size_t i = 0; i < c->n && c->nwarn < MESS_COMPARE_MAX_WARN; i++) {
		const char *v = mess_compare_verdict(c, i);
		const char *why = c->sets[i].info->verdict_reason;

		if (!mess_compare_verdict_said(c, i))
			continue;
		snprintf(c->warn[c->nwarn++], MESS_CMP_LINE, "%s: verdict %s%s%s",
			 c->labels[i], v, why[0] ? ": " : !strcmp(v, "pending") ?
			 " (the run stopped before it was judged)" : "", why);
		if (strcmp(v, "WARN") && at < sizeof(bad))
			at += (size_t)snprintf(bad + at, sizeof(bad) - at, "%s%s %s",
					       nbad++ ? ", " : "", c->labels[i], v);
	}
	for (size_t a = 0; nbad && a < c->napps; a++) {
		size_t l = strlen(c->verdict[a]);

		snprintf(c->verdict[a] + l, sizeof(c->verdict[a]) - l,
			 " Not a result to act on: %s (%s not to be trusted; measure again and compare the new run%s).",
			 bad, nbad == 1 ? "its figures are" : "their figures are",
			 nbad == 1 ? "" : "s");
	}
}

static int prepare(struct mess_compare_ctx *c, const struct mess_compare_set *sets,
		   size_t n, const struct mess_compare_opts *o)
{
	const struct mess_family *f[MESS_CMP_MAX_SETS];
	const struct mess_set_info *info[MESS_CMP_MAX_SETS];
	size_t bad = 0;
	int err;

	c->sets = sets;
	c->n = n;
	for (size_t i = 0; i < n; i++) {
		f[i] = sets[i].fam;
		info[i] = sets[i].info;
		c->labels[i] = sets[i].label;
	}
	err = mess_compare_new(f, n, &c->cmp, &bad);
	if (err == -EINVAL)
		mess_say("%s: %s (%s): no curve with a usable point to compare\n",
			o->cmd, sets[bad].label, sets[bad].info->path);
	if (err)
		return err;
	for (size_t a = 0; a < o->napps; a++) {
		err = mess_compare_app(&c->cmp, o->app_read_pct[a], o->app_bw_gbs[a],
				       &c->apps[a]);
		if (err)
			return err;
		mess_compare_app_text(&c->apps[a], c->labels, c->verdict[a],
				      sizeof(c->verdict[a]));
	}
	c->napps = o->napps;
	untrusted_said(c);
	c->nwarn += mess_compare_warnings(info, c->labels, n, c->warn + c->nwarn,
					  MESS_COMPARE_MAX_WARN - c->nwarn);
	if (c->nwarn > MESS_COMPARE_MAX_WARN)
		c->nwarn = MESS_COMPARE_MAX_WARN;
	return 0;
}

int mess_compare_write(const char *outdir, const struct mess_compare_set *sets,
		       size_t n, const struct mess_compare_opts *o)
{
	struct mess_compare_ctx *c;
	char note[512] = "skipped: --no-plots", why[400] = "";
	int err;

	if (n < 2 || n > MESS_CMP_MAX_SETS || o->napps > MESS_COMPARE_MAX_APPS)
		return -EINVAL;
	c = calloc(1, sizeof(*c));
	if (!c)
		return -ENOMEM;
	err = prepare(c, sets, n, o);
	if (!err)
		err = mess_mkdir_p(outdir);
	if (!err && !o->no_plots) {
		if (mess_compare_plot(c, outdir, why, sizeof(why)))
			snprintf(note, sizeof(note), "skipped: %s", why);
		else
			snprintf(note, sizeof(note),
				 "plots/compare.png, plots/compare-ratio.png (and .svg)");
	}
	c->plots = note;
	for (size_t w = 0; !err && w < c->nwarn; w++)
		mess_say("%s: warning: %s\n", o->cmd, c->warn[w]);
	for (size_t a = 0; !err && a < c->napps; a++)
		mess_say("%s: --app %s\n", o->cmd, c->verdict[a]);
	/* Interrupted (the figure is the slow part): nothing more is
	 * written; the caller says so, and the rerun replaces what is left. */
	if (!err && mess_interrupted)
		err = -EINTR;
	if (!err && !o->no_plots && note[0] == 's')
		mess_say("%s: warning: plots %s\n", o->cmd, note);
	if (!err)
		err = mess_json_write(outdir, MESS_COMPARE_JSON, build_json(c));
	if (!err)
		err = write_md(c, outdir);
	if (o->plots_note)
		snprintf(o->plots_note, o->plots_note_len, "%s", note);
	mess_compare_free(&c->cmp);
	free(c);
	return err;
}
