// SPDX-License-Identifier: MIT
/* The fleet maths with answers worked out by hand: robust centre and
 * scale, z-scores within groups, grouping, the median curve. */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "mess/fleet.h"
#include "mess/model.h"
#include "mess/stats.h"
#include "near.h"

/* 1 2 3 4 100 (and a NAN, left out): median 3, |deviations| 2 1 0 1 97,
 * MAD 1.  The floor 1 % x 3 = 0.03 is below 1.4826. */
static void test_robust(void **state)
{
	double v[] = { 1, 100, NAN, 3, 4, 2 }, copy[6], med, sc;

	memcpy(copy, v, sizeof(v));
	assert_int_equal(mess_fleet_robust(v, 6, 0.01, &med, &sc), 5);
	assert_near(med, 3, 0);
	assert_near(sc, MESS_MAD_TO_SD, 1e-12);
	assert_memory_equal(v, copy, sizeof(v));	/* NAN bits too */
	/* Identical values: the floor, 1 % of the median. */
	double same[] = { 200, 200, 200, 200 };
	assert_int_equal(mess_fleet_robust(same, 4, 0.01, &med, &sc), 4);
	assert_near(sc, 2, 1e-12);
	/* Nothing finite: no centre. */
	double none[] = { NAN, INFINITY };
	assert_int_equal(mess_fleet_robust(none, 2, 0.01, &med, &sc), 0);
	assert_true(isnan(med) && isnan(sc));
	assert_int_equal(mess_fleet_robust(NULL, 0, 0.01, &med, &sc), 0);
	/* More than the 256 values mess_mad_sd takes: 0..999, median 499.5,
	 * deviations 0.5..499.5 twice, their median 250. */
	double *big = malloc(1000 * sizeof(*big));
	assert_non_null(big);
	for (int i = 0; i < 1000; i++)
		big[i] = 999 - i;
	assert_int_equal(mess_fleet_robust(big, 1000, 0, &med, &sc), 1000);
	assert_near(med, 499.5, 0);
	assert_near(sc, MESS_MAD_TO_SD * 250, 1e-9);
	free(big);

	assert_near(mess_fleet_z(10, 4, 2), 3, 0);
	assert_near(mess_fleet_z(1, 4, 2), -1.5, 0);
	assert_true(isnan(mess_fleet_z(NAN, 4, 2)));
	assert_true(isnan(mess_fleet_z(1, 4, 0)));
	assert_true(isnan(mess_fleet_z(1, NAN, 1)));
}

/* Largest group first, ties by first appearance, NULL in none. */
static void test_group(void **state)
{
	const char *keys[] = { "b", "a", NULL, "c", "a", "b", "a", "c" };
	size_t g[8], ng;

	assert_int_equal(mess_fleet_group(keys, 8, g, &ng), 0);
	assert_int_equal(ng, 3);
	/* a: 3 nodes -> 0; b (first at 0) and c (first at 3), 2 each. */
	assert_int_equal(g[1], 0);
	assert_int_equal(g[4], 0);
	assert_int_equal(g[6], 0);
	assert_int_equal(g[0], 1);
	assert_int_equal(g[5], 1);
	assert_int_equal(g[3], 2);
	assert_int_equal(g[7], 2);
	assert_int_equal(g[2], MESS_FLEET_NO_GROUP);
	assert_int_equal(mess_fleet_group(keys, 0, g, &ng), 0);
	assert_int_equal(ng, 0);
}

/*
 * Two groups of one metric.  Group 0: 100 101 99 100 80 (median 100,
 * deviations 0 1 1 0 20, MAD 1, scale 1.4826): the 80 is at -13.5, the
 * others within 0.7.  Group 1 has 2 nodes: below MESS_FLEET_MIN_NODES, no
 * centre.  A NAN is left out and scores NAN.
 */
static void test_zscores(void **state)
{
	double x[] = { 100, 101, 50, 99, 100, NAN, 80, 52 };
	size_t g[] = { 0, 0, 1, 0, 0, 0, 0, 1 };
	double z[8], med[2], sc[2];

	assert_int_equal(mess_fleet_zscores(x, 8, 1, g, 2, MESS_FLEET_MIN_NODES,
					    0.001, z, med, sc), 0);
	assert_near(med[0], 100, 0);
	assert_near(sc[0], MESS_MAD_TO_SD, 1e-12);
	assert_near(z[6], -20 / MESS_MAD_TO_SD, 1e-9);
	assert_true(fabs(z[6]) > MESS_FLEET_MAD_DEFAULT);
	for (int i = 0; i < 5; i++)
		if (i != 2)
			assert_true(fabs(z[i]) < 1);
	assert_true(isnan(z[5]));
	assert_true(isnan(med[1]) && isnan(sc[1]));
	assert_true(isnan(z[2]) && isnan(z[7]));

	/* Two metrics side by side keep their columns apart. */
	double x2[] = { 1, 10, 2, 20, 3, 30, 4, 400 };
	size_t g2[] = { 0, 0, 0, 0 };
	double z2[8], med2[2];

	assert_int_equal(mess_fleet_zscores(x2, 4, 2, g2, 1, 3, 0, z2, med2, NULL), 0);
	assert_near(med2[0], 2.5, 0);
	assert_near(med2[1], 25, 0);
	/* 10 20 30 400: deviations 15 5 5 375, MAD 10. */
	assert_near(z2[7], 375 / (MESS_MAD_TO_SD * 10), 1e-9);
}

/* A single curve at 100 % reads: unloaded lat0 at bandwidth 0, then
 * linear to (maxbw, top). */
static struct mess_model *line(double lat0, double maxbw, double top)
{
	struct mess_family f = { 0 };
	struct mess_curve *c = mess_family_curve(&f, 0, 100);
	struct mess_model *m;

	assert_non_null(c);
	for (int i = 1; i <= 4; i++) {
		struct mess_point p = {
			.store_pct = 0, .read_pct = 100, .nop = 100 - i,
			.bw_gbs = maxbw * i / 4, .lat_ns = lat0 + (top - lat0) * i / 4,
		};
		assert_int_equal(mess_curve_add(c, &p), 0);
	}
	f.unloaded_ns = lat0;
	assert_int_equal(mess_model_new(&f, &m), 0);
	mess_family_free(&f);
	return m;
}

/*
 * Three nodes: (100 ns, 50 GB/s, 200 ns), (110, 40, 220), (90, 60, 160).
 * At u of its own maximum each is at lat0 + (top - lat0) u: at u = 1/2
 * 150, 165, 125 -> median 150; at u = 1: 200, 220, 160 -> 200.  Median
 * maximum 50 GB/s.  A NULL model is left out.
 */
static void test_median_curve(void **state)
{
	const struct mess_model *m[4] = { line(100, 50, 200), line(110, 40, 220),
					  NULL, line(90, 60, 160) };
	double r[4] = { 100, 100, 100, 100 }, bw[2], lat[2], sp[2];

	assert_int_equal(mess_fleet_median_curve(m, r, 4, 2, bw, lat, sp), 3);
	assert_near(bw[0], 25, 1e-9);
	assert_near(bw[1], 50, 1e-9);
	assert_near(lat[0], 150, 1e-9);
	assert_near(lat[1], 200, 1e-9);
	/* u = 1: deviations 0 20 40, MAD 20. */
	assert_near(sp[1], MESS_MAD_TO_SD * 20, 1e-9);
	assert_int_equal(mess_fleet_median_curve(m, r, 4, 0, bw, lat, sp), -EINVAL);
	for (int i = 0; i < 4; i++)
		mess_model_free((struct mess_model *)m[i]);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_robust),
		cmocka_unit_test(test_group),
		cmocka_unit_test(test_zscores),
		cmocka_unit_test(test_median_curve),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
