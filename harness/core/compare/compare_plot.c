// SPDX-License-Identifier: MIT
/*
 * The comparison plots: the data files we write, plots/compare.gp draws
 * them (gnuplot is optional: its absence is reported, never fatal).
 */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/compare/compare_files.h"
#include "core/report/plot.h"
#include "core/util.h"
#include "mess/load.h"

/* Samples per ratio line: the model is piecewise linear between measured
 * points, 64 steps show every bend of a curve of ~20 points. */
#define RATIO_STEPS 64

/* Every usable point, one block per curve; columns bw lat read set. */
static int write_overlay(const struct mess_compare_ctx *c, FILE *fp)
{
	int blocks = 0;

	fputs("# bw_gbs lat_ns read_pct set (0-based, in the order given)\n", fp);
	for (size_t i = 0; i < c->n; i++) {
		const struct mess_family *fam = c->sets[i].fam;

		for (size_t j = 0; j < fam->n; j++) {
			const struct mess_curve *cv = &fam->curves[j];

			if (!isfinite(cv->read_pct) || !mess_curve_usable(cv))
				continue;
			fprintf(fp, "%s# %s read %.2f%%\n", blocks++ ? "\n\n" : "",
				c->labels[i], cv->read_pct);
			for (size_t p = 0; p < cv->n; p++)
				if (mess_point_usable(&cv->pts[p]))
					fprintf(fp, "%.4f %.3f %.2f %zu\n",
						cv->pts[p].bw_gbs, cv->pts[p].lat_ns,
						cv->read_pct, i);
		}
	}
	return blocks;
}

/* Set i's latency over set 0's at the same bandwidth, per grid share, up
 * to the lower maximum: beyond it one set has no measured latency. */
static int write_ratio(const struct mess_compare_ctx *c, FILE *fp)
{
	int blocks = 0;

	fputs("# bw_gbs latency_ratio read_pct set(against set 0) last\n", fp);
	for (size_t i = 1; i < c->n; i++)
		for (size_t k = 0; k < MESS_CMP_NSHARES; k++) {
			const struct mess_cmp_set *a = &c->cmp.set[i], *z = &c->cmp.set[0];
			double r = mess_cmp_shares[k];
			double top = fmin(a->max_bw[k].v, z->max_bw[k].v);

			if (!(top > 0))
				continue;
			fprintf(fp, "%s# %s / %s read %.0f%%\n", blocks++ ? "\n\n" : "",
				c->labels[i], c->labels[0], r);
			for (int s = 0; s <= RATIO_STEPS; s++) {
				double bw = top * s / RATIO_STEPS, la, lz;

				if (mess_model_latency(a->model, r, bw, &la) < 0 ||
				    mess_model_latency(z->model, r, bw, &lz) < 0 ||
				    !(lz > 0))
					continue;
				fprintf(fp, "%.4f %.5f %.0f %zu %d\n", bw, la / lz, r, i,
					s == RATIO_STEPS);
			}
		}
	return blocks;
}

static int write_dat(const char *path, const struct mess_compare_ctx *c,
		     int (*fn)(const struct mess_compare_ctx *, FILE *))
{
	FILE *fp = mess_fopen_new(path);
	int blocks, err = 0;

	if (!fp)
		return -errno;
	blocks = fn(c, fp);
	if (ferror(fp))
		err = -EIO;
	if (fclose(fp) && !err)
		err = -errno;
	return err ? err : blocks;
}

struct cmp_paths {
	char dir[PATH_MAX - 32];
	char dat[PATH_MAX], rdat[PATH_MAX], base[PATH_MAX], log[PATH_MAX];
	char q[3][2 * PATH_MAX], ql[MESS_CMP_MAX_SETS][300];
	char expr[8 * PATH_MAX];
};

static int have_file(const char *dir, const char *name)
{
	char p[PATH_MAX + 64];

	snprintf(p, sizeof(p), "%s/%s", dir, name);
	return !access(p, R_OK);
}

int mess_compare_plot(const struct mess_compare_ctx *c, const char *outdir,
		      char *err, size_t errlen)
{
	struct cmp_paths *pp = malloc(sizeof(*pp));
	static const char *const out[] = { "compare.png", "compare.svg",
					   "compare-ratio.png", "compare-ratio.svg" };
	int ret, o;

	if (!pp)
		return mess_fail(err, errlen, -ENOMEM, "out of memory");
	if ((size_t)snprintf(pp->dir, sizeof(pp->dir), "%s/plots", outdir) >=
	    sizeof(pp->dir)) {
		ret = mess_fail(err, errlen, -ENAMETOOLONG, "output directory path too long");
		goto done;
	}
	snprintf(pp->dat, sizeof(pp->dat), "%s/compare.dat", pp->dir);
	snprintf(pp->rdat, sizeof(pp->rdat), "%s/compare-ratio.dat", pp->dir);
	snprintf(pp->base, sizeof(pp->base), "%s/compare", pp->dir);
	snprintf(pp->log, sizeof(pp->log), "%s/gnuplot.log", pp->dir);
	ret = mess_subdir(pp->dir);
	if (!ret)
		ret = write_dat(pp->dat, c, write_overlay);
	if (ret >= 0) {
		int r2 = write_dat(pp->rdat, c, write_ratio);

		ret = r2 < 0 ? r2 : ret && r2;
	}
	if (ret <= 0) {
		snprintf(err, errlen, ret ? "cannot write %s: %s" : "no points to plot (%s)",
			 pp->dir, strerror(-ret));
		ret = ret ? ret : -ENODATA;
		goto done;
	}
	for (size_t i = 0; i < sizeof(out) / sizeof(out[0]); i++) {
		char p[PATH_MAX + 64];

		/* Stale images must not pass for new ones if gnuplot fails. */
		snprintf(p, sizeof(p), "%s/%s", pp->dir, out[i]);
		unlink(p);
	}
	mess_gp_quote(pp->q[0], sizeof(pp->q[0]), pp->dat);
	mess_gp_quote(pp->q[1], sizeof(pp->q[1]), pp->rdat);
	mess_gp_quote(pp->q[2], sizeof(pp->q[2]), pp->base);
	o = snprintf(pp->expr, sizeof(pp->expr),
		     "datafile='%s'; ratiofile='%s'; outbase='%s'; nsets=%zu",
		     pp->q[0], pp->q[1], pp->q[2], c->n);
	/* The title names every set with its verdict, CPU and host (where
	 * its files say): a figure pasted alone still says what to
	 * believe. */
	o += snprintf(pp->expr + o, sizeof(pp->expr) - o, "; plotsets='");
	for (size_t i = 0; i < c->n && o > 0 && (size_t)o < sizeof(pp->expr); i++) {
		char l[600], q[1200], host[128];
		const char *v = mess_compare_verdict(c, i);

		/* The host a run of mess was measured on, "" unsaid. */
		mess_compare_set_meta(c->sets[i].info, "host", "", host, sizeof(host));
		snprintf(l, sizeof(l), "%s%s (%s%s%s%s%s)", i ? " vs " : "", c->labels[i],
			 strcmp(v, "none") ? v : "no verdict",
			 c->sets[i].info->cpu_model[0] ? ", " : "",
			 c->sets[i].info->cpu_model, host[0] ? " on " : "", host);
		mess_gp_quote(q, sizeof(q), l);
		o += snprintf(pp->expr + o, sizeof(pp->expr) - o, "%s", q);
	}
	if (o > 0 && (size_t)o < sizeof(pp->expr))
		o += snprintf(pp->expr + o, sizeof(pp->expr) - o, "'");
	for (size_t i = 0; i < c->n && o > 0 && (size_t)o < sizeof(pp->expr); i++) {
		char l[200];

		/* The legend says which sets are not to be believed. */
		snprintf(l, sizeof(l), "%s%s%s%s", c->labels[i],
			 mess_compare_verdict_said(c, i) ? " (" : "",
			 mess_compare_verdict_said(c, i) ? mess_compare_verdict(c, i) : "",
			 mess_compare_verdict_said(c, i) ? ")" : "");
		mess_gp_quote(pp->ql[i], sizeof(pp->ql[i]), l);
		o += snprintf(pp->expr + o, sizeof(pp->expr) - o, "; label%zu='%s'",
			      i + 1, pp->ql[i]);
	}
	ret = mess_gnuplot("compare.gp", pp->expr, pp->log, err, errlen);
	for (size_t i = 0; !ret && i < sizeof(out) / sizeof(out[0]); i++)
		if (!have_file(pp->dir, out[i]))
			ret = mess_fail(err, errlen, -EIO, "gnuplot wrote no %s/%s, see %s",
					pp->dir, out[i], pp->log);
done:
	free(pp);
	return ret;
}
