// SPDX-License-Identifier: MIT
/*
 * Mess's own grouping of a raw tree's repetitions (include/mess/
 * messraw_group.h has the rule and where it comes from).
 */
#include "mess/messraw_group.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* A key at or below this share of the mean count is left out (Mess's
 * filter_incomplete_ratios threshold_ratio). */
#define KEEP_RATIO 0.6

int mess_raw_rep_add(struct mess_raw_reps *r, const struct mess_raw_rep *x)
{
	if (r->n == r->cap) {
		size_t cap = r->cap ? 2 * r->cap : 1024;
		struct mess_raw_rep *nv = realloc(r->v, cap * sizeof(*nv));

		if (!nv)
			return -ENOMEM;
		r->v = nv;
		r->cap = cap;
	}
	r->v[r->n++] = *x;
	return 0;
}

void mess_raw_reps_free(struct mess_raw_reps *r)
{
	free(r->v);
	memset(r, 0, sizeof(*r));
}

double mess_raw_mean(const double *v, size_t n)
{
	double s = 0;

	for (size_t i = 0; i < n; i++)
		s += v[i];
	return n ? s / (double)n : NAN;
}

double mess_raw_sd(const double *v, size_t n)
{
	double m = mess_raw_mean(v, n), s = 0;

	if (n < 2)
		return NAN;
	for (size_t i = 0; i < n; i++)
		s += (v[i] - m) * (v[i] - m);
	return sqrt(s / (double)(n - 1));
}

/* A repetition under a key: Mess's (read_pct_rounded, pause) row. */
struct ent {
	int key;
	uint64_t pause;
	size_t rep;
};

static int cmp_ent(const void *a, const void *b)
{
	const struct ent *x = a, *y = b;

	if (x->key != y->key)
		return x->key < y->key ? -1 : 1;
	if (x->pause != y->pause)
		return x->pause < y->pause ? -1 : 1;
	return (x->rep > y->rep) - (x->rep < y->rep);
}

/* numpy's round(100 x share): half to even, the default rounding mode's
 * nearbyint; clipped to 0..100 as Mess clips. */
static int key_of(double share)
{
	double k = nearbyint(100 * share);

	return k < 0 ? 0 : k > 100 ? 100 : (int)k;
}

/* Every repetition under its keys into *e, *n: a bandwidth one under its
 * own, a latency one under each its file's bandwidth ones took. */
static int entries(const struct mess_raw_reps *r, struct ent **e, size_t *n)
{
	size_t cap = r->n ? r->n : 1, k = 0;

	*e = malloc(cap * sizeof(**e));
	if (!*e)
		return -ENOMEM;
	for (size_t s = 0, t; s < r->n; s = t) {
		int keys[101], nk = 0;

		for (t = s; t < r->n && r->v[t].file == r->v[s].file; t++)
			if (!r->v[t].is_lat) {
				int key = key_of(r->v[t].y), seen = 0;

				for (int j = 0; j < nk; j++)
					seen |= keys[j] == key;
				if (!seen)
					keys[nk++] = key;
			}
		for (size_t i = s; i < t; i++) {
			int nrep = r->v[i].is_lat ? nk : 1;

			for (int j = 0; j < nrep; j++) {
				if (k == cap) {
					struct ent *ne;

					cap *= 2;
					ne = realloc(*e, cap * sizeof(**e));
					if (!ne)
						return -ENOMEM;
					*e = ne;
				}
				(*e)[k++] = (struct ent){
					r->v[i].is_lat ? keys[j] : key_of(r->v[i].y),
					r->v[i].pause, i };
			}
		}
	}
	*n = k;
	return 0;
}

/* The point of one group e[0..n) (one key and pause): 1 when it has
 * both bandwidth and latency repetitions, as Mess's inner merge. */
static int group_point(const struct mess_raw_reps *r, const struct ent *e,
		       size_t n, double *bw, double *sh, double *lat,
		       struct mess_point *p)
{
	size_t nb = 0, nl = 0;

	*p = (struct mess_point)MESS_POINT_INIT;
	p->ghz_min = INFINITY;
	p->ghz_max = -INFINITY;
	for (size_t i = 0; i < n; i++) {
		const struct mess_raw_rep *x = &r->v[e[i].rep];

		if (x->is_lat) {
			lat[nl++] = x->x;
			p->ghz_min = fmin(p->ghz_min, x->y);
			p->ghz_max = fmax(p->ghz_max, x->y);
		} else {
			bw[nb] = x->x;
			sh[nb++] = x->y;
		}
	}
	if (!nb || !nl)
		return 0;
	p->store_pct = (uint32_t)(100 - e[0].key);
	p->nop = e[0].pause;
	p->bw_gbs = mess_raw_mean(bw, nb);
	p->bw_gbs_std = mess_raw_sd(bw, nb);
	p->read_pct = 100 * mess_raw_mean(sh, nb);
	p->read_bw_gbs = p->bw_gbs * p->read_pct / 100;
	p->write_bw_gbs = p->bw_gbs - p->read_bw_gbs;
	p->lat_ns = mess_raw_mean(lat, nl);
	p->lat_ns_std = mess_raw_sd(lat, nl);
	p->repeats = (uint32_t)(nb < nl ? nb : nl);
	return 1;
}

int mess_raw_group(const struct mess_raw_reps *r, struct mess_family *f,
		   size_t *points, size_t *keys_left_out)
{
	struct ent *e = NULL;
	struct mess_point *pts = NULL;
	double *scratch = NULL;
	size_t n = 0, np = 0, count[101] = { 0 }, nkeys = 0;
	int ret = entries(r, &e, &n);

	*points = *keys_left_out = 0;
	if (!ret) {
		qsort(e, n, sizeof(*e), cmp_ent);
		pts = malloc((n ? n : 1) * sizeof(*pts));
		scratch = malloc(3 * (n ? n : 1) * sizeof(double));
		if (!pts || !scratch)
			ret = -ENOMEM;
	}
	for (size_t s = 0, t; !ret && s < n; s = t) {
		for (t = s; t < n && e[t].key == e[s].key && e[t].pause == e[s].pause; t++)
			;
		if (group_point(r, e + s, t - s, scratch, scratch + n,
				scratch + 2 * n, &pts[np])) {
			count[e[s].key]++;
			np++;
		}
	}
	for (int k = 0; k <= 100; k++)
		nkeys += count[k] > 0;
	for (size_t i = 0; !ret && i < np; i++) {
		uint32_t key = 100 - pts[i].store_pct;
		struct mess_curve *c;

		/* Mess: count >= KEEP_RATIO x the mean count over the keys */
		if ((double)count[key] * (double)nkeys < KEEP_RATIO * (double)np)
			continue;
		c = mess_family_curve(f, pts[i].store_pct, NAN);
		ret = c ? mess_curve_add(c, &pts[i]) : -ENOMEM;
		++*points;
	}
	for (int k = 0; !ret && k <= 100; k++)
		if (count[k] && (double)count[k] * (double)nkeys < KEEP_RATIO * (double)np)
			++*keys_left_out;
	free(e);
	free(pts);
	free(scratch);
	return ret;
}
