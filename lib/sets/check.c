// SPDX-License-Identifier: MIT
/* A run against a baseline: each figure's move in its combined spreads. */
#include "mess/check.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mess/model.h"

const double mess_check_levels[MESS_CHECK_NLEVELS] = { 0.25, 0.5, 0.75 };

/* One mix of one family as the model reads it: its latency, and its
 * points' spreads through a model of their own (same bandwidths, so the
 * same points kept and the same interpolation). */
struct mix {
	struct mess_model *lat, *sd;
	const struct mess_curve *c;
	double read_pct, max_bw, max_bw_sd;
	int max_bw_flagged;
};

static void mix_free(struct mix *m)
{
	mess_model_free(m->lat);
	mess_model_free(m->sd);
	memset(m, 0, sizeof(*m));
}

static double at(const struct mess_model *m, double read_pct, double bw)
{
	double v;

	return m && mess_model_latency(m, read_pct, bw, &v) >= 0 ? v : NAN;
}

/*
 * How far the curve between two points may lie from the straight line the
 * model draws there: the neighbouring segments extended to bw bound it (a
 * convex curve lies between the chord and the higher of them, a concave
 * one between the chord and the lower); the half-width of that range is
 * taken as a spread.  0 at a point, and where the bounds disagree (an
 * inflection).  Two runs' sweeps place their points differently: without
 * this, a chord across a knee in one run against a point on it in the
 * other reads as a regression of 8 % at 1 % noise.
 */
static double shape_sd(const struct mess_model *m, double bw)
{
	const double *x, *y;
	double chord, lo = INFINITY, hi = -INFINITY, gap;
	size_t n, i;

	if (mess_model_curve(m, 0, NULL, &n, &x, &y, NULL) || n < 3)
		return 0;
	for (i = 0; i + 2 < n && x[i + 1] < bw; i++)
		;
	if (!(bw >= x[i] && bw <= x[i + 1]))
		return 0;
	chord = y[i] + (y[i + 1] - y[i]) * (bw - x[i]) / (x[i + 1] - x[i]);
	if (i > 0) {
		double e = y[i] + (y[i] - y[i - 1]) / (x[i] - x[i - 1]) * (bw - x[i]);

		lo = fmin(lo, e);
		hi = fmax(hi, e);
	}
	if (i + 2 < n) {
		double e = y[i + 1] - (y[i + 2] - y[i + 1]) / (x[i + 2] - x[i + 1]) *
			   (x[i + 1] - bw);

		lo = fmin(lo, e);
		hi = fmax(hi, e);
	}
	gap = (hi <= chord ? chord - hi : 0) + (lo >= chord ? lo - chord : 0);
	return gap / 2;
}

/* The spread of the latency at bw: its points' (interpolated) and the
 * curve's shape between them, combined. */
static double lat_sd(const struct mix *x, double bw, double *shape)
{
	double noise = at(x->sd, x->read_pct, bw);

	*shape = shape_sd(x->lat, bw);
	return sqrt(noise * noise + *shape * *shape);
}

/* Whether the curve's point at bandwidth bw (the model's copy of it)
 * still breaks a trust rule. */
static int point_flagged(const struct mess_curve *c, double bw)
{
	for (size_t i = 0; i < c->n; i++)
		if (c->pts[i].bw_gbs == bw && c->pts[i].flags)
			return 1;
	return 0;
}

/*
 * Whether the latency at bw is read from a point the run flags (it still
 * breaks a trust rule: disturbed, spread, dist_disagrees, ...): such a
 * point moves as a whole, which its back-to-back repeats do not see (two
 * runs on a busy 2-core guest: 14 % apart at a flagged point whose
 * repeats spread 1.5 %), so the figure is not judged.
 */
static int flagged_at(const struct mix *m, double bw)
{
	const double *x;
	size_t n, i;

	if (mess_model_curve(m->lat, 0, NULL, &n, &x, NULL, NULL) || !n)
		return 0;
	for (i = 0; i + 1 < n && x[i + 1] < bw; i++)
		;
	if (bw <= x[i] || i + 1 >= n)
		return point_flagged(m->c, x[i]);
	if (bw == x[i + 1])
		return point_flagged(m->c, x[i + 1]);
	return point_flagged(m->c, x[i]) || point_flagged(m->c, x[i + 1]);
}

static int mix_new(const struct mess_family *f, const struct mess_curve *c,
		   struct mix *m)
{
	struct mess_curve one = *c;
	struct mess_family fam = { .n = 1, .cap = 1, .curves = &one,
				   .unloaded_ns = f->unloaded_ns };
	struct mess_point *sd;
	int rc;

	memset(m, 0, sizeof(*m));
	m->max_bw_sd = NAN;
	rc = mess_model_new(&fam, &m->lat);
	if (rc)
		return rc;
	mess_model_curve(m->lat, 0, &m->read_pct, NULL, NULL, NULL, NULL);
	m->c = c;
	if (mess_model_max_bw(m->lat, m->read_pct, &m->max_bw) < 0)
		m->max_bw = NAN;
	sd = malloc((c->n ? c->n : 1) * sizeof(*sd));
	if (!sd)
		return -ENOMEM;
	for (size_t i = 0; i < c->n; i++) {
		sd[i] = c->pts[i];
		sd[i].lat_ns = c->pts[i].lat_ns_std;
		if (mess_point_usable(&c->pts[i]) &&
		    c->pts[i].bw_gbs == m->max_bw) {
			m->max_bw_sd = c->pts[i].bw_gbs_std;
			m->max_bw_flagged = c->pts[i].flags != 0;
		}
	}
	/* No anchor at bandwidth 0: the unloaded latency's spread is not a
	 * point's. */
	one.pts = sd;
	fam.unloaded_ns = 0;
	rc = mess_model_new(&fam, &m->sd);
	free(sd);
	return rc == -EINVAL ? 0 : rc;
}

/* The figure's state from its values and spreads; bad: +1 when a rise is
 * the bad way (latency), -1 when a fall is (bandwidth).  The limit is k
 * combined spreads plus what the two runs drifted (c's base_drift and
 * run_drift, fractions of each figure): a point's repeats are seconds
 * apart, the two runs minutes or days, and a host that moved during a
 * run (its unloaded latency at the end against the start) moves its
 * figures by as much, which no repeat sees. */
static void judge(const struct mess_check *c, struct mess_check_fig *g,
		  int bad)
{
	double comb = sqrt(g->base_sd * g->base_sd + g->run_sd * g->run_sd);
	int values = isfinite(g->base) && g->base > 0 && isfinite(g->run);
	double move;

	g->change_pct = values ? (g->run - g->base) / g->base * 100 : NAN;
	g->limit = NAN;
	g->sigmas = NAN;
	g->drift = NAN;
	g->state = MESS_CHECK_UNJUDGED;
	/* A spread of 0 (one repeat) would make any move a regression. */
	if (!values || !isfinite(comb) || !(comb > 0))
		return;
	g->drift = c->base_drift * g->base + c->run_drift * fabs(g->run);
	g->limit = c->k * comb + g->drift;
	move = bad * (g->run - g->base);
	g->sigmas = move / comb;
	if (g->flagged)
		return;
	g->state = move > g->limit ? MESS_CHECK_REGRESSED :
		   move < -g->limit ? MESS_CHECK_IMPROVED : MESS_CHECK_WITHIN;
}

static const struct mess_curve *partner(const struct mess_family *f,
					const struct mess_curve *c)
{
	for (size_t i = 0; i < f->n; i++) {
		const struct mess_curve *d = &f->curves[i];

		if (!mess_curve_usable(d))
			continue;
		if (c->store_pct != MESS_STORE_PCT_UNKNOWN &&
		    d->store_pct != MESS_STORE_PCT_UNKNOWN) {
			if (c->store_pct == d->store_pct)
				return d;
		} else if (fabs(c->read_pct - d->read_pct) <= MESS_CHECK_READ_TOL) {
			return d;
		}
	}
	return NULL;
}

static struct mess_check_fig *add(struct mess_check *c, size_t cap,
				  enum mess_check_what what,
				  const struct mess_curve *cv, double read_pct)
{
	struct mess_check_fig *g = &c->fig[c->n < cap ? c->n++ : cap - 1];

	*g = (struct mess_check_fig){ .what = what, .level = NAN, .bw_gbs = NAN,
		.base_shape = NAN, .run_shape = NAN,
		.store_pct = cv ? cv->store_pct : MESS_STORE_PCT_UNKNOWN,
		.read_pct = read_pct };
	return g;
}

static void mix_figures(struct mess_check *c, size_t cap,
			const struct mess_curve *cv, const struct mix *b,
			const struct mix *r)
{
	struct mess_check_fig *g = add(c, cap, MESS_CHECK_MAX_BW, cv, b->read_pct);
	double lo = fmin(b->max_bw, r->max_bw);

	g->base = b->max_bw;
	g->run = r->max_bw;
	g->base_sd = b->max_bw_sd;
	g->run_sd = r->max_bw_sd;
	g->flagged = b->max_bw_flagged | r->max_bw_flagged << 1;
	judge(c, g, -1);
	for (size_t l = 0; l < MESS_CHECK_NLEVELS; l++) {
		g = add(c, cap, MESS_CHECK_LAT_AT_BW, cv, b->read_pct);
		g->level = mess_check_levels[l];
		g->bw_gbs = g->level * lo;
		g->base = at(b->lat, b->read_pct, g->bw_gbs);
		g->run = at(r->lat, r->read_pct, g->bw_gbs);
		g->base_sd = lat_sd(b, g->bw_gbs, &g->base_shape);
		g->run_sd = lat_sd(r, g->bw_gbs, &g->run_shape);
		g->flagged = flagged_at(b, g->bw_gbs) | flagged_at(r, g->bw_gbs) << 1;
		judge(c, g, 1);
	}
}

int mess_check_has_spreads(const struct mess_family *f)
{
	for (size_t i = 0; i < f->n; i++)
		for (size_t j = 0; j < f->curves[i].n; j++) {
			const struct mess_point *p = &f->curves[i].pts[j];

			if (mess_point_usable(p) && isfinite(p->lat_ns_std))
				return 1;
		}
	return 0;
}

/* A drift not known (NAN) or not a fraction adds nothing. */
static double drift_of(double d)
{
	return isfinite(d) && d > 0 ? d : 0;
}

int mess_check_new(const struct mess_family *base, double base_unloaded_sd,
		   double base_drift, const struct mess_family *run,
		   double run_unloaded_sd, double run_drift, double k,
		   struct mess_check *c)
{
	size_t cap = 1 + base->n * (1 + MESS_CHECK_NLEVELS);
	struct mess_check_fig *g;
	int rc = 0;

	memset(c, 0, sizeof(*c));
	c->k = k;
	c->base_drift = drift_of(base_drift);
	c->run_drift = drift_of(run_drift);
	if (!(k > 0))
		return -EINVAL;
	c->fig = calloc(cap, sizeof(*c->fig));
	if (!c->fig)
		return -ENOMEM;
	g = add(c, cap, MESS_CHECK_UNLOADED, NULL, NAN);
	g->base = base->unloaded_ns > 0 ? base->unloaded_ns : NAN;
	g->run = run->unloaded_ns > 0 ? run->unloaded_ns : NAN;
	g->base_sd = base_unloaded_sd;
	g->run_sd = run_unloaded_sd;
	judge(c, g, 1);
	for (size_t i = 0; !rc && i < base->n; i++) {
		const struct mess_curve *cb = &base->curves[i];
		const struct mess_curve *cr = mess_curve_usable(cb) ?
			partner(run, cb) : NULL;
		struct mix b, r;

		if (!cr)
			continue;
		rc = mix_new(base, cb, &b);
		if (!rc)
			rc = mix_new(run, cr, &r);
		else
			memset(&r, 0, sizeof(r));
		if (!rc) {
			c->mixes++;
			mix_figures(c, cap, cb, &b, &r);
		}
		mix_free(&b);
		mix_free(&r);
		/* A curve the model leaves out (no read share) is no mix. */
		if (rc == -EINVAL)
			rc = 0;
	}
	if (!rc && !c->mixes)
		rc = -EINVAL;
	for (size_t i = 0; i < c->n; i++)
		c->count[c->fig[i].state]++;
	return rc;
}

void mess_check_free(struct mess_check *c)
{
	free(c->fig);
	c->fig = NULL;
	c->n = 0;
}

static const struct mess_check *sort_by;

static int worse_first(const void *a, const void *b)
{
	double x = sort_by->fig[*(const size_t *)a].sigmas;
	double y = sort_by->fig[*(const size_t *)b].sigmas;

	if (x != y)
		return x < y ? 1 : -1;
	return (*(const size_t *)a > *(const size_t *)b) -
	       (*(const size_t *)a < *(const size_t *)b);
}

size_t mess_check_worst(const struct mess_check *c, size_t *idx)
{
	size_t n = 0;

	for (size_t i = 0; i < c->n; i++)
		if (c->fig[i].state == MESS_CHECK_REGRESSED)
			idx[n++] = i;
	sort_by = c;
	qsort(idx, n, sizeof(*idx), worse_first);
	return n;
}

void mess_check_name(const struct mess_check_fig *f, char *buf, size_t len)
{
	char mix[48];

	if (f->what == MESS_CHECK_UNLOADED) {
		snprintf(buf, len, "unloaded latency");
		return;
	}
	if (f->store_pct != MESS_STORE_PCT_UNKNOWN)
		snprintf(mix, sizeof(mix), "mix %u %% stores", f->store_pct);
	else
		snprintf(mix, sizeof(mix), "%.4g %% read", f->read_pct);
	if (f->what == MESS_CHECK_MAX_BW)
		snprintf(buf, len, "%s: maximum bandwidth", mix);
	else
		snprintf(buf, len, "%s: latency at %.0f %% of max (%.1f GB/s)",
			 mix, f->level * 100, f->bw_gbs);
}

const char *mess_check_state_name(enum mess_check_state s)
{
	static const char *const names[] = { "within", "REGRESSED", "improved",
					     "unjudged" };

	return s <= MESS_CHECK_UNJUDGED ? names[s] : "?";
}
