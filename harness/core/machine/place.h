/* SPDX-License-Identifier: MIT */
/*
 * A buffer's pages split over memory nodes in a ratio (--mem-node 0:3,2:1):
 * the kernel's weighted interleave where it has it and its system-wide
 * weights are in the ratio asked, else consecutive ranges of each buffer
 * bound to the nodes in turn.  Applied before the first touch; the pages
 * found on each node afterwards are counted with move_pages.
 */
#ifndef MESS_PLACE_H
#define MESS_PLACE_H

#include <stddef.h>
#include <stdint.h>

#include "mess/json.h"

#define MESS_PLACE_MAX 16
/* Bound ranges a buffer may take (each is a VMA: vm.max_map_count). */
#define MESS_PLACE_RANGES 4096
/* A split's pages further from a share asked (percentage points) put
 * the run's verdict to WARN. */
#define MESS_PLACE_OFF_POINTS 2.0
/* The kernel's weights (mm/mempolicy.c): 1..255. */
#define MESS_PLACE_WMAX 255

enum mess_place_method { MESS_PLACE_AUTO, MESS_PLACE_WEIGHTED, MESS_PLACE_RANGES_M };

struct mess_place {
	int n;
	int node[MESS_PLACE_MAX];
	unsigned weight[MESS_PLACE_MAX];
	/* /sys/kernel/mm/mempolicy/weighted_interleave/nodeN; sys_read 0:
	 * the kernel has no weighted interleave (no such directory). */
	int sys_read;
	int sys_weight[MESS_PLACE_MAX];	/* -1: not readable */
	enum mess_place_method method;	/* what is used, never AUTO */
	enum mess_place_method asked;
	char why[520];
	size_t max_ranges;	/* per buffer, MESS_PLACE_RANGES or fewer */
};

/* What move_pages found over every page of some buffers. */
struct mess_place_count {
	uint64_t pages[MESS_PLACE_MAX];	/* on node[i] */
	uint64_t other, absent, total;	/* another node, none, all */
	int err;			/* move_pages' -errno, 0 */
};

/* "auto", "weighted" or "ranges" into *m; -EINVAL otherwise. */
int mess_place_method_parse(const char *s, enum mess_place_method *m);
const char *mess_place_method_name(enum mess_place_method m);
/*
 * Choose the method for pl's nodes and weights (asked: AUTO, WEIGHTED or
 * RANGES_M), reading the system's weights; pl->why says why.  0, or
 * -EOPNOTSUPP with err the one line when weighted was asked and cannot
 * be used here.
 */
int mess_place_choose(struct mess_place *pl, enum mess_place_method asked,
		      char *err, size_t errlen);
/* Whether sys (n weights) is in the ratio of want: every pair's cross
 * products equal. */
int mess_place_proportional(const unsigned *want, const int *sys, int n);
/* The stripe of a len-byte buffer of unit-byte pages under ranges: whole
 * units, so that it takes at most pl->max_ranges ranges. */
size_t mess_place_stripe(const struct mess_place *pl, size_t len, size_t unit);
/*
 * Set the policy of [p, p + len) (unit: its page size, a multiple of
 * which every range is) before its first touch.  0 or -errno.
 */
int mess_place_apply(const struct mess_place *pl, void *p, size_t len, size_t unit);
/* Add where every page of [p, p + len) is now into c (move_pages, query). */
void mess_place_count(const struct mess_place *pl, const void *p, size_t len,
		      struct mess_place_count *c);
/* The largest |share found - share asked| over the nodes, in percentage
 * points; NAN when nothing was counted. */
double mess_place_deviation(const struct mess_place *pl, const struct mess_place_count *c);
/* meta.json's memory_node_choice.placement. */
json_t *mess_place_json(const struct mess_place *pl, size_t stripe_chase,
			size_t stripe_gen, const struct mess_place_count *chase,
			const struct mess_place_count *gens);

#endif
