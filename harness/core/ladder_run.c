// SPDX-License-Identifier: MIT
/*
 * The latency ladder's measurement: per size, one random cycle over the
 * buffer's first `size` bytes, one lap to warm it (capped: at memory sizes
 * a lap is seconds and warms nothing), then timed runs of the clean
 * lat_mem_rd chase.
 */
#include "core/ladder_run.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>

#include "ckernels.h"
#include "core/clock.h"
#include "core/signals.h"
#include "mess/ladder.h"
#include "mess/stats.h"

#define LADDER_SEED 7
#define MAX_REPEATS 64
/* Warm-up loads at most: 100 ms at memory latency. */
#define WARM_MAX (1u << 20)

static double chase_ns(void **p, uint64_t loads)
{
	double t0 = mess_now_ns();

	*p = mess_latmemrd[MESS_NOISE_MODE_none](*p, loads, NULL);
	return mess_now_ns() - t0;
}

static int measure_size(const struct mess_ladder_opts *o, void *base,
			struct mess_ladder_pt *pt)
{
	double t[MAX_REPEATS], el;
	uint64_t lines = pt->size / o->stride, loads = 256;
	void *p;
	int err = mess_latmemrd_chain(base, pt->size, o->stride,
				      MESS_LATMEMRD_RANDOM, LADDER_SEED, &p);

	if (err)
		return err;
	chase_ns(&p, lines < WARM_MAX ? lines : WARM_MAX);
	/* Loads per run: grown until a run is long enough to time. */
	while ((el = chase_ns(&p, loads)) < o->run_ms * 1e6 / 16 &&
	       loads < (1ULL << 40) && !mess_interrupted)
		loads *= 4;
	loads = (uint64_t)fmax(256, loads * o->run_ms * 1e6 / fmax(el, 1));
	for (unsigned i = 0; i < o->repeats; i++) {
		if (mess_interrupted)
			return -EINTR;
		t[i] = chase_ns(&p, loads) / (double)loads;
	}
	pt->spread_ns = mess_mad_sd(t, o->repeats, &pt->lat_ns);
	pt->repeats = o->repeats;
	pt->loads = loads;
	/* Keep the compiler from dropping the chase: p is the result. */
	__asm__ volatile("" : : "r"(p) : "memory");
	return 0;
}

int mess_ladder_measure(const struct mess_ladder_opts *o,
			struct mess_ladder_pt *pts, size_t max, size_t *n,
			struct mess_buf *buf)
{
	uint64_t sizes[128];
	int ns = mess_ladder_sizes(o->lo, o->hi, o->stride, sizes, 128);
	int err;

	*n = 0;
	if (ns <= 0 || !o->repeats || o->repeats > MAX_REPEATS)
		return -EINVAL;
	if ((size_t)ns > max)
		return -ENOSPC;
	err = mess_buf_alloc(buf, sizes[ns - 1], o->node, 1);
	if (err)
		return err;
	for (int i = 0; i < ns; i++) {
		pts[i] = (struct mess_ladder_pt){ .size = sizes[i] };
		err = measure_size(o, buf->p, &pts[i]);
		if (err)
			return err;
		*n = (size_t)i + 1;
		fprintf(stderr, "absorb: ladder [%d/%d] %llu KiB: %.2f ns/load (spread %.2g)\n",
			i + 1, ns, (unsigned long long)(sizes[i] >> 10),
			pts[i].lat_ns, pts[i].spread_ns);
	}
	return 0;
}
