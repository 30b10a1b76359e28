// SPDX-License-Identifier: MIT
/*
 * The curve rules of one curve (mess_quality_curve in mess/quality.h):
 * the pairs of points that break non_monotone or stall, and the fewest
 * points that explain them.  A curve of 20,000 points has 2 * 10^8
 * pairs: trying each took seconds, so the pairs that can break a rule are
 * found through a sorted index, and the greedy cover keeps its counts in
 * a heap; the points flagged are the ones trying every pair gives.
 */
#include "mess/quality.h"

#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "mess/stats.h"

/* One violation: two points that cannot both be right, and the rule. */
struct viol {
	size_t a, b;		/* a lighter (larger nop) than b */
	uint32_t bit;
};

struct viols {
	struct viol *v;
	size_t n, cap;
	int nomem;
};

static void viol_add(struct viols *vs, size_t a, size_t b, uint32_t bit)
{
	struct viol *nv = mess_grow(vs->v, vs->n, &vs->cap, sizeof(*nv), 256);

	if (!nv) {
		vs->nomem = 1;
		return;
	}
	vs->v = nv;
	vs->v[vs->n++] = (struct viol){ a, b, bit };
}

/*
 * How far each usable point lies from the mean of its neighbours in
 * pressure order (from its one neighbour at an end), in bandwidth and in
 * latency, each over the curve's largest value so the two add up: the
 * tie-break between points in as many violations, since the outlier is
 * the one its neighbours do not vouch for.
 */
static void residuals(const struct mess_curve *c, double *res)
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

/* ---- the pairs that can break a rule ---- */

/*
 * A rule's candidates b sorted by key, a bound below which b must lie for
 * some a to break the rule with it (a's threshold), and a segment tree of
 * their smallest nop, so that the b under more pressure than a (a smaller
 * nop) below a's threshold are listed without visiting the others.
 */
struct pindex {
	size_t m, *ord;		/* point of each rank */
	double *key;		/* by rank */
	uint64_t *minnop;	/* segment tree, 4 m nodes */
};

/* Keys are never NaN (find_pairs): a total order. */
static int by_key(const void *x, const void *y, void *key)
{
	double a = ((const double *)key)[*(const size_t *)x];
	double b = ((const double *)key)[*(const size_t *)y];

	return (a > b) - (a < b);
}

static void tree_build(struct pindex *ix, size_t node, size_t lo, size_t hi,
		       const struct mess_curve *c)
{
	size_t mid = lo + (hi - lo) / 2;

	if (hi - lo == 1) {
		ix->minnop[node] = c->pts[ix->ord[lo]].nop;
		return;
	}
	tree_build(ix, 2 * node, lo, mid, c);
	tree_build(ix, 2 * node + 1, mid, hi, c);
	ix->minnop[node] = ix->minnop[2 * node] < ix->minnop[2 * node + 1] ?
		ix->minnop[2 * node] : ix->minnop[2 * node + 1];
}

/* The points with in[i] set, by key[i]: 0 or -1 (out of memory). */
static int pindex_build(struct pindex *ix, const struct mess_curve *c,
			const unsigned char *in, const double *key)
{
	size_t n = c->n;

	memset(ix, 0, sizeof(*ix));
	ix->ord = malloc((n ? n : 1) * sizeof(*ix->ord));
	ix->key = malloc((n ? n : 1) * sizeof(*ix->key));
	ix->minnop = malloc((4 * n + 4) * sizeof(*ix->minnop));
	if (!ix->ord || !ix->key || !ix->minnop)
		return -1;
	for (size_t i = 0; i < n; i++)
		if (in[i])
			ix->ord[ix->m++] = i;
	qsort_r(ix->ord, ix->m, sizeof(*ix->ord), by_key, (void *)key);
	for (size_t r = 0; r < ix->m; r++)
		ix->key[r] = key[ix->ord[r]];
	if (ix->m)
		tree_build(ix, 1, 0, ix->m, c);
	return 0;
}

static void pindex_free(struct pindex *ix)
{
	free(ix->ord);
	free(ix->key);
	free(ix->minnop);
}

/* Ranks below `below` with a nop under `nop`, each to test(). */
struct visit {
	const struct pindex *ix;
	size_t below;
	uint64_t nop;
	void (*test)(void *ctx, size_t b);
	void *ctx;
};

static void tree_visit(const struct visit *q, size_t node, size_t lo,
		       size_t hi)
{
	size_t mid = lo + (hi - lo) / 2;

	if (lo >= q->below || q->ix->minnop[node] >= q->nop)
		return;
	if (hi - lo == 1) {
		q->test(q->ctx, q->ix->ord[lo]);
		return;
	}
	tree_visit(q, 2 * node, lo, mid);
	tree_visit(q, 2 * node + 1, mid, hi);
}

/* Ranks whose key is at most t (all for a NaN t: nothing is ruled out). */
static size_t ranks_upto(const struct pindex *ix, double t)
{
	size_t lo = 0, hi = ix->m;

	if (isnan(t))
		return ix->m;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (ix->key[mid] <= t)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

struct rule_ctx {
	const struct mess_curve *c;
	const struct mess_qtol *t;
	size_t a;
	struct viols *vs;
};

/* The rules exactly as they read, on a candidate pair. */
static void test_bw(void *ctx, size_t b)
{
	const struct rule_ctx *r = ctx;
	const struct mess_point *pa = &r->c->pts[r->a], *pb = &r->c->pts[b];

	/* non_monotone: below the maximum (at or above its nop), bandwidth
	 * falls as the nop count rises.  Past it a drop is a wave. */
	if (pa->bw_gbs - pb->bw_gbs > r->t->bw_rel * pa->bw_gbs +
		    r->t->nsd * mess_qcomb(pa->bw_gbs_std, pb->bw_gbs_std))
		viol_add(r->vs, r->a, b, MESS_QF(MESS_QR_NON_MONOTONE));
}

static void test_lat(void *ctx, size_t b)
{
	const struct rule_ctx *r = ctx;
	const struct mess_point *pa = &r->c->pts[r->a], *pb = &r->c->pts[b];

	/* stall: latency never falls as pressure rises. */
	if (pa->lat_ns - pb->lat_ns > r->t->stall_rel * pb->lat_ns +
		    r->t->nsd * mess_qcomb(pa->lat_ns_std, pb->lat_ns_std))
		viol_add(r->vs, r->a, b, MESS_QF(MESS_QR_STALL));
}

static double sd_or_0(double sd)
{
	return isfinite(sd) && sd > 0 ? sd : 0;
}

/*
 * Every violating pair into vs.  A pair (a, b), b under more pressure,
 * breaks non_monotone only if bw_b + nsd sd_b < (1 - bw_rel) bw_a (the
 * combined spread is at least b's own), and stall only if
 * (1 + stall_rel) lat_b + nsd sd_b < lat_a: b's side is the key, a's the
 * threshold, widened by far more than rounding can move either, and each
 * candidate is then tested exactly as the rule reads.  A negative nsd or
 * a tolerance not finite (never the defaults) makes every pair one.
 */
static int find_pairs(const struct mess_curve *c, const struct mess_qtol *t,
		      size_t imax, struct viols *vs)
{
	size_t n = c->n;
	unsigned char *in = calloc(n ? n : 1, 1);
	double *kbw = malloc((n ? n : 1) * sizeof(double));
	double *klat = malloc((n ? n : 1) * sizeof(double));
	double mag_bw = 0, mag_lat = 0;
	int any = t->nsd >= 0 && isfinite(t->nsd);
	struct pindex bw, lat;
	int ret = -1;

	memset(&bw, 0, sizeof(bw));
	memset(&lat, 0, sizeof(lat));
	if (!in || !kbw || !klat)
		goto out;
	any = any && isfinite(t->bw_rel) && isfinite(t->stall_rel);
	for (size_t i = 0; i < n; i++) {
		const struct mess_point *p = &c->pts[i];

		in[i] = mess_point_usable(p);
		kbw[i] = klat[i] = 0;
		if (in[i] && any) {
			kbw[i] = p->bw_gbs + t->nsd * sd_or_0(p->bw_gbs_std);
			klat[i] = (1 + t->stall_rel) * p->lat_ns +
				  t->nsd * sd_or_0(p->lat_ns_std);
			/* -inf + inf: below every threshold, so tried */
			kbw[i] = isnan(kbw[i]) ? -INFINITY : kbw[i];
			klat[i] = isnan(klat[i]) ? -INFINITY : klat[i];
			/* the slack: what rounding of the largest figure
			 * can move (an infinite key is decided anyway) */
			if (isfinite(kbw[i]))
				mag_bw = fmax(mag_bw, fabs(p->bw_gbs) + fabs(kbw[i]));
			if (isfinite(klat[i]))
				mag_lat = fmax(mag_lat, fabs(p->lat_ns) + fabs(klat[i]));
		}
	}
	if (pindex_build(&lat, c, in, klat))
		goto out;
	/* non_monotone only compares b at or above the maximum's nop */
	for (size_t i = 0; i < n; i++)
		in[i] = in[i] && c->pts[i].nop >= c->pts[imax].nop;
	if (pindex_build(&bw, c, in, kbw))
		goto out;
	for (size_t a = 0; a < n; a++) {
		const struct mess_point *pa = &c->pts[a];
		struct rule_ctx r = { c, t, a, vs };
		struct visit q = { NULL, 0, pa->nop, NULL, &r };

		if (!mess_point_usable(pa))
			continue;
		q.ix = &bw;
		q.test = test_bw;
		q.below = !any ? bw.m :
			ranks_upto(&bw, (1 - t->bw_rel) * pa->bw_gbs +
				   1e-9 * (fabs(pa->bw_gbs) + mag_bw));
		if (bw.m)
			tree_visit(&q, 1, 0, bw.m);
		q.ix = &lat;
		q.test = test_lat;
		q.below = !any ? lat.m :
			ranks_upto(&lat, pa->lat_ns +
				   1e-9 * (fabs(pa->lat_ns) + mag_lat));
		if (lat.m)
			tree_visit(&q, 1, 0, lat.m);
	}
	ret = vs->nomem ? -1 : 0;
out:
	pindex_free(&bw);
	pindex_free(&lat);
	free(in);
	free(kbw);
	free(klat);
	return ret;
}

/* ---- the greedy cover ---- */

/* A point and its count when pushed: stale once the count fell. */
struct hent {
	size_t cnt, i;
	double res;
};

/* The order of the pick: most violations, then the larger residual, then
 * the later point. */
static int hent_above(const struct hent *x, const struct hent *y)
{
	if (x->cnt != y->cnt)
		return x->cnt > y->cnt;
	if (x->res != y->res)
		return x->res > y->res;
	return x->i > y->i;
}

struct heap {
	struct hent *e;
	size_t n;
};

static void heap_push(struct heap *h, struct hent x)
{
	size_t k = h->n++;

	while (k && hent_above(&x, &h->e[(k - 1) / 2])) {
		h->e[k] = h->e[(k - 1) / 2];
		k = (k - 1) / 2;
	}
	h->e[k] = x;
}

static struct hent heap_pop(struct heap *h)
{
	struct hent top = h->e[0], x = h->e[--h->n];
	size_t k = 0;

	for (;;) {
		size_t l = 2 * k + 1, r = l + 1, m = k;
		const struct hent *at = &x;

		if (l < h->n && hent_above(&h->e[l], at)) {
			m = l;
			at = &h->e[l];
		}
		if (r < h->n && hent_above(&h->e[r], at))
			m = r;
		if (m == k)
			break;
		h->e[k] = h->e[m];
		k = m;
	}
	if (h->n)
		h->e[k] = x;
	return top;
}

/*
 * The greedy cover of the violations of both rules together (a stall
 * shows in both: bandwidth collapses as latency soars, so the points
 * both rules name are the likeliest wrong): flag the point in most
 * violations not yet explained, ties to the larger residual, then the
 * later in c; it takes the rule of each violation it explains.
 */
static size_t cover(struct mess_curve *c, const struct viol *v, size_t nv,
		    unsigned char *involved)
{
	size_t n = c->n, flagged = 0;
	size_t *cnt = calloc(n + 1, sizeof(*cnt));
	size_t *start = calloc(n + 2, sizeof(*start));
	size_t *fill = calloc(n + 1, sizeof(*fill));
	size_t *inc = malloc((2 * nv + 1) * sizeof(*inc));
	double *res = calloc(n ? n : 1, sizeof(*res));
	char *hit = calloc(nv ? nv : 1, 1);
	struct heap h = { malloc((n + 2 * nv + 1) * sizeof(struct hent)), 0 };

	for (size_t k = 0; involved && k < nv; k++)
		involved[v[k].a] = involved[v[k].b] = 1;
	if (!cnt || !start || !fill || !inc || !hit || !res || !h.e) {
		/* Out of memory: both ends of every violation, never none. */
		for (size_t k = 0; k < nv; k++) {
			c->pts[v[k].a].flags |= v[k].bit;
			c->pts[v[k].b].flags |= v[k].bit;
		}
		flagged = 2 * nv;
		goto out;
	}
	residuals(c, res);
	/* each point's violations, by point */
	for (size_t k = 0; k < nv; k++) {
		cnt[v[k].a]++;
		cnt[v[k].b]++;
	}
	for (size_t i = 0; i < n; i++)
		start[i + 1] = start[i] + cnt[i];
	for (size_t k = 0; k < nv; k++) {
		inc[start[v[k].a] + fill[v[k].a]++] = k;
		inc[start[v[k].b] + fill[v[k].b]++] = k;
	}
	for (size_t i = 0; i < n; i++)
		if (cnt[i])
			heap_push(&h, (struct hent){ cnt[i], i, res[i] });
	while (h.n) {
		struct hent top = heap_pop(&h);
		size_t best = top.i;

		if (top.cnt != cnt[best] || !cnt[best])
			continue;
		flagged++;
		for (size_t j = start[best]; j < start[best + 1]; j++) {
			size_t k = inc[j], o;

			if (hit[k])
				continue;
			hit[k] = 1;
			c->pts[best].flags |= v[k].bit;
			o = v[k].a == best ? v[k].b : v[k].a;
			cnt[best]--;
			if (o != best && --cnt[o])
				heap_push(&h, (struct hent){ cnt[o], o, res[o] });
		}
	}
out:
	free(cnt);
	free(start);
	free(fill);
	free(inc);
	free(res);
	free(hit);
	free(h.e);
	return flagged;
}

size_t mess_quality_curve(struct mess_curve *c, double unloaded_ns,
			  double unloaded_sd_ns, const struct mess_qtol *t,
			  unsigned char *involved)
{
	size_t n = c->n, flagged = 0, imax = SIZE_MAX;
	struct viols vs = { 0 };

	for (size_t i = 0; i < n; i++)
		c->pts[i].flags &= ~MESS_QF_CURVE_RULES;
	if (involved)
		memset(involved, 0, n);
	for (size_t i = 0; i < n; i++)
		if (mess_point_usable(&c->pts[i]) &&
		    (imax == SIZE_MAX || c->pts[i].bw_gbs > c->pts[imax].bw_gbs))
			imax = i;
	if (imax != SIZE_MAX && find_pairs(c, t, imax, &vs)) {
		free(vs.v);
		return 0;
	}
	flagged = cover(c, vs.v, vs.n, involved);
	free(vs.v);

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
