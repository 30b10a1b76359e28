// SPDX-License-Identifier: MIT
/*
 * The distribution windows: the timer's fixed cost on an L1-resident
 * chain, the unloaded distribution and its modes, and one window a point
 * at the point's own load (see tail.h).
 */
#include "curves/tail.h"

#include <errno.h>
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "core/chain.h"
#include "core/clock.h"
#include "curves/run.h"
#include "mess/stats.h"
#include "mess_kernels.h"

/* The kernels' histogram layout is lib's (neither includes the other). */
_Static_assert(MESS_HIST_SUB_BITS == MESS_CHASE_HIST_SUB_BITS, "hist layout");
_Static_assert(MESS_HIST_NBINS == MESS_CHASE_HIST_NBINS, "hist layout");
_Static_assert(offsetof(struct mess_hist, sum) ==
	       MESS_CHASE_HIST_NBINS * sizeof(uint64_t), "hist layout");

/* 64 lines: 4 KiB at 64 B a line, resident in any L1 data cache. */
#define L1_LINES 64
#define L1_REPEATS 7
#define L1_BATCHES 20000
#define CHUNK_MS 10.0	/* a signal is noticed within one call */

static double ns_per_tick(const struct mess_tail *t)
{
	return 1e9 / t->timer.hz;
}

/* Ticks of a batch to ns per load: the fixed cost off, over n loads. */
static double per_load_ns(const struct mess_tail *t, double ticks)
{
	return (ticks - t->overhead_ticks) * ns_per_tick(t) / (double)t->n;
}

/* A quantile at or under 0 ns (a timer too coarse for the batch: most
 * deltas 0 ticks) is no figure. */
static double quantile_ns(const struct mess_tail *t, double ticks)
{
	double v = per_load_ns(t, ticks);

	return v > 0 ? v : NAN;
}

/* The timed chase from *p for about ms at lat_ns a load, into h. */
static uint64_t timed_window(struct mess_tail *t, void **p, double ms,
			     double lat_ns, struct mess_hist *h)
{
	double per = (double)t->n * (lat_ns > 0 ? lat_ns : 100);
	uint64_t batches = (uint64_t)(ms * 1e6 / per), chunk, done = 0;

	if (batches < 64)
		batches = 64;
	chunk = (uint64_t)(CHUNK_MS * 1e6 / per) + 1;
	memset(h, 0, sizeof(*h));
	while (done < batches && !mess_interrupted) {
		uint64_t c = batches - done < chunk ? batches - done : chunk;

		*p = mess_chase_timed(*p, c, t->n, h->bins);
		done += c;
	}
	return done;
}

/* The fixed cost of a batch's two timer reads: the timed chase's ticks a
 * batch on an L1-resident chain, less n times the untimed chase's
 * latency on the same chain (both medians of L1_REPEATS). */
static int fixed_cost(struct mess_run *r, struct mess_tail *t)
{
	size_t line = r->topo.line_bytes ? r->topo.line_bytes : 64;
	uint32_t order[L1_LINES];
	double un[L1_REPEATS], tb[L1_REPEATS];
	struct mess_rng rng;
	void *buf = aligned_alloc(4096, L1_LINES * line), *p;
	int err;

	if (!buf)
		return -ENOMEM;
	mess_rng_seed(&rng, r->cfg.seed);
	err = mess_chain_order(order, L1_LINES, 0, &rng);
	if (err) {
		free(buf);
		return err;
	}
	p = mess_chain_link(buf, line, order, L1_LINES);
	p = mess_chase(p, 64);	/* warm */
	for (int k = 0; k < L1_REPEATS; k++) {
		double t0 = mess_now_ns();

		p = mess_chase(p, 256);
		un[k] = (mess_now_ns() - t0) / (256.0 * MESS_CHASE_UNROLL);
		memset(t->h, 0, sizeof(*t->h));
		p = mess_chase_timed(p, L1_BATCHES, t->n, t->h->bins);
		tb[k] = (double)t->h->sum / L1_BATCHES;
	}
	free(buf);
	t->l1_lines = L1_LINES;
	t->l1_ns = mess_median(un, L1_REPEATS);
	t->l1_batch_ticks = mess_median(tb, L1_REPEATS);
	t->overhead_ticks = t->l1_batch_ticks -
			    (double)t->n * t->l1_ns / ns_per_tick(t);
	return 0;
}

static void unloaded_distribution(struct mess_run *r, struct mess_tail *t)
{
	struct mess_hist_summary s;
	struct mess_hist_mode m[MESS_TAIL_MAX_MODES];
	uint64_t b;
	double mode_ticks = 0, best = -1;

	if (r->ngen)
		mess_gens_set(&r->gens, NULL, 0);
	/* A window in which the chase thread lost time (another task ran on
	 * its core) is measured again, as the mean's windows are; the last
	 * is kept, and said, when every attempt was. */
	for (t->idle_attempts = 1;; t->idle_attempts++) {
		struct mess_dwin dw = { .lost_pct = 0 };

		if (r->dist_ok)
			mess_disturb_begin(&r->dist, 1);
		b = timed_window(t, &r->chase_p,
				 MESS_TAIL_UNLOADED_WINDOWS * r->cfg.chase_ms,
				 r->unloaded_ns, t->h);
		if (r->dist_ok)
			mess_disturb_end(&r->dist, &dw);
		t->idle_lost_pct = r->dist_ok ? dw.lost_pct : NAN;
		if (!(dw.lost_pct > MESS_LOST_MAX_PCT) ||
		    t->idle_attempts >= MESS_TAIL_UNLOADED_ATTEMPTS || mess_interrupted)
			break;
	}
	mess_hist_summarise(t->h, &s);
	t->idle = (struct mess_hist_summary){
		.n = s.n, .mean = per_load_ns(t, (double)t->h->sum / (double)b),
		.p50 = quantile_ns(t, s.p50), .p90 = quantile_ns(t, s.p90),
		.p99 = quantile_ns(t, s.p99), .p999 = quantile_ns(t, s.p999),
		.max = quantile_ns(t, s.max) };
	t->idle_chase_ns = r->unloaded_ns;
	t->idle_diff_pct = 100 * (t->idle.mean - r->unloaded_ns) / r->unloaded_ns;
	/* Modes in ticks a batch: one slow load adds its whole extra time to
	 * its batch, so the offset is per batch (n loads), not per load. */
	t->nmodes = mess_hist_modes(t->h, (double)t->timer.step_ticks, m,
				    MESS_TAIL_MAX_MODES);
	for (unsigned i = 0; i < MESS_HIST_NBINS; i++)
		if ((double)t->h->bins[i] / (mess_hist_hi(i) - mess_hist_lo(i)) > best) {
			best = (double)t->h->bins[i] / (mess_hist_hi(i) - mess_hist_lo(i));
			mode_ticks = (mess_hist_lo(i) + mess_hist_hi(i)) / 2;
		}
	t->main_mode_ns = per_load_ns(t, mode_ticks);
	for (size_t i = 0; i < t->nmodes; i++)
		t->modes[i] = (struct mess_hist_mode){
			.at = per_load_ns(t, m[i].at),
			.offset = m[i].offset * ns_per_tick(t),
			.share = m[i].share };
	mess_tail_set_rows(t, -1, 0, t->h);
}

void mess_tail_open(struct mess_run *r)
{
	struct mess_tail *t = &r->tail;
	double t0 = mess_now_ns();
	int err;

	t->ok = 0;
	t->window_ms = MESS_TAIL_WINDOW_SHARE * r->cfg.chase_ms;
	t->h = calloc(1, sizeof(*t->h));
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
	t->n = 1;
	if (r->unloaded_ns > 0) {
		double want = MESS_TAIL_MIN_STEPS * (double)t->timer.step_ticks *
			      ns_per_tick(t) / r->unloaded_ns;

		t->n = want > 1 ? (uint64_t)ceil(want) : 1;
	}
	err = fixed_cost(r, t);
	if (err) {
		snprintf(t->why, sizeof(t->why), "fixed cost: %s", strerror(-err));
		return;
	}
	/* Earlier sessions' rows were loaded with curves.csv (report.c). */
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

int mess_tail_point(struct mess_run *r, struct mess_point *p)
{
	struct mess_tail *t = &r->tail;
	static uint64_t a[MESS_MAX_CORES], b[MESS_MAX_CORES];
	struct mess_hist_summary s;
	double t0 = mess_now_ns();
	uint64_t n;
	int err;

	if (!t->ok || mess_interrupted || !isfinite(p->lat_ns))
		return 0;
	mess_gens_snap_each(&r->gens, a);
	n = timed_window(t, &r->chase_p, t->window_ms, p->lat_ns, t->h);
	mess_gens_snap_each(&r->gens, b);
	t->windows++;
	if (mess_interrupted) {
		t->extra_ns += mess_now_ns() - t0;
		return 0;
	}
	mess_hist_summarise(t->h, &s);
	p->lat_p50_ns = quantile_ns(t, s.p50);
	p->lat_p90_ns = quantile_ns(t, s.p90);
	p->lat_p99_ns = quantile_ns(t, s.p99);
	p->lat_p999_ns = quantile_ns(t, s.p999);
	p->lat_max_ns = quantile_ns(t, s.max);
	p->dist_mean_diff_pct = 100 * (per_load_ns(t, (double)t->h->sum / (double)n) -
				       p->lat_ns) / p->lat_ns;
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
	t->h = NULL;
	t->rows = NULL;
	t->nrows = t->caprows = 0;
}
