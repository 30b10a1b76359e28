// SPDX-License-Identifier: MIT
/*
 * One distribution window of the timed chase (window.h): U T U ... T U,
 * each T chunks of batches with an L1 burst after each (the window's own
 * fixed cost), the L1 and L2 probes on either side, the preemptions cut,
 * and why it was disturbed.
 */
#include "core/tail/window.h"

#include <math.h>
#include <string.h>

#include "core/signals.h"
#include "mess/quality.h"
#include "mess/stats.h"
#include "mess_kernels.h"

uint64_t mess_tail_batch_loads(const struct mess_timer *t, double lat_ns)
{
	double want;

	if (!(lat_ns > 0) || !(t->hz > 0))
		return 1;
	want = MESS_TAIL_MIN_STEPS * (double)t->step_ticks * 1e9 / t->hz / lat_ns;
	return want > 1 ? (uint64_t)ceil(want) : 1;
}

/* One timed sub-window: MESS_TAIL_CHUNKS chunks of tb / MESS_TAIL_CHUNKS
 * batches (into sub), each followed by an L1 burst (into sub2), so the
 * bursts see the moments the batches do. */
static void *timed_sub(void *p, uint64_t tb, uint64_t n,
		       struct mess_hoststate *hs, struct mess_hist *sub,
		       struct mess_hist *sub2)
{
	memset(sub, 0, sizeof(*sub));
	memset(sub2, 0, sizeof(*sub2));
	for (unsigned c = 0; c < MESS_TAIL_CHUNKS; c++) {
		p = mess_chase_timed(p, tb / MESS_TAIL_CHUNKS, n, sub->bins);
		mess_hoststate_l1_burst(hs, MESS_TAIL_BURST, sub2->bins);
	}
	return p;
}

void mess_tail_window(const struct mess_tail_win_in *in, double ms,
		      double lat_ns, struct mess_tail_win *w)
{
	double lat = lat_ns > 0 ? lat_ns : 100, tick = in->tick_ns;
	double unit, before, after;
	double l2_ref = mess_hoststate_l2_ref(in->hs), l2_before, l2_after;
	double share_med = mess_quantile(in->shares, in->nshares, 0.5);
	/* The cluster's bound follows the reference: a bound from one
	 * probe at the start, in a state without the L2 (55 ns), would
	 * take DRAM loads for L2 hits all run long. */
	double bound = MESS_TAIL_L2_BOUND * l2_ref;
	double cut_ticks = 0, timed = 0;	/* ticks: cut, all */
	uint64_t kept2 = 0;			/* L1 burst batches kept */
	double tk[MESS_TAIL_MAX_SUBS], tn[MESS_TAIL_MAX_SUBS];
	double tns[MESS_TAIL_MAX_SUBS], uns[MESS_TAIL_MAX_SUBS + 1];
	struct mess_hist *h = in->h, *sub = in->h + 1;
	struct mess_hist *h2 = in->h + 2, *sub2 = in->h + 3;
	struct mess_dwin dw = { .lost_pct = NAN };
	long k = lround((ms / MESS_TAIL_SUB_MS - 0.5) / 1.5);
	uint64_t tb, ui, n = in->n;
	size_t i, done = 0;

	if (k < 2)
		k = 2;
	if (k > MESS_TAIL_MAX_SUBS)
		k = MESS_TAIL_MAX_SUBS;
	/* k timed of 2 units, k + 1 untimed of one: ms in all. */
	unit = ms / (3.0 * (double)k + 1);
	tb = (uint64_t)(2 * unit * 1e6 / ((double)n * lat));
	tb = tb < 2 * MESS_TAIL_CHUNKS ? 2 * MESS_TAIL_CHUNKS : tb;
	ui = (uint64_t)lround(unit * 1e6 / (MESS_CHASE_UNROLL * lat));
	ui = ui < 1 ? 1 : ui;
	*w = (struct mess_tail_win){ .lost_pct = NAN, .attempts = w->attempts };
	l2_before = mess_hoststate_l2(in->hs);
	before = mess_hoststate_cost(in->hs);
	memset(h, 0, sizeof(*h));
	memset(h2, 0, sizeof(*h2));
	if (in->dist)
		mess_disturb_begin(in->dist, 1);
	for (i = 0; i <= (size_t)k && !mess_interrupted; i++) {
		uint64_t a = mess_timer_now(), pre, s0;

		*in->chase_p = mess_chase(*in->chase_p, ui);
		uns[i] = (double)(mess_timer_now() - a) * tick /
			 (double)(ui * MESS_CHASE_UNROLL);
		if (i == (size_t)k)
			break;
		*in->chase_p = timed_sub(*in->chase_p, tb, n, in->hs, sub, sub2);
		timed += (double)sub->sum;
		/* a burst's preemption is cut as the batches' are, and its
		 * time is not the chase's: counted in neither */
		kept2 += MESS_TAIL_CHUNKS * MESS_TAIL_BURST -
			 mess_tail_cut(h2, sub2, mess_tail_cut_ticks(sub2, tick),
				       NULL);
		s0 = h->sum;
		pre = mess_tail_cut(h, sub, mess_tail_cut_ticks(sub, tick),
				    &cut_ticks);
		w->preempted += pre;
		tk[i] = (double)(h->sum - s0);
		tn[i] = (double)(tb / MESS_TAIL_CHUNKS * MESS_TAIL_CHUNKS - pre);
		done = i + 1;
	}
	if (in->dist) {
		mess_disturb_end(in->dist, &dw);
		w->lost_pct = dw.lost_pct;
	}
	after = mess_hoststate_cost(in->hs);
	l2_after = mess_hoststate_l2(in->hs);
	w->probes_ns = (before + after) / 2;
	w->why = mess_tail_cost_own(kept2 ? (double)h2->sum / (double)kept2 : NAN,
				    n, mess_hoststate_l1_ns(in->hs), tick,
				    w->probes_ns, &w->cost_ns);
	mess_tail_l2_cluster(h, tick, w->cost_ns, n, bound,
			     &w->l2_share, &w->l2_ns);
	w->why |= mess_tail_state_check(l2_ref, w->l2_ns, l2_before, l2_after,
					w->l2_share, share_med);
	w->l2_ref_ns = l2_ref;
	w->l2_bound_ns = bound;
	for (i = 0; i < done; i++)
		tns[i] = tn[i] > 0 ?
			 ((tk[i] / tn[i]) * tick - w->cost_ns) / (double)n : NAN;
	/* An interrupted window has its last timed sub-window without the
	 * untimed one after it: no pair. */
	if (done && done == (size_t)k) {
		w->diff_pct = mess_tail_paired_diff(tns, uns, done);
		for (i = 0; i < done; i++)
			w->pairs += isfinite(tns[i]);
	} else {
		w->diff_pct = NAN;
	}
	if (fabs(w->diff_pct) > MESS_Q_DIST_DIFF_PCT)
		w->why |= MESS_TAIL_DIST_DIFF;
	if (cut_ticks > MESS_LOST_MAX_PCT / 100 * timed)
		w->why |= MESS_TAIL_DIST_PREEMPTED;
	if (w->lost_pct > MESS_LOST_MAX_PCT)
		w->why |= MESS_TAIL_DIST_LOST;
}
