// SPDX-License-Identifier: MIT
/*
 * What is compared with what: nodes grouped by configuration (the curve
 * run's meta.json), in each group the way most of its nodes were measured
 * as the reference (a node measured otherwise is listed, not compared),
 * one column per figure, robust z-scores within each group.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fleet/fleet.h"
#include "mess/fleet.h"

const char *fleet_group_name(size_t g, char *buf, size_t len)
{
	if (g == MESS_FLEET_NO_GROUP)
		snprintf(buf, len, "-");
	else
		snprintf(buf, len, "g%zu", g + 1);
	return buf;
}

const char *const fleet_verdict_name[FV_N] = {
	[FV_PASS] = "PASS", [FV_WARN] = "WARN", [FV_INVALID] = "INVALID",
	[FV_PENDING] = "pending", [FV_NONE] = "none",
};

enum fleet_verdict fleet_verdict(const struct fleet_node *nd)
{
	const char *v = mess_set_verdict(&nd->info);

	for (int k = 0; k < FV_N; k++)
		if (!strcmp(v, fleet_verdict_name[k]))
			return (enum fleet_verdict)k;
	return FV_NONE;
}

/*
 * Count the verdicts; a complete run whose verdict is INVALID broke the
 * rules a trusted run keeps, so it stays out of its group's reference
 * method, medians, z-scores and median set (listed, its figures shown)
 * unless --with-invalid takes it in.  Done before the groups: a left-out
 * run must not be the one the others are measured against.
 */
static void verdicts(struct fleet *f)
{
	for (size_t i = 0; i < f->n; i++) {
		struct fleet_node *nd = &f->node[i];
		struct fleet_part_data *c = &nd->part[PART_CURVES];
		enum fleet_verdict v = fleet_verdict(nd);

		f->nverdict[v]++;
		if (v != FV_INVALID || c->st != ST_OK || f->with_invalid)
			continue;
		c->st = ST_INVALID;
		snprintf(c->why, sizeof(c->why), "its verdict is INVALID%s%s (meta.json quality); left out of the statistics and the median set (--with-invalid takes it in)",
			 nd->info.verdict_reason[0] ? ": " : "", nd->info.verdict_reason);
		f->invalid_left_out++;
	}
}

/* Groups, then per group and part the reference method: the most common
 * among its nodes whose part is complete. */
static int groups(struct fleet *f)
{
	const char **keys = calloc(f->n ? f->n : 1, sizeof(*keys));
	size_t *gi = calloc(f->n ? f->n : 1, sizeof(*gi)), *sub = calloc(f->n ? f->n : 1, sizeof(*sub));
	int rc = -ENOMEM;

	if (!keys || !gi || !sub)
		goto out;
	for (size_t i = 0; i < f->n; i++)
		keys[i] = f->node[i].config_key;
	rc = mess_fleet_group(keys, f->n, gi, &f->ngroups);
	if (rc)
		goto out;
	f->grp = calloc(f->ngroups ? f->ngroups : 1, sizeof(*f->grp));
	if (!f->grp) {
		rc = -ENOMEM;
		goto out;
	}
	for (size_t i = 0; i < f->n; i++) {
		f->node[i].group = gi[i];
		if (gi[i] != MESS_FLEET_NO_GROUP)
			f->grp[gi[i]].nodes++;
	}
	for (size_t g = 0; g < f->ngroups; g++)
		for (int p = 0; p < NPARTS; p++) {
			size_t nsub;

			f->grp[g].ref[p] = (size_t)-1;
			for (size_t i = 0; i < f->n; i++)
				keys[i] = gi[i] == g && f->node[i].part[p].st == ST_OK ?
					f->node[i].part[p].method_key : NULL;
			rc = mess_fleet_group(keys, f->n, sub, &nsub);
			if (rc)
				goto out;
			for (size_t i = 0; i < f->n; i++) {
				if (!keys[i])
					continue;
				if (sub[i] == 0 && f->grp[g].ref[p] == (size_t)-1)
					f->grp[g].ref[p] = i;
				if (sub[i] != 0)
					f->node[i].part[p].st = ST_DIFFERENT;
			}
		}
	for (size_t i = 0; i < f->n; i++)
		if (gi[i] != MESS_FLEET_NO_GROUP && f->node[i].part[PART_CURVES].st == ST_OK)
			f->grp[gi[i]].compared++;
out:
	free(keys);
	free(gi);
	free(sub);
	return rc;
}

static int add_metric(struct fleet *f, size_t *cap, const struct fleet_metric *m)
{
	for (size_t j = 0; j < f->m; j++)
		if (!strcmp(f->metric[j].name, m->name))
			return 0;
	if (f->m == *cap) {
		size_t nc = *cap ? 2 * *cap : 32;
		struct fleet_metric *nm = realloc(f->metric, nc * sizeof(*nm));

		if (!nm)
			return -ENOMEM;
		f->metric = nm;
		*cap = nc;
	}
	f->metric[f->m] = *m;
	/* A robust z alone flags trivia on a fleet of identical nodes (a
	 * tiny MAD): a deviation must also be a real share of the median.
	 * The latency at the common bandwidth is read on the curve's slope,
	 * which multiplies a bandwidth shift of a few % several times. */
	f->metric[f->m++].min_effect = m->kind == M_LATCOMMON ? FLEET_MIN_EFFECT_SLOPE :
				       FLEET_MIN_EFFECT;
	return 0;
}

/* Every figure some node has, in a fixed order: curves, ladder, table. */
static int columns(struct fleet *f)
{
	size_t cap = 0;
	struct fleet_metric m;
	int rc = 0;

	m = (struct fleet_metric){ .name = "unloaded_ns", .label = "unloaded latency (ns)",
				   .part = PART_CURVES, .kind = M_UNLOADED };
	rc = add_metric(f, &cap, &m);
	for (int k = 0; !rc && k < FLEET_NMIX; k++)
		for (size_t i = 0; i < f->n; i++)
			if (isfinite(f->node[i].max_bw[k])) {
				m = (struct fleet_metric){ .part = PART_CURVES, .kind = M_MAXBW,
							   .mix = 2 * k, .lower_is_worse = 1 };
				snprintf(m.name, sizeof(m.name), "max_bw_s%d_gbs", 2 * k);
				snprintf(m.label, sizeof(m.label), "max bandwidth, %d %% stores (GB/s)", 2 * k);
				rc = add_metric(f, &cap, &m);
				break;
			}
	m = (struct fleet_metric){ .name = "sat_bw_min_gbs",
				   .label = "saturated bandwidth, lowest curve (GB/s)",
				   .part = PART_CURVES, .kind = M_SATMIN, .lower_is_worse = 1 };
	if (!rc)
		rc = add_metric(f, &cap, &m);
	m = (struct fleet_metric){ .name = "sat_bw_max_gbs",
				   .label = "saturated bandwidth, highest curve (GB/s)",
				   .part = PART_CURVES, .kind = M_SATMAX, .lower_is_worse = 1 };
	if (!rc)
		rc = add_metric(f, &cap, &m);
	m = (struct fleet_metric){ .name = "lat_common_ns",
				   .label = "latency at the common bandwidth (ns)",
				   .part = PART_CURVES, .kind = M_LATCOMMON };
	if (!rc)
		rc = add_metric(f, &cap, &m);
	for (size_t i = 0; !rc && i < f->n; i++)
		for (size_t l = 0; !rc && l < f->node[i].nlevels; l++) {
			m = (struct fleet_metric){ .part = PART_LADDER, .kind = M_LEVEL };
			snprintf(m.key, sizeof(m.key), "%s", f->node[i].level[l].name);
			snprintf(m.name, sizeof(m.name), "ladder_%s_ns", m.key);
			snprintf(m.label, sizeof(m.label), "ladder %s latency (ns)", m.key);
			rc = add_metric(f, &cap, &m);
		}
	for (size_t i = 0; !rc && i < f->n; i++)
		for (size_t r = 0; !rc && r < f->node[i].nrows; r++) {
			const struct fleet_row *row = &f->node[i].row[r];

			m = (struct fleet_metric){ .part = PART_ABSORB, .kind = M_ROW,
						   .lower_is_worse = strcmp(row->unit, "ns") != 0 };
			snprintf(m.key, sizeof(m.key), "%s", row->key);
			snprintf(m.name, sizeof(m.name), "%s_%s", row->key, row->unit);
			snprintf(m.label, sizeof(m.label), "%s, clean kernel (%s)", row->key, row->unit);
			rc = add_metric(f, &cap, &m);
		}
	return rc;
}

static double value(const struct fleet_node *nd, const struct fleet_metric *m)
{
	switch (m->kind) {
	case M_UNLOADED:
		return nd->unloaded_ns;
	case M_MAXBW:
		return nd->max_bw[m->mix / 2];
	case M_SATMIN:
		return nd->sat_min;
	case M_SATMAX:
		return nd->sat_max;
	case M_LATCOMMON:
		return nd->lat_common;
	case M_LEVEL:
		for (size_t l = 0; l < nd->nlevels; l++)
			if (!strcmp(nd->level[l].name, m->key))
				return nd->level[l].ns;
		return NAN;
	case M_ROW:
		for (size_t r = 0; r < nd->nrows; r++)
			if (!strcmp(nd->row[r].key, m->key))
				return nd->row[r].perf;
		return NAN;
	}
	return NAN;
}

/*
 * Per group, the latency at one bandwidth every node reaches: half the
 * median maximum of the group's compared nodes on the curve with the
 * fewest stores the reference node measured, read on each node's curve
 * model at that curve's read share.
 */
static void common_bw(struct fleet *f)
{
	double *v = malloc((f->n ? f->n : 1) * sizeof(*v)), md, sc;

	for (size_t g = 0; g < f->ngroups; g++) {
		struct fleet_group *gr = &f->grp[g];
		size_t ref = gr->ref[PART_CURVES], k = 0;

		gr->mix = -1;
		gr->common_bw = NAN;
		if (!v || ref == (size_t)-1)
			continue;
		for (int x = 0; x < FLEET_NMIX && gr->mix < 0; x++)
			if (isfinite(f->node[ref].max_bw[x]))
				gr->mix = 2 * x;
		if (gr->mix < 0)
			continue;
		for (size_t i = 0; i < f->n; i++)
			if (f->node[i].group == g && f->node[i].part[PART_CURVES].st == ST_OK)
				v[k++] = f->node[i].max_bw[gr->mix / 2];
		if (mess_fleet_robust(v, k, 0, &md, &sc) > 0)
			gr->common_bw = FLEET_COMMON_FRAC * md;
		for (size_t i = 0; i < f->n; i++) {
			struct fleet_node *nd = &f->node[i];
			double r = nd->read_pct[gr->mix / 2];

			if (nd->group != g || !nd->model || !isfinite(r) ||
			    !isfinite(gr->common_bw))
				continue;
			nd->common_bw = gr->common_bw;
			nd->lat_common_src = mess_model_latency(nd->model, r, gr->common_bw,
								&nd->lat_common);
			if (nd->lat_common_src < 0)
				nd->lat_common = NAN;
		}
	}
	free(v);
}

int fleet_flagged(const struct fleet *f, size_t i, size_t j)
{
	double z = f->z[i * f->m + j], med, x = f->raw[i * f->m + j];

	if (!isfinite(z) || fabs(z) <= f->mad || f->node[i].group == MESS_FLEET_NO_GROUP)
		return 0;
	med = f->med[f->node[i].group * f->m + j];
	return fabs(x - med) > f->metric[j].min_effect * fabs(med);
}

int fleet_is_outlier(const struct fleet *f, size_t i)
{
	for (size_t j = 0; j < f->m; j++)
		if (fleet_flagged(f, i, j))
			return 1;
	return 0;
}

int fleet_analyse(struct fleet *f)
{
	double *x;
	size_t *gi;
	int rc;

	verdicts(f);
	rc = groups(f);
	if (!rc)
		rc = columns(f);
	if (rc)
		return rc;
	common_bw(f);
	f->plot_mix = f->ngroups ? f->grp[0].mix : -1;
	/* calloc of one more row: never a zero-size request. */
	f->raw = calloc(f->n * f->m + 1, sizeof(double));
	f->z = calloc(f->n * f->m + 1, sizeof(double));
	f->med = calloc(f->ngroups * f->m + 1, sizeof(double));
	f->scale = calloc(f->ngroups * f->m + 1, sizeof(double));
	x = calloc(f->n * f->m + 1, sizeof(double));
	gi = malloc((f->n ? f->n : 1) * sizeof(*gi));
	if (!f->raw || !f->z || !f->med || !f->scale || !x || !gi) {
		free(x);
		free(gi);
		return -ENOMEM;
	}
	/* Only a compared part takes part in its group's statistics. */
	for (size_t i = 0; i < f->n; i++) {
		gi[i] = f->node[i].group;
		for (size_t j = 0; j < f->m; j++) {
			double v = value(&f->node[i], &f->metric[j]);

			f->raw[i * f->m + j] = v;
			x[i * f->m + j] = f->node[i].part[f->metric[j].part].st == ST_OK ? v : NAN;
		}
	}
	rc = mess_fleet_zscores(x, f->n, f->m, gi, f->ngroups, MESS_FLEET_MIN_NODES,
				MESS_FLEET_MIN_SCALE_REL, f->z, f->med, f->scale);
	for (size_t i = 0; !rc && i < f->n; i++)
		f->noutliers += fleet_is_outlier(f, i);
	free(x);
	free(gi);
	return rc;
}
