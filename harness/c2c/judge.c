// SPDX-License-Identifier: MIT
/*
 * The core-to-core table's own evidence for its verdict: the pairs whose
 * tail shows samples cut by a preemption, and those whose median is no
 * cache transfer at all (the two threads took turns on the CPU).  c2c
 * counts no steal or switches per pair: a preempted sample shows only
 * in the tail, and the look at the machine before the start says what
 * competed.  Thresholds: the table below (results/README.md says them).
 */
#include "c2c/c2c.h"

#include <math.h>

/* A p99 this many times the median: some samples held a preemption
 * (a batch of round trips is microseconds; a time slice, milliseconds). */
#define TAIL_X 10.0
/* No hand-over of a line between caches takes this long one way (across
 * sockets it is a few hundred ns): a median above it timed the
 * scheduler, the two threads not running at once. */
#define DESCHEDULED_NS 2000.0

static int tail(const struct mess_c2c_pair *p)
{
	return isfinite(p->p99_ns) && isfinite(p->median_ns) &&
	       p->p99_ns > TAIL_X * p->median_ns;
}

static int descheduled(const struct mess_c2c_pair *p)
{
	return isfinite(p->median_ns) && p->median_ns > DESCHEDULED_NS;
}

static const struct c2c_rule {
	struct mess_judge_rule r;
	int (*broke)(const struct mess_c2c_pair *p);
} rules[] = {
	{ { "disturbed_tail", "pairs whose p99 is over 10 times their median, samples cut by a preemption",
	    0, 0.5, "their p99 is the scheduler's, their median stands" }, tail },
	{ { "descheduled", "pairs whose median is over 2 us one way, which no cache transfer takes",
	    0, 1.0 / 3, "their figures time the two threads taking turns on a CPU, not the line" }, descheduled },
};

#define NRULES (sizeof(rules) / sizeof(rules[0]))

void mess_c2c_judge(const struct mess_c2c_pair *p, int n, struct mess_verdict *v)
{
	for (size_t k = 0; k < NRULES; k++) {
		unsigned broke = 0;

		for (int i = 0; i < n; i++)
			broke += rules[k].broke(&p[i]) ? 1 : 0;
		mess_judge_count(&rules[k].r, broke, (unsigned)n, v);
	}
}

json_t *mess_c2c_rules_json(void)
{
	struct mess_judge_rule r[NRULES];

	for (size_t k = 0; k < NRULES; k++)
		r[k] = rules[k].r;
	return mess_judge_rules_json(r, NRULES);
}
