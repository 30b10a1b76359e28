// SPDX-License-Identifier: MIT
/* The maths of a fleet: groups, robust z-scores, the median curve. */
#include "mess/fleet.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "mess/stats.h"

int mess_fleet_robust(const double *v, size_t n, double min_rel,
		      double *median, double *scale)
{
	double *s = malloc((n ? n : 1) * sizeof(*s)), med;
	size_t k = 0;

	*median = *scale = NAN;
	if (!s)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++)
		if (isfinite(v[i]))
			s[k++] = v[i];
	if (k) {
		/* mess_mad_sd stops at 256 values: a fleet has more nodes. */
		med = mess_median(s, (unsigned)k);
		for (size_t i = 0; i < k; i++)
			s[i] = fabs(s[i] - med);
		*median = med;
		*scale = fmax(MESS_MAD_TO_SD * mess_median(s, (unsigned)k),
			      min_rel * fabs(med));
	}
	free(s);
	return (int)k;
}

double mess_fleet_z(double x, double median, double scale)
{
	if (!isfinite(x) || !isfinite(median) || !isfinite(scale) || !(scale > 0))
		return NAN;
	return (x - median) / scale;
}

struct keyed {
	const char *key;
	size_t i;
};

static int cmp_keyed(const void *a, const void *b)
{
	const struct keyed *x = a, *y = b;
	int c = strcmp(x->key, y->key);

	return c ? c : (x->i > y->i) - (x->i < y->i);
}

struct cluster {
	size_t first, size, start;	/* start: its first row in the sort */
};

static int cmp_cluster(const void *a, const void *b)
{
	const struct cluster *x = a, *y = b;

	if (x->size != y->size)
		return x->size < y->size ? 1 : -1;
	return (x->first > y->first) - (x->first < y->first);
}

int mess_fleet_group(const char *const *keys, size_t n, size_t *group,
		     size_t *ngroups)
{
	struct keyed *k = malloc((n ? n : 1) * sizeof(*k));
	struct cluster *c = malloc((n ? n : 1) * sizeof(*c));
	size_t nk = 0, nc = 0;

	*ngroups = 0;
	if (!k || !c) {
		free(k);
		free(c);
		return -ENOMEM;
	}
	for (size_t i = 0; i < n; i++) {
		group[i] = MESS_FLEET_NO_GROUP;
		if (keys[i])
			k[nk++] = (struct keyed){ keys[i], i };
	}
	/* Equal keys sort together, each run in node order. */
	qsort(k, nk, sizeof(*k), cmp_keyed);
	for (size_t r = 0; r < nk; r++)
		if (!r || strcmp(k[r].key, k[r - 1].key))
			c[nc++] = (struct cluster){ k[r].i, 1, r };
		else
			c[nc - 1].size++;
	qsort(c, nc, sizeof(*c), cmp_cluster);
	for (size_t g = 0; g < nc; g++)
		for (size_t r = c[g].start; r < c[g].start + c[g].size; r++)
			group[k[r].i] = g;
	*ngroups = nc;
	free(k);
	free(c);
	return 0;
}

int mess_fleet_zscores(const double *x, size_t n, size_t m,
		       const size_t *group, size_t ngroups, size_t min_nodes,
		       double min_rel, double *z, double *med, double *scale)
{
	double *v = malloc((n ? n : 1) * sizeof(*v));

	if (!v)
		return -ENOMEM;
	for (size_t i = 0; i < n * m; i++)
		z[i] = NAN;
	for (size_t g = 0; g < ngroups; g++)
		for (size_t j = 0; j < m; j++) {
			double md, sc;
			size_t k = 0;
			int cnt;

			for (size_t i = 0; i < n; i++)
				if (group[i] == g)
					v[k++] = x[i * m + j];
			cnt = mess_fleet_robust(v, k, min_rel, &md, &sc);
			if (cnt < 0) {
				free(v);
				return cnt;
			}
			if ((size_t)cnt < min_nodes)
				md = sc = NAN;
			if (med)
				med[g * m + j] = md;
			if (scale)
				scale[g * m + j] = sc;
			for (size_t i = 0; i < n; i++)
				if (group[i] == g)
					z[i * m + j] = mess_fleet_z(x[i * m + j], md, sc);
		}
	free(v);
	return 0;
}

int mess_fleet_median_curve(const struct mess_model *const *m,
			    const double *read_pct, size_t n, size_t steps,
			    double *bw, double *lat, double *spread)
{
	double *maxbw, *l, md, sc;
	size_t used = 0;
	int ret = 0;

	if (!steps)
		return -EINVAL;
	maxbw = malloc((n ? n : 1) * sizeof(*maxbw));
	l = malloc((n ? n : 1) * sizeof(*l));
	if (!maxbw || !l) {
		ret = -ENOMEM;
		goto out;
	}
	for (size_t i = 0; i < n; i++) {
		maxbw[i] = NAN;
		if (m[i] && mess_model_max_bw(m[i], read_pct[i], &maxbw[i]) < 0)
			maxbw[i] = NAN;
		used += isfinite(maxbw[i]) && maxbw[i] > 0;
	}
	ret = mess_fleet_robust(maxbw, n, 0, &md, &sc);
	if (ret < 0)
		goto out;
	for (size_t k = 1; k <= steps; k++) {
		double u = (double)k / (double)steps;

		for (size_t i = 0; i < n; i++)
			if (!(isfinite(maxbw[i]) && maxbw[i] > 0) ||
			    mess_model_latency(m[i], read_pct[i], u * maxbw[i], &l[i]) < 0)
				l[i] = NAN;
		bw[k - 1] = u * md;
		ret = mess_fleet_robust(l, n, 0, &lat[k - 1], &sc);
		if (ret < 0)
			goto out;
		if (spread)
			spread[k - 1] = sc;
	}
	ret = (int)used;
out:
	free(maxbw);
	free(l);
	return ret;
}
