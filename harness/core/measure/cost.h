/* SPDX-License-Identifier: MIT */
/*
 * A cost estimate before the work (issue 47): matrix, c2c and interfere
 * say on stderr what they will measure and about how long it will take,
 * from a first window timed on this machine, and refuse nothing for it;
 * meta.json keeps the estimate beside the time the work took, so the
 * estimate's error is known.
 */
#ifndef MESS_COST_H
#define MESS_COST_H

#include "mess/json.h"

struct mess_cost {
	double est_s;		/* NAN: no estimate */
	double t0_ns;		/* when the work began */
	double took_s;		/* NAN until mess_cost_end */
	char plan[160];		/* "4 pairs x 3 repeats" */
	char from[160];		/* what the estimate rests on */
};

/*
 * Seconds per byte to map, bind to the node and fault in a buffer, from
 * one probe of 32 MiB (what dominates a short run on a big host: every
 * pair's arrays are populated first); NAN when the probe failed.
 */
double mess_cost_touch_s_per_byte(int node);
/* Prints "mess matrix: 4 pairs x 3 repeats, about 40 s (from ...)" and
 * starts the clock. */
void mess_cost_begin(struct mess_cost *c, const char *cmd);
void mess_cost_end(struct mess_cost *c);
/* meta.json's: estimate_s, took_s (null until the end), estimate_from. */
json_t *mess_cost_json(const struct mess_cost *c);

#endif
