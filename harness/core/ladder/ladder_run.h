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

#include "core/measure/disturb.h"
#include "core/machine/mem.h"
#include "core/measure/pool.h"
#include "core/machine/topo.h"
#include "mess/json.h"
#include "mess/ladder.h"

#define MESS_LADDER_CSV "ladder.csv"
/* The first five columns are schema 1's. */
#define MESS_LADDER_HEADER "size_bytes,lat_ns,repeats,spread_ns,loads_per_run," \
	"disturbed,disturbed_kept,lost_pct,steal_ms"
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
	/*
	 * Its timed runs found disturbed (a run is a window: more than
	 * MESS_LOST_MAX_PCT of it lost, core/measure/disturb.h), each measured again
	 * while no more than `repeats` were; those kept when the bound was
	 * reached; over the kept runs, the most the thread lost (%, NAN: not
	 * looked at) and the steal on its CPU (ms, NAN: unknown).
	 */
	unsigned disturbed, kept;
	double lost_pct, steal_ms;
};

/*
 * One size of it: the chase over the first pt->size bytes of base (which
 * it links into one random cycle), warmed, then o->repeats timed runs of
 * o->run_ms; median, spread, loads and the disturbed runs into *pt.  The
 * matrix's unloaded latency is this point at a memory size.  0, -EINTR or
 * the chain's -errno.
 */
int mess_ladder_point(const struct mess_ladder_opts *o, void *base,
		      struct mess_ladder_pt *pt, struct mess_disturb *d);

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
	/* What disturbed its runs (mess_ladder_watch); dist_on 0: not
	 * looked at, and the ladder says so. */
	struct mess_disturb dist;
	int dist_on;
};

/*
 * The ladder of `core`: from well inside L1 to 4x the LLC (so that, in
 * random order, three loads in four miss it), the caches hwloc reports.
 */
void mess_ladder_init(struct mess_ladder *l, struct mess_topo *t, int core,
		      uint64_t stride, double run_ms, unsigned repeats,
		      int node);
/*
 * Watch the runs for disturbance: the ladder will run on thread 0 of p
 * (pinned to OS CPU pus[0]).  0 or -errno (the ladder then runs
 * unwatched and says so); mess_ladder_fini closes it.
 */
int mess_ladder_watch(struct mess_ladder *l, const struct mess_pool *p,
		      const int *pus);
void mess_ladder_fini(struct mess_ladder *l);
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

/* ---- whether to trust it (ladder_files.c) ---- */

/*
 * Its reasons, added to v: the plateaus' (mess_ladder_verdict), the
 * disturbed runs kept (a warning), or a ladder that could not be read
 * into plateaus (invalid).  lv (ncaches + 1 entries, may be NULL): each
 * level's own level, a warning too where its window kept a disturbed run.
 */
void mess_ladder_judge(const struct mess_ladder *l, struct mess_verdict *v,
		       enum mess_level *lv);
/* meta.json `quality` beside the verdict: per level, and the runs. */
json_t *mess_ladder_quality_json(const struct mess_ladder *l,
				 const struct mess_verdict *v, int strict);

#endif
