// SPDX-License-Identifier: MIT
/* The replay machine on a synthetic set with answers worked out by hand:
 * exact at the set's points, linear in ln(1 + pause) between them and
 * between read shares, clamped outside; the noise's mean and CV and the
 * disturbed rate over many draws. */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include <cmocka.h>

#include "mess/replay.h"
#include "near.h"

/* Read share r: pauses 0, 9, 99, 999 (x = ln 1, ln 10, ln 100, ln 1000). */
static const uint64_t PAUSE[] = { 999, 99, 9, 0 };
static const double BW50[] = { 10, 50, 90, 80 }, LAT50[] = { 100, 120, 200, 300 };
static const double BW100[] = { 20, 60, 100, 100 }, LAT100[] = { 90, 110, 150, 250 };

static void add(struct mess_family *f, double read_pct, const double *bw,
		const double *lat)
{
	struct mess_curve *c = mess_family_curve(f, MESS_STORE_PCT_UNKNOWN, read_pct);

	assert_non_null(c);
	for (size_t i = 0; i < 4; i++) {
		struct mess_point p = { .store_pct = MESS_STORE_PCT_UNKNOWN,
					.read_pct = read_pct, .nop = PAUSE[i],
					.bw_gbs = bw[i], .lat_ns = lat[i] };
		assert_int_equal(mess_curve_add(c, &p), 0);
	}
}

static struct mess_replay *synthetic(struct mess_family *f)
{
	struct mess_replay *rp;

	/* Added out of read order: the replay sorts them. */
	add(f, 100, BW100, LAT100);
	add(f, 50, BW50, LAT50);
	assert_int_equal(mess_replay_new(f, &rp), 0);
	return rp;
}

static void test_exact_at_points(void **state)
{
	struct mess_family f = { 0 };
	struct mess_replay *rp = synthetic(&f);
	double bw, lat, rd, lo, hi;
	size_t n;

	assert_int_equal(mess_replay_ncurves(rp), 2);
	assert_int_equal(mess_replay_curve(rp, 0, &rd, &n, &lo, &hi), 0);
	assert_near(rd, 50, 0);
	assert_int_equal(n, 4);
	assert_near(lo, 0, 1e-9);
	assert_near(hi, 999, 1e-9);
	for (size_t i = 0; i < 4; i++) {
		assert_int_equal(mess_replay_at(rp, 50, (double)PAUSE[i], &bw, &lat), 0);
		assert_near(bw, BW50[i], 1e-9);
		assert_near(lat, LAT50[i], 1e-9);
		assert_int_equal(mess_replay_at(rp, 100, (double)PAUSE[i], &bw, &lat), 0);
		assert_near(bw, BW100[i], 1e-9);
		assert_near(lat, LAT100[i], 1e-9);
	}
	mess_replay_free(rp);
	mess_family_free(&f);
}

static void test_linear_in_log_pause(void **state)
{
	struct mess_family f = { 0 };
	struct mess_replay *rp = synthetic(&f);
	double bw, lat;

	/* Pause 30.62..: 1 + p = sqrt(10 * 100), halfway between 9 and 99
	 * in ln(1 + pause). */
	assert_int_equal(mess_replay_at(rp, 50, sqrt(1000.0) - 1, &bw, &lat), 0);
	assert_near(bw, 70, 1e-9);
	assert_near(lat, 160, 1e-9);
	/* A quarter of the way from 99 to 999. */
	assert_int_equal(mess_replay_at(rp, 50, pow(10, 2.25) - 1, &bw, &lat), 0);
	assert_near(bw, 50 - 0.25 * 40, 1e-9);
	assert_near(lat, 120 - 0.25 * 20, 1e-9);
	/* Beyond the pauses: the end points, not an extrapolation. */
	assert_int_equal(mess_replay_at(rp, 50, 1e6, &bw, &lat), 0);
	assert_near(bw, 10, 1e-9);
	assert_near(lat, 100, 1e-9);
	/* Between read shares: 62.5 % is a quarter of the way to 100 %. */
	assert_int_equal(mess_replay_at(rp, 62.5, 9, &bw, &lat), 0);
	assert_near(bw, 90 + 0.25 * 10, 1e-9);
	assert_near(lat, 200 - 0.25 * 50, 1e-9);
	/* Both at once: halfway in share and in ln(1 + pause). */
	assert_int_equal(mess_replay_at(rp, 75, sqrt(1000.0) - 1, &bw, &lat), 0);
	assert_near(bw, (70 + 80) / 2.0, 1e-9);
	assert_near(lat, (160 + 130) / 2.0, 1e-9);
	/* Outside the shares: the nearest curve. */
	assert_int_equal(mess_replay_at(rp, 20, 0, &bw, &lat), 0);
	assert_near(bw, 80, 1e-9);
	assert_int_equal(mess_replay_at(rp, -1, 0, &bw, &lat), 0);
	assert_near(lat, 300, 1e-9);
	assert_int_equal(mess_replay_at(rp, 50, -1, &bw, &lat), -EINVAL);
	assert_int_equal(mess_replay_at(rp, NAN, 1, &bw, &lat), -EINVAL);
	mess_replay_free(rp);
	mess_family_free(&f);
}

static void test_equal_pauses_averaged(void **state)
{
	struct mess_family f = { 0 };
	struct mess_curve *c = mess_family_curve(&f, MESS_STORE_PCT_UNKNOWN, 70);
	struct mess_point p = { .nop = 100, .bw_gbs = 10, .lat_ns = 100 };
	struct mess_point q = { .nop = 100, .bw_gbs = 20, .lat_ns = 120 };
	struct mess_point bad = { .nop = 50, .bw_gbs = NAN, .lat_ns = 1 };
	struct mess_replay *rp;
	double bw, lat;
	size_t n;

	assert_int_equal(mess_curve_add(c, &p), 0);
	assert_int_equal(mess_curve_add(c, &q), 0);
	assert_int_equal(mess_curve_add(c, &bad), 0);
	assert_int_equal(mess_replay_new(&f, &rp), 0);
	assert_int_equal(mess_replay_curve(rp, 0, NULL, &n, NULL, NULL), 0);
	assert_int_equal(n, 1);
	assert_int_equal(mess_replay_at(rp, 70, 0, &bw, &lat), 0);
	assert_near(bw, 15, 1e-9);
	assert_near(lat, 110, 1e-9);
	mess_replay_free(rp);
	mess_family_free(&f);

	/* Nothing usable: refused. */
	struct mess_family e = { 0 };

	c = mess_family_curve(&e, MESS_STORE_PCT_UNKNOWN, 70);
	assert_int_equal(mess_curve_add(c, &bad), 0);
	assert_int_equal(mess_replay_new(&e, &rp), -EINVAL);
	mess_family_free(&e);
}

static void test_noise_statistics(void **state)
{
	const double cvs[] = { 0.01, 0.03, 0.10 };
	const int N = 200000;

	for (size_t k = 0; k < 3; k++) {
		struct mess_rng g;
		double s = 0, s2 = 0, lo = INFINITY;

		mess_rng_seed(&g, 42 + k);
		for (int i = 0; i < N; i++) {
			double x = mess_replay_noise(&g, cvs[k]);

			s += x;
			s2 += x * x;
			lo = fmin(lo, x);
		}
		double mean = s / N, sd = sqrt(s2 / N - mean * mean);

		/* The mean's standard error is cv / sqrt(N) (< 2.3e-4). */
		assert_near(mean, 1.0, 5 * cvs[k] / sqrt(N));
		assert_near(sd / mean, cvs[k], 0.02 * cvs[k]);
		/* Lognormal: never a negative figure. */
		assert_true(lo > 0);
	}
	/* CV 0: exactly 1, no draw needed. */
	struct mess_rng g;

	mess_rng_seed(&g, 1);
	assert_near(mess_replay_noise(&g, 0), 1.0, 0);
}

static void test_seeded(void **state)
{
	struct mess_rng a, b, c;
	int differ = 0;

	mess_rng_seed(&a, 7);
	mess_rng_seed(&b, 7);
	mess_rng_seed(&c, 8);
	for (int i = 0; i < 100; i++) {
		uint64_t x = mess_rng_next(&a);

		assert_true(x == mess_rng_next(&b));
		differ += x != mess_rng_next(&c);
	}
	assert_true(differ > 90);
}

static void test_disturbed_rate(void **state)
{
	struct mess_rng g;
	const int N = 100000;
	int hits = 0;

	mess_rng_seed(&g, 3);
	for (int i = 0; i < N; i++)
		hits += mess_replay_chance(&g, 0.05);
	/* Binomial: sd = sqrt(N p (1 - p)) = 69. */
	assert_true(abs(hits - 5000) < 5 * 69);
	for (int i = 0; i < 1000; i++)
		assert_int_equal(mess_replay_chance(&g, 0), 0);
	for (int i = 0; i < 1000; i++)
		assert_int_equal(mess_replay_chance(&g, 1), 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_exact_at_points),
		cmocka_unit_test(test_linear_in_log_pause),
		cmocka_unit_test(test_equal_pauses_averaged),
		cmocka_unit_test(test_noise_statistics),
		cmocka_unit_test(test_seeded),
		cmocka_unit_test(test_disturbed_rate),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
