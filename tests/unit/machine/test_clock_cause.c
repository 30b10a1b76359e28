// SPDX-License-Identifier: MIT
/* Why the chase core's clock ranged as it did (curves/verdict/quality.c,
 * issue 34 item 11): a reading of 30 MHz on a guest with no cpufreq is a
 * descheduled window, never "turbo under load, or a governor"; below the
 * lowest P-state likewise; the governor and turbo where they fit. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "curves/measured/measured.h"

static const char *cause(double lo, double hi, const char *gov, double pmin,
			 double nominal)
{
	static char buf[MESS_REASON_LEN];
	struct mess_clock_seen c = { .lo = lo, .hi = hi, .pstate_min_ghz = pmin,
				     .nominal_ghz = nominal };

	snprintf(c.governor, sizeof(c.governor), "%s", gov);
	return mess_clock_range_cause(&c, buf, sizeof(buf));
}

static void test_guest_descheduled(void **state)
{
	const char *s = cause(0.03, 3.40, "", NAN, 2.1);

	(void)state;
	/* The VM: no cpufreq, 0.03-3.40 GHz. */
	assert_non_null(strstr(s, "descheduled"));
	assert_non_null(strstr(s, "no cpufreq"));
	assert_non_null(strstr(s, "0.03 GHz"));
	assert_null(strstr(s, "turbo"));
	assert_null(strstr(s, "governor"));
}

static void test_below_pstate(void **state)
{
	const char *s = cause(0.30, 3.50, "performance", 0.80, 2.0);

	(void)state;
	assert_non_null(strstr(s, "0.30 GHz is far below the lowest P-state (0.80 GHz)"));
	assert_non_null(strstr(s, "descheduled"));
	/* At a P-state a low reading is a clock: the governor's. */
	s = cause(0.80, 3.50, "powersave", 0.80, 2.0);
	assert_non_null(strstr(s, "governor"));
	assert_null(strstr(s, "descheduled"));
}

static void test_turbo_and_rest(void **state)
{
	const char *s = cause(2.00, 3.50, "performance", 0.80, 2.0);

	(void)state;
	assert_non_null(strstr(s, "turbo"));
	/* A guest whose range is a clock's (2.6-3.4 GHz): not descheduled. */
	s = cause(2.60, 3.40, "", NAN, NAN);
	assert_null(strstr(s, "descheduled"));
	assert_non_null(strstr(s, "no cpufreq"));
	/* The guest, 1.59-3.06 GHz beside a 2.0 GHz nominal: not
	 * called turbo, which nothing inside a guest shows. */
	s = cause(1.59, 3.06, "", NAN, 2.0);
	assert_null(strstr(s, "turbo under load"));
	assert_non_null(strstr(s, "cannot be told"));
	assert_non_null(strstr(s, "a vCPU run for part of a window"));
	/* Nothing known: the general causes. */
	s = cause(2.60, 3.40, "performance", NAN, NAN);
	assert_non_null(strstr(s, "turbo under load, or power and thermal limits"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_guest_descheduled),
		cmocka_unit_test(test_below_pstate),
		cmocka_unit_test(test_turbo_and_rest),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
