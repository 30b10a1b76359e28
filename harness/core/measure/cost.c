// SPDX-License-Identifier: MIT
#include "core/measure/cost.h"

#include <math.h>
#include <stdio.h>

#include "core/clock.h"
#include "core/machine/mem.h"

#define PROBE_BYTES (32UL << 20)

double mess_cost_touch_s_per_byte(int node)
{
	struct mess_buf b;
	double t0 = mess_now_ns(), t1;

	if (mess_buf_alloc(&b, PROBE_BYTES, node, 1))
		return NAN;
	t1 = mess_now_ns();
	mess_buf_free(&b);
	return (t1 - t0) / 1e9 / PROBE_BYTES;
}

void mess_cost_begin(struct mess_cost *c, const char *cmd)
{
	char dur[32];

	c->took_s = NAN;
	if (isnan(c->est_s) || c->est_s < 0) {
		fprintf(stderr, "%s: %s, time not estimated (%s)\n", cmd, c->plan, c->from);
	} else {
		if (c->est_s < 10)
			snprintf(dur, sizeof(dur), "%.1f s", c->est_s);
		else if (c->est_s < 60)
			snprintf(dur, sizeof(dur), "%.0f s", c->est_s);
		else
			mess_fmt_dur(c->est_s, dur, sizeof(dur));
		fprintf(stderr, "%s: %s, about %s (%s)\n", cmd, c->plan, dur, c->from);
	}
	c->t0_ns = mess_now_ns();
}

void mess_cost_end(struct mess_cost *c)
{
	if (c->t0_ns > 0)
		c->took_s = (mess_now_ns() - c->t0_ns) / 1e9;
}

json_t *mess_cost_json(const struct mess_cost *c)
{
	return mess_json_pack("{s:o, s:o, s:s, s:s}",
			      "estimate_s", mess_json_real(c->est_s, 3),
			      "took_s", mess_json_real(c->took_s, 3),
			      "estimate_plan", c->plan,
			      "estimate_from", c->from);
}
