// SPDX-License-Identifier: MIT
/*
 * The one next step a verdict calls for (mess/quality.h): a table from
 * the rule of a reason to what the user does about it.  Its rows run in
 * the order causes are fixed: another task on the run's cores explains
 * the disturbed windows and flagged points it caused, so its step wins
 * over theirs.
 */
#include "mess/quality.h"

#include <string.h>

#define AGAIN_IDLE "measure again on an idle node or in an exclusive allocation"
#define LATER_PIN "repeat later, or pin the run (an exclusive allocation, or cores kept free of other work)"

static const struct next_row {
	const char *rule;	/* a reason's rule; a prefix when it ends in '*' */
	const char *step;
	/* After the step, the verdict's who then this (NULL: not named). */
	const char *who;
} next_rows[] = {
	/* What is missing first: the rest says how to measure it. */
	{ "partial", "finish the run: --resume on its directory measures what is missing", NULL },
	{ "partial_rerun", "run the same command again with the same --out: this kind of run (a replay) is not resumed, it is made again whole", NULL },
	{ "competition", AGAIN_IDLE, " competed for the run's cores" },
	{ "steal", AGAIN_IDLE ": the hypervisor ran other work on these vCPUs", NULL },
	{ "smt_busy", AGAIN_IDLE ", or with --cores on cores whose SMT siblings are idle", NULL },
	{ "no_load", "read it as what was measured, the chase's latency at the little traffic the generators moved, not as the memory under load: loading memory needs more generator cores (--cores, a larger allocation)", NULL },
	{ "internal", "measure again; if it recurs, report it with meta.json", NULL },
	{ "clock_unstable", "fix the chase core's clock (the performance governor, turbo off) and measure again", NULL },
	{ "migrated", "measure again with nothing moving the threads (irqbalance, a tuning daemon or cgroup that rewrites CPU affinity)", NULL },
	{ "history", "compare with the host's earlier runs (mess compare) and repeat later: the machine is not in its usual state", NULL },
	{ "host_state", LATER_PIN, NULL },
	{ "window_slower", LATER_PIN, NULL },
	{ "unloaded_spread", LATER_PIN, NULL },
	{ "drift", LATER_PIN, NULL },
	{ "disturb*", LATER_PIN, NULL },
	{ "mix_*", LATER_PIN, NULL },
	{ "ladder_*", LATER_PIN, NULL },
	{ "k1_doubtful", LATER_PIN, NULL },
	{ "dist_disagrees", "use the means as they stand; " LATER_PIN " before exporting or comparing its quantiles", NULL },
};

static int row_has(const struct next_row *row, const char *rule)
{
	size_t n = strlen(row->rule);

	if (n && row->rule[n - 1] == '*')
		return !strncmp(row->rule, rule, n - 1);
	return !strcmp(row->rule, rule);
}

const char *mess_verdict_next(const struct mess_verdict *v, char *buf, size_t len)
{
	size_t k = sizeof(next_rows) / sizeof(next_rows[0]);

	if (v->level == MESS_PASS) {
		snprintf(buf, len, "none needed: every rule held, so the figures stand as measured");
		return buf;
	}
	for (size_t row = 0; row < k; row++)
		for (size_t i = 0; i < v->n; i++)
			if (v->r[i].level > MESS_PASS && row_has(&next_rows[row], v->r[i].rule)) {
				const struct next_row *w = &next_rows[row];
				int named = w->who && v->who[0];

				snprintf(buf, len, "%s%s%s%s", w->step, named ? ": " : "",
					 named ? v->who : "", named ? w->who : "");
				return buf;
			}
	snprintf(buf, len, "%s (the reasons above say what broke)", LATER_PIN);
	return buf;
}
