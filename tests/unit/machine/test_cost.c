// SPDX-License-Identifier: MIT
/*
 * The cost estimates before the work (issue 47) from known probes and
 * plans: matrix's (harness/matrix/estimate.c), interfere's
 * (harness/interfere/estimate.c), c2c's (harness/c2c/table.c), and the
 * line that says what they count (harness/core/measure/cost.c).  The
 * figures are the formulas' by hand, not this machine's.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>

#include <cmocka.h>

#include "c2c/c2c.h"
#include "core/measure/cost.h"
#include "interfere/interfere.h"
#include "matrix/matrix.h"

#define NEAR(a, b) assert_true(fabs((a) - (b)) < 1e-9)
#define GIB (1ul << 30)

/* 0.5 ns a byte populated, 40 ns a line linked, 200 a line passed. */
static const struct mess_cost_probe probe = { 0.5, 40, 200 };

/* Two pairs of a 1 GiB chase (4 Mi lines) and 512 MiB arrays: the chain's
 * linking and warm pass, missing from the estimate that read -62 % on one
 * pair, count more than the runs and windows. */
static void matrix(void **state)
{
	struct mess_mx_plan pl = { .pairs = 2, .buffer = GIB, .gen_bytes = GIB / 2,
		.repeats = 3, .run_ms = 10, .window_ms = 50, .lat_ns = 100 };
	struct mess_cost_parts s;

	mess_mx_estimate(&pl, &probe, &s);
	/* Per pair the buffer and, per mix, one thread's two arrays. */
	NEAR(s.touch_s, 2 * 3.0 * GIB * 0.5e-9);
	NEAR(s.chain_s, 2 * 4194304 * 40e-9);
	NEAR(s.pass_s, 2 * 4194304 * 100e-9);
	NEAR(s.setup_s, 0);
	/* Runs counted at 2 run_ms each, two mixes' repeated windows. */
	NEAR(s.work_s, 2 * 3 * (0.020 + 2 * 0.050));
	NEAR(s.settle_s, 2 * 2 * 0.050);
}

/* 2 mixes, 1 aggressor, 3 windows a row: 4 rows of 3 windows each
 * attempted 3 times (the probe's), where the estimate that read -79 %
 * counted one attempt of run_ms. */
static void interfere(void **state)
{
	struct mess_ifr_plan pl = { .mixes = 2, .naggr = 1, .repeats = 3,
		.settle_ms = 50, .buffer = GIB, .gen_bytes = GIB / 2, .lat_ns = 100,
		.setup_s = 0.1, .window_s = 0.06, .attempts = 3 };
	struct mess_cost_parts s;

	mess_ifr_estimate(&pl, &probe, &s);
	NEAR(s.touch_s, 2.0 * GIB * 0.5e-9);
	NEAR(s.chain_s, 4194304 * 40e-9);
	/* The idle passes: 2^18 loads each, one to warm and three. */
	NEAR(s.pass_s, 4 * 262144 * 100e-9);
	NEAR(s.setup_s, 0.1);
	NEAR(s.work_s, 4 * 3 * 3 * 0.06);
	NEAR(s.settle_s, 2 * 0.050);
	/* No aggressor: no arrays, no settling, one row a mix. */
	pl.naggr = 0;
	mess_ifr_estimate(&pl, &probe, &s);
	NEAR(s.touch_s, 1.0 * GIB * 0.5e-9);
	NEAR(s.work_s, 2 * 3 * 3 * 0.06);
	NEAR(s.settle_s, 0);
}

/* 6 pairs of 200 samples of 50 round trips at 100 ns one way, 2 ms a
 * pair's threads: the threads once a pair, where a 20-sample probe scaled
 * by ten (6 x 10 x 2.21 ms, 133 ms) counted them ten times. */
static void c2c(void **state)
{
	NEAR(mess_c2c_estimate(6, 200, 50, 100, 0.002), 6 * (0.002 + 201 * 50 * 2 * 100e-9));
	NEAR(mess_c2c_estimate(1, 200, 50, 100, 0), 201 * 50 * 2 * 100e-9);
}

/* The sum, and the line naming every part with its seconds. */
static void line(void **state)
{
	struct mess_cost c = { 0 };
	struct mess_cost_parts s = { .touch_s = 3.2, .chain_s = 0.3, .pass_s = 0.8,
		.setup_s = 0.1, .work_s = 0.7, .settle_s = 0.2 };

	mess_cost_set(&c, &probe, 1, &s, "runs and windows");
	NEAR(c.est_s, 5.3);
	assert_non_null(strstr(c.from, "from this machine's first windows: 32 MiB populated on node 1 at 0.50 ns/B"));
	assert_non_null(strstr(c.from, "populating 3.2 s, chains 0.3 s, warm passes 0.8 s, threads and probes 0.1 s, runs and windows 0.7 s, settling 0.2 s"));
	/* A probe that failed: no estimate. */
	s.touch_s = NAN;
	mess_cost_set(&c, &probe, 1, &s, "runs and windows");
	assert_true(isnan(c.est_s));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(matrix),
		cmocka_unit_test(interfere),
		cmocka_unit_test(c2c),
		cmocka_unit_test(line),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
