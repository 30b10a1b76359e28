/* SPDX-License-Identifier: MIT */
/*
 * The figures of a sampling study (`mess sample`, after Miksits et al.,
 * "Multi-level memory-centric profiling on ARM processors", sections
 * IV-V): accuracy (eq. 1), overhead from unsampled/sampled pairs, and the
 * recommended period and aux buffer.  Pure maths.
 */
#ifndef MESS_SAMPLING_H
#define MESS_SAMPLING_H

#include <stddef.h>
#include <stdint.h>

/* 1 - |(counted - samples * period) / counted|; NAN when counted is 0. */
double mess_sampling_accuracy(double counted, uint64_t samples, double period);

/*
 * Overhead of n pairs (unsampled time base[i], then sampled time
 * with[i], back to back): each pair's with/base - 1; *median their median
 * and *spread their max - min.  0, or -EINVAL (n 0, a time not > 0).
 */
int mess_sampling_overhead(const double *base, const double *with, size_t n,
			   double *median, double *spread);

struct mess_sampling_point {
	uint64_t period, aux_pages;
	double accuracy, overhead;	/* NAN: not measured */
};

/*
 * The recommendation: the largest period whose accuracy reaches
 * min_accuracy with an overhead within budget (-1 when none), and the
 * smallest aux size whose accuracy is within 0.01 of the best (-1 when no
 * point has an accuracy).  Points of either sweep may be mixed: periods
 * are chosen among points with aux_pages == at_aux (0: any), aux sizes
 * among points with period == at_period (0: any).
 */
void mess_sampling_recommend(const struct mess_sampling_point *p, size_t n,
			     double min_accuracy, double budget,
			     uint64_t at_aux, uint64_t at_period,
			     int64_t *period, int64_t *aux_pages);

#endif
