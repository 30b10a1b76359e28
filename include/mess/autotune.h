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

/*
 * The knee rule: the next nop count halves (in log nop) the neighbours
 * whose chord strays furthest from the curve, as the points at its ends
 * sag off their own neighbours' chords beyond their noise (both axes
 * scaled to the curve's span), so points go where the curve bends: the
 * knee.  Returns 1 with *nop set, or 0 once the curve has `points`
 * points or no two neighbours can be told apart by a nop between them.
 */
int mess_autotune_knee(const struct mess_curve *c, double unloaded_ns,
		       unsigned points, uint64_t *nop);

#endif
