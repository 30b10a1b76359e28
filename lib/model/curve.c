// SPDX-License-Identifier: MIT
/*
 * Growable curve and family containers.
 */
#include <errno.h>
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "mess/curve.h"
#include "mess/stats.h"

int mess_curve_add(struct mess_curve *c, const struct mess_point *p)
{
	struct mess_point *pts = mess_grow(c->pts, c->n, &c->cap,
					   sizeof(*pts), 16);

	if (!pts)
		return -ENOMEM;
	c->pts = pts;
	c->pts[c->n++] = *p;
	return 0;
}

void mess_curve_free(struct mess_curve *c)
{
	if (!c)
		return;
	free(c->pts);
	c->pts = NULL;
	c->n = 0;
	c->cap = 0;
}

void mess_family_free(struct mess_family *f)
{
	size_t i;

	if (!f)
		return;
	for (i = 0; i < f->n; i++)
		mess_curve_free(&f->curves[i]);
	free(f->curves);
	f->curves = NULL;
	f->n = 0;
	f->cap = 0;
}

static int same_read_pct(double a, double b)
{
	return a == b || (isnan(a) && isnan(b));
}

struct mess_curve *mess_family_curve(struct mess_family *f, uint32_t store_pct,
				     double read_pct)
{
	struct mess_curve *c, *curves;
	size_t i;

	for (i = 0; i < f->n; i++) {
		c = &f->curves[i];
		if (c->store_pct != store_pct)
			continue;
		if (store_pct != MESS_STORE_PCT_UNKNOWN ||
		    same_read_pct(c->read_pct, read_pct))
			return c;
	}

	curves = mess_grow(f->curves, f->n, &f->cap, sizeof(*curves), 8);
	if (!curves)
		return NULL;
	f->curves = curves;
	c = &f->curves[f->n++];
	memset(c, 0, sizeof(*c));
	c->store_pct = store_pct;
	c->read_pct = read_pct;
	return c;
}

/*
 * A stable sort (qsort() is not: equal keys must keep the file's order),
 * a bottom-up merge, n log n: a curves.csv with 300k rows in reverse order
 * took 393 s with the insertion sort this replaces.  Where its scratch
 * cannot be had, the insertion sort still gives the same order.
 */
typedef int (*before_fn)(const void *a, const void *b);

static void insertion_sort(char *base, size_t n, size_t size, before_fn before,
			   char *tmp)
{
	for (size_t i = 1; i < n; i++) {
		size_t j = i;

		memcpy(tmp, base + i * size, size);
		for (; j > 0 && before(tmp, base + (j - 1) * size); j--)
			memcpy(base + j * size, base + (j - 1) * size, size);
		memcpy(base + j * size, tmp, size);
	}
}

static void stable_sort(void *base, size_t n, size_t size, before_fn before)
{
	char *a = base, *buf, *src, *dst, *tmp, one[sizeof(struct mess_point) >
					       sizeof(struct mess_curve) ?
					       sizeof(struct mess_point) :
					       sizeof(struct mess_curve)];

	if (n < 2)
		return;
	buf = n <= SIZE_MAX / size ? malloc(n * size) : NULL;
	if (!buf) {
		insertion_sort(a, n, size, before, one);
		return;
	}
	src = a;
	dst = buf;
	for (size_t w = 1; w < n; w *= 2) {
		for (size_t lo = 0; lo < n; lo += 2 * w) {
			size_t mid = lo + w < n ? lo + w : n;
			size_t hi = lo + 2 * w < n ? lo + 2 * w : n;
			size_t i = lo, j = mid, k = lo;

			/* Right before left only when strictly before:
			 * stable. */
			while (i < mid && j < hi) {
				if (before(src + j * size, src + i * size))
					memcpy(dst + k++ * size, src + j++ * size, size);
				else
					memcpy(dst + k++ * size, src + i++ * size, size);
			}
			memcpy(dst + k * size, src + i * size, (mid - i) * size);
			k += mid - i;
			memcpy(dst + k * size, src + j * size, (hi - j) * size);
		}
		tmp = src;
		src = dst;
		dst = tmp;
	}
	if (src != a)
		memcpy(a, src, n * size);
	free(buf);
}

/* Less pressure (more nops between accesses) first. */
static int less_pressure(const void *a, const void *b)
{
	return ((const struct mess_point *)a)->nop >
	       ((const struct mess_point *)b)->nop;
}

void mess_curve_sort_pressure(struct mess_curve *c)
{
	stable_sort(c->pts, c->n, sizeof(*c->pts), less_pressure);
}

/* Strictly before, so that equal keys never move past each other. */
static int curve_read_before(const void *pa, const void *pb)
{
	const struct mess_curve *a = pa, *b = pb;

	if (isnan(a->read_pct) != isnan(b->read_pct))
		return isnan(b->read_pct);
	if (!isnan(a->read_pct) && a->read_pct != b->read_pct)
		return a->read_pct < b->read_pct;
	return a->store_pct < b->store_pct;
}

static int curve_store_before(const void *a, const void *b)
{
	return ((const struct mess_curve *)a)->store_pct <
	       ((const struct mess_curve *)b)->store_pct;
}

static void sort_curves(struct mess_family *f, before_fn before)
{
	stable_sort(f->curves, f->n, sizeof(*f->curves), before);
}

void mess_family_sort_read(struct mess_family *f)
{
	sort_curves(f, curve_read_before);
}

void mess_family_sort_store(struct mess_family *f)
{
	sort_curves(f, curve_store_before);
}

int mess_point_usable(const struct mess_point *p)
{
	return isfinite(p->bw_gbs) && isfinite(p->lat_ns);
}

size_t mess_curve_usable(const struct mess_curve *c)
{
	size_t n = 0;

	for (size_t i = 0; i < c->n; i++)
		n += mess_point_usable(&c->pts[i]);
	return n;
}

/* Median, not mean: one point with a disturbed counter must not shift it. */
int mess_curve_median_read(struct mess_curve *c)
{
	double *v;
	size_t i, n = 0;

	v = malloc((c->n ? c->n : 1) * sizeof(*v));
	if (!v)
		return -ENOMEM;
	for (i = 0; i < c->n; i++)
		if (isfinite(c->pts[i].read_pct))
			v[n++] = c->pts[i].read_pct;
	c->read_pct = n ? mess_median(v, n) : NAN;
	free(v);
	return 0;
}

size_t mess_curve_pressure_index(const struct mess_curve *c, size_t *idx)
{
	size_t i, j, n = 0;

	/* A stable insertion sort: curves hold tens of points when this is
	 * asked (the summaries and the rules), never a file's thousands. */
	for (i = 0; i < c->n; i++) {
		if (!mess_point_usable(&c->pts[i]))
			continue;
		for (j = n; j > 0 && c->pts[idx[j - 1]].nop < c->pts[i].nop; j--)
			idx[j] = idx[j - 1];
		idx[j] = i;
		n++;
	}
	return n;
}

/* The statistics a family can be read at: where each point keeps it. */
static const struct {
	const char *name;
	size_t off;
} lat_stats[] = {
	{ "mean", offsetof(struct mess_point, lat_ns) },
	{ "p50", offsetof(struct mess_point, lat_p50_ns) },
	{ "p90", offsetof(struct mess_point, lat_p90_ns) },
	{ "p99", offsetof(struct mess_point, lat_p99_ns) },
	{ "p99.9", offsetof(struct mess_point, lat_p999_ns) },
};

const char mess_lat_stats[] = "mean, p50, p90, p99, p99.9";

int mess_family_at_stat(struct mess_family *f, const char *name)
{
	size_t k, kept = 0;

	for (k = 0; k < sizeof(lat_stats) / sizeof(lat_stats[0]); k++)
		if (!strcmp(name, lat_stats[k].name))
			break;
	if (k == sizeof(lat_stats) / sizeof(lat_stats[0]))
		return -EINVAL;
	if (!k)
		return 0;
	for (size_t i = 0; i < f->n; i++) {
		struct mess_curve *c = &f->curves[i];
		size_t n = 0;

		for (size_t j = 0; j < c->n; j++) {
			struct mess_point p = c->pts[j];
			double v = *(const double *)((const char *)&p + lat_stats[k].off);

			if (!isfinite(v))
				continue;
			p.lat_ns = v;
			p.lat_ns_std = NAN;
			c->pts[n++] = p;
		}
		c->n = n;
		kept += n;
	}
	return kept ? 0 : -ENODATA;
}
