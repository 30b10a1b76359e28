// SPDX-License-Identifier: MIT
/* The figures of a sampling study (include/mess/sampling.h). */
#include "mess/sampling.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>

#include "mess/stats.h"

double mess_sampling_accuracy(double counted, uint64_t samples, double period)
{
	if (!(counted > 0) || !isfinite(counted))
		return NAN;
	return 1.0 - fabs((counted - (double)samples * period) / counted);
}

int mess_sampling_overhead(const double *base, const double *with, size_t n,
			   double *median, double *spread)
{
	double *r;

	if (!n)
		return -EINVAL;
	r = malloc(n * sizeof(*r));
	if (!r)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++) {
		if (!(base[i] > 0) || !(with[i] > 0) || !isfinite(base[i]) || !isfinite(with[i])) {
			free(r);
			return -EINVAL;
		}
		r[i] = with[i] / base[i] - 1.0;
	}
	*median = mess_median(r, n);
	*spread = r[n - 1] - r[0];
	free(r);
	return 0;
}

void mess_sampling_recommend(const struct mess_sampling_point *p, size_t n,
			     double min_accuracy, double budget,
			     uint64_t at_aux, uint64_t at_period,
			     int64_t *period, int64_t *aux_pages)
{
	double best = -INFINITY;

	*period = *aux_pages = -1;
	for (size_t i = 0; i < n; i++) {
		if (at_aux && p[i].aux_pages != at_aux)
			continue;
		if (p[i].accuracy >= min_accuracy && p[i].overhead <= budget &&
		    (int64_t)p[i].period > *period)
			*period = (int64_t)p[i].period;
	}
	for (size_t i = 0; i < n; i++)
		if ((!at_period || p[i].period == at_period) && p[i].accuracy > best)
			best = p[i].accuracy;
	if (!isfinite(best))
		return;
	for (size_t i = 0; i < n; i++)
		if ((!at_period || p[i].period == at_period) && p[i].accuracy >= best - 0.01 &&
		    (*aux_pages < 0 || (int64_t)p[i].aux_pages < *aux_pages))
			*aux_pages = (int64_t)p[i].aux_pages;
}
