/* SPDX-License-Identifier: MIT */
/*
 * Mess's own grouping of a raw tree's repetitions (include/mess/messraw.h,
 * processing "mess"), as its public processing does it (Mess-2.0
 * utils/libs/processor.py calculate_mean_curves, mode "perread", step 1,
 * then filter_incomplete_ratios):
 *   - every bandwidth repetition is keyed by its own measured read share,
 *     rounded to a whole percent (half to even, as numpy rounds), 0..100;
 *   - a file's latency repetitions go to every key its bandwidth
 *     repetitions took (Mess merges them on the file's R and pause);
 *   - one point per (key, pause): the mean and sample standard deviation
 *     of the bandwidth repetitions and of the latency repetitions there,
 *     the mean measured share; a key with no latency there has no point;
 *   - a key with fewer points than 0.6 x the mean over the keys is left
 *     out.
 * What Mess-Results' processed/ files add on top (a 0 GB/s first row, a
 * thinned subset of the points) is not reproduced: the points are the
 * groups' own means.
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

/*
 * The groups of r, in file order, into f: one curve per kept key
 * (store_pct 100 - key), a point per (key, pause), *points how many,
 * *keys_left_out the keys filter_incomplete_ratios drops.  0 or -ENOMEM.
 */
int mess_raw_group(const struct mess_raw_reps *r, struct mess_family *f,
		   size_t *points, size_t *keys_left_out);

/* The mean, NAN for none; the sample standard deviation (n - 1, as
 * pandas), NAN below 2. */
double mess_raw_mean(const double *v, size_t n);
double mess_raw_sd(const double *v, size_t n);

#endif
