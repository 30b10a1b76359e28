// SPDX-License-Identifier: MIT
/*
 * The distribution windows: the timer's fixed cost on an L1-resident
 * chain, the unloaded distribution and its modes, and one window a point
 * at the point's own load (see tail.h).
 */
#include "curves/measured/tail.h"

#include <errno.h>
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "core/clock.h"
#include "curves/measured/measured.h"
#include "mess/stats.h"
#include "mess_kernels.h"

/* The kernels' histogram layout is lib's (neither includes the other). */
_Static_assert(MESS_HIST_SUB_BITS == MESS_CHASE_HIST_SUB_BITS, "hist layout");
_Static_assert(MESS_HIST_NBINS == MESS_CHASE_HIST_NBINS, "hist layout");
_Static_assert(offsetof(struct mess_hist, sum) ==
	       MESS_CHASE_HIST_NBINS * sizeof(uint64_t), "hist layout");

#define L1_REPEATS 7
#define L1_BATCHES 20000

static double ns_per_tick(const struct mess_tail *t)
{
	return 1e9 / t->timer.hz;
}

/* Ticks of a batch to ns per load: the window's fixed cost (ns a batch)
 * off, over n loads. */
static double per_load_ns(const struct mess_tail *t, double cost_ns,
			  double ticks)
{
	return (ticks * ns_per_tick(t) - cost_ns) / (double)t->n;
}

/* A quantile at or under 0 ns (a timer too coarse for the batch: most
 * deltas 0 ticks) is no figure. */
static double quantile_ns(const struct mess_tail *t, double cost_ns,
			  double ticks)
{
	double v = per_load_ns(t, cost_ns, ticks);

	return v > 0 ? v : NAN;
}

/* One window (core/tail/window.h) on the run's chain, its fixed-cost
 * and L2 probes and its chase thread's disturbance. */
static void dist_window(struct mess_measured *r, struct mess_tail *t, double ms,
			double lat_ns, struct mess_tail_win *w)
{
	struct mess_tail_win_in in = {
		.chase_p = &r->chase_p, .tick_ns = ns_per_tick(t), .n = t->n,
		.hs = &t->hs, .shares = t->shares, .nshares = t->nshares,
		.h = t->h, .dist = r->dist_ok ? &r->dist : NULL,
	};

	mess_tail_window(&in, ms, lat_ns, w);
	t->l2_ref_ns = w->l2_ref_ns;
	t->l2_bound_ns = w->l2_bound_ns;
}

/* A disturbed window measured again, up to MESS_TAIL_ATTEMPTS (one after
 * a window that had to be kept disturbed); the last kept, and counted. */
static void measured_window(struct mess_measured *r, struct mess_tail *t,
			    double ms, double lat_ns, struct mess_tail_win *w)
{
	unsigned max = t->persists ? 1 : MESS_TAIL_ATTEMPTS;

	for (w->attempts = 1;; w->attempts++) {
		dist_window(r, t, ms, lat_ns, w);
		if (!w->why || mess_interrupted)
			break;
		t->win_disturbed++;
		for (unsigned b = 0; b < MESS_TAIL_NWHY; b++)
			t->why_count[b] += (w->why >> b) & 1;
		if (w->attempts >= max) {
			t->win_kept_disturbed++;
			break;
		}
	}
	t->persists = w->why != 0;
	t->state_changed += (w->why & MESS_TAIL_DIST_STATE) != 0;
	/* The kept window's cluster: the medians later windows are judged
	 * by (a window measured again counts once). */
	if (isfinite(w->l2_share))
		mess_samples_push(&t->shares, &t->nshares, &t->capshares,
				  w->l2_share);
	if (isfinite(w->l2_ns))
		mess_samples_push(&t->l2_at, &t->nl2_at, &t->capl2_at,
				  w->l2_ns);
	if (!(w->why & MESS_TAIL_DIST_COSTS))
		mess_samples_push(&t->own, &t->nown, &t->capown, w->cost_ns);
}

/* The fixed cost of a batch's two timer reads: the timed chase's ticks a
 * batch on an L1-resident chain, less n times the untimed chase's
 * latency on the same chain (both medians of L1_REPEATS); and the L2
 * chain's latency, the state's reference (core/measure/hoststate.h). */
static int fixed_cost(struct mess_measured *r, struct mess_tail *t)
{
	uint64_t l1, l2;
	int err;

	mess_topo_l1_l2(&r->topo, r->chase_core, &l1, &l2);
	err = mess_hoststate_open(&t->hs, ns_per_tick(t), t->n,
				  r->topo.line_bytes, l1, l2, r->cfg.seed,
				  L1_REPEATS, L1_BATCHES);
	if (err)
		return err;
	t->l1_lines = MESS_HOSTSTATE_L1_LINES;
	t->l1_ns = t->hs.l1_ns;
	t->l1_batch_ticks = t->hs.l1_batch_ticks;
	t->overhead_ticks = t->hs.costs[0] / ns_per_tick(t);
	t->l2_start_ns = mess_hoststate_l2_ref(&t->hs);
	return 0;
}

static void unloaded_distribution(struct mess_measured *r, struct mess_tail *t)
{
	struct mess_hist_summary s;
	struct mess_hist_mode m[MESS_TAIL_MAX_MODES];
	struct mess_tail_win w = { 0 };
	double mode_ticks = 0, best = -1, c;

	if (r->ngen)
		mess_gens_set(&r->gens, NULL, 0);
	/* A disturbed window (the chase thread lost time, the fixed cost
	 * moved, preemptions) is measured again, as the mean's windows are;
	 * the last is kept, and said, when every attempt was. */
	measured_window(r, t, MESS_TAIL_UNLOADED_WINDOWS * r->cfg.chase_ms,
			r->u.ns, &w);
	t->idle_attempts = w.attempts;
	t->idle_lost_pct = w.lost_pct;
	t->idle_cost_ns = c = w.cost_ns;
	t->idle_preempted = w.preempted;
	t->idle_why = w.why;
	t->idle_pairs = w.pairs;
	t->idle_l2_share = w.l2_share;
	t->idle_l2_ns = w.l2_ns;
	mess_hist_summarise(t->h, &s);
	t->idle = (struct mess_hist_summary){
		.n = s.n, .mean = per_load_ns(t, c, s.mean),
		.p50 = quantile_ns(t, c, s.p50), .p90 = quantile_ns(t, c, s.p90),
		.p99 = quantile_ns(t, c, s.p99), .p999 = quantile_ns(t, c, s.p999),
		.max = quantile_ns(t, c, s.max) };
	t->idle_chase_ns = r->u.ns;
	t->idle_diff_pct = w.diff_pct;
	/* Modes in ticks a batch: one slow load adds its whole extra time to
	 * its batch, so the offset is per batch (n loads), not per load. */
	t->nmodes = mess_hist_modes(t->h, (double)t->timer.step_ticks, m,
				    MESS_TAIL_MAX_MODES);
	for (unsigned i = 0; i < MESS_HIST_NBINS; i++)
		if ((double)t->h->bins[i] / (mess_hist_hi(i) - mess_hist_lo(i)) > best) {
			best = (double)t->h->bins[i] / (mess_hist_hi(i) - mess_hist_lo(i));
			mode_ticks = (mess_hist_lo(i) + mess_hist_hi(i)) / 2;
		}
	t->main_mode_ns = per_load_ns(t, c, mode_ticks);
	for (size_t i = 0; i < t->nmodes; i++)
		t->modes[i] = (struct mess_hist_mode){
			.at = per_load_ns(t, c, m[i].at),
			.offset = m[i].offset * ns_per_tick(t),
			.share = m[i].share };
	mess_tail_set_rows(t, -1, 0, t->h);
}

void mess_tail_open(struct mess_measured *r)
{
	struct mess_tail *t = &r->tail;
	double t0 = mess_now_ns();
	int err;

	t->ok = 0;
	t->window_ms = MESS_TAIL_WINDOW_SHARE * r->cfg.chase_ms;
	t->h = calloc(MESS_TAIL_NHIST, sizeof(*t->h));
	if (!t->h) {
		snprintf(t->why, sizeof(t->why), "out of memory");
		return;
	}
	err = mess_timer_open(&t->timer);
	if (err) {
		snprintf(t->why, sizeof(t->why), "the timer %s did not tick",
			 t->timer.name ? t->timer.name : "");
		return;
	}
	/* A batch at least MESS_TAIL_MIN_STEPS steps at the unloaded
	 * latency: one load where the timer is fine enough. */
	t->n = mess_tail_batch_loads(&t->timer, r->u.ns);
	err = fixed_cost(r, t);
	if (err) {
		snprintf(t->why, sizeof(t->why), "fixed cost: %s", strerror(-err));
		return;
	}
	/* Earlier sessions' rows were loaded with curves.csv (result/csv.c). */
	t->ok = 1;
	unloaded_distribution(r, t);
	t->setup_ns = mess_now_ns() - t0;
}

/* Each generator core's bandwidth over the window against their mean:
 * least, median, most, and Jain's index (sum x)^2 / (n sum x^2). */
static void fairness(const uint64_t *a, const uint64_t *b, int n,
		     struct mess_point *p)
{
	double x[MESS_MAX_CORES], s = 0;

	if (n < 2)
		return;		/* one core: nothing to compare */
	for (int i = 0; i < n; i++) {
		x[i] = (double)(b[i] - a[i]);
		s += x[i];
	}
	if (!(s > 0))
		return;
	for (int i = 0; i < n; i++)
		x[i] /= s / n;
	p->fair_jain = mess_jain(x, (unsigned)n);
	p->fair_median = mess_median(x, (unsigned)n);	/* sorts x */
	p->fair_min = x[0];
	p->fair_max = x[n - 1];
}

int mess_tail_point(struct mess_measured *r, struct mess_point *p)
{
	struct mess_tail *t = &r->tail;
	static uint64_t a[MESS_MAX_CORES], b[MESS_MAX_CORES];
	struct mess_hist_summary s;
	struct mess_tail_win w = { 0 };
	double t0 = mess_now_ns(), c;
	int err;

	if (!t->ok || mess_interrupted || !isfinite(p->lat_ns))
		return 0;
	mess_gens_snap_each(&r->gens, a);
	measured_window(r, t, t->window_ms, p->lat_ns, &w);
	mess_gens_snap_each(&r->gens, b);
	t->windows++;
	if (mess_interrupted) {
		t->extra_ns += mess_now_ns() - t0;
		return 0;
	}
	mess_hist_summarise(t->h, &s);
	c = w.cost_ns;
	p->lat_p50_ns = quantile_ns(t, c, s.p50);
	p->lat_p90_ns = quantile_ns(t, c, s.p90);
	p->lat_p99_ns = quantile_ns(t, c, s.p99);
	p->lat_p999_ns = quantile_ns(t, c, s.p999);
	p->lat_max_ns = quantile_ns(t, c, s.max);
	p->dist_mean_diff_pct = w.diff_pct;
	p->dist_cost_ns = c;
	p->dist_preempted = (double)w.preempted;
	p->dist_l2_share_pct = w.l2_share;
	p->dist_l2_ns = w.l2_ns;
	fairness(a, b, r->ngen, p);
	err = mess_tail_set_rows(t, (int)p->store_pct, p->nop, t->h);
	/* Before the point is recorded: a histogram that cannot be written
	 * stops the run with the point not done, so --resume measures it
	 * again (never a point in curves.csv without its rows). */
	if (!err)
		err = mess_tail_write_csv(r);
	/* The window, its figures and latency_hist.csv: all the point's
	 * extra time. */
	t->extra_ns += mess_now_ns() - t0;
	return err;
}

void mess_tail_free(struct mess_tail *t)
{
	free(t->h);
	free(t->rows);
	mess_hoststate_close(&t->hs);
	free(t->shares);
	free(t->l2_at);
	free(t->own);
	t->shares = t->l2_at = t->own = NULL;
	t->nshares = t->capshares = t->nl2_at = t->capl2_at = 0;
	t->nown = t->capown = 0;
	t->h = NULL;
	t->rows = NULL;
	t->nrows = t->caprows = 0;
}
