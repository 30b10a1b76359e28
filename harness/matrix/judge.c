// SPDX-License-Identifier: MIT
/*
 * The matrix's own evidence for its verdict: the cells whose repeats
 * disagree, and those whose memory the kernel put on another node.  The
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

static int lat_spread(const struct mess_mx_cell *c)
{
	return spread_over(c->lat_spread_ns, c->lat_ns);
}

static int bw_spread(const struct mess_mx_cell *c)
{
	return spread_over(c->bw_spread_gbs, c->bw_gbs) ||
	       spread_over(c->bw21_spread_gbs, c->bw21_gbs);
}

static int misplaced(const struct mess_mx_cell *c)
{
	return c->chase_off > 0 || c->gen_off > 0;
}

static const struct mx_rule {
	struct mess_judge_rule r;
	int (*broke)(const struct mess_mx_cell *c);
} rules[] = {
	{ { "lat_spread", "pairs whose latency repeats spread more than 10 % of their median",
	    0, 0.5, "their latency is known only within that spread" }, lat_spread },
	{ { "bw_spread", "pairs whose read-only or 2:1 bandwidth windows spread more than 10 % of their median",
	    0, 0.5, "their bandwidth is known only within that spread" }, bw_spread },
	{ { "misplaced", "pairs whose memory the kernel put partly on another node, as numa_maps says",
	    0, 1.0 / 3, "their figures are not the target node's alone" }, misplaced },
};

#define NRULES (sizeof(rules) / sizeof(rules[0]))

void mess_mx_judge(const struct mess_mx_cell *c, int n, struct mess_verdict *v)
{
	for (size_t k = 0; k < NRULES; k++) {
		unsigned broke = 0;

		for (int i = 0; i < n; i++)
			broke += rules[k].broke(&c[i]) ? 1 : 0;
		mess_judge_count(&rules[k].r, broke, (unsigned)n, v);
	}
}

json_t *mess_mx_rules_json(void)
{
	struct mess_judge_rule r[NRULES];

	for (size_t k = 0; k < NRULES; k++)
		r[k] = rules[k].r;
	return mess_judge_rules_json(r, NRULES);
}
