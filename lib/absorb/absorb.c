// SPDX-License-Identifier: MIT
/*
 * Noise absorption: where to measure next, and the three-phase fit.
 */
#include "mess/absorb.h"
#include "mess/quality.h"

#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* No k: the caller's k are unsigned and kmax < UINT_MAX is not promised. */
#define NO_K UINT64_MAX

/* Breakpoints tried per axis when refining between measured ks. */
#define REFINE_STEPS 64

void mess_absorb_cfg_default(struct mess_absorb_cfg *cfg, unsigned kmax)
{
	*cfg = (struct mess_absorb_cfg){
		.kmax = kmax,
		.rel_min = 0.01,
		.n_sigma = 3.0,
		.prec_div = 32,
		.slope_tol = 0.10,
		.r2_min = 0.9,
		.min_pairs = 4,
		.max_pairs = 15,
		.tol_rel = 0.12,
		.ext_pairs = 40,
		.ext_entry = 50,
		.redo_far = 1,
		.zone = 0.5,
	};
}

const char *mess_absorb_status_name(enum mess_absorb_status s)
{
	switch (s) {
	case MESS_ABSORB_OK:
		return "ok";
	case MESS_ABSORB_NONE:
		return "none";
	case MESS_ABSORB_WIDE:
		return "wide";
	case MESS_ABSORB_UNCLEAR:
		return "unclear";
	}
	return "?";
}

/* Comparisons are written so that NAN fails them. */
static int cfg_ok(const struct mess_absorb_cfg *c)
{
	return c && c->kmax >= 1 && c->rel_min >= 0 && isfinite(c->rel_min) &&
	       c->n_sigma >= 0 && isfinite(c->n_sigma) && c->prec_div >= 1 &&
	       c->slope_tol >= 0 && isfinite(c->slope_tol) && c->r2_min >= 0 &&
	       c->r2_min <= 1 && c->min_pairs >= 2 &&
	       c->max_pairs >= c->min_pairs &&
	       c->max_pairs <= MESS_ABSORB_MAX_PAIRS && c->tol_rel >= 0 &&
	       isfinite(c->tol_rel) && c->ext_pairs <= MESS_ABSORB_MAX_PAIRS &&
	       c->zone >= 0 && c->zone < 1;
}

/* Checks the points and finds the baseline (NULL if not measured yet). */
static int check(const struct mess_absorb_point *pts, size_t n,
		 const struct mess_absorb_cfg *cfg,
		 const struct mess_absorb_point **base)
{
	*base = NULL;
	if (!cfg_ok(cfg) || (n && !pts))
		return -EINVAL;
	for (size_t i = 0; i < n; i++) {
		if (!(pts[i].t > 0) || !isfinite(pts[i].t) ||
		    !(pts[i].sigma >= 0) || !isfinite(pts[i].sigma) ||
		    !isfinite(pts[i].lo) || !isfinite(pts[i].hi) ||
		    pts[i].lo > pts[i].hi)
			return -EINVAL;
		/* Tens of points: quadratic is cheaper than a sorted copy. */
		for (size_t j = 0; j < i; j++)
			if (pts[j].k == pts[i].k)
				return -EINVAL;
		if (pts[i].k == 0)
			*base = &pts[i];
	}
	return 0;
}

double mess_absorb_threshold(const struct mess_absorb_cfg *cfg,
			     const struct mess_absorb_point *base)
{
	return fmax(cfg->rel_min * base->t, cfg->n_sigma * base->sigma);
}

static unsigned precision(const struct mess_absorb_cfg *cfg, uint64_t lo)
{
	uint64_t p = lo / cfg->prec_div;

	return p > 1 ? (unsigned)p : 1;
}

/*
 * Saturation: the three largest points past k1, each at most 2/3 of the
 * one above, all slow, on a rising line.  Taking simply the three largest
 * would take the bisection's points just past k1, all inside the
 * transient, which can itself be close to straight; the doubling steps
 * space the chain out of it.
 */
static int saturated(const struct mess_absorb_point *pts, size_t n,
		     uint64_t k1, double base_t, double thr, double tol)
{
	const struct mess_absorb_point *c[3];
	uint64_t cap = NO_K;
	double near, far;

	for (int i = 0; i < 3; i++) {
		c[i] = NULL;
		for (size_t j = 0; j < n; j++)
			if (pts[j].k > k1 && pts[j].k <= cap &&
			    (!c[i] || pts[j].k > c[i]->k))
				c[i] = &pts[j];
		/* Back within the threshold past k1 is noise, not a phase. */
		if (!c[i] || !(c[i]->t - base_t > thr))
			return 0;
		cap = (uint64_t)c[i]->k * 2 / 3;
	}
	near = (c[1]->t - c[2]->t) / (c[1]->k - c[2]->k);
	far = (c[0]->t - c[1]->t) / (c[0]->k - c[1]->k);
	if (!(near > 0 && far > 0) || c[0]->t - c[2]->t <= thr)
		return 0;
	return fabs(far - near) <= tol * fmax(near, far);
}

int mess_absorb_next(const struct mess_absorb_point *pts, size_t n,
		     const struct mess_absorb_cfg *cfg, unsigned *k)
{
	const struct mess_absorb_point *base;
	uint64_t m = 0, hi = NO_K, lo = 0, want;
	double thr;
	int rc = check(pts, n, cfg, &base);

	if (rc)
		return rc;
	if (!k)
		return -EINVAL;
	if (!base) {
		*k = 0;
		return 1;
	}
	thr = mess_absorb_threshold(cfg, base);
	/* hi: the smallest k confidently slow; lo: the largest confidently
	 * fast below it; dlo, dhi: the doubtful points between them (points
	 * without an interval are always decided). */
	for (size_t i = 0; i < n; i++) {
		if (pts[i].k > m)
			m = pts[i].k;
		if (mess_absorb_verdict(&pts[i], base->t, thr, cfg) == MESS_ABSORB_SLOW &&
		    pts[i].k < hi)
			hi = pts[i].k;
	}
	if (hi != NO_K) {
		uint64_t dlo = NO_K, dhi = 0, a, b;

		for (size_t i = 0; i < n; i++)
			if (pts[i].k < hi && pts[i].k > lo &&
			    mess_absorb_verdict(&pts[i], base->t, thr, cfg) == MESS_ABSORB_FAST)
				lo = pts[i].k;
		for (size_t i = 0; i < n; i++)
			if (pts[i].k > lo && pts[i].k < hi) {
				dlo = pts[i].k < dlo ? pts[i].k : dlo;
				dhi = pts[i].k > dhi ? pts[i].k : dhi;
			}
		/* Undecided points narrow nothing: bisect the wider of the
		 * gaps that hold none, (lo, dlo) and (dhi, hi), so the bracket
		 * closes in on the doubtful zone from both sides. */
		a = dlo == NO_K ? hi - lo : dlo - lo;
		b = dlo == NO_K ? 0 : hi - dhi;
		if (a >= b && a > precision(cfg, lo)) {
			*k = (unsigned)(lo + a / 2);
			return 1;
		}
		if (b > a && b > precision(cfg, dhi)) {
			*k = (unsigned)(dhi + b / 2);
			return 1;
		}
		if (saturated(pts, n, lo, base->t, thr, cfg->slope_tol))
			return 0;
	}
	if (m >= cfg->kmax)
		return 0;
	want = m ? 2 * m : 1;
	*k = (unsigned)(want < cfg->kmax ? want : cfg->kmax);
	return 1;
}

/* ---- fit ---- */

static int cmp_k(const void *a, const void *b)
{
	const struct mess_absorb_point *x = a, *y = b;

	return (x->k > y->k) - (x->k < y->k);
}

struct model {
	double x1, x2;		/* breakpoints */
	double beta[3];		/* flat level, a, slope * kscale */
	double sse;
};

/*
 * The model is linear in (flat, a, s) once the breakpoints are fixed:
 * t = flat (1 - w) + a w + s g, w the share of the way from x1 to x2 (0 on
 * the flat, 1 on the line) and g = w x2 up to x2, k from there on (the
 * transient ends on the line at x2).  g is scaled by kscale
 * (the largest k) to keep the normal equations well conditioned.
 */
static void row(double k, double x1, double x2, double kscale, double r[3])
{
	double w = k <= x1 ? 0 : k >= x2 ? 1 : (k - x1) / (x2 - x1);

	r[0] = 1 - w;
	r[1] = w;
	r[2] = (k >= x2 ? k : w * x2) / kscale;
}

/* Gaussian elimination with partial pivoting; -1 when singular. */
static int solve3(double a[3][3], double y[3], double x[3])
{
	for (int c = 0; c < 3; c++) {
		int p = c;

		for (int r = c + 1; r < 3; r++)
			if (fabs(a[r][c]) > fabs(a[p][c]))
				p = r;
		if (fabs(a[p][c]) < 1e-12)
			return -1;
		if (p != c) {
			for (int j = 0; j < 3; j++) {
				double t = a[c][j];

				a[c][j] = a[p][j];
				a[p][j] = t;
			}
			double t = y[c];

			y[c] = y[p];
			y[p] = t;
		}
		for (int r = c + 1; r < 3; r++) {
			double f = a[r][c] / a[c][c];

			for (int j = c; j < 3; j++)
				a[r][j] -= f * a[c][j];
			y[r] -= f * y[c];
		}
	}
	for (int c = 2; c >= 0; c--) {
		double s = y[c];

		for (int j = c + 1; j < 3; j++)
			s -= a[c][j] * x[j];
		x[c] = s / a[c][c];
	}
	return 0;
}

static int fit_at(const struct mess_absorb_point *v, size_t n, double kscale,
		  double x1, double x2, struct model *out)
{
	double a[3][3] = { { 0 } }, y[3] = { 0 }, r[3];

	for (size_t i = 0; i < n; i++) {
		row(v[i].k, x1, x2, kscale, r);
		for (int p = 0; p < 3; p++) {
			for (int q = 0; q < 3; q++)
				a[p][q] += r[p] * r[q];
			y[p] += r[p] * v[i].t;
		}
	}
	if (solve3(a, y, out->beta))
		return -1;
	out->x1 = x1;
	out->x2 = x2;
	out->sse = 0;
	for (size_t i = 0; i < n; i++) {
		double e;

		row(v[i].k, x1, x2, kscale, r);
		e = v[i].t - (r[0] * out->beta[0] + r[1] * out->beta[1] +
			      r[2] * out->beta[2]);
		out->sse += e * e;
	}
	return 0;
}

static void try_fit(const struct mess_absorb_point *v, size_t n,
		    double kscale, double x1, double x2, struct model *best)
{
	struct model m;

	if (x1 < x2 && !fit_at(v, n, kscale, x1, x2, &m) &&
	    (best->sse < 0 || m.sse < best->sse))
		*best = m;
}

/* Points from k2 on: the line needs three to be tested, not just drawn. */
static size_t on_line(const struct mess_absorb_point *v, size_t n, double x2)
{
	size_t c = 0;

	for (size_t i = 0; i < n; i++)
		c += v[i].k >= x2;
	return c;
}

/*
 * Least squares over breakpoint pairs at measured ks, then over integers
 * between the winners' neighbours: the measured ks past k1 are doubling
 * steps, too coarse a grid for k2 on their own.
 */
static int fit_phases(const struct mess_absorb_point *v, size_t n,
		      struct model *best)
{
	double kscale = v[n - 1].k;
	size_t bi = 0, bj = 0;

	best->sse = -1;
	for (size_t i = 0; i < n; i++) {
		for (size_t j = i + 1; j + 3 <= n; j++) {
			double sse = best->sse;

			try_fit(v, n, kscale, v[i].k, v[j].k, best);
			if (best->sse != sse)
				bi = i, bj = j;
		}
	}
	if (best->sse < 0)
		return -1;

	uint64_t lo1 = bi ? v[bi - 1].k : 0, hi1 = v[bi + 1].k;
	uint64_t lo2 = v[bj - 1].k, hi2 = v[bj + 1 < n - 2 ? bj + 1 : n - 3].k;
	uint64_t st1 = (hi1 - lo1) / REFINE_STEPS + 1;
	uint64_t st2 = (hi2 - lo2) / REFINE_STEPS + 1;

	for (uint64_t x1 = lo1; x1 <= hi1; x1 += st1)
		for (uint64_t x2 = lo2; x2 <= hi2; x2 += st2)
			if (on_line(v, n, x2) >= 3)
				try_fit(v, n, kscale, x1, x2, best);
	best->beta[2] /= kscale;
	return 0;
}

/* The checks that keep a fit from being forced on points without phases. */
static const char *judge(const struct mess_absorb_point *v, size_t n,
			 const struct mess_absorb_cfg *cfg,
			 const struct mess_absorb_result *r)
{
	if (!(r->slope > 0))
		return "slope not positive";
	if (!(r->r2 >= cfg->r2_min))
		return "R^2 below minimum";
	for (size_t i = 0; i < n; i++) {
		double tol, e;

		if (v[i].k < r->k2)
			continue;
		/* Saturated points are slow: back within thr is noise. */
		if (v[i].k > r->k1 && !(v[i].t - r->base > r->thr))
			return "within threshold past k1 and k2";
		/* The point's own noise: the line's t can be far above t0. */
		tol = fmax(r->thr, fmax(cfg->rel_min * v[i].t,
					cfg->n_sigma * v[i].sigma));
		e = v[i].t - (r->a + r->slope * v[i].k);
		if (fabs(e) > tol)
			return "not linear past k2";
	}
	if (r->slope * (v[n - 1].k - r->k2) <= r->thr)
		return "rise within noise";
	return NULL;
}

int mess_absorb_fit(const struct mess_absorb_point *pts, size_t n,
		    const struct mess_absorb_cfg *cfg,
		    struct mess_absorb_result *out)
{
	const struct mess_absorb_point *base;
	struct mess_absorb_point *v;
	struct model best;
	const char *why;
	size_t i1 = 0;
	uint64_t m;
	int rc = check(pts, n, cfg, &base);

	if (rc)
		return rc;
	if (!out || !base)
		return -EINVAL;
	v = malloc(n * sizeof(*v));
	if (!v)
		return -ENOMEM;
	memcpy(v, pts, n * sizeof(*v));
	qsort(v, n, sizeof(*v), cmp_k);

	*out = (struct mess_absorb_result){
		.status = MESS_ABSORB_OK,
		.base = base->t,
		.speedup = NAN,
		.thr = mess_absorb_threshold(cfg, base),
		.flat = NAN,
		.a = NAN,
		.slope = NAN,
		.r2 = NAN,
		.runs = (unsigned)n,
	};
	m = v[n - 1].k;
	mess_absorb_bracket(v, n, cfg, out);
	/* No bracket: the precision a sweep would aim for there. */
	if (out->k1_lower_bound)
		out->prec = precision(cfg, m);
	out->runs_linear = (unsigned)((m + out->prec - 1) / out->prec + 1);
	out->shape = MESS_ABSORB_SHAPE_NONE;
	if (out->k1_lower_bound) {
		out->shape_why = "nothing confidently slow";
		goto done;
	}
	while (v[i1].k < out->k1)
		i1++;
	/* Three points past k1 at least, as the search's saturation test. */
	if (n - i1 - 1 < 3 || fit_phases(v, n, &best)) {
		out->shape_why = "too few points past k1";
		goto done;
	}

	double mean = 0, sst = 0;

	for (size_t i = 0; i < n; i++)
		mean += v[i].t / n;
	for (size_t i = 0; i < n; i++)
		sst += (v[i].t - mean) * (v[i].t - mean);
	out->k1_fit = (unsigned)best.x1;
	out->k2 = (unsigned)best.x2;
	out->flat = best.beta[0];
	out->a = best.beta[1];
	out->slope = best.beta[2];
	out->r2 = sst > 0 ? 1 - best.sse / sst : NAN;
	why = judge(v, n, cfg, out);
	out->shape_why = why;
	if (!why)
		out->shape = MESS_ABSORB_SHAPE_LINEAR;
	else if (out->slope > 0 && v[n - 1].t - v[i1 + 1].t > out->thr)
		out->shape = MESS_ABSORB_SHAPE_SUBLINEAR;
done:
	free(v);
	return 0;
}

void mess_absorb_table_verdict(const struct mess_absorb_tally *t,
			       const char *doubtful, struct mess_verdict *v)
{
	unsigned wide = t->status[MESS_ABSORB_WIDE];
	unsigned unclear = t->status[MESS_ABSORB_UNCLEAR];
	double share = t->entries ? (double)(wide + unclear) / t->entries : 0;

	if (wide + unclear)
		mess_verdict_add(v, share > MESS_ABSORB_DOUBTFUL_INVALID ?
				 MESS_INVALID : MESS_WARN, "k1_doubtful",
				 "%u of %u entries (%.0f %%) have no k1 to take as it stands, %u wide (a bracket wider than status ok allows), %u unclear (no k decided); over %.0f %% makes the table INVALID%s%s",
				 wide + unclear, t->entries, 100 * share, wide,
				 unclear, 100 * MESS_ABSORB_DOUBTFUL_INVALID,
				 doubtful && *doubtful ? ": " : "",
				 doubtful ? doubtful : "");
	if (t->kept)
		mess_verdict_add(v, MESS_WARN, "disturbed",
				 "%lu of %lu pairs of runs (%.1f %%) were disturbed (steal, or a measuring thread preempted); %lu were measured again and %lu (%.1f %% of the pairs) kept when a point's bound was reached (absorption_points.csv kept_disturbed_pairs)",
				 t->disturbed, t->pairs,
				 t->pairs ? 100.0 * t->disturbed / t->pairs : 0,
				 t->redone, t->kept,
				 t->pairs ? 100.0 * t->kept / t->pairs : 0);
	else if (t->disturbed)
		mess_verdict_add(v, MESS_PASS, "disturbed_replaced",
				 "%lu of %lu pairs of runs were disturbed and measured again; none was kept",
				 t->disturbed, t->pairs);
}
