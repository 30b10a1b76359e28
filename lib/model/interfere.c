// SPDX-License-Identifier: MIT
/*
 * mess interfere's arithmetic: a row from its windows, and the knee
 * (mess/interfere.h).
 */
#include "mess/interfere.h"

#include <math.h>

#include "mess/stats.h"

/* The median of the finite of v[0 .. n), through the stride s of a
 * struct's field; the spread into *spread when not NULL. */
static double med_of(const double *v, unsigned n, unsigned s, double *spread)
{
	double x[n ? n : 1], m = NAN;
	unsigned k = 0;

	for (unsigned i = 0; i < n; i++)
		if (isfinite(v[i * s]))
			x[k++] = v[i * s];
	if (spread)
		*spread = k ? mess_mad_sd(x, k, &m) : NAN;
	else if (k)
		m = mess_median(x, k);
	return k ? m : NAN;
}

void mess_ifr_summarise(const struct mess_ifr_win *w, unsigned n,
			struct mess_ifr_fig *f)
{
	unsigned s = sizeof(*w) / sizeof(double);

	f->windows = n;
	f->p50 = med_of(&w->p50, n, s, NULL);
	f->p90 = med_of(&w->p90, n, s, NULL);
	f->p99 = med_of(&w->p99, n, s, &f->p99_spread);
	f->p999 = med_of(&w->p999, n, s, NULL);
	f->mean = med_of(&w->mean, n, s, NULL);
}

int mess_ifr_win_possible(struct mess_ifr_win *w, double floor_ns)
{
	const double *q[] = { &w->p50, &w->p90, &w->p99, &w->p999, &w->mean };

	if (!(floor_ns > 0))
		return 1;
	for (size_t i = 0; i < sizeof(q) / sizeof(q[0]); i++)
		if (*q[i] < floor_ns) {
			*w = (struct mess_ifr_win){ NAN, NAN, NAN, NAN, NAN };
			return 0;
		}
	return 1;
}

int mess_ifr_knee(const int *aggressors, const double *p99, int n,
		  double factor)
{
	double base = NAN;
	int knee = MESS_IFR_KNEE_NOT_REACHED;

	for (int i = 0; i < n; i++)
		if (aggressors[i] == 0 && isfinite(p99[i]) && p99[i] > 0)
			base = p99[i];
	if (!isfinite(base))
		return MESS_IFR_KNEE_NO_BASE;
	for (int i = 0; i < n; i++)
		if (aggressors[i] > 0 && isfinite(p99[i]) &&
		    p99[i] >= factor * base &&
		    (knee < 0 || aggressors[i] < knee))
			knee = aggressors[i];
	return knee;
}
