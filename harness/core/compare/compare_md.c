// SPDX-License-Identifier: MIT
/* compare.md: the comparison for people, one column per set. */
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "core/compare/compare_files.h"
#include "core/report/html.h"
#include "core/report/readaxis.h"
#include "mess/json.h"

/* What a set's own files say of its CPU, memory and theoretical peak: a
 * run's meta.json (CPU), a public set's system.md and plotter.txt. */
struct set_hw {
	char cpu[128], mem[128], peak_how[256];
	char date[64];		/* when: a run's meta.json start_utc */
	double peak_gbs;	/* NAN: unknown */
};

const char *mess_compare_set_meta(const struct mess_set_info *in,
				  const char *key, const char *none, char *buf,
				  size_t len)
{
	char dir[PATH_MAX], path[PATH_MAX + 16];
	json_t *m;
	const char *d;

	mess_set_dir(in, dir, sizeof(dir));
	snprintf(path, sizeof(path), "%s/meta.json", dir);
	m = mess_json_load_in(path, MESS_IN_NOFOLLOW, 0, NULL);
	d = json_string_value(json_object_get(m, key));
	snprintf(buf, len, "%s", d && d[0] ? d : none);
	json_decref(m);
	return buf;
}

static void set_hw(const struct mess_set_info *in, struct set_hw *h)
{
	char dir[PATH_MAX], type[64] = "", mts[32] = "", ch[32] = "";

	mess_set_dir(in, dir, sizeof(dir));
	snprintf(h->cpu, sizeof(h->cpu), "%s", in->cpu_model);
	if (!h->cpu[0] && mess_system_md_field(dir, "Model", h->cpu, sizeof(h->cpu)))
		snprintf(h->cpu, sizeof(h->cpu), "unknown");
	mess_system_md_field(dir, "Type", type, sizeof(type));
	mess_system_md_field(dir, "Freq (MT/s)", mts, sizeof(mts));
	mess_system_md_field(dir, "Channels / Socket", ch, sizeof(ch));
	if (type[0])
		snprintf(h->mem, sizeof(h->mem), "%s%s%s%s%s", type,
			 mts[0] ? ", " : "", mts, mts[0] ? " MT/s" : "",
			 ch[0] ? "" : "");
	else
		snprintf(h->mem, sizeof(h->mem), "unknown");
	if (type[0] && ch[0])
		snprintf(h->mem + strlen(h->mem), sizeof(h->mem) - strlen(h->mem),
			 ", %s channels per socket", ch);
	h->peak_gbs = mess_plotter_peak_gbs(dir, h->peak_how, sizeof(h->peak_how));
	mess_compare_set_meta(in, "start_utc", "not stated by the set", h->date,
			      sizeof(h->date));
}

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

	fprintf(f, "\n| set | read from | layout | CPU | memory | measured | theoretical peak | verdict |\n|---|---|---|---|---|---|---|---|\n");
	for (size_t i = 0; i < c->n; i++) {
		const struct mess_set_info *in = c->sets[i].info;
		struct set_hw h;

		set_hw(in, &h);
		fprintf(f, "| %s | `%s` | %s | ", c->labels[i], in->path,
			in->kind_name ? in->kind_name : "?");
		cell(f, h.cpu);
		fprintf(f, " | ");
		cell(f, h.mem);
		fprintf(f, " | ");
		cell(f, h.date);
		if (isfinite(h.peak_gbs))
			fprintf(f, " | %.1f GB/s (%s) | ", h.peak_gbs, h.peak_how);
		else
			fprintf(f, " | unknown | ");
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
	fprintf(f, "\nCPU and memory: a run's meta.json, a public set's system.md; measured: a run's meta.json start_utc (a public set states no date); theoretical peak: its plotter.txt (MEM_FREQ x N_CHANNELS x BUS_WIDTH / 8; a tree measured across the sockets, its links': 2 x UPI_FREQ x N_DATA_LANES x DATA_FLIT_BIT / FLIT_BIT x N_UPI_CHANNELS / 8), unknown where its files do not give it.  "
		   "Verdict: whether each run can be trusted (its meta.json `quality`, results/README.md), with its first reason when not PASS.\n");
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
	fprintf(f, "\n| maximum bandwidth, %% of the theoretical peak |");
	for (size_t i = 0; i < c->n; i++) {
		struct set_hw h;

		set_hw(c->sets[i].info, &h);
		if (isfinite(h.peak_gbs))
			fprintf(f, " %.0f %% of %.1f GB/s |",
				100 * c->cmp.set[i].max_bw_gbs / h.peak_gbs, h.peak_gbs);
		else
			fprintf(f, " unknown (no peak in its files) |");
	}
	fprintf(f, "\n| saturated bandwidth range [GB/s] |");
	for (size_t i = 0; i < c->n; i++) {
		const struct mess_cmp_set *s = &c->cmp.set[i];

		const char *w = mess_compare_saturation(c, i);

		/* The Glossary's words: 'not saturated' is a set that never
		 * loaded the memory, not one loaded whose latency never
		 * doubled. */
		fprintf(f, " %s |", !isfinite(s->unloaded_ns) ? "unknown (no unloaded latency)" :
			s->have_sat ? range(b, sizeof(b), s->sat_bw_min_gbs, s->sat_bw_max_gbs, 1) :
			!strcmp(w, "not saturated") ? "not saturated: no curve loaded the memory" :
			!strcmp(w, "unknown") ? "unknown: the latency doubled only at flagged or low-load points" :
			"none: no curve's latency reached 2x unloaded");
	}
	fprintf(f, "\n| maximum latency range [ns] |");
	for (size_t i = 0; i < c->n; i++)
		fprintf(f, " %s |", range(b, sizeof(b), c->cmp.set[i].max_lat_min_ns,
					  c->cmp.set[i].max_lat_max_ns, 1));
	/* Measured only where counted (Glossary): an accounted run's are
	 * its mixes' nominal shares. */
	fprintf(f, "\n| read shares [%%] |");
	for (size_t i = 0; i < c->n; i++)
		fprintf(f, " %s (%s, %zu curves) |",
			range(b, sizeof(b), c->cmp.set[i].read_min_pct,
			      c->cmp.set[i].read_max_pct, 1),
			mess_compare_share_kind(c, i), c->cmp.set[i].ncurves);
	fprintf(f, "\n\nSaturation: latency at or above 2x the set's unloaded latency (first such point per curve).\n");
	/* A share that is not the memory's is compared as if it were: said
	 * (issue 48: on Intel trees R = 0 is 50 % reads at the memory). */
	for (size_t i = 0; i < c->n; i++) {
		char dir[PATH_MAX], why[400];

		mess_set_dir(c->sets[i].info, dir, sizeof(dir));
		if (mess_read_axis_generator(dir, why, sizeof(why)))
			fprintf(f, "\nRead share of %s: %s; its rows below are at that R, not at the memory's share of the other sets (mess export --read-axis memory maps it to 1 / (2 - R)).\n",
				c->labels[i], why);
	}
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

static int extrapolated(struct mess_cmp_val v)
{
	return v.src >= 0 && (v.src & (MESS_SRC_EXTRAP_BW | MESS_SRC_EXTRAP_READ));
}

/*
 * The answer in one sentence, from figures each set measured: its
 * maximum bandwidth (the family's highest point) and its unloaded latency,
 * against the first set's; an INVALID set is said first.
 */
static void one_sentence(const struct mess_compare_ctx *c, FILE *f)
{
	const struct mess_cmp_set *z = &c->cmp.set[0];

	fprintf(f, "\n**In one sentence:** ");
	for (size_t i = 0; i < c->n; i++)
		if (!strcmp(mess_compare_verdict(c, i), "INVALID"))
			fprintf(f, "%s is INVALID, so its figures are not to be believed; ", c->labels[i]);
	for (size_t i = 1; i < c->n; i++) {
		const struct mess_cmp_set *s = &c->cmp.set[i];
		double r = s->max_bw_gbs / z->max_bw_gbs;

		fprintf(f, "%s%s reaches %.2fx the maximum bandwidth of %s (%.1f against %.1f GB/s, measured)",
			i > 1 ? "; " : "", c->labels[i], r, c->labels[0],
			s->max_bw_gbs, z->max_bw_gbs);
		if (isfinite(s->unloaded_ns) && isfinite(z->unloaded_ns))
			fprintf(f, " at %.2fx its unloaded latency (%.1f against %.1f ns)",
				s->unloaded_ns / z->unloaded_ns, s->unloaded_ns, z->unloaded_ns);
		else
			fprintf(f, " (an unloaded latency is unknown)");
	}
	fprintf(f, ".\n");
}

/* Set i over the first at read share k: maximum bandwidth, latency at
 * the common bandwidth, bandwidth at 2x unloaded. */
static void share_ratios(const struct mess_compare_ctx *c, size_t k, size_t i,
			 struct mess_cmp_val v[3])
{
	const struct mess_cmp_set *s = &c->cmp.set[i], *z = &c->cmp.set[0];

	v[0] = mess_cmp_ratio(s->max_bw[k], z->max_bw[k]);
	v[1] = mess_cmp_ratio(s->lat_common[k], z->lat_common[k]);
	v[2] = mess_cmp_ratio(s->bw_2x[k], z->bw_2x[k]);
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
	/* Headline ratios from figures both sets measured (or interpolated
	 * between their points); a ratio with an extrapolated side goes
	 * below, apart and marked. */
	fprintf(f, "\nFrom measured or interpolated figures only (an extrapolated one is in the list below):\n");
	fprintf(f, "\n| read %% | set |");
	fprintf(f, " maximum bandwidth | latency at the common bandwidth | bandwidth at 2x unloaded |\n|---|---|---|---|---|\n");
	for (size_t k = 0; k < MESS_CMP_NSHARES; k++)
		for (size_t i = 1; i < c->n; i++) {
			struct mess_cmp_val v[3];

			share_ratios(c, k, i, v);

			fprintf(f, "| %.0f | %s / %s |", mess_cmp_shares[k],
				c->labels[i], c->labels[0]);
			for (int j = 0; j < 3; j++)
				fprintf(f, " %s |", extrapolated(v[j]) ? "extrapolated: below" :
					fv(b, sizeof(b), v[j], 2, "x"));
			fprintf(f, "\n");
		}
	fprintf(f, "\nExtrapolated ratios (a side beyond its set's measured bandwidth or read shares: the model's line, not a measurement; no headline):\n\n");
	static const char *const what[3] = { "maximum bandwidth", "latency at the common bandwidth",
					     "bandwidth at 2x unloaded" };
	int any = 0;

	for (size_t k = 0; k < MESS_CMP_NSHARES; k++)
		for (size_t i = 1; i < c->n; i++) {
			struct mess_cmp_val v[3];

			share_ratios(c, k, i, v);

			for (int j = 0; j < 3; j++)
				if (extrapolated(v[j])) {
					fprintf(f, "- *%.0f %% reads, %s / %s, %s: %s*\n",
						mess_cmp_shares[k], c->labels[i], c->labels[0],
						what[j], fv(b, sizeof(b), v[j], 2, "x"));
					any = 1;
				}
		}
	if (!any)
		fprintf(f, "- none\n");
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
	one_sentence(c, f);
	sets(c, f);
	fprintf(f, "\n## Measured differently\n\n");
	if (!c->nwarn)
		fprintf(f, "The method (bandwidth source, huge pages, cores, chase stride and window, tool, latency unit) does not differ where the sets' files say it (a value a file does not give is no difference); what was measured may: the CPU and memory above.\n");
	for (size_t w = 0; w < c->nwarn; w++)
		fprintf(f, "- **warning**: %s\n", c->warn[w]);
	summary(c, f);
	shares(c, f);
	ratios(c, f);
	apps(c, f);
	mess_compare_ifr_md(c, f);
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
