// SPDX-License-Identifier: MIT
#include "core/measure/chain.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "core/clock.h"
#include "mess/stats.h"
#include "mess_kernels.h"

void mess_sattolo(uint32_t *next, uint32_t n, struct mess_rng *r)
{
	for (uint32_t i = 0; i < n; i++)
		next[i] = i;
	/* j < i (never j == i) is what makes the result a single cycle. */
	for (uint32_t i = n - 1; i > 0; i--) {
		uint32_t j = (uint32_t)mess_rng_below(r, i);
		uint32_t t = next[i];

		next[i] = next[j];
		next[j] = t;
	}
}

static void shuffle(uint32_t *a, uint32_t n, struct mess_rng *r)
{
	for (uint32_t i = n; i > 1; i--) {
		uint32_t j = (uint32_t)mess_rng_below(r, i);
		uint32_t t = a[i - 1];

		a[i - 1] = a[j];
		a[j] = t;
	}
}

int mess_chain_order(uint32_t *order, uint32_t n, uint32_t per_window,
		     struct mess_rng *r)
{
	uint32_t nwin, *wnext;

	if (!n)
		return -EINVAL;
	if (!per_window || per_window >= n)
		per_window = n;
	nwin = (n + per_window - 1) / per_window;
	wnext = malloc((size_t)nwin * sizeof(*wnext));
	if (!wnext)
		return -ENOMEM;
	mess_sattolo(wnext, nwin, r);

	/* With one window this reduces to a random cycle over all lines. */
	uint32_t w = 0, pos = 0;

	for (uint32_t k = 0; k < nwin; k++) {
		uint32_t first = w * per_window;
		uint32_t cnt = first + per_window <= n ? per_window : n - first;

		for (uint32_t i = 0; i < cnt; i++)
			order[pos + i] = first + i;
		shuffle(order + pos, cnt, r);
		pos += cnt;
		w = wnext[w];
	}
	free(wnext);
	return 0;
}

void *mess_chain_link(void *buf, size_t stride, const uint32_t *order,
		      uint32_t n)
{
	char *b = buf;

	for (uint32_t i = 0; i + 1 < n; i++)
		*(void **)(b + (size_t)order[i] * stride) =
			b + (size_t)order[i + 1] * stride;
	*(void **)(b + (size_t)order[n - 1] * stride) =
		b + (size_t)order[0] * stride;
	return b + (size_t)order[0] * stride;
}

void *mess_chain_make(void *buf, size_t stride, uint32_t n,
		      uint32_t per_window, uint64_t seed, int *err)
{
	uint32_t *order = malloc((size_t)n * sizeof(*order));
	struct mess_rng rng;
	void *p = NULL;

	*err = -ENOMEM;
	if (!order)
		return NULL;
	mess_rng_seed(&rng, seed);
	*err = mess_chain_order(order, n, per_window, &rng);
	if (!*err)
		p = mess_chain_link(buf, stride, order, n);
	free(order);
	return p;
}

#define L1_LINES 64
#define L1_LINE 64

double mess_l1_hit_ns(uint64_t seed)
{
	void *buf = aligned_alloc(4096, L1_LINES * L1_LINE), *p;
	double v[3];
	int err;

	if (!buf)
		return NAN;
	p = mess_chain_make(buf, L1_LINE, L1_LINES, 0, seed, &err);
	if (!p) {
		free(buf);
		return NAN;
	}
	p = mess_chase(p, 16);	/* into L1 */
	/* 64 unrolled iterations: 65536 loads, far above the clock's cost. */
	for (int k = 0; k < 3; k++) {
		double t0 = mess_now_ns();

		p = mess_chase(p, 64);
		v[k] = (mess_now_ns() - t0) / (64.0 * MESS_CHASE_UNROLL);
	}
	/* Keep the compiler from dropping the chase: p is its result. */
	__asm__ volatile("" : : "r"(p) : "memory");
	free(buf);
	return mess_median(v, 3);
}

double mess_l1_floor(double l1_ns, char *src, size_t len)
{
	const char *f = getenv("MESS_FAULT_L1_NS");
	const char *what = "measured L1 hit";

	if (f && *f) {
		l1_ns = strtod(f, NULL);
		what = "MESS_FAULT_L1_NS";
	}
	if (!(isfinite(l1_ns) && l1_ns > 0)) {
		snprintf(src, len, "fixed: %.1f ns, four cycles at 5 GHz (no L1 hit measured by this run)",
			 MESS_L1_FLOOR_NS);
		return MESS_L1_FLOOR_NS;
	}
	snprintf(src, len, "%s %.2f ns x %.1f", what, l1_ns, MESS_L1_FLOOR_SHARE);
	return MESS_L1_FLOOR_SHARE * l1_ns;
}
