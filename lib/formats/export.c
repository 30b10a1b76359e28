// SPDX-License-Identifier: MIT
/*
 * Exports for the Mess simulator, PROFET and people (include/mess/export.h
 * has the formats and the rules; formats.c names each writer in the one
 * table of formats, beside its reader).
 */
#include "mess/export.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "mess/json.h"
#include "mess/parse.h"

/* A share this close to a measured curve's is that curve; further, the
 * model's interpolation at the share, as libmess answers it.  At 1 % (the
 * simulator's grid is 2 % wide) a file could be a curve 0.6 % of share
 * away while libmess interpolated at the share: 4.6 % apart on imported
 * trees (issue 48). */
#define SAME_SHARE 0.1

/* ---- the 51 shares ---- */

static size_t total_points(const struct mess_model *m)
{
	size_t sum = 0, n;

	for (size_t i = 0; i < mess_model_ncurves(m); i++) {
		mess_model_curve(m, i, NULL, &n, NULL, NULL, NULL);
		sum += n;
	}
	return sum;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static int share_points(const struct mess_model *m, int r, double *bw,
			double *lat, size_t cap, size_t *n, int *src,
			double *from_lo, double *from_hi)
{
	size_t nc = mess_model_ncurves(m), best = nc, lo = nc, hi = nc, k = 0;
	const double *cb, *cl;
	double rc, mx, bestd = INFINITY, prev_u = 0;
	size_t cn;

	if (r < 0 || r > 100)
		return -EINVAL;
	for (size_t i = 0; i < nc; i++) {
		mess_model_curve(m, i, &rc, NULL, NULL, NULL, NULL);
		if (fabs(rc - r) <= SAME_SHARE && fabs(rc - r) < bestd) {
			best = i;
			bestd = fabs(rc - r);
		}
		if (rc < r)
			lo = i;
		else if (hi == nc)
			hi = i;
	}
	/* Measured, or outside the family: one curve as it is. */
	if (best == nc && (lo == nc || hi == nc))
		best = lo == nc ? hi : lo;
	if (best < nc) {
		mess_model_curve(m, best, &rc, &cn, &cb, &cl, NULL);
		if (cn > cap)
			return -ENOSPC;
		memcpy(bw, cb, cn * sizeof(*bw));
		memcpy(lat, cl, cn * sizeof(*lat));
		*n = cn;
		*src = bestd <= SAME_SHARE ? MESS_SRC_MEASURED : MESS_SRC_EXTRAP_READ;
		*from_lo = *from_hi = rc;
		return 0;
	}
	/* Between two measured shares: both curves' points, as fractions of
	 * their own maximum, placed on the interpolated maximum. */
	for (int side = 0; side < 2; side++) {
		mess_model_curve(m, side ? hi : lo, side ? from_hi : from_lo,
				 &cn, &cb, NULL, NULL);
		if (k + cn > cap)
			return -ENOSPC;
		for (size_t i = 0; i < cn; i++)
			bw[k++] = cb[i] / cb[cn - 1];
	}
	qsort(bw, k, sizeof(*bw), cmp_double);
	*src = mess_model_max_bw(m, r, &mx);
	*n = 0;
	for (size_t i = 0; i < k; i++) {
		double u = bw[i];

		/* Both curves share a fraction; in place, *n <= i, so no
		 * fraction still to be read is overwritten. */
		if (*n && u - prev_u < 1e-9)
			continue;
		prev_u = u;
		bw[*n] = u * mx;
		/* Every u is within 0..1: a bandwidth flag is only the flat
		 * rule below the other curve's lowest fraction (as from_zero
		 * at 0 GB/s), which must not call a share between two
		 * measured ones extrapolated (issue 35: whether it did
		 * hung on where each curve's lowest point happened to be). */
		*src |= mess_model_latency(m, r, bw[*n], &lat[*n]) &
			~MESS_SRC_EXTRAP_BW;
		(*n)++;
	}
	return 0;
}

/* A curve that starts above bandwidth 0 gets its first latency at 0, the
 * model's flat rule (model.h): a loader that extrapolates below a file's
 * lowest point (the Mess simulator does) must not leave the curve. */
static int from_zero(double *bw, double *lat, size_t cap, size_t *n)
{
	if (!*n || bw[0] <= 0)
		return 0;
	if (*n + 1 > cap)
		return -ENOSPC;
	memmove(bw + 1, bw, *n * sizeof(*bw));
	memmove(lat + 1, lat, *n * sizeof(*lat));
	bw[0] = 0;
	lat[0] = lat[1];
	(*n)++;
	return 0;
}

int mess_export_share(const struct mess_model *m, int r, double *bw,
		      double *lat, size_t cap, size_t *n, int *src,
		      double *from_lo, double *from_hi)
{
	int ret = share_points(m, r, bw, lat, cap, n, src, from_lo, from_hi);

	return ret ? ret : from_zero(bw, lat, cap, n);
}

/*
 * Mess's processing puts each share's least-loaded point at 0 GB/s with
 * the share's least latency (Mess-Results' processed curves: 1.62 GB/s
 * and 114.88 ns measured become 0 GB/s and 114.88 ns).  The model starts
 * every curve instead at the family's one unloaded latency (the chase
 * alone), or at its first point's: that point is dropped, unless the
 * source curve has it itself (a Mess-Results set's own 0 GB/s row).  A
 * share from one measured curve takes the least latency of all its points,
 * those the model leaves out (bandwidth not rising) too.
 */
static void unloaded_row(const struct mess_family *f, int src, double from,
			 double *bw, double *lat, size_t *n)
{
	double least = INFINITY;
	int own = 0;

	for (size_t i = 0; f && !(src & MESS_SRC_INTERP_READ) && i < f->n; i++) {
		const struct mess_curve *c = &f->curves[i];

		if (fabs(c->read_pct - from) > 1e-9)
			continue;
		for (size_t k = 0; k < c->n; k++) {
			if (!mess_point_usable(&c->pts[k]))
				continue;
			least = fmin(least, c->pts[k].lat_ns);
			own |= c->pts[k].bw_gbs <= 0;
		}
	}
	if (!own && *n >= 2 && bw[0] <= 0) {
		memmove(bw, bw + 1, (*n - 1) * sizeof(*bw));
		memmove(lat, lat + 1, (*n - 1) * sizeof(*lat));
		(*n)--;
	}
	if (!isfinite(least))
		for (size_t i = 0; i < *n; i++)
			least = fmin(least, lat[i]);
	bw[0] = 0;
	lat[0] = least;
}

static void describe_from(char *s, size_t len, int src, double lo, double hi,
			  const char *below_note)
{
	if (!(src & (MESS_SRC_INTERP_READ | MESS_SRC_EXTRAP_READ)))
		snprintf(s, len, "the curve at %.2f%% reads", lo);
	else if (src & MESS_SRC_EXTRAP_READ)
		snprintf(s, len, "the nearest measured curve (%.2f%% reads), as it is%s%s",
			 lo, below_note ? "; " : "", below_note ? below_note : "");
	else
		snprintf(s, len, "the curves at %.2f%% and %.2f%% reads, mixed at equal fractions of their maximum bandwidth",
			 lo, hi);
}

/* The scratch arrays hold every point of the family: the most any share
 * can have. */
int mess_export_each_share(const struct mess_export_in *in, const char *dir,
			   const char *file_fmt, mess_export_row_fn row,
			   void *ctx, char *err, size_t errlen)
{
	size_t cap = total_points(in->m) + 1, n;
	double *bw = malloc(2 * (cap ? cap : 1) * sizeof(double)), *lat, lo, hi;
	double rmin;
	struct mess_export_file o;
	int ret, src;

	if (!bw)
		return mess_fail(err, errlen, -ENOMEM, "out of memory");
	lat = bw + cap;
	mess_model_curve(in->m, 0, &rmin, NULL, NULL, NULL, NULL);
	ret = mess_export_file_open(&o, dir, "curve-sources.tsv", err, errlen);
	if (ret) {
		free(bw);
		return ret;
	}
	fprintf(o.fp, "file\tread_pct\tsource\tfrom\n");
	for (int r = 0; r <= 100 && !ret; r += 2) {
		char file[64], from[512];

		if (in->unloaded_row) {
			ret = share_points(in->m, r, bw, lat, cap, &n, &src, &lo, &hi);
			if (!ret && n)
				unloaded_row(in->fam, src, lo, bw, lat, &n);
		} else {
			ret = mess_export_share(in->m, r, bw, lat, cap, &n, &src, &lo, &hi);
		}
		if (ret) {
			ret = mess_fail(err, errlen, ret, "read share %d%%: %s", r,
					strerror(-ret));
			break;
		}
		snprintf(file, sizeof(file), file_fmt, r);
		describe_from(from, sizeof(from), src, lo, hi,
			      r < rmin ? in->below_note : NULL);
		if (in->read_axis)
			snprintf(from + strlen(from), sizeof(from) - strlen(from), "%s",
				 !strncmp(in->read_axis, "the generator", 13) ?
				 "; the share is the generator's read fraction R, not the memory's read share (info.txt READ_AXIS)" :
				 "; the share is the memory's, mapped from the generator's read fraction R (info.txt READ_AXIS)");
		ret = row(ctx, r, bw, lat, n, src, from);
		if (in->tally) {
			if (src & MESS_SRC_EXTRAPOLATED)
				in->tally->extrapolated++;
			else if (src)
				in->tally->interpolated++;
			else
				in->tally->measured++;
		}
		/* A row a line, a field a tab: the note is the caller's text. */
		fprintf(o.fp, "%s\t%d\t%s\t%s\n", file, r, mess_src_name(src),
			mess_one_line(from));
	}
	free(bw);
	return mess_export_file_close(&o, ret, err, errlen);
}

/* ---- mess: bwlat_<R>.txt ---- */

struct mess_ctx {
	const char *dir;
	char *err;
	size_t errlen;
};

static int mess_row(void *ctx, int r, const double *bw, const double *lat,
		    size_t n, int src, const char *from)
{
	struct mess_ctx *c = ctx;
	char name[32];
	struct mess_export_file o;
	int ret;

	snprintf(name, sizeof(name), "bwlat_%d.txt", r);
	ret = mess_export_file_open(&o, c->dir, name, c->err, c->errlen);
	if (ret)
		return ret;
	/* Highest bandwidth first: the simulator walks down from the top. */
	for (size_t i = n; i-- > 0;)
		fprintf(o.fp, "%.3f %.3f\n", bw[i] * 1e3, lat[i]);
	return mess_export_file_close(&o, 0, c->err, c->errlen);
}

/*
 * The marker that keeps PROFET from reading these ns as cycles: its loader,
 * given a directory, reads the one .json file there instead of the bwlat
 * files (which it would take for cycles, 32.4 ns for 90.2 ns), and turns
 * each key into a read percentage with int(): this key fails that, and
 * the ValueError prints it.  Both Mess simulator loaders open bwlat_<R>.txt
 * by name only and never see it.
 */
static int not_profet(const char *dir, char *err, size_t errlen)
{
	struct mess_export_file o;
	int ret = mess_export_file_open(&o, dir, MESS_EXPORT_NOT_PROFET, err, errlen);

	if (ret)
		return ret;
	fprintf(o.fp, "{\"NOT FOR PROFET: these bwlat_<R>.txt files hold latency in ns, PROFET reads CPU cycles; "
		"write PROFET's files with mess export --format profet (see info.txt)\": []}\n");
	return mess_export_file_close(&o, 0, err, errlen);
}

/* What info.txt says to the simulator's users in comments: neither of its
 * loaders reads info.txt, and a note inside a bwlat file would end its
 * curve (both read "MB/s ns" pairs until the first thing that is not). */
#define MESS_SIM_NOTE \
	"# For the Mess simulator: bwlat_<R>.txt hold two numbers a line, MB/s and ns, nothing else (its loaders stop at the first line that is not two numbers; neither reads this file).\n" \
	"# MessMemCtrl reads the ns as they are.  The older BwLatMemCtrl reads cycles at its frequencyCurve: give it frequencyCurve=1.0 (ns are cycles at 1 GHz); with 2.1, as its data README has it, it answers 42.86 ns for 90.18 ns.\n" \
	"# Its onCoreLatency is in the simulated CPU's cycles: LLC_LATENCY_NS x that CPU's GHz.\n" \
	"FREQUENCY_CURVE=1.0 (the older BwLatMemCtrl's frequencyCurve for these ns files; MessMemCtrl takes none)\n"

int mess_export_mess(const struct mess_export_in *in, const char *dir,
		     char *err, size_t errlen)
{
	struct mess_ctx c = { dir, err, errlen };
	int ret = mess_export_each_share(in, dir, "bwlat_%d.txt", mess_row, &c, err,
				 errlen);

	if (!ret)
		ret = not_profet(dir, err, errlen);
	return ret ? ret : mess_export_info_write(in, dir, &(struct mess_export_info){
		.format = "mess", .lat_unit = "ns", .more = MESS_SIM_NOTE,
		.columns = "bwlat_<R>.txt: bandwidth MB/s, latency ns; one point a line, highest bandwidth first" },
		err, errlen);
}

/* ---- profet and json: one document ---- */

struct doc_ctx {
	json_t *curves;		/* "<R>": points, or {source, from, points} */
	double ghz;		/* > 0: latency in cycles (profet) */
	int with_sources;
	char *err;
	size_t errlen;
};

static int doc_row(void *ctx, int r, const double *bw, const double *lat,
		   size_t n, int src, const char *from)
{
	struct doc_ctx *c = ctx;
	json_t *pts = json_array(), *v = pts;
	char key[8];

	if (!pts)
		return mess_fail(c->err, c->errlen, -ENOMEM, "out of memory");
	if (c->with_sources) {
		v = mess_json_pack("{s:s, s:s, s:o}", "source", mess_src_name(src),
				   "from", from, "points", pts);
		if (!v)
			return mess_fail(c->err, c->errlen, -ENOMEM, "out of memory");
	}
	for (size_t i = 0; i < n; i++) {
		double l = c->ghz > 0 ? lat[i] * c->ghz : lat[i];

		/* JSON has no inf: the readers bound what they take, so
		 * this is a set made some other way, said, not written. */
		if (!isfinite(bw[i] * 1e3) || !isfinite(l)) {
			json_decref(v);
			return mess_fail(c->err, c->errlen, -EINVAL,
					 "read share %d%%: point %zu is not finite (%g MB/s, %g); not written",
					 r, i + 1, bw[i] * 1e3, l);
		}
		if (json_array_append_new(pts, json_pack("[ff]", bw[i] * 1e3, l))) {
			json_decref(v);
			return mess_fail(c->err, c->errlen, -ENOMEM, "out of memory");
		}
	}
	snprintf(key, sizeof(key), "%d", r);
	return json_object_set_new(c->curves, key, v) ?
		mess_fail(c->err, c->errlen, -ENOMEM, "out of memory") : 0;
}

static int write_doc(const struct mess_export_in *in, const char *dir,
		     const char *name, json_t *root, json_t *curves, double ghz,
		     char *err, size_t errlen)
{
	/* PROFET reads bare point lists; our own document says more. */
	struct doc_ctx c = { curves, ghz, root != curves, err, errlen };
	struct mess_export_file o;
	int ret;

	ret = mess_export_each_share(in, dir, name, doc_row, &c, err, errlen);
	if (!ret)
		ret = mess_export_file_open(&o, dir, name, err, errlen);
	if (!ret)
		ret = mess_export_file_close(&o, mess_json_dumpf(root, o.fp), err, errlen);
	return ret;
}

int mess_export_profet(const struct mess_export_in *in, const char *dir,
		       char *err, size_t errlen)
{
	json_t *root = json_object();
	int ret;

	if (!root)
		return mess_fail(err, errlen, -ENOMEM, "out of memory");
	ret = write_doc(in, dir, "curves.json", root, root, in->ghz, err, errlen);
	json_decref(root);
	return ret ? ret : mess_export_info_write(in, dir, &(struct mess_export_info){ .format = "profet", .lat_unit =
				      "CPU cycles at CPU_FREQ GHz",
				      .columns = "curves.json \"<R>\": [[bandwidth MB/s, latency CPU cycles at CPU_FREQ GHz], ...]" },
				      err, errlen);
}

int mess_export_json(const struct mess_export_in *in, const char *dir,
		     char *err, size_t errlen)
{
	json_t *curves = json_object();
	json_t *root = mess_json_pack("{s:i, s:s, s:s, s:o, s:O}", "schema", 1,
				      "bandwidth_unit", "MB/s", "latency_unit", "ns",
				      "unloaded_ns", mess_json_real(mess_model_unloaded_ns(in->m), 3),
				      "curves", curves);
	int ret;

	if (root && in->verdict &&
	    mess_json_set(root, "source_verdict", mess_json_pack("{s:s, s:s?, s:s?}",
			  "verdict", in->verdict, "reason", in->verdict_reason,
			  "note", in->verdict_note))) {
		json_decref(root);
		root = NULL;
	}
	if (!root || !curves) {
		json_decref(root);
		json_decref(curves);
		return mess_fail(err, errlen, -ENOMEM, "out of memory");
	}
	ret = write_doc(in, dir, "mess-curves.json", root, curves, 0, err, errlen);
	json_decref(curves);
	json_decref(root);
	return ret ? ret : mess_export_info_write(in, dir, &(struct mess_export_info){ .format = "json", .lat_unit = "ns",
				      .columns = "mess-curves.json curves.\"<R>\".points: [[bandwidth MB/s, latency ns], ...]" },
				      err, errlen);
}

/* ---- csv: the measured points, Mess-Results layout ---- */

static void csv_num(FILE *fp, double v, const char *sep)
{
	if (isfinite(v))
		fprintf(fp, "%.6f%s", v, sep);
	else
		fprintf(fp, "%s", sep);
}

/* Whether any usable point has the figure: a column nothing fills is left
 * out, and info.txt says why. */
static int csv_has(const struct mess_family *f, int what)
{
	for (size_t i = 0; i < f->n; i++)
		for (size_t k = 0; k < f->curves[i].n; k++) {
			const struct mess_point *p = &f->curves[i].pts[k];

			if (mess_point_usable(p) &&
			    (what ? f->curves[i].store_pct != MESS_STORE_PCT_UNKNOWN :
			     isfinite(p->bw_gbs_std)))
				return 1;
		}
	return 0;
}

int mess_export_csv(const struct mess_export_in *in, const char *dir,
		    char *err, size_t errlen)
{
	struct mess_export_file o;
	int has_std = csv_has(in->fam, 0), has_rw = csv_has(in->fam, 1);
	char more[512];
	int ret = mess_export_file_open(&o, dir, "memory_curves.csv", err, errlen);

	if (ret)
		return ret;
	/* The smoothed columns carry the measured values: nothing is
	 * smoothed here (info.txt says so). */
	fprintf(o.fp, "read_pct_rounded,pause,bandwidth_mean,%s"
		      "rd_percentage_actual_mean,latency_mean,latency_std,"
		      "bandwidth_smooth,latency_smooth%s\n",
		has_std ? "bandwidth_std," : "", has_rw ? ",rw_ratio" : "");
	for (size_t i = 0; i < in->fam->n; i++) {
		const struct mess_curve *c = &in->fam->curves[i];

		for (size_t k = 0; k < c->n; k++) {
			const struct mess_point *p = &c->pts[k];
			double rd = isfinite(p->read_pct) ? p->read_pct : c->read_pct;

			if (!mess_point_usable(p) || !isfinite(rd))
				continue;
			fprintf(o.fp, "%.1f,%llu,", round(rd),
				(unsigned long long)p->nop);
			csv_num(o.fp, p->bw_gbs, ",");
			if (has_std)
				csv_num(o.fp, p->bw_gbs_std, ",");
			csv_num(o.fp, rd / 100, ",");
			csv_num(o.fp, p->lat_ns, ",");
			csv_num(o.fp, p->lat_ns_std, ",");
			csv_num(o.fp, p->bw_gbs, ",");
			csv_num(o.fp, p->lat_ns, "");
			if (has_rw && c->store_pct != MESS_STORE_PCT_UNKNOWN)
				fprintf(o.fp, ",%u", 100 - c->store_pct);
			else if (has_rw)
				fprintf(o.fp, ",");
			fprintf(o.fp, "\n");
		}
	}
	ret = mess_export_file_close(&o, 0, err, errlen);
	snprintf(more, sizeof(more), "%s%s%s%s",
		 has_std ? "" : "COLUMN_LEFT_OUT=bandwidth_std (the source set has no bandwidth spread)\n",
		 has_rw ? "RW_RATIO=the generator's issued load share, % (100 - store_pct); empty where the source does not know it\n" :
		 "COLUMN_LEFT_OUT=rw_ratio (the source set does not know the generator's issued load share)\n",
		 has_std ? "BANDWIDTH_STD=the spread of the bandwidth over a point's repeats, GB/s; empty where not recorded\n" : "",
		 "SOURCES=none: the points as measured, no read share filled in (no curve-sources.tsv)\n");
	return ret ? ret : mess_export_info_write(in, dir, &(struct mess_export_info){
		"csv (Mess-Results memory_curves.csv layout; *_smooth = the means, not smoothed)",
		"ns", "GB/s (1e9 B/s, the whole system)", 1, more,
		"read_pct_rounded %, pause generator nops, bandwidth_mean GB/s, bandwidth_std GB/s, rd_percentage_actual_mean fraction 0-1, latency_mean ns, latency_std ns, bandwidth_smooth GB/s, latency_smooth ns, rw_ratio %" },
		err, errlen);
}

int mess_export(const struct mess_format *fmt,
		const struct mess_export_in *in, const char *dir,
		struct mess_export_tally *tally, char *err, size_t errlen)
{
	struct mess_export_in copy;

	/* A row with no writer is a format mess reads only. */
	if (!fmt || !fmt->write || !in || !in->m || !in->fam || !dir || !*dir)
		return mess_fail(err, errlen, -EINVAL, "nothing to export");
	if (fmt->needs_ghz && !(in->ghz > 0))
		return mess_fail(err, errlen, -EINVAL,
				 "%s: latency is written in CPU cycles and no frequency is known: give --ghz",
				 fmt->name);
	if (mkdir(dir, 0777) && errno != EEXIST)
		return mess_fail(err, errlen, -errno, "%s: %s", dir, strerror(errno));
	copy = *in;
	if (tally)
		memset(tally, 0, sizeof(*tally));
	copy.tally = tally;
	return fmt->write(&copy, dir, err, errlen);
}
