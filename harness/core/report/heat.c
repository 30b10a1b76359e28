// SPDX-License-Identifier: MIT
/*
 * Heat maps (heat.h): the cells, their text and the axes' names written
 * for plots/heat.gp, which draws them.
 */
#include "core/report/heat.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/report/plot.h"
#include "core/util.h"

/* "set xtics ('a' 0, 'b' 1, ...)": every k-th of n, at most 40 named. */
static void heat_tics(FILE *f, const char *axis, const char *const *t, int n)
{
	char q[256];
	int k = n > 40 ? (n + 39) / 40 : 1;

	fprintf(f, "set %s (", axis);
	for (int i = 0; i < n; i += k) {
		mess_gp_quote(q, sizeof(q), t[i]);
		fprintf(f, "%s'%s' %d", i ? ", " : "", q, i);
	}
	fprintf(f, ")\n");
}

/* One line of a cell's text, tabs and newlines left out of it: " " for
 * none (an empty field would be a missing value to gnuplot). */
static void heat_text(FILE *f, const char *s, size_t n)
{
	size_t w = 0;

	for (size_t i = 0; s && i < n; i++)
		if (s[i] != '\t' && s[i] != '\r' && s[i] != '\n') {
			fputc(s[i], f);
			w++;
		}
	if (!w)
		fputc(' ', f);
}

/* plots/<name>.dat ("x y v line1 line2", tab-separated) and .tics. */
static int heat_files(const char *dir, const struct mess_heat *h)
{
	char name[128];
	FILE *f;

	snprintf(name, sizeof(name), "%s.dat", h->name);
	f = mess_file_open(dir, name, "w");
	if (!f)
		return -errno;
	fputs("# x\ty\tvalue\tline1\tline2\n", f);
	for (int y = 0; y < h->ny; y++)
		for (int x = 0; x < h->nx; x++) {
			double v = h->v[y * h->nx + x];
			const char *t = h->text ? h->text[y * h->nx + x] : NULL;
			const char *nl = t ? strchr(t, '\n') : NULL;

			if (!isfinite(v) && !t)
				continue;
			fprintf(f, "%d\t%d\t", x, y);
			if (isfinite(v))
				fprintf(f, "%.6g\t", v);
			else
				fputs("NaN\t", f);
			heat_text(f, t, t ? (nl ? (size_t)(nl - t) : strlen(t)) : 0);
			fputc('\t', f);
			heat_text(f, nl ? nl + 1 : NULL, nl ? strlen(nl + 1) : 0);
			fputc('\n', f);
		}
	if (fclose(f))
		return -EIO;
	snprintf(name, sizeof(name), "%s.tics", h->name);
	f = mess_file_open(dir, name, "w");
	if (!f)
		return -errno;
	heat_tics(f, "xtics", h->xtics, h->nx);
	heat_tics(f, "ytics", h->ytics, h->ny);
	return fclose(f) ? -EIO : 0;
}

/* An image gnuplot finished: an SVG closed, a PNG not empty (a full
 * disk leaves a truncated file behind a gnuplot that exits 0). */
static int whole(const char *path, int svg)
{
	char tail[16] = "";
	FILE *f = fopen(path, "rb");
	long n = f && !fseek(f, -(long)sizeof(tail) + 1, SEEK_END) ?
		 (long)fread(tail, 1, sizeof(tail) - 1, f) : 0;

	if (f)
		fclose(f);
	return n > 0 && (!svg || strstr(tail, "</svg>"));
}

struct heat_paths {
	char dir[PATH_MAX - 16], base[PATH_MAX], log[PATH_MAX + 32];
	char qbase[2 * PATH_MAX], qtitle[512];
	char expr[3 * PATH_MAX];
};

int mess_heat_plot(const char *rundir, const struct mess_heat *h, char *err,
		   size_t errlen)
{
	struct heat_paths *pp = calloc(1, sizeof(*pp));
	char qx[256], qy[256], qcb[256], path[PATH_MAX + 160];
	int ret, figures = 0;

	mess_set_err(err, errlen, "%s", "");
	if (!pp)
		return mess_fail(err, errlen, -ENOMEM, "out of memory");
	snprintf(pp->dir, sizeof(pp->dir), "%s/plots", rundir);
	ret = mess_subdir(pp->dir);
	if (!ret)
		ret = heat_files(pp->dir, h);
	if (ret) {
		mess_set_err(err, errlen, "cannot write %s/%s.dat: %s", pp->dir,
			     h->name, strerror(-ret));
		goto out;
	}
	snprintf(pp->base, sizeof(pp->base), "%s/%s", pp->dir, h->name);
	snprintf(pp->log, sizeof(pp->log), "%s/%s-gnuplot.log", pp->dir, h->name);
	mess_gp_quote(pp->qbase, sizeof(pp->qbase), pp->base);
	mess_gp_quote(pp->qtitle, sizeof(pp->qtitle), h->title);
	mess_gp_quote(qx, sizeof(qx), h->xlabel);
	mess_gp_quote(qy, sizeof(qy), h->ylabel);
	mess_gp_quote(qcb, sizeof(qcb), h->cblabel);
	/* Text in the cells while it fits: a large machine's c2c has none. */
	for (int i = 0; i < h->nx * h->ny; i++)
		figures += isfinite(h->v[i]);
	snprintf(pp->expr, sizeof(pp->expr),
		 "outbase='%s'; plottitle='%s'; xl='%s'; yl='%s'; cbl='%s'; nx=%d; ny=%d; highgood=%d; labels=%d; figures=%d",
		 pp->qbase, pp->qtitle, qx, qy, qcb, h->nx, h->ny, !!h->high_good,
		 h->text && h->nx <= 24 && h->ny <= 24, figures);
	ret = mess_gnuplot("heat.gp", pp->expr, pp->log, err, errlen);
	for (int i = 0; !ret && i < 2; i++) {
		snprintf(path, sizeof(path), "%s.%s", pp->base, i ? "svg" : "png");
		if (!whole(path, i))
			ret = mess_fail(err, errlen, -EIO, "gnuplot wrote no whole %s, see %s",
					path, pp->log);
	}
	/* No half image left to pass for a figure. */
	for (int i = 0; ret && pp->base[0] && i < 2; i++) {
		snprintf(path, sizeof(path), "%s.%s", pp->base, i ? "svg" : "png");
		unlink(path);
	}
out:
	free(pp);
	return ret;
}
