// SPDX-License-Identifier: MIT
/*
 * mess_quality_curve finds the violating pairs through a sorted index
 * and covers them through a heap (lib/model/quality_curve.c): it must flag
 * exactly what trying every pair flagged.  The algorithm it replaced is
 * kept here, verbatim, as the reference: thousands of small random
 * curves (noise, outliers, equal nops, unusable points, spreads unknown)
 * give the same flags, count and involved points; and a curve of 50,000
 * points is judged in a wide bound with its one outlier flagged (the
 * reference's table of every pair, 60 GB, could not be allocated: it
 * silently flagged nothing; at 20,000 points it took seconds).
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cmocka.h>

#include "mess/quality.h"

/* ---- the reference: lib/model/quality.c before the index ---- */

/* One violation: two points that cannot both be right, and the rule. */
struct viol {
	size_t a, b;		/* a lighter (larger nop) than b */
	uint32_t bit;
};

/*
 * How far each usable point lies from the mean of its neighbours in
 * pressure order (from its one neighbour at an end), in bandwidth and in
 * latency, each over the curve's largest value so the two add up: the
 * tie-break between points in as many violations, since the outlier is
 * the one its neighbours do not vouch for.
 */
static void old_residuals(const struct mess_curve *c, double *res)
{
	size_t n = c->n, *idx = malloc((n ? n : 1) * sizeof(*idx)), m = 0;
	static const size_t off[2] = { offsetof(struct mess_point, bw_gbs),
				       offsetof(struct mess_point, lat_ns) };

	for (size_t i = 0; i < n; i++)
		res[i] = 0;
	if (!idx)
		return;
	m = mess_curve_pressure_index(c, idx);
	for (int k = 0; k < 2; k++) {
#define V(i) (*(const double *)((const char *)&c->pts[idx[i]] + off[k]))
		double top = 0;

		for (size_t i = 0; i < m; i++)
			top = fmax(top, fabs(V(i)));
		for (size_t i = 0; m > 1 && top > 0 && i < m; i++) {
			double ref = i == 0 ? V(1) : i == m - 1 ? V(m - 2) :
				     (V(i - 1) + V(i + 1)) / 2;

			res[idx[i]] += fabs(V(i) - ref) / top;
		}
#undef V
	}
	free(idx);
}

/*
 * The greedy cover of the violations of both rules together (a stall
 * shows in both: bandwidth collapses as latency soars, so the points
 * both rules name are the likeliest wrong): flag the point in most
 * violations not yet explained, ties to the larger residual, then the
 * later in c; it takes the rule of each violation it explains.
 */
static size_t old_cover(struct mess_curve *c, const struct viol *v, size_t nv,
		    unsigned char *involved)
{
	size_t *cnt = calloc(c->n ? c->n : 1, sizeof(*cnt)), flagged = 0;
	double *res = calloc(c->n ? c->n : 1, sizeof(*res));
	char *hit = calloc(nv ? nv : 1, 1);

	for (size_t k = 0; involved && k < nv; k++)
		involved[v[k].a] = involved[v[k].b] = 1;
	if (!cnt || !hit || !res) {
		/* Out of memory: both ends of every violation, never none. */
		for (size_t k = 0; k < nv; k++) {
			c->pts[v[k].a].flags |= v[k].bit;
			c->pts[v[k].b].flags |= v[k].bit;
		}
		flagged = 2 * nv;
		goto out;
	}
	old_residuals(c, res);
	for (;;) {
		size_t best = SIZE_MAX;

		memset(cnt, 0, c->n * sizeof(*cnt));
		for (size_t k = 0; k < nv; k++)
			if (!hit[k]) {
				cnt[v[k].a]++;
				cnt[v[k].b]++;
			}
		for (size_t i = 0; i < c->n; i++)
			if (cnt[i] && (best == SIZE_MAX || cnt[i] > cnt[best] ||
				       (cnt[i] == cnt[best] && res[i] >= res[best])))
				best = i;
		if (best == SIZE_MAX)
			break;
		flagged++;
		for (size_t k = 0; k < nv; k++)
			if (!hit[k] && (v[k].a == best || v[k].b == best)) {
				c->pts[best].flags |= v[k].bit;
				hit[k] = 1;
			}
	}
out:
	free(cnt);
	free(res);
	free(hit);
	return flagged;
}

static size_t old_quality_curve(struct mess_curve *c, double unloaded_ns,
			  double unloaded_sd_ns, const struct mess_qtol *t,
			  unsigned char *involved)
{
	size_t n = c->n, nv = 0, flagged, imax = SIZE_MAX;
	struct viol *v;

	for (size_t i = 0; i < n; i++)
		c->pts[i].flags &= ~MESS_QF_CURVE_RULES;
	if (involved)
		memset(involved, 0, n);
	/* At most every pair, for each of two rules. */
	v = calloc(n * n + 1, sizeof(*v));
	if (!v)
		return 0;
	for (size_t i = 0; i < n; i++)
		if (mess_point_usable(&c->pts[i]) &&
		    (imax == SIZE_MAX || c->pts[i].bw_gbs > c->pts[imax].bw_gbs))
			imax = i;
	for (size_t a = 0; imax != SIZE_MAX && a < n; a++) {
		const struct mess_point *pa = &c->pts[a];

		if (!mess_point_usable(pa))
			continue;
		for (size_t b = 0; b < n; b++) {
			const struct mess_point *pb = &c->pts[b];

			if (!mess_point_usable(pb) || pb->nop >= pa->nop)
				continue;
			/* non_monotone: below the maximum (at or above its
			 * nop), bandwidth falls as the nop count rises.  Past
			 * it a drop is a wave. */
			if (pb->nop >= c->pts[imax].nop &&
			    pa->bw_gbs - pb->bw_gbs > t->bw_rel * pa->bw_gbs +
				    t->nsd * mess_qcomb(pa->bw_gbs_std, pb->bw_gbs_std))
				v[nv++] = (struct viol){ a, b, MESS_QF(MESS_QR_NON_MONOTONE) };
			/* stall: latency never falls as pressure rises. */
			if (pa->lat_ns - pb->lat_ns > t->stall_rel * pb->lat_ns +
				    t->nsd * mess_qcomb(pa->lat_ns_std, pb->lat_ns_std))
				v[nv++] = (struct viol){ a, b, MESS_QF(MESS_QR_STALL) };
		}
	}
	flagged = old_cover(c, v, nv, involved);
	free(v);

	/* below_unloaded: one point against the run's yardstick. */
	for (size_t i = 0; unloaded_ns > 0 && i < n; i++) {
		struct mess_point *p = &c->pts[i];

		if (mess_point_usable(p) &&
		    unloaded_ns - p->lat_ns > t->below_rel * unloaded_ns +
			    t->nsd * mess_qcomb(p->lat_ns_std, unloaded_sd_ns)) {
			flagged += !(p->flags & MESS_QF_CURVE_RULES);
			p->flags |= MESS_QF(MESS_QR_BELOW_UNLOADED);
			if (involved)
				involved[i] = 1;
		}
	}
	return flagged;
}


/* ---- the tests ---- */

static uint64_t rng_state = 88172645463325252ull;

static double rnd(void)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return (double)(rng_state >> 11) / 9007199254740992.0;
}

/* A random curve of n points: a rising latency and bandwidth under
 * pressure (nop falling), noise, some outliers, equal nops, an unusable
 * point now and then, spreads unknown or 0 on some. */
static void random_curve(struct mess_curve *c, size_t n)
{
	int kind = (int)(rnd() * 4);

	memset(c, 0, sizeof(*c));
	for (size_t i = 0; i < n; i++) {
		struct mess_point p = MESS_POINT_INIT;
		double x = (double)i / (double)n, noise = kind == 3 ? 0.5 : 0.05;

		p.nop = (uint64_t)(rnd() < 0.1 && i ? (n - i + 1) * 10 : (n - i) * 10);
		p.bw_gbs = 100 * x * (1 + noise * (rnd() - 0.5));
		p.lat_ns = (90 + 200 * x * x * x) * (1 + noise * (rnd() - 0.5));
		if (rnd() < 0.08)
			p.lat_ns *= 1 + 2 * rnd();	/* a stall */
		if (rnd() < 0.08)
			p.bw_gbs *= rnd();		/* a dip */
		if (kind == 2 && rnd() < 0.05)
			p.bw_gbs = NAN;			/* unusable */
		p.bw_gbs_std = rnd() < 0.2 ? NAN : rnd() < 0.1 ? 0 : rnd() * 3;
		p.lat_ns_std = rnd() < 0.2 ? NAN : rnd() < 0.1 ? 0 : rnd() * 5;
		p.flags = rnd() < 0.1 ? MESS_QF(MESS_QR_SPREAD) : 0;
		assert_int_equal(mess_curve_add(c, &p), 0);
	}
}

static void same_as_reference(void **state)
{
	const struct mess_qtol tols[] = {
		MESS_QTOL_DEFAULT,
		{ .bw_rel = 0, .stall_rel = 0, .below_rel = 0, .nsd = 0 },
		{ .bw_rel = 0.5, .stall_rel = -0.05, .below_rel = 0.1, .nsd = 1 },
		{ .bw_rel = 0.03, .stall_rel = 0.1, .below_rel = 0.03, .nsd = -1 },
	};
	size_t cases = 0, flagged_cases = 0;

	(void)state;
	for (int round = 0; round < 3000; round++) {
		const struct mess_qtol *t = &tols[round % 4];
		size_t n = 1 + (size_t)(rnd() * 40);
		struct mess_curve a, b;
		unsigned char ia[64], ib[64];
		double unl = rnd() < 0.5 ? 95 : 0;
		size_t fa, fb;

		random_curve(&a, n);
		b = a;
		b.pts = malloc(n * sizeof(*b.pts));
		assert_non_null(b.pts);
		memcpy(b.pts, a.pts, n * sizeof(*b.pts));
		fa = old_quality_curve(&a, unl, 2, t, ia);
		fb = mess_quality_curve(&b, unl, 2, t, ib);
		assert_int_equal(fa, fb);
		assert_memory_equal(ia, ib, n);
		for (size_t i = 0; i < n; i++)
			assert_int_equal(a.pts[i].flags, b.pts[i].flags);
		cases++;
		flagged_cases += fa > 0;
		free(a.pts);
		free(b.pts);
	}
	/* the inputs did break the rules: the comparison meant something */
	assert_true(flagged_cases > cases / 4);
}

static void many_points_bounded(void **state)
{
	const struct mess_qtol t = MESS_QTOL_DEFAULT;
	const size_t n = 50000, spike = 10000;
	struct mess_curve c;
	struct timespec t0, t1;
	size_t flagged;
	double s;

	(void)state;
	memset(&c, 0, sizeof(c));
	for (size_t i = 0; i < n; i++) {
		struct mess_point p = MESS_POINT_INIT;
		double x = (double)i / (double)n;

		p.nop = n - i;
		p.bw_gbs = 1 + 100 * x;
		p.lat_ns = 90 + 200 * x * x * x;
		/* light load, yet slower than every point under more
		 * pressure: the one point to flag */
		if (i == spike)
			p.lat_ns = 1000;
		p.bw_gbs_std = 0.1;
		p.lat_ns_std = 0.5;
		assert_int_equal(mess_curve_add(&c, &p), 0);
	}
	clock_gettime(CLOCK_MONOTONIC, &t0);
	flagged = mess_quality_curve(&c, 0, NAN, &t, NULL);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	s = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
	print_message("50,000 points: %.3f s, %zu flagged\n", s, flagged);
	assert_int_equal(flagged, 1);
	assert_true(c.pts[spike].flags & MESS_QF(MESS_QR_STALL));
	/* a wide bound: trying every pair took seconds at 20,000 */
	assert_true(s < 10);
	free(c.pts);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(same_as_reference),
		cmocka_unit_test(many_points_bounded),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
