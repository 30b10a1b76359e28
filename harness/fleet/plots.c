// SPDX-License-Identifier: MIT
/*
 * The fleet's plots: the data files written here, plots/fleet.gp draws
 * them (gnuplot is optional: its absence is reported, never fatal).
 */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "core/report/plot.h"
#include "core/util.h"
#include "fleet/fleet.h"
#include "mess/fleet.h"

/* A node's curve of store_pct mix, usable points in pressure order; *top
 * gets its highest-bandwidth point.  0: the node has no such curve. */
static int curve(FILE *fp, const struct fleet_node *nd, int mix, int tag,
		 double top[2])
{
	for (size_t c = 0; c < nd->fam.n; c++) {
		const struct mess_curve *cv = &nd->fam.curves[c];

		if (cv->store_pct != (uint32_t)mix || !mess_curve_usable(cv))
			continue;
		top[0] = -1;
		for (size_t p = 0; p < cv->n; p++) {
			const struct mess_point *pt = &cv->pts[p];

			if (!mess_point_usable(pt))
				continue;
			fprintf(fp, tag < 0 ? "%.4f %.3f\n" : "%.4f %.3f %d\n",
				pt->bw_gbs, pt->lat_ns, tag);
			if (pt->bw_gbs > top[0]) {
				top[0] = pt->bw_gbs;
				top[1] = pt->lat_ns;
			}
		}
		fputc('\n', fp);
		return 1;
	}
	return 0;
}

/* No blank or quote in a gnuplot data string. */
static void plot_name(char *dst, size_t len, const char *src)
{
	snprintf(dst, len, "%s", src);
	for (char *s = dst; *s; s++)
		if (*s == ' ' || *s == '"' || *s == '\t')
			*s = '_';
}

static int metric_index(const struct fleet *f, enum fleet_kind kind, int mix)
{
	for (size_t j = 0; j < f->m; j++)
		if (f->metric[j].kind == kind && (kind != M_MAXBW || f->metric[j].mix == mix))
			return (int)j;
	return -1;
}

enum { F_CURVES, F_OUTL, F_LABELS, F_MEDIAN, F_BARS, NFILES };

static const char *const names[NFILES] = {
	"fleet-curves.dat", "fleet-outliers.dat", "fleet-outlier-labels.dat",
	"fleet-median.dat", "fleet-bars.dat",
};

struct counts {
	int normal, outliers, median, bars;
};

/* Group g1's median curve of the plotted mix (median.c writes every
 * group's median family; this is the same computation for one curve). */
static int median(const struct fleet *f, FILE *fp)
{
	const struct mess_model **m = calloc(f->n ? f->n : 1, sizeof(*m));
	double *r = calloc(f->n ? f->n : 1, sizeof(*r));
	double bw[FLEET_MEDIAN_STEPS], lat[FLEET_MEDIAN_STEPS];
	size_t k = 0;
	int rc = -ENOMEM;

	if (m && r) {
		for (size_t i = 0; i < f->n; i++) {
			const struct fleet_node *nd = &f->node[i];

			if (nd->group == 0 && nd->part[PART_CURVES].st == ST_OK && nd->model &&
			    isfinite(nd->read_pct[f->plot_mix / 2])) {
				m[k] = nd->model;
				r[k++] = nd->read_pct[f->plot_mix / 2];
			}
		}
		rc = mess_fleet_median_curve(m, r, k, FLEET_MEDIAN_STEPS, bw, lat, NULL);
		for (int s = 0; rc > 0 && s < FLEET_MEDIAN_STEPS; s++)
			if (isfinite(lat[s]))
				fprintf(fp, "%.4f %.3f\n", bw[s], lat[s]);
	}
	free(m);
	free(r);
	return rc;
}

static int write_data(const struct fleet *f, const char *dir, struct counts *n)
{
	FILE *fp[NFILES] = { 0 };
	int ju = metric_index(f, M_UNLOADED, 0), jb = metric_index(f, M_MAXBW, f->plot_mix);
	size_t nbars = 0;
	int rc = 0;

	for (size_t i = 0; i < f->n; i++)
		nbars += f->node[i].part[PART_CURVES].st == ST_OK;
	for (int k = 0; k < NFILES; k++)
		if (!(fp[k] = mess_file_open(dir, names[k], "w")))
			rc = -errno;
	for (size_t i = 0; !rc && i < f->n; i++) {
		const struct fleet_node *nd = &f->node[i];
		int out = fleet_is_outlier(f, i), fu = 0, fb = 0;
		char name[FLEET_NAME];
		double top[2];

		if (nd->part[PART_CURVES].st != ST_OK)
			continue;
		plot_name(name, sizeof(name), nd->name);
		if (out && curve(fp[F_OUTL], nd, f->plot_mix, n->outliers, top))
			fprintf(fp[F_LABELS], "%.4f %.3f \"%s\"\n", top[0], top[1], name);
		else if (!out)
			n->normal += curve(fp[F_CURVES], nd, f->plot_mix, -1, top);
		n->outliers += out;
		if (ju >= 0 && out)
			fu = fleet_flagged(f, i, (size_t)ju) ? 2 : 1;
		if (jb >= 0 && out)
			fb = fleet_flagged(f, i, (size_t)jb) ? 2 : 1;
		/* Past 64 bars the names would overlap: none then. */
		fprintf(fp[F_BARS], "%d \"%s\" %.3f %.4f %d %d\n", n->bars++,
			nbars <= 64 ? name : "",
			ju >= 0 ? f->raw[i * f->m + ju] : NAN,
			jb >= 0 ? f->raw[i * f->m + jb] : NAN, fu, fb);
	}
	if (!rc) {
		rc = median(f, fp[F_MEDIAN]);
		n->median = rc > 0 ? FLEET_MEDIAN_STEPS : 0;
		rc = rc < 0 ? rc : 0;
	}
	for (int k = 0; k < NFILES; k++)
		if (fp[k] && fclose(fp[k]) && !rc)
			rc = -errno;
	return rc;
}

static void num(char *buf, size_t len, double v)
{
	snprintf(buf, len, isfinite(v) ? "%.4f" : "NaN", v);
}

int fleet_plot(const struct fleet *f, const char *outdir, char *err, size_t errlen)
{
	static const char *const out[] = { "fleet-curves.png", "fleet-curves.svg",
					   "fleet-bars.png", "fleet-bars.svg" };
	char dir[PATH_MAX - 64], q[2][2 * PATH_MAX], path[PATH_MAX + 64];
	char expr[5 * PATH_MAX], mu[32] = "NaN", mb[32] = "NaN";
	int ju = metric_index(f, M_UNLOADED, 0), jb = metric_index(f, M_MAXBW, f->plot_mix);
	struct counts n = { 0 };
	char verdicts[160];
	const char *sep = "";
	int rc, o;

	if ((size_t)snprintf(dir, sizeof(dir), "%s/plots", outdir) >= sizeof(dir))
		return mess_fail(err, errlen, -ENAMETOOLONG, "output directory path too long");
	if (f->plot_mix < 0)
		return mess_fail(err, errlen, -ENODATA, "no compared curve to plot");
	rc = mess_subdir(dir);
	if (!rc)
		rc = write_data(f, dir, &n);
	if (rc)
		return mess_fail(err, errlen, rc, "cannot write %s: %s", dir, strerror(-rc));
	if (ju >= 0)
		num(mu, sizeof(mu), f->med[ju]);	/* group g1's row */
	if (jb >= 0)
		num(mb, sizeof(mb), f->med[jb]);
	mess_gp_quote(q[0], sizeof(q[0]), dir);
	snprintf(path, sizeof(path), "%s/fleet", dir);
	mess_gp_quote(q[1], sizeof(q[1]), path);
	/* The titles say what to believe, as every figure's: a fleet has
	 * no verdict of its own, its nodes' runs have theirs. */
	o = snprintf(verdicts, sizeof(verdicts), "no verdict (nodes:");
	for (int v = 0; v < FV_N; v++)
		if (f->nverdict[v])
			o += snprintf(verdicts + o, sizeof(verdicts) - o, "%s %zu %s",
				      sep, f->nverdict[v], fleet_verdict_name[v]), sep = ",";
	snprintf(verdicts + o, sizeof(verdicts) - o, ")");
	snprintf(expr, sizeof(expr),
		 "dir='%s'; outbase='%s'; mix=%d; nnormal=%d; noutliers=%d; nmedian=%d; nbars=%d; med_unl=%s; med_bw=%s; verdicts='%s'",
		 q[0], q[1], f->plot_mix, n.normal, n.outliers, n.median, n.bars, mu, mb, verdicts);
	for (size_t i = 0; i < sizeof(out) / sizeof(out[0]); i++) {
		/* Stale images must not pass for new ones if gnuplot fails. */
		snprintf(path, sizeof(path), "%s/%s", dir, out[i]);
		unlink(path);
	}
	snprintf(path, sizeof(path), "%s/gnuplot.log", dir);
	rc = mess_gnuplot("fleet.gp", expr, path, err, errlen);
	for (size_t i = 0; !rc && i < sizeof(out) / sizeof(out[0]); i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, out[i]);
		if (access(path, R_OK)) {
			snprintf(err, errlen, "gnuplot wrote no %s, see %s/gnuplot.log", path, dir);
			rc = -EIO;
		}
	}
	return rc;
}
