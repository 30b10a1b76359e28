/* SPDX-License-Identifier: MIT */
/* Where the sweep measures next: the refinement step of the autotuner. */
#ifndef MESS_AUTOTUNE_H
#define MESS_AUTOTUNE_H

#include <stdint.h>

#include "mess/curve.h"

/*
 * Given the points of one curve so far, choose the next nop count: the
 * midpoint (in log nop) of the neighbours furthest apart in bandwidth or
 * latency.  Returns 1 with *nop set, or 0 once the curve has at least
 * `points` points and no large gap (or points + 3 points, the cap).
 */
int mess_autotune_next(const struct mess_curve *c, double unloaded_ns,
		       unsigned points, uint64_t *nop);

#endif
