// SPDX-License-Identifier: MIT
/*
 * `mess absorb`'s plots: the data files gnuplot reads (plots/absorb*.dat)
 * and plots/absorb.gp, plus the ladder's; a missing gnuplot is reported
 * in meta.json, never fatal.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "absorb/absorb.h"
#include "core/report/plot.h"
#include "core/util.h"

static int has_points(const struct absorb_table *t, const struct row *r)
{
	for (int j = 0; j < t->nmodes; j++)
		if (r->pair[t->modes[j]].n)
			return 1;
	return 0;
}

/* The fitted three-phase model at k; a lower bound is flat throughout. */
static double model_at(const struct mess_absorb_result *res, unsigned k)
{
	double end;

	if (!absorb_has_line(res) || k <= res->k1_fit)
		return absorb_has_line(res) ? res->flat : res->base;
	if (k >= res->k2)
		return res->a + res->slope * k;
	end = res->a + res->slope * res->k2;
	return res->flat + (end - res->flat) * (k - res->k1_fit) /
				   (res->k2 - res->k1_fit);
}

/*
 * plots/absorb.dat: "plot mode k t spread", plot numbering the rows
 * with points; plots/absorb_model.dat: each fitted model at every integer
 * k up to the largest measured ("plot mode k t", a blank line between
 * models); plots/absorb_k1.dat: each decided k1 ("plot mode k1 t", t the
 * point measured there, else the model's); rows and modes go to gnuplot
 * as word lists.
 */
static int write_plot_data(const struct absorb_table *t, const char *dir,
			   char *rows, size_t rowslen)
{
	FILE *d = mess_file_open(dir, "absorb.dat", "w");
	FILE *mf = mess_file_open(dir, "absorb_model.dat", "w");
	FILE *kf = mess_file_open(dir, "absorb_k1.dat", "w");
	int np = 0, err = 0;
	size_t o = 0;

	if (!d || !mf || !kf) {
		err = -errno;
		goto out;
	}
	fprintf(d, "# plot mode k time_ns spread_ns\n");
	fprintf(mf, "# plot mode k time_ns: fitted three-phase model\n");
	fprintf(kf, "# plot mode k1 time_ns: decided k1 (status ok or none)\n");
	rows[0] = 0;
	for (size_t i = 0; i < t->nrows; i++) {
		const struct row *r = &t->rows[i];

		if (!has_points(t, r))
			continue;
		o += (size_t)snprintf(rows + o, o < rowslen ? rowslen - o : 0,
				      "%s%s", np ? " " : "", r->id);
		for (int j = 0; j < t->nmodes; j++) {
			const struct pair *pr = &r->pair[t->modes[j]];
			const struct mess_absorb_result *res = &pr->res;
			unsigned km = 0;
			double tk1 = NAN;

			for (size_t p = 0; p < pr->n; p++) {
				fprintf(d, "%d %d %u %.6g %.6g\n", np, j,
					pr->pts[p].k, pr->pts[p].t,
					pr->pts[p].sigma);
				if (pr->pts[p].k > km)
					km = pr->pts[p].k;
				if (pr->pts[p].k == res->k1)
					tk1 = pr->pts[p].t;
			}
			/* A wide or unclear bracket is no point to mark. */
			if (pr->done && (res->status == MESS_ABSORB_OK ||
					 res->status == MESS_ABSORB_NONE))
				fprintf(kf, "%d %d %u %.6g\n", np, j, res->k1,
					isfinite(tk1) ? tk1 : model_at(res, res->k1));
			if (!pr->done || (!absorb_has_line(res) && !res->k1_lower_bound))
				continue;
			/* Every integer k: the plot's axes are logarithmic. */
			for (unsigned k = 0; k <= km; k++)
				fprintf(mf, "%d %d %u %.6g\n", np, j, k,
					model_at(res, k));
			fprintf(mf, "\n");
		}
		np++;
	}
	if (o >= rowslen)
		err = -ENAMETOOLONG;
out:
	if (d && fclose(d) && !err)
		err = -EIO;
	if (mf && fclose(mf) && !err)
		err = -EIO;
	if (kf && fclose(kf) && !err)
		err = -EIO;
	return err ? err : np;
}

/*
 * plots/absorb_spmxv.dat: one index block per SPMXV variant and core
 * count, "q perf k1_fp_add64 k1_l1_ld64" (NaN: not measured or unclear;
 * lower bounds are plotted at their value and flagged in columns 5, 6).
 */
static int write_spmxv_data(const struct absorb_table *t, const char *dir,
			    char *series, size_t len, int have[2], int *left)
{
	const enum mess_noise_mode pm[2] = { MESS_NOISE_MODE_fp_add64,
					     MESS_NOISE_MODE_l1_ld64 };
	FILE *f = mess_file_open(dir, "absorb_spmxv.dat", "w");
	int blocks = 0;
	size_t o = 0;

	if (!f)
		return -errno;
	series[0] = 0;
	fprintf(f, "# q perf k1_fp_add64 k1_l1_ld64 lower_bound_fp lower_bound_l1\n");
	for (size_t i = 0; i < t->nrows; i++) {
		const struct row *s = &t->rows[i];
		int seen = 0;

		if (!mess_wl_kernels[s->wl.kernel].has_q || !isfinite(s->perf))
			continue;
		/* The first row of each (variant, cores) opens its block. */
		for (size_t j = 0; j < i; j++)
			seen |= t->rows[j].wl.kernel == s->wl.kernel &&
				isfinite(t->rows[j].perf) &&
				!strcmp(t->rows[j].wl.variant, s->wl.variant) &&
				t->rows[j].wl.cores == s->wl.cores;
		if (seen)
			continue;
		fprintf(f, "%s# %s c%d\n", blocks ? "\n\n" : "", s->wl.variant,
			s->wl.cores);
		o += (size_t)snprintf(series + o, o < len ? len - o : 0, "%s%s-c%d",
				      blocks ? " " : "", s->wl.variant, s->wl.cores);
		for (size_t j = i; j < t->nrows; j++) {
			const struct row *r = &t->rows[j];

			/* The first table's k1; the others are in
			 * absorption_tables.csv. */
			if (r->tb || r->wl.kernel != s->wl.kernel || !isfinite(r->perf) ||
			    strcmp(r->wl.variant, s->wl.variant) ||
			    r->wl.cores != s->wl.cores)
				continue;
			fprintf(f, "%g %.6g", r->wl.q, r->perf);
			for (int m = 0; m < 2; m++) {
				const struct pair *pr = &r->pair[pm[m]];

				/* Decided k1 only: a wide bracket is no point. */
				if (pr->done && (pr->res.status == MESS_ABSORB_OK ||
						 pr->res.status == MESS_ABSORB_NONE)) {
					fprintf(f, " %u", pr->res.k1);
					have[m] = 1;
				} else {
					/* Said under the figure: a missing
					 * point is no absorption of 0. */
					*left += pr->done;
					fprintf(f, " NaN");
				}
			}
			for (int m = 0; m < 2; m++)
				fprintf(f, " %d", r->pair[pm[m]].done &&
					r->pair[pm[m]].res.k1_lower_bound);
			fprintf(f, "\n");
		}
		blocks++;
	}
	if (fclose(f))
		return -EIO;
	return o < len ? blocks : -ENAMETOOLONG;
}

void absorb_plots(struct absorb_table *t, const char *rundir, int complete)
{
	char dir[PATH_MAX + 8], rows[8192], series[512], err[256], modes[128];
	char qdir[2 * PATH_MAX + 16], qtitle[512], title[300], log[PATH_MAX + 32];
	char host[128] = "", gtitle[420];
	char *expr = NULL;
	int np, ns, rc, have[2] = { 0, 0 }, left = 0;

	snprintf(dir, sizeof(dir), "%s/plots", rundir);
	rc = mess_subdir(dir);
	np = rc ? rc : write_plot_data(t, dir, rows, sizeof(rows));
	ns = np < 0 ? 0 : write_spmxv_data(t, dir, series, sizeof(series), have,
					   &left);
	snprintf(title, sizeof(title), "%s%s", t->cpu_model,
		 complete ? "" : " (partial)");
	/* The verdict and the host in every figure's title: a figure
	 * pasted alone still says whether to believe it. */
	gethostname(host, sizeof(host) - 1);
	snprintf(gtitle, sizeof(gtitle), "%s: %s on %s",
		 t->judged ? mess_level_name(t->verdict.level) : "not judged",
		 title, host[0] ? host : "unknown host");
	mess_gp_quote(qdir, sizeof(qdir), dir);
	mess_gp_quote(qtitle, sizeof(qtitle), gtitle);
	snprintf(log, sizeof(log), "%s/absorb-gnuplot.log", dir);
	for (int j = 0, o = 0; j < t->nmodes; j++)
		o += snprintf(modes + o, sizeof(modes) - (size_t)o, "%s%s",
			      j ? " " : "", mess_noise_mode_name(t->modes[j]));
	err[0] = 0;
	if (np <= 0 || ns < 0) {
		snprintf(err, sizeof(err), "%s", np == 0 ? "no points to plot" :
			 strerror(-(np < 0 ? np : ns)));
		rc = -ENODATA;
	} else if (asprintf(&expr, "outdir='%s'; rows='%s'; modes='%s'; spseries='%s'; sphave='%d %d'; spleft=%d; plottitle='%s'",
			    qdir, rows, modes, ns ? series : "", have[0],
			    have[1], left, qtitle) < 0) {
		expr = NULL;
		snprintf(err, sizeof(err), "out of memory");
		rc = -ENOMEM;
	} else {
		rc = mess_gnuplot("absorb.gp", expr, log, err, sizeof(err));
	}
	if (rc)
		snprintf(t->plots_note, sizeof(t->plots_note), "skipped: %s",
			 err[0] ? err : "gnuplot failed");
	else
		snprintf(t->plots_note, sizeof(t->plots_note),
			 "plots/absorb-<row>.png and .svg (time per iteration vs k, fitted model)%s",
			 ns ? ", plots/absorb-spmxv.png and .svg (SPMXV vs q)" : "");
	if (t->ladder_done && t->ladder.n && np >= 0) {
		err[0] = 0;
		rc = mess_ladder_plot(&t->ladder, rundir, gtitle, err, sizeof(err));
		snprintf(t->plots_note + strlen(t->plots_note),
			 sizeof(t->plots_note) - strlen(t->plots_note), "%s%s",
			 rc ? "; ladder plot skipped: " : "; plots/ladder.png and .svg (latency ladder)",
			 rc ? (err[0] ? err : "gnuplot failed") : "");
	}
	free(expr);
	if (t->plots_note[0] == 's')
		fprintf(stderr, "warning: plots %s\n", t->plots_note);
}
