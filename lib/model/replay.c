// SPDX-License-Identifier: MIT
/*
 * The replay machine (include/mess/replay.h has the rules): per curve of
 * the set, its pauses in increasing order as x = ln(1 + pause) with their
 * bandwidth and latency; a query is a binary search there, and a mix of
 * the two curves that bracket the read share.
 */
#include "mess/replay.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>

struct rcurve {
	double read_pct;
	size_t n;
	double *x, *bw, *lat;	/* one allocation, x increasing */
};

struct mess_replay {
	size_t n;
	struct rcurve *c;	/* increasing read share */
};

struct xp {
	double x, bw, lat;
};

static int cmp_x(const void *a, const void *b)
{
	const struct xp *p = a, *q = b;

	return (p->x > q->x) - (p->x < q->x);
}

static int cmp_read(const void *a, const void *b)
{
	const struct rcurve *p = a, *q = b;

	return (p->read_pct > q->read_pct) - (p->read_pct < q->read_pct);
}

/* One curve of the set: its usable points by pause, equal pauses
 * averaged.  0 (nothing usable: rc->n stays 0) or -ENOMEM. */
static int build_curve(const struct mess_curve *c, struct rcurve *rc)
{
	struct xp *v = malloc((c->n ? c->n : 1) * sizeof(*v));
	size_t m = 0, k = 0;

	if (!v)
		return -ENOMEM;
	for (size_t i = 0; i < c->n; i++)
		if (mess_point_usable(&c->pts[i]))
			v[m++] = (struct xp){ log1p((double)c->pts[i].nop),
					      c->pts[i].bw_gbs, c->pts[i].lat_ns };
	if (!m) {
		free(v);
		return 0;
	}
	qsort(v, m, sizeof(*v), cmp_x);
	rc->x = malloc(3 * m * sizeof(double));
	if (!rc->x) {
		free(v);
		return -ENOMEM;
	}
	rc->bw = rc->x + m;
	rc->lat = rc->bw + m;
	for (size_t i = 0; i < m;) {
		size_t j = i;
		double bw = 0, lat = 0;

		while (j < m && v[j].x == v[i].x) {
			bw += v[j].bw;
			lat += v[j].lat;
			j++;
		}
		rc->x[k] = v[i].x;
		rc->bw[k] = bw / (double)(j - i);
		rc->lat[k] = lat / (double)(j - i);
		k++;
		i = j;
	}
	rc->n = k;
	free(v);
	return 0;
}

void mess_replay_free(struct mess_replay *rp)
{
	if (!rp)
		return;
	for (size_t i = 0; i < rp->n; i++)
		free(rp->c[i].x);
	free(rp->c);
	free(rp);
}

int mess_replay_new(const struct mess_family *f, struct mess_replay **out)
{
	struct mess_replay *rp = calloc(1, sizeof(*rp));
	int err = 0;

	*out = NULL;
	if (!rp)
		return -ENOMEM;
	rp->c = calloc(f->n ? f->n : 1, sizeof(*rp->c));
	if (!rp->c) {
		free(rp);
		return -ENOMEM;
	}
	for (size_t i = 0; i < f->n && !err; i++) {
		struct rcurve rc = { .read_pct = f->curves[i].read_pct };

		if (!isfinite(rc.read_pct))
			continue;
		err = build_curve(&f->curves[i], &rc);
		if (!err && rc.n)
			rp->c[rp->n++] = rc;
	}
	if (!err && !rp->n)
		err = -EINVAL;
	if (err) {
		mess_replay_free(rp);
		return err;
	}
	qsort(rp->c, rp->n, sizeof(*rp->c), cmp_read);
	*out = rp;
	return 0;
}

size_t mess_replay_ncurves(const struct mess_replay *rp)
{
	return rp->n;
}

int mess_replay_curve(const struct mess_replay *rp, size_t i, double *read_pct,
		      size_t *npauses, double *pause_min, double *pause_max)
{
	if (i >= rp->n)
		return -EINVAL;
	if (read_pct)
		*read_pct = rp->c[i].read_pct;
	if (npauses)
		*npauses = rp->c[i].n;
	if (pause_min)
		*pause_min = expm1(rp->c[i].x[0]);
	if (pause_max)
		*pause_max = expm1(rp->c[i].x[rp->c[i].n - 1]);
	return 0;
}

size_t mess_replay_pauses(const struct mess_replay *rp, size_t i, double *v)
{
	if (i >= rp->n)
		return 0;
	for (size_t j = 0; j < rp->c[i].n; j++)
		v[j] = round(expm1(rp->c[i].x[j]));
	return rp->c[i].n;
}

/* One curve at x: linear between neighbours, the end point beyond. */
static void curve_at(const struct rcurve *c, double x, double *bw, double *lat)
{
	size_t lo = 0, hi = c->n - 1;

	if (x <= c->x[0] || c->n == 1) {
		*bw = c->bw[0];
		*lat = c->lat[0];
		return;
	}
	if (x >= c->x[hi]) {
		*bw = c->bw[hi];
		*lat = c->lat[hi];
		return;
	}
	while (hi - lo > 1) {
		size_t mid = (lo + hi) / 2;

		if (c->x[mid] <= x)
			lo = mid;
		else
			hi = mid;
	}
	double w = (x - c->x[lo]) / (c->x[hi] - c->x[lo]);

	*bw = c->bw[lo] + w * (c->bw[hi] - c->bw[lo]);
	*lat = c->lat[lo] + w * (c->lat[hi] - c->lat[lo]);
}

int mess_replay_at(const struct mess_replay *rp, double read_pct, double nop,
		   double *bw_gbs, double *lat_ns)
{
	double x = log1p(nop), b0, l0, b1, l1;
	size_t i = 0;

	if (!isfinite(read_pct) || !isfinite(nop) || nop < 0)
		return -EINVAL;
	while (i < rp->n && rp->c[i].read_pct < read_pct)
		i++;
	if (i == 0 || i == rp->n || rp->c[i].read_pct == read_pct) {
		curve_at(&rp->c[i == rp->n ? i - 1 : i], x, bw_gbs, lat_ns);
		return 0;
	}
	const struct rcurve *a = &rp->c[i - 1], *b = &rp->c[i];
	double w = (read_pct - a->read_pct) / (b->read_pct - a->read_pct);

	curve_at(a, x, &b0, &l0);
	curve_at(b, x, &b1, &l1);
	*bw_gbs = b0 + w * (b1 - b0);
	*lat_ns = l0 + w * (l1 - l0);
	return 0;
}

double mess_replay_noise(struct mess_rng *g, double cv)
{
	if (!(cv > 0))
		return 1.0;
	double s2 = log1p(cv * cv);

	return exp(sqrt(s2) * mess_rng_normal(g) - s2 / 2);
}

int mess_replay_chance(struct mess_rng *g, double rate)
{
	return rate > 0 && mess_rng_unit(g) < rate;
}
