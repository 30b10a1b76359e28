/* SPDX-License-Identifier: MIT */
/*
 * The lat_mem_rd latency ladder (lmbench's size sweep): dependent loads
 * over buffers from a few KiB to several times the LLC, one time per load
 * and size; ladder.h finds the cache and memory plateaus in it.
 */
#ifndef MESS_LADDER_RUN_H
#define MESS_LADDER_RUN_H

#include <stddef.h>
#include <stdint.h>

#include "core/mem.h"

struct mess_ladder_opts {
	uint64_t lo, hi;	/* smallest and largest buffer, bytes */
	uint64_t stride;	/* bytes between the chased pointers */
	double run_ms;		/* one timed run */
	unsigned repeats;
	int node;		/* NUMA node of the buffer, -1 default */
};

struct mess_ladder_pt {
	uint64_t size;
	double lat_ns;		/* median over the repeats, ns per load */
	double spread_ns;	/* 1.4826 x median absolute deviation */
	unsigned repeats;
	uint64_t loads;		/* per timed run */
};

/*
 * Measure the ladder on the calling thread (pin it first): one buffer of
 * o->hi bytes, huge pages requested (what was obtained is left in *buf for
 * the caller to report; free it with mess_buf_free), one random cycle
 * (Sattolo) over the first `size` bytes per size, so that neither a
 * stride prefetcher nor the order of the lines hides the latency.  Sizes
 * from mess_ladder_sizes; progress on stderr.  0, -EINTR, -ENOMEM,
 * -EINVAL or -ENOSPC (more sizes than max).
 */
int mess_ladder_measure(const struct mess_ladder_opts *o,
			struct mess_ladder_pt *pts, size_t max, size_t *n,
			struct mess_buf *buf);

#endif
