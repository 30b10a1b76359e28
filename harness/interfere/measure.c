// SPDX-License-Identifier: MIT
/*
 * interfere's measurement: the victim's chase on its own core, its buffer
 * on its node, and the aggressors' generators started once on every core
 * the run may use; per mix, 0, 1, ..., N of them run at full rate (no nop
 * spin) while the victim measures its distribution windows
 * (core/tail/window.h), each disturbed one measured again as the curves'
 * are.  The aggressors' bandwidth is accounted over the row's windows.
 */
#include "interfere/run.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/clock.h"
#include "core/machine/mem.h"
#include "core/measure/chain.h"
#include "core/measure/disturb.h"
#include "core/measure/gen.h"
#include "core/measure/hoststate.h"
#include "core/measure/timer.h"
#include "core/signals.h"
#include "core/tail/window.h"
#include "mess/hist.h"
#include "mess/stats.h"

#define STRIDE MESS_CHAIN_STRIDE
#define SEED 1
/* The host-state probes' first, longer fixed cost (as the curves'). */
#define L1_REPEATS 7
#define L1_BATCHES 20000

struct victim {
	struct mess_buf buf;
	void *p;
	struct mess_timer timer;
	struct mess_hoststate hs;
	struct mess_hist *h;	/* two: a window's, a scratch */
	double *shares;		/* the kept windows' L2 shares */
	size_t nshares, capshares;
	struct mess_disturb dist;
	int dist_ok;
	double setup_s;		/* the timer's and host-state probes' opening */
};

/* One run of the chain, untimed: ns a load. */
static double idle_pass(struct victim *v, uint32_t nlines)
{
	uint64_t iters = (nlines < MESS_IFR_IDLE_LOADS ? nlines : MESS_IFR_IDLE_LOADS) /
			 MESS_CHASE_UNROLL + 1;
	double t0 = mess_thread_cpu_ns();

	v->p = mess_chase(v->p, iters);
	return (mess_thread_cpu_ns() - t0) / (double)(iters * MESS_CHASE_UNROLL);
}

/* The victim on bytes of buffer (m->buffer, or the estimate's probe). */
static int victim_open(struct ifr *m, struct victim *v, size_t bytes)
{
	uint32_t nlines = (uint32_t)(bytes / STRIDE);
	uint64_t l1, l2;
	double t0;
	int err = mess_topo_bind_core(&m->topo, m->victim);

	if (err) {
		fprintf(stderr, "mess interfere: cannot pin the victim to core %d: %s\n",
			m->victim, strerror(-err));
		return err;
	}
	err = mess_buf_alloc(&v->buf, bytes, m->victim_node, 1);
	if (err) {
		fprintf(stderr, "mess interfere: the victim's buffer (%zu MiB on node %d): %s\n",
			bytes >> 20, m->victim_node, strerror(-err));
		return err;
	}
	snprintf(m->chase_huge, sizeof(m->chase_huge), "%s", mess_hp_name(v->buf.hp));
	/* The curves' layout (core/measure/chain.h): the victim's figure
	 * with no aggressor is the curves' unloaded latency. */
	v->p = mess_chain_make(v->buf.p, STRIDE, nlines,
			       MESS_CHAIN_WINDOW / STRIDE, SEED, &err);
	if (err)
		return err;
	idle_pass(v, nlines);	/* the clock up */
	m->unloaded_ns = INFINITY;
	for (int i = 0; i < MESS_IFR_IDLE_PASSES; i++)
		m->unloaded_ns = fmin(m->unloaded_ns, idle_pass(v, nlines));
	t0 = mess_now_ns();
	err = mess_timer_open(&v->timer);
	if (err) {
		fprintf(stderr, "mess interfere: the timer %s did not tick\n",
			v->timer.name ? v->timer.name : "");
		return err;
	}
	snprintf(m->timer, sizeof(m->timer), "%s at %.0f Hz (%s)", v->timer.name,
		 v->timer.hz, v->timer.source);
	m->batch_loads = mess_tail_batch_loads(&v->timer, m->unloaded_ns);
	mess_topo_l1_l2(&m->topo, m->victim, &l1, &l2);
	err = mess_hoststate_open(&v->hs, 1e9 / v->timer.hz, m->batch_loads,
				  m->topo.line_bytes, l1, l2, SEED, L1_REPEATS,
				  L1_BATCHES);
	if (err)
		return err;
	v->setup_s = (mess_now_ns() - t0) / 1e9;
	v->h = calloc(MESS_TAIL_NHIST, sizeof(*v->h));
	if (!v->h)
		return -ENOMEM;
	/* What disturbed the victim: unknown (NAN) where it cannot be read. */
	if (!mess_disturb_open(&v->dist)) {
		v->dist_ok = !mess_disturb_add_self(&v->dist,
						    m->topo.core_pu[m->victim], "victim");
		if (!v->dist_ok)
			mess_disturb_close(&v->dist);
	}
	return 0;
}

static void victim_close(struct victim *v)
{
	if (v->dist_ok)
		mess_disturb_close(&v->dist);
	mess_hoststate_close(&v->hs);
	free(v->h);
	free(v->shares);
	mess_buf_free(&v->buf);
}

/* A window's histogram (ticks a batch) into ns a load, its fixed cost
 * off; a quantile at or under 0 (a timer too coarse) is no figure. */
static double per_load(const struct victim *v, uint64_t n, double cost_ns,
		       double ticks, int clip)
{
	double ns = (ticks * 1e9 / v->timer.hz - cost_ns) / (double)n;

	return clip && !(ns > 0) ? NAN : ns;
}

static void window_figures(const struct victim *v, uint64_t n, double cost_ns,
			   struct mess_ifr_win *q)
{
	struct mess_hist_summary s;

	mess_hist_summarise(v->h, &s);
	*q = (struct mess_ifr_win){
		.p50 = per_load(v, n, cost_ns, s.p50, 1),
		.p90 = per_load(v, n, cost_ns, s.p90, 1),
		.p99 = per_load(v, n, cost_ns, s.p99, 1),
		.p999 = per_load(v, n, cost_ns, s.p999, 1),
		.mean = s.n ? per_load(v, n, cost_ns, s.mean, 0) : NAN,
	};
}

/* One kept window: measured again while disturbed, up to
 * MESS_TAIL_ATTEMPTS, the last kept and counted (the curves' rule). */
static void kept_window(struct ifr *m, struct victim *v, double lat_ns,
			struct mess_ifr_row *r, struct mess_ifr_win *q)
{
	struct mess_tail_win_in in = {
		.chase_p = &v->p, .tick_ns = 1e9 / v->timer.hz, .n = m->batch_loads,
		.hs = &v->hs, .shares = v->shares, .nshares = v->nshares,
		.h = v->h, .dist = v->dist_ok ? &v->dist : NULL,
	};
	struct mess_tail_win w = { 0 };

	for (w.attempts = 1;; w.attempts++) {
		mess_tail_window(&in, m->o.run_ms, lat_ns, &w);
		if (!w.why || mess_interrupted)
			break;
		r->disturbed++;
		if (w.attempts >= MESS_TAIL_ATTEMPTS) {
			r->disturbed_kept++;
			break;
		}
	}
	if (isfinite(w.l2_share))
		mess_samples_push(&v->shares, &v->nshares, &v->capshares, w.l2_share);
	r->preempted += w.preempted;
	if (isfinite(w.lost_pct))
		r->lost_pct = isfinite(r->lost_pct) ? fmax(r->lost_pct, w.lost_pct) :
			      w.lost_pct;
	window_figures(v, m->batch_loads, w.cost_ns, q);
}

int mess_ifr_probe_window(struct ifr *m, size_t bytes, double *setup_s,
			  double *win_s, int *attempts)
{
	struct victim v = { 0 };
	struct mess_ifr_row r = { .lost_pct = NAN };
	struct mess_ifr_win q;
	/* What victim_open says of the probe's victim is not the run's. */
	double unloaded = m->unloaded_ns;
	uint64_t batch = m->batch_loads;
	int err = victim_open(m, &v, bytes);

	if (!err) {
		double t0 = mess_now_ns();

		kept_window(m, &v, m->unloaded_ns, &r, &q);
		*attempts = (int)(r.disturbed - r.disturbed_kept) + 1;
		*win_s = (mess_now_ns() - t0) / 1e9 / *attempts;
		*setup_s = v.setup_s;
	}
	victim_close(&v);
	m->unloaded_ns = unloaded;
	m->batch_loads = batch;
	m->timer[0] = m->chase_huge[0] = 0;
	return err;
}

/* Mix k with nag aggressors: the row's windows and bandwidth.  0, or
 * -EINTR (the row not kept). */
static int row(struct ifr *m, struct victim *v, struct mess_gens *g,
	       const struct mess_gen_kernel *k, int nag, double *lat_hint,
	       struct mess_ifr_row *r)
{
	struct mess_ifr_win w[MESS_IFR_MAX_REPEATS];
	double per = mess_gen_read_bytes(k) + mess_gen_write_bytes(k);
	struct mess_gen_snap a, b;
	unsigned nw = 0;

	*r = (struct mess_ifr_row){ .store_pct = (int)k->store_pct,
		.read_pct = mess_gen_read_pct(k), .aggressors = nag, .lost_pct = NAN };
	mess_gens_set_some(g, k, 0, nag);
	/* The aggressors' first laps and clocks, as the matrix's window. */
	if (nag)
		mess_sleep_ns(m->o.settle_ms * 1e6);
	mess_gens_snap(g, &a);
	for (; nw < m->o.repeats && !mess_interrupted; nw++) {
		kept_window(m, v, *lat_hint, r, &w[nw]);
		if (!mess_ifr_win_possible(&w[nw], mess_hoststate_l1_ns(&v->hs)))
			r->impossible++;
		/* Batches sized at the latency seen last: a loaded
		 * window sized at the unloaded one would run long. */
		if (isfinite(w[nw].mean) && w[nw].mean > 0)
			*lat_hint = w[nw].mean;
	}
	mess_gens_snap(g, &b);
	mess_gens_set_some(g, NULL, 0, 0);
	if (mess_interrupted)
		return -EINTR;
	mess_ifr_summarise(w, nw, &r->lat);
	r->bw_gbs = b.t_ns > a.t_ns ? (double)(b.iters - a.iters) * per / (b.t_ns - a.t_ns) : NAN;
	return 0;
}

int mess_ifr_measure(struct ifr *m)
{
	struct victim v = { 0 };
	struct mess_gens g;
	enum mess_hp hp;
	int rc, total = m->nmixes * (m->naggr + 1);

	memset(&g, 0, sizeof(g));
	m->rows = calloc((size_t)total, sizeof(*m->rows));
	rc = m->rows ? victim_open(m, &v, m->buffer) : -ENOMEM;
	if (!rc) {
		rc = mess_gens_start(&g, &m->topo, m->cores, m->naggr, m->gen_bytes,
				     m->aggr_node, 1);
		if (rc)
			fprintf(stderr, "mess interfere: cannot start %d generator%s on node %d: %s\n",
				m->naggr, m->naggr == 1 ? "" : "s", m->aggr_node, strerror(-rc));
	}
	if (!rc) {
		mess_gens_hugepages(&g, &hp, &m->gen_huge_pct);
		snprintf(m->gen_huge, sizeof(m->gen_huge), "%s", mess_hp_name(hp));
		fprintf(stderr, "interfere: victim core %d, unloaded %.1f ns a load, %llu a batch; timer %s\n",
			m->victim, m->unloaded_ns, (unsigned long long)m->batch_loads, m->timer);
	}
	for (int i = 0; i < m->nmixes && !rc; i++) {
		const struct mess_gen_kernel *k = &m->var->table[m->mix[i] / MESS_GEN_MIX_STEP];
		double hint = m->unloaded_ns;

		for (int a = 0; a <= m->naggr && !rc; a++) {
			struct mess_ifr_row *r = &m->rows[m->nrows];

			rc = row(m, &v, &g, k, a, &hint, r);
			if (rc)
				break;
			m->nrows++;
			fprintf(stderr, "interfere: [%d/%d] %d %% stores, %d aggressor%s: p50 %.1f ns, p99 %.1f ns, mean %.1f ns; aggressors %.2f GB/s; %u disturbed\n",
				m->nrows, total, r->store_pct, a, a == 1 ? "" : "s",
				r->lat.p50, r->lat.p99, r->lat.mean, r->bw_gbs, r->disturbed);
		}
	}
	mess_gens_stop(&g);
	victim_close(&v);
	return rc;
}
