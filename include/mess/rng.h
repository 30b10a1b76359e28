/* SPDX-License-Identifier: MIT */
/*
 * The one pseudo-random generator: xoshiro256** seeded by splitmix64, so a
 * seed gives the same chase chain (--seed) and the same replayed noise
 * (--replay-seed) on every machine and ISA.  Never for anything secret.
 */
#ifndef MESS_RNG_H
#define MESS_RNG_H

#include <stdint.h>

struct mess_rng {
	uint64_t s[4];
};

/* splitmix64 expands one seed into the four words of state. */
void mess_rng_seed(struct mess_rng *r, uint64_t seed);
uint64_t mess_rng_next(struct mess_rng *r);
/* Uniform in [0, n) without modulo bias; n > 0. */
uint64_t mess_rng_below(struct mess_rng *r, uint64_t n);
/* Uniform in [0, 1), 53 bits. */
double mess_rng_unit(struct mess_rng *r);
/* Standard normal (Box-Muller, one of the pair used). */
double mess_rng_normal(struct mess_rng *r);

#endif
