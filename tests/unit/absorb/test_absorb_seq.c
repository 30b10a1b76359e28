// SPDX-License-Identifier: MIT
/*
 * k1 decided by the sequential test (mess_absorb_seq_add) and bracketed
 * (mess_absorb_bracket), driven end to end against synthetic machines with
 * noise whose answer is known: a kernel that speeds up with noise, a
 * sub-linear saturation, a step at a known k1 under heavy-tailed noise,
 * and a disturbance injected into one run.  Each pair is two runs (k = 0,
 * then k) with their own noise, as mess absorb measures them.
 */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "mess/absorb.h"
#include "splitmix.h"
#include "mess/stats.h"
#include "near.h"

#define T0 10.0
#define BASE_PAIRS 5
#define MAXPTS 256

enum shape { SPEEDUP, SQRT, STEP };
enum noise { GAUSS, HEAVY };

struct machine {
	enum shape shape;
	double k1;		/* the known answer */
	enum noise noise;
	double rel;		/* relative spread of one run */
	uint64_t seed;
	/* A disturbance: run number disturb_run (0: none) is slowed by
	 * disturb_rel and flagged, as steal time or a preemption would be. */
	unsigned long disturb_run;
	double disturb_rel;
	int flag;		/* whether the disturbance is detected */
	unsigned long runs;	/* runs so far */
};

/* One draw of the run noise: normal, or heavy-tailed (Student t with 2
 * degrees of freedom, infinite variance, plus one run in 20 a third
 * slower: a neighbour's burst). */
static double draw(struct machine *m)
{
	uint64_t h = mix(m->seed ^ mix(++m->runs));
	double u1 = unif(h), u2 = unif(mix(h)), z;

	z = sqrt(-2 * log(u1)) * cos(2 * M_PI * u2);
	if (m->noise == GAUSS)
		return 1 + m->rel * z;
	double c = unif(mix(h ^ 7)), u3 = unif(mix(h ^ 11));
	double t2 = z / sqrt(-log(u3));	/* normal / sqrt(chi2_2 / 2) */

	return fmax(0.5, 1 + m->rel * t2 + (c < 0.05 ? 0.33 : 0));
}

static double truth(const struct machine *m, unsigned k)
{
	switch (m->shape) {
	case SPEEDUP:	/* 0.4 % faster per insn up to 24, then 5 % slower each */
		return k <= 24 ? T0 * (1 - 0.004 * k) :
				 T0 * (0.904 + 0.05 * (k - 24));
	case SQRT:	/* flat to k1, then a rise that saturates */
		return k <= m->k1 ? T0 : T0 * (1 + 0.06 * sqrt(k - m->k1));
	case STEP:	/* 15 % slower past k1, then flat */
		return k <= m->k1 ? T0 : T0 * 1.15;
	}
	return NAN;
}

/* One run of k; *dist set when the injected disturbance hit it. */
static double run(struct machine *m, unsigned k, int *dist)
{
	double t = truth(m, k) * draw(m);

	if (m->disturb_run && m->runs == m->disturb_run) {
		t *= 1 + m->disturb_rel;
		*dist |= m->flag;
	}
	return t;
}

struct drive {
	struct mess_absorb_cfg c;
	struct mess_absorb_point pts[MAXPTS];
	size_t n;
	double floor_rel, thr_rel;
	unsigned disturbed, redone, kept, pairs;
};

/* A point, pairs measured until the test decides. */
static void point(struct machine *m, struct drive *d, unsigned k)
{
	struct mess_absorb_seqstate s;
	size_t want = k ? 0 : BASE_PAIRS;
	double base = NAN, t0s[MESS_ABSORB_MAX_PAIRS];
	int v;

	memset(&s, 0, sizeof(s));
	for (size_t i = 0; i < d->n; i++)
		if (d->pts[i].k == 0)
			base = d->pts[i].t;
	do {
		int dist = 0;
		double a = run(m, 0, &dist), b = run(m, k, &dist);

		if (s.n < MESS_ABSORB_MAX_PAIRS)
			t0s[s.n] = a;
		v = mess_absorb_seq_add(&s, b / a, dist, want, d->floor_rel,
					d->thr_rel, &d->c);
		assert_true(v >= 0);
	} while (v == MESS_ABSORB_MORE);
	d->disturbed += s.disturbed;
	d->redone += s.redone;
	d->kept += s.kept;
	d->pairs += (unsigned)s.n;
	if (!k) {
		base = mess_median(t0s, (unsigned)s.n);
		d->pts[d->n] = (struct mess_absorb_point){ 0, base,
			base * s.last.scale, (unsigned)s.n, 0, 0 };
		d->floor_rel = s.last.scale;
		d->thr_rel = mess_absorb_threshold(&d->c, &d->pts[d->n]) / base;
	} else {
		d->pts[d->n] = (struct mess_absorb_point){ k,
			base * s.last.ratio, base * s.last.scale, (unsigned)s.n,
			base * s.last.lo, base * s.last.hi };
	}
	d->n++;
}

static void drive(struct machine *m, unsigned kmax, struct drive *d,
		  struct mess_absorb_result *r)
{
	unsigned k;
	int rc;

	memset(d, 0, sizeof(*d));
	mess_absorb_cfg_default(&d->c, kmax);
	while ((rc = mess_absorb_next(d->pts, d->n, &d->c, &k)) == 1) {
		assert_true(d->n < MAXPTS);
		point(m, d, k);
	}
	assert_int_equal(rc, 0);
	assert_int_equal(mess_absorb_fit(d->pts, d->n, &d->c, r), 0);
}

/* The sequential test alone: clear points stop at min_pairs, a point on
 * the threshold runs to max_pairs and stays doubtful. */
static void seq_stops_early_when_clear(void **state)
{
	struct mess_absorb_cfg c;
	struct mess_absorb_seq o;
	double clear[] = { 1.50, 1.52, 1.49, 1.51 };
	double edge[15];

	mess_absorb_cfg_default(&c, 256);
	assert_int_equal(mess_absorb_seq(clear, 3, 0.01, 0.03, &c, &o), 0);
	assert_int_equal(o.verdict, MESS_ABSORB_MORE);	/* < min_pairs */
	assert_int_equal(mess_absorb_seq(clear, 4, 0.01, 0.03, &c, &o), 0);
	assert_int_equal(o.verdict, MESS_ABSORB_SLOW);
	assert_true(o.lo > 1.03 && fabs(o.ratio - 1.505) < 1e-12 && o.hi > o.ratio);
	for (int i = 0; i < 15; i++)
		edge[i] = 1.03 + (i % 3 - 1) * 0.01;
	/* On the line without an indifference zone: never decided. */
	c.zone = 0;
	assert_int_equal(mess_absorb_seq(edge, 14, 0.01, 0.03, &c, &o), 0);
	assert_int_equal(o.verdict, MESS_ABSORB_MORE);
	assert_int_equal(mess_absorb_seq(edge, 15, 0.01, 0.03, &c, &o), 0);
	assert_int_equal(o.verdict, MESS_ABSORB_DOUBTFUL);
	/* With the default zone (half the threshold: 1.5 % here), called by
	 * its median's side once the interval lies inside it: the median on
	 * the line is not above it, fast (hi 1.041 <= 1.045). */
	c.zone = 0.5;
	assert_int_equal(mess_absorb_seq(edge, 14, 0.01, 0.03, &c, &o), 0);
	assert_int_equal(o.verdict, MESS_ABSORB_FAST);
	assert_true(o.hi > 1.03 && o.hi <= 1.045);
	/* 0.2 % above the line: slow (lo past 1.015), though lo < 1.03. */
	for (int i = 0; i < 15; i++)
		edge[i] += 0.002;
	assert_int_equal(mess_absorb_seq(edge, 14, 0.01, 0.03, &c, &o), 0);
	assert_int_equal(o.verdict, MESS_ABSORB_SLOW);
	assert_true(o.lo < 1.03 && o.lo > 1.015);
	/* Not while the interval reaches past the zone (4 pairs: +-2 %). */
	assert_int_equal(mess_absorb_seq(edge, 4, 0.01, 0.03, &c, &o), 0);
	assert_int_equal(o.verdict, MESS_ABSORB_MORE);
	assert_true(o.hi > 1.045 && o.lo < 1.015);
	/* A zone of the whole threshold or more is refused. */
	c.zone = 1;
	assert_int_equal(mess_absorb_seq(edge, 4, 0.01, 0.03, &c, &o), -EINVAL);
	c.zone = 0.5;
	/* The floor: three equal ratios are not a zero-width interval. */
	double same[] = { 1.028, 1.028, 1.028, 1.028 };

	assert_int_equal(mess_absorb_seq(same, 4, 0.01, 0.03, &c, &o), 0);
	assert_true(o.hi - o.lo > 0.02);
	assert_int_equal(o.verdict, MESS_ABSORB_MORE);
	assert_int_equal(mess_absorb_seq(same, 4, 0, 0.03, &c, &o), 0);
	assert_int_equal(o.verdict, MESS_ABSORB_FAST);
	/* Bad input. */
	assert_int_equal(mess_absorb_seq(same, 0, 0.01, 0.03, &c, &o), -EINVAL);
	same[1] = NAN;
	assert_int_equal(mess_absorb_seq(same, 3, 0.01, 0.03, &c, &o), -EINVAL);
	assert_int_equal(mess_absorb_seq(clear, 3, -1, 0.03, &c, &o), -EINVAL);
	assert_int_equal(mess_absorb_seq(clear, 3, 0.01, NAN, &c, &o), -EINVAL);
}

/* Faster with noise up to k = 24 (9.6 %), then 5 % slower per insn: the
 * speed-up is absorbed, k1 = 26 (the last k within the threshold), and
 * the speed-up recorded. */
static void speedup_is_absorbed(void **state)
{
	for (uint64_t seed = 1; seed <= 10; seed++) {
		struct machine m = { SPEEDUP, 26, GAUSS, 0.004, seed, 0, 0, 0, 0 };
		struct mess_absorb_result r;
		struct drive d;

		drive(&m, 256, &d, &r);
		assert_int_equal(r.status, MESS_ABSORB_OK);
		assert_true(r.k1 >= 25 && r.k1 <= 26);
		assert_true(r.k1_lo <= r.k1 && r.k1 < r.k1_hi);
		assert_true(r.speedup_k >= 16 && r.speedup_k <= 26);
		assert_true(r.speedup > 0.05 && r.speedup < 0.11);
	}
}

/* Flat to 40, then t0 (1 + 0.06 sqrt(k - 40)): k1 = 40 and the rise,
 * not a line, reported as sub-linear without touching k1. */
static void sublinear_saturation(void **state)
{
	unsigned sub = 0;

	for (uint64_t seed = 1; seed <= 10; seed++) {
		struct machine m = { SQRT, 40, GAUSS, 0.003, seed, 0, 0, 0, 0 };
		struct mess_absorb_result r;
		struct drive d;

		drive(&m, 256, &d, &r);
		assert_int_equal(r.status, MESS_ABSORB_OK);
		assert_int_equal(r.k1, 40);
		assert_int_equal(r.k1_hi, 41);
		assert_int_not_equal(r.shape, MESS_ABSORB_SHAPE_NONE);
		sub += r.shape == MESS_ABSORB_SHAPE_SUBLINEAR;
		assert_true(isfinite(r.r2));
	}
	print_message("  %u of 10 sub-linear\n", sub);
	assert_true(sub >= 8);
}

/*
 * 15 % slower past k1 = 37 under heavy-tailed noise (Student t2 at 0.5 %
 * plus a third slower one run in 20): the bracket always holds the truth,
 * and mostly it is tight.
 */
static void step_heavy_tails(void **state)
{
	unsigned ok = 0, pairs = 0, points = 0;

	for (uint64_t seed = 1; seed <= 30; seed++) {
		struct machine m = { STEP, 37, HEAVY, 0.005, seed, 0, 0, 0, 0 };
		struct mess_absorb_result r;
		struct drive d;

		drive(&m, 256, &d, &r);
		if (r.k1_lo > 37)
			for (size_t i = 0; i < d.n; i++)
				print_message("seed %d k %u t %g [%g %g] n %u thr %g\n", (int)seed, d.pts[i].k, d.pts[i].t, d.pts[i].lo, d.pts[i].hi, d.pts[i].repeats, d.thr_rel);
		assert_true(r.k1_lo <= 37);
		assert_true(r.k1_hi == 0 || r.k1_hi >= 38);
		assert_true(r.status == MESS_ABSORB_OK || r.status == MESS_ABSORB_WIDE);
		if (r.status == MESS_ABSORB_OK) {
			ok++;
			assert_int_equal(r.k1, 37);
		}
		pairs += d.pairs;
		points += (unsigned)d.n;
	}
	print_message("  %u of 30 ok, %.1f pairs per point\n", ok,
		      (double)pairs / points);
	assert_true(ok >= 25);
	/* Clear points stop early: far fewer than max_pairs on average. */
	assert_true(pairs < points * 6);
}

/* One run of a fast point 60 % slower.  Detected: the pair is measured
 * again and counted; the answer is that of an undisturbed machine. */
static void disturbance_injected(void **state)
{
	struct machine m = { STEP, 20, GAUSS, 0.003, 3, 0, 0, 0, 0 };
	struct mess_absorb_result r, clean;
	struct drive d;

	drive(&m, 128, &d, &clean);
	assert_int_equal(clean.k1, 20);
	assert_int_equal(d.disturbed, 0);
	/* The 20th run: a pair of k = 2 (baseline 5 pairs, k = 1 4). */
	m = (struct machine){ STEP, 20, GAUSS, 0.003, 3, 20, 0.6, 1, 0 };
	drive(&m, 128, &d, &r);
	assert_int_equal(d.disturbed, 1);
	assert_int_equal(d.redone, 1);
	assert_int_equal(d.kept, 0);
	assert_int_equal(r.k1, 20);
	assert_int_equal(r.status, MESS_ABSORB_OK);
	for (size_t i = 0; i < d.n; i++)
		if (d.pts[i].k && d.pts[i].k <= 20)
			assert_true(d.pts[i].t < T0 * 1.02);

	/* Disturbed all the time: re-measured min_pairs times, then kept. */
	struct mess_absorb_seqstate s;
	struct mess_absorb_cfg c;
	int v = MESS_ABSORB_MORE;

	mess_absorb_cfg_default(&c, 64);
	memset(&s, 0, sizeof(s));
	for (int i = 0; v == MESS_ABSORB_MORE && i < 100; i++)
		v = mess_absorb_seq_add(&s, 1.5, 1, 0, 0.01, 0.03, &c);
	assert_int_equal(v, MESS_ABSORB_SLOW);
	assert_int_equal(s.redone, c.min_pairs);
	assert_int_equal(s.kept, c.min_pairs);
	assert_int_equal(s.disturbed, 2 * c.min_pairs);
	assert_int_equal(s.n, c.min_pairs);
	/* Full: no more pairs taken. */
	s.n = c.max_pairs;
	assert_int_equal(mess_absorb_seq_add(&s, 1.5, 0, 0, 0.01, 0.03, &c), -EINVAL);
}

/*
 * The pooled floor (mess_absorb_pool_add, _sd): which points count, the
 * scaling and the MAD on a known set, the cap, and on Gaussian pairs of
 * known spread the figure the baseline's 5 pairs only guess at.
 */
static void noise_pool(void **state)
{
	static const double pat[6] = { 0.98, 0.99, 1.00, 1.00, 1.01, 1.02 };
	double dev[64], far[6], q[15], sd;
	size_t n = 0;

	(void)state;
	/* Five pairs: too few to count. */
	assert_int_equal(mess_absorb_pool_add(dev, 0, 64, pat, 5), 0);
	/* A median 20 % past 1: far past k1, not the noise near the line. */
	for (int i = 0; i < 6; i++)
		far[i] = pat[i] + 0.2;
	assert_int_equal(mess_absorb_pool_add(dev, 0, 64, far, 6), 0);
	for (int p = 0; p < 4; p++)
		n = mess_absorb_pool_add(dev, n, 64, pat, 6);
	assert_int_equal(n, 24);
	assert_near(dev[0], -0.02 * sqrt(6.0 / 5.0), 1e-12);
	/* Below 30 deviations: no floor of its own. */
	assert_true(isnan(mess_absorb_pool_sd(dev, n)));
	n = mess_absorb_pool_add(dev, n, 64, pat, 6);
	assert_int_equal(n, 30);
	/* |dev|: ten 0, ten 0.01, ten 0.02 (x sqrt(1.2)): the median 0.01. */
	assert_near(mess_absorb_pool_sd(dev, n), 1.4826 * 0.01 * sqrt(1.2), 1e-12);
	/* The cap. */
	n = mess_absorb_pool_add(dev, 60, 64, pat, 6);
	assert_int_equal(n, 64);
	/* 60 points of 15 Gaussian ratios, spread 2 %: the pooled figure
	 * within 8 % of it (900 deviations). */
	{
		static double big[1024];
		struct machine g = { .noise = GAUSS, .rel = 0.02, .seed = 16 };
		size_t m = 0;

		for (int p = 0; p < 60; p++) {
			for (int i = 0; i < 15; i++)
				q[i] = 0.01 + draw(&g);
			m = mess_absorb_pool_add(big, m, 1024, q, 15);
		}
		assert_int_equal(m, 900);
		sd = mess_absorb_pool_sd(big, m);
		print_message("  pooled spread %.4f for 0.02\n", sd);
		assert_true(fabs(sd / 0.02 - 1) < 0.08);
	}
}

/*
 * A pair's ratio from its slices: the median of the sub-pairs' ratios.
 * One slice the host hit (3 x its time) leaves it where the others put
 * it; the ratio of the sums, what it was before, moves by a quarter.
 */
static void pair_ratio(void **state)
{
	double x[8] = { 10, 10, 10, 10, 10, 10, 10, 10 };
	double y[8] = { 10.2, 10.2, 10.2, 10.2, 10.2, 10.2, 10.2, 10.2 };
	double sx = 0, sy = 0;

	(void)state;
	assert_near(mess_absorb_pair_ratio(x, y, 8), 1.02, 1e-12);
	y[3] = 30.6;
	for (int i = 0; i < 8; i++) {
		sx += x[i];
		sy += y[i];
	}
	assert_near(mess_absorb_pair_ratio(x, y, 8), 1.02, 1e-12);
	assert_true(sy / sx > 1.27);
	/* The k = 0 run hit instead: the same. */
	y[3] = 10.2;
	x[5] = 30;
	assert_near(mess_absorb_pair_ratio(x, y, 8), 1.02, 1e-12);
	/* Even counts: the mean of the middle two (ratios 1.0, 1.1). */
	{
		double a[2] = { 1, 1 }, b[2] = { 1.0, 1.1 };

		assert_near(mess_absorb_pair_ratio(a, b, 2), 1.05, 1e-12);
		assert_near(mess_absorb_pair_ratio(a, b, 1), 1.0, 1e-12);
	}
	/* x and y are left as they were (the caller keeps their means). */
	assert_near(x[5], 30, 0);
	assert_near(y[7], 10.2, 0);
	/* Nothing to take a ratio of. */
	assert_true(isnan(mess_absorb_pair_ratio(x, y, 0)));
	assert_true(isnan(mess_absorb_pair_ratio(x, y, MESS_ABSORB_MAX_SLICES + 1)));
	assert_true(isnan(mess_absorb_pair_ratio(NULL, y, 8)));
	x[2] = 0;
	assert_true(isnan(mess_absorb_pair_ratio(x, y, 8)));
	x[2] = NAN;
	assert_true(isnan(mess_absorb_pair_ratio(x, y, 8)));
	x[2] = 10;
	y[0] = INFINITY;
	assert_true(isnan(mess_absorb_pair_ratio(x, y, 8)));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(seq_stops_early_when_clear),
		cmocka_unit_test(speedup_is_absorbed),
		cmocka_unit_test(sublinear_saturation),
		cmocka_unit_test(step_heavy_tails),
		cmocka_unit_test(disturbance_injected),
		cmocka_unit_test(noise_pool),
		cmocka_unit_test(pair_ratio),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
