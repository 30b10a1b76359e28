// SPDX-License-Identifier: MIT
/*
 * The curve model (include/mess/model.h has the rules): per curve, a
 * strictly increasing bandwidth array and its latencies; queries are binary
 * searches over those arrays and never allocate.
 */
#include "mess/model.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>

struct mcurve {
	double read_pct;
	size_t n;
	double *bw, *lat;	/* one allocation: bw[0..n), then lat[0..n) */
	size_t dropped;
	double slope;		/* ns per GB/s beyond bw[n-1]; 0: flat */
};

struct mess_model {
	double unloaded_ns;
	size_t n;
	struct mcurve *c;
};

/* Two read shares closer than this are one curve (header). */
#define READ_EPS 0.01

const char *mess_src_name(int src)
{
	if (src & MESS_SRC_EXTRAPOLATED)
		return "extrapolated";
	if (src & (MESS_SRC_INTERP_BW | MESS_SRC_INTERP_READ))
		return "interpolated";
	return "measured";
}

static int cmp_nop_desc(const void *a, const void *b)
{
	const struct mess_point *p = a, *q = b;

	return (p->nop < q->nop) - (p->nop > q->nop);
}

static int cmp_bw_asc(const void *a, const void *b)
{
	const struct mess_point *p = a, *q = b;

	return (p->bw_gbs > q->bw_gbs) - (p->bw_gbs < q->bw_gbs);
}

/*
 * Pressure order.  Files without a pressure knob (bwlat_<R>.txt: every nop
 * is 0) have lost the order the points were measured in, so there the
 * points are taken by increasing bandwidth.  qsort is not stable, but
 * equal nops only occur in that case, which sorts by bandwidth instead.
 */
static void pressure_order(struct mess_point *p, size_t n)
{
	int one_nop = 1;

	for (size_t i = 1; i < n; i++)
		if (p[i].nop != p[0].nop)
			one_nop = 0;
	qsort(p, n, sizeof(*p), one_nop ? cmp_bw_asc : cmp_nop_desc);
}

/* Slope of the extrapolation past the last point (header). */
static double ext_slope(const struct mcurve *c)
{
	size_t n = c->n;
	double s = 0;

	if (n >= 2) {
		double last = (c->lat[n - 1] - c->lat[n - 2]) /
			      (c->bw[n - 1] - c->bw[n - 2]);
		double avg = (c->lat[n - 1] - c->lat[0]) /
			     (c->bw[n - 1] - c->bw[0]);
		s = fmax(last, avg);
	}
	/* A flat, falling or one-point curve: latency proportional to
	 * bandwidth from there on, the mildest rule that still rises. */
	if (!(s > 0) && c->bw[n - 1] > 0)
		s = c->lat[n - 1] / c->bw[n - 1];
	return isfinite(s) && s > 0 ? s : 0;
}

static int build_curve(const struct mess_curve *in, double unloaded,
		       struct mcurve *c)
{
	struct mess_point *p;
	size_t m = 0, k = 0;

	p = malloc((in->n ? in->n : 1) * sizeof(*p));
	if (!p)
		return -ENOMEM;
	for (size_t i = 0; i < in->n; i++)
		if (mess_point_usable(&in->pts[i]) && in->pts[i].bw_gbs >= 0)
			p[m++] = in->pts[i];
	if (!m) {
		free(p);
		return -EINVAL;
	}
	pressure_order(p, m);

	/* One slot more for the bandwidth-0 anchor. */
	c->bw = malloc(2 * (m + 1) * sizeof(double));
	if (!c->bw) {
		free(p);
		return -ENOMEM;
	}
	c->lat = c->bw + m + 1;
	if (isfinite(unloaded) && unloaded > 0 && p[0].bw_gbs > 0 &&
	    unloaded <= p[0].lat_ns) {
		c->bw[k] = 0;
		c->lat[k++] = unloaded;
	}
	for (size_t i = 0; i < m; i++) {
		if (k && !(p[i].bw_gbs > c->bw[k - 1])) {
			c->dropped++;
			continue;
		}
		c->bw[k] = p[i].bw_gbs;
		c->lat[k++] = p[i].lat_ns;
	}
	free(p);
	c->n = k;
	c->read_pct = in->read_pct;
	c->slope = ext_slope(c);
	return 0;
}

static int cmp_read(const void *a, const void *b)
{
	const struct mcurve *p = a, *q = b;

	return (p->read_pct > q->read_pct) - (p->read_pct < q->read_pct);
}

void mess_model_free(struct mess_model *m)
{
	if (!m)
		return;
	for (size_t i = 0; i < m->n; i++)
		free(m->c[i].bw);
	free(m->c);
	free(m);
}

int mess_model_new(const struct mess_family *f, struct mess_model **out)
{
	struct mess_model *m;
	size_t k = 0;
	int err;

	*out = NULL;
	m = calloc(1, sizeof(*m));
	if (!m)
		return -ENOMEM;
	m->unloaded_ns = f->unloaded_ns > 0 ? f->unloaded_ns : NAN;
	m->c = calloc(f->n ? f->n : 1, sizeof(*m->c));
	if (!m->c) {
		free(m);
		return -ENOMEM;
	}
	for (size_t i = 0; i < f->n; i++) {
		const struct mess_curve *in = &f->curves[i];

		if (!isfinite(in->read_pct) || in->read_pct < 0 ||
		    in->read_pct > 100)
			continue;
		err = build_curve(in, m->unloaded_ns, &m->c[k]);
		if (err == -ENOMEM) {
			m->n = k;
			mess_model_free(m);
			return err;
		}
		if (!err)
			k++;
	}
	qsort(m->c, k, sizeof(*m->c), cmp_read);
	/* Curves at one read share: keep the one that reached further. */
	m->n = 0;
	for (size_t i = 0; i < k; i++) {
		struct mcurve *last = m->n ? &m->c[m->n - 1] : NULL;

		if (last && m->c[i].read_pct - last->read_pct < READ_EPS) {
			struct mcurve lose = m->c[i];

			if (m->c[i].bw[m->c[i].n - 1] > last->bw[last->n - 1]) {
				lose = *last;
				*last = m->c[i];
			}
			free(lose.bw);
			continue;
		}
		m->c[m->n++] = m->c[i];
	}
	if (!m->n) {
		mess_model_free(m);
		return -EINVAL;
	}
	*out = m;
	return 0;
}

double mess_model_unloaded_ns(const struct mess_model *m)
{
	return m->unloaded_ns;
}

size_t mess_model_ncurves(const struct mess_model *m)
{
	return m->n;
}

int mess_model_curve(const struct mess_model *m, size_t i, double *read_pct,
		     size_t *n, const double **bw_gbs, const double **lat_ns,
		     size_t *dropped)
{
	if (i >= m->n)
		return -EINVAL;
	if (read_pct)
		*read_pct = m->c[i].read_pct;
	if (n)
		*n = m->c[i].n;
	if (bw_gbs)
		*bw_gbs = m->c[i].bw;
	if (lat_ns)
		*lat_ns = m->c[i].lat;
	if (dropped)
		*dropped = m->c[i].dropped;
	return 0;
}

static double maxbw(const struct mcurve *c)
{
	return c->bw[c->n - 1];
}

/* Latency of one curve at bandwidth b, with its source flags. */
static int curve_lat(const struct mcurve *c, double b, double *lat)
{
	size_t lo = 0, hi = c->n - 1;

	if (b < c->bw[0]) {
		*lat = c->lat[0];
		return MESS_SRC_EXTRAP_BW;
	}
	if (b > c->bw[hi]) {
		*lat = c->lat[hi] + c->slope * (b - c->bw[hi]);
		return MESS_SRC_EXTRAP_BW;
	}
	/* Invariant: bw[lo] <= b <= bw[hi]. */
	while (hi - lo > 1) {
		size_t mid = lo + (hi - lo) / 2;

		if (c->bw[mid] <= b)
			lo = mid;
		else
			hi = mid;
	}
	if (b == c->bw[lo] || b == c->bw[hi]) {
		*lat = b == c->bw[lo] ? c->lat[lo] : c->lat[hi];
		return MESS_SRC_MEASURED;
	}
	*lat = c->lat[lo] + (c->lat[hi] - c->lat[lo]) * (b - c->bw[lo]) /
			    (c->bw[hi] - c->bw[lo]);
	return MESS_SRC_INTERP_BW;
}

/*
 * The curves that answer for read share r: *a and *b with weight w of b
 * (a == b when one curve answers), and the read-share flags.
 */
static int pick(const struct mess_model *m, double r, const struct mcurve **a,
		const struct mcurve **b, double *w)
{
	size_t lo = 0, hi = m->n - 1;

	*w = 0;
	if (r <= m->c[0].read_pct || r >= m->c[hi].read_pct) {
		const struct mcurve *c = r <= m->c[0].read_pct ? &m->c[0] :
								 &m->c[hi];

		*a = *b = c;
		return fabs(r - c->read_pct) < 1e-9 ? 0 : MESS_SRC_EXTRAP_READ;
	}
	while (hi - lo > 1) {
		size_t mid = lo + (hi - lo) / 2;

		if (m->c[mid].read_pct <= r)
			lo = mid;
		else
			hi = mid;
	}
	*a = &m->c[lo];
	*b = &m->c[hi];
	if (r == (*a)->read_pct) {
		*b = *a;
		return 0;
	}
	*w = (r - (*a)->read_pct) / ((*b)->read_pct - (*a)->read_pct);
	return MESS_SRC_INTERP_READ;
}

static int bad_args(double r, double x)
{
	return !isfinite(r) || r < 0 || r > 100 || !isfinite(x);
}

int mess_model_latency(const struct mess_model *m, double read_pct,
		       double bw_gbs, double *lat_ns)
{
	const struct mcurve *a, *b;
	double w, la, lb, mx;
	int src;

	if (bad_args(read_pct, bw_gbs) || bw_gbs < 0)
		return -EINVAL;
	src = pick(m, read_pct, &a, &b, &w);
	if (a == b)
		return src | curve_lat(a, bw_gbs, lat_ns);
	mx = (1 - w) * maxbw(a) + w * maxbw(b);
	src |= curve_lat(a, bw_gbs / mx * maxbw(a), &la);
	src |= curve_lat(b, bw_gbs / mx * maxbw(b), &lb);
	*lat_ns = (1 - w) * la + w * lb;
	return src;
}

int mess_model_max_bw(const struct mess_model *m, double read_pct,
		      double *bw_gbs)
{
	const struct mcurve *a, *b;
	double w;
	int src;

	if (bad_args(read_pct, 0))
		return -EINVAL;
	src = pick(m, read_pct, &a, &b, &w);
	*bw_gbs = (1 - w) * maxbw(a) + w * maxbw(b);
	return src;
}

/* The mixed latency at fraction u of the maximum (a may equal b). */
static double mix_at(const struct mcurve *a, const struct mcurve *b, double w,
		     double u, int *src)
{
	double la, lb;

	*src |= curve_lat(a, u * maxbw(a), &la);
	if (a == b)
		return la;
	*src |= curve_lat(b, u * maxbw(b), &lb);
	return (1 - w) * la + w * lb;
}

int mess_model_bw_at_latency(const struct mess_model *m, double read_pct,
			     double lat_ns, double *bw_gbs)
{
	const struct mcurve *a, *b;
	double w, mx, u_prev = 0, l_prev = 0, slope;
	size_t i = 0, j = 0;
	int src, first = 1, s = 0;

	if (bad_args(read_pct, lat_ns))
		return -EINVAL;
	src = pick(m, read_pct, &a, &b, &w);
	mx = (1 - w) * maxbw(a) + w * maxbw(b);
	if (!(mx > 0))
		return -ERANGE;
	/*
	 * The mixture is linear in u between the breakpoints of both curves
	 * (bw/max of each point), so walking them in order and stopping at
	 * the first one at or above lat_ns finds the lowest crossing exactly.
	 */
	while (i < a->n || (a != b && j < b->n)) {
		double ua = i < a->n ? a->bw[i] / maxbw(a) : INFINITY;
		double ub = a != b && j < b->n ? b->bw[j] / maxbw(b) : INFINITY;
		double u = fmin(ua, ub), l;

		s = 0;
		l = mix_at(a, b, w, u, &s);
		if (ua <= u)
			i++;
		if (ub <= u)
			j++;
		if (l >= lat_ns) {
			if (first) {
				if (l > lat_ns)
					return -ERANGE;
				*bw_gbs = u * mx;
				return src | (s & MESS_SRC_EXTRAP_BW);
			}
			*bw_gbs = mx * (u_prev + (u - u_prev) * (lat_ns - l_prev) /
							 (l - l_prev));
			return src | MESS_SRC_INTERP_BW | (s & MESS_SRC_EXTRAP_BW);
		}
		first = 0;
		u_prev = u;
		l_prev = l;
	}
	/* Beyond both maxima (u = 1): each extrapolation is linear in u. */
	slope = (1 - w) * a->slope * maxbw(a) + (a == b ? 0 : w * b->slope * maxbw(b));
	if (!(slope > 0))
		return -ERANGE;
	*bw_gbs = mx * (1 + (lat_ns - l_prev) / slope);
	return src | MESS_SRC_EXTRAP_BW;
}
