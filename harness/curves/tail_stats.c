// SPDX-License-Identifier: MIT
/*
 * The distribution window's arithmetic, apart from the measuring so that
 * it has known answers (tests/unit/test_tail_stats.c): the window's own
 * fixed cost from the two measured beside it, the preemption cut, and the
 * paired difference of the timed and untimed sub-windows.
 */
#include "curves/tail.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "mess/stats.h"

unsigned mess_tail_cost_check(double before_ns, double after_ns,
			      double median_ns, double *cost_ns)
{
	unsigned why = 0;
	double c = (before_ns + after_ns) / 2;

	*cost_ns = c;
	if (!isfinite(c))
		return MESS_TAIL_DIST_COSTS;
	if (fabs(before_ns - after_ns) > MESS_TAIL_COST_PAIR_NS)
		why |= MESS_TAIL_DIST_COSTS;
	if (isfinite(median_ns) &&
	    fabs(c - median_ns) > fmax(MESS_TAIL_COST_PAIR_NS,
				       MESS_TAIL_COST_MOVE_PCT / 100 * median_ns))
		why |= MESS_TAIL_DIST_MOVED;
	return why;
}

double mess_tail_cut_ticks(const struct mess_hist *h, double tick_ns)
{
	double med = mess_hist_quantile(h, 0.5);
	double floor_ticks = MESS_TAIL_CUT_NS / tick_ns;

	if (!(med > 0))
		return floor_ticks;
	return fmax(floor_ticks, MESS_TAIL_CUT_MEDIANS * med);
}

uint64_t mess_tail_cut(struct mess_hist *kept, const struct mess_hist *h,
		       double cut_ticks, double *cut_sum)
{
	uint64_t pre = 0;
	double est = 0;

	/* A bin is cut when its lower edge is at or past the cut: a bin
	 * that straddles it (at most 1/32 wide) is kept whole. */
	for (unsigned i = 0; i < MESS_HIST_NBINS; i++) {
		if (!h->bins[i])
			continue;
		if (mess_hist_lo(i) >= cut_ticks) {
			pre += h->bins[i];
			est += (double)h->bins[i] *
			       (mess_hist_lo(i) + mess_hist_hi(i)) / 2;
		} else {
			kept->bins[i] += h->bins[i];
		}
	}
	/* The kernel keeps one exact sum: the cut batches' part of it is
	 * their bins' midpoints, each within 1/64 of the batch. */
	kept->sum += pre ? (uint64_t)fmax(0, (double)h->sum - est) : h->sum;
	if (cut_sum)
		*cut_sum += est;
	return pre;
}

double mess_tail_paired_diff(const double *timed_ns, const double *untimed_ns,
			     size_t k)
{
	double *d = malloc((k ? k : 1) * sizeof(*d)), med;
	unsigned n = 0;

	if (!d)
		return NAN;
	for (size_t i = 0; i < k; i++) {
		double u = (untimed_ns[i] + untimed_ns[i + 1]) / 2;

		if (isfinite(timed_ns[i]) && u > 0 && isfinite(u))
			d[n++] = 100 * (timed_ns[i] - u) / u;
	}
	med = n ? mess_median(d, n) : NAN;
	free(d);
	return med;
}
