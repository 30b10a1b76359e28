// SPDX-License-Identifier: MIT
/*
 * The matrix's heat maps (core/report/plot.h draws them): the cells as a
 * grid of initiators by targets, in the order of matrix.csv.
 */
#include "matrix/matrix.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/report/heat.h"

#define TEXT 64

/* One figure: bw 0 the latency, 1 the read-only bandwidth. */
static int figure(const char *dir, const struct mess_mx_cell *c, int n,
		  const char *pre, const char *cpu, int bw, char *err, size_t errlen)
{
	int *in = calloc((size_t)n, sizeof(int)), *tg = calloc((size_t)n, sizeof(int));
	int ni = in && tg ? mess_mx_distinct(c, n, 0, in) : 0, nt = in && tg ? mess_mx_distinct(c, n, 1, tg) : 0;
	double *v = calloc((size_t)(ni * nt) + 1, sizeof(double));
	char *buf = calloc((size_t)(ni * nt + ni + nt) + 1, TEXT);
	const char **text = calloc((size_t)(ni * nt + ni + nt) + 1, sizeof(char *));
	char title[320], host[128] = "";
	int rc = -ENOMEM;

	if (!in || !tg || !v || !buf || !text)
		goto out;
	for (int i = 0; i < ni * nt + ni + nt; i++)
		text[i] = buf + (size_t)i * TEXT;
	for (int i = 0; i < ni * nt; i++) {
		v[i] = NAN;
		text[i] = NULL;
	}
	for (int i = 0; i < n; i++) {
		int r = 0, col = 0, k;
		double x = bw ? c[i].bw_gbs : c[i].lat_ns, fw = bw ? c[i].hmat_bw_gbs : c[i].hmat_lat_ns;
		char *t;

		/* The cell's row and column: its initiator and target are
		 * among the distinct ones. */
		while (in[r] != c[i].init)
			r++;
		while (tg[col] != c[i].target)
			col++;
		k = r * nt + col;
		t = buf + (size_t)k * TEXT;
		v[k] = x;
		text[k] = t;
		if (!isfinite(x))
			snprintf(t, TEXT, "not measured");
		else if (isfinite(fw))
			snprintf(t, TEXT, bw ? "%.1f GB/s\nHMAT %.1f" : "%.1f ns\nHMAT %.0f", x, fw);
		else
			snprintf(t, TEXT, bw ? "%.1f GB/s" : "%.1f ns", x);
	}
	/* The rows and columns' names, after the cells' text. */
	for (int i = 0; i < ni; i++)
		snprintf((char *)text[ni * nt + i], TEXT, "node %d", in[i]);
	for (int j = 0; j < nt; j++) {
		const struct mess_mx_cell *k = NULL;

		for (int i = 0; i < n && !k; i++)
			k = c[i].target == tg[j] ? &c[i] : NULL;
		snprintf((char *)text[ni * nt + ni + j], TEXT, "node %d %s", tg[j], k->kind);
	}
	/* The host as every other figure's title has it: a heat map pasted
	 * alone says which machine. */
	gethostname(host, sizeof(host) - 1);
	snprintf(title, sizeof(title), "%s%s: %s on %s", pre, bw ? "Peak bandwidth, read only" :
		 "Unloaded latency", cpu, host[0] ? host : "unknown host");
	rc = mess_heat_plot(dir, &(struct mess_heat){
		.name = bw ? "matrix-bandwidth" : "matrix-latency", .title = title,
		.xlabel = "memory node (target)", .ylabel = "initiator (node with CPUs)",
		.cblabel = bw ? "GB/s (1e9 B/s)" : "ns per dependent load",
		.nx = nt, .ny = ni, .high_good = bw, .xtics = text + ni * nt + ni,
		.ytics = text + ni * nt, .v = v, .text = text }, err, errlen);
out:
	if (rc == -ENOMEM)
		snprintf(err, errlen, "out of memory");
	free(in);
	free(tg);
	free(v);
	free(buf);
	free(text);
	return rc;
}

int mess_mx_plot(const char *dir, const struct mess_mx_cell *c, int n,
		 const char *pre, const char *cpu, char *err, size_t errlen)
{
	int rc;

	if (!n)
		return mess_fail(err, errlen, -ENODATA, "no pair measured");
	rc = figure(dir, c, n, pre, cpu, 0, err, errlen);
	return rc ? rc : figure(dir, c, n, pre, cpu, 1, err, errlen);
}
