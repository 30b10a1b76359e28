// SPDX-License-Identifier: MIT
/*
 * mess interfere's cost estimate (issue 47).  2 mixes, 4 rows, on a
 * loaded 2-core guest took 4.5 s where the estimate, the rows' windows of
 * run_ms and a serial population of the arrays, said 1: each window's
 * host-state probes and timer reads stretch it past run_ms, a disturbed
 * one is measured again (every window, 3 times, on that guest), and the
 * chain's linking and the timer's and probes' opening were not counted.
 */
#include <math.h>

#include "core/measure/chain.h"
#include "interfere/run.h"

/* The probe's victim: its chain past any L1 and L2. */
#define PROBE_BYTES (8u << 20)

void mess_ifr_estimate(const struct mess_ifr_plan *pl, const struct mess_cost_probe *p,
		       struct mess_cost_parts *s)
{
	double lines = (double)(pl->buffer / MESS_CHAIN_STRIDE);
	double idle = fmin(lines, MESS_IFR_IDLE_LOADS) * (MESS_IFR_IDLE_PASSES + 1);
	int rows = pl->mixes * (pl->naggr + 1);

	*s = (struct mess_cost_parts){ 0 };
	s->touch_s = ((double)pl->buffer + (pl->naggr ? 2.0 * (double)pl->gen_bytes : 0)) *
		     p->touch_ns_b / 1e9;
	s->chain_s = lines * p->chain_ns_line / 1e9;
	s->pass_s = idle * pl->lat_ns / 1e9;
	s->setup_s = pl->setup_s;
	s->work_s = rows * (double)pl->repeats * pl->attempts * pl->window_s;
	s->settle_s = pl->mixes * pl->naggr * pl->settle_ms / 1e3;
}

void mess_ifr_estimate_run(struct ifr *m)
{
	struct mess_cost_probe p;
	struct mess_cost_parts s;
	struct mess_ifr_plan pl = { .mixes = m->nmixes, .naggr = m->naggr,
		.repeats = (unsigned)m->o.repeats, .settle_ms = m->o.settle_ms,
		.buffer = m->buffer, .gen_bytes = m->gen_bytes, .window_s = NAN,
		.attempts = 1 };
	char note[96];
	int rows = m->nmixes * (m->naggr + 1);

	mess_cost_probe(&m->topo, m->victim, m->victim_node, &p);
	if (mess_ifr_probe_window(m, PROBE_BYTES, &pl.setup_s, &pl.window_s, &pl.attempts))
		pl.window_s = NAN;
	pl.lat_ns = p.pass_ns_line;
	mess_ifr_estimate(&pl, &p, &s);
	snprintf(note, sizeof(note), "windows (each %.0f ms, %d attempt%s as the probe's)",
		 pl.window_s * 1e3, pl.attempts, pl.attempts == 1 ? "" : "s");
	mess_cost_set(&m->cost, &p, m->victim_node, &s, note);
	snprintf(m->cost.plan, sizeof(m->cost.plan), "%d row%s x %d windows", rows,
		 rows == 1 ? "" : "s", (int)m->o.repeats);
}
