// SPDX-License-Identifier: MIT
/*
 * c2c's heat map (core/report/plot.h draws it): every PU by every PU,
 * the pair's median one-way latency in both of its cells.
 */
#include "c2c/c2c.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "core/report/heat.h"

#define TEXT 24

int mess_c2c_plot(const char *dir, const struct mess_c2c_pair *p, int n,
		  const int *pus, int npu, const char *title, char *err,
		  size_t errlen)
{
	size_t cells = (size_t)npu * (size_t)npu;
	double *v = malloc(sizeof(*v) * (cells + 1));
	char *buf = calloc(cells + 2 * (size_t)npu + 1, TEXT);
	const char **text = calloc(cells + 2 * (size_t)npu + 1, sizeof(char *));
	int rc = -ENOMEM;

	if (!n) {
		snprintf(err, errlen, "no pair measured");
		rc = -ENODATA;
		goto out;
	}
	if (!v || !buf || !text) {
		snprintf(err, errlen, "out of memory");
		goto out;
	}
	for (size_t i = 0; i < cells; i++)
		v[i] = NAN;
	for (int i = 0; i < n; i++) {
		int a = -1, b = -1;

		/* Their places among the PUs, rows and columns alike. */
		for (int k = 0; k < npu; k++) {
			a = pus[k] == p[i].a ? k : a;
			b = pus[k] == p[i].b ? k : b;
		}

		if (a < 0 || b < 0 || !isfinite(p[i].median_ns))
			continue;
		v[(size_t)a * npu + b] = v[(size_t)b * npu + a] = p[i].median_ns;
		snprintf(buf + ((size_t)a * npu + b) * TEXT, TEXT, "%.0f", p[i].median_ns);
		snprintf(buf + ((size_t)b * npu + a) * TEXT, TEXT, "%.0f", p[i].median_ns);
		text[(size_t)a * npu + b] = buf + ((size_t)a * npu + b) * TEXT;
		text[(size_t)b * npu + a] = buf + ((size_t)b * npu + a) * TEXT;
	}
	/* The PUs' names, after the cells' text: the same on both axes. */
	for (int i = 0; i < npu; i++) {
		text[cells + i] = buf + (cells + i) * TEXT;
		snprintf(buf + (cells + i) * TEXT, TEXT, "%d", pus[i]);
	}
	rc = mess_heat_plot(dir, &(struct mess_heat){
		.name = "c2c", .title = title, .xlabel = "PU (OS index)",
		.ylabel = "PU (OS index)", .cblabel = "ns one way, median",
		.nx = npu, .ny = npu, .xtics = text + cells, .ytics = text + cells,
		.v = v, .text = text }, err, errlen);
out:
	free(v);
	free(buf);
	free(text);
	return rc;
}
