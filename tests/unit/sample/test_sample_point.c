// SPDX-License-Identifier: MIT
/*
 * A point of `mess sample` as resume.json keeps it: written and read
 * back, every figure the same, and a figure that was not measured (a
 * counter that did not count) stays unknown (null), never a 0.
 */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "sample/sweep.h"

static void test_roundtrip(void **state)
{
	struct sample_point p = { .sweep = "aux", .threads = 8, .period = 4000, .aux_pages = 32,
				  .ring_pages = 64, .period_eff = 3840, .samples = 12345,
				  .counted = 4.5e7, .accuracy = 0.951234, .overhead = 0.0123,
				  .spread = 0.004, .collisions = 7, .truncated = 2, .lost = 3,
				  .throttled = 1, .run_s = 0.5, .tool_cpu_s = 0.01,
				  .tool_share = 0.004, .with_addr = 12000, .in_region = 11000,
				  .with_level = 12300, .with_lat = 9000, .nlevels = 2 }, q;
	json_t *j;

	strcpy(p.level[0], "L1");
	strcpy(p.level[1], "DRAM");
	p.lat[0][3] = 500;
	p.lat[1][SAMPLE_LAT_BINS - 1] = 9;
	p.region[0][0] = 10;
	p.region[SAMPLE_TBINS - 1][SAMPLE_REG_NOADDR] = 4;
	j = sample_point_json(&p);
	assert_non_null(j);
	assert_int_equal(sample_point_from_json(j, &q), 0);
	assert_string_equal(q.sweep, "aux");
	assert_int_equal(q.threads, 8);
	assert_int_equal(q.period, 4000);
	assert_int_equal(q.aux_pages, 32);
	assert_int_equal(q.samples, 12345);
	assert_true(q.counted == 4.5e7 && q.period_eff == 3840);
	assert_true(fabs(q.accuracy - 0.951234) < 1e-9);
	assert_int_equal(q.collisions, 7);
	assert_int_equal(q.lost, 3);
	assert_int_equal(q.nlevels, 2);
	assert_string_equal(q.level[1], "DRAM");
	assert_int_equal(q.lat[0][3], 500);
	assert_int_equal(q.lat[1][SAMPLE_LAT_BINS - 1], 9);
	assert_int_equal(q.region[0][0], 10);
	assert_int_equal(q.region[SAMPLE_TBINS - 1][SAMPLE_REG_NOADDR], 4);
	json_decref(j);

	/* Not counted: null in the JSON, NAN back, never 0. */
	p.counted = NAN;
	p.accuracy = NAN;
	j = sample_point_json(&p);
	assert_true(json_is_null(json_object_get(j, "counted")));
	assert_true(json_is_null(json_object_get(j, "accuracy")));
	assert_int_equal(sample_point_from_json(j, &q), 0);
	assert_true(isnan(q.counted) && isnan(q.accuracy));
	json_decref(j);
	/* Not a point. */
	j = json_pack("{s:i}", "threads", 1);
	assert_int_equal(sample_point_from_json(j, &q), -EINVAL);
	json_decref(j);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_roundtrip),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
