// SPDX-License-Identifier: MIT
/*
 * The matrix's unloaded latency: the curves' own chase (kernels/asm/<isa>/
 * chase.S over core/measure/chain), so that a pair's figure and the curves'
 * unloaded latency on the same node are one measurement.  Lines MESS_CHAIN_STRIDE
 * apart (no adjacent-line prefetch serves a load) in random order inside
 * MESS_CHAIN_WINDOW windows (one huge page: one TLB entry, so no page walk), the
 * windows in random order: what the curves' --stride and --window default
 * to.  lmbench's lat_mem_rd (64 B, random over the whole buffer, which the
 * ladder keeps) read 198 ns here on a 16-vCPU Emerald Rapids guest where
 * the curves read 121 ns: its page walks, not the memory.
 */
#include "matrix/matrix.h"

#include <errno.h>
#include <math.h>

#include "core/clock.h"
#include "core/measure/chain.h"
#include "core/signals.h"
#include "core/util.h"
#include "mess_kernels.h"

#define MX_SEED 1

/* ns a load of iters unrolled iterations from *p. */
static double chase_ns(void **p, uint64_t iters)
{
	double t0 = mess_now_ns();

	*p = mess_chase(*p, iters);
	return (mess_now_ns() - t0) / (double)(iters * MESS_CHASE_UNROLL);
}

int mess_mx_latency(void *buf, size_t bytes, double run_ms, unsigned repeats,
		    double *lat, unsigned *done, struct mess_mx_cell *c)
{
	uint32_t n = (uint32_t)(bytes / MESS_CHAIN_STRIDE);
	uint64_t iters = 1;
	unsigned long k = 0;
	unsigned *gone = &c->lat_impossible;
	void *p;
	int err, tries = 0;
	double x, floor_ns;

	*done = *gone = 0;
	if (n < MESS_CHAIN_WINDOW / MESS_CHAIN_STRIDE)
		return -EINVAL;
	/* On the chase core, before its buffer is chased: its own L1 hit. */
	floor_ns = c->lat_floor_ns = mess_l1_floor(mess_l1_hit_ns(MX_SEED),
						   c->lat_floor_src,
						   sizeof(c->lat_floor_src));
	p = mess_chain_make(buf, MESS_CHAIN_STRIDE, n,
			    MESS_CHAIN_WINDOW / MESS_CHAIN_STRIDE, MX_SEED, &err);
	if (err)
		return err;
	/* One pass to warm (the caches' and TLB's first misses), then runs
	 * of about run_ms each, their length found by growing one. */
	chase_ns(&p, n / MESS_CHASE_UNROLL + 1);
	/* A reading faster than an L1 hit sizes nothing (0.67 ns once
	 * stretched an interfere row 30x): read again, a few times. */
	for (;;) {
		x = chase_ns(&p, iters);
		if (x < floor_ns && tries++ < 8)
			continue;
		if (!(x * (double)(iters * MESS_CHASE_UNROLL) < run_ms * 1e6 / 16) ||
		    iters >= (1u << 30))
			break;
		iters *= 4;
	}
	iters = (uint64_t)fmax(1, iters * 16.0);
	/* An impossible run is discarded, counted and run again, up to as
	 * many again as the repeats; never a figure. */
	while (*done < repeats && *gone <= repeats) {
		if (mess_interrupted)
			return -EINTR;
		x = chase_ns(&p, iters);
		if (mess_fault_impossible(++k))
			x = 0.67;
		if (x < floor_ns)
			++*gone;
		else
			lat[(*done)++] = x;
	}
	/* Keep the compiler from dropping the chase: p is its result. */
	__asm__ volatile("" : : "r"(p) : "memory");
	return 0;
}
