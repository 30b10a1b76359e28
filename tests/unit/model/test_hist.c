// SPDX-License-Identifier: MIT
/* The log-linear histogram with known answers: edges, every value in one
 * bin, quantiles, merges and modes. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "mess/hist.h"
#include "near.h"

static struct mess_hist *new_hist(void)
{
	struct mess_hist *h = calloc(1, sizeof(*h));

	assert_non_null(h);
	return h;
}

/* The layout worked by hand: one value per bin up to 63, then 2^S bins
 * an octave. */
static void test_edges_known(void **state)
{
	(void)state;
	assert_int_equal(MESS_HIST_NBINS, 1920);
	assert_near(mess_hist_lo(0), 0, 0);
	assert_near(mess_hist_hi(0), 1, 0);
	assert_near(mess_hist_lo(63), 63, 0);
	assert_near(mess_hist_hi(63), 64, 0);
	assert_near(mess_hist_lo(64), 64, 0);
	assert_near(mess_hist_hi(64), 66, 0);
	assert_near(mess_hist_lo(95), 126, 0);
	assert_near(mess_hist_hi(95), 128, 0);
	assert_near(mess_hist_lo(96), 128, 0);
	assert_near(mess_hist_hi(96), 132, 0);
	assert_near(mess_hist_hi(MESS_HIST_NBINS - 1), ldexp(1, 64), 0);
	assert_int_equal(mess_hist_index(0), 0);
	assert_int_equal(mess_hist_index(31), 31);
	assert_int_equal(mess_hist_index(32), 32);
	assert_int_equal(mess_hist_index(63), 63);
	assert_int_equal(mess_hist_index(64), 64);
	assert_int_equal(mess_hist_index(65), 64);
	assert_int_equal(mess_hist_index(500), 158);
	assert_int_equal(mess_hist_index(UINT64_MAX), MESS_HIST_NBINS - 1);
}

/* Bins tile [0, 2^64) without gap or overlap, each no wider than 1/2^S
 * of its lower edge, and both ends of every bin index back to it. */
static void test_edges_tile(void **state)
{
	(void)state;
	for (unsigned i = 0; i < MESS_HIST_NBINS; i++) {
		double lo = mess_hist_lo(i), hi = mess_hist_hi(i);

		assert_true(hi > lo);
		if (i + 1 < MESS_HIST_NBINS)
			assert_near(mess_hist_lo(i + 1), hi, 0);
		if (i >= 2 * MESS_HIST_SUB)
			assert_true(hi - lo <= lo / MESS_HIST_SUB);
		/* Integer ends: lo exactly, hi - 1 as lo + (width - 1). */
		uint64_t ilo = (uint64_t)ldexp(mess_hist_lo(i), 0);
		uint64_t w = (uint64_t)(hi - lo);

		if (lo < ldexp(1, 63))
			assert_int_equal(mess_hist_index(ilo), i);
		else
			ilo = (uint64_t)(lo / 2) * 2;
		assert_int_equal(mess_hist_index(ilo + (w - 1)), i);
	}
}

/* Any value: exactly one bin holds it (its own), none other. */
static void test_every_value_one_bin(void **state)
{
	uint64_t x = 0x9e3779b97f4a7c15ULL;

	(void)state;
	for (int t = 0; t < 200000; t++) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		uint64_t v = x >> (t % 64);
		unsigned i = mess_hist_index(v), hits = 0;

		assert_true(i < MESS_HIST_NBINS);
		/* neighbours only: the tiling test covers the rest */
		for (unsigned j = i ? i - 1 : 0; j <= i + 1 && j < MESS_HIST_NBINS; j++)
			hits += (double)v >= mess_hist_lo(j) &&
				((double)v < mess_hist_hi(j) ||
				 (j == MESS_HIST_NBINS - 1));
		/* a double rounds v above 2^53: the index, not the edges,
		 * is then the reference */
		if (v < (1ULL << 53))
			assert_int_equal(hits, 1);
	}
}

/* 1 .. 1000 once each: the quantiles are the midpoints of the bins of the
 * 500th, 900th, 990th, 999th and 1000th values. */
static void test_quantiles(void **state)
{
	struct mess_hist *h = new_hist();
	struct mess_hist_summary s;

	(void)state;
	assert_true(isnan(mess_hist_quantile(h, 0.5)));
	assert_true(isnan(mess_hist_mean(h)));
	for (uint64_t v = 1; v <= 1000; v++)
		mess_hist_record(h, v);
	mess_hist_summarise(h, &s);
	assert_int_equal(s.n, 1000);
	assert_near(s.mean, 500.5, 0);
	assert_near(s.p50, 500, 0);	/* [496, 504) */
	assert_near(s.p90, 904, 0);	/* [896, 912) */
	assert_near(s.p99, 984, 0);	/* [976, 992) */
	assert_near(s.p999, 1000, 0);	/* [992, 1008) */
	assert_near(s.max, 1000, 0);
	assert_true(isnan(mess_hist_quantile(h, 0)));
	assert_true(isnan(mess_hist_quantile(h, 1.5)));
	memset(h, 0, sizeof(*h));
	mess_hist_record(h, 10);
	mess_hist_record(h, 20);
	mess_hist_record(h, 30);
	assert_near(mess_hist_quantile(h, 0.5), 20.5, 0);
	assert_near(mess_hist_quantile(h, 0.01), 10.5, 0);
	assert_near(mess_hist_quantile(h, 1), 30.5, 0);
	free(h);
}

static void test_merge(void **state)
{
	struct mess_hist *a = new_hist(), *b = new_hist(), *all = new_hist();

	(void)state;
	for (uint64_t v = 1; v <= 1000; v++) {
		mess_hist_record(v <= 500 ? a : b, v * 37);
		mess_hist_record(all, v * 37);
	}
	mess_hist_merge(a, b);
	assert_memory_equal(a, all, sizeof(*a));
	assert_int_equal(mess_hist_count(a), 1000);
	assert_int_equal(a->sum, 37 * 500500);
	/* Merging an empty one changes nothing. */
	memset(b, 0, sizeof(*b));
	mess_hist_merge(a, b);
	assert_memory_equal(a, all, sizeof(*a));
	free(a);
	free(b);
	free(all);
}

/* 97 % about 200, 3 % about 550: one secondary mode, +350, 3 %. */
static void test_modes(void **state)
{
	struct mess_hist *h = new_hist();
	struct mess_hist_mode m[4];
	size_t n;

	(void)state;
	for (int k = 0; k < 1000; k++)
		for (uint64_t v = 190; v <= 210; v++)
			mess_hist_record(h, v);
	n = mess_hist_modes(h, 0, m, 4);
	assert_int_equal(n, 0);
	for (int k = 0; k < 31; k++)
		for (uint64_t v = 540; v <= 560; v++)
			mess_hist_record(h, v);
	/* a lone slow value far out is not a mode (under 0.1 %) */
	mess_hist_record(h, 5000);
	n = mess_hist_modes(h, 0, m, 4);
	assert_int_equal(n, 1);
	assert_near(m[0].offset, 350, 12);
	assert_near(m[0].share, 31.0 * 21 / (1031.0 * 21 + 1), 0.001);
	free(h);
}

/* A timer that steps by 26: one broad hump of values 26 apart, empty bins
 * between them.  Read bin by bin it has false modes; at its resolution,
 * none; a real one 300 above still shows. */
static void test_modes_stepped(void **state)
{
	struct mess_hist *h = new_hist();
	struct mess_hist_mode m[4];

	(void)state;
	for (int k = 0; k < 10; k++)
		for (uint64_t v = 260; v <= 520; v += 26)
			for (uint64_t c = 0; c < 1000 - (v > 390 ? v - 390 : 390 - v) * 7; c++)
				mess_hist_record(h, v);
	assert_true(mess_hist_modes(h, 0, m, 4) > 0);
	assert_int_equal(mess_hist_modes(h, 26, m, 4), 0);
	for (int k = 0; k < 2000; k++)
		mess_hist_record(h, 390 + 312);
	assert_int_equal(mess_hist_modes(h, 26, m, 4), 1);
	/* within one step of the timer */
	assert_near(m[0].offset, 312, 26);
	free(h);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_edges_known),
		cmocka_unit_test(test_edges_tile),
		cmocka_unit_test(test_every_value_one_bin),
		cmocka_unit_test(test_quantiles),
		cmocka_unit_test(test_merge),
		cmocka_unit_test(test_modes),
		cmocka_unit_test(test_modes_stepped),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
