/* SPDX-License-Identifier: MIT */
/*
 * A fleet: the same measurement on many nodes, compared node against node.
 * The maths of `mess fleet`, with no file read or written here:
 *
 *  - groups: nodes whose configuration keys are equal (same CPU model,
 *    memory configuration, ...), numbered by decreasing size;
 *  - robust z-score of a node's metric within its group:
 *        z = (x - median) / scale,
 *        scale = max(MESS_MAD_TO_SD x MAD, min_rel x |median|)
 *    where median and MAD (median absolute deviation from the median) are
 *    taken over the group's nodes that have the metric.  1.4826 x MAD
 *    estimates the standard deviation of normal data, so z reads as one
 *    (Iglewicz and Hoaglin's modified z-score; they flag |z| > 3.5).  The
 *    floor min_rel x |median| keeps a fleet of near-identical nodes (MAD
 *    near 0) from flagging differences below the repeatability of the
 *    measurement;
 *  - the median family: per curve, every node's curve read at the same
 *    fraction u of its own maximum bandwidth (the curve model's rule between
 *    read shares, mess/model.h), the median over the nodes at each u.
 */
#ifndef MESS_FLEET_H
#define MESS_FLEET_H

#include <stddef.h>

#include "mess/model.h"

/* Flag a node beyond this many robust standard deviations (--mad). */
#define MESS_FLEET_MAD_DEFAULT 3.5
/* Below this many nodes with a metric, a group has no robust centre. */
#define MESS_FLEET_MIN_NODES 3
/* The scale is at least this share of the median (repeatability of a
 * mess measurement on one node is of the order of 1 %). */
#define MESS_FLEET_MIN_SCALE_REL 0.01
/* A group number for "no group". */
#define MESS_FLEET_NO_GROUP ((size_t)-1)

/*
 * Median and robust scale of the finite values of v[0..n) (any n; v is
 * not modified).  Returns how many values were finite (>= 0): with none,
 * *median and *scale are NAN.  -ENOMEM.
 */
int mess_fleet_robust(const double *v, size_t n, double min_rel,
		      double *median, double *scale);

/* (x - median) / scale; NAN when any is not finite or scale is not > 0. */
double mess_fleet_z(double x, double median, double scale);

/*
 * Groups of equal keys: group[i] in 0..*ngroups-1, group 0 the largest,
 * ties by first appearance; keys[i] NULL: group[i] = MESS_FLEET_NO_GROUP.
 * 0 or -ENOMEM.
 */
int mess_fleet_group(const char *const *keys, size_t n, size_t *group,
		     size_t *ngroups);

/*
 * Robust z-scores of a table of n nodes by m metrics, x[i * m + j] (NAN:
 * the node has no usable value).  Per group g and metric j, the median and
 * scale over the nodes of g with a finite value, when there are at least
 * min_nodes of them; z[i * m + j] is NAN where there is no value or no
 * centre.  med and scale (ngroups x m, may be NULL) receive the centres
 * (NAN where none).  0 or -ENOMEM.
 */
int mess_fleet_zscores(const double *x, size_t n, size_t m,
		       const size_t *group, size_t ngroups, size_t min_nodes,
		       double min_rel, double *z, double *med, double *scale);

/*
 * The median of n curves, one per node: node i's curve is its model m[i]
 * at read share read_pct[i].  With B_i the curve's maximum bandwidth and
 * L_i(b) the model's latency, for k = 1..steps, u = k / steps:
 *     bw[k-1]     = u x median_i(B_i)
 *     lat[k-1]    = median_i L_i(u x B_i)
 *     spread[k-1] = MESS_MAD_TO_SD x MAD_i L_i(u x B_i)   (may be NULL)
 * Nodes whose model has no answer there are left out of that step.
 * Returns the number of nodes used (0: every output NAN), -EINVAL (steps
 * 0) or -ENOMEM.
 */
int mess_fleet_median_curve(const struct mess_model *const *m,
			    const double *read_pct, size_t n, size_t steps,
			    double *bw, double *lat, double *spread);

#endif
