// SPDX-License-Identifier: MIT
/* The autotuner's refinement on synthetic machines with known curves. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "mess/autotune.h"

#define L0 100.0	/* unloaded latency, ns */
#define BMAX 200.0	/* GB/s at nop 0 */

/* Bandwidth falls as 1/(1 + nop/32); latency follows a queue that is
 * steep near saturation (u -> 1). */
static void model(uint64_t nop, int flat, double *bw, double *lat)
{
	double u;

	*bw = BMAX / (1.0 + (double)nop / 32.0);
	u = *bw / (1.05 * BMAX);
	if (flat)	/* one core: no saturation, +-2 % wobble */
		*lat = L0 * (1.0 + 0.02 * ((nop * 2654435761u) % 3 - 1.0));
	else
		*lat = L0 * (1.0 + 0.5 * u * u / (1.0 - u));
}

static void add(struct mess_curve *c, uint64_t nop, int flat)
{
	struct mess_point p = { .nop = nop, .repeats = 1 };

	model(nop, flat, &p.bw_gbs, &p.lat_ns);
	assert_int_equal(mess_curve_add(c, &p), 0);
}

/* The sweep's start: both ends and evenly spaced probe levels (the knee
 * rule's four: both ends and two levels). */
static void seed_n(struct mess_curve *c, int flat, int knee)
{
	static const uint64_t init[] = { 0, 8, 32, 128, 512, 2048 };
	static const uint64_t init_knee[] = { 0, 32, 256, 2048 };

	memset(c, 0, sizeof(*c));
	for (size_t i = 0; i < (knee ? 4 : sizeof(init) / sizeof(init[0])); i++)
		add(c, knee ? init_knee[i] : init[i], flat);
}

static void seed(struct mess_curve *c, int flat)
{
	seed_n(c, flat, 0);
}

static size_t run_rule(struct mess_curve *c, unsigned points, int flat, int knee)
{
	uint64_t nop;
	size_t steps = 0;

	while (knee ? mess_autotune_knee(c, L0, points, &nop)
		    : mess_autotune_next(c, L0, points, &nop)) {
		for (size_t i = 0; i < c->n; i++)
			assert_true(c->pts[i].nop != nop);	/* never twice */
		add(c, nop, flat);
		assert_true(++steps < 1000);
	}
	return c->n;
}

static size_t run(struct mess_curve *c, unsigned points, int flat)
{
	return run_rule(c, points, flat, 0);
}

/* The worst latency error of the curve's piecewise-linear model (latency
 * against bandwidth, as lib/model/model.c interpolates) against the
 * truth, over 200 bandwidths from the lightest point to the heaviest. */
static double worst_error(struct mess_curve *c)
{
	double worst = 0;

	mess_curve_sort_pressure(c);
	for (int k = 0; k <= 200; k++) {
		/* the truth at nop x, a real number: bw and lat of model() */
		double lo = c->pts[0].bw_gbs, hi = c->pts[c->n - 1].bw_gbs;
		double b = fmin(lo + (hi - lo) * k / 200, hi), u = b / (1.05 * BMAX);
		double t = L0 * (1.0 + 0.5 * u * u / (1.0 - u)), m = NAN;

		for (size_t i = 1; i < c->n; i++) {
			const struct mess_point *p = &c->pts[i - 1], *q = &c->pts[i];

			if (b >= p->bw_gbs && b <= q->bw_gbs) {
				m = p->lat_ns + (q->lat_ns - p->lat_ns) *
					(b - p->bw_gbs) / (q->bw_gbs - p->bw_gbs);
				break;
			}
		}
		assert_false(isnan(m));
		worst = fmax(worst, fabs(m - t) / t);
	}
	return worst;
}

/* Issue 47: the knee rule stops at --points, never measures a nop twice,
 * and, from four points, gets a better model of a saturating curve with
 * 10 than the classic rule with 10 (classic's --points 7) from its six. */
static void knee_rule_spends_its_points_where_the_curve_bends(void **state)
{
	struct mess_curve k, c;

	seed_n(&k, 0, 1);
	assert_int_equal(run_rule(&k, 10, 0, 1), 10);
	seed(&c, 0);
	assert_int_equal(run_rule(&c, 7, 0, 0), 10);
	double ek = worst_error(&k), ec = worst_error(&c);

	print_message("worst latency error with 10 points: knee %.2f %%, classic %.2f %%\n",
		      100 * ek, 100 * ec);
	assert_true(ek < ec);
	mess_curve_free(&k);
	mess_curve_free(&c);
}

static void saturating_curve_is_dense_where_latency_climbs(void **state)
{
	struct mess_curve c;
	unsigned points = 12, steep = 0;
	double lo = 1e9, hi = 0;

	seed(&c, 0);
	size_t n = run(&c, points, 0);

	assert_true(n >= points);
	assert_true(n <= 2 * points + 4);
	mess_curve_sort_pressure(&c);
	for (size_t i = 0; i < n; i++) {
		steep += c.pts[i].lat_ns > 2 * L0;
		lo = c.pts[i].bw_gbs < lo ? c.pts[i].bw_gbs : lo;
		hi = c.pts[i].bw_gbs > hi ? c.pts[i].bw_gbs : hi;
	}
	/* The saturated part (latency above 2x) gets several points... */
	assert_true(steep >= 3);
	/* ...and no neighbours are left far apart on either axis. */
	for (size_t i = 1; i < n; i++) {
		const struct mess_point *a = &c.pts[i - 1], *b = &c.pts[i];

		if (a->nop - b->nop < 2)
			continue;
		assert_true(b->bw_gbs - a->bw_gbs <= 0.2 * (hi - lo));
		assert_true(b->lat_ns - a->lat_ns <= 2.0 * L0);
	}
	mess_curve_free(&c);
}

static void flat_curve_stops_near_the_minimum(void **state)
{
	struct mess_curve c;

	seed(&c, 1);
	size_t n = run(&c, 12, 1);

	/* Latency wobble must not attract points: bandwidth alone decides. */
	assert_true(n >= 12);
	assert_true(n <= 16);
	mess_curve_free(&c);
}

static void nothing_to_bisect(void **state)
{
	struct mess_curve c = { 0 };
	uint64_t nop = 12345;

	assert_int_equal(mess_autotune_next(&c, L0, 3, &nop), 0);
	add(&c, 1, 0);
	assert_int_equal(mess_autotune_next(&c, L0, 3, &nop), 0);
	add(&c, 0, 0);	/* adjacent nops: no integer between them */
	assert_int_equal(mess_autotune_next(&c, L0, 3, &nop), 0);
	add(&c, 16, 0);
	assert_int_equal(mess_autotune_next(&c, L0, 3, &nop), 1);
	assert_int_equal(nop, 4);	/* sqrt(1 * 16): bisection in log nop */
	mess_curve_free(&c);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(saturating_curve_is_dense_where_latency_climbs),
		cmocka_unit_test(flat_curve_stops_near_the_minimum),
		cmocka_unit_test(nothing_to_bisect),
		cmocka_unit_test(knee_rule_spends_its_points_where_the_curve_bends),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
