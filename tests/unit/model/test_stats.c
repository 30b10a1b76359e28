// SPDX-License-Identifier: MIT
/* The statistics module and the JSON number rule, with known answers. */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "mess/json.h"
#include "mess/stats.h"
#include "near.h"

static void test_median(void **state)
{
	double odd[] = { 5, 1, 3 }, even[] = { 4, 1, 3, 2 }, one[] = { 7 };

	assert_near(mess_median(odd, 3), 3, 0);
	assert_near(mess_median(even, 4), 2.5, 0);
	assert_near(mess_median(one, 1), 7, 0);
}

/* The one nearest-rank quantile (issue 44: the host-state probes had their
 * own), v unchanged; and the one median the sampling study and the raw
 * Mess clocks now take (each had its own sort and middle). */
static void test_quantile(void **state)
{
	const double v[] = { 5, 1, 4, 2, 3, 10, 9, 8, 7, 6 };
	double big[] = { 3e300, 1e300 };

	(void)state;
	assert_near(mess_quantile(v, 10, 0.1), 1, 0);
	assert_near(mess_quantile(v, 10, 0.5), 5, 0);
	assert_near(mess_quantile(v, 10, 0.9), 9, 0);
	assert_near(mess_quantile(v, 10, 1), 10, 0);
	assert_near(mess_quantile(v, 10, 0), 1, 0);
	assert_near(mess_quantile(v, 1, 0.1), 5, 0);
	assert_true(isnan(mess_quantile(v, 0, 0.5)));
	assert_near(v[0], 5, 0);
	/* a size_t count, sorted in place: the clocks' min and max after it */
	assert_near(mess_median(big, (size_t)2), 2e300, 1e286);
	assert_near(big[0], 1e300, 0);
}

/* 1, 2, 3, 4, 100: median 3, deviations 2 1 0 1 97, their median 1. */
static void test_mad_sd(void **state)
{
	double v[] = { 1, 100, 3, 4, 2 }, copy[5], med = 0;

	memcpy(copy, v, sizeof(v));
	assert_near(mess_mad_sd(v, 5, &med), MESS_MAD_TO_SD * 1, 1e-12);
	assert_near(med, 3, 0);
	/* The input is left as it was (callers reuse it). */
	assert_memory_equal(v, copy, sizeof(v));
	/* One disturbed repeat barely moves it: the point of using it. */
	v[1] = 1e9;
	assert_near(mess_mad_sd(v, 5, NULL), MESS_MAD_TO_SD * 1, 1e-12);
	/* Identical values: no spread. */
	double same[] = { 2, 2, 2 };
	assert_near(mess_mad_sd(same, 3, NULL), 0, 0);
}

/* 2, 4, 4, 4, 5, 5, 7, 9: mean 5, squared deviations sum 32, n - 1 = 7. */
static void test_stddev(void **state)
{
	double v[] = { 2, 4, 4, 4, 5, 5, 7, 9 };

	assert_near(mess_stddev(v, 8), sqrt(32.0 / 7), 1e-12);
	assert_near(mess_stddev(v, 1), 0, 0);
}

/* Unknown numbers are null, never 0; known ones keep their decimals. */
static void test_json_real(void **state)
{
	json_t *a = mess_json_real(NAN, 3), *b = mess_json_real(INFINITY, 1);
	json_t *c = mess_json_real(12.34567, 2), *d = mess_json_real(-0.0049, 2);
	char *s;

	assert_true(json_is_null(a));
	assert_true(json_is_null(b));
	assert_near(json_real_value(c), 12.35, 1e-12);
	assert_near(json_real_value(d), 0, 1e-12);
	/* Printed with the digits the rounding left, not 12.349999999. */
	s = json_dumps(c, JSON_ENCODE_ANY | JSON_REAL_PRECISION(15));
	assert_string_equal(s, "12.35");
	free(s);
	json_decref(a);
	json_decref(b);
	json_decref(c);
	json_decref(d);
}

/* A pack format that does not match its arguments is NULL, not a crash
 * or a file with a member missing. */
static void test_json_pack_merge(void **state)
{
	json_t *o = mess_json_pack("{s:i}", "a", 1);

	assert_non_null(o);
	assert_null(mess_json_pack("{s:i, s:o}", "b", 2, "c", NULL));
	assert_int_equal(mess_json_merge(o, mess_json_pack("{s:i, s:s}", "b", 2,
							   "c", "x")), 0);
	assert_int_equal(json_object_size(o), 3);
	assert_string_equal(json_object_iter_key(json_object_iter(o)), "a");
	assert_int_equal(mess_json_merge(o, NULL), -ENOMEM);
	json_decref(o);
}

/* Jain's index: equal shares 1, one core with everything 1/n, and the
 * textbook case 1, 2, 3: 36 / (3 x 14) = 6/7; scale does not matter. */
static void test_jain(void **state)
{
	double eq[] = { 5, 5, 5, 5 }, one[] = { 0, 0, 9, 0 }, x[] = { 1, 2, 3 };
	double y[] = { 10, 20, 30 }, zero[] = { 0, 0 };

	(void)state;
	assert_near(mess_jain(eq, 4), 1, 1e-15);
	assert_near(mess_jain(one, 4), 0.25, 1e-15);
	assert_near(mess_jain(x, 3), 6.0 / 7, 1e-15);
	assert_near(mess_jain(y, 3), 6.0 / 7, 1e-15);
	assert_true(isnan(mess_jain(zero, 2)));
	assert_true(isnan(mess_jain(x, 0)));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_median),
		cmocka_unit_test(test_quantile),
		cmocka_unit_test(test_jain),
		cmocka_unit_test(test_mad_sd),
		cmocka_unit_test(test_stddev),
		cmocka_unit_test(test_json_real),
		cmocka_unit_test(test_json_pack_merge),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
