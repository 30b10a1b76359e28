// SPDX-License-Identifier: MIT
/*
 * Noise absorption: a point's sequential test, and k1's bracket from the
 * points' verdicts (mess/absorb.h).
 */
#include "mess/absorb.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "mess/stats.h"

const char *mess_absorb_verdict_name(enum mess_absorb_verdict v)
{
	static const char *const names[] = {
		[MESS_ABSORB_MORE] = "more",
		[MESS_ABSORB_FAST] = "fast",
		[MESS_ABSORB_SLOW] = "slow",
		[MESS_ABSORB_DOUBTFUL] = "doubtful",
	};

	return (unsigned)v < sizeof(names) / sizeof(names[0]) ? names[v] : "?";
}

const char *mess_absorb_shape_name(enum mess_absorb_shape s)
{
	static const char *const names[] = {
		[MESS_ABSORB_SHAPE_NONE] = "none",
		[MESS_ABSORB_SHAPE_LINEAR] = "linear",
		[MESS_ABSORB_SHAPE_SUBLINEAR] = "sublinear",
	};

	return (unsigned)s < sizeof(names) / sizeof(names[0]) ? names[s] : "?";
}

/* Student's t, two-sided 95 %, by degrees of freedom (1 .. 30); past 30
 * the normal's 1.96 is within 4 % of it. */
static const double t975[] = {
	NAN, 12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262,
	2.228, 2.201, 2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093,
	2.086, 2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045,
	2.042,
};

static double t_quantile(size_t df)
{
	return df < sizeof(t975) / sizeof(t975[0]) ? t975[df] : 1.96;
}

/* The median's standard error over the mean's, for normal samples
 * (sqrt(pi / 2)). */
#define MEDIAN_SE 1.2533

int mess_absorb_seq(const double *q, size_t n, double floor_rel,
		    double thr_rel, const struct mess_absorb_cfg *cfg,
		    struct mess_absorb_seq *out)
{
	double med, s, h, line = 1 + thr_rel, z;

	if (!q || !out || !cfg || n < 1 || cfg->min_pairs < 2 ||
	    cfg->max_pairs < cfg->min_pairs ||
	    cfg->max_pairs > MESS_ABSORB_MAX_PAIRS || !(cfg->zone >= 0) ||
	    !(cfg->zone < 1) || !(floor_rel >= 0) ||
	    !isfinite(floor_rel) || !(thr_rel >= 0) || !isfinite(thr_rel))
		return -EINVAL;
	for (size_t i = 0; i < n; i++)
		if (!(q[i] > 0) || !isfinite(q[i]))
			return -EINVAL;
	s = n > 1 ? mess_mad_sd(q, n, &med) : (med = q[0], 0);
	if (!isfinite(med) || !isfinite(s))
		return -EINVAL;
	s = fmax(s, floor_rel);
	/* One pair has no spread of its own: the interval is unbounded. */
	h = n > 1 ? t_quantile(n - 1) * MEDIAN_SE * s / sqrt((double)n) : INFINITY;
	*out = (struct mess_absorb_seq){ med, med - h, med + h, s,
					 MESS_ABSORB_MORE };
	z = cfg->zone * thr_rel;
	if (n >= cfg->min_pairs && med > line && out->lo > line - z)
		out->verdict = MESS_ABSORB_SLOW;
	else if (n >= cfg->min_pairs && med <= line && out->hi <= line + z)
		out->verdict = MESS_ABSORB_FAST;
	else if (n >= cfg->max_pairs)
		out->verdict = MESS_ABSORB_DOUBTFUL;
	return 0;
}

int mess_absorb_seq_add(struct mess_absorb_seqstate *s, double q,
			int disturbed, size_t want, double floor_rel,
			double thr_rel, const struct mess_absorb_cfg *cfg)
{
	size_t cap = want ? want : cfg ? cfg->max_pairs : 0;
	int err;

	if (!s || !cfg || !(q > 0) || !isfinite(q) || s->n >= cap ||
	    cap > MESS_ABSORB_MAX_PAIRS)
		return -EINVAL;
	if (disturbed) {
		s->disturbed++;
		if (s->redone < (cfg->redo ? cfg->redo : cfg->min_pairs)) {
			s->redone++;
			return MESS_ABSORB_MORE;
		}
		s->kept++;
	}
	s->q[s->n++] = q;
	err = mess_absorb_seq(s->q, s->n, floor_rel, thr_rel, cfg, &s->last);
	if (err)
		return err;
	if (want)
		s->last.verdict = s->n < want ? MESS_ABSORB_MORE : MESS_ABSORB_FAST;
	return (int)s->last.verdict;
}

double mess_absorb_pair_ratio(const double *x, const double *y, size_t ns)
{
	double r[MESS_ABSORB_MAX_SLICES];

	if (!x || !y || !ns || ns > MESS_ABSORB_MAX_SLICES)
		return NAN;
	for (size_t i = 0; i < ns; i++) {
		if (!(x[i] > 0) || !(y[i] > 0) || !isfinite(x[i]) ||
		    !isfinite(y[i]))
			return NAN;
		r[i] = y[i] / x[i];
	}
	return mess_median(r, ns);
}

size_t mess_absorb_pool_add(double *dev, size_t ndev, size_t cap,
			    const double *q, size_t n)
{
	double tmp[MESS_ABSORB_MAX_PAIRS], med, scale;

	if (!dev || !q || n < MESS_ABSORB_POOL_N || n > MESS_ABSORB_MAX_PAIRS)
		return ndev;
	memcpy(tmp, q, n * sizeof(*q));
	med = mess_median(tmp, n);
	if (!(fabs(med - 1) <= MESS_ABSORB_POOL_NEAR))
		return ndev;
	scale = sqrt((double)n / (double)(n - 1));
	for (size_t i = 0; i < n && ndev < cap; i++)
		dev[ndev++] = (q[i] / med - 1) * scale;
	return ndev;
}

double mess_absorb_pool_sd(double *dev, size_t ndev)
{
	if (!dev || ndev < MESS_ABSORB_POOL_MIN)
		return NAN;
	/* Deviations from each point's own median: their spread about 0,
	 * not about their own median (which a few slow pairs would move). */
	for (size_t i = 0; i < ndev; i++)
		dev[i] = fabs(dev[i]);
	return 1.4826 * mess_median(dev, ndev);
}

enum mess_absorb_verdict mess_absorb_verdict(const struct mess_absorb_point *p,
					     double base, double thr,
					     const struct mess_absorb_cfg *cfg)
{
	double lo = p->lo, hi = p->hi, z = cfg->zone * thr;

	if (p->k == 0)
		return MESS_ABSORB_FAST;
	if (lo == 0 && hi == 0)
		lo = hi = p->t;
	if (p->t - base > thr && lo - base > thr - z)
		return MESS_ABSORB_SLOW;
	if (p->t - base <= thr && hi - base <= thr + z)
		return MESS_ABSORB_FAST;
	return MESS_ABSORB_DOUBTFUL;
}

/* The greatest speed-up up to k1 that is confident: the interval's top
 * below t0 - thr. */
static void speedup(const struct mess_absorb_point *v, size_t n,
		    struct mess_absorb_result *out)
{
	out->speedup_k = 0;
	out->speedup = NAN;
	for (size_t i = 1; i < n && v[i].k <= out->k1; i++) {
		double hi = v[i].lo == 0 && v[i].hi == 0 ? v[i].t : v[i].hi;
		double s = (out->base - v[i].t) / out->base;

		if (hi < out->base - out->thr &&
		    (!out->speedup_k || s > out->speedup)) {
			out->speedup_k = v[i].k;
			out->speedup = s;
		}
	}
}

void mess_absorb_bracket(const struct mess_absorb_point *v, size_t n,
			 const struct mess_absorb_cfg *cfg,
			 struct mess_absorb_result *out)
{
	size_t hi = n, lo = 0, i1 = 0, decided = 0;
	double tol;

	out->doubtful = 0;
	for (size_t i = 1; i < n; i++) {
		enum mess_absorb_verdict vd = mess_absorb_verdict(&v[i], out->base,
								   out->thr, cfg);

		out->doubtful += vd == MESS_ABSORB_DOUBTFUL;
		decided += vd != MESS_ABSORB_DOUBTFUL;
		if (vd == MESS_ABSORB_SLOW && hi == n)
			hi = i;
	}
	for (size_t i = 1; i < hi; i++)
		if (mess_absorb_verdict(&v[i], out->base, out->thr, cfg) ==
		    MESS_ABSORB_FAST)
			lo = i;
	/* The threshold rule on the medians, kept inside the bracket. */
	while (i1 + 1 < hi && v[i1 + 1].t - out->base <= out->thr)
		i1++;
	if (i1 < lo)
		i1 = lo;
	out->k1 = v[i1].k;
	out->k1_lo = v[lo].k;
	out->k1_hi = hi < n ? v[hi].k : 0;
	out->k1_lower_bound = hi == n;
	out->prec = i1 + 1 < n ? v[i1 + 1].k - v[i1].k : 0;
	out->why = NULL;
	speedup(v, n, out);
	tol = fmax(1, cfg->tol_rel * out->k1);
	if (hi < n && out->k1_hi == 1) {
		out->status = MESS_ABSORB_NONE;
	} else if (!decided) {
		out->status = MESS_ABSORB_UNCLEAR;
		out->why = n > 1 ? "no k > 0 confidently slow or not slow" :
				   "only the baseline measured";
	} else if (hi == n) {
		/* Nothing slow: k1 is a lower bound, sure only up to k1_lo. */
		out->status = lo == n - 1 ? MESS_ABSORB_OK : MESS_ABSORB_WIDE;
		out->why = lo == n - 1 ? NULL :
			   "nothing confidently slow, doubtful points past k1_lo";
	} else if (out->k1 - out->k1_lo <= tol &&
		   out->k1_hi - 1 - out->k1 <= tol) {
		/* k1_hi is slow, so the true k1 lies in [k1_lo, k1_hi - 1]:
		 * k1 is known to within tol either way.  (k1_hi - k1 would
		 * call [4, 6) wide, though only k = 5 is unknown.) */
		out->status = MESS_ABSORB_OK;
	} else {
		out->status = MESS_ABSORB_WIDE;
		out->why = out->doubtful ? "doubtful points between k1_lo and k1_hi" :
			   "k1_lo and k1_hi not measured closer";
	}
}
