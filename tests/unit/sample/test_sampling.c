// SPDX-License-Identifier: MIT
/* The sampling study's maths (mess/sampling.h): known answers. */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "mess/sampling.h"

static void test_accuracy(void **state)
{
	/* The paper's eq. 1: 1e6 accesses, 240 samples at period 4000. */
	assert_true(fabs(mess_sampling_accuracy(1e6, 240, 4000) - 0.96) < 1e-12);
	assert_true(fabs(mess_sampling_accuracy(1e6, 260, 4000) - 0.96) < 1e-12);
	assert_true(fabs(mess_sampling_accuracy(1e6, 250, 4000) - 1.0) < 1e-12);
	/* Twice too many samples: 0; more: negative, as eq. 1 says. */
	assert_true(fabs(mess_sampling_accuracy(1e6, 500, 4000)) < 1e-12);
	assert_true(mess_sampling_accuracy(1e6, 750, 4000) < 0);
	assert_true(isnan(mess_sampling_accuracy(0, 5, 4000)));
}

static void test_overhead(void **state)
{
	const double base[] = { 1.0, 2.0, 1.0, 4.0 };
	const double with[] = { 1.01, 2.06, 1.02, 4.0 };
	double med, spread;

	assert_int_equal(mess_sampling_overhead(base, with, 4, &med, &spread), 0);
	/* ratios 0.01, 0.03, 0.02, 0: median 0.015, spread 0.03 */
	assert_true(fabs(med - 0.015) < 1e-12);
	assert_true(fabs(spread - 0.03) < 1e-12);
	assert_int_equal(mess_sampling_overhead(base, with, 3, &med, &spread), 0);
	assert_true(fabs(med - 0.02) < 1e-12);
	assert_int_equal(mess_sampling_overhead(base, with, 0, &med, &spread), -EINVAL);
	const double zero[] = { 0.0 };
	assert_int_equal(mess_sampling_overhead(zero, with, 1, &med, &spread), -EINVAL);
}

static void test_recommend(void **state)
{
	/* The period sweep at 16 pages, the aux sweep at period 3000. */
	const struct mess_sampling_point p[] = {
		{ 1000, 16, 0.60, 0.05 }, { 2000, 16, 0.85, 0.03 },
		{ 3000, 16, 0.95, 0.02 }, { 4000, 16, 0.945, 0.01 },
		{ 5000, 16, 0.93, 0.005 }, { 50000, 16, 0.96, 0.06 },
		{ 3000, 2, 0.70, 0.02 }, { 3000, 8, 0.94, 0.02 },
		{ 3000, 32, 0.951, 0.02 }, { 3000, 64, 0.96, 0.02 },
	};
	int64_t period, aux;

	mess_sampling_recommend(p, sizeof(p) / sizeof(p[0]), 0.94, 0.033, 16, 3000,
				&period, &aux);
	assert_int_equal(period, 4000);	/* 50000 is over the budget */
	assert_int_equal(aux, 16);	/* 0.95 is within 0.01 of 0.96 */
	mess_sampling_recommend(p, sizeof(p) / sizeof(p[0]), 0.99, 0.033, 16, 3000,
				&period, &aux);
	assert_int_equal(period, -1);
	mess_sampling_recommend(p, 0, 0.94, 1, 0, 0, &period, &aux);
	assert_true(period == -1 && aux == -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_accuracy),
		cmocka_unit_test(test_overhead),
		cmocka_unit_test(test_recommend),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
