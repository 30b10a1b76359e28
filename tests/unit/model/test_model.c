// SPDX-License-Identifier: MIT
/* The curve model on hand-made families with answers worked out by hand,
 * and on the public reference sets (every measured point answers itself). */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "mess/messfmt.h"
#include "mess/model.h"
#include "near.h"

/* Add points (bw, lat) in pressure order: nop falls as i rises. */
static void add_curve(struct mess_family *f, double read_pct, size_t n,
		      const double *bw, const double *lat)
{
	struct mess_curve *c = mess_family_curve(f, MESS_STORE_PCT_UNKNOWN,
						 read_pct);

	assert_non_null(c);
	for (size_t i = 0; i < n; i++) {
		struct mess_point p = {
			.store_pct = MESS_STORE_PCT_UNKNOWN, .read_pct = read_pct,
			.nop = 1000 - i, .bw_gbs = bw[i], .lat_ns = lat[i],
		};
		assert_int_equal(mess_curve_add(c, &p), 0);
	}
}

/*
 * One curve at 100% reads, unloaded 90 ns: (0, 90) anchor, (10, 100),
 * (20, 110), (40, 150), then a wave point (35, 300) past the maximum.
 * Beyond 40 GB/s: slope max(last 40/20 = 2, average 60/40 = 1.5) = 2.
 */
static void one_curve(struct mess_family *f)
{
	double bw[] = { 10, 20, 40, 35 }, lat[] = { 100, 110, 150, 300 };

	add_curve(f, 100, 4, bw, lat);
	f->unloaded_ns = 90;
}

static void test_along_one_curve(void **state)
{
	struct mess_family f = { 0 };
	struct mess_model *m;
	const double *bw, *lat;
	size_t n, dropped;
	double v, r;

	one_curve(&f);
	assert_int_equal(mess_model_new(&f, &m), 0);
	mess_family_free(&f);	/* the model keeps its own copy */
	assert_int_equal(mess_model_ncurves(m), 1);
	assert_int_equal(mess_model_curve(m, 0, &r, &n, &bw, &lat, &dropped), 0);
	assert_near(r, 100, 0);
	assert_int_equal(n, 4);
	assert_int_equal(dropped, 1);
	assert_near(bw[0], 0, 0);
	assert_near(lat[0], 90, 0);
	assert_int_equal(mess_model_curve(m, 1, NULL, NULL, NULL, NULL, NULL),
			 -EINVAL);

	assert_int_equal(mess_model_latency(m, 100, 0, &v), MESS_SRC_MEASURED);
	assert_near(v, 90, 0);
	assert_int_equal(mess_model_latency(m, 100, 15, &v), MESS_SRC_INTERP_BW);
	assert_near(v, 105, 1e-12);
	assert_int_equal(mess_model_latency(m, 100, 40, &v), MESS_SRC_MEASURED);
	assert_near(v, 150, 0);
	assert_int_equal(mess_model_latency(m, 100, 50, &v), MESS_SRC_EXTRAP_BW);
	assert_near(v, 170, 1e-12);
	assert_string_equal(mess_src_name(MESS_SRC_EXTRAP_BW), "extrapolated");

	assert_int_equal(mess_model_max_bw(m, 100, &v), MESS_SRC_MEASURED);
	assert_near(v, 40, 0);
	assert_int_equal(mess_model_bw_at_latency(m, 100, 130, &v),
			 MESS_SRC_INTERP_BW);
	assert_near(v, 30, 1e-12);
	assert_int_equal(mess_model_bw_at_latency(m, 100, 170, &v),
			 MESS_SRC_EXTRAP_BW);
	assert_near(v, 50, 1e-12);
	assert_int_equal(mess_model_bw_at_latency(m, 100, 90, &v), 0);
	assert_near(v, 0, 0);
	assert_int_equal(mess_model_bw_at_latency(m, 100, 80, &v), -ERANGE);
	mess_model_free(m);
}

/* Extrapolation never falls: latency rises with bandwidth past the end. */
static void test_extrapolation_monotonic(void **state)
{
	/* A last segment that falls: the average slope takes over. */
	double bw[] = { 10, 20, 30 }, lat[] = { 100, 140, 130 };
	struct mess_family f = { 0 };
	struct mess_model *m;
	double prev = 0, v;

	add_curve(&f, 60, 3, bw, lat);
	assert_int_equal(mess_model_new(&f, &m), 0);
	for (double b = 30; b < 100; b += 5) {
		assert_int_equal(mess_model_latency(m, 60, b, &v) &
				 MESS_SRC_EXTRAP_BW, b > 30 ? MESS_SRC_EXTRAP_BW : 0);
		assert_true(v > prev);
		prev = v;
	}
	/* avg slope (130 - 100) / 20 = 1.5 ns per GB/s */
	mess_model_latency(m, 60, 40, &v);
	assert_near(v, 145, 1e-12);
	/* Below the first point without an unloaded anchor: flat, flagged. */
	assert_int_equal(mess_model_latency(m, 60, 1, &v), MESS_SRC_EXTRAP_BW);
	assert_near(v, 100, 0);
	mess_model_free(m);
	mess_family_free(&f);
}

/*
 * Two curves: 50% reads (10, 100), (20, 120); 100% reads (20, 100),
 * (40, 120).  At 75%: w = 0.5, maximum 30; at 22.5 GB/s u = 0.75, both
 * curves read at 75% of their maximum give 110 ns.
 */
static void two_curves(struct mess_family *f)
{
	double bw50[] = { 10, 20 }, lat50[] = { 100, 120 };
	double bw100[] = { 20, 40 }, lat100[] = { 100, 120 };

	add_curve(f, 100, 2, bw100, lat100);
	add_curve(f, 50, 2, bw50, lat50);
}

static void test_between_read_shares(void **state)
{
	struct mess_family f = { 0 };
	struct mess_model *m;
	double v, r;

	two_curves(&f);
	assert_int_equal(mess_model_new(&f, &m), 0);
	assert_int_equal(mess_model_curve(m, 0, &r, NULL, NULL, NULL, NULL), 0);
	assert_near(r, 50, 0);	/* sorted by read share */
	assert_true(isnan(mess_model_unloaded_ns(m)));

	assert_int_equal(mess_model_max_bw(m, 75, &v), MESS_SRC_INTERP_READ);
	assert_near(v, 30, 1e-12);
	assert_int_equal(mess_model_latency(m, 75, 22.5, &v),
			 MESS_SRC_INTERP_READ | MESS_SRC_INTERP_BW);
	assert_near(v, 110, 1e-12);
	assert_int_equal(mess_model_latency(m, 75, 30, &v), MESS_SRC_INTERP_READ);
	assert_near(v, 120, 1e-12);
	assert_int_equal(mess_model_bw_at_latency(m, 75, 110, &v) &
			 MESS_SRC_INTERP_READ, MESS_SRC_INTERP_READ);
	assert_near(v, 22.5, 1e-12);
	assert_string_equal(mess_src_name(MESS_SRC_INTERP_READ), "interpolated");

	/* On a measured share the other curve plays no part. */
	assert_int_equal(mess_model_latency(m, 50, 15, &v), MESS_SRC_INTERP_BW);
	assert_near(v, 110, 1e-12);
	/* Outside the measured shares: the nearest curve, flagged. */
	assert_int_equal(mess_model_latency(m, 30, 20, &v), MESS_SRC_EXTRAP_READ);
	assert_near(v, 120, 0);
	assert_int_equal(mess_model_max_bw(m, 0, &v), MESS_SRC_EXTRAP_READ);
	assert_near(v, 20, 0);
	assert_string_equal(mess_src_name(MESS_SRC_EXTRAP_READ), "extrapolated");
	mess_model_free(m);
	mess_family_free(&f);
}

static void test_bad_input(void **state)
{
	struct mess_family f = { 0 }, empty = { 0 };
	struct mess_model *m;
	double v;

	assert_int_equal(mess_model_new(&empty, &m), -EINVAL);
	assert_null(m);
	two_curves(&f);
	assert_int_equal(mess_model_new(&f, &m), 0);
	assert_int_equal(mess_model_latency(m, NAN, 1, &v), -EINVAL);
	assert_int_equal(mess_model_latency(m, 101, 1, &v), -EINVAL);
	assert_int_equal(mess_model_latency(m, -1, 1, &v), -EINVAL);
	assert_int_equal(mess_model_latency(m, 50, -1, &v), -EINVAL);
	assert_int_equal(mess_model_latency(m, 50, INFINITY, &v), -EINVAL);
	assert_int_equal(mess_model_max_bw(m, 100.5, &v), -EINVAL);
	assert_int_equal(mess_model_bw_at_latency(m, 50, NAN, &v), -EINVAL);
	mess_model_free(m);
	mess_family_free(&f);
}

/* Two curves at one read share: the one that reached further stays;
 * unusable points and curves are left out. */
static void test_duplicates_and_unusable(void **state)
{
	double bw1[] = { 10, 20 }, bw2[] = { 10, 30 }, lat[] = { 100, 120 };
	double nanbw[] = { NAN }, nanlat[] = { 100 };
	struct mess_family f = { 0 };
	struct mess_model *m;
	struct mess_curve *c;
	double v;
	size_t n;

	add_curve(&f, 80, 2, bw1, lat);
	/* A measured family keys curves by store_pct: force a second curve
	 * at (almost) the same read share. */
	c = mess_family_curve(&f, 5, 80.001);
	for (size_t i = 0; i < 2; i++) {
		struct mess_point p = { .store_pct = 5, .nop = 9 - i,
					.bw_gbs = bw2[i], .lat_ns = lat[i] };
		mess_curve_add(c, &p);
	}
	add_curve(&f, 90, 1, nanbw, nanlat);
	add_curve(&f, NAN, 2, bw1, lat);
	assert_int_equal(mess_model_new(&f, &m), 0);
	assert_int_equal(mess_model_ncurves(m), 1);
	assert_int_equal(mess_model_max_bw(m, 80, &v) & ~MESS_SRC_EXTRAP_READ, 0);
	assert_near(v, 30, 0);
	mess_model_curve(m, 0, NULL, &n, NULL, NULL, NULL);
	assert_int_equal(n, 2);
	mess_model_free(m);
	mess_family_free(&f);
}

/* Points with no pressure order (a bwlat file: nop 0, bandwidth
 * descending) are taken by increasing bandwidth, none dropped. */
static void test_bwlat_order(void **state)
{
	struct mess_family f = { 0 };
	struct mess_curve *c = mess_family_curve(&f, MESS_STORE_PCT_UNKNOWN, 70);
	double bw[] = { 40, 20, 10 }, lat[] = { 150, 110, 100 }, v;
	struct mess_model *m;
	size_t dropped;

	for (size_t i = 0; i < 3; i++) {
		struct mess_point p = { .store_pct = MESS_STORE_PCT_UNKNOWN,
					.bw_gbs = bw[i], .lat_ns = lat[i] };
		mess_curve_add(c, &p);
	}
	assert_int_equal(mess_model_new(&f, &m), 0);
	mess_model_curve(m, 0, NULL, NULL, NULL, NULL, &dropped);
	assert_int_equal(dropped, 0);
	assert_int_equal(mess_model_latency(m, 70, 30, &v), MESS_SRC_INTERP_BW);
	assert_near(v, 130, 1e-12);
	mess_model_free(m);
	mess_family_free(&f);
}

/* On every public set, each point the model keeps answers with itself,
 * measured, and the family's maximum is every curve's maximum. */
static void test_reference_sets(void **state)
{
	static const char *sets[] = {
		"MN5-GPP-SPR8480-DDR5", "MN5-HBM-XeonMax9480-HBM2",
		"Grace-LPDDR5", "CTE-AMD-EPYC7742-DDR4",
	};
	const char *ref = getenv("MESS_REFERENCE");

	/* The public sets are read in place (../shared): skipped, and said,
	 * where the checkout has none beside it. */
	if (!ref || !*ref || access(ref, R_OK)) {
		print_message("MESS_REFERENCE unset or missing: skipped\n");
		skip();
		return;
	}
	for (size_t s = 0; s < 4; s++) {
		struct mess_family f = { 0 };
		struct mess_model *m;
		char path[4096];

		snprintf(path, sizeof(path), "%s/%s/memory_curves.csv", ref,
			 sets[s]);
		assert_int_equal(mess_reference_read(path, &f, NULL, 0), 0);
		assert_int_equal(mess_model_new(&f, &m), 0);
		assert_true(mess_model_ncurves(m) > 10);
		for (size_t i = 0; i < mess_model_ncurves(m); i++) {
			const double *bw, *lat;
			double r, v;
			size_t n;

			mess_model_curve(m, i, &r, &n, &bw, &lat, NULL);
			for (size_t k = 0; k < n; k++) {
				assert_int_equal(mess_model_latency(m, r, bw[k], &v),
						 MESS_SRC_MEASURED);
				assert_near(v, lat[k], 0);
			}
			assert_int_equal(mess_model_max_bw(m, r, &v), 0);
			assert_near(v, bw[n - 1], 0);
		}
		mess_model_free(m);
		mess_family_free(&f);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_along_one_curve),
		cmocka_unit_test(test_extrapolation_monotonic),
		cmocka_unit_test(test_between_read_shares),
		cmocka_unit_test(test_bad_input),
		cmocka_unit_test(test_duplicates_and_unusable),
		cmocka_unit_test(test_bwlat_order),
		cmocka_unit_test(test_reference_sets),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
