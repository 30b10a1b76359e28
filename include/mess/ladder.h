/* SPDX-License-Identifier: MIT */
/*
 * Latency ladder (lmbench lat_mem_rd): the load-to-use latency of a
 * dependent random chase over buffers of growing size.  Each cache level
 * shows as a plateau and memory as the last one.  These pure functions
 * (no I/O, no allocation) choose the ladder's sizes and read each level's
 * plateau back from a measured ladder, given the cache sizes that hwloc
 * reports, so that a report can say "L2: 4.1 ns, 2 MiB measured".
 */
#ifndef MESS_LADDER_H
#define MESS_LADDER_H

#include <stddef.h>
#include <stdint.h>

#include "mess/quality.h"

/*
 * What a plateau is, worst last: each with the verdict level it gives
 * (mess_ladder_verdict) and one line for people.  A level both not flat
 * and out of order takes the order's status; `flat` says the other.
 */
enum mess_ladder_status {
	MESS_LADDER_OK,
	MESS_LADDER_EMPTY,	/* no ladder size in its window */
	MESS_LADDER_NOT_FLAT,	/* its sizes spread by more than flat_tol */
	MESS_LADDER_NOT_ABOVE,	/* within flat_tol of the level below */
	MESS_LADDER_BELOW,	/* faster than the level below by more */
	MESS_LADDER_NSTATUS
};

struct mess_ladder_status_def {
	const char *name;	/* summary.json `status` */
	enum mess_level level;	/* what it does to a run's verdict */
	const char *rule;	/* the verdict's rule id */
};
extern const struct mess_ladder_status_def mess_ladder_statuses[MESS_LADDER_NSTATUS];

/* A data or unified cache one core sees. */
struct mess_ladder_cache {
	int level;		/* 1, 2, 3 ... */
	uint64_t bytes;		/* > 0, strictly ascending along the array */
};

struct mess_ladder_plateau {
	int level;		/* the cache's level; 0 = memory */
	uint64_t cap_bytes;	/* the cache's size from hwloc; 0 for memory */
	/*
	 * Buffer sizes used, bytes, inclusive.  Memory's window has no upper
	 * bound: hi is the ladder's largest size (lo > hi when the ladder
	 * stops short of the window).
	 */
	uint64_t lo, hi;
	unsigned npts;		/* ladder points in the window */
	double lat_ns;		/* their median latency; NAN if npts == 0 */
	double spread;		/* (max - min) / median; NAN if npts == 0 */
	/*
	 * Measured capacity: the largest size between this window and the
	 * next level's whose latency is still nearer to this level (at most
	 * the geometric mean of the two medians).  0 when not found, the next
	 * level has no points, or this is memory.
	 */
	uint64_t edge_bytes;
	enum mess_ladder_status st;
	const char *status;	/* mess_ladder_statuses[st].name */
	int flat;		/* spread within flat_tol: drawn as a plateau */
};

/*
 * Plateaus of a measured ladder: sizes[] strictly ascending (bytes), lat[]
 * their latencies (ns, finite, > 0), n >= 1.  caches[] ascending (ncaches
 * may be 0: memory only).  flat_tol (>= 0) is the relative spread a window
 * may have and the relative step a level must make over the one below.
 * out[] gets ncaches + 1 entries: the caches in order, then memory.
 * Returns 0 or -EINVAL.
 */
int mess_ladder_plateaus(const uint64_t *sizes, const double *lat, size_t n,
			 const struct mess_ladder_cache *caches, size_t ncaches,
			 double flat_tol, struct mess_ladder_plateau *out);

/*
 * The reasons a ladder's plateaus give a verdict (out[] of
 * mess_ladder_plateaus, n = ncaches + 1): the levels not flat named in one
 * warning, each level out of order (not above the level below: a warning;
 * faster than it: invalid, a larger buffer cannot be faster in a random
 * chase), levels without a size noted.  lv (n entries, may be NULL) gets
 * each level's own verdict level.
 */
void mess_ladder_verdict(const struct mess_ladder_plateau *p, size_t n,
			 double flat_tol, struct mess_verdict *v,
			 enum mess_level *lv);
/* "L2" or "memory" into buf; returns buf. */
const char *mess_ladder_level_name(const struct mess_ladder_plateau *p,
				   char *buf, size_t len);

/*
 * The ladder's sizes, lmbench's way: lo, 1.5 lo, 2 lo, 3 lo, 4 lo ... and
 * hi last, each rounded down to a multiple of align (duplicates dropped).
 * Needs align >= 1, align <= lo <= hi.  out may be NULL with max 0 to count.
 * Returns the count, -EINVAL, or -ENOSPC when more than max sizes are due:
 * a truncated ladder would silently lose its memory plateau.
 */
int mess_ladder_sizes(uint64_t lo, uint64_t hi, uint64_t align,
		      uint64_t *out, size_t max);

#endif
