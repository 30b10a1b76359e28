// SPDX-License-Identifier: MIT
/*
 * The host-state probes: the timed chase's fixed cost on an L1-resident
 * chain and the latency of an L2-resident one (see hoststate.h).
 */
#include "core/measure/hoststate.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "core/measure/chain.h"
#include "mess/hist.h"
#include "mess/stats.h"
#include "mess_kernels.h"

#define HUGE_BYTES (2u << 20)

static double median_of(const double *v, size_t n)
{
	double *c, m;

	if (!n || !(c = malloc(n * sizeof(*c))))
		return NAN;
	memcpy(c, v, n * sizeof(*c));
	m = mess_median(c, n);
	free(c);
	return m;
}

double mess_hoststate_cost_median(const struct mess_hoststate *s)
{
	return median_of(s->costs, s->ncosts);
}

double mess_hoststate_l2_ref(const struct mess_hoststate *s)
{
	return mess_quantile(s->l2s, s->nl2s, 0.1);
}

/* The fixed cost, ns a batch: the timed chase's mean ticks a batch less n
 * times the untimed chase's ticks a load on the same L1 chain, each the
 * median of repeats (a timer interrupt moves one repeat only). */
static double cost(struct mess_hoststate *s, unsigned repeats, uint64_t batches,
		   uint64_t un_iters)
{
	double un[16], tb[16];
	struct mess_hist *h = (struct mess_hist *)s->bins;
	void *p = s->l1_p;

	if (repeats > 16)
		repeats = 16;
	for (unsigned k = 0; k < repeats; k++) {
		uint64_t a = mess_timer_now();

		p = mess_chase(p, un_iters);
		un[k] = (double)(mess_timer_now() - a) /
			(double)(un_iters * MESS_CHASE_UNROLL);
		memset(h, 0, sizeof(*h));
		p = mess_chase_timed(p, batches, s->n, h->bins);
		tb[k] = (double)h->sum / (double)batches;
	}
	s->l1_p = p;
	s->l1_ns = mess_median(un, repeats) * s->tick_ns;
	s->l1_batch_ticks = mess_median(tb, repeats);
	return (s->l1_batch_ticks - (double)s->n * mess_median(un, repeats)) *
	       s->tick_ns;
}

double mess_hoststate_cost(struct mess_hoststate *s)
{
	double c = cost(s, MESS_HOSTSTATE_COST_REPEATS,
			MESS_HOSTSTATE_COST_BATCHES, MESS_HOSTSTATE_COST_UN_ITERS);

	mess_samples_push(&s->costs, &s->ncosts, &s->capcosts, c);
	return c;
}

void mess_hoststate_l1_burst(struct mess_hoststate *s, uint64_t batches,
			     uint64_t *bins)
{
	/* One unrolled iteration is 1024 loads: 16 passes of the 64-line chain. */
	s->l1_p = mess_chase(s->l1_p, 1);
	s->l1_p = mess_chase_timed(s->l1_p, batches, s->n, bins);
}

double mess_hoststate_l1_ns(const struct mess_hoststate *s)
{
	return s->l1_ns;
}

double mess_hoststate_l2(struct mess_hoststate *s)
{
	double v[MESS_HOSTSTATE_L2_REPEATS], x;
	uint64_t iters;
	void *p = s->l2_p;

	if (!s->l2_lines)
		return NAN;
	/* Whole passes of the chain: a pass is at least one unrolled
	 * iteration (the chain holds a multiple of 1024 lines). */
	iters = s->l2_lines / MESS_CHASE_UNROLL;
	p = mess_chase(p, iters);	/* back into L2 */
	for (unsigned k = 0; k < MESS_HOSTSTATE_L2_REPEATS; k++) {
		uint64_t a = mess_timer_now();

		p = mess_chase(p, iters);
		v[k] = (double)(mess_timer_now() - a) * s->tick_ns /
		       (double)(iters * MESS_CHASE_UNROLL);
	}
	s->l2_p = p;
	x = mess_median(v, MESS_HOSTSTATE_L2_REPEATS);
	mess_samples_push(&s->l2s, &s->nl2s, &s->capl2s, x);
	return x;
}

void mess_hoststate_probe(struct mess_hoststate *s,
			  struct mess_hoststate_probe *p)
{
	p->l2_ns = mess_hoststate_l2(s);
	p->cost_ns = mess_hoststate_cost(s);
}

int mess_hoststate_apart(const struct mess_hoststate_probe *a,
			 const struct mess_hoststate_probe *b)
{
	/* NAN compares false: a figure not measured is not judged. */
	return fabs(a->cost_ns - b->cost_ns) > MESS_HOSTSTATE_COST_APART_NS ||
	       fabs(a->l2_ns - b->l2_ns) > MESS_HOSTSTATE_L2_APART_NS;
}

int mess_hoststate_open(struct mess_hoststate *s, double tick_ns, uint64_t n,
			size_t line, uint64_t l1_bytes, uint64_t l2_bytes,
			uint64_t seed, unsigned repeats, uint64_t batches)
{
	uint64_t want = l2_bytes ? l2_bytes / 4 : 128u << 10;
	int err;

	memset(s, 0, sizeof(*s));
	s->tick_ns = tick_ns;
	s->n = n ? n : 1;
	s->line = line = line ? line : 64;
	s->bins = calloc(1, sizeof(struct mess_hist));
	s->l1_buf = aligned_alloc(4096, MESS_HOSTSTATE_L1_LINES * line);
	if (!s->bins || !s->l1_buf) {
		mess_hoststate_close(s);
		return -ENOMEM;
	}
	s->l1_p = mess_chain_make(s->l1_buf, line, MESS_HOSTSTATE_L1_LINES, 0,
				  seed, &err);
	if (err) {
		mess_hoststate_close(s);
		return err;
	}
	s->l1_p = mess_chase(s->l1_p, 64);	/* warm */
	mess_samples_push(&s->costs, &s->ncosts, &s->capcosts,
			  cost(s, repeats, batches, 256));
	/* The L2 chain, whole unrolled iterations of lines, in one huge page
	 * where the kernel gives one (a 4 KiB page a 64 lines would add the
	 * TLB's misses to the L2's latency). */
	if (want > MESS_HOSTSTATE_L2_MAX)
		want = MESS_HOSTSTATE_L2_MAX;
	want = want / (MESS_CHASE_UNROLL * line) * (MESS_CHASE_UNROLL * line);
	if (want && (!l1_bytes || want >= 4 * l1_bytes)) {
		s->l2_buf = aligned_alloc(HUGE_BYTES, HUGE_BYTES);
		if (s->l2_buf) {
			madvise(s->l2_buf, HUGE_BYTES, MADV_HUGEPAGE);
			s->l2_p = mess_chain_make(s->l2_buf, line,
						  (uint32_t)(want / line), 0,
						  seed + 1, &err);
			if (s->l2_p)
				s->l2_lines = (uint32_t)(want / line);
		}
		mess_hoststate_l2(s);
	}
	return 0;
}

void mess_hoststate_close(struct mess_hoststate *s)
{
	free(s->bins);
	free(s->l1_buf);
	free(s->l2_buf);
	free(s->costs);
	free(s->l2s);
	memset(s, 0, sizeof(*s));
}
