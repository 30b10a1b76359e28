// SPDX-License-Identifier: MIT
/*
 * fleet.csv (one row per node, for tools) and fleet.md (for people): the
 * figures, the outliers, and every node that was not compared and why.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "core/util.h"
#include "fleet/fleet.h"
#include "mess/fleet.h"
#include "mess/model.h"

/* RFC 4180: quoted when it holds a comma, a quote or a line break. */
static void csv_str(FILE *fp, const char *s, int last)
{
	if (s && strpbrk(s, ",\"\r\n")) {
		fputc('"', fp);
		for (; *s; s++) {
			if (*s == '"')
				fputc('"', fp);
			fputc(*s, fp);
		}
		fputc('"', fp);
	} else {
		fputs(s ? s : "", fp);
	}
	fputc(last ? '\n' : ',', fp);
}

static void csv_num(FILE *fp, double v)
{
	if (isfinite(v))
		fprintf(fp, "%.4f", v);
	fputc(',', fp);
}

/* A member path as a column name: "meta.json:cores.generators#" ->
 * "cores.generators_count". */
static const char *column(const char *member, char *buf, size_t len)
{
	const char *c = strchr(member, ':');
	size_t n;

	snprintf(buf, len, "%s", c ? c + 1 : member);
	n = strlen(buf);
	if (n && buf[n - 1] == '#')
		snprintf(buf + n - 1, len - n + 1, "_count");
	return buf;
}

/* z >= 0 with its sign, for the flags column and the table. */
static void flags(const struct fleet *f, size_t i, char *buf, size_t len)
{
	size_t o = 0;

	buf[0] = '\0';
	for (size_t j = 0; j < f->m && o < len; j++)
		if (fleet_flagged(f, i, j))
			o += snprintf(buf + o, len - o, "%s%s:%+.1f", o ? ";" : "",
				      f->metric[j].name, f->z[i * f->m + j]);
}

static const char *state(const struct fleet_node *nd, enum fleet_part p)
{
	return p == PART_CURVES && nd->part[p].st == ST_ABSENT ? "not a run" :
		fleet_state_name[nd->part[p].st];
}

int fleet_write_csv(const struct fleet *f, const char *outdir)
{
	const char *const *cfg = fleet_parts[PART_CURVES].config;
	const char *const *meth = fleet_parts[PART_CURVES].method;
	FILE *fp = mess_tmp_open(outdir, "fleet.csv");
	char buf[4096], g[32];

	if (!fp)
		return -errno;
	/* The figures first, the free text (which may hold quoted commas)
	 * after them. */
	fputs("node,host,group,curves,ladder,absorb,outlier,flags,unloaded_source,verdict,", fp);
	for (size_t j = 0; j < f->m; j++) {
		fprintf(fp, "%s,", f->metric[j].name);
		if (f->metric[j].kind == M_LATCOMMON)
			fputs("common_bw_gbs,common_bw_store_pct,lat_common_source,", fp);
	}
	for (size_t k = 0; cfg[k]; k++)
		fprintf(fp, "%s,", column(cfg[k], buf, sizeof(buf)));
	for (size_t k = 0; meth[k]; k++)
		fprintf(fp, "%s,", column(meth[k], buf, sizeof(buf)));
	fputs("ladder_from,ladder_method,absorb_from,why,task_log_last,verdict_reason\n", fp);
	for (size_t i = 0; i < f->n; i++) {
		const struct fleet_node *nd = &f->node[i];
		const struct fleet_part_data *c = &nd->part[PART_CURVES];

		csv_str(fp, nd->name, 0);
		csv_str(fp, nd->host, 0);
		csv_str(fp, fleet_group_name(nd->group, g, sizeof(g)), 0);
		for (int p = 0; p < NPARTS; p++)
			csv_str(fp, state(nd, p), 0);
		fprintf(fp, "%d,", fleet_is_outlier(f, i));
		flags(f, i, buf, sizeof(buf));
		csv_str(fp, buf, 0);
		csv_str(fp, nd->unloaded_src, 0);
		csv_str(fp, fleet_verdict_name[fleet_verdict(nd)], 0);
		for (size_t j = 0; j < f->m; j++) {
			csv_num(fp, f->raw[i * f->m + j]);
			if (f->metric[j].kind != M_LATCOMMON)
				continue;
			csv_num(fp, nd->common_bw);
			if (nd->group != MESS_FLEET_NO_GROUP && f->grp[nd->group].mix >= 0)
				fprintf(fp, "%d", f->grp[nd->group].mix);
			fputc(',', fp);
			csv_str(fp, nd->lat_common_src >= 0 ? mess_src_name(nd->lat_common_src) : NULL, 0);
		}
		for (size_t k = 0; cfg[k]; k++)
			csv_str(fp, nd->config ? nd->config[k] : NULL, 0);
		for (size_t k = 0; meth[k]; k++)
			csv_str(fp, c->method ? c->method[k] : NULL, 0);
		csv_str(fp, nd->part[PART_LADDER].st ? nd->part[PART_LADDER].where : NULL, 0);
		csv_str(fp, nd->ladder_what, 0);
		csv_str(fp, nd->part[PART_ABSORB].st ? nd->part[PART_ABSORB].where : NULL, 0);
		csv_str(fp, c->st == ST_OK ? NULL : c->why, 0);
		csv_str(fp, nd->log_last, 0);
		csv_str(fp, nd->info.verdict_reason, 1);
	}
	/* Whole or not at all, the failing file named (a full disk). */
	if (ferror(fp))
		return mess_tmp_abandon(outdir, "fleet.csv", fp, -EIO);
	return mess_tmp_commit(outdir, "fleet.csv", fp);
}

/* ---- fleet.md ---- */

static void md_num(FILE *fp, double v, int flagged)
{
	if (!isfinite(v))
		fputs(" – |", fp);
	else
		fprintf(fp, flagged ? " **%.1f** |" : " %.1f |", v);
}

static void outliers(FILE *fp, const struct fleet *f)
{
	char g[32];

	fprintf(fp, "## Outliers\n\n");
	if (!f->noutliers) {
		fprintf(fp, "None: no compared figure of any node is both more than %g robust standard deviations and more than %g %% (%g %% for lat_common_ns) from its group's median.\n\n",
			f->mad, 100 * FLEET_MIN_EFFECT, 100 * FLEET_MIN_EFFECT_SLOPE);
		return;
	}
	fprintf(fp, "| node | group | figure | value | group median | robust z | |\n|---|---|---|---:|---:|---:|---|\n");
	for (size_t i = 0; i < f->n; i++)
		for (size_t j = 0; j < f->m; j++) {
			const struct fleet_metric *m = &f->metric[j];
			size_t gr = f->node[i].group;
			double z = f->z[i * f->m + j];
			int worse = m->lower_is_worse ? z < 0 : z > 0;

			if (!fleet_flagged(f, i, j))
				continue;
			fprintf(fp, "| %s | %s | %s | %.2f | %.2f | %+.1f | %s |\n",
				f->node[i].name, fleet_group_name(gr, g, sizeof(g)), m->label,
				f->raw[i * f->m + j], f->med[gr * f->m + j], z,
				worse ? "worse" : "better");
		}
	fputc('\n', fp);
}

/* "3 PASS, 1 WARN, 1 INVALID, 2 none" (pending only when some are). */
static void verdict_counts(FILE *fp, const struct fleet *f)
{
	for (int v = 0; v < FV_N; v++)
		if (v != FV_PENDING || f->nverdict[v])
			fprintf(fp, "%s%zu %s", v ? ", " : "", f->nverdict[v],
				fleet_verdict_name[v]);
}

/* Every node whose run is not PASS, with its first reason. */
static void verdicts(FILE *fp, const struct fleet *f)
{
	size_t n = 0;

	fprintf(fp, "## Verdicts\n\nEach node's curve run says whether it can be trusted (meta.json `quality`, results/README.md): ");
	verdict_counts(fp, f);
	fprintf(fp, " (none: a run made before verdicts, or no curve run).  ");
	if (f->with_invalid)
		fprintf(fp, "With --with-invalid, INVALID runs take part in the statistics and the median sets like the others.\n\n");
	else
		fprintf(fp, "%zu complete run%s whose verdict is INVALID %s left out of the groups' statistics, outliers and median sets (%s figures are shown; --with-invalid takes %s in).\n\n",
			f->invalid_left_out, f->invalid_left_out == 1 ? "" : "s",
			f->invalid_left_out == 1 ? "is" : "are",
			f->invalid_left_out == 1 ? "its" : "their",
			f->invalid_left_out == 1 ? "it" : "them");
	for (size_t i = 0; i < f->n; i++) {
		const struct fleet_node *nd = &f->node[i];
		enum fleet_verdict v = fleet_verdict(nd);

		if (v != FV_WARN && v != FV_INVALID)
			continue;
		fprintf(fp, "- %s: %s%s%s", nd->name, v == FV_INVALID ? "**" : "",
			fleet_verdict_name[v], v == FV_INVALID ? "**" : "");
		if (nd->info.verdict_reason[0])
			fprintf(fp, ": %s", nd->info.verdict_reason);
		if (nd->info.verdict_reasons > 1)
			fprintf(fp, " (and %d more)", nd->info.verdict_reasons - 1);
		fprintf(fp, "%s\n", nd->part[PART_CURVES].st == ST_INVALID ? "; left out" : "");
		n++;
	}
	fprintf(fp, "%s\n", n ? "" : "No node's run is WARN or INVALID.\n");
}

static void groups(FILE *fp, const struct fleet *f)
{
	const struct fleet_part_def *d = &fleet_parts[PART_CURVES];
	char col[128];

	fprintf(fp, "## Groups\n\nNodes are grouped by what their curve run's meta.json says the machine is:");
	for (size_t k = 0; d->config[k]; k++)
		fprintf(fp, "%s `%s`", k ? "," : "", column(d->config[k], col, sizeof(col)));
	fprintf(fp, ".  Outliers are sought within a group only.\n\n"
		"| group | nodes | compared | configuration | common bandwidth | median set |\n|---|---:|---:|---|---|---|\n");
	for (size_t g = 0; g < f->ngroups; g++) {
		const struct fleet_group *gr = &f->grp[g];
		const struct fleet_node *ex = NULL;

		for (size_t i = 0; i < f->n && !ex; i++)
			if (f->node[i].group == g)
				ex = &f->node[i];
		fprintf(fp, "| g%zu | %zu | %zu |", g + 1, gr->nodes, gr->compared);
		for (size_t k = 0; ex && d->config[k]; k++)
			fprintf(fp, "%s%s", k ? ", " : " ", ex->config[k]);
		if (isfinite(gr->common_bw))
			fprintf(fp, " | %.2f GB/s (%d %% stores) |", gr->common_bw, gr->mix);
		else
			fprintf(fp, " | – |");
		if (gr->median_dir[0])
			fprintf(fp, " [%s](%s/) (%zu nodes) |\n", gr->median_dir, gr->median_dir,
				gr->median_nodes);
		else
			fprintf(fp, " – |\n");
	}
	fprintf(fp, "\nHow each group was measured (the method of most of its complete nodes; a node measured otherwise is listed below and not compared):\n\n");
	for (size_t g = 0; g < f->ngroups; g++)
		for (int p = 0; p < NPARTS; p++) {
			size_t ref = f->grp[g].ref[p];
			const struct fleet_part_def *pd = &fleet_parts[p];

			if (ref == (size_t)-1)
				continue;
			fprintf(fp, "- g%zu %s (as %s%s%s):", g + 1, pd->name, f->node[ref].name,
				f->node[ref].part[p].where[0] ? "/" : "", f->node[ref].part[p].where);
			for (size_t k = 0; pd->method[k]; k++)
				fprintf(fp, "%s `%s` %s", k ? ";" : "", column(pd->method[k], col, sizeof(col)),
					f->node[ref].part[p].method[k]);
			fputs("\n", fp);
		}
	fputc('\n', fp);
}

/* One table of the figures of some parts: the curves and the ladder in
 * one, the absorption table's many rows in another. */
static void nodes(FILE *fp, const struct fleet *f, unsigned parts, const char *title)
{
	size_t cols = 0;
	char g[32];

	for (size_t j = 0; j < f->m; j++)
		cols += !!(parts & 1u << f->metric[j].part);
	if (!cols)
		return;
	fprintf(fp, "## %s\n\nFigures in bold are flagged.  – : not measured or unknown.  Verdict: the curve run's (meta.json `quality`); an INVALID one is in bold.\n\n| node | group | curves | verdict |", title);
	for (size_t j = 0; j < f->m; j++)
		if (parts & 1u << f->metric[j].part)
			fprintf(fp, " %s |", f->metric[j].name);
	fputs("\n|---|---|---|---|", fp);
	for (size_t j = 0; j < cols; j++)
		fputs("---:|", fp);
	fputc('\n', fp);
	for (size_t i = 0; i < f->n; i++) {
		const struct fleet_node *nd = &f->node[i];
		size_t have = 0;

		for (size_t j = 0; j < f->m; j++)
			have += (parts & 1u << f->metric[j].part) && isfinite(f->raw[i * f->m + j]);
		if (!have && !(parts & 1u << PART_CURVES))
			continue;
		fprintf(fp, "| %s | %s | %s | %s%s%s |", nd->name,
			fleet_group_name(nd->group, g, sizeof(g)), state(nd, PART_CURVES),
			fleet_verdict(nd) == FV_INVALID ? "**" : "",
			fleet_verdict_name[fleet_verdict(nd)],
			fleet_verdict(nd) == FV_INVALID ? "**" : "");
		for (size_t j = 0; j < f->m; j++)
			if (parts & 1u << f->metric[j].part)
				md_num(fp, f->raw[i * f->m + j], fleet_flagged(f, i, j));
		fputc('\n', fp);
	}
	fputc('\n', fp);
}

/* The members in which a node's part differs from its group's reference. */
static void differences(FILE *fp, const struct fleet *f, size_t i, enum fleet_part p)
{
	const struct fleet_node *nd = &f->node[i];
	size_t ref = nd->group == MESS_FLEET_NO_GROUP ? (size_t)-1 : f->grp[nd->group].ref[p];
	const struct fleet_part_def *d = &fleet_parts[p];
	char col[128];

	if (ref == (size_t)-1)
		return;
	for (size_t k = 0, n = 0; d->method[k]; k++)
		if (strcmp(nd->part[p].method[k], f->node[ref].part[p].method[k]))
			fprintf(fp, "%s `%s` %s (group: %s)", n++ ? ";" : "",
				column(d->method[k], col, sizeof(col)), nd->part[p].method[k],
				f->node[ref].part[p].method[k]);
}

static void not_compared(FILE *fp, const struct fleet *f)
{
	const struct fleet_part_def *d = &fleet_parts[PART_CURVES];
	size_t n = 0;
	char col[128];

	fprintf(fp, "## Not compared\n\nNothing below entered a group's statistics or its median set.\n\n### Incomplete, INVALID, unreadable or no run\n\n");
	for (size_t i = 0; i < f->n; i++)
		for (int p = 0; p < NPARTS; p++) {
			const struct fleet_part_data *pd = &f->node[i].part[p];

			if (pd->st != ST_INCOMPLETE && pd->st != ST_UNREADABLE &&
			    pd->st != ST_INVALID &&
			    !(p == PART_CURVES && pd->st == ST_ABSENT))
				continue;
			fprintf(fp, "- %s, %s (%s): %s", f->node[i].name, fleet_parts[p].name,
				state(&f->node[i], p), pd->why);
			if (f->node[i].has_log)
				fprintf(fp, "; the batch task's log %s/%s/" FLEET_TASK_LOG " ends: `%s`",
					f->dir, f->node[i].name, f->node[i].log_last);
			fputc('\n', fp);
			n++;
		}
	fprintf(fp, "%s\n### Measured differently\n\n", n ? "" : "None.\n");
	n = 0;
	for (size_t i = 0; i < f->n; i++)
		for (int p = 0; p < NPARTS; p++) {
			if (f->node[i].part[p].st != ST_DIFFERENT)
				continue;
			fprintf(fp, "- %s, %s:", f->node[i].name, fleet_parts[p].name);
			differences(fp, f, i, p);
			fputc('\n', fp);
			n++;
		}
	fprintf(fp, "%s\n### Of another group than g1\n\n", n ? "" : "None.\n");
	n = 0;
	for (size_t i = 0; i < f->n && f->ngroups; i++) {
		const struct fleet_node *nd = &f->node[i], *ex = NULL;

		if (nd->group == 0 || nd->group == MESS_FLEET_NO_GROUP)
			continue;
		for (size_t k = 0; k < f->n && !ex; k++)
			if (f->node[k].group == 0)
				ex = &f->node[k];
		fprintf(fp, "- %s: g%zu (%zu nodes),", nd->name, nd->group + 1, f->grp[nd->group].nodes);
		for (size_t k = 0, c = 0; d->config[k]; k++)
			if (strcmp(nd->config[k], ex->config[k]))
				fprintf(fp, "%s `%s` %s (g1: %s)", c++ ? ";" : "",
					column(d->config[k], col, sizeof(col)), nd->config[k], ex->config[k]);
		fprintf(fp, "%s\n", f->grp[nd->group].compared < MESS_FLEET_MIN_NODES ?
			"; too few compared nodes in its group for outliers" : "");
		n++;
	}
	fprintf(fp, "%s\n### Missing\n\n", n ? "" : "None.\n");
	for (size_t i = 0; i < f->nmissing; i++)
		fprintf(fp, "- %s: named in " FLEET_EXPECTED ", no directory (its task has not run, or could not start)\n",
			f->missing[i]);
	fprintf(fp, "%s\n", f->nmissing ? "" : "None.\n");
}

static void method(FILE *fp, const struct fleet *f)
{
	fprintf(fp,
		"## How it was measured\n\n"
		"Nothing is measured here: every figure is read from the node directories' files.\n\n"
		"- **unloaded_ns**: the curve run's chase-only latency (meta.json `unloaded_ns`); a run without one, the lowest latency among its points at <= 2 %% of its maximum bandwidth.\n"
		"- **max_bw_s<P>_gbs**: the highest bandwidth of the curve of P %% stores (summary metrics, `include/mess/metrics.h`).\n"
		"- **sat_bw_min/max_gbs**: the saturated-bandwidth range: the bandwidth at which each curve first reaches 2x the unloaded latency, lowest and highest over the curves; empty when no curve got there.\n"
		"- **lat_common_ns**: the latency at the group's common bandwidth, %g x the median maximum bandwidth of its compared nodes on the curve with the fewest stores, read on each node's curve model (`include/mess/model.h`) at that curve's read share; `lat_common_source` in fleet.csv says whether it is measured, interpolated or extrapolated.\n"
		"- **ladder_<level>_ns**: the plateaus of a latency ladder in the node's `ladder/` (mess ladder), else `absorb/` (mess absorb), summary.json `latency_ladder.levels`.\n"
		"- **<kernel>_<variant>_c<cores>[_q<q>]_<unit>**: the clean kernel's performance of each row of `absorb/absorption.csv`.\n"
		"- **Outliers**: within a group, per figure, robust z = (x - median) / s with s = max(1.4826 x MAD, %g x |median|) over the group's compared nodes (at least %d of them; MAD: median absolute deviation).  1.4826 x MAD estimates a standard deviation; the floor keeps near-identical nodes from flagging differences below a measurement's repeatability.  A node is flagged where |z| > %g (--mad) and the deviation |x - median| is also more than %g %% of the median (%g %% for lat_common_ns): a fleet of identical nodes has a tiny MAD, so a z alone flags differences within one node's repeatability of a few %%, and a latency read on a steep part of a curve multiplies a small bandwidth shift several times.\n"
		"- **Verdict**: the curve run's own (meta.json `quality.verdict`: PASS, WARN, INVALID, pending; none for a run made before verdicts).  A complete run whose verdict is INVALID is not compared unless --with-invalid: its figures broke the rules a trusted run keeps, and a median is only as good as the runs it is taken over.\n"
		"- **Compared**: a node whose run says `\"complete\": true`, is not INVALID (unless --with-invalid) and was measured as most nodes of its group (the members listed under Groups); a ladder or absorption table is compared on the same terms, separately.\n"
		"- **Median sets** (`median-g<k>/`): per curve of the group, every compared node's curve model read at the same fractions u = 1/%d .. 1 of its own maximum bandwidth; the median latency at each u, at u x the median maximum (the model's own rule between read shares).  `lat_ns_std` holds 1.4826 x MAD across the nodes, `repeats` the number of nodes the curve was made from.  A curve set that mess export and mess compare read.\n\n",
		FLEET_COMMON_FRAC, MESS_FLEET_MIN_SCALE_REL, MESS_FLEET_MIN_NODES, f->mad,
		100 * FLEET_MIN_EFFECT, 100 * FLEET_MIN_EFFECT_SLOPE, FLEET_MEDIAN_STEPS);
}

int fleet_write_md(const struct fleet *f, const char *outdir, int have_plots,
		   const char *plots)
{
	FILE *fp = mess_tmp_open(outdir, "fleet.md");
	size_t compared = 0;

	if (!fp)
		return -errno;
	for (size_t g = 0; g < f->ngroups; g++)
		compared += f->grp[g].compared;
	fprintf(fp, "# Fleet: %s\n\n%zu node director%s; %zu compared in %zu group%s; %zu outlier%s (|robust z| > %g within the group, and more than %g %% from its median).\n\n",
		f->dir, f->n, f->n == 1 ? "y" : "ies", compared, f->ngroups,
		f->ngroups == 1 ? "" : "s", f->noutliers, f->noutliers == 1 ? "" : "s", f->mad,
		100 * FLEET_MIN_EFFECT);
	fprintf(fp, "Verdicts of the nodes' runs: ");
	verdict_counts(fp, f);
	if (f->with_invalid)
		fprintf(fp, "; INVALID runs compared (--with-invalid).\n\n");
	else
		fprintf(fp, "; %zu INVALID run%s left out of the statistics and median sets.\n\n",
			f->invalid_left_out, f->invalid_left_out == 1 ? "" : "s");
	if (have_plots)
		fprintf(fp, "![curves](plots/fleet-curves.png)\n\n![bars](plots/fleet-bars.png)\n\n");
	else
		fprintf(fp, "Plots: %s.\n\n", plots);
	outliers(fp, f);
	verdicts(fp, f);
	groups(fp, f);
	not_compared(fp, f);
	nodes(fp, f, 1u << PART_CURVES | 1u << PART_LADDER, "Nodes");
	nodes(fp, f, 1u << PART_ABSORB, "Absorption tables: clean kernels");
	method(fp, f);
	if (ferror(fp))
		return mess_tmp_abandon(outdir, "fleet.md", fp, -EIO);
	return mess_tmp_commit(outdir, "fleet.md", fp);
}
