// SPDX-License-Identifier: MIT
/*
 * The interference table's own evidence for its verdict: the windows
 * kept though disturbed (measured again to the bound), those discarded as
 * faster than an L1 hit, and the rows whose windows' p99 disagree.
 * Thresholds: the table below (results/README.md says them).
 */
#include "interfere/interfere.h"

#include <math.h>

/* The p99's spread over the row's windows beyond this share of it: the
 * curves' rule for repeats that disagree (MESS_QR_SPREAD). */
#define SPREAD_MAX 0.10

/* The windows a row kept: those behind its figures and the impossible
 * ones, discarded after they were kept. */
static unsigned windows(const struct mess_ifr_row *r)
{
	return r->lat.windows + r->impossible;
}

static unsigned kept_disturbed(const struct mess_ifr_row *r)
{
	return r->disturbed_kept;
}

static unsigned impossible(const struct mess_ifr_row *r)
{
	return r->impossible;
}

static unsigned one(const struct mess_ifr_row *r)
{
	return 1;
}

static unsigned p99_spread(const struct mess_ifr_row *r)
{
	return isfinite(r->lat.p99_spread) && isfinite(r->lat.p99) && r->lat.p99 > 0 &&
	       r->lat.p99_spread > SPREAD_MAX * r->lat.p99;
}

static const struct ifr_rule {
	struct mess_judge_rule r;
	unsigned (*broke)(const struct mess_ifr_row *r);
	unsigned (*of)(const struct mess_ifr_row *r);
} rules[] = {
	{ { "disturbed_kept", "windows kept though still disturbed when measured again to the bound",
	    0, 0.5, "their rows' quantiles hold time the victim lost to something else" },
	  kept_disturbed, windows },
	{ { "impossible", "windows faster than an L1 hit, discarded (interference.csv impossible)",
	    0, 1.0 / 3, "the timer or the host misbehaved; their rows rest on the windows left" },
	  impossible, windows },
	{ { "p99_spread", "rows whose windows' p99 spread more than 10 % of it",
	    0, 1.0, "their p99 is known only within that spread" },
	  p99_spread, one },
};

#define NRULES (sizeof(rules) / sizeof(rules[0]))

void mess_ifr_judge(const struct mess_ifr_row *r, int n, struct mess_verdict *v)
{
	for (size_t k = 0; k < NRULES; k++) {
		unsigned broke = 0, of = 0;

		for (int i = 0; i < n; i++) {
			broke += rules[k].broke(&r[i]);
			of += rules[k].of(&r[i]);
		}
		mess_judge_count(&rules[k].r, broke, of, v);
	}
}

json_t *mess_ifr_rules_json(void)
{
	struct mess_judge_rule r[NRULES];

	for (size_t k = 0; k < NRULES; k++)
		r[k] = rules[k].r;
	return mess_judge_rules_json(r, NRULES);
}
