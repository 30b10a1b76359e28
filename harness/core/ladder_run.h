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
#include <stdio.h>

#include "core/mem.h"
#include "core/topo.h"
#include "mess/json.h"
#include "mess/ladder.h"

#define MESS_LADDER_CSV "ladder.csv"
#define MESS_LADDER_HEADER "size_bytes,lat_ns,repeats,spread_ns,loads_per_run"
#define MESS_LADDER_MAX 128
#define MESS_LADDER_CACHES 8
/* A plateau: its window's spread, and its step over the level below. */
#define MESS_LADDER_FLAT_TOL 0.20

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

/*
 * A measured (or reloaded) ladder with its plateaus: what the files, the
 * Markdown section and the plot are written from.  Used by `mess ladder`
 * and by `mess absorb` whenever it runs lat_mem_rd.
 */
struct mess_ladder {
	struct mess_ladder_opts o;
	int core;		/* the core it runs on (hwloc logical) */
	uint64_t llc_bytes;
	struct mess_ladder_pt pts[MESS_LADDER_MAX];
	size_t n;
	struct mess_ladder_cache caches[MESS_LADDER_CACHES];
	size_t ncaches;
	struct mess_ladder_plateau plat[MESS_LADDER_CACHES + 1];
	int plat_ok;		/* plat[] holds ncaches + 1 levels */
	char hp[32];		/* huge pages obtained for the buffer */
	double huge_pct;
};

/*
 * The ladder of `core`: from well inside L1 to 4x the LLC (so that, in
 * random order, three loads in four miss it), the caches hwloc reports.
 */
void mess_ladder_init(struct mess_ladder *l, struct mess_topo *t, int core,
		      uint64_t stride, double run_ms, unsigned repeats,
		      int node);
/* Measure on the calling thread (pinned to l->core), then the plateaus:
 * 0, -EINTR, -ENOMEM, -EINVAL or -ENOSPC. */
int mess_ladder_run(struct mess_ladder *l);
/* ladder.csv of an earlier session back into l (hp and huge_pct are the
 * caller's to restore), plateaus found again: 0 or -errno. */
int mess_ladder_load(struct mess_ladder *l, const char *dir);
/* ladder.csv and summary.json (tmp + rename): 0 or -errno. */
int mess_ladder_write(const struct mess_ladder *l, const char *dir,
		      const char *cpu_model);
/* The Markdown section: table of plateaus and how to read it. */
void mess_ladder_md(const struct mess_ladder *l, FILE *f);
/* dir/plots/ladder.png and .svg from the run's ladder.csv: 0 or -errno
 * with err set. */
int mess_ladder_plot(const struct mess_ladder *l, const char *rundir,
		     const char *title, char *err, size_t errlen);
/* One stderr line per plateau. */
void mess_ladder_report(const struct mess_ladder *l, const char *who);

#endif
