// SPDX-License-Identifier: MIT
/* The chase chain: one cycle over every line, windows kept together. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "core/measure/chain.h"

/* Follow next[] from 0: the cycle must have length n. */
static uint32_t cycle_len(const uint32_t *next, uint32_t n)
{
	uint32_t i = 0, len = 0;

	do {
		i = next[i];
		len++;
	} while (i != 0 && len <= n);
	return len;
}

static void sattolo_single_cycle(void **state)
{
	struct mess_rng r;

	for (uint32_t n = 2; n < 300; n += 7) {
		uint32_t *next = malloc(n * sizeof(*next));

		mess_rng_seed(&r, n);
		mess_sattolo(next, n, &r);
		assert_int_equal(cycle_len(next, n), n);
		for (uint32_t i = 0; i < n; i++)
			assert_int_not_equal(next[i], i);	/* no fixed point */
		free(next);
	}
}

/* A broken shuffle (Fisher-Yates) gives several cycles: the check above
 * would catch Sattolo degrading into it. */
static void fisher_yates_is_not_one_cycle(void **state)
{
	struct mess_rng r;
	uint32_t n = 1000, next[1000];
	int multi = 0;

	for (int seed = 0; seed < 5; seed++) {
		mess_rng_seed(&r, (uint64_t)seed);
		for (uint32_t i = 0; i < n; i++)
			next[i] = i;
		for (uint32_t i = n - 1; i > 0; i--) {
			uint32_t j = (uint32_t)mess_rng_below(&r, i + 1);
			uint32_t t = next[i];

			next[i] = next[j];
			next[j] = t;
		}
		multi += cycle_len(next, n) != n;
	}
	assert_true(multi > 0);
}

static void check_order(uint32_t n, uint32_t per_window)
{
	uint32_t *order = malloc(n * sizeof(*order));
	char *seen = calloc(n, 1);
	struct mess_rng r;
	uint32_t w = per_window && per_window < n ? per_window : n;

	mess_rng_seed(&r, 42);
	assert_int_equal(mess_chain_order(order, n, per_window, &r), 0);
	for (uint32_t i = 0; i < n; i++) {
		assert_true(order[i] < n);
		assert_false(seen[order[i]]);
		seen[order[i]] = 1;
	}
	/* Each window's lines are consecutive in the visit order. */
	for (uint32_t i = 0; i < n; i++) {
		uint32_t start = i - i % w;	/* positions of one window */

		assert_int_equal(order[i] / w, order[start] / w);
	}
	free(order);
	free(seen);
}

static void order_visits_every_line_once(void **state)
{
	check_order(4096, 0);		/* fully random */
	check_order(4096, 1024);	/* 256 KiB windows of 256 B lines */
	check_order(4096, 64);
	check_order(4096, 4096);
	check_order(1, 0);
}

static void order_is_random_inside_windows(void **state)
{
	uint32_t n = 4096, order[4096], in_place = 0;
	struct mess_rng r;

	mess_rng_seed(&r, 7);
	mess_chain_order(order, n, 1024, &r);
	for (uint32_t i = 1; i < n; i++)
		in_place += order[i] == order[i - 1] + 1;
	/* A sequential walk would give n - windows; random gives ~ n / 1024. */
	assert_true(in_place < 64);
}

static void link_makes_one_cycle(void **state)
{
	const uint32_t n = 2048;
	const size_t stride = 256;
	uint32_t order[2048];
	char *buf = aligned_alloc(64, n * stride);
	struct mess_rng r;
	void *start, *p;
	uint32_t steps = 0;
	char *seen = calloc(n, 1);

	mess_rng_seed(&r, 3);
	mess_chain_order(order, n, 256, &r);
	start = mess_chain_link(buf, stride, order, n);
	p = start;
	do {
		size_t off = (size_t)((char *)p - buf);

		assert_int_equal(off % stride, 0);
		assert_false(seen[off / stride]);
		seen[off / stride] = 1;
		p = *(void **)p;
		steps++;
	} while (p != start && steps <= n);
	assert_int_equal(steps, n);
	free(buf);
	free(seen);
}

static void rng_below_is_in_range_and_unbiased(void **state)
{
	struct mess_rng r;
	unsigned hist[3] = { 0 };

	mess_rng_seed(&r, 1);
	for (int i = 0; i < 30000; i++) {
		uint64_t x = mess_rng_below(&r, 3);

		assert_true(x < 3);
		hist[x]++;
	}
	for (int i = 0; i < 3; i++)
		assert_true(hist[i] > 9400 && hist[i] < 10600);
}

/* The floor under which a chase read nothing follows the chase core's
 * L1 hit (issue 46): a 2 ns window is below it where the L1 reads 4 ns,
 * where the fixed 0.8 ns kept it; the fixed floor only without an L1. */
static void l1_floor_follows_the_l1(void **state)
{
	char src[96];
	double f, l1;

	unsetenv("MESS_FAULT_L1_NS");
	f = mess_l1_floor(4.0, src, sizeof(src));
	assert_true(fabs(f - 3.2) < 1e-12);
	assert_true(2.0 < f && 2.0 > MESS_L1_FLOOR_NS);
	assert_string_equal(src, "measured L1 hit 4.00 ns x 0.8");
	f = mess_l1_floor(NAN, src, sizeof(src));
	assert_true(f == MESS_L1_FLOOR_NS);
	assert_non_null(strstr(src, "fixed: 0.8 ns"));
	assert_true(mess_l1_floor(0, src, sizeof(src)) == MESS_L1_FLOOR_NS);
	/* The tests' hook stands for the measured L1. */
	setenv("MESS_FAULT_L1_NS", "10", 1);
	f = mess_l1_floor(1.0, src, sizeof(src));
	unsetenv("MESS_FAULT_L1_NS");
	assert_true(fabs(f - 8.0) < 1e-12);
	assert_string_equal(src, "MESS_FAULT_L1_NS 10.00 ns x 0.8");
	/* This core's own: an L1 hit of any CPU, far below memory's. */
	l1 = mess_l1_hit_ns(1);
	print_message("L1 hit here: %.2f ns\n", l1);
	assert_true(l1 > 0.05 && l1 < 50);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(sattolo_single_cycle),
		cmocka_unit_test(fisher_yates_is_not_one_cycle),
		cmocka_unit_test(order_visits_every_line_once),
		cmocka_unit_test(order_is_random_inside_windows),
		cmocka_unit_test(link_makes_one_cycle),
		cmocka_unit_test(rng_below_is_in_range_and_unbiased),
		cmocka_unit_test(l1_floor_follows_the_l1),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
