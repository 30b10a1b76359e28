// SPDX-License-Identifier: MIT
/*
 * A Mess-benchmark v1 tree (bsc-mem/Mess-benchmark, e.g. its A64FX tree):
 * measuring/bw/bw_perf_<R>_<pause>.txt and measuring/lat/lat_perf_<R>_<pause>.txt,
 * no plotter.txt.  See include/mess/messraw.h (mess_raw_v1_read).
 */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mess/messraw.h"
#include "mess/parse.h"
#include "mess/stats.h"

#define V1_MAX_REPS 256

/* A point's repetitions, one figure each. */
struct v1_reps {
	double v[V1_MAX_REPS];
	unsigned n;
};

static double mean(const struct v1_reps *x)
{
	double s = 0;

	for (unsigned i = 0; i < x->n; i++)
		s += x->v[i];
	return s / x->n;
}

static int add(struct v1_reps *x, double v, const struct mess_lines *l,
	       char *err, size_t errlen)
{
	if (x->n == V1_MAX_REPS)
		return mess_file_err(err, errlen, l->path, l->no,
				     "more than %d repetitions in one file",
				     V1_MAX_REPS);
	x->v[x->n++] = v;
	return 0;
}

/*
 * bw_perf_*: blocks of "<n> MEM Read", "<n> MEM Write", "<f> rd_percentage"
 * (0..1), "<s> time seconds", "<GB/s> BW (GB/s)", the last closing a
 * repetition.  Any other line is refused: it is not this format.
 */
static int bw_file(const char *path, struct v1_reps *bw, struct v1_reps *share,
		   char *err, size_t errlen)
{
	static const char *const labels[] = { "MEM Read", "MEM Write",
		"rd_percentage", "time seconds", "BW (GB/s)" };
	struct mess_lines l;
	double got[5];
	unsigned seen = 0;
	int ret = mess_lines_open(&l, path, err, errlen);

	while (!ret && (ret = mess_lines_next(&l, err, errlen)) == 1) {
		char *s = mess_trim(l.line), *sp, q[96];
		size_t k;

		ret = 0;
		if (!*s)
			continue;
		sp = strchr(s, ' ');
		for (k = 0; sp && k < 5; k++)
			if (!strcmp(mess_trim(sp + 1), labels[k]))
				break;
		if (!sp || k == 5) {
			ret = mess_file_err(err, errlen, path, l.no,
					    "expected '<number> MEM Read', 'MEM Write', 'rd_percentage', 'time seconds' or 'BW (GB/s)', got '%s'",
					    mess_quote(q, sizeof(q), s));
			break;
		}
		*sp = '\0';
		ret = mess_field_num(&l, s, labels[k], 0,
				     k == 4 ? MESS_NUM_GBS : MESS_NUM_NONNEG,
				     &got[k], err, errlen);
		if (!ret && k == 2 && got[2] > 1)
			ret = mess_file_err(err, errlen, path, l.no,
					    "rd_percentage %g is not a share 0..1", got[2]);
		seen |= 1u << k;
		if (ret || k != 4)
			continue;
		if (!(seen & 4u))
			ret = mess_file_err(err, errlen, path, l.no,
					    "a repetition without its rd_percentage line");
		if (!ret)
			ret = add(bw, got[4], &l, err, errlen);
		if (!ret)
			ret = add(share, 100 * got[2], &l, err, errlen);
		seen = 0;
	}
	if (ret == 0 && seen)
		ret = mess_file_err(err, errlen, path, l.no,
				    "the last repetition has no 'BW (GB/s)' line");
	if (ret == 0 && !bw->n)
		ret = mess_file_err(err, errlen, path, 0, "no repetition (no 'BW (GB/s)' line)");
	if (l.fp)
		mess_lines_close(&l);
	return ret < 0 ? ret : 0;
}

/*
 * lat_perf_*: the chase's own report, a "mem latency is: <ns>ns" line a
 * repetition (its "(based on time)" twin is the wall time's: left out);
 * perf's and time's lines around it are not read.
 */
static int lat_file(const char *path, struct v1_reps *lat, char *err,
		    size_t errlen)
{
	static const char key[] = "mem latency is:";
	struct mess_lines l;
	int ret = mess_lines_open(&l, path, err, errlen);

	while (!ret && (ret = mess_lines_next(&l, err, errlen)) == 1) {
		char *s = strstr(l.line, key), *v;
		size_t n;
		double ns;

		ret = 0;
		if (!s || strstr(s, "(based on time)"))
			continue;
		v = mess_trim(s + sizeof(key) - 1);
		n = strlen(v);
		if (n > 2 && !strcmp(v + n - 2, "ns"))
			v[n - 2] = '\0';
		ret = mess_field_num(&l, v, "mem latency", 0, MESS_NUM_NS, &ns,
				     err, errlen);
		if (!ret)
			ret = add(lat, ns, &l, err, errlen);
	}
	if (ret == 0 && !lat->n)
		ret = mess_file_err(err, errlen, path, 0, "no 'mem latency is: <ns>ns' line");
	if (l.fp)
		mess_lines_close(&l);
	return ret < 0 ? ret : 0;
}

/* bw_perf_<R>_<pause>.txt: 1 and R, pause; 0 another file; -EINVAL. */
static int name_of(const char *dir, const char *name, unsigned *R,
		   unsigned long long *pause, char *err, size_t errlen)
{
	int end = 0;
	char q[96];

	if (strncmp(name, "bw_perf_", 8))
		return 0;
	if (sscanf(name, "bw_perf_%u_%llu.txt%n", R, pause, &end) != 2 ||
	    name[end] || *R > 100)
		return mess_file_err(err, errlen, dir, 0,
				     "%s: not bw_perf_<R>_<pause>.txt with R 0..100",
				     mess_quote(q, sizeof(q), name));
	return 1;
}

static int one(const char *base, const char *name, unsigned R,
	       unsigned long long pause, struct mess_family *f,
	       struct mess_raw *r, char *err, size_t errlen)
{
	char path[PATH_MAX];
	struct v1_reps bw = { .n = 0 }, share = { .n = 0 }, lat = { .n = 0 };
	struct mess_point p = MESS_POINT_INIT;
	struct mess_curve *c;
	int ret;

	snprintf(path, sizeof(path), "%s/bw/%s", base, name);
	ret = bw_file(path, &bw, &share, err, errlen);
	snprintf(path, sizeof(path), "%s/lat/lat_perf_%u_%llu.txt", base, R, pause);
	if (!ret)
		ret = lat_file(path, &lat, err, errlen);
	if (ret)
		return ret;
	p.store_pct = 100 - R;
	p.nop = pause;
	p.bw_gbs = mean(&bw);
	p.bw_gbs_std = mess_stddev(bw.v, bw.n);
	p.read_pct = mean(&share);
	p.read_bw_gbs = p.bw_gbs * p.read_pct / 100;
	p.write_bw_gbs = p.bw_gbs - p.read_bw_gbs;
	p.lat_ns = mean(&lat);
	p.lat_ns_std = mess_stddev(lat.v, lat.n);
	p.repeats = bw.n;
	c = mess_family_curve(f, 100 - R, R);
	if (!c || mess_curve_add(c, &p))
		return -ENOMEM;
	r->points++;
	r->bw_reps += bw.n;
	r->lat_reps += lat.n;
	return 0;
}

int mess_raw_v1_read(const char *base, struct mess_family *f,
		     struct mess_raw *r, char *err, size_t errlen)
{
	char path[PATH_MAX];
	struct dirent *de;
	DIR *d;
	int ret = 0;

	mess_raw_init(r);
	snprintf(r->family, sizeof(r->family), "mess-v1-bw-lines");
	snprintf(path, sizeof(path), "%s/bw", base);
	d = opendir(path);
	if (!d) {
		mess_file_err(err, errlen, path, 0, "%s", strerror(errno));
		return -ENOENT;
	}
	while (!ret && (de = readdir(d))) {
		unsigned R;
		unsigned long long pause;

		ret = name_of(path, de->d_name, &R, &pause, err, errlen);
		if (ret == 1)
			ret = one(base, de->d_name, R, pause, f, r, err, errlen);
	}
	closedir(d);
	if (!ret && !r->points)
		ret = mess_file_err(err, errlen, path, 0, "no bw_perf_<R>_<pause>.txt file");
	for (size_t i = 0; !ret && i < f->n; i++) {
		ret = mess_curve_median_read(&f->curves[i]);
		mess_curve_sort_pressure(&f->curves[i]);
	}
	mess_family_sort_store(f);
	return ret;
}
