// SPDX-License-Identifier: MIT
/*
 * Peer comparisons for the closing figures, not a test: the asm chase
 * against a plain C chase over the same chain, with and without huge pages;
 * one generator core at full pressure; a STREAM-like C copy.  Each figure
 * is the median of several timed runs.
 *   compare chase BYTES WINDOW STRIDE HUGE(0|1)
 *   compare gen VARIANT STORE_PCT BYTES
 *   compare copy BYTES
 */
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/measure/chain.h"
#include "core/clock.h"
#include "core/measure/gen.h"
#include "core/machine/mem.h"
#include "core/measure/registry.h"

#define RUNS 7

static int cmpd(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static double med(double *v, int n)
{
	qsort(v, (size_t)n, sizeof(*v), cmpd);
	return v[n / 2];
}

/* The obvious C chase: what a user would write without assembly. */
static __attribute__((noinline)) void *c_chase(void *p, uint64_t n)
{
	while (n--)
		p = *(void *volatile *)p;
	return p;
}

static int chase(size_t bytes, size_t window, size_t stride, int huge)
{
	struct mess_buf b;
	struct mess_rng r;
	uint32_t n = (uint32_t)(bytes / stride);
	uint32_t *order = malloc(n * sizeof(*order));
	double ta[RUNS], tc[RUNS];
	uint64_t it = 300;
	void *p;

	if (!order || mess_buf_alloc(&b, bytes, -1, huge))
		return 2;
	mess_rng_seed(&r, 1);
	mess_chain_order(order, n, (uint32_t)(window / stride), &r);
	p = mess_chain_link(b.p, stride, order, n);
	p = mess_chase(p, 16);
	/* Alternate the two so drift on a shared host hits both alike. */
	for (int i = 0; i < RUNS; i++) {
		double t0 = mess_now_ns();

		p = mess_chase(p, it);
		ta[i] = (mess_now_ns() - t0) / (it * MESS_CHASE_UNROLL);
		t0 = mess_now_ns();
		p = c_chase(p, it * MESS_CHASE_UNROLL);
		tc[i] = (mess_now_ns() - t0) / (it * MESS_CHASE_UNROLL);
	}
	printf("chase %zu MiB window %zu stride %zu pages %s (%.0f%% huge): asm %.1f ns, C %.1f ns (median of %d)\n",
	       bytes >> 20, window, stride, mess_hp_name(b.hp), b.huge_pct,
	       med(ta, RUNS), med(tc, RUNS), RUNS);
	mess_buf_free(&b);
	free(order);
	return p == NULL;
}

static int gen(const char *var, unsigned s, size_t bytes)
{
	const struct mess_variant *v = mess_variant_find(var);
	const struct mess_gen_kernel *k;
	struct mess_buf ld, st;
	double gbs[RUNS];
	uint64_t ck;

	if (!v || mess_variant_unavailable(v) || s > 100 || s % 2)
		return 1;
	k = &v->table[s / 2];
	if (mess_buf_alloc(&ld, bytes, -1, 1) || mess_buf_alloc(&st, bytes, -1, 1))
		return 2;
	size_t per = k->bytes_loaded > k->bytes_stored ? k->bytes_loaded
						       : k->bytes_stored;
	uint64_t iters = bytes / per;

	k->fn(ld.p, st.p, iters, 0, 1, &ck);
	for (int i = 0; i < RUNS; i++) {
		double t0 = mess_now_ns();

		k->fn(ld.p, st.p, iters, 0, 1, &ck);
		gbs[i] = (double)iters * (k->bytes_loaded + k->bytes_stored) /
			 (mess_now_ns() - t0);
	}
	printf("gen %s s%u: %.2f GB/s issued (loads+stores, no write-allocate; median of %d)\n",
	       var, s, med(gbs, RUNS), RUNS);
	mess_buf_free(&ld);
	mess_buf_free(&st);
	return 0;
}

static int copy(size_t bytes)
{
	struct mess_buf a, b;
	double gbs[RUNS];
	size_t n = bytes / sizeof(double);

	if (mess_buf_alloc(&a, bytes, -1, 1) || mess_buf_alloc(&b, bytes, -1, 1))
		return 2;
	double *x = a.p, *y = b.p;

	for (int i = 0; i < RUNS; i++) {
		double t0 = mess_now_ns();

		for (size_t j = 0; j < n; j++)
			y[j] = x[j];
		__asm__ volatile("" ::"r"(y) : "memory");
		gbs[i] = 2.0 * bytes / (mess_now_ns() - t0);
	}
	double m = med(gbs, RUNS);

	printf("copy: %.2f GB/s STREAM-counted, %.2f GB/s with write-allocate (median of %d)\n",
	       m, m * 1.5, RUNS);
	mess_buf_free(&a);
	mess_buf_free(&b);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc == 6 && !strcmp(argv[1], "chase"))
		return chase(strtoull(argv[2], 0, 0), strtoull(argv[3], 0, 0),
			     strtoull(argv[4], 0, 0), atoi(argv[5]));
	if (argc == 5 && !strcmp(argv[1], "gen"))
		return gen(argv[2], (unsigned)atoi(argv[3]),
			   strtoull(argv[4], 0, 0));
	if (argc == 3 && !strcmp(argv[1], "copy"))
		return copy(strtoull(argv[2], 0, 0));
	fprintf(stderr, "usage: compare chase BYTES WINDOW STRIDE HUGE | gen VARIANT STORE_PCT BYTES | copy BYTES\n");
	return 1;
}
