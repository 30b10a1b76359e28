// SPDX-License-Identifier: MIT
#include "mess/stats.h"

#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

double mess_median(double *v, size_t n)
{
	qsort(v, n, sizeof(*v), cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

double mess_quantile(const double *v, size_t n, double q)
{
	double *c, x;
	size_t i = (size_t)ceil(q * (double)n);

	if (!n || !(c = malloc(n * sizeof(*c))))
		return NAN;
	memcpy(c, v, n * sizeof(*c));
	qsort(c, n, sizeof(*c), cmp_double);
	x = c[i ? (i > n ? n : i) - 1 : 0];
	free(c);
	return x;
}

double mess_median_finite(const double *v, size_t n, size_t *used)
{
	double *f = n ? malloc(n * sizeof(*f)) : NULL, m = NAN;
	size_t k = 0;

	for (size_t i = 0; f && i < n; i++)
		if (isfinite(v[i]))
			f[k++] = v[i];
	if (k)
		m = mess_median(f, k);
	free(f);
	if (used)
		*used = k;
	return m;
}

double mess_mad_sd(const double *v, unsigned n, double *median)
{
	double s[256], med;

	if (n > 256)
		n = 256;
	memcpy(s, v, n * sizeof(*v));
	med = mess_median(s, n);
	for (unsigned i = 0; i < n; i++)
		s[i] = fabs(v[i] - med);
	if (median)
		*median = med;
	return MESS_MAD_TO_SD * mess_median(s, n);
}

double mess_stddev(const double *v, unsigned n)
{
	double m = 0, s = 0;

	if (n < 2)
		return 0;
	for (unsigned i = 0; i < n; i++)
		m += v[i];
	m /= n;
	for (unsigned i = 0; i < n; i++)
		s += (v[i] - m) * (v[i] - m);
	return sqrt(s / (n - 1));
}

double mess_jain(const double *x, unsigned n)
{
	double s = 0, s2 = 0;

	for (unsigned i = 0; i < n; i++) {
		s += x[i];
		s2 += x[i] * x[i];
	}
	return n && s2 > 0 ? s * s / (n * s2) : NAN;
}

/*
 * How wide the latencies of the repeats (sorted) are around their median:
 * max - min for up to five, and from the second lowest to the second
 * highest from six on (about a 95 % interval of the median at n = 9),
 * so one wild window among many does not widen it.
 */
int mess_spread_bad(const double *sorted, unsigned n, double median,
		    double max_rel)
{
	double w = n >= 6 ? sorted[n - 2] - sorted[1] : sorted[n - 1] - sorted[0];

	return n >= 2 && w > max_rel * median;
}

int mess_samples_push(double **v, size_t *n, size_t *cap, double x)
{
	double *nv = mess_grow(*v, *n, cap, sizeof(*nv), 256);

	if (!nv)
		return -ENOMEM;
	*v = nv;
	(*v)[(*n)++] = x;
	return 0;
}

void *mess_grow(void *v, size_t n, size_t *cap, size_t size, size_t first)
{
	size_t c = *cap ? 2 * *cap : first;

	if (n < *cap)
		return v;
	if (c > SIZE_MAX / size)
		return NULL;
	v = realloc(v, c * size);
	if (v)
		*cap = c;
	return v;
}
