// SPDX-License-Identifier: MIT
/*
 * Both raw Mess trees of ../shared/reference (the MN5 one's counters are
 * Intel's CAS counts, the Grace one's NVIDIA's SCF bytes) against their
 * own processed/memory_curves.csv, with Mess's processing (mess import's
 * default), its grouping unthinned (mess-groups) and ours (per-ratio): per
 * matched row, per read share's maximum bandwidth and unloaded latency
 * (its lowest latency), the median and largest relative error, printed.
 * With Mess's processing every processed row is a point here and no other
 * in the shares it keeps.  Hand-made points check the thinning rule and
 * the read and write shares.
 */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "mess/curve.h"
#include "mess/load.h"
#include "mess/messraw.h"
#include "mess/messraw_group.h"
#include "near.h"

static char ref[4096];

/* ../shared/reference: MESS_REFERENCE is its mess-results/. */
static int have_ref(void)
{
	const char *r = getenv("MESS_REFERENCE");

	if (!r || !*r)
		return 0;
	snprintf(ref, sizeof(ref), "%s/../mess-results-raw", r);
	return !access(ref, R_OK);
}

static int cmp_d(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

struct errs {
	double v[4096];
	size_t n;
};

static void err_add(struct errs *e, double got, double want)
{
	assert_true(e->n < 4096);
	e->v[e->n++] = fabs(got / want - 1);
}

static double med(struct errs *e)
{
	qsort(e->v, e->n, sizeof(double), cmp_d);
	return e->n ? e->v[e->n / 2] : NAN;
}

static double mx(struct errs *e)
{
	qsort(e->v, e->n, sizeof(double), cmp_d);
	return e->n ? e->v[e->n - 1] : NAN;
}

/* A processed row's key: its curve's read_pct_rounded. */
static int key_of_proc(const struct mess_curve *c)
{
	return (int)lround(c->read_pct);
}

/* An imported point's key: Mess's grouping keys its curve (store_pct
 * 100 - share); ours has none, so the point's own rounded share. */
static int key_of_import(const struct mess_curve *c, const struct mess_point *p,
			 int mess)
{
	return mess ? 100 - (int)c->store_pct : (int)lround(p->read_pct);
}

struct figures {
	struct errs row_bw, row_lat, max_bw, unloaded;
	size_t rows, matched, shares, proc_shares;
	size_t in_shares;	/* imported points in the processed shares */
};

/*
 * Per processed row (share, pause): the imported point(s) there, their
 * mean weighted by repetitions.  Mess writes each share's lowest row at
 * 0 GB/s with the share's lowest latency: compared in the share's
 * unloaded latency only.
 */
static void compare(const struct mess_family *imp, int mess,
		    const struct mess_family *proc, struct figures *g)
{
	memset(g, 0, sizeof(*g));
	g->proc_shares = proc->n;
	for (size_t i = 0; i < proc->n; i++) {
		const struct mess_curve *q = &proc->curves[i];
		int key = key_of_proc(q);
		double pmax = 0, pmin = INFINITY, imax = 0, imin = INFINITY;

		for (size_t k = 0; k < q->n; k++) {
			const struct mess_point *pq = &q->pts[k];
			double w = 0, bw = 0, lat = 0;

			pmax = fmax(pmax, pq->bw_gbs);
			pmin = fmin(pmin, pq->lat_ns);
			g->rows++;
			if (!(pq->bw_gbs > 0))
				continue;
			for (size_t c = 0; c < imp->n; c++)
				for (size_t j = 0; j < imp->curves[c].n; j++) {
					const struct mess_point *p = &imp->curves[c].pts[j];

					if (p->nop != pq->nop ||
					    key_of_import(&imp->curves[c], p, mess) != key)
						continue;
					w += p->repeats;
					bw += p->repeats * p->bw_gbs;
					lat += p->repeats * p->lat_ns;
				}
			if (!(w > 0))
				continue;
			g->matched++;
			err_add(&g->row_bw, bw / w, pq->bw_gbs);
			err_add(&g->row_lat, lat / w, pq->lat_ns);
		}
		for (size_t c = 0; c < imp->n; c++)
			for (size_t j = 0; j < imp->curves[c].n; j++) {
				const struct mess_point *p = &imp->curves[c].pts[j];

				if (key_of_import(&imp->curves[c], p, mess) != key)
					continue;
				g->in_shares++;
				imax = fmax(imax, p->bw_gbs);
				imin = fmin(imin, p->lat_ns);
			}
		if (!(imax > 0))
			continue;
		g->shares++;
		err_add(&g->max_bw, imax, pmax);
		err_add(&g->unloaded, imin, pmin);
	}
}

static void one_tree(const char *name, size_t points_mess, size_t groups,
		     size_t proc_rows)
{
	static const char *const how_name[] = { "mess", "per-ratio", "mess-groups" };
	struct mess_family proc = { 0 };
	struct mess_set_info in;
	char path[8192], err[1024];

	snprintf(path, sizeof(path), "%s/%s/processed/memory_curves.csv", ref, name);
	assert_int_equal(mess_set_load(path, 0, &proc, &in, err, sizeof(err)), 0);
	for (int how = MESS_RAW_MESS; how <= MESS_RAW_MESS_GROUPS; how++) {
		struct mess_family f = { 0 };
		struct mess_raw r;
		struct figures *g = calloc(1, sizeof(*g));

		assert_non_null(g);
		snprintf(path, sizeof(path), "%s/%s", ref, name);
		assert_int_equal(mess_raw_read_as(path, how, &f, &r, err, sizeof(err)), 0);
		compare(&f, how != MESS_RAW_PER_RATIO, &proc, g);
		print_message("%s, %s: %zu points; %zu of %zu processed rows matched: bandwidth median %.3g %%, max %.3g %%; latency median %.3g %%, max %.3g %%; per share (%zu of %zu): max bandwidth median %.3g %%, max %.3g %%; unloaded latency median %.3g %%, max %.3g %%\n",
			      name, how_name[how], r.points, g->matched, g->rows,
			      100 * med(&g->row_bw), 100 * mx(&g->row_bw),
			      100 * med(&g->row_lat), 100 * mx(&g->row_lat),
			      g->shares, g->proc_shares,
			      100 * med(&g->max_bw), 100 * mx(&g->max_bw),
			      100 * med(&g->unloaded), 100 * mx(&g->unloaded));
		if (how != MESS_RAW_PER_RATIO) {
			/* every row Mess wrote is a group here, with the
			 * same sums; its first row per share is at 0 GB/s */
			assert_int_equal(r.groups, groups);
			assert_int_equal(g->matched, g->rows - g->proc_shares);
			assert_true(mx(&g->row_bw) < 1e-9);
			assert_true(mx(&g->row_lat) < 1e-9);
		}
		if (how == MESS_RAW_MESS) {
			/* and the thinning keeps those rows and no other in
			 * every share Mess kept: the maxima are Mess's */
			assert_int_equal(r.points, points_mess);
			assert_int_equal(g->rows, proc_rows);
			assert_int_equal(g->in_shares, proc_rows);
			assert_int_equal(g->shares, g->proc_shares);
			assert_true(mx(&g->max_bw) < 1e-9);
		}
		mess_family_free(&f);
		free(g);
	}
	mess_family_free(&proc);
}

static void test_mn5(void **state)
{
	(void)state;
	if (!have_ref())
		skip();
	/* 3 shares kept here are not in Mess's file (50, 94, 97 %):
	 * their 24 points are the 410 - 386 */
	one_tree("MN5-GPP-SPR8480-DDR5-AVX2-local", 410, 1726, 386);
}

static void test_grace(void **state)
{
	(void)state;
	if (!have_ref())
		skip();
	one_tree("Grace-LPDDR5-local", 419, 1834, 419);
}

/* One point of a share: a bandwidth and a latency repetition, its file. */
static void rep2(struct mess_raw_reps *r, uint32_t file, uint64_t pause,
		 double share, double gbs, double ns)
{
	struct mess_raw_rep b = { pause, file, 0, gbs, share };
	struct mess_raw_rep l = { pause, file, 1, ns, 2.0 };

	assert_int_equal(mess_raw_rep_add(r, &b), 0);
	assert_int_equal(mess_raw_rep_add(r, &l), 0);
}

static int has(const struct mess_family *f, unsigned store, uint64_t nop)
{
	for (size_t i = 0; i < f->n; i++)
		for (size_t j = 0; f->curves[i].store_pct == store && j < f->curves[i].n; j++)
			if (f->curves[i].pts[j].nop == nop)
				return 1;
	return 0;
}

/*
 * The thinning on known points.  Share 70 %: kept from the least loaded
 * (1 GB/s) each point 5 GB/s and 5 % latency above the last kept (from
 * 0 GB/s and the least latency, 100 ns): 700, 500, 400, 300 and 100; 900
 * (4 GB/s), 600 (3.5 above) and 200 (2 above) fail the bandwidth step, 800
 * (4 % above 100 ns) the latency one.  Share 90 %: 5 points kept, but a
 * 49 GB/s gap over half its 80 GB/s span: left out.  Share 80 %: 4
 * points, too few: left out.
 */
static void test_thin(void **state)
{
	static const struct { uint64_t pause; double gbs, ns; } a[] = {
		{ 1000, 1, 100 }, { 900, 4, 106 }, { 800, 10, 104 },
		{ 700, 10.5, 106 }, { 600, 14, 120 }, { 500, 20, 112 },
		{ 400, 30, 130 }, { 300, 40, 150 }, { 200, 42, 300 },
		{ 100, 50, 200 },
	};
	struct mess_raw_reps r = { 0 };
	struct mess_raw_group_counts c;
	uint32_t file = 0;

	(void)state;
	for (size_t i = 0; i < sizeof(a) / sizeof(a[0]); i++)
		rep2(&r, file++, a[i].pause, 0.70, a[i].gbs, a[i].ns);
	for (int i = 0; i < 5; i++)
		rep2(&r, file++, 100 + (uint64_t)i, 0.90,
		     i == 4 ? 80 : 1 + 10 * i, 100 * pow(1.1, i));
	for (int i = 0; i < 4; i++)
		rep2(&r, file++, 100 + (uint64_t)i, 0.80, 1 + 10 * i,
		     100 * pow(1.1, i));
	for (int thin_as_mess = 1; thin_as_mess >= 0; thin_as_mess--) {
		struct mess_family f = { 0 };

		assert_int_equal(mess_raw_group(&r, thin_as_mess, &f, &c), 0);
		assert_int_equal(c.groups, 19);
		if (thin_as_mess) {
			static const uint64_t kept[] = { 1000, 700, 500, 400, 300, 100 };

			assert_int_equal(f.n, 1);
			assert_int_equal(f.curves[0].store_pct, 30);
			assert_int_equal(c.points, 6);
			assert_int_equal(c.thinned, 4);
			assert_int_equal(c.shares_left_out, 2);
			for (size_t i = 0; i < 6; i++)
				assert_true(has(&f, 30, kept[i]));
			assert_false(has(&f, 30, 800));
		} else {
			assert_int_equal(f.n, 3);
			assert_int_equal(c.points, 19);
			assert_int_equal(c.thinned, 0);
			assert_int_equal(c.shares_left_out, 0);
		}
		mess_family_free(&f);
	}
	mess_raw_reps_free(&r);
}

/*
 * The read and write shares (issue 43): at 100 % reads the write share is
 * exactly 0 (bw - bw x 100 / 100 was -5.7e-14 GB/s at 511.954... GB/s,
 * and Mess-Results' AMD tree was refused for it); 75 % of 1280 GB/s is
 * 960 + 320; a share an ulp above 100 % writes 0, one 1e-7 above keeps
 * its sign for mess_point_check to refuse.
 */
static void test_split(void **state)
{
	struct mess_point p = MESS_POINT_INIT;
	struct mess_raw_reps r = { 0 };
	struct mess_raw_group_counts c;
	struct mess_family f = { 0 };

	(void)state;
	rep2(&r, 0, 100, 1.0, 511.95404974553884, 100);
	assert_int_equal(mess_raw_group(&r, 0, &f, &c), 0);
	assert_int_equal(f.n, 1);
	assert_true(f.curves[0].pts[0].write_bw_gbs == 0);
	assert_near(f.curves[0].pts[0].read_bw_gbs, 511.95404974553884, 1e-12);
	mess_family_free(&f);
	mess_raw_reps_free(&r);

	p.bw_gbs = 1280;
	p.read_pct = 75;
	mess_raw_split(&p);
	assert_true(p.read_bw_gbs == 960 && p.write_bw_gbs == 320);
	p.read_pct = nextafter(100, 200);
	mess_raw_split(&p);
	assert_true(p.write_bw_gbs == 0);
	p.read_pct = 100 + 1e-7;
	mess_raw_split(&p);
	assert_true(p.write_bw_gbs < -1e-6);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_mn5),
		cmocka_unit_test(test_grace),
		cmocka_unit_test(test_thin),
		cmocka_unit_test(test_split),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
