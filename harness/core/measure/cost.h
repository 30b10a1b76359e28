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

#include "core/machine/topo.h"
#include "mess/json.h"

struct mess_cost {
	double est_s;		/* NAN: no estimate */
	double t0_ns;		/* when the work began */
	double took_s;		/* NAN until mess_cost_end */
	char plan[160];		/* "4 pairs x 3 repeats" */
	char from[400];		/* what the estimate rests on and counts */
};

/* A first window of this machine's: what a chase's buffer costs before
 * its first timed load (NAN where the probe failed). */
struct mess_cost_probe {
	double touch_ns_b;	/* map, bind to the node and fault in, a byte */
	double chain_ns_line;	/* link the chase's chain, a line */
	double pass_ns_line;	/* one pass of it, a line (the probe's
				 * buffer may sit in the LLC: a low bound) */
};

/*
 * Probes of 32 MiB on node from a thread pinned to core (hwloc logical),
 * the run's first: what dominates a short run on a big host is populating
 * the arrays and linking and warming the chase's chain, and on a shared
 * one what else runs on the cores the run pins to (unpinned, the probe
 * read 0.2 ns/B on a 2-core guest where another run kept core 0 busy and
 * the matrix's 1.2 GiB buffer, populated there, went at 1.3 ns/B).
 */
void mess_cost_probe(struct mess_topo *topo, int core, int node,
		     struct mess_cost_probe *p);
/* An estimate's parts, s: what a command counts (0 where it has none). */
struct mess_cost_parts {
	double touch_s;		/* populating buffers and arrays */
	double chain_s;		/* linking chases' chains */
	double pass_s;		/* the chases' warm and idle passes */
	double setup_s;		/* threads, timers, host-state probes */
	double work_s;		/* the timed runs and windows, remeasures in */
	double settle_s;	/* warm windows, aggressors' settling */
};

/* The parts' sum into c->est_s (NAN when one is) and c->from: the probe
 * (32 MiB on node) and each part, with what note says of the work. */
void mess_cost_set(struct mess_cost *c, const struct mess_cost_probe *p, int node,
		   const struct mess_cost_parts *s, const char *note);
/* Prints "mess matrix: 4 pairs x 3 repeats, about 40 s (from ...)" and
 * starts the clock. */
void mess_cost_begin(struct mess_cost *c, const char *cmd);
void mess_cost_end(struct mess_cost *c);
/* meta.json's: estimate_s, took_s (null until the end), estimate_from. */
json_t *mess_cost_json(const struct mess_cost *c);

#endif
