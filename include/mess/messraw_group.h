/* SPDX-License-Identifier: MIT */
/*
 * Mess's own processing of a raw tree's repetitions (include/mess/
 * messraw.h, processing "mess"), as its public processing does it
 * (Mess-2.0 utils/libs/processor.py calculate_mean_curves, mode "perread",
 * step 1):
 *   - every bandwidth repetition is keyed by its own measured read share,
 *     rounded to a whole percent (half to even, as numpy rounds), 0..100;
 *   - a file's latency repetitions go to every key its bandwidth
 *     repetitions took (Mess merges them on the file's R and pause);
 *   - one point per (key, pause): the mean and sample standard deviation
 *     of the bandwidth repetitions and of the latency repetitions there,
 *     the mean measured share; a key with no latency there has no point.
 * Then, as Mess-Results' processed/memory_curves.csv files are thinned
 * (the steps of Mess-2.0's plotting helpers filter_clustered_points, at
 * the 5 GB/s its combined figure passes, and is_valid_curve; the rule was
 * found on both raw trees of ../shared/reference, where it gives every
 * processed row and no other, share by share), per key:
 *   - the points in bandwidth order; Mess writes a first row at 0 GB/s
 *     with the key's least latency, a copy of its least-loaded point: here
 *     that point is kept as measured;
 *   - from there, a point is kept when its bandwidth is at least 5 GB/s
 *     above the last kept one's and its latency at least 5 % above it;
 *   - a key left with fewer than 5 points, or with a gap between kept
 *     neighbours (the first at 0 GB/s) over half its bandwidth span, is
 *     left out.
 * Mess's older filter_incomplete_ratios (a key with fewer points than 0.6
 * x the mean left out) is not applied: on the Grace tree it would leave
 * out 3 shares the processed file has.
 */
#ifndef MESS_MESSRAW_GROUP_H
#define MESS_MESSRAW_GROUP_H

#include <stddef.h>
#include <stdint.h>

#include "mess/curve.h"

/* One repetition of a point's file. */
struct mess_raw_rep {
	uint64_t pause;
	uint32_t file;		/* the point's file, in reading order */
	int is_lat;		/* 0: bandwidth, 1: latency repetition */
	double x, y;		/* bandwidth: GB/s, read share 0..1;
				 * latency: ns, the chase's GHz */
};

struct mess_raw_reps {
	struct mess_raw_rep *v;
	size_t n, cap;
};

/* Append one: 0 or -ENOMEM. */
int mess_raw_rep_add(struct mess_raw_reps *r, const struct mess_raw_rep *x);
void mess_raw_reps_free(struct mess_raw_reps *r);

/* What mess_raw_group made of the repetitions. */
struct mess_raw_group_counts {
	size_t groups;		/* (key, pause) points formed */
	size_t thinned;		/* of them, left out by the thinning */
	size_t shares_left_out;	/* keys left out by the check */
	size_t points;		/* written into the family */
};

/*
 * The groups of r into f: one curve per kept key (store_pct 100 - key), a
 * point per (key, pause); thinned and checked as Mess-Results' processed
 * files are when thin_as_mess, every group kept otherwise.  0 or -ENOMEM.
 */
int mess_raw_group(const struct mess_raw_reps *r, int thin_as_mess,
		   struct mess_family *f, struct mess_raw_group_counts *c);

/* The mean, NAN for none; the sample standard deviation (n - 1, as
 * pandas), NAN below 2. */
double mess_raw_mean(const double *v, size_t n);
double mess_raw_sd(const double *v, size_t n);

/*
 * p's read_bw_gbs and write_bw_gbs from its bw_gbs and read_pct: the
 * write share as bw x (100 - read_pct) / 100, so that 100 % reads write
 * exactly 0 (bw - bw x 100 / 100 is an ulp below 0 for about 7 % of
 * bandwidths: Mess-Results' AMD EPYC 7742 tree was refused for
 * -7.1e-15 GB/s); a share within MESS_RAW_LAST_BITS of bw below 0 is 0,
 * a larger one is left for mess_point_check to refuse.
 */
#define MESS_RAW_LAST_BITS 1e-12
void mess_raw_split(struct mess_point *p);

#endif
