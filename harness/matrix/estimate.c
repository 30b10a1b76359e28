// SPDX-License-Identifier: MIT
/*
 * mess matrix's cost estimate (issue 47).  A one-pair matrix on a 2-core
 * guest took 5.9 s where the estimate, its runs and windows and one
 * serial population of the arrays, said 2.2: the chain's linking and warm
 * pass (a line each, 5 M lines for a 1.2 GiB buffer) were not counted.
 */
#include <math.h>

#include "core/measure/chain.h"
#include "matrix/matrix.h"

#define MIXES 2

void mess_mx_estimate(const struct mess_mx_plan *pl, const struct mess_cost_probe *p,
		      struct mess_cost_parts *s)
{
	double lines = (double)(pl->buffer / MESS_CHAIN_STRIDE), n = pl->pairs;

	*s = (struct mess_cost_parts){ 0 };
	s->touch_s = n * ((double)pl->buffer + MIXES * 2.0 * (double)pl->gen_bytes) *
		     p->touch_ns_b / 1e9;
	s->chain_s = n * lines * p->chain_ns_line / 1e9;
	s->pass_s = n * lines * pl->lat_ns / 1e9;
	s->work_s = n * pl->repeats * (2 * pl->run_ms + MIXES * pl->window_ms) / 1e3;
	s->settle_s = n * MIXES * pl->window_ms / 1e3;
}
