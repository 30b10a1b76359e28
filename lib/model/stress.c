// SPDX-License-Identifier: MIT
/* The memory stress score: the definition and its sources are in
 * mess/stress.h. */
#include "mess/stress.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>

struct bl {
	double bw, lat;
};

/* By bandwidth, then latency: PROFET sorts (bandwidth, latency) pairs. */
static int by_bw(const void *a, const void *b)
{
	const struct bl *x = a, *y = b;

	if (x->bw != y->bw)
		return x->bw < y->bw ? -1 : 1;
	return (x->lat > y->lat) - (x->lat < y->lat);
}

int mess_stress_score(const struct mess_curve *c, double bw_gbs,
		      double cycles_per_ns, double *score)
{
	struct bl *p;
	size_t n = 0, i;
	double l0, lmax, lat, angle;
	int rc = 0;

	if (!isfinite(bw_gbs) || bw_gbs < 0 || !(cycles_per_ns > 0) ||
	    !isfinite(cycles_per_ns))
		return -EINVAL;
	if (bw_gbs == 0) {
		*score = 0;
		return 0;
	}
	p = malloc((c->n ? c->n : 1) * sizeof(*p));
	if (!p)
		return -ENOMEM;
	for (i = 0; i < c->n; i++)
		if (mess_point_usable(&c->pts[i]))
			p[n++] = (struct bl){ c->pts[i].bw_gbs,
					      c->pts[i].lat_ns * cycles_per_ns };
	qsort(p, n, sizeof(*p), by_bw);
	/* The first point above bw_gbs: the segment ends there. */
	for (i = 0; i < n && p[i].bw <= bw_gbs; i++)
		;
	if (i >= n) {
		rc = -EDOM;
		goto out;
	}
	l0 = p[0].lat;
	lmax = l0;
	for (size_t j = 1; j < n; j++)
		lmax = fmax(lmax, p[j].lat);
	if (!(lmax > l0)) {
		rc = -EDOM;
		goto out;
	}
	if (i == 0) {
		lat = p[0].lat;
		angle = 0;
	} else {
		double dbw = p[i].bw - p[i - 1].bw, dlat = p[i].lat - p[i - 1].lat;

		lat = p[i - 1].lat + (bw_gbs - p[i - 1].bw) / dbw * dlat;
		angle = atan2(dlat, dbw) * 180.0 / M_PI;
	}
	*score = MESS_STRESS_LAT_WEIGHT * (lat - l0) / (lmax - l0) +
		 (1 - MESS_STRESS_LAT_WEIGHT) * angle / 90.0;
out:
	free(p);
	return rc;
}
