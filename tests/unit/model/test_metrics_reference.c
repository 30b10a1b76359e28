// SPDX-License-Identifier: MIT
/*
 * Summary metrics on the public reference curves (../shared/reference,
 * MESS_REFERENCE): sanity checks that every set's figures hold together.
 */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <cmocka.h>

#include "mess/curve.h"
#include "mess/messfmt.h"
#include "mess/metrics.h"
#include "mess/quality.h"

#define EPS 1e-9

#include "near.h"

static const char *const machines[] = {
	"MN5-HBM-XeonMax9480-HBM2",
	"MN5-GPP-SPR8480-DDR5",
	"Grace-LPDDR5",
	"CTE-AMD-EPYC7742-DDR4",
};

static int read_machine(const char *name, struct mess_family *f)
{
	const char *ref = getenv("MESS_REFERENCE");
	char path[4096];
	struct stat st;

	if (!ref || !*ref) {
		print_message("MESS_REFERENCE unset: reference checks skipped\n");
		return -ENOENT;
	}
	snprintf(path, sizeof(path), "%s/%s/memory_curves.csv", ref, name);
	if (stat(path, &st)) {
		print_message("%s missing: reference checks skipped\n", path);
		return -ENOENT;
	}
	memset(f, 0, sizeof(*f));
	assert_int_equal(mess_reference_read(path, f, NULL, 0), 0);
	return 0;
}

static void test_reference_hbm_vs_ddr5(void **state)
{
	struct mess_family hbm, ddr5;
	struct mess_summary sh, sd;
	double uh, ud;
	size_t i;

	if (read_machine(machines[0], &hbm))
		skip();
	if (read_machine(machines[1], &ddr5)) {
		mess_family_free(&hbm);
		skip();
	}
	uh = mess_unloaded_from_curves(&hbm);
	ud = mess_unloaded_from_curves(&ddr5);
	assert_int_equal(mess_summarise(&hbm, uh, 0.0, 0.02, &sh), 0);
	/* 8 channels x DDR5-4800 x 8 B = 307.2 GB/s theoretical. */
	assert_int_equal(mess_summarise(&ddr5, ud, 307.2, 0.02, &sd), 0);

	assert_true(sh.max_bw_gbs > sd.max_bw_gbs);
	assert_true(sd.max_bw_gbs > 150.0 && sd.max_bw_gbs < 320.0);
	/* DDR5 saturates and its best curve is the all-read one. */
	assert_true(sd.have_sat);
	assert_true(sd.sat_bw_min_gbs <= sd.sat_bw_max_gbs);
	assert_true(sd.sat_bw_max_gbs <= sd.max_bw_gbs);
	for (i = 0; i < sd.ncurves; i++)
		if (sd.curves[i].read_pct == 100.0)
			assert_near(sd.curves[i].max_bw_gbs,
					    sd.max_bw_gbs, EPS);
	assert_true(sd.max_lat_min_ns > 2.0 * ud);

	mess_summary_free(&sh);
	mess_summary_free(&sd);
	mess_family_free(&hbm);
	mess_family_free(&ddr5);
}

static void test_reference_all(void **state)
{
	size_t m, i;

	for (m = 0; m < sizeof(machines) / sizeof(machines[0]); m++) {
		struct mess_family f;
		double u;

		if (read_machine(machines[m], &f))
			skip();
		assert_true(f.n >= 10);
		u = mess_unloaded_from_curves(&f);
		print_message("%-26s %2zu curves, unloaded %.1f ns\n",
			      machines[m], f.n, u);
		assert_true(u >= 80.0 && u <= 200.0);
		for (i = 0; i < f.n; i++) {
			if (f.curves[i].n < 5)
				print_message("%s: curve read %.0f%% has %zu points\n",
					      machines[m], f.curves[i].read_pct,
					      f.curves[i].n);
			assert_true(f.curves[i].n >= 5);
		}
		mess_family_free(&f);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_reference_hbm_vs_ddr5),
		cmocka_unit_test(test_reference_all),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
