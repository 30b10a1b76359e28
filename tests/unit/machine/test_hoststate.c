// SPDX-License-Identifier: MIT
/* The host-state probes (core/measure/hoststate.h): the rule that two probes are
 * apart, the nearest-rank quantile the references are taken by, and what
 * open and a probe record (not their timing: figures only finite and
 * ordered as any machine has them). */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include <cmocka.h>

#include "core/measure/hoststate.h"
#include "near.h"

static void test_apart(void **state)
{
	struct mess_hoststate_probe q = { 27.0, 3.4 };
	struct mess_hoststate_probe cases[] = {
		{ 34.9, 3.4 },		/* cost 7.9 ns: same state */
		{ 35.1, 3.4 },		/* cost 8.1 ns: apart */
		{ 28.1, 3.4 },		/* cost 1.1 ns: same (apart at 1 ns) */
		{ 27.0, 5.3 },		/* L2 1.9 ns: same */
		{ 27.0, 5.5 },		/* L2 2.1 ns: apart */
		{ 33.0, 55.0 },		/* issue 32's slow state */
		{ NAN, 3.4 },		/* no cost: not judged */
		{ 27.0, NAN },		/* no L2 chain: the cost alone */
		{ 40.0, NAN },
	};
	const int want[] = { 0, 1, 0, 0, 1, 1, 0, 0, 1 };

	(void)state;
	for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		assert_int_equal(mess_hoststate_apart(&q, &cases[i]), want[i]);
		assert_int_equal(mess_hoststate_apart(&cases[i], &q), want[i]);
	}
}

/* What open and a probe record; a 1 GHz tick stands in for the timer
 * (the figures are then in ticks, and only their shape is checked). */
static void test_open_probe(void **state)
{
	struct mess_hoststate s, none;
	struct mess_hoststate_probe p;

	(void)state;
	assert_int_equal(mess_hoststate_open(&s, 1.0, 1, 64, 48u << 10,
					     1u << 20, 7, 3, 200), 0);
	/* a quarter of the L2, whole passes of 1024 lines */
	assert_int_equal(s.l2_lines, 4096);
	assert_int_equal(s.ncosts, 1);
	assert_int_equal(s.nl2s, 1);
	assert_true(isfinite(s.costs[0]));
	assert_true(s.l2s[0] > 0);
	mess_hoststate_probe(&s, &p);
	assert_int_equal(s.ncosts, 2);
	assert_int_equal(s.nl2s, 2);
	assert_true(isfinite(p.cost_ns) && p.l2_ns > 0);
	assert_true(isfinite(mess_hoststate_cost_median(&s)));
	assert_true(mess_hoststate_l2_ref(&s) > 0);
	mess_hoststate_close(&s);
	/* an L2 under four times the L1 has no chain: NAN, not a figure */
	assert_int_equal(mess_hoststate_open(&none, 1.0, 1, 64, 48u << 10,
					     128u << 10, 7, 3, 200), 0);
	assert_int_equal(none.l2_lines, 0);
	mess_hoststate_probe(&none, &p);
	assert_true(isnan(p.l2_ns));
	assert_true(isnan(mess_hoststate_l2_ref(&none)));
	assert_int_equal(none.ncosts, 2);
	mess_hoststate_close(&none);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_apart),
		cmocka_unit_test(test_open_probe),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
