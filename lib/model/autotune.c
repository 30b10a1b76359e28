// SPDX-License-Identifier: MIT
#include "mess/autotune.h"

#include <math.h>
#include <stdlib.h>

/* The knee rule's two constants, tuned on the replayed public sets
 * (tools/sweep-bench.sh, 10 points, three seeds; the figures: the 95th
 * percentile of latency error, the worst seed's, averaged over the six
 * sets).  A chord's length counts a tenth as much as a sag: 0 left long
 * straight runs bare (3.3 % against 3.2 % at 1 % noise), 0.3 drew points
 * off the knee (2.0 % against 1.8 % without noise).  A sag within two
 * standard errors of its point is taken for noise: 0 let noisy turns
 * draw the points (7.3 % against 5.4 % at 3 % noise). */
#define KNEE_LEN_WEIGHT 0.1
#define KNEE_NOISE 2.0

struct pt_ref {
	uint64_t nop;
	double bw, lat;
	double sbw, slat;	/* the knee rule's: the median's uncertainty */
};

static int cmp_pressure(const void *a, const void *b)
{
	const struct pt_ref *x = a, *y = b;

	return (x->nop < y->nop) - (x->nop > y->nop);
}

/* Bandwidth falls roughly as 1/nop: the middle of (lo, hi) in log nop,
 * strictly between them (the caller checks hi - lo >= 2). */
static uint64_t log_mid(uint64_t lo, uint64_t hi)
{
	uint64_t want = lo ? (uint64_t)llround(sqrt((double)lo * hi)) : hi / 2;

	if (want <= lo)
		want = lo + 1;
	if (want >= hi)
		want = hi - 1;
	return want;
}

/*
 * Next nop count to measure: bisect the adjacent pair (in pressure order)
 * furthest apart in bandwidth or latency.  Latency is normalised by at
 * least the unloaded latency, so noise on a flat curve does not attract
 * points while the steep part near saturation does.  Returns 0 when the
 * curve is dense enough.
 */
int mess_autotune_next(const struct mess_curve *c, double unloaded_ns,
		       unsigned points, uint64_t *nop)
{
	struct pt_ref *v;
	double bwmin = INFINITY, bwmax = 0, latmin = INFINITY, latmax = 0;
	double best = -1;
	size_t n = c->n;
	uint64_t want = 0;

	if (n < 2)
		return 0;
	v = malloc(n * sizeof(*v));
	if (!v)
		return 0;
	for (size_t i = 0; i < n; i++) {
		v[i] = (struct pt_ref){ c->pts[i].nop, c->pts[i].bw_gbs,
					c->pts[i].lat_ns, 0, 0 };
		bwmin = fmin(bwmin, v[i].bw);
		bwmax = fmax(bwmax, v[i].bw);
		latmin = fmin(latmin, v[i].lat);
		latmax = fmax(latmax, v[i].lat);
	}
	qsort(v, n, sizeof(*v), cmp_pressure);
	double bwspan = fmax(bwmax - bwmin, 0.05 * bwmax + 1e-9);
	double latspan = fmax(latmax - latmin, unloaded_ns);

	for (size_t i = 1; i < n; i++) {
		uint64_t hi = v[i - 1].nop, lo = v[i].nop;
		double g;

		if (hi - lo < 2)
			continue;
		g = fmax(fabs(v[i].bw - v[i - 1].bw) / bwspan,
			 fabs(v[i].lat - v[i - 1].lat) / latspan);
		if (g > best) {
			best = g;
			want = log_mid(lo, hi);
		}
	}
	free(v);
	if (best < 0)
		return 0;
	if (n >= points && best < 1.5 / (double)points)
		return 0;
	/* The cap: 3 past the minimum (15 at the default 12).  Tuned on
	 * the replayed public sets (tools/sweep-bench.sh): beyond it the
	 * points land on the saturated top, where they add noisy maxima,
	 * not accuracy (median latency error unchanged from a cap of 28). */
	if (n >= points + 3)
		return 0;
	*nop = want;
	return 1;
}

/* The points as the knee rule sees them: by pressure, bandwidth over the
 * curve's maximum and latency over its span (at least the unloaded
 * latency, as above), so both axes weigh alike.  NULL: no memory. */
static struct pt_ref *normalised(const struct mess_curve *c, double unloaded_ns)
{
	struct pt_ref *v = malloc(c->n * sizeof(*v));
	double bwmax = 1e-9, latmin = INFINITY, latmax = 0;

	if (!v)
		return NULL;
	for (size_t i = 0; i < c->n; i++) {
		const struct mess_point *p = &c->pts[i];
		/* a median of r windows: about the spread over sqrt(r) */
		double k = p->repeats > 1 ? 1 / sqrt((double)p->repeats) : 1;

		v[i] = (struct pt_ref){ p->nop, p->bw_gbs, p->lat_ns,
			isfinite(p->bw_gbs_std) ? k * p->bw_gbs_std : 0,
			isfinite(p->lat_ns_std) ? k * p->lat_ns_std : 0 };
		bwmax = fmax(bwmax, v[i].bw);
		latmin = fmin(latmin, v[i].lat);
		latmax = fmax(latmax, v[i].lat);
	}
	qsort(v, c->n, sizeof(*v), cmp_pressure);
	double latspan = fmax(latmax - latmin, unloaded_ns);

	for (size_t i = 0; i < c->n; i++) {
		v[i].bw /= bwmax;
		v[i].sbw /= bwmax;
		v[i].lat = (v[i].lat - latmin) / latspan;
		v[i].slat /= latspan;
	}
	return v;
}

/* How far point i lies off the chord of its neighbours, less what its
 * own noise explains (a bend the repeats cannot tell from noise draws no
 * point); 0 at the ends.  *span: that chord's length. */
static double sag(const struct pt_ref *v, size_t n, size_t i, double *span)
{
	*span = 0;
	if (i == 0 || i + 1 >= n)
		return 0;
	double cx = v[i + 1].bw - v[i - 1].bw, cy = v[i + 1].lat - v[i - 1].lat;
	double px = v[i].bw - v[i - 1].bw, py = v[i].lat - v[i - 1].lat;

	*span = hypot(cx, cy);
	if (*span <= 0)
		return 0;
	double h = fabs(cx * py - cy * px) / *span;

	return fmax(0, h - KNEE_NOISE * hypot(v[i].sbw, v[i].slat));
}

int mess_autotune_knee(const struct mess_curve *c, double unloaded_ns,
		       unsigned points, uint64_t *nop)
{
	struct pt_ref *v;
	double best = -1;
	size_t n = c->n;
	uint64_t want = 0;

	if (n < 2 || n >= points)
		return 0;
	v = normalised(c, unloaded_ns);
	if (!v)
		return 0;
	for (size_t i = 1; i < n; i++) {
		uint64_t hi = v[i - 1].nop, lo = v[i].nop;
		double len = hypot(v[i].bw - v[i - 1].bw, v[i].lat - v[i - 1].lat);
		double la, lb, ha = sag(v, n, i - 1, &la), hb = sag(v, n, i, &lb);
		double dev = 0, e;

		if (hi - lo < 2)
			continue;
		/* A parabola that sags h below a chord of length L sags
		 * h (l / L)^2 below a chord of length l on it: the sag this
		 * chord would lose if halved, from the bends at its ends. */
		if (la > 0)
			dev = fmax(dev, ha * (len / la) * (len / la));
		if (lb > 0)
			dev = fmax(dev, hb * (len / lb) * (len / lb));
		/* The chord's own length, a little, so that a long straight
		 * run still gets a point. */
		e = dev + KNEE_LEN_WEIGHT * len;
		if (e > best) {
			best = e;
			want = log_mid(lo, hi);
		}
	}
	free(v);
	if (best < 0)
		return 0;
	*nop = want;
	return 1;
}

