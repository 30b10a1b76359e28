// SPDX-License-Identifier: MIT
/* mess check's maths with answers worked out by hand: each figure's move
 * in its combined spreads, the spread of an interpolated latency, the
 * worst first, and what cannot be judged. */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "mess/check.h"
#include "near.h"

/* One mix, 0 % stores: points (bw, lat, lat sd, bw sd), unloaded 90 ns.
 * The model: (0, 90) anchor, (10, 95), (20, 100), (30, 105), (40, 110),
 * (80, 150): its inner points on the line through their neighbours but
 * (40, 110).  The spread model (no anchor): 1, 1, 2, 2, 4. */
static const double pts[5][4] = {
	{ 10, 95, 1, 0.5 }, { 20, 100, 1, 0.5 }, { 30, 105, 2, 0.5 },
	{ 40, 110, 2, 0.5 }, { 80, 150, 4, 2 },
};

static void family(struct mess_family *f, uint32_t store, double lat_scale,
		   double bw_top, double sd_scale)
{
	struct mess_curve *c;

	memset(f, 0, sizeof(*f));
	f->unloaded_ns = 90 * lat_scale;
	c = mess_family_curve(f, store, 100);
	assert_non_null(c);
	for (int i = 0; i < 5; i++) {
		struct mess_point p = MESS_POINT_INIT;

		p.store_pct = store;
		p.read_pct = 100;
		p.nop = 100 - i;
		p.bw_gbs = i == 4 ? bw_top : pts[i][0];
		p.lat_ns = pts[i][1] * lat_scale;
		p.lat_ns_std = pts[i][2] * sd_scale;
		p.bw_gbs_std = pts[i][3];
		assert_int_equal(mess_curve_add(c, &p), 0);
	}
}

/* At 25 and 50 % of 80 GB/s: points (100 ns, spread 1; 110 ns, 2).  At
 * 75 %, 60 GB/s: 130 ns on the last segment, its points' spreads 3; the
 * segment before, extended, gives 120: a shape spread of 5, sqrt(34) in
 * all. */
static void test_same(void **state)
{
	struct mess_family a, b;
	struct mess_check c;

	family(&a, 0, 1, 80, 1);
	family(&b, 0, 1, 80, 1);
	assert_int_equal(mess_check_new(&a, 1, 0, &b, 1, 0, 3, &c), 0);
	assert_int_equal(c.n, 5);
	assert_int_equal(c.mixes, 1);
	assert_int_equal(c.count[MESS_CHECK_WITHIN], 5);
	assert_int_equal(c.fig[2].what, MESS_CHECK_LAT_AT_BW);
	assert_near(c.fig[2].bw_gbs, 20, 1e-12);
	assert_near(c.fig[2].base, 100, 1e-9);
	assert_near(c.fig[2].base_sd, 1, 1e-9);
	assert_near(c.fig[2].limit, 3 * sqrt(2), 1e-9);
	assert_near(c.fig[4].base, 130, 1e-9);
	assert_near(c.fig[4].base_shape, 5, 1e-9);
	assert_near(c.fig[4].base_sd, sqrt(34), 1e-9);
	assert_near(c.fig[1].base, 80, 0);
	assert_near(c.fig[1].base_sd, 2, 0);
	mess_check_free(&c);
	mess_family_free(&a);
	mess_family_free(&b);
}

/* Every latency 10 % up, the same spreads: unloaded 9 / sqrt(2) = 6.36
 * spreads, 25 %: 10 / sqrt(2) = 7.07, 50 %: 11 / (2 sqrt 2) = 3.89; 75 %
 * (the run's 143 ns, its shape 5.5, spread sqrt(39.25)): 13 / sqrt(73.25)
 * = 1.52, within; the maximum bandwidth within.  Worst first. */
static void test_latency_up(void **state)
{
	struct mess_family a, b;
	struct mess_check c;
	size_t idx[8];
	char name[96];

	family(&a, 0, 1, 80, 1);
	family(&b, 0, 1.1, 80, 1);
	assert_int_equal(mess_check_new(&a, 1, 0, &b, 1, 0, 3, &c), 0);
	assert_int_equal(c.count[MESS_CHECK_REGRESSED], 3);
	assert_int_equal(c.fig[1].state, MESS_CHECK_WITHIN);
	assert_int_equal(c.fig[4].state, MESS_CHECK_WITHIN);
	assert_near(c.fig[0].sigmas, 9 / sqrt(2), 1e-9);
	assert_near(c.fig[0].change_pct, 10, 1e-9);
	assert_near(c.fig[2].sigmas, 10 / sqrt(2), 1e-9);
	assert_near(c.fig[3].sigmas, 11 / (2 * sqrt(2)), 1e-9);
	assert_near(c.fig[4].run_shape, 5.5, 1e-9);
	assert_near(c.fig[4].sigmas, 13 / sqrt(73.25), 1e-9);
	assert_int_equal(mess_check_worst(&c, idx), 3);
	assert_int_equal(idx[0], 2);
	assert_int_equal(idx[1], 0);
	assert_int_equal(idx[2], 3);
	mess_check_name(&c.fig[3], name, sizeof(name));
	assert_string_equal(name, "mix 0 % stores: latency at 50 % of max (40.0 GB/s)");
	mess_check_name(&c.fig[0], name, sizeof(name));
	assert_string_equal(name, "unloaded latency");
	mess_check_free(&c);

	/* With k = 4 only those beyond 4 spreads: 25 % and unloaded. */
	assert_int_equal(mess_check_new(&a, 1, 0, &b, 1, 0, 4, &c), 0);
	assert_int_equal(c.count[MESS_CHECK_REGRESSED], 2);
	mess_check_free(&c);

	/* The other way round: improved, nothing regressed. */
	assert_int_equal(mess_check_new(&b, 1, 0, &a, 1, 0, 3, &c), 0);
	assert_int_equal(c.count[MESS_CHECK_REGRESSED], 0);
	assert_int_equal(c.count[MESS_CHECK_IMPROVED], 3);
	mess_check_free(&c);
	mess_family_free(&a);
	mess_family_free(&b);
}

/* The maximum bandwidth 10 GB/s down (spreads 2 and 2): 10 / 2.83 = 3.54
 * spreads; the common bandwidths then are shares of the run's 70. */
static void test_bandwidth_down(void **state)
{
	struct mess_family a, b;
	struct mess_check c;

	family(&a, 0, 1, 80, 1);
	family(&b, 0, 1, 70, 1);
	assert_int_equal(mess_check_new(&a, 1, 0, &b, 1, 0, 3, &c), 0);
	assert_int_equal(c.fig[1].what, MESS_CHECK_MAX_BW);
	assert_int_equal(c.fig[1].state, MESS_CHECK_REGRESSED);
	assert_near(c.fig[1].sigmas, 10 / sqrt(8), 1e-9);
	assert_near(c.fig[1].change_pct, -12.5, 1e-9);
	assert_near(c.fig[4].bw_gbs, 52.5, 1e-9);
	mess_check_free(&c);
	/* Up is no regression. */
	assert_int_equal(mess_check_new(&b, 1, 0, &a, 1, 0, 3, &c), 0);
	assert_int_equal(c.fig[1].state, MESS_CHECK_IMPROVED);
	mess_check_free(&c);
	mess_family_free(&a);
	mess_family_free(&b);
}

/* No spreads (a public set), spreads of 0, an unknown unloaded spread:
 * unjudged, never regressed; bad k and no common mix refused. */
static void test_unjudged(void **state)
{
	struct mess_family a, b, none, zero;
	struct mess_check c;

	family(&a, 0, 1, 80, 1);
	family(&b, 0, 1.1, 80, 1);
	family(&none, 0, 1.1, 80, NAN);
	family(&zero, 0, 1.1, 80, 0);
	assert_true(mess_check_has_spreads(&a));
	assert_false(mess_check_has_spreads(&none));
	assert_true(mess_check_has_spreads(&zero));

	assert_int_equal(mess_check_new(&a, NAN, 0, &b, 1, 0, 3, &c), 0);
	assert_int_equal(c.fig[0].state, MESS_CHECK_UNJUDGED);
	assert_near(c.fig[0].change_pct, 10, 1e-9);
	assert_true(isnan(c.fig[0].limit));
	mess_check_free(&c);

	/* Zero spreads on both sides: no limit. */
	mess_family_free(&b);
	family(&b, 0, 1, 80, 0);
	assert_int_equal(mess_check_new(&b, 0, 0, &zero, 0, 0, 3, &c), 0);
	/* Only the shape's spread at 75 % remains to judge by. */
	for (size_t i = 0; i < c.n; i++)
		if (c.fig[i].what != MESS_CHECK_MAX_BW)
			assert_int_equal(c.fig[i].state, i == 4 ?
					 MESS_CHECK_WITHIN : MESS_CHECK_UNJUDGED);
	mess_check_free(&c);
	mess_family_free(&b);

	assert_int_equal(mess_check_new(&a, 1, 0, &none, 1, 0, 3, &c), 0);
	assert_int_equal(c.count[MESS_CHECK_REGRESSED], 1);	/* the unloaded */
	assert_int_equal(c.count[MESS_CHECK_UNJUDGED], 3);
	mess_check_free(&c);

	assert_int_equal(mess_check_new(&a, 1, 0, &a, 1, 0, 0, &c), -EINVAL);
	mess_check_free(&c);
	family(&b, 50, 1, 80, 1);
	assert_int_equal(mess_check_new(&a, 1, 0, &b, 1, 0, 3, &c), -EINVAL);
	mess_check_free(&c);
	mess_family_free(&a);
	mess_family_free(&b);
	mess_family_free(&none);
	mess_family_free(&zero);
}

/* A convex curve, both neighbours: (10, 100) (50, 110) (100, 150)
 * (120, 200), no unloaded.  At 75 % of 120 = 90: the chord 142, the
 * segment before extended 120, the one after 150 - 2.5 x 10 = 125: the
 * curve lies in 125..142, a shape spread of 8.5. */
static void test_shape(void **state)
{
	static const double q[4][2] = { { 10, 100 }, { 50, 110 }, { 100, 150 },
					 { 120, 200 } };
	struct mess_family a = { 0 };
	struct mess_curve *cv = mess_family_curve(&a, 0, 100);
	struct mess_check c;

	assert_non_null(cv);
	for (int i = 0; i < 4; i++) {
		struct mess_point p = MESS_POINT_INIT;

		p.read_pct = 100;
		p.nop = 100 - i;
		p.bw_gbs = q[i][0];
		p.lat_ns = q[i][1];
		p.lat_ns_std = 0;
		p.bw_gbs_std = 1;
		assert_int_equal(mess_curve_add(cv, &p), 0);
	}
	assert_int_equal(mess_check_new(&a, NAN, 0, &a, NAN, 0, 3, &c), 0);
	assert_near(c.fig[4].bw_gbs, 90, 1e-12);
	assert_near(c.fig[4].base, 142, 1e-9);
	assert_near(c.fig[4].base_shape, 8.5, 1e-9);
	assert_near(c.fig[4].limit, 3 * 8.5 * sqrt(2), 1e-9);
	mess_check_free(&c);
	mess_family_free(&a);
}

/* A figure read from a point its run flags is not judged, however far
 * it moved: the run says the point cannot be trusted.  At 50 % (40 GB/s,
 * a point): only that point counts; at 75 % (60 GB/s), both ends of its
 * segment; the maximum bandwidth, its point. */
static void test_flagged(void **state)
{
	struct mess_family a, b;
	struct mess_check c;

	family(&a, 0, 1, 80, 1);
	family(&b, 0, 1.1, 80, 1);
	b.curves[0].pts[3].flags = 1;	/* (40, 121) */
	assert_int_equal(mess_check_new(&a, 1, 0, &b, 1, 0, 3, &c), 0);
	assert_int_equal(c.fig[3].state, MESS_CHECK_UNJUDGED);
	assert_int_equal(c.fig[3].flagged, 2);
	assert_near(c.fig[3].sigmas, 11 / (2 * sqrt(2)), 1e-9);	/* said */
	assert_int_equal(c.fig[4].flagged, 2);
	assert_int_equal(c.fig[2].flagged, 0);
	assert_int_equal(c.fig[2].state, MESS_CHECK_REGRESSED);
	assert_int_equal(c.fig[1].flagged, 0);
	mess_check_free(&c);
	a.curves[0].pts[4].flags = 1;	/* (80, 150): the maximum */
	assert_int_equal(mess_check_new(&a, 1, 0, &b, 1, 0, 3, &c), 0);
	assert_int_equal(c.fig[1].flagged, 1);
	assert_int_equal(c.fig[1].state, MESS_CHECK_UNJUDGED);
	assert_int_equal(c.fig[4].flagged, 3);
	assert_int_equal(c.count[MESS_CHECK_REGRESSED], 2);
	mess_check_free(&c);
	mess_family_free(&a);
	mess_family_free(&b);
}

/* Every latency 10 % up and the run drifted 5 % while it ran: the limit
 * gains 0.05 x the run's figure.  Unloaded: 9 against 3 sqrt 2 + 4.95 =
 * 9.19, within; 25 %: 10 against 3 sqrt 2 + 5.5 = 9.74, regressed; 50 %:
 * 11 against 6 sqrt 2 + 6.05 = 14.54, within.  An unknown drift (NAN)
 * adds nothing: test_latency_up's three. */
static void test_drift(void **state)
{
	struct mess_family a, b;
	struct mess_check c;

	family(&a, 0, 1, 80, 1);
	family(&b, 0, 1.1, 80, 1);
	assert_int_equal(mess_check_new(&a, 1, 0, &b, 1, 0.05, 3, &c), 0);
	assert_near(c.fig[0].drift, 4.95, 1e-9);
	assert_near(c.fig[0].limit, 3 * sqrt(2) + 4.95, 1e-9);
	assert_int_equal(c.fig[0].state, MESS_CHECK_WITHIN);
	assert_near(c.fig[2].limit, 3 * sqrt(2) + 5.5, 1e-9);
	assert_int_equal(c.fig[2].state, MESS_CHECK_REGRESSED);
	assert_near(c.fig[3].limit, 6 * sqrt(2) + 6.05, 1e-9);
	assert_int_equal(c.fig[3].state, MESS_CHECK_WITHIN);
	assert_int_equal(c.count[MESS_CHECK_REGRESSED], 1);
	mess_check_free(&c);
	assert_int_equal(mess_check_new(&a, 1, NAN, &b, 1, NAN, 3, &c), 0);
	assert_near(c.fig[0].drift, 0, 0);
	assert_int_equal(c.count[MESS_CHECK_REGRESSED], 3);
	mess_check_free(&c);
	mess_family_free(&a);
	mess_family_free(&b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_same),
		cmocka_unit_test(test_latency_up),
		cmocka_unit_test(test_bandwidth_down),
		cmocka_unit_test(test_unjudged),
		cmocka_unit_test(test_shape),
		cmocka_unit_test(test_flagged),
		cmocka_unit_test(test_drift),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
