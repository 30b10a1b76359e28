// SPDX-License-Identifier: MIT
/*
 * mess interfere's arithmetic (lib/model/interfere.c) with known answers:
 * a row's medians and p99 spread from its windows, a window that lacks a
 * figure left out, and the knee of a curve (p99 doubled), not reached, and
 * without its 0-aggressor row.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include <cmocka.h>

#include "mess/interfere.h"
#include "near.h"

static void summarise(void **state)
{
	/* Five windows, one disturbed (p99 400): the medians ignore it;
	 * p99 deviations from 102: 2 0 1 298 3, their median 2. */
	static const struct mess_ifr_win w[] = {
		{ 80, 90, 100, 150, 85 },
		{ 81, 91, 102, 160, 86 },
		{ 79, 89, 101, 155, 84 },
		{ 95, 120, 400, 900, 110 },
		{ 80, 90, 105, NAN, 85 },
	};
	struct mess_ifr_fig f;

	mess_ifr_summarise(w, 5, &f);
	assert_int_equal(f.windows, 5);
	assert_near(f.p50, 80, 0);
	assert_near(f.p90, 90, 0);
	assert_near(f.p99, 102, 0);
	assert_near(f.p99_spread, 2 * 1.4826, 1e-12);
	/* p999 of the four windows that have it: 150 155 160 900. */
	assert_near(f.p999, 157.5, 1e-12);
	assert_near(f.mean, 85, 0);
	/* No window: every figure unknown, never 0. */
	mess_ifr_summarise(w, 0, &f);
	assert_int_equal(f.windows, 0);
	assert_true(isnan(f.p50) && isnan(f.p99) && isnan(f.p99_spread) &&
		    isnan(f.mean));
}

static void knee(void **state)
{
	static const int a[] = { 0, 1, 2, 3, 4 };
	/* 2 x 100 first reached at 3 aggressors (exactly 200 counts). */
	static const double p99[] = { 100, 120, 180, 200, 350 };
	/* Not monotone: 2 reaches it, 3 falls back; the fewest is 2. */
	static const double bumpy[] = { 100, 150, 210, 190, 400 };
	static const double flat[] = { 100, 110, 120, 130, 140 };
	static const double nobase[] = { NAN, 300, 400, 500, 600 };
	/* Rows in any order, one not measured. */
	static const int b[] = { 2, 0, 1 };
	static const double shuffled[] = { 250, 100, NAN };

	assert_int_equal(mess_ifr_knee(a, p99, 5, MESS_IFR_KNEE_X), 3);
	assert_int_equal(mess_ifr_knee(a, bumpy, 5, MESS_IFR_KNEE_X), 2);
	assert_int_equal(mess_ifr_knee(a, flat, 5, MESS_IFR_KNEE_X),
			 MESS_IFR_KNEE_NOT_REACHED);
	assert_int_equal(mess_ifr_knee(a, nobase, 5, MESS_IFR_KNEE_X),
			 MESS_IFR_KNEE_NO_BASE);
	assert_int_equal(mess_ifr_knee(b, shuffled, 3, MESS_IFR_KNEE_X), 2);
	/* One row, the baseline alone: not reached (nothing added). */
	assert_int_equal(mess_ifr_knee(a, p99, 1, MESS_IFR_KNEE_X),
			 MESS_IFR_KNEE_NOT_REACHED);
	/* Another factor: 1.5 x 100 first at 2. */
	assert_int_equal(mess_ifr_knee(a, p99, 5, 1.5), 2);
}

/* The reading: a window mean of 0.67 ns against an L1 hit of
 * 1.2 ns is discarded whole (every figure NAN) and does not enter the
 * row's median; one at or above the floor is kept as it is; no floor
 * known keeps everything. */
static void impossible(void **state)
{
	struct mess_ifr_win w[3] = {
		{ 250, 260, 300, 400, 255.7 },
		{ 0.5, 0.6, 0.9, 1.0, 0.67 },
		{ 260, 270, 310, 420, 1.2 },
	}, odd = { 0.1, 0.2, 0.3, 0.4, 0.5 };
	struct mess_ifr_fig f;

	(void)state;
	assert_int_equal(mess_ifr_win_possible(&w[0], 1.2), 1);
	assert_int_equal(mess_ifr_win_possible(&w[1], 1.2), 0);
	assert_true(isnan(w[1].mean) && isnan(w[1].p50) && isnan(w[1].p999));
	assert_int_equal(mess_ifr_win_possible(&w[2], 1.2), 1);
	mess_ifr_summarise(w, 3, &f);
	assert_near(f.p50, 255, 1e-12);
	assert_near(f.mean, (255.7 + 1.2) / 2, 1e-12);
	assert_int_equal(mess_ifr_win_possible(&odd, NAN), 1);
	assert_near(odd.mean, 0.5, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(summarise),
		cmocka_unit_test(knee),
		cmocka_unit_test(impossible),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
