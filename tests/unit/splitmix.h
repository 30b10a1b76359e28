/* SPDX-License-Identifier: MIT */
/* Reproducible draws for the unit tests' synthetic machines: SplitMix64's
 * finaliser over a seed and a counter, and a uniform in (0, 1) from it
 * (53 bits, never 0: a log of it stays finite). */
#ifndef MESS_TEST_SPLITMIX_H
#define MESS_TEST_SPLITMIX_H

#include <stdint.h>

static inline uint64_t mix(uint64_t x)
{
	x += 0x9e3779b97f4a7c15ull;
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
	x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
	return x ^ (x >> 31);
}

static inline double unif(uint64_t h)
{
	return ((h >> 11) + 0.5) / 9007199254740992.0;
}

#endif
