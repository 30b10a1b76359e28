/* SPDX-License-Identifier: MIT */
/*
 * The memory stress score of an application's point on a bandwidth-latency
 * curve.  The Mess paper (Esmaili-Dokht et al., MICRO 2024, section VI-B)
 * defines it as "a weighted sum of the memory latency and the curve
 * inclination", from 0 for the unloaded memory system to 1 at the
 * right-most area of the curves, and gives neither the weights nor the
 * normalisation.  Those come from the Mess authors' implementation of the
 * score in PROFET (github.com/bsc-mem/PROFET, profet/curves.py,
 * Curve.get_stress_score), whose formula this is:
 *
 *   score = 0.8 * (L - L0) / (Lmax - L0) + 0.2 * angle / 90
 *
 * over the curve's points sorted by bandwidth, the saturated points past
 * the maximum included, where
 *   L      the latency at the point's bandwidth, linear between the points
 *          around it (the first point's latency below the first point);
 *   L0     the lowest-bandwidth point's latency (lead-off latency);
 *   Lmax   the curve's highest latency;
 *   angle  atan2(latency rise, bandwidth rise) of the segment holding the
 *          bandwidth, in degrees (0 below the first point), bandwidth in
 *          GB/s and latency in CPU cycles.
 * A falling segment (the saturated "wave") gives a negative angle, so the
 * score can leave 0..1 a little, as PROFET's does.  It is 0 at bandwidth
 * 0 and not defined at or beyond the curve's highest bandwidth (PROFET
 * returns none there).
 */
#ifndef MESS_STRESS_H
#define MESS_STRESS_H

#include "mess/curve.h"

#define MESS_STRESS_LAT_WEIGHT 0.8	/* PROFET's lat_factor */

/*
 * The score of bandwidth bw_gbs on curve c (its usable points).  The
 * angle depends on the latency unit: cycles_per_ns turns the curve's ns
 * into PROFET's cycles (the CPU frequency in GHz); 1 keeps ns.
 * 0; -EDOM when the score is not defined there (at or beyond the highest
 * bandwidth, a curve whose latency does not rise, no usable point);
 * -EINVAL (bw_gbs < 0 or not finite, cycles_per_ns <= 0); -ENOMEM.
 */
int mess_stress_score(const struct mess_curve *c, double bw_gbs,
		      double cycles_per_ns, double *score);

#endif
