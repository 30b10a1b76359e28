// SPDX-License-Identifier: MIT
/*
 * report.html's absorption section: absorption.csv (k1 per row and noise
 * mode) as a heat map, read back from the file, every text through
 * mess_h_esc.
 */
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mess/parse.h"
#include "core/report/html_int.h"

/* The fields of one CSV line (no quoting: mess writes none), in place. */
static int split(char *line, char **fld, int max)
{
	size_t n;

	line[strcspn(line, "\r\n")] = '\0';
	n = mess_split(line, ',', fld, (size_t)max);
	return n < (size_t)max ? (int)n : max;
}

static int col(char **hdr, int n, const char *name)
{
	for (int i = 0; i < n; i++)
		if (!strcmp(hdr[i], name))
			return i;
	return -1;
}

#define AB_MAX_ROWS 64
#define AB_MAX_MODES 8
#define AB_MAX_FIELDS 40

struct ab_cell {
	int have;
	double k1, lo, hi;
	char status[24];
};

struct ab_table {
	char rows[AB_MAX_ROWS][96], modes[AB_MAX_MODES][32];
	int nrows, nmodes;
	struct ab_cell c[AB_MAX_ROWS][AB_MAX_MODES];
};

static int ab_index(char *names, size_t w, int *n, int max, const char *s)
{
	char key[96];

	snprintf(key, sizeof(key) < w ? sizeof(key) : w, "%s", s);
	for (int i = 0; i < *n; i++)
		if (!strcmp(names + (size_t)i * w, key))
			return i;
	if (*n == max)
		return -1;
	memcpy(names + (size_t)*n * w, key, strlen(key) + 1);
	return (*n)++;
}

/* Light (absorbs much noise) to dark (absorbs none): log2 of k1 over
 * 0..256, through a sequential orange ramp. */
static void heat(double k1, char *bg, const char **fg)
{
	static const int stop[5][3] = { { 127, 39, 4 }, { 217, 72, 1 },
		{ 253, 141, 60 }, { 253, 208, 162 }, { 255, 245, 235 } };
	double t = log2(k1 + 1) / log2(257);
	int i;
	double u;

	t = t < 0 ? 0 : t > 1 ? 1 : t;
	i = t >= 1 ? 3 : (int)(t * 4);
	u = t * 4 - i;
	sprintf(bg, "#%02x%02x%02x",
		(int)(stop[i][0] + u * (stop[i + 1][0] - stop[i][0])),
		(int)(stop[i][1] + u * (stop[i + 1][1] - stop[i][1])),
		(int)(stop[i][2] + u * (stop[i + 1][2] - stop[i][2])));
	*fg = t < 0.45 ? "#fff" : "#222";
}

static void ab_put(FILE *f, const struct ab_table *t)
{
	fputs("<section><h2>Absorption (k1)</h2>\n<table><tr><th>row</th>", f);
	for (int m = 0; m < t->nmodes; m++)
		mess_h_put(f, "<th>", t->modes[m], "</th>");
	fputs("</tr>\n", f);
	for (int r = 0; r < t->nrows; r++) {
		mess_h_put(f, "<tr><th>", t->rows[r], "</th>");
		for (int m = 0; m < t->nmodes; m++) {
			const struct ab_cell *c = &t->c[r][m];
			char bg[8];
			const char *fg;

			if (!c->have || !isfinite(c->k1)) {
				mess_h_put(f, "<td class=\"heat\" style=\"background:#eee\">",
					   c->have ? c->status : "not run", "</td>");
				continue;
			}
			heat(c->k1, bg, &fg);
			fprintf(f, "<td class=\"heat\" style=\"background:%s;color:%s\"><b>%s%.0f</b>",
				bg, fg, isfinite(c->hi) ? "" : "≥", c->k1);
			if (isfinite(c->lo) && isfinite(c->hi))
				fprintf(f, "<br><small>[%.0f, %.0f)</small>", c->lo, c->hi);
			else if (isfinite(c->lo))
				fprintf(f, "<br><small>[%.0f, –)</small>", c->lo);
			if (strcmp(c->status, "ok"))
				mess_h_put(f, "<br><small>", c->status, "</small>");
			fputs("</td>", f);
		}
		fputs("</tr>\n", f);
	}
	fputs("</table>\n<p>k1: the noise instructions per iteration a kernel absorbs without slowing down (dark: none, the resource is saturated; light: many, it idles). "
	      "[k1_lo, k1_hi): the bracket, the true k1 lies in [k1_lo, k1_hi − 1]; ≥: nothing was slow up to the largest k measured. absorption.md gives the details.</p></section>\n", f);
}

void mess_h_absorb(FILE *f, const char *dir)
{
	char path[PATH_MAX + 32], line[4096], *hdr[AB_MAX_FIELDS], *fld[AB_MAX_FIELDS];
	char hline[4096];
	struct ab_table *t = NULL;
	int nh, ik, iv, ic, iq, im, i1, ilo, ihi, ist;
	FILE *in;

	snprintf(path, sizeof(path), "%s/absorption.csv", dir);
	in = mess_fopen_regular(path, NULL, 0);
	if (!in)
		return;
	if (!fgets(hline, sizeof(hline), in))
		goto out;
	nh = split(hline, hdr, AB_MAX_FIELDS);
	ik = col(hdr, nh, "kernel"); iv = col(hdr, nh, "variant");
	ic = col(hdr, nh, "cores"); iq = col(hdr, nh, "q");
	im = col(hdr, nh, "mode"); i1 = col(hdr, nh, "k1");
	ilo = col(hdr, nh, "k1_lo"); ihi = col(hdr, nh, "k1_hi");
	ist = col(hdr, nh, "status");
	if (ik < 0 || iv < 0 || ic < 0 || iq < 0 || im < 0 || i1 < 0 || ist < 0)
		goto out;
	t = calloc(1, sizeof(*t));
	if (!t)
		goto out;
	while (fgets(line, sizeof(line), in)) {
		char name[96];
		int n = split(line, fld, AB_MAX_FIELDS), r, m;
		struct ab_cell *c;

		if (n != nh)
			continue;
		if (!strcmp(fld[iq], "nan"))
			snprintf(name, sizeof(name), "%s %s, %s core%s", fld[ik], fld[iv],
				 fld[ic], strcmp(fld[ic], "1") ? "s" : "");
		else
			snprintf(name, sizeof(name), "%s %s, %s core%s, q %s", fld[ik], fld[iv],
				 fld[ic], strcmp(fld[ic], "1") ? "s" : "", fld[iq]);
		r = ab_index(t->rows[0], sizeof(t->rows[0]), &t->nrows, AB_MAX_ROWS, name);
		m = ab_index(t->modes[0], sizeof(t->modes[0]), &t->nmodes, AB_MAX_MODES, fld[im]);
		if (r < 0 || m < 0)
			continue;
		c = &t->c[r][m];
		/* With --tables N, the first table's (absorption_tables.csv
		 * has them all). */
		if (c->have)
			continue;
		c->have = 1;
		c->k1 = strtod(fld[i1], NULL);
		c->lo = ilo >= 0 ? strtod(fld[ilo], NULL) : NAN;
		c->hi = ihi >= 0 ? strtod(fld[ihi], NULL) : NAN;
		snprintf(c->status, sizeof(c->status), "%s", fld[ist]);
	}
	if (t->nrows)
		ab_put(f, t);
out:
	free(t);
	fclose(in);
}

