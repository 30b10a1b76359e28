// SPDX-License-Identifier: MIT
/*
 * The matrix's own evidence for its verdict: the cells whose repeats
 * disagree, those whose memory the kernel put on another node, and the
 * latency runs discarded as faster than an L1 hit.  The
 * matrix counts no disturbance of its own (no steal or switches per run):
 * the look at the machine before the start says what competed.
 * Thresholds: the table below (results/README.md says them).
 */
#include "matrix/matrix.h"

#include <math.h>

/* A figure's spread (1.4826 x MAD) over its median beyond this: the
 * curves' own rule for repeats that disagree (MESS_QR_SPREAD). */
#define SPREAD_MAX 0.10

static int spread_over(double spread, double med)
{
	return isfinite(spread) && isfinite(med) && med > 0 && spread > SPREAD_MAX * med;
}

static unsigned lat_spread(const struct mess_mx_cell *c)
{
	return spread_over(c->lat_spread_ns, c->lat_ns);
}

static unsigned bw_spread(const struct mess_mx_cell *c)
{
	return spread_over(c->bw_spread_gbs, c->bw_gbs) ||
	       spread_over(c->bw21_spread_gbs, c->bw21_gbs);
}

static unsigned misplaced(const struct mess_mx_cell *c)
{
	return c->chase_off > 0 || c->gen_off > 0;
}

static unsigned impossible(const struct mess_mx_cell *c)
{
	return c->lat_impossible;
}

static unsigned one(const struct mess_mx_cell *c)
{
	return 1;
}

/* The latency runs a pair timed: those behind its figure and the
 * impossible ones, discarded. */
static unsigned lat_runs(const struct mess_mx_cell *c)
{
	return c->lat_repeats + c->lat_impossible;
}

/* Each rule counts items of its own: pairs, or latency runs (the
 * impossible ones are shares of the runs, as the curves' and interfere's
 * windows are). */
static const struct mx_rule {
	struct mess_judge_rule r;
	unsigned (*broke)(const struct mess_mx_cell *c);
	unsigned (*of)(const struct mess_mx_cell *c);
} rules[] = {
	{ { "lat_spread", "pairs whose latency repeats spread more than 10 % of their median",
	    0, 0.5, "their latency is known only within that spread" }, lat_spread, one },
	{ { "bw_spread", "pairs whose read-only or 2:1 bandwidth windows spread more than 10 % of their median",
	    0, 0.5, "their bandwidth is known only within that spread" }, bw_spread, one },
	{ { "misplaced", "pairs whose memory the kernel put partly on another node, as numa_maps says",
	    0, 1.0 / 3, "their figures are not the target node's alone" }, misplaced, one },
	{ { "impossible", "latency runs faster than an L1 hit, discarded and run again (meta.json latency_runs_impossible)",
	    0, 1.0 / 3, "the timer or the host misbehaved; their pairs' latency rests on the runs left" },
	  impossible, lat_runs },
};

#define NRULES (sizeof(rules) / sizeof(rules[0]))

void mess_mx_judge(const struct mess_mx_cell *c, int n, struct mess_verdict *v)
{
	for (size_t k = 0; k < NRULES; k++) {
		unsigned broke = 0, of = 0;

		for (int i = 0; i < n; i++) {
			broke += rules[k].broke(&c[i]);
			of += rules[k].of(&c[i]);
		}
		mess_judge_count(&rules[k].r, broke, of, v);
	}
}

json_t *mess_mx_rules_json(void)
{
	struct mess_judge_rule r[NRULES];

	for (size_t k = 0; k < NRULES; k++)
		r[k] = rules[k].r;
	return mess_judge_rules_json(r, NRULES);
}
