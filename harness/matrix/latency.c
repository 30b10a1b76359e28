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
		    double *lat, unsigned *done)
{
	uint32_t n = (uint32_t)(bytes / MESS_CHAIN_STRIDE);
	uint64_t iters = 1;
	void *p;
	int err;

	*done = 0;
	if (n < MESS_CHAIN_WINDOW / MESS_CHAIN_STRIDE)
		return -EINVAL;
	p = mess_chain_make(buf, MESS_CHAIN_STRIDE, n,
			    MESS_CHAIN_WINDOW / MESS_CHAIN_STRIDE, MX_SEED, &err);
	if (err)
		return err;
	/* One pass to warm (the caches' and TLB's first misses), then runs
	 * of about run_ms each, their length found by growing one. */
	chase_ns(&p, n / MESS_CHASE_UNROLL + 1);
	while (chase_ns(&p, iters) * (double)(iters * MESS_CHASE_UNROLL) <
	       run_ms * 1e6 / 16 && iters < (1u << 30))
		iters *= 4;
	iters = (uint64_t)fmax(1, iters * 16.0);
	for (; *done < repeats; ++*done) {
		if (mess_interrupted)
			return -EINTR;
		lat[*done] = chase_ns(&p, iters);
	}
	/* Keep the compiler from dropping the chase: p is its result. */
	__asm__ volatile("" : : "r"(p) : "memory");
	return 0;
}
