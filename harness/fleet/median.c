// SPDX-License-Identifier: MIT
/*
 * A group's median family as a run directory (curves.csv, meta.json,
 * summary.json) that the set loader reads, so that mess export and mess
 * compare take a partition's typical curves like any run.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/util.h"
#include "fleet/fleet.h"
#include "mess/fleet.h"
#include "mess/json.h"
#include "mess/messfmt.h"
#include "mess/metrics.h"

/* What the median set takes over from its reference node's meta.json:
 * the machine and the method, which every compared node shares. */
static const char *const kept[] = {
	"version", "git_revision", "cpu_model", "isa", "cores", "llc_bytes",
	"llc_level", "line_bytes", "numa_nodes", "memory_node",
	"memory_node_choice", "huge_pages", "bw_source", "bw_accounting",
	"generator", "chase", "repeats", "points_min", "sweep", "points_max", "mixes",
	"quick",
};

struct med {
	const struct mess_model **m;
	double *r, *v;
};

/* The median curve of mix over the group's compared nodes into fam. */
static int one_curve(const struct fleet *f, size_t g, int mix, struct med *w,
		     struct mess_family *fam, const char *bw_source, FILE *csv)
{
	double bw[FLEET_MEDIAN_STEPS], lat[FLEET_MEDIAN_STEPS], sp[FLEET_MEDIAN_STEPS];
	double rmed, sc;
	struct mess_curve *c;
	size_t k = 0;
	int used, rc;

	for (size_t i = 0; i < f->n; i++) {
		const struct fleet_node *nd = &f->node[i];

		if (nd->group == g && nd->part[PART_CURVES].st == ST_OK && nd->model &&
		    isfinite(nd->read_pct[mix / 2])) {
			w->m[k] = nd->model;
			w->r[k++] = nd->read_pct[mix / 2];
		}
	}
	used = mess_fleet_median_curve(w->m, w->r, k, FLEET_MEDIAN_STEPS, bw, lat, sp);
	if (used <= 0)
		return used;
	rc = mess_fleet_robust(w->r, k, 0, &rmed, &sc);
	if (rc < 0)
		return rc;
	c = mess_family_curve(fam, (uint32_t)mix, rmed);
	if (!c)
		return -ENOMEM;
	for (int s = 0; s < FLEET_MEDIAN_STEPS; s++) {
		/* nop falls as the load rises: the order of a measured curve. */
		struct mess_point p = {
			.store_pct = (uint32_t)mix, .read_pct = rmed,
			.nop = (uint64_t)(FLEET_MEDIAN_STEPS - 1 - s), .bw_gbs = bw[s],
			.read_bw_gbs = bw[s] * rmed / 100, .write_bw_gbs = bw[s] * (1 - rmed / 100),
			.lat_ns = lat[s], .lat_ns_std = sp[s], .repeats = (uint32_t)used,
			/* A median over nodes has no accounted twin or walk
			 * figure of its own. */
			.acc_read_bw_gbs = NAN, .acc_write_bw_gbs = NAN,
			.lat_nowalk_ns = NAN, .counter_run_frac = NAN,
			MESS_POINT_TRUST_NAN,
		};

		if (!isfinite(p.lat_ns))
			continue;
		rc = mess_curve_add(c, &p);
		if (!rc)
			rc = mess_curves_csv_write_row(csv, &p, bw_source);
		if (rc)
			return rc;
	}
	return used;
}

static json_t *median_meta(const struct fleet *f, size_t g, double unloaded,
			   double unloaded_sd, size_t nodes, const double ghz[2])
{
	const struct fleet_node *ref = &f->node[f->grp[g].ref[PART_CURVES]];
	char path[PATH_MAX + FLEET_NAME + 16], gname[32];
	json_t *src, *m = json_object(), *names = json_array(), *left = json_array();

	snprintf(path, sizeof(path), "%s/%s/meta.json", f->dir, ref->name);
	src = mess_json_load(path, 0, NULL);
	if (!m || !names || !left || !src) {
		json_decref(m);
		json_decref(names);
		json_decref(left);
		json_decref(src);
		return NULL;
	}
	json_object_set_new(m, "schema", json_integer(1));
	json_object_set_new(m, "tool", json_string("mess fleet"));
	for (size_t k = 0; k < sizeof(kept) / sizeof(kept[0]); k++) {
		json_t *v = json_object_get(src, kept[k]);

		if (v)
			json_object_set(m, kept[k], v);
	}
	json_decref(src);
	for (size_t i = 0; i < f->n; i++)
		if (f->node[i].group == g && f->node[i].part[PART_CURVES].st == ST_OK)
			json_array_append_new(names, json_string(f->node[i].name));
		else if (f->node[i].group == g && f->node[i].part[PART_CURVES].st == ST_INVALID)
			json_array_append_new(left, json_string(f->node[i].name));
	if (mess_json_merge(m, mess_json_pack(
		"{s:{s:s, s:s, s:s, s:I, s:o, s:o, s:b, s:s, s:s, s:s, s:s}, s:o, s:o, s:{s:o, s:o, s:s}, s:b}",
		"fleet_median",
		"what", "a fleet median of compared nodes, not a measurement of one node",
		"fleet", f->dir, "group", fleet_group_name(g, gname, sizeof(gname)),
		"nodes", (json_int_t)nodes, "node_names", names,
		"invalid_left_out", left, "with_invalid", f->with_invalid,
		"method", "per curve, every node's curve model read at the same fractions u = k/20 of its own maximum bandwidth; the median latency at each u, at u x the median maximum bandwidth",
		"lat_ns_std", "1.4826 x median absolute deviation of the nodes' latencies at that point",
		"repeats", "the nodes the curve was made from",
		"unloaded_ns", "median of the nodes' chase-only latencies; unloaded_std_ns 1.4826 x their MAD",
		"unloaded_ns", mess_json_real(unloaded, 3),
		"unloaded_std_ns", mess_json_real(unloaded_sd, 3),
		"cpu_frequency", "nominal_ghz", mess_json_real(ghz[0], 3),
		"measured_ghz", mess_json_real(ghz[1], 3),
		"source", "medians over the nodes",
		"complete", 1))) {
		json_decref(m);
		return NULL;
	}
	return m;
}

/* Medians over the group's compared nodes of a per-node figure. */
static void node_median(const struct fleet *f, size_t g, double *v,
			double (*get)(const struct fleet_node *), double *md, double *sd)
{
	size_t k = 0;

	for (size_t i = 0; i < f->n; i++)
		if (f->node[i].group == g && f->node[i].part[PART_CURVES].st == ST_OK)
			v[k++] = get(&f->node[i]);
	if (mess_fleet_robust(v, k, 0, md, sd) < 0)
		*md = *sd = NAN;
}

static double get_unloaded(const struct fleet_node *nd) { return nd->unloaded_ns; }
static double get_ghz(const struct fleet_node *nd) { return nd->info.cpu_ghz; }
static double get_ghz_measured(const struct fleet_node *nd) { return nd->info.cpu_ghz_measured; }

static int one_group(struct fleet *f, size_t g, const char *outdir, struct med *w,
		     char *err, size_t errlen)
{
	struct fleet_group *gr = &f->grp[g];
	const struct fleet_node *ref = &f->node[gr->ref[PART_CURVES]];
	struct mess_family fam = { 0 };
	struct mess_summary s = { 0 };
	double unloaded, usd, ghz[2], dummy;
	char dir[PATH_MAX + 64];
	FILE *csv;
	int rc, used = 0;

	snprintf(gr->median_dir, sizeof(gr->median_dir), "median-g%zu", g + 1);
	snprintf(dir, sizeof(dir), "%s/%s", outdir, gr->median_dir);
	rc = mess_mkdir_p(dir);
	csv = rc ? NULL : mess_file_open(dir, "curves.csv", "w");
	if (!csv) {
		rc = rc ? rc : -errno;
		snprintf(err, errlen, "%s: %s", dir, strerror(-rc));
		gr->median_dir[0] = '\0';
		return rc;
	}
	rc = mess_curves_csv_write_header(csv);
	for (int x = 0; !rc && x < FLEET_NMIX; x++) {
		if (!isfinite(ref->max_bw[x]))
			continue;
		rc = one_curve(f, g, 2 * x, w, &fam, ref->info.bw_source[0] ?
			       ref->info.bw_source : NULL, csv);
		if (rc > used)
			used = rc;
		rc = rc < 0 ? rc : 0;
	}
	if (fclose(csv) && !rc)
		rc = -errno;
	node_median(f, g, w->v, get_unloaded, &unloaded, &usd);
	node_median(f, g, w->v, get_ghz, &ghz[0], &dummy);
	node_median(f, g, w->v, get_ghz_measured, &ghz[1], &dummy);
	gr->median_nodes = (size_t)used;
	if (!rc)
		rc = mess_json_write(dir, "meta.json", median_meta(f, g, unloaded, usd,
							     (size_t)used, ghz));
	/* summary.json as a run has it (mess export and people read it). */
	if (!rc && isfinite(unloaded) && !mess_summarise(&fam, unloaded, 0, 0.02, &s)) {
		FILE *fp = mess_tmp_open(dir, "summary.json");

		rc = fp ? mess_summary_write_json(fp, &s, NULL) : -errno;
		if (fp)
			rc = mess_tmp_commit(dir, "summary.json", fp) ?: rc;
		mess_summary_free(&s);
	}
	mess_family_free(&fam);
	if (rc)
		snprintf(err, errlen, "%s: %s", dir, strerror(-rc));
	return rc;
}

int fleet_write_medians(struct fleet *f, const char *outdir, char *err,
			size_t errlen)
{
	size_t n = f->n ? f->n : 1;
	struct med w = { calloc(n, sizeof(*w.m)), calloc(n, sizeof(double)),
			 calloc(n, sizeof(double)) };
	int rc = 0;

	if (!w.m || !w.r || !w.v)
		rc = -ENOMEM;
	for (size_t g = 0; !rc && g < f->ngroups; g++)
		if (f->grp[g].compared && f->grp[g].ref[PART_CURVES] != (size_t)-1)
			rc = one_group(f, g, outdir, &w, err, errlen);
	if (rc == -ENOMEM)
		snprintf(err, errlen, "out of memory");
	free(w.m);
	free(w.r);
	free(w.v);
	return rc;
}
