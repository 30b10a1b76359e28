// SPDX-License-Identifier: MIT
/*
 * The comparison figures on two hand-made families whose answers are
 * worked out by hand below (the model's rules: include/mess/model.h).
 *
 * A (DDR-like), unloaded 100 ns:
 *   100 % reads: (10, 110) (50, 150) (100, 250)
 *    50 % reads: (10, 110) (40, 150) (80, 250)
 * B (HBM-like), unloaded 120 ns:
 *   100 % reads: (20, 125) (150, 160) (300, 300)
 *    50 % reads: (20, 125) (100, 160) (200, 300)
 * Both get the (0, unloaded) anchor.
 */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "mess/compare.h"
#include "near.h"

static void add_curve(struct mess_family *f, double read_pct, size_t n,
		      const double *bw, const double *lat)
{
	struct mess_curve *c = mess_family_curve(f, MESS_STORE_PCT_UNKNOWN,
						 read_pct);

	assert_non_null(c);
	for (size_t i = 0; i < n; i++) {
		struct mess_point p = {
			.store_pct = MESS_STORE_PCT_UNKNOWN, .read_pct = read_pct,
			.nop = 1000 - i, .bw_gbs = bw[i], .lat_ns = lat[i],
		};
		assert_int_equal(mess_curve_add(c, &p), 0);
	}
}

static void fam_a(struct mess_family *f)
{
	double b100[] = { 10, 50, 100 }, l100[] = { 110, 150, 250 };
	double b50[] = { 10, 40, 80 }, l50[] = { 110, 150, 250 };

	add_curve(f, 100, 3, b100, l100);
	add_curve(f, 50, 3, b50, l50);
	f->unloaded_ns = 100;
}

static void fam_b(struct mess_family *f)
{
	double b100[] = { 20, 150, 300 }, l100[] = { 125, 160, 300 };
	double b50[] = { 20, 100, 200 }, l50[] = { 125, 160, 300 };

	add_curve(f, 100, 3, b100, l100);
	add_curve(f, 50, 3, b50, l50);
	f->unloaded_ns = 120;
}

/* Shares 50..100 in steps of 10: index of a share. */
static size_t share(double r)
{
	for (size_t k = 0; k < MESS_CMP_NSHARES; k++)
		if (mess_cmp_shares[k] == r)
			return k;
	fail_msg("share %g not in the grid", r);
	return 0;
}

static void new_ab(struct mess_cmp *c)
{
	struct mess_family a = { 0 }, b = { 0 };
	const struct mess_family *f[] = { &a, &b };

	fam_a(&a);
	fam_b(&b);
	assert_int_equal(mess_compare_new(f, 2, c, NULL), 0);
	mess_family_free(&a);	/* the models keep their own copies */
	mess_family_free(&b);
}

static void test_set_metrics(void **state)
{
	struct mess_cmp c;

	new_ab(&c);
	assert_int_equal(c.n, 2);
	assert_near(c.set[0].unloaded_ns, 100, 0);
	assert_int_equal(c.set[0].unloaded_from_family, 1);
	assert_near(c.set[0].max_bw_gbs, 100, 0);
	assert_near(c.set[1].max_bw_gbs, 300, 0);
	/* First point at >= 2x unloaded: A 200 ns -> (80, 250), (100, 250);
	 * B 240 ns -> (200, 300), (300, 300). */
	assert_int_equal(c.set[0].have_sat, 1);
	assert_near(c.set[0].sat_bw_min_gbs, 80, 0);
	assert_near(c.set[0].sat_bw_max_gbs, 100, 0);
	assert_near(c.set[1].sat_bw_min_gbs, 200, 0);
	assert_near(c.set[1].sat_bw_max_gbs, 300, 0);
	assert_near(c.set[1].max_lat_min_ns, 300, 0);
	assert_near(c.set[1].max_lat_max_ns, 300, 0);
	assert_near(c.set[0].read_min_pct, 50, 0);
	assert_near(c.set[0].read_max_pct, 100, 0);
	mess_compare_free(&c);
}

static void test_shares(void **state)
{
	struct mess_cmp c;
	size_t k100 = share(100), k50 = share(50), k70 = share(70);

	new_ab(&c);
	/* 100 %: A's maximum 100 is the lower, common bandwidth 50. */
	assert_int_equal(c.common_set[k100], 0);
	assert_near(c.common_bw_gbs[k100], 50, 1e-12);
	assert_int_equal(c.common_src[k100], MESS_SRC_MEASURED);
	assert_near(c.set[0].lat_common[k100].v, 150, 1e-9);
	assert_int_equal(c.set[0].lat_common[k100].src, MESS_SRC_MEASURED);
	assert_near(c.set[1].lat_common[k100].v, 125 + 35.0 * 30 / 130, 1e-9);
	assert_int_equal(c.set[1].lat_common[k100].src, MESS_SRC_INTERP_BW);
	/* 2x unloaded: A 200 ns halfway from (50, 150) to (100, 250);
	 * B 240 ns at 80/140 of (150, 160) to (300, 300). */
	assert_near(c.set[0].bw_2x[k100].v, 75, 1e-9);
	assert_int_equal(c.set[0].bw_2x[k100].src, MESS_SRC_INTERP_BW);
	assert_near(c.set[1].bw_2x[k100].v, 150 + 150 * 80.0 / 140, 1e-9);
	/* 50 %: common 40; B at 40 between (20, 125) and (100, 160). */
	assert_near(c.common_bw_gbs[k50], 40, 1e-12);
	assert_near(c.set[1].lat_common[k50].v, 125 + 35.0 * 20 / 80, 1e-9);
	/* 70 %: w = 0.4, A's maximum 0.6 x 80 + 0.4 x 100 = 88, common 44,
	 * u = 0.5 reads both of A's curves at a measured 150 ns. */
	assert_near(c.set[0].max_bw[k70].v, 88, 1e-9);
	assert_int_equal(c.set[0].max_bw[k70].src, MESS_SRC_INTERP_READ);
	assert_near(c.set[1].max_bw[k70].v, 240, 1e-9);
	assert_near(c.common_bw_gbs[k70], 44, 1e-9);
	assert_near(c.set[0].lat_common[k70].v, 150, 1e-9);
	assert_int_equal(c.set[0].lat_common[k70].src, MESS_SRC_INTERP_READ);
	assert_string_equal(mess_cmp_src(c.set[0].lat_common[k70].src),
			    "interpolated");
	/* Ratios against the first set. */
	assert_near(mess_cmp_ratio(c.set[1].max_bw[k100], c.set[0].max_bw[k100]).v,
		    3, 1e-12);
	assert_int_equal(mess_cmp_ratio(c.set[1].max_bw[k70],
					c.set[0].max_bw[k70]).src,
			 MESS_SRC_INTERP_READ);
	mess_compare_free(&c);
}

static void test_app(void **state)
{
	const char *labels[] = { "DDR", "HBM" };
	struct mess_cmp c;
	struct mess_cmp_app a;
	char text[1024];
	double hbm;

	new_ab(&c);
	/* 100 % at 80 GB/s: A 150 + 2 x 30 = 210, B 125 + 35 x 60 / 130. */
	assert_int_equal(mess_compare_app(&c, 100, 80, &a), 0);
	hbm = 125 + 35.0 * 60 / 130;
	assert_int_equal(a.best, 1);
	assert_int_equal(a.best_sustains, 1);
	assert_near(a.set[0].lat.v, 210, 1e-9);
	assert_near(a.set[1].lat.v, hbm, 1e-9);
	assert_near(a.set[0].lower_ns, 210 - hbm, 1e-9);
	assert_near(a.set[0].lower_pct, (210 - hbm) / 210 * 100, 1e-9);
	mess_compare_app_text(&a, labels, text, sizeof(text));
	assert_non_null(strstr(text, "HBM serves it at the lower latency, 141.2 ns (interpolated)"));
	assert_non_null(strstr(text, "68.8 ns (32.8%) lower than DDR (210.0 ns"));

	/* 200 GB/s is past A's 100: A cannot sustain it. */
	assert_int_equal(mess_compare_app(&c, 100, 200, &a), 0);
	assert_int_equal(a.set[0].sustains, 0);
	assert_true(a.set[0].lat.src & MESS_SRC_EXTRAP_BW);
	assert_int_equal(a.best, 1);
	mess_compare_app_text(&a, labels, text, sizeof(text));
	assert_non_null(strstr(text, "DDR cannot sustain it (its maximum at this share is 100.0 GB/s"));

	/* 400 GB/s: neither does; B's extrapolation (slope 140/150 past
	 * 300 GB/s) is still the lower, A's is 250 + 2 x 300. */
	assert_int_equal(mess_compare_app(&c, 100, 400, &a), 0);
	assert_int_equal(a.best_sustains, 0);
	assert_int_equal(a.best, 1);
	assert_near(a.set[0].lat.v, 850, 1e-9);
	assert_near(a.set[1].lat.v, 300 + 140.0 / 150 * 100, 1e-9);
	mess_compare_app_text(&a, labels, text, sizeof(text));
	assert_non_null(strstr(text, "beyond every set's maximum bandwidth"));

	assert_int_equal(mess_compare_app(&c, 120, 5, &a), -EINVAL);
	assert_int_equal(mess_compare_app(&c, 50, 0, &a), -EINVAL);
	mess_compare_free(&c);
}

/* No chase-only latency and no near-idle point: saturation unknown. */
static void test_no_unloaded(void **state)
{
	struct mess_family a = { 0 }, b = { 0 };
	const struct mess_family *f[] = { &a, &b };
	struct mess_cmp c;

	fam_a(&a);
	fam_b(&b);
	a.unloaded_ns = 0;
	assert_int_equal(mess_compare_new(f, 2, &c, NULL), 0);
	assert_true(isnan(c.set[0].unloaded_ns));
	assert_int_equal(c.set[0].have_sat, 0);
	assert_true(isnan(c.set[0].sat_bw_min_gbs));
	assert_near(c.set[0].max_bw_gbs, 100, 0);
	assert_near(c.set[0].max_lat_max_ns, 250, 0);
	assert_int_equal(c.set[0].bw_2x[share(100)].src, -1);
	mess_compare_free(&c);

	/* A family with nothing usable is named. */
	{
		struct mess_family e = { 0 };
		const struct mess_family *g[] = { &a, &e };
		size_t bad = 9;

		assert_int_equal(mess_compare_new(g, 2, &c, &bad), -EINVAL);
		assert_int_equal(bad, 1);
		mess_compare_free(&c);
	}
	mess_family_free(&a);
	mess_family_free(&b);
}

static void test_parse_apps(void **state)
{
	double r[4], bw[4];
	char err[256];
	size_t n = 0;

	assert_int_equal(mess_compare_parse_apps("70:150,50:20.5", r, bw, 4, &n,
						 err, sizeof(err)), 0);
	assert_int_equal(n, 2);
	assert_near(r[1], 50, 0);
	assert_near(bw[1], 20.5, 0);
	assert_int_equal(mess_compare_parse_apps("100:1", r, bw, 4, &n, err,
						 sizeof(err)), 0);
	assert_int_equal(n, 3);
	static const char *const bad[] = { "120:5", "50:-1", "x", "50:", ":5",
					   "50:5,", "50:5x", "-1:5", "50:0",
					   "50:inf", "" };
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		n = 0;
		assert_int_equal(mess_compare_parse_apps(bad[i], r, bw, 4, &n,
							 err, sizeof(err)),
				 -EINVAL);
		assert_non_null(strstr(err, "--app: '"));
		assert_non_null(strstr(err, "allowed: R:BW"));
	}
	n = 4;
	assert_int_equal(mess_compare_parse_apps("50:5", r, bw, 4, &n, err,
						 sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "at most 4"));
}

static void test_warnings(void **state)
{
	struct mess_set_info a = { .bw_source = "accounted", .cores = 4,
				   .stride_bytes = 64, .window_bytes = 0,
				   .tool = "mess 0.1.0", .complete = 1 };
	struct mess_set_info b = a;
	const struct mess_set_info *info[] = { &a, &b };
	const char *labels[] = { "mine", "ref" };
	char lines[8][MESS_CMP_LINE];

	assert_int_equal(mess_compare_warnings(info, labels, 2, lines, 8), 0);
	strcpy(b.bw_source, "counters");
	b.cores = -1;
	b.latency_from_cycles = 1;
	b.cpu_ghz = 2.1;
	/* "unknown" is no value: 4 cores against unknown is no difference. */
	assert_int_equal(mess_compare_warnings(info, labels, 2, lines, 8), 2);
	assert_string_equal(lines[0], "bandwidth measured differently (bw_source: accounted by the generator vs memory counters): mine accounted; ref counters");
	assert_non_null(strstr(lines[1], "ref converted from CPU cycles at 2.100 GHz"));
	/* Two known counts that differ are one, unknowns named with them. */
	{
		struct mess_set_info c = a;
		const struct mess_set_info *three[] = { &a, &b, &c };
		const char *l3[] = { "mine", "ref", "other" };

		c.cores = 8;
		assert_int_equal(mess_compare_warnings(three, l3, 3, lines, 8), 3);
		assert_string_equal(lines[1], "traffic-generator core counts differ: mine 4; ref unknown; other 8");
	}
	/* Only the first max lines are kept, all are counted. */
	assert_int_equal(mess_compare_warnings(info, labels, 2, lines, 1), 2);
	/* Completeness: unknown against complete is no warning, partial is. */
	b.complete = -1;
	assert_int_equal(mess_compare_warnings(info, labels, 2, lines, 8), 2);
	b.complete = 0;
	assert_int_equal(mess_compare_warnings(info, labels, 2, lines, 8), 3);
	assert_string_equal(lines[2], "a set is a partial run: mine complete; ref partial (interrupted)");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_set_metrics),
		cmocka_unit_test(test_shares),
		cmocka_unit_test(test_app),
		cmocka_unit_test(test_no_unloaded),
		cmocka_unit_test(test_parse_apps),
		cmocka_unit_test(test_warnings),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
