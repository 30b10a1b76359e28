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

#include "mess/stats.h"

int mess_raw_rep_add(struct mess_raw_reps *r, const struct mess_raw_rep *x)
{
	struct mess_raw_rep *nv = mess_grow(r->v, r->n, &r->cap, sizeof(*nv),
					    1024);

	if (!nv)
		return -ENOMEM;
	r->v = nv;
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

/* Rounding's last bits below 0 are 0; a real negative is kept. */
static double last_bits(double share, double bw)
{
	return share < 0 && share >= -MESS_RAW_LAST_BITS * bw ? 0 : share;
}

void mess_raw_split(struct mess_point *p)
{
	p->read_bw_gbs = last_bits(p->bw_gbs * p->read_pct / 100, p->bw_gbs);
	p->write_bw_gbs = last_bits(p->bw_gbs * (100 - p->read_pct) / 100,
				    p->bw_gbs);
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
				struct ent *ne = mess_grow(*e, k, &cap,
							   sizeof(*ne), 0);

				if (!ne)
					return -ENOMEM;
				*e = ne;
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
	mess_raw_split(p);
	p->lat_ns = mess_raw_mean(lat, nl);
	p->lat_ns_std = mess_raw_sd(lat, nl);
	p->repeats = (uint32_t)(nb < nl ? nb : nl);
	return 1;
}

/* Mess's thinning steps (module comment in messraw_group.h). */
#define THIN_BW_GBS 5.0
#define THIN_LAT_RISE 0.05
#define VALID_MIN_POINTS 5
#define VALID_GAP_SHARE 0.5

static int cmp_bw(const void *a, const void *b)
{
	const struct mess_point *x = a, *y = b;

	if (x->bw_gbs != y->bw_gbs)
		return x->bw_gbs < y->bw_gbs ? -1 : 1;
	return (x->nop > y->nop) - (x->nop < y->nop);
}

/*
 * One share's points p[0..n), sorted here by bandwidth, thinned as Mess
 * thins them: keep[i] set for each kept; how many.  The walk starts from
 * Mess's first row, 0 GB/s at the share's least latency.
 */
static size_t thin(struct mess_point *p, size_t n, unsigned char *keep)
{
	double last_bw = 0, last_lat = INFINITY;
	size_t nk = 0;

	qsort(p, n, sizeof(*p), cmp_bw);
	for (size_t i = 0; i < n; i++)
		last_lat = fmin(last_lat, p[i].lat_ns);
	for (size_t i = 0; i < n; i++) {
		int step = p[i].bw_gbs - last_bw >= THIN_BW_GBS && last_lat > 0 &&
			   p[i].lat_ns > last_lat &&
			   (p[i].lat_ns - last_lat) / last_lat >= THIN_LAT_RISE;

		/* The least-loaded point stands for Mess's 0 GB/s row, and is
		 * also the walk's first candidate, as Mess's own copy is. */
		keep[i] = i == 0 || step;
		if (step) {
			last_bw = p[i].bw_gbs;
			last_lat = p[i].lat_ns;
		}
		nk += keep[i];
	}
	return nk;
}

/* Mess's check of a thinned share: enough points, and no gap between
 * neighbours (the first at 0 GB/s, as Mess writes it) over half the span. */
static int share_valid(const struct mess_point *p, size_t n,
		       const unsigned char *keep, size_t nk)
{
	double prev = 0, gap = 0;

	if (nk < VALID_MIN_POINTS)
		return 0;
	for (size_t i = 1; i < n; i++)
		if (keep[i]) {
			gap = fmax(gap, p[i].bw_gbs - prev);
			prev = p[i].bw_gbs;
		}
	return !(gap > VALID_GAP_SHARE * prev);
}

/* A share's kept points into its curve of f; *added counts them. */
static int add_kept(struct mess_family *f, const struct mess_point *p,
		    size_t n, const unsigned char *keep, size_t *added)
{
	struct mess_curve *cv = mess_family_curve(f, p[0].store_pct, NAN);
	int ret = cv ? 0 : -ENOMEM;

	for (size_t i = 0; !ret && i < n; i++)
		if (keep[i]) {
			ret = mess_curve_add(cv, &p[i]);
			++*added;
		}
	return ret;
}

int mess_raw_group(const struct mess_raw_reps *r, int thin_as_mess,
		   struct mess_family *f, struct mess_raw_group_counts *c)
{
	struct ent *e = NULL;
	struct mess_point *pts = NULL;
	unsigned char *keep = NULL;
	double *scratch = NULL;
	size_t n = 0, np = 0;
	int ret = entries(r, &e, &n);

	memset(c, 0, sizeof(*c));
	if (!ret) {
		qsort(e, n, sizeof(*e), cmp_ent);
		pts = malloc((n ? n : 1) * sizeof(*pts));
		keep = malloc(n ? n : 1);
		scratch = malloc(3 * (n ? n : 1) * sizeof(double));
		if (!pts || !keep || !scratch)
			ret = -ENOMEM;
	}
	for (size_t s = 0, t; !ret && s < n; s = t) {
		for (t = s; t < n && e[t].key == e[s].key && e[t].pause == e[s].pause; t++)
			;
		np += group_point(r, e + s, t - s, scratch, scratch + n,
				  scratch + 2 * n, &pts[np]);
	}
	c->groups = np;
	/* pts is in key order: one share at a time. */
	for (size_t s = 0, t; !ret && s < np; s = t) {
		size_t nk;

		for (t = s; t < np && pts[t].store_pct == pts[s].store_pct; t++)
			;
		if (thin_as_mess) {
			nk = thin(pts + s, t - s, keep);
			c->thinned += t - s - nk;
			if (!share_valid(pts + s, t - s, keep, nk)) {
				c->shares_left_out++;
				continue;
			}
		} else {
			memset(keep, 1, t - s);
		}
		ret = add_kept(f, pts + s, t - s, keep, &c->points);
	}
	free(e);
	free(pts);
	free(keep);
	free(scratch);
	return ret;
}
