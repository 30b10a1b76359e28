// SPDX-License-Identifier: MIT
/*
 * Noise absorption: the search's and the fit's rules on hand-made points
 * (the search against synthetic machines is test_absorb.c).
 */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "mess/absorb.h"
#include "near.h"

/* ---- the rules on hand-made points: t0 = 10, thr = 0.1 unless said ---- */

#define MAXHAND 16

struct hand {
	struct mess_absorb_point p[MAXHAND];
	size_t n;
	struct mess_absorb_cfg c;
};

static void hand_init(struct hand *h, unsigned kmax)
{
	memset(h, 0, sizeof(*h));
	mess_absorb_cfg_default(&h->c, kmax);
}

static void put(struct hand *h, unsigned k, double t, double sigma)
{
	assert_true(h->n < MAXHAND);
	h->p[h->n++] = (struct mess_absorb_point){ k, t, sigma, 1, 0, 0 };
}

/* The next k, or -1 when done. */
static long next(const struct hand *h)
{
	unsigned k = 12345;
	int rc = mess_absorb_next(h->p, h->n, &h->c, &k);

	assert_true(rc == 0 || rc == 1);
	return rc ? (long)k : -1;
}

static void next_probes_then_bisects(void **state)
{
	struct hand h;

	hand_init(&h, 256);
	assert_int_equal(next(&h), 0);		/* baseline first */
	put(&h, 0, 10, 0);
	assert_int_equal(next(&h), 1);
	put(&h, 1, 10.05, 0);
	assert_int_equal(next(&h), 2);
	put(&h, 2, 10, 0);
	put(&h, 4, 10.09, 0);
	assert_int_equal(next(&h), 8);
	put(&h, 8, 12, 0);			/* first slow */
	assert_int_equal(next(&h), 6);
	put(&h, 6, 10, 0);
	assert_int_equal(next(&h), 7);
	put(&h, 7, 11, 0);
	/* k1 = 6 exactly; 7 and 8 are too close to test saturation. */
	assert_int_equal(next(&h), 16);
}

/* Bracket width: hi - lo <= max(1, lo / 32). */
static void next_precision_rule(void **state)
{
	struct hand h;

	hand_init(&h, 256);
	put(&h, 0, 10, 0);
	put(&h, 64, 10, 0);
	put(&h, 67, 11, 0);
	assert_int_equal(next(&h), 65);		/* 3 > 64 / 32 */
	h.p[2].k = 66;
	assert_int_equal(next(&h), 132);	/* 2 <= 2: double on */
	h.p[1].k = 31;
	h.p[2].k = 33;
	assert_int_equal(next(&h), 32);		/* below 32: to 1 */
	h.c.prec_div = 8;
	h.p[1].k = 64;
	h.p[2].k = 72;
	assert_int_equal(next(&h), 144);	/* 8 <= 64 / 8 */
}

/* thr = max(rel_min t0, n_sigma sigma0); slow means t - t0 > thr. */
static void next_threshold(void **state)
{
	struct hand h;

	hand_init(&h, 256);
	put(&h, 0, 10, 0.1);			/* thr = 3 x 0.1 = 0.3 */
	put(&h, 1, 10, 0);
	put(&h, 2, 10.29, 0);
	put(&h, 4, 11, 0);
	assert_int_equal(next(&h), 3);		/* 2 fast: bisect 2..4 */
	h.p[2].t = 10.31;
	assert_int_equal(next(&h), 8);		/* 2 slow: k1 = 1 */
	h.p[0].sigma = 0.01;			/* thr = 1 % of 10 */
	h.p[2].t = 10.11;
	assert_int_equal(next(&h), 8);
	h.p[2].t = 10.09;
	assert_int_equal(next(&h), 3);
	h.c.rel_min = 0.02;			/* thr = 0.2 */
	h.p[2].t = 10.19;
	assert_int_equal(next(&h), 3);
}

static void next_stops_on_saturation(void **state)
{
	struct hand h;

	hand_init(&h, 256);
	put(&h, 0, 10, 0);
	put(&h, 1, 11, 0);
	put(&h, 2, 12, 0);
	put(&h, 4, 14.2, 0);	/* slopes 1, 1.1: within 10 % */
	assert_int_equal(next(&h), -1);
	h.p[3].t = 14.25;			/* 1, 1.125: not */
	assert_int_equal(next(&h), 8);
	h.p[3].t = 13.5;			/* 1, 0.75 */
	assert_int_equal(next(&h), 8);
	h.c.slope_tol = 0.3;
	assert_int_equal(next(&h), -1);

	/* Rising and straight, but back within thr: noise, go on. */
	hand_init(&h, 256);
	put(&h, 0, 10, 0);
	put(&h, 1, 10.2, 0);
	put(&h, 2, 10.02, 0);
	put(&h, 4, 10.06, 0);
	put(&h, 8, 10.14, 0);
	assert_int_equal(next(&h), 16);
	/* Chain 1.5x apart: 8, 4, 2, not the bisection's 3. */
	hand_init(&h, 256);
	put(&h, 0, 10, 0);
	put(&h, 1, 10.05, 0);
	put(&h, 3, 12, 0);
	put(&h, 2, 11, 0);
	put(&h, 4, 13, 0);
	put(&h, 8, 17, 0);
	assert_int_equal(next(&h), -1);
	h.p[2].t = 12.9;	/* 3 off the line: not in the chain */
	assert_int_equal(next(&h), -1);
	h.p[3].t = 11.5;	/* 2 is */
	assert_int_equal(next(&h), 16);
}

static void next_stops_at_kmax(void **state)
{
	static const unsigned k[] = { 0, 1, 2, 4, 8, 16, 32, 64 };
	struct hand h;

	hand_init(&h, 100);
	for (size_t i = 0; i < sizeof(k) / sizeof(k[0]); i++)
		put(&h, k[i], 10, 0);
	assert_int_equal(next(&h), 100);
	put(&h, 100, 10, 0);
	assert_int_equal(next(&h), -1);		/* nothing slow: done */
	h.p[h.n - 1].t = 20;
	assert_int_equal(next(&h), 82);	/* slow at kmax: bisect */

	/* Not saturated, but nothing left to measure. */
	hand_init(&h, 4);
	put(&h, 0, 10, 0);
	put(&h, 1, 11, 0);
	put(&h, 2, 12, 0);
	put(&h, 4, 16, 0);
	assert_int_equal(next(&h), -1);
	h.c.kmax = 1;
	h.n = 2;
	assert_int_equal(next(&h), -1);
}

/* Noise-free three phases: flat 10 to 10, transient to 24, slope 0.25. */
static double exact(unsigned k)
{
	if (k <= 10)
		return 10;
	if (k < 24)
		return 10 + 1.75 * (k - 10) / 14;
	return 11.75 + 0.25 * (k - 24);
}

static void fit_exact_phases(void **state)
{
	static const unsigned k[] = { 0, 1, 2, 4, 8, 16, 12, 10, 11, 32, 64,
				      128 };
	struct mess_absorb_result r;
	struct hand h;

	hand_init(&h, 256);
	/* Any order. */
	for (size_t i = sizeof(k) / sizeof(k[0]); i-- > 0;)
		put(&h, k[i], exact(k[i]), 0.01);
	assert_int_equal(mess_absorb_fit(h.p, h.n, &h.c, &r), 0);
	assert_int_equal(r.status, MESS_ABSORB_OK);
	assert_null(r.why);
	assert_int_equal(r.shape, MESS_ABSORB_SHAPE_LINEAR);
	assert_null(r.shape_why);
	assert_int_equal(r.k1, 10);
	assert_int_equal(r.k1_lo, 10);
	assert_int_equal(r.k1_hi, 11);
	assert_int_equal(r.prec, 1);
	assert_false(r.k1_lower_bound);
	assert_int_equal(r.k1_fit, 10);
	assert_int_equal(r.k2, 24);
	assert_near(r.base, 10, 1e-12);
	assert_near(r.thr, 0.1, 1e-12);
	assert_near(r.flat, 10, 1e-9);
	assert_near(r.slope, 0.25, 1e-9);
	assert_near(r.a, 11.75 - 0.25 * 24, 1e-9);
	assert_near(r.r2, 1, 1e-12);
	assert_int_equal(r.runs, 12);
	assert_int_equal(r.runs_linear, 129);
}

static void fit_rules(void **state)
{
	struct mess_absorb_result r;
	struct hand h;

	/* k1: every smaller k within thr, even if later ones are again. */
	hand_init(&h, 256);
	put(&h, 0, 10, 0);
	put(&h, 1, 10, 0);
	put(&h, 2, 10.5, 0);
	put(&h, 4, 10, 0);
	put(&h, 8, 10, 0);
	assert_int_equal(mess_absorb_fit(h.p, h.n, &h.c, &r), 0);
	assert_int_equal(r.k1, 1);
	assert_int_equal(r.k1_hi, 2);
	assert_int_equal(r.prec, 1);
	assert_int_equal(r.status, MESS_ABSORB_OK);
	assert_int_not_equal(r.shape, MESS_ABSORB_SHAPE_LINEAR);

	/* A step up, then flat: not a line, nor rising; the bracket (8, 16)
	 * was never bisected: wide. */
	hand_init(&h, 256);
	for (unsigned k = 0; k <= 256; k = k ? 2 * k : 1)
		put(&h, k, k < 16 ? 10 : 11, 0);
	assert_int_equal(mess_absorb_fit(h.p, h.n, &h.c, &r), 0);
	assert_int_equal(r.k1, 8);
	assert_int_equal(r.k1_lo, 8);
	assert_int_equal(r.k1_hi, 16);
	assert_int_equal(r.status, MESS_ABSORB_WIDE);
	assert_string_equal(r.why, "k1_lo and k1_hi not measured closer");
	assert_int_equal(r.shape, MESS_ABSORB_SHAPE_NONE);

	/* Slow from k = 1 but two points past it: none, nothing to fit. */
	hand_init(&h, 256);
	put(&h, 0, 10, 0);
	put(&h, 1, 11, 0);
	put(&h, 2, 12, 0);
	assert_int_equal(mess_absorb_fit(h.p, h.n, &h.c, &r), 0);
	assert_int_equal(r.status, MESS_ABSORB_NONE);
	assert_int_equal(r.shape, MESS_ABSORB_SHAPE_NONE);
	assert_string_equal(r.shape_why, "too few points past k1");
	assert_int_equal(r.k1, 0);
	put(&h, 4, 14, 0);			/* a third: a line */
	assert_int_equal(mess_absorb_fit(h.p, h.n, &h.c, &r), 0);
	assert_int_equal(r.status, MESS_ABSORB_NONE);
	assert_int_equal(r.shape, MESS_ABSORB_SHAPE_LINEAR);
	assert_near(r.slope, 1, 1e-9);

	/* One point 3 % off the line: 1.1 % off the fit, tolerance 1 %;
	 * still rising: sub-linear, k1 unchanged. */
	h.p[3].t = 14 * 1.03;
	put(&h, 8, 18, 0);
	put(&h, 16, 26, 0);
	assert_int_equal(mess_absorb_fit(h.p, h.n, &h.c, &r), 0);
	assert_int_equal(r.status, MESS_ABSORB_NONE);
	assert_int_equal(r.shape, MESS_ABSORB_SHAPE_SUBLINEAR);
	assert_string_equal(r.shape_why, "not linear past k2");
	h.p[3].sigma = 0.1;			/* its own spread: 3 x 0.1 */
	assert_int_equal(mess_absorb_fit(h.p, h.n, &h.c, &r), 0);
	assert_int_equal(r.status, MESS_ABSORB_NONE);
	assert_int_equal(r.shape, MESS_ABSORB_SHAPE_LINEAR);

	/* R^2: a transient point 0.5 off costs 1e-4 of the variance. */
	hand_init(&h, 256);
	for (unsigned k = 0; k <= 128; k = k ? 2 * k : 1)
		put(&h, k, exact(k) + (k == 16 ? 0.5 : 0), 0.01);
	put(&h, 10, exact(10), 0.01);
	put(&h, 11, exact(11), 0.01);
	put(&h, 12, exact(12), 0.01);
	assert_int_equal(mess_absorb_fit(h.p, h.n, &h.c, &r), 0);
	assert_int_equal(r.status, MESS_ABSORB_OK);
	assert_int_equal(r.shape, MESS_ABSORB_SHAPE_LINEAR);
	assert_true(r.r2 < 0.99995 && r.r2 > 0.9998);
	h.c.r2_min = 0.99995;
	assert_int_equal(mess_absorb_fit(h.p, h.n, &h.c, &r), 0);
	assert_int_equal(r.status, MESS_ABSORB_OK);	/* k1 stands */
	assert_int_equal(r.shape, MESS_ABSORB_SHAPE_SUBLINEAR);
	assert_string_equal(r.shape_why, "R^2 below minimum");

	/*
	 * On the line within its own spread (3 x 0.2), but back within thr
	 * of t0 past k1: saturation is monotonic, this is noise.
	 */
	hand_init(&h, 256);
	for (unsigned k = 0; k <= 8; k = k ? 2 * k : 1)
		put(&h, k, 10, 0);
	put(&h, 10, 10.2, 0);
	put(&h, 11, 10.3, 0);
	put(&h, 12, 10.4, 0);
	put(&h, 16, 10.08, 0.2);
	put(&h, 32, 11.4, 0);
	put(&h, 64, 13, 0);
	put(&h, 128, 16.2, 0);
	assert_int_equal(mess_absorb_fit(h.p, h.n, &h.c, &r), 0);
	assert_int_not_equal(r.shape, MESS_ABSORB_SHAPE_LINEAR);
	assert_string_equal(r.shape_why, "within threshold past k1 and k2");
	assert_int_equal(r.k1, 8);
	assert_int_equal(r.k1_hi, 10);
	/* k = 9 was not measured: k1 is 8 or 9, within +-1: ok. */
	assert_int_equal(r.status, MESS_ABSORB_OK);
	/* One more unknown k (k1_hi 11: k1 is 8, 9 or 10) is wide. */
	hand_init(&h, 256);
	for (unsigned k = 0; k <= 8; k = k ? 2 * k : 1)
		put(&h, k, 10, 0);
	put(&h, 11, 10.3, 0);
	put(&h, 12, 10.4, 0);
	put(&h, 16, 10.08, 0.2);
	put(&h, 32, 11.4, 0);
	put(&h, 64, 13, 0);
	put(&h, 128, 16.2, 0);
	assert_int_equal(mess_absorb_fit(h.p, h.n, &h.c, &r), 0);
	assert_int_equal(r.k1, 8);
	assert_int_equal(r.k1_hi, 11);
	assert_int_equal(r.status, MESS_ABSORB_WIDE);

	/* Only the baseline: k1 >= 0, nothing more is claimed. */
	hand_init(&h, 256);
	put(&h, 0, 10, 0);
	assert_int_equal(mess_absorb_fit(h.p, h.n, &h.c, &r), 0);
	assert_int_equal(r.status, MESS_ABSORB_UNCLEAR);
	assert_string_equal(r.why, "only the baseline measured");
	assert_true(r.k1_lower_bound);
	assert_int_equal(r.k1, 0);
}

static void bad_arguments(void **state)
{
	struct mess_absorb_result r;
	struct hand h;
	unsigned k;

	hand_init(&h, 256);
	put(&h, 0, 10, 0);
	put(&h, 1, 11, 0);
	/* The baseline may be missing for next, not for the fit. */
	assert_int_equal(mess_absorb_next(NULL, 0, &h.c, &k), 1);
	assert_int_equal(k, 0);
	assert_int_equal(mess_absorb_fit(h.p + 1, 1, &h.c, &r), -EINVAL);
	assert_int_equal(mess_absorb_fit(h.p, 0, &h.c, &r), -EINVAL);
	assert_int_equal(mess_absorb_fit(NULL, 2, &h.c, &r), -EINVAL);
	assert_int_equal(mess_absorb_fit(h.p, 2, &h.c, NULL), -EINVAL);
	assert_int_equal(mess_absorb_next(NULL, 2, &h.c, &k), -EINVAL);
	assert_int_equal(mess_absorb_next(h.p, 2, &h.c, NULL), -EINVAL);
	assert_int_equal(mess_absorb_next(h.p, 2, NULL, &k), -EINVAL);
	assert_int_equal(mess_absorb_fit(h.p, 2, NULL, &r), -EINVAL);

	struct mess_absorb_cfg good = h.c;
	struct {
		const char *what;
		struct mess_absorb_cfg c;
	} bad[] = {
		{ "kmax 0", good },	 { "rel_min < 0", good },
		{ "rel_min nan", good }, { "n_sigma < 0", good },
		{ "n_sigma inf", good }, { "prec_div 0", good },
		{ "slope_tol < 0", good }, { "r2_min > 1", good },
		{ "r2_min nan", good }, { "min_pairs 1", good },
		{ "max_pairs < min_pairs", good },
		{ "max_pairs > MESS_ABSORB_MAX_PAIRS", good },
		{ "tol_rel nan", good },
	};
	bad[0].c.kmax = 0;
	bad[1].c.rel_min = -0.01;
	bad[2].c.rel_min = NAN;
	bad[3].c.n_sigma = -1;
	bad[4].c.n_sigma = INFINITY;
	bad[5].c.prec_div = 0;
	bad[6].c.slope_tol = -0.1;
	bad[7].c.r2_min = 1.5;
	bad[8].c.r2_min = NAN;
	bad[9].c.min_pairs = 1;
	bad[10].c.max_pairs = 2;
	bad[11].c.max_pairs = MESS_ABSORB_MAX_PAIRS + 1;
	bad[12].c.tol_rel = NAN;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		int rn = mess_absorb_next(h.p, 2, &bad[i].c, &k);
		int rf = mess_absorb_fit(h.p, 2, &bad[i].c, &r);

		if (rn != -EINVAL || rf != -EINVAL)
			fail_msg("%s: next %d fit %d", bad[i].what, rn, rf);
	}

	/* Bad points: same k twice, t <= 0 or not finite, sigma < 0. */
	struct mess_absorb_point p[3] = { h.p[0], h.p[1], h.p[1] };

	for (int i = 0; i < 7; i++) {
		p[2] = h.p[1];
		p[2].k = 2;
		switch (i) {
		case 0: p[2].k = 1; break;
		case 1: p[2].t = 0; break;
		case 2: p[2].t = NAN; break;
		case 3: p[2].t = INFINITY; break;
		case 4: p[2].sigma = -0.1; break;
		case 5: p[2].lo = 12, p[2].hi = 11; break;	/* lo > hi */
		case 6: p[2].hi = NAN; break;
		}
		assert_int_equal(mess_absorb_next(p, 3, &good, &k), -EINVAL);
		assert_int_equal(mess_absorb_fit(p, 3, &good, &r), -EINVAL);
	}
	p[2].sigma = 0;
	p[2].hi = 0;
	assert_int_equal(mess_absorb_fit(p, 3, &good, &r), 0);
}

static void status_names(void **state)
{
	assert_string_equal(mess_absorb_status_name(MESS_ABSORB_OK), "ok");
	assert_string_equal(mess_absorb_status_name(MESS_ABSORB_NONE), "none");
	assert_string_equal(mess_absorb_status_name(MESS_ABSORB_UNCLEAR),
			    "unclear");
	assert_string_equal(mess_absorb_status_name(MESS_ABSORB_WIDE), "wide");
	assert_string_equal(mess_absorb_shape_name(MESS_ABSORB_SHAPE_SUBLINEAR),
			    "sublinear");
	assert_string_equal(mess_absorb_verdict_name(MESS_ABSORB_DOUBTFUL),
			    "doubtful");
	assert_string_equal(mess_absorb_shape_name((enum mess_absorb_shape)9),
			    "?");
	assert_string_equal(mess_absorb_status_name(
				    (enum mess_absorb_status)42), "?");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(next_probes_then_bisects),
		cmocka_unit_test(next_precision_rule),
		cmocka_unit_test(next_threshold),
		cmocka_unit_test(next_stops_on_saturation),
		cmocka_unit_test(next_stops_at_kmax),
		cmocka_unit_test(fit_exact_phases),
		cmocka_unit_test(fit_rules),
		cmocka_unit_test(bad_arguments),
		cmocka_unit_test(status_names),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
