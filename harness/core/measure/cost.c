// SPDX-License-Identifier: MIT
#include "core/measure/cost.h"

#include <math.h>
#include <stdio.h>

#include "core/clock.h"
#include "core/machine/mem.h"
#include "core/measure/chain.h"
#include "core/measure/pool.h"
#include "mess/stats.h"
#include "mess_kernels.h"

#define PROBE_BYTES (32UL << 20)

/* The median of three populations, all kept until the last (pages one
 * frees may be the next one's, already backed by a virtual machine's
 * host): one stalled says little of the run's gigabytes (300 ms for
 * 32 MiB once on a shared guest: 38 s estimated for a 5.6 s matrix). */
#define TOUCHES 3

static void probe(int node, struct mess_cost_probe *p)
{
	uint32_t lines = PROBE_BYTES / MESS_CHAIN_STRIDE;
	double ns[TOUCHES], t0, t1;
	struct mess_buf b[TOUCHES] = { 0 };
	void *c;
	int err = 0, k;

	p->touch_ns_b = p->chain_ns_line = p->pass_ns_line = NAN;
	for (k = 0; k < TOUCHES && !err; k++) {
		t0 = mess_now_ns();
		err = mess_buf_alloc(&b[k], PROBE_BYTES, node, 1);
		ns[k] = (mess_now_ns() - t0) / PROBE_BYTES;
	}
	if (!err) {
		p->touch_ns_b = mess_median(ns, TOUCHES);
		t0 = mess_now_ns();
		c = mess_chain_make(b[0].p, MESS_CHAIN_STRIDE, lines,
				    MESS_CHAIN_WINDOW / MESS_CHAIN_STRIDE, 1, &err);
		t1 = mess_now_ns();
		if (!err) {
			p->chain_ns_line = (t1 - t0) / lines;
			c = mess_chase(c, lines / MESS_CHASE_UNROLL);
			p->pass_ns_line = (mess_now_ns() - t1) / lines;
			/* Keep the compiler from dropping the chase. */
			__asm__ volatile("" : : "r"(c) : "memory");
		}
	}
	while (k--)
		mess_buf_free(&b[k]);
}

struct job {
	int node;
	struct mess_cost_probe *p;
};

static void job(struct mess_pool_thread *t, void *arg)
{
	struct job *j = arg;

	probe(j->node, j->p);
}

void mess_cost_probe(struct mess_topo *topo, int core, int node,
		     struct mess_cost_probe *p)
{
	struct mess_pool pool = { 0 };
	struct job j = { node, p };

	if (mess_pool_start(&pool, topo, &core, 1) || mess_pool_call(&pool, 1, job, &j))
		probe(node, p);
	mess_pool_stop(&pool);
}

void mess_cost_set(struct mess_cost *c, const struct mess_cost_probe *p, int node,
		   const struct mess_cost_parts *s, const char *note)
{
	c->est_s = s->touch_s + s->chain_s + s->pass_s + s->setup_s + s->work_s +
		   s->settle_s;
	snprintf(c->from, sizeof(c->from),
		 "from this machine's first windows: 32 MiB populated on node %d at %.2f ns/B, its chain linked at %.0f ns a line and passed at %.0f; counted: populating %.1f s, chains %.1f s, warm passes %.1f s, threads and probes %.1f s, %s %.1f s, settling %.1f s",
		 node, p->touch_ns_b, p->chain_ns_line, p->pass_ns_line, s->touch_s,
		 s->chain_s, s->pass_s, s->setup_s, note, s->work_s, s->settle_s);
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
