// SPDX-License-Identifier: MIT
/* compare.md: the comparison for people, one column per set. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "core/compare_files.h"

/* "123.4 (interpolated)", or "n/a" when there is no answer. */
static const char *fv(char *b, size_t l, struct mess_cmp_val v, int dec,
		      const char *unit)
{
	if (v.src < 0 || !isfinite(v.v))
		snprintf(b, l, "n/a");
	else
		snprintf(b, l, "%.*f%s (%s)", dec, v.v, unit, mess_cmp_src(v.src));
	return b;
}

static const char *range(char *b, size_t l, double lo, double hi, int dec)
{
	if (!isfinite(lo) || !isfinite(hi))
		snprintf(b, l, "n/a");
	else if (lo == hi)
		snprintf(b, l, "%.*f", dec, lo);
	else
		snprintf(b, l, "%.*f – %.*f", dec, lo, dec, hi);
	return b;
}

static void header(const struct mess_compare_ctx *c, FILE *f, const char *first,
		   size_t nfirst)
{
	fprintf(f, "\n| %s |", first);
	for (size_t i = 0; i < c->n; i++)
		fprintf(f, " %s |", c->labels[i]);
	fprintf(f, "\n|");
	for (size_t i = 0; i < c->n + nfirst; i++)
		fprintf(f, "---|");
	fprintf(f, "\n");
}

/* Text in a table cell: a '|' would end it. */
static void cell(FILE *f, const char *s)
{
	for (; *s; s++)
		fprintf(f, *s == '|' ? "\\|" : "%c", *s);
}

/* The verdict column: bold where the set is not to be believed. */
static void verdict(const struct mess_compare_ctx *c, FILE *f, size_t i)
{
	const char *v = mess_compare_verdict(c, i), *why = c->sets[i].info->verdict_reason;

	fprintf(f, strcmp(v, "INVALID") ? "%s" : "**%s**", v);
	if (!strcmp(v, "pending"))
		fprintf(f, " (stopped before it was judged)");
	else if (!strcmp(v, "none"))
		fprintf(f, " (%s)", c->sets[i].info->kind == MESS_SET_RUN ?
			"its meta.json has no quality" : "not a run of this suite");
	if (why[0] && mess_compare_verdict_said(c, i)) {
		fprintf(f, ": ");
		cell(f, why);
	}
}

static void sets(const struct mess_compare_ctx *c, FILE *f)
{
	size_t bad = 0;

	fprintf(f, "\n| set | read from | layout | CPU | verdict |\n|---|---|---|---|---|\n");
	for (size_t i = 0; i < c->n; i++) {
		const struct mess_set_info *in = c->sets[i].info;

		fprintf(f, "| %s | `%s` | %s | %s | ", c->labels[i], in->path,
			in->kind_name ? in->kind_name : "?",
			in->cpu_model[0] ? in->cpu_model : "unknown");
		verdict(c, f, i);
		fprintf(f, " |\n");
		bad += !strcmp(mess_compare_verdict(c, i), "INVALID");
	}
	/* Where each run's memory was, for the runs that say (meta.json
	 * memory_node_choice): "Memory: A: dram node 0; B: hbm node 2." */
	for (size_t i = 0, said = 0; i < c->n; i++) {
		if (c->sets[i].info->memory[0])
			fprintf(f, "%s%s: %s", said++ ? "; " : "\nMemory (meta.json `memory_node_choice`): ",
				c->labels[i], c->sets[i].info->memory);
		if (said && i + 1 == c->n)
			fprintf(f, ".\n");
	}
	fprintf(f, "\nVerdict: whether each run can be trusted (its meta.json `quality`, results/README.md), with its first reason when not PASS.\n");
	for (size_t i = 0; bad && i < c->n; i++)
		if (!strcmp(mess_compare_verdict(c, i), "INVALID"))
			fprintf(f, "\n**%s is INVALID**: its run broke the rules a trusted run keeps; its figures below are not to be believed.\n",
				c->labels[i]);
}

static void summary(const struct mess_compare_ctx *c, FILE *f)
{
	char b[128];

	fprintf(f, "\n## Summary\n");
	header(c, f, "", 1);
	fprintf(f, "| unloaded latency [ns] |");
	for (size_t i = 0; i < c->n; i++) {
		double v = c->cmp.set[i].unloaded_ns;

		if (isfinite(v))
			fprintf(f, " %.1f (%s) |", v, mess_compare_unloaded_source(c, i));
		else
			fprintf(f, " unknown |");
	}
	fprintf(f, "\n| maximum bandwidth [GB/s] |");
	for (size_t i = 0; i < c->n; i++)
		fprintf(f, " %.1f |", c->cmp.set[i].max_bw_gbs);
	fprintf(f, "\n| saturated bandwidth range [GB/s] |");
	for (size_t i = 0; i < c->n; i++) {
		const struct mess_cmp_set *s = &c->cmp.set[i];

		fprintf(f, " %s |", !isfinite(s->unloaded_ns) ? "unknown (no unloaded latency)" :
			!s->have_sat ? "not saturated" :
			range(b, sizeof(b), s->sat_bw_min_gbs, s->sat_bw_max_gbs, 1));
	}
	fprintf(f, "\n| maximum latency range [ns] |");
	for (size_t i = 0; i < c->n; i++)
		fprintf(f, " %s |", range(b, sizeof(b), c->cmp.set[i].max_lat_min_ns,
					  c->cmp.set[i].max_lat_max_ns, 1));
	fprintf(f, "\n| read shares measured [%%] |");
	for (size_t i = 0; i < c->n; i++)
		fprintf(f, " %s (%zu curves) |",
			range(b, sizeof(b), c->cmp.set[i].read_min_pct,
			      c->cmp.set[i].read_max_pct, 1), c->cmp.set[i].ncurves);
	fprintf(f, "\n\nSaturation: latency at or above 2x the set's unloaded latency (first such point per curve).\n");
}

static void shares(const struct mess_compare_ctx *c, FILE *f)
{
	char b[128];

	fprintf(f, "\n## Per read share\n\n"
		   "Latency compared at a common bandwidth: %.0f%% of the lowest maximum bandwidth among the sets at that read share, "
		   "so that every set answers inside its own range.  Each figure says where it comes from (measured point, "
		   "interpolated, or extrapolated beyond a set's bandwidth or read-share range).\n",
		MESS_CMP_COMMON_FRAC * 100);
	header(c, f, "read % | figure", 2);
	for (size_t k = 0; k < MESS_CMP_NSHARES; k++) {
		double r = mess_cmp_shares[k];
		size_t lo = c->cmp.common_set[k];
		const char *mark = mess_compare_covered(c, k) ? "" : " (not every set measured it)";

		fprintf(f, "| %.0f%s | maximum bandwidth [GB/s] |", r, mark);
		for (size_t i = 0; i < c->n; i++)
			fprintf(f, " %s |", fv(b, sizeof(b), c->cmp.set[i].max_bw[k], 1, ""));
		fprintf(f, "\n| %.0f | latency [ns] at %.1f GB/s (%.0f%% of %s's maximum) |",
			r, c->cmp.common_bw_gbs[k], MESS_CMP_COMMON_FRAC * 100,
			c->labels[lo]);
		for (size_t i = 0; i < c->n; i++)
			fprintf(f, " %s |", fv(b, sizeof(b), c->cmp.set[i].lat_common[k], 1, ""));
		fprintf(f, "\n| %.0f | bandwidth [GB/s] where latency reaches 2x unloaded |", r);
		for (size_t i = 0; i < c->n; i++)
			fprintf(f, " %s |", fv(b, sizeof(b), c->cmp.set[i].bw_2x[k], 1, ""));
		fprintf(f, "\n");
	}
}

static void ratios(const struct mess_compare_ctx *c, FILE *f)
{
	const struct mess_cmp_set *z = &c->cmp.set[0];
	char b[128];

	fprintf(f, "\n## Ratios against %s\n\n", c->labels[0]);
	for (size_t i = 1; i < c->n; i++) {
		const struct mess_cmp_set *s = &c->cmp.set[i];

		fprintf(f, "- %s / %s: maximum bandwidth %.2fx, unloaded latency %.2fx",
			c->labels[i], c->labels[0], s->max_bw_gbs / z->max_bw_gbs,
			s->unloaded_ns / z->unloaded_ns);
		if (s->have_sat && z->have_sat)
			fprintf(f, ", saturated bandwidth (upper end) %.2fx",
				s->sat_bw_max_gbs / z->sat_bw_max_gbs);
		fprintf(f, ".\n");
	}
	fprintf(f, "\n| read %% | set |");
	fprintf(f, " maximum bandwidth | latency at the common bandwidth | bandwidth at 2x unloaded |\n|---|---|---|---|---|\n");
	for (size_t k = 0; k < MESS_CMP_NSHARES; k++)
		for (size_t i = 1; i < c->n; i++) {
			const struct mess_cmp_set *s = &c->cmp.set[i];

			fprintf(f, "| %.0f | %s / %s |", mess_cmp_shares[k],
				c->labels[i], c->labels[0]);
			fprintf(f, " %s |", fv(b, sizeof(b), mess_cmp_ratio(s->max_bw[k], z->max_bw[k]), 2, "x"));
			fprintf(f, " %s |", fv(b, sizeof(b), mess_cmp_ratio(s->lat_common[k], z->lat_common[k]), 2, "x"));
			fprintf(f, " %s |\n", fv(b, sizeof(b), mess_cmp_ratio(s->bw_2x[k], z->bw_2x[k]), 2, "x"));
		}
}

static void apps(const struct mess_compare_ctx *c, FILE *f)
{
	char b[128], m[128];

	if (!c->napps)
		return;
	fprintf(f, "\n## Applications (--app)\n");
	for (size_t j = 0; j < c->napps; j++) {
		const struct mess_cmp_app *a = &c->apps[j];

		fprintf(f, "\n%s\n\n| set | latency [ns] | maximum bandwidth at %g%% reads [GB/s] | sustains %g GB/s |\n|---|---|---|---|\n",
			c->verdict[j], a->read_pct, a->bw_gbs);
		for (size_t i = 0; i < a->n; i++)
			fprintf(f, "| %s | %s | %s | %s |\n", c->labels[i],
				fv(b, sizeof(b), a->set[i].lat, 1, ""),
				fv(m, sizeof(m), a->set[i].max_bw, 1, ""),
				a->set[i].sustains ? "yes" : "no: latency extrapolated");
	}
}

int mess_compare_write_md(const struct mess_compare_ctx *c, FILE *f)
{
	fprintf(f, "# Memory comparison:");
	for (size_t i = 0; i < c->n; i++)
		fprintf(f, "%s %s", i ? " vs" : "", c->labels[i]);
	fprintf(f, "\n");
	sets(c, f);
	fprintf(f, "\n## Measured differently\n\n");
	if (!c->nwarn)
		fprintf(f, "No difference in how the sets were measured, as far as their files say.\n");
	for (size_t w = 0; w < c->nwarn; w++)
		fprintf(f, "- **warning**: %s\n", c->warn[w]);
	summary(c, f);
	shares(c, f);
	ratios(c, f);
	apps(c, f);
	fprintf(f, "\n## Plots\n\n%s.\n", c->plots);
	if (strncmp(c->plots, "skipped", 7))
		fprintf(f, "\n- `plots/compare.png`: every curve of every set on the same axes, one colour per set, lighter for fewer reads.\n"
			   "- `plots/compare-ratio.png`: each set's latency over %s's at the same bandwidth, one line per read share of the grid, "
			   "up to the lower of the two maximum bandwidths (below 1: lower latency than %s).\n",
			c->labels[0], c->labels[0]);
	fprintf(f, "\n## How it was computed\n\n");
	for (size_t k = 0; mess_compare_method[k][0]; k++)
		fprintf(f, "- %s: %s.\n", mess_compare_method[k][0],
			mess_compare_method[k][1]);
	return ferror(f) ? -1 : 0;
}
