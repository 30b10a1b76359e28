// SPDX-License-Identifier: MIT
#include "mess/autotune.h"

#include <math.h>
#include <stdlib.h>

struct pt_ref {
	uint64_t nop;
	double bw, lat;
};

static int cmp_pressure(const void *a, const void *b)
{
	const struct pt_ref *x = a, *y = b;

	return (x->nop < y->nop) - (x->nop > y->nop);
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
					c->pts[i].lat_ns };
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
			/* Bandwidth falls roughly as 1/nop: bisect in log. */
			want = lo ? (uint64_t)llround(sqrt((double)lo * hi))
				  : hi / 2;
			if (want <= lo)
				want = lo + 1;
			if (want >= hi)
				want = hi - 1;
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

