// SPDX-License-Identifier: MIT
#include "mess/stats.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

double mess_median(double *v, unsigned n)
{
	qsort(v, n, sizeof(*v), cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
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
