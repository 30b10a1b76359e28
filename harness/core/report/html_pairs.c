// SPDX-License-Identifier: MIT
/*
 * report.html's tables of pairs: mess matrix's cells (initiators down,
 * memory nodes across, one table per figure, coloured as a heat map), mess
 * c2c's groups and mess interfere's rows per mix, read back from
 * summary.json.  Every text from the
 * file goes through mess_h_esc.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/report/html_int.h"

/* A cell's colour: t in [0, 1] from light to dark along a ramp of hue
 * (bandwidth blue, latency red), with the text's colour to read on it. */
static void shade(double t, int blue, char *bg, size_t len, const char **fg)
{
	static const int lo[2][3] = { { 255, 247, 236 }, { 247, 251, 255 } };
	static const int hi[2][3] = { { 127, 0, 0 }, { 8, 48, 107 } };

	t = isfinite(t) ? (t < 0 ? 0 : t > 1 ? 1 : t) : 0;
	snprintf(bg, len, "#%02x%02x%02x",
		 (int)(lo[blue][0] + t * (hi[blue][0] - lo[blue][0])),
		 (int)(lo[blue][1] + t * (hi[blue][1] - lo[blue][1])),
		 (int)(lo[blue][2] + t * (hi[blue][2] - lo[blue][2])));
	*fg = t > 0.55 ? "#fff" : "#222";
}

static double num(const json_t *o, const char *key)
{
	const json_t *v = json_object_get(o, key);

	return json_is_number(v) ? json_number_value(v) : NAN;
}

static int inum(const json_t *o, const char *key)
{
	return (int)json_integer_value(json_object_get(o, key));
}

/* The distinct values of key over the cells, in their order. */
static int distinct(const json_t *cells, const char *key, int *out, int max)
{
	const json_t *c;
	size_t i;
	int n = 0;

	json_array_foreach(cells, i, c) {
		int v = inum(c, key), k;

		for (k = 0; k < n && out[k] != v; k++)
			;
		if (k == n && n < max)
			out[n++] = v;
	}
	return n;
}

static int find(const int *v, int n, int x)
{
	for (int k = 0; k < n; k++)
		if (v[k] == x)
			return k;
	return -1;
}

/*
 * The cells by row and column, each pair's first, or NULL (calloc'd:
 * ni x nt).  Looked up by a scan of the cells for each pair, a 128 x 128
 * summary.json (2.6 MB) took over 300 s; once here, the page is linear.
 */
static const json_t **grid(const json_t *cells, const int *in, int ni,
			   const int *tg, int nt)
{
	const json_t **g = calloc((size_t)ni * (size_t)nt, sizeof(*g));
	const json_t *c;
	size_t i;

	json_array_foreach(cells, i, c) {
		int r = find(in, ni, inum(c, "initiator_node"));
		int t = find(tg, nt, inum(c, "target_node"));

		if (g && r >= 0 && t >= 0 && !g[(size_t)r * nt + t])
			g[(size_t)r * nt + t] = c;
	}
	return g;
}

struct fig {
	const char *title, *key, *fw, *ratio, *unit;
	int blue, dec, fw_dec;	/* the HMAT's latency is whole ns */
};

static void mx_table(FILE *f, const json_t *cells, const struct fig *g)
{
	int in[256], tg[256];
	int ni = distinct(cells, "initiator_node", in, 256), nt = distinct(cells, "target_node", tg, 256);
	double lo = INFINITY, hi = -INFINITY;
	const json_t *c, **at = grid(cells, in, ni, tg, nt);
	size_t i;

	if (!at)
		return;
	json_array_foreach(cells, i, c)
		if (isfinite(num(c, g->key))) {
			lo = fmin(lo, num(c, g->key));
			hi = fmax(hi, num(c, g->key));
		}
	mess_h_put(f, "<section><h2>", g->title, "</h2>\n<table><tr><th>from \\ to</th>");
	for (int j = 0; j < nt; j++) {
		const json_t *k = at[j];

		fprintf(f, "<th>node %d ", tg[j]);
		mess_h_esc(f, json_string_value(json_object_get(k, "target_kind")));
		fputs("</th>", f);
	}
	fputs("</tr>\n", f);
	for (int r = 0; r < ni; r++) {
		const json_t *k = at[(size_t)r * nt];

		fprintf(f, "<tr><th>node %d<br><small>cores ", in[r]);
		mess_h_esc(f, json_string_value(json_object_get(k, "initiator_cores")));
		fputs("</small></th>", f);
		for (int j = 0; j < nt; j++) {
			double v, fw;
			char bg[8];
			const char *fg;

			k = at[(size_t)r * nt + j];
			v = num(k, g->key);
			fw = g->fw ? num(k, g->fw) : NAN;
			if (!isfinite(v)) {
				mess_h_put(f, "<td class=\"heat\" style=\"background:#eee\">not measured<br><small>",
					   json_string_value(json_object_get(k, "label")),
					   "</small></td>");
				continue;
			}
			shade(hi > lo ? (v - lo) / (hi - lo) : 0.5, g->blue, bg, sizeof(bg), &fg);
			fprintf(f, "<td class=\"heat\" style=\"background:%s;color:%s\"><b>%.*f %s</b>",
				bg, fg, g->dec, v, g->unit);
			if (isfinite(fw))
				fprintf(f, "<br><small>HMAT %.*f, %.2fx</small>", g->fw_dec, fw, num(k, g->ratio));
			mess_h_put(f, "<br><small>", json_string_value(json_object_get(k, "label")),
				   "</small>");
			if (num(k, "chase_mib_elsewhere") > 0 || num(k, "gen_mib_elsewhere") > 0)
				fputs("<br><small><b>memory partly on another node</b></small>", f);
			fputs("</td>", f);
		}
		fputs("</tr>\n", f);
	}
	fputs("</table></section>\n", f);
	free(at);
}

static void mx_put(FILE *f, const json_t *cells, const json_t *meta)
{
	static const struct fig figs[] = {
		{ "Unloaded latency (ns per dependent load)", "lat_ns", "hmat_lat_ns",
		  "lat_vs_hmat", "ns", 0, 1, 0 },
		{ "Peak bandwidth, read only (GB/s)", "bw_gbs", "hmat_bw_gbs",
		  "bw_vs_hmat", "GB/s", 1, 1, 1 },
		{ "Peak bandwidth, 2:1 reads to writes (GB/s)", "bw21_gbs", NULL, NULL,
		  "GB/s", 1, 1, 1 },
	};

	for (size_t i = 0; i < sizeof(figs) / sizeof(figs[0]); i++)
		mx_table(f, cells, &figs[i]);
	fputs("<p>Rows: the initiators (NUMA nodes with CPUs); columns: the memory nodes. "
	      "Darker: a higher figure. Under each: the firmware's (ACPI HMAT) figure for the pair and the measured over it, where given (", f);
	mess_h_esc(f, json_string_value(json_object_get(meta, "hmat_source")));
	fputs("), and the label. The bandwidth is accounted: the generators' declared bytes, not the memory controllers' counts. "
	      "Every figure with its spread: matrix.csv.</p>\n", f);
}

static void c2c_put(FILE *f, const json_t *c2c)
{
	static const char *const order[] = { "smt", "same cache", "same socket", "other socket" };

	fputs("<section><h2>Core-to-core latency (one way, ns)</h2>\n"
	      "<table><tr><th>pairs sharing</th><th>pairs</th><th>median</th><th>least</th><th>most</th><th>p99, worst pair</th></tr>\n", f);
	for (size_t i = 0; i < sizeof(order) / sizeof(order[0]); i++) {
		const json_t *g = json_object_get(json_object_get(c2c, "groups"), order[i]);

		if (!g)
			continue;
		fputs("<tr><th>", f);
		mess_h_esc(f, order[i]);
		fprintf(f, "</th><td class=\"n\">%d</td>", inum(g, "pairs"));
		fprintf(f, "<td class=\"n\">%.1f</td><td class=\"n\">%.1f</td><td class=\"n\">%.1f</td><td class=\"n\">%.1f</td></tr>\n",
			num(g, "median_ns"), num(g, "min_ns"), num(g, "max_ns"), num(g, "p99_max_ns"));
	}
	size_t np = json_array_size(json_object_get(c2c, "pairs"));

	fprintf(f, "</table><p>%zu pair%s of PUs, each one cache line handed back and forth between two pinned threads; every pair in c2c.csv and, as a heat map, in plots/c2c.svg.</p></section>\n",
		np, np == 1 ? "" : "s");
}

/* A figure's cell; an unknown one (null: a row cut short) is no number. */
static void ncell(FILE *f, double v, int decimals)
{
	if (isfinite(v))
		fprintf(f, "<td class=\"n\">%.*f</td>", decimals, v);
	else
		fputs("<td class=\"n\">&ndash;</td>", f);
}

struct by_mix {
	int mix;
	size_t i;	/* the row's index: its order within the mix */
};

static int by_mix_cmp(const void *a, const void *b)
{
	const struct by_mix *x = a, *y = b;

	if (x->mix != y->mix)
		return x->mix < y->mix ? -1 : 1;
	return (x->i > y->i) - (x->i < y->i);
}

/* The first of mix's rows in o[0 .. n) (sorted), or n. */
static size_t first_of(const struct by_mix *o, size_t n, int mix)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (o[mid].mix < mix)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < n && o[lo].mix == mix ? lo : n;
}

/*
 * mess interfere: per mix, the victim's distribution as aggressors are
 * added, and the knee (summary.json rows, knees).  The rows sorted by mix
 * once: a scan of every row for each knee took 218 s on 20,000 rows of
 * as many mixes; a mix a second knee names again is not shown twice.
 */
static void ifr_put(FILE *f, const json_t *rows, const json_t *knees)
{
	static const char *const col[] = { "lat_p50_ns", "lat_p90_ns", "lat_p99_ns",
					   "lat_p999_ns", "lat_mean_ns" };
	size_t i, k, n = json_array_size(rows);
	struct by_mix *o = malloc((n ? n : 1) * sizeof(*o));
	char *shown = calloc(n ? n : 1, 1);
	const json_t *kn, *r;

	if (!o || !shown)
		goto out;
	json_array_foreach(rows, i, r) {
		o[i].mix = inum(r, "store_pct");
		o[i].i = i;
	}
	qsort(o, n, sizeof(*o), by_mix_cmp);
	json_array_foreach(knees, k, kn) {
		int mix = inum(kn, "store_pct");
		size_t at = first_of(o, n, mix);

		if (at < n && shown[at]++)
			continue;
		fprintf(f, "<section><h2>The victim's latency, aggressors at %d %% stores (ns a load)</h2>\n"
			"<table><tr><th>aggressors</th><th>p50</th><th>p90</th><th>p99</th><th>p99.9</th><th>mean</th>"
			"<th>p99 / none</th><th>aggressors' GB/s</th><th>disturbed (kept)</th></tr>\n", mix);
		for (; at < n && o[at].mix == mix; at++) {
			r = json_array_get(rows, o[at].i);
			fprintf(f, "<tr><th>%d</th>", inum(r, "aggressors"));
			for (size_t c = 0; c < sizeof(col) / sizeof(col[0]); c++)
				ncell(f, num(r, col[c]), 1);
			ncell(f, num(r, "p99_vs_none"), 2);
			ncell(f, num(r, "bw_gbs"), 2);
			fprintf(f, "<td class=\"n\">%d (%d)</td></tr>\n",
				inum(r, "disturbed"), inum(r, "disturbed_kept"));
		}
		fputs("</table><p>Knee: <b>", f);
		mess_h_esc(f, json_string_value(json_object_get(kn, "knee")));
		fputs("</b> (the fewest aggressors at which the victim's p99 reaches twice its value with none). "
		      "Bandwidth is accounted: the aggressors' declared bytes, not the memory controllers' counts; "
		      "every figure with its p99 spread: interference.csv.</p></section>\n", f);
	}
out:
	free(o);
	free(shown);
}

int mess_h_pairs(FILE *f, const json_t *meta, const json_t *summary)
{
	const char *tool = json_string_value(json_object_get(meta, "tool"));
	const json_t *cells = json_object_get(summary, "cells");

	if (!tool)
		return 0;
	if (!strcmp(tool, "mess matrix") && json_array_size(cells)) {
		mx_put(f, cells, meta);
		return 1;
	}
	if (!strcmp(tool, "mess interfere") && json_array_size(json_object_get(summary, "rows"))) {
		ifr_put(f, json_object_get(summary, "rows"), json_object_get(summary, "knees"));
		return 1;
	}
	if (!strcmp(tool, "mess c2c") && json_is_object(json_object_get(summary, "c2c"))) {
		c2c_put(f, json_object_get(summary, "c2c"));
		return 1;
	}
	return 0;
}
