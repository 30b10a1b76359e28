// SPDX-License-Identifier: MIT
/*
 * Noise absorption: a search's next step (mess_absorb_step).  Where the
 * slowdown grows by a fraction of the threshold per k (a small k1: every k
 * around the knee is within a few % of the line), bisection leaves k1's
 * bracket wide with every k inside it holding a point doubtful at
 * max_pairs, and there is no free k left to place a new one.  Pairs
 * spent on such a point are not lost: more of them shrink its interval
 * as 1 / sqrt(pairs), so the point whose decision would close the
 * bracket, and that is far enough from the line to be decided in
 * ext_pairs, is taken on instead of giving up.
 */
#include "mess/absorb.h"

#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/*
 * A point is taken further EXT_STEP pairs at a time, and only while the
 * pairs it should need are within NEED_MAX x ext_pairs.  Against
 * test_absorb_step's kernels, steps of 5 decide as many entries as one
 * step to ext_pairs for 4 % fewer pairs (a point whose median drifts
 * towards the line is left there), and a cut of 1.25 x costs 3 % more
 * pairs for one entry in 40.
 */
#define EXT_STEP 5
#define NEED_MAX 1.0

static int cmp_k(const void *a, const void *b)
{
	const struct mess_absorb_point *x = a, *y = b;

	return (x->k > y->k) - (x->k < y->k);
}

static void bracket(const struct mess_absorb_point *v, size_t n,
		    const struct mess_absorb_cfg *cfg,
		    struct mess_absorb_result *r)
{
	*r = (struct mess_absorb_result){ .base = v[0].t };
	r->thr = mess_absorb_threshold(cfg, &v[0]);
	mess_absorb_bracket(v, n, cfg, r);
}

/*
 * Pairs point p should need to be decided: its interval's half-width
 * shrinks about as 1 / sqrt(pairs), so the pairs that bring it within its
 * median's distance to the far edge of the indifference zone, z past the
 * line (Student's quantile shrinking too makes this an overestimate).
 */
static double need(const struct mess_absorb_point *p, double line, double z)
{
	double h = (p->hi - p->lo) / 2, d = fabs(p->t - line) + z;

	return d > 0 ? p->repeats * (h / d) * (h / d) : INFINITY;
}

/* Whether point i may be taken further, and the pairs it should need. */
static double candidate(const struct mess_absorb_point *v, size_t i,
			const struct mess_absorb_cfg *cfg,
			const struct mess_absorb_result *r)
{
	if (v[i].k <= r->k1_lo || (!r->k1_lower_bound && v[i].k >= r->k1_hi) ||
	    v[i].repeats >= cfg->ext_pairs ||
	    mess_absorb_verdict(&v[i], r->base, r->thr, cfg) != MESS_ABSORB_DOUBTFUL)
		return INFINITY;
	return need(&v[i], r->base + r->thr, cfg->zone * r->thr);
}

/* The status with point i decided where its median lies (no interval:
 * t decides). */
static struct mess_absorb_result decide(struct mess_absorb_point *v,
					size_t n, size_t i,
					const struct mess_absorb_cfg *cfg)
{
	struct mess_absorb_point keep = v[i];
	struct mess_absorb_result h;

	v[i].lo = v[i].hi = 0;
	bracket(v, n, cfg, &h);
	v[i] = keep;
	return h;
}

/* Whether the bisection would place a new k inside h's bracket. */
static int opens(const struct mess_absorb_point *v, size_t n,
		 const struct mess_absorb_cfg *cfg,
		 const struct mess_absorb_result *h)
{
	unsigned k;

	return mess_absorb_next(v, n, cfg, &k) == 1 && k > h->k1_lo &&
	       (h->k1_lower_bound || k < h->k1_hi);
}

/*
 * The doubtful point to take further (its index in v, sorted, the
 * baseline first), or 0: none.  One whose decision makes the status ok;
 * else the first of two that would together; else one whose decision
 * leaves the bisection a k to place inside the bracket (a k next to it
 * was not measured: the gap to it was within the precision); the fewest
 * pairs needed, each within NEED_MAX x ext_pairs.
 */
static size_t pick(struct mess_absorb_point *v, size_t n,
		   const struct mess_absorb_cfg *cfg,
		   const struct mess_absorb_result *r)
{
	double cut = NEED_MAX * cfg->ext_pairs, best = cut, best2 = 2 * cut;
	double best3 = cut, x;
	size_t at = 0, at2 = 0, at3 = 0;

	for (size_t i = 1; i < n; i++) {
		struct mess_absorb_point keep = v[i];
		struct mess_absorb_result h;

		x = candidate(v, i, cfg, r);
		if (!(x < cut))
			continue;
		h = decide(v, n, i, cfg);
		if (h.status == MESS_ABSORB_OK) {
			if (x < best) {
				best = x;
				at = i;
			}
			continue;
		}
		if (at)
			continue;
		v[i].lo = v[i].hi = 0;
		if (x < best3 && opens(v, n, cfg, &h)) {
			best3 = x;
			at3 = i;
		}
		for (size_t j = 1; j < n && !h.k1_lower_bound; j++) {
			double y = j == i ? INFINITY : candidate(v, j, cfg, &h);

			if (y < cut && x + y < best2 &&
			    decide(v, n, j, cfg).status == MESS_ABSORB_OK) {
				best2 = x + y;
				at2 = x <= y ? i : j;
			}
		}
		v[i] = keep;
	}
	return at ? at : at2 ? at2 : at3;
}

int mess_absorb_step(const struct mess_absorb_point *pts, size_t n,
		     const struct mess_absorb_cfg *cfg,
		     struct mess_absorb_todo *t)
{
	struct mess_absorb_point *v;
	struct mess_absorb_result r;
	unsigned kn = 0, m = 0, slow = UINT32_MAX;
	uint64_t used = 0;
	size_t i;
	int rc;

	if (!t)
		return -EINVAL;
	rc = mess_absorb_next(pts, n, cfg, &kn);
	if (rc < 0)
		return rc;
	*t = (struct mess_absorb_todo){ kn, 0, cfg->max_pairs, cfg->redo };
	if (!n)
		return rc;
	v = malloc(n * sizeof(*v));
	if (!v)
		return -ENOMEM;
	memcpy(v, pts, n * sizeof(*v));
	qsort(v, n, sizeof(*v), cmp_k);
	if (v[0].k) {
		/* No baseline yet: mess_absorb_next asks for it. */
		free(v);
		return rc;
	}
	bracket(v, n, cfg, &r);
	for (i = 1; i < n; i++) {
		m = v[i].k > m ? v[i].k : m;
		if (v[i].repeats > cfg->max_pairs)
			used += v[i].repeats - cfg->max_pairs;
		if (v[i].k < slow && mess_absorb_verdict(&v[i], r.base, r.thr, cfg) ==
		    MESS_ABSORB_SLOW)
			slow = v[i].k;
	}
	/* Inside the bracket the bisection still has a k to place. */
	if (rc == 1 && kn <= m) {
		free(v);
		return rc;
	}
	if (r.status == MESS_ABSORB_WIDE &&
	    cfg->ext_pairs > cfg->max_pairs &&
	    used + cfg->min_pairs <= cfg->ext_entry) {
		i = pick(v, n, cfg, &r);
		if (i) {
			uint64_t cap = v[i].repeats + (cfg->ext_entry - used);

			/* A step at a time: the point's estimate, taken
			 * again with its new pairs, may say it is nearer the
			 * line than it looked; then it is left there. */
			if (cap > v[i].repeats + EXT_STEP)
				cap = v[i].repeats + EXT_STEP;

			*t = (struct mess_absorb_todo){ v[i].k, 1,
				cap < cfg->ext_pairs ? (unsigned)cap :
						       cfg->ext_pairs,
				cfg->redo };
			free(v);
			return 1;
		}
	}
	free(v);
	if (rc == 1 && kn > slow)
		t->redo = cfg->redo_far;
	return rc;
}
