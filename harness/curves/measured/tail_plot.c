// SPDX-License-Identifier: MIT
/* plots/tails.png and .svg (plots/hist.gp): the p99 family beside the
 * mean family, and one mix's histograms at idle, mid and maximum load. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "core/clock.h"
#include "core/report/plot.h"
#include "core/util.h"
#include "curves/measured/measured.h"
#include "curves/measured/tail.h"

static int write_tails(const char *path, const struct mess_family *f)
{
	FILE *fp = mess_fopen_new(path);
	int blocks = 0;

	if (!fp)
		return -errno;
	for (size_t i = 0; i < f->n; i++) {
		const struct mess_curve *c = &f->curves[i];
		int rows = 0;

		for (size_t j = 0; j < c->n; j++) {
			const struct mess_point *p = &c->pts[j];

			if (!mess_point_usable(p) || !isfinite(p->lat_p99_ns))
				continue;
			/* An empty block would shift every later index. */
			if (!rows++ && blocks++)
				fputs("\n\n", fp);
			/* The mix's name (its store %), and whether the
			 * point's distribution disagrees with its mean: its
			 * p99 is then drawn apart, hollow and grey. */
			fprintf(fp, "%.6f %.4f %.4f %.4f %ld %d\n", p->bw_gbs,
				p->lat_ns, p->lat_p99_ns, c->read_pct,
				c->store_pct == MESS_STORE_PCT_UNKNOWN ? -1L :
				(long)c->store_pct,
				!!(p->flags & MESS_QF(MESS_QR_DIST_DISAGREES)));
		}
	}
	if (fflush(fp) || ferror(fp)) {
		int err = errno ? -errno : -EIO;

		fclose(fp);
		return err;
	}
	if (fclose(fp))
		return errno ? -errno : -EIO;
	return blocks;
}

/* A data file of the figure not written (a full disk): the figure is
 * skipped, the file (in the run directory) named; the run's results are
 * written already. */
static void unwritten(struct mess_tail *t, const char *name, int err)
{
	snprintf(t->plot_note, sizeof(t->plot_note), "skipped: plots/%s: cannot write: %s%s",
		 name, strerror(-err), err == -ENOSPC ? " (disk full)" : "");
	fprintf(stderr, "warning: plots/tails %s\n", t->plot_note);
}

/* One block of point p's histogram: bin midpoints, share of its batches
 * per ns.  0 when it has none. */
static int hist_block(FILE *fp, const struct mess_tail *t, int mix, uint64_t nop)
{
	uint64_t total = 0;

	for (size_t i = 0; i < t->nrows; i++)
		if (t->rows[i].mix == mix && t->rows[i].nop == nop)
			total += t->rows[i].count;
	if (!total)
		return 0;
	for (size_t i = 0; i < t->nrows; i++) {
		const struct mess_tail_row *w = &t->rows[i];

		if (w->mix == mix && w->nop == nop)
			fprintf(fp, "%.4f %.6g\n", (w->lo_ns + w->hi_ns) / 2,
				(double)w->count / (double)total / (w->hi_ns - w->lo_ns));
	}
	fputs("\n\n", fp);
	return 1;
}

/*
 * The lowest bandwidth, the one nearest half the highest, the highest:
 * chosen by the bandwidth their labels give, so that the three read in
 * order (a disturbed light point can move more than a mid one).
 */
static void three_points(const struct mess_curve *c, const struct mess_point **pt)
{
	pt[0] = pt[1] = pt[2] = NULL;
	for (size_t j = 0; j < c->n; j++) {
		const struct mess_point *p = &c->pts[j];

		if (!mess_point_usable(p))
			continue;
		if (!pt[0] || p->bw_gbs < pt[0]->bw_gbs)
			pt[0] = p;
		if (!pt[2] || p->bw_gbs > pt[2]->bw_gbs)
			pt[2] = p;
	}
	for (size_t j = 0; pt[2] && j < c->n; j++) {
		const struct mess_point *p = &c->pts[j];
		double half = pt[2]->bw_gbs / 2;

		if (mess_point_usable(p) &&
		    (!pt[1] || fabs(p->bw_gbs - half) < fabs(pt[1]->bw_gbs - half)))
			pt[1] = p;
	}
}

void mess_tail_plot(struct mess_measured *r, const struct mess_family *fam,
		    const char *title)
{
	struct mess_tail *t = &r->tail;
	char dir[PATH_MAX + 8], tails[PATH_MAX + 32], hist[PATH_MAX + 32];
	char base[PATH_MAX + 32], log[PATH_MAX + 32], q[3][2 * PATH_MAX + 80];
	char lab[3][96], qt[600], qs[600], line1[300], expr[8 * PATH_MAX], err[300] = "";
	const struct mess_point *pt[3] = { NULL, NULL, NULL };
	const struct mess_curve *c = NULL;
	FILE *fp = NULL;
	int ok = 1, n = 0;

	if (!t->ok || !fam->n) {
		snprintf(t->plot_note, sizeof(t->plot_note), "skipped: %s",
			 !t->ok ? "no distribution" : "no curve");
		return;
	}
	/* The first mix with three points of its own (0 % stores first). */
	for (size_t i = 0; i < fam->n && !c; i++) {
		three_points(&fam->curves[i], pt);
		if (pt[0] && pt[1] && pt[2] && pt[0] != pt[2])
			c = &fam->curves[i];
	}
	snprintf(dir, sizeof(dir), "%s/plots", r->dir);
	snprintf(tails, sizeof(tails), "%s/tails.dat", dir);
	snprintf(hist, sizeof(hist), "%s/hist.dat", dir);
	snprintf(base, sizeof(base), "%s/tails", dir);
	snprintf(log, sizeof(log), "%s/gnuplot-tails.log", dir);
	/* plots/ linked elsewhere is never written through. */
	n = mess_subdir(dir);
	if (n < 0) {
		unwritten(t, "tails.dat", n);
		return;
	}
	if (c)
		n = write_tails(tails, fam);
	if (n < 0) {
		unwritten(t, "tails.dat", n);
		return;
	}
	if (n > 0 && !(fp = mess_fopen_new(hist))) {
		unwritten(t, "hist.dat", -errno);
		return;
	}
	if (!fp) {
		snprintf(t->plot_note, sizeof(t->plot_note), "skipped: %s",
			 c ? "no point with a p99" : "no mix with three points");
		return;
	}
	for (int k = 0; k < 3; k++)
		ok &= hist_block(fp, t, (int)c->store_pct, pt[k]->nop);
	errno = 0;
	if (fflush(fp) || ferror(fp)) {
		n = errno ? -errno : -EIO;
		fclose(fp);
		unwritten(t, "hist.dat", n);
		return;
	}
	if (fclose(fp)) {
		unwritten(t, "hist.dat", errno ? -errno : -EIO);
		return;
	}
	if (!ok) {
		snprintf(t->plot_note, sizeof(t->plot_note),
			 "skipped: a point of mix %u has no histogram", c->store_pct);
		return;
	}
	for (int k = 0; k < 3; k++)
		snprintf(lab[k], sizeof(lab[k]), "%s: nop %llu, %.1f GB/s",
			 k == 0 ? "lowest bandwidth" : k == 1 ? "mid" : "highest bandwidth",
			 (unsigned long long)pt[k]->nop, pt[k]->bw_gbs);
	/* Up to twice the highest p99.9: a preempted batch's milliseconds
	 * would leave the histograms a line at 0. */
	double xmax = 0;

	for (int k = 0; k < 3; k++)
		if (isfinite(pt[k]->lat_p999_ns))
			xmax = fmax(xmax, 2 * pt[k]->lat_p999_ns);
	mess_gp_quote(q[0], sizeof(q[0]), tails);
	mess_gp_quote(q[1], sizeof(q[1]), hist);
	mess_gp_quote(q[2], sizeof(q[2]), base);
	/* The curves' two-line title: what was measured, then how. */
	snprintf(line1, sizeof(line1), "%.*s", (int)strcspn(title, "\n"), title);
	mess_gp_quote(qt, sizeof(qt), line1);
	mess_gp_quote(qs, sizeof(qs), strchr(title, '\n') ? strchr(title, '\n') + 1 : "");
	snprintf(expr, sizeof(expr),
		 "tailfile='%s'; histfile='%s'; outbase='%s'; plottitle='%s'; plotsub='%s'; "
		 "histmix='%u %% stores'; hl0='%s'; hl1='%s'; hl2='%s'; histxmax=%.1f",
		 q[0], q[1], q[2], qt, qs, c->store_pct, lab[0], lab[1], lab[2], xmax);
	double t0 = mess_now_ns();
	int rc = mess_gnuplot("hist.gp", expr, log, err, sizeof(err));

	t->plot_ns = mess_now_ns() - t0;
	if (rc) {
		snprintf(t->plot_note, sizeof(t->plot_note), "skipped: %s", err);
		fprintf(stderr, "warning: plots/tails %s\n", t->plot_note);
		return;
	}
	snprintf(t->plot_note, sizeof(t->plot_note),
		 "plots/tails.png, plots/tails.svg (histograms of mix %u %% stores)",
		 c->store_pct);
}
