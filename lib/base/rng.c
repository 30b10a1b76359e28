// SPDX-License-Identifier: MIT
#include "mess/rng.h"

#include <math.h>

static uint64_t rotl(uint64_t x, int k)
{
	return (x << k) | (x >> (64 - k));
}

void mess_rng_seed(struct mess_rng *r, uint64_t seed)
{
	for (int i = 0; i < 4; i++) {
		uint64_t z = (seed += 0x9e3779b97f4a7c15ULL);
		z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
		z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
		r->s[i] = z ^ (z >> 31);
	}
}

uint64_t mess_rng_next(struct mess_rng *r)
{
	uint64_t *s = r->s;
	uint64_t res = rotl(s[1] * 5, 7) * 9;
	uint64_t t = s[1] << 17;

	s[2] ^= s[0];
	s[3] ^= s[1];
	s[1] ^= s[2];
	s[0] ^= s[3];
	s[2] ^= t;
	s[3] = rotl(s[3], 45);
	return res;
}

uint64_t mess_rng_below(struct mess_rng *r, uint64_t n)
{
	/* Reject the top partial block so every residue is equally likely. */
	uint64_t lim = UINT64_MAX - UINT64_MAX % n;
	uint64_t x;

	do
		x = mess_rng_next(r);
	while (x >= lim);
	return x % n;
}

double mess_rng_unit(struct mess_rng *r)
{
	return (double)(mess_rng_next(r) >> 11) * 0x1.0p-53;
}

double mess_rng_normal(struct mess_rng *r)
{
	/* 1 - u is in (0, 1]: the log is finite. */
	double u = 1.0 - mess_rng_unit(r), v = mess_rng_unit(r);

	return sqrt(-2.0 * log(u)) * cos(2.0 * M_PI * v);
}
