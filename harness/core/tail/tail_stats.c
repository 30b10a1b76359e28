// SPDX-License-Identifier: MIT
/*
 * The distribution window's arithmetic, apart from the measuring so that
 * it has known answers (tests/unit/model/test_tail_stats.c): the window's own
 * fixed cost from the L1 bursts inside it, the preemption cut, the
 * paired difference of the timed and untimed sub-windows, and the host
 * state's check (its L2 cluster and the probes beside it).
 */
#include "core/tail/window.h"

#include <math.h>
#include <stdlib.h>

#include "mess/stats.h"

unsigned mess_tail_cost_own(double l1_batch_ticks, uint64_t n, double l1_ns,
			    double tick_ns, double probes_ns, double *cost_ns)
{
	double c = l1_batch_ticks * tick_ns - (double)n * l1_ns;

	/* Under 0 the L1 chain's latency was not the bursts' (no L1 to
	 * stay in): no cost to take from them. */
	if (isfinite(c) && c >= 0) {
		*cost_ns = c;
		return 0;
	}
	*cost_ns = probes_ns;
	return MESS_TAIL_DIST_COSTS;
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

void mess_tail_l2_cluster(const struct mess_hist *h, double tick_ns,
			  double cost_ns, uint64_t n, double bound_ns,
			  double *share_pct, double *at_ns)
{
	double all = 0, under = 0, sum = 0;

	*share_pct = *at_ns = NAN;
	if (n != 1 || !(bound_ns > 0) || !isfinite(cost_ns))
		return;
	for (unsigned i = 0; i < MESS_HIST_NBINS; i++) {
		double ns;

		if (!h->bins[i])
			continue;
		all += (double)h->bins[i];
		ns = (mess_hist_lo(i) + mess_hist_hi(i)) / 2 * tick_ns - cost_ns;
		if (ns < bound_ns) {
			under += (double)h->bins[i];
			sum += (double)h->bins[i] * ns;
		}
	}
	if (!(all > 0))
		return;
	*share_pct = 100 * under / all;
	if (under >= MESS_TAIL_L2_MIN_BATCHES)
		*at_ns = sum / under;
}

unsigned mess_tail_state_check(double ref_ns, double at_ns, double before_ns,
			       double after_ns, double share_pct,
			       double median_share_pct)
{
	double lo, hi;

	/* NAN compares false throughout: a figure not measured is not
	 * judged.  The probes: apart (a flip during the window), or both
	 * slower than the reference (the window in a worse state than the
	 * run's best; a window faster than it is the reference's fault). */
	if (fabs(before_ns - after_ns) > MESS_TAIL_STATE_NS ||
	    fmin(before_ns, after_ns) - ref_ns > MESS_TAIL_STATE_NS ||
	    fabs(at_ns - ref_ns) > MESS_TAIL_STATE_NS)
		return MESS_TAIL_DIST_STATE;
	if (!isfinite(share_pct) || !isfinite(median_share_pct))
		return 0;
	lo = fmin(share_pct, median_share_pct);
	hi = fmax(share_pct, median_share_pct);
	/* A share from nothing to a little is a jump too: the floor is the
	 * least share one window of 10^4 batches can show. */
	if (hi - lo > MESS_TAIL_SHARE_JUMP_PP &&
	    hi > MESS_TAIL_SHARE_JUMP_X * fmax(lo, 0.01))
		return MESS_TAIL_DIST_STATE;
	return 0;
}
