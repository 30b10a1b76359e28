/* SPDX-License-Identifier: MIT */
/*
 * The statistics every measurement reports: median, a spread robust to one
 * disturbed repeat (scaled median absolute deviation) and the sample
 * standard deviation.  Pure functions; only mess_quantile allocates.
 */
#ifndef MESS_STATS_H
#define MESS_STATS_H

#include <stddef.h>

/* A MAD of normally distributed values times this estimates their sd. */
#define MESS_MAD_TO_SD 1.4826

/* Median of v[0..n), n > 0; sorts v in place. */
double mess_median(double *v, size_t n);
/* The q-quantile (nearest rank) of v[0..n), v left unchanged; NAN when n
 * is 0 or no memory for its sorted copy. */
double mess_quantile(const double *v, size_t n, double q);
/* The median of the finite values of v[0..n), v left unchanged; NAN when
 * none is or no memory for their copy.  *used (may be NULL) gets how many
 * were finite. */
double mess_median_finite(const double *v, size_t n, size_t *used);
/*
 * MESS_MAD_TO_SD x the median absolute deviation of v[0..n) from its
 * median, n > 0, n <= 256; v is left unchanged.  *median (may be NULL)
 * gets the median.
 */
double mess_mad_sd(const double *v, unsigned n, double *median);
/* Sample standard deviation (n - 1); 0 when n < 2. */
double mess_stddev(const double *v, unsigned n);
/* Jain's fairness index of shares x[0..n): (sum x)^2 / (n sum x^2), 1 when
 * all are equal, 1/n when one has everything; NAN when n is 0 or all 0. */
double mess_jain(const double *x, unsigned n);

/* Whether the sorted latencies of n repeats are too wide around their
 * median: max - min for up to five, from the second lowest to the second
 * highest from six on (about a 95 % interval of the median at n = 9), over
 * max_rel of the median. */
int mess_spread_bad(const double *sorted, unsigned n, double median,
		    double max_rel);

/* Append x to the growing list *v of *n values (*cap its room; starts
 * NULL, 0, 0): 0, or -ENOMEM with the list as it was (x kept out). */
int mess_samples_push(double **v, size_t *n, size_t *cap, double x);
/* Room for one more than n items of size bytes in v (*cap items; NULL
 * and 0 at first, then first items, then twice as many each time): v or
 * where realloc moved it, or NULL with v and *cap as they were. */
void *mess_grow(void *v, size_t n, size_t *cap, size_t size, size_t first);

#endif
