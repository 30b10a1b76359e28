// SPDX-License-Identifier: MIT
/*
 * The curve containers' sort on long curves (issue 22: an
 * export of 300k rows by increasing nop took 393 s in an insertion sort):
 * the order they give, ties kept, and a CPU-time bound far above n log n
 * and far below n^2.
 */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cmocka.h>

#include "mess/curve.h"

#define LONG_N 300000
/* CPU seconds: the n log n sorts take milliseconds (0.7 s for the whole
 * binary under ASan and UBSan on a loaded 2-core guest), the quadratic
 * ones took minutes; 3 s left a sanitizer build on a slower CPU no factor
 * 5 (issue 43). */
#define LONG_S 15.0

static double cpu_s(void)
{
	return (double)clock() / CLOCKS_PER_SEC;
}

static void test_ties_keep_order(void **state)
{
	static const uint64_t nop[] = { 5, 3, 5, 3, 1, 9, 5 };
	static const uint64_t want_nop[] = { 9, 5, 5, 5, 3, 3, 1 };
	static const double want_tag[] = { 5, 0, 2, 6, 1, 3, 4 };
	struct mess_curve c = { 0 };

	(void)state;
	for (size_t i = 0; i < sizeof(nop) / sizeof(nop[0]); i++) {
		struct mess_point p = MESS_POINT_INIT;

		p.nop = nop[i];
		p.bw_gbs = (double)i;	/* the tag: where it was */
		assert_int_equal(mess_curve_add(&c, &p), 0);
	}
	mess_curve_sort_pressure(&c);
	for (size_t i = 0; i < c.n; i++) {
		assert_int_equal(c.pts[i].nop, want_nop[i]);
		assert_true(c.pts[i].bw_gbs == want_tag[i]);
	}
	mess_curve_free(&c);
}

static void test_long_curve_reversed(void **state)
{
	struct mess_curve c = { 0 };
	double t0;

	(void)state;
	for (size_t i = 0; i < LONG_N; i++) {
		struct mess_point p = MESS_POINT_INIT;

		p.nop = i / 2;	/* increasing, every value twice */
		p.bw_gbs = (double)i;
		assert_int_equal(mess_curve_add(&c, &p), 0);
	}
	t0 = cpu_s();
	mess_curve_sort_pressure(&c);
	assert_true(cpu_s() - t0 < LONG_S);
	for (size_t i = 1; i < c.n; i++) {
		assert_true(c.pts[i - 1].nop >= c.pts[i].nop);
		if (c.pts[i - 1].nop == c.pts[i].nop)
			assert_true(c.pts[i - 1].bw_gbs < c.pts[i].bw_gbs);
	}
	mess_curve_free(&c);
}

/* A family read at p99: lat_ns is each point's p99, a point without one
 * is left out, the spread of means unknown; a bad name changes nothing. */
static void test_at_stat(void **state)
{
	struct mess_family f = { 0 };
	struct mess_curve *c = mess_family_curve(&f, 0, 100);
	int i;

	(void)state;
	assert_non_null(c);
	for (i = 0; i < 4; i++) {
		struct mess_point p = MESS_POINT_INIT;

		p.nop = 10 - (uint64_t)i;
		p.bw_gbs = i + 1;
		p.lat_ns = 100 + i;
		p.lat_ns_std = 1;
		p.lat_p99_ns = i == 2 ? NAN : 300 + i;
		p.lat_p999_ns = NAN;
		assert_int_equal(mess_curve_add(c, &p), 0);
	}
	assert_int_equal(mess_family_at_stat(&f, "p98"), -EINVAL);
	assert_int_equal(f.curves[0].n, 4);
	assert_int_equal(mess_family_at_stat(&f, "mean"), 0);
	assert_true(f.curves[0].pts[0].lat_ns == 100);
	assert_int_equal(mess_family_at_stat(&f, "p99"), 0);
	assert_int_equal(f.curves[0].n, 3);
	assert_true(f.curves[0].pts[0].lat_ns == 300);
	assert_true(f.curves[0].pts[2].lat_ns == 303);
	assert_true(f.curves[0].pts[2].nop == 7);
	assert_true(isnan(f.curves[0].pts[1].lat_ns_std));
	assert_int_equal(mess_family_at_stat(&f, "p99.9"), -ENODATA);
	assert_int_equal(f.curves[0].n, 0);
	mess_family_free(&f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ties_keep_order),
		cmocka_unit_test(test_long_curve_reversed),
		cmocka_unit_test(test_at_stat),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
