// SPDX-License-Identifier: MIT
/*
 * `mess sample`'s recommended period (harness/sample/recommend.c) on
 * known tables: a period is recommended only when its worst thread count
 * is within the target, the sentence quotes that row, and a negative
 * overhead is noise, counted as 0 and said so, never a gain.  The issue's
 * case: period 1000000 recommended "within 3.3 %" from the 1-thread row
 * while the 2-thread row showed 34.98 %.
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
#include <unistd.h>

#include <cmocka.h>

#include "sample/sweep.h"

#define ACC 0.94
#define BUDGET 0.033

/* A row of the period sweep: threads, period, accuracy, overhead, spread. */
#define ROW(th, per, acc, oh, sp)                                                        \
	{ .sweep = "period", .threads = (th), .period = (per), .accuracy = (acc),        \
	  .overhead = (oh), .spread = (sp) }

static void test_worst_thread_count(void **state)
{
	/* The cheap period 1000000 is fine on 1 thread, 10x over on 2. */
	const struct sample_point p[] = {
		ROW(1, 100000, 0.99, 0.050, 0.01),  ROW(1, 1000000, 0.98, 0.012, 0.005),
		ROW(1, 4000000, 0.95, 0.005, 0.002), ROW(2, 100000, 0.99, 0.080, 0.01),
		ROW(2, 1000000, 0.97, 0.3498, 0.02), ROW(2, 4000000, 0.93, 0.020, 0.01),
	};
	struct sample_advice r;

	assert_int_equal(sample_recommend_period(p, 6, ACC, BUDGET, &r), 0);
	/* 1000000: 34.98 % on 2 threads; 4000000: accuracy 0.93 on 2. */
	assert_int_equal(r.period, -1);
	/* None: the lowest worst case is named, with its worst row. */
	assert_int_equal(r.lowest, 4000000);
	assert_true(fabs(r.overhead - 0.020) < 1e-12);
	assert_int_equal(r.threads, 2);
	assert_true(fabs(r.accuracy - 0.93) < 1e-12);
	assert_int_equal(r.acc_threads, 2);

	/* The 1-thread rows alone recommend 4000000 (the old answer). */
	assert_int_equal(sample_recommend_period(p, 3, ACC, BUDGET, &r), 0);
	assert_int_equal(r.period, 4000000);
	assert_int_equal(r.nthreads, 1);

	/* A period fine on both: recommended, quoting its 2-thread row. */
	const struct sample_point q[] = {
		ROW(1, 500000, 0.97, 0.020, 0.01), ROW(2, 500000, 0.96, 0.031, 0.01),
		ROW(1, 1000000, 0.98, 0.012, 0.005), ROW(2, 1000000, 0.97, 0.3498, 0.02),
	};

	assert_int_equal(sample_recommend_period(q, 4, ACC, BUDGET, &r), 0);
	assert_int_equal(r.period, 500000);
	assert_int_equal(r.lowest, -1);
	assert_true(fabs(r.overhead - 0.031) < 1e-12 && fabs(r.measured - 0.031) < 1e-12);
	assert_int_equal(r.threads, 2);
	assert_true(fabs(r.accuracy - 0.96) < 1e-12);
	assert_int_equal(r.acc_threads, 2);
	assert_int_equal(r.nthreads, 2);
}

static void test_negative_is_noise(void **state)
{
	/* -3.2 % on 1 thread never offsets +5 % on 2: the worst row counts,
	 * not a mean (which would be +0.9 %). */
	const struct sample_point p[] = {
		ROW(1, 1000, 0.99, -0.032, 0.04), ROW(2, 1000, 0.99, 0.050, 0.01),
	};
	/* Both rows negative: recommended at 0, the closer to 0 quoted. */
	const struct sample_point q[] = {
		ROW(1, 1000, 0.99, -0.032, 0.04), ROW(2, 1000, 0.99, -0.046, 0.01),
	};
	/* Accuracy too low everywhere: two noise-only periods tie at 0, and
	 * the more negative one is no better (the larger period is named). */
	const struct sample_point t[] = {
		ROW(1, 1000, 0.50, -0.050, 0.01), ROW(2, 1000, 0.50, -0.040, 0.01),
		ROW(1, 2000, 0.50, -0.010, 0.01), ROW(2, 2000, 0.50, 0.000, 0.01),
	};
	struct sample_advice r;

	assert_int_equal(sample_recommend_period(p, 2, ACC, BUDGET, &r), 0);
	assert_int_equal(r.period, -1);
	assert_int_equal(r.lowest, 1000);
	assert_true(fabs(r.overhead - 0.05) < 1e-12);
	assert_int_equal(r.threads, 2);

	assert_int_equal(sample_recommend_period(q, 2, ACC, BUDGET, &r), 0);
	assert_int_equal(r.period, 1000);
	assert_true(r.overhead == 0);
	assert_true(fabs(r.measured + 0.032) < 1e-12);
	assert_int_equal(r.threads, 1);

	assert_int_equal(sample_recommend_period(t, 4, ACC, BUDGET, &r), 0);
	assert_int_equal(r.period, -1);
	assert_int_equal(r.lowest, 2000);
	assert_true(r.overhead == 0);

	/* The labels: negative is noise, never a gain; a slowdown is not. */
	assert_int_equal(sample_overhead_kind(-0.032, 0.04), SAMPLE_OH_NEGATIVE);
	assert_int_equal(sample_overhead_kind(-0.046, 0.01), SAMPLE_OH_NEGATIVE_DRIFT);
	assert_int_equal(sample_overhead_kind(-0.01, NAN), SAMPLE_OH_NEGATIVE_DRIFT);
	assert_int_equal(sample_overhead_kind(0.02, 0.03), SAMPLE_OH_IN_SPREAD);
	assert_int_equal(sample_overhead_kind(0.3498, 0.02), SAMPLE_OH_SLOWDOWN);
	assert_int_equal(sample_overhead_kind(NAN, 0.02), SAMPLE_OH_UNKNOWN);
	assert_non_null(strstr(sample_overhead_note(-0.032, 0.04), "noise"));
	assert_non_null(strstr(sample_overhead_note(-0.032, 0.04), "not a gain"));
	assert_non_null(strstr(sample_overhead_note(-0.046, 0.01), "not a gain"));
	assert_non_null(strstr(sample_overhead_note(0.02, 0.03), "within noise"));
	assert_string_equal(sample_overhead_note(0.3498, 0.02), "");
	assert_int_equal(sample_overhead_is_noise(-0.046, 0.01), 1);
	assert_int_equal(sample_overhead_is_noise(0.02, 0.03), 1);
	assert_int_equal(sample_overhead_is_noise(0.3498, 0.02), 0);
	assert_int_equal(sample_overhead_is_noise(NAN, 0.02), 0);
}

static void test_unknown_and_other_sweeps(void **state)
{
	/* 1000: 2 threads not measured (a counter that did not count):
	 * never vouched for by its 1-thread row.  The aux sweep's point at
	 * period 8000 is no period of the period sweep. */
	struct sample_point p[] = {
		ROW(1, 1000, 0.99, 0.010, 0.01), ROW(2, 1000, NAN, 0.010, 0.01),
		ROW(1, 500, 0.99, 0.020, 0.01), ROW(2, 500, 0.99, NAN, NAN),
		{ .sweep = "aux", .threads = 1, .period = 8000, .aux_pages = 64,
		  .accuracy = 0.99, .overhead = 0.001 },
	};
	struct sample_advice r;

	assert_int_equal(sample_recommend_period(p, 5, ACC, BUDGET, &r), 0);
	assert_int_equal(r.period, -1);
	/* 500's worst overhead is unknown: 1000 is the lowest known. */
	assert_int_equal(r.lowest, 1000);
	assert_true(isnan(r.accuracy));

	assert_int_equal(sample_recommend_period(p, 0, ACC, BUDGET, &r), 0);
	assert_true(r.period == -1 && r.lowest == -1 && isnan(r.overhead));
	assert_int_equal(sample_recommend_period(p, 5, ACC, BUDGET, NULL), -EINVAL);
	assert_int_equal(sample_recommend_period(NULL, 1, ACC, BUDGET, &r), -EINVAL);
}

/* Read dir/name whole into buf; the file's length. */
static size_t slurp(const char *dir, const char *name, char *buf, size_t len)
{
	char path[PATH_MAX];
	FILE *f;
	size_t n;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "r");
	assert_non_null(f);
	n = fread(buf, 1, len - 1, f);
	buf[n] = 0;
	fclose(f);
	return n;
}

/* The files as written: the sentence quotes the table's worst row, the
 * negative cell says noise, the CSV's overhead column stays a number. */
static void test_summary_files(void **state)
{
	const struct sample_point p[] = {
		ROW(1, 100000, 0.99, -0.032, 0.04), ROW(1, 1000000, 0.98, 0.012, 0.005),
		ROW(2, 100000, 0.99, -0.046, 0.01), ROW(2, 1000000, 0.97, 0.3498, 0.02),
	};
	struct sample_opts o = { .min_accuracy = ACC, .budget = BUDGET, .pairs = 3 };
	struct sample_ctx x = { .b = sample_backend_find("cpu-clock"), .o = &o };
	char dir[] = "/tmp/test_sample_recommend.XXXXXX", buf[16384], *l;

	assert_non_null(x.b);
	assert_non_null(mkdtemp(dir));
	assert_int_equal(sample_write_files(dir, &x, "stream", p, 4, 0), 0);
	slurp(dir, "summary.md", buf, sizeof(buf));
	l = strstr(buf, "Recommendation: ");
	assert_non_null(l);
	assert_non_null(strstr(l, "period 100000,"));
	assert_non_null(strstr(l, "worst overhead is 0.00% at 1 thread (measured -3.20%: noise"));
	assert_null(strstr(l, "period 1000000"));
	assert_non_null(strstr(buf, "| -3.20% (noise: within the run-to-run spread, not a gain) |"));
	assert_non_null(strstr(buf, "| -4.60% (noise: drift between runs beyond"));
	assert_non_null(strstr(buf, "| 34.98% |"));

	slurp(dir, "sample.csv", buf, sizeof(buf));
	assert_non_null(strstr(buf, ",overhead_noise\n"));
	assert_non_null(strstr(buf, ",-0.032000,0.040000,0,0,0,0,1\n"));
	assert_non_null(strstr(buf, ",0.349800,0.020000,0,0,0,0,0\n"));

	slurp(dir, "summary.json", buf, sizeof(buf));
	assert_non_null(strstr(buf, "\"recommended_period\": 100000"));
	assert_non_null(strstr(buf, "\"overhead_noise\": true"));

	snprintf(buf, sizeof(buf), "rm -rf '%s'", dir);
	assert_int_equal(system(buf), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_worst_thread_count),
		cmocka_unit_test(test_negative_is_noise),
		cmocka_unit_test(test_unknown_and_other_sweeps),
		cmocka_unit_test(test_summary_files),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
