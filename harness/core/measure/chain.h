/* SPDX-License-Identifier: MIT */
/* The pointer-chase chain: a single random cycle over the chased lines. */
#ifndef MESS_CHAIN_H
#define MESS_CHAIN_H

#include <stddef.h>
#include <stdint.h>

/* Reproducible chains from --seed (lib/base/rng.c). */
#include "mess/rng.h"

/* Sattolo's algorithm: next[] becomes one cycle through all n indices. */
void mess_sattolo(uint32_t *next, uint32_t n, struct mess_rng *r);

/*
 * Visit order of the chase: `order` receives all n line indices once.  With
 * per_window == 0 (or >= n) the order is one Sattolo cycle over every line
 * (fully random: TLB misses included).  Otherwise lines are grouped in
 * windows of per_window consecutive lines; the windows are visited in one
 * Sattolo cycle order and the lines of each window in random order, so the
 * chase stays inside one TLB-reach window before moving on.
 */
int mess_chain_order(uint32_t *order, uint32_t n, uint32_t per_window,
		     struct mess_rng *r);

/*
 * Write the chain into buf: line order[i] (at buf + order[i] * stride)
 * points to line order[i+1], the last back to the first.  Returns the
 * start address.
 */
void *mess_chain_link(void *buf, size_t stride, const uint32_t *order,
		      uint32_t n);

#endif
