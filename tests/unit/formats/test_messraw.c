// SPDX-License-Identifier: MIT
/*
 * Both raw Mess trees of ../shared/reference (the MN5 one's counters are
 * Intel's CAS counts, the Grace one's NVIDIA's SCF bytes) against their
 * own processed/memory_curves.csv, with Mess's grouping (mess import's
 * default) and with ours (--processing per-ratio): per matched row, per
 * read share's maximum bandwidth and unloaded latency (its lowest
 * latency), the median and largest relative error, printed.  A hand-made
 * tree checks the grouping rule itself: repetitions split by their own
 * rounded share, latency under each, a sparse share left out.
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
	size_t rows, matched, shares;
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

static void one_tree(const char *name, size_t points_mess)
{
	static const char *const how_name[] = { "mess", "per-ratio" };
	struct mess_family proc = { 0 };
	struct mess_set_info in;
	char path[8192], err[1024];

	snprintf(path, sizeof(path), "%s/%s/processed/memory_curves.csv", ref, name);
	assert_int_equal(mess_set_load(path, 0, &proc, &in, err, sizeof(err)), 0);
	for (int how = MESS_RAW_MESS; how <= MESS_RAW_PER_RATIO; how++) {
		struct mess_family f = { 0 };
		struct mess_raw r;
		struct figures *g = calloc(1, sizeof(*g));

		assert_non_null(g);
		snprintf(path, sizeof(path), "%s/%s", ref, name);
		assert_int_equal(mess_raw_read_as(path, how, &f, &r, err, sizeof(err)), 0);
		compare(&f, how == MESS_RAW_MESS, &proc, g);
		print_message("%s, %s grouping: %zu of %zu processed rows matched: bandwidth median %.3g %%, max %.3g %%; latency median %.3g %%, max %.3g %%; per share (%zu): max bandwidth median %.3g %%, max %.3g %%; unloaded latency median %.3g %%, max %.3g %%\n",
			      name, how_name[how], g->matched, g->rows,
			      100 * med(&g->row_bw), 100 * mx(&g->row_bw),
			      100 * med(&g->row_lat), 100 * mx(&g->row_lat), g->shares,
			      100 * med(&g->max_bw), 100 * mx(&g->max_bw),
			      100 * med(&g->unloaded), 100 * mx(&g->unloaded));
		if (how == MESS_RAW_MESS) {
			/* Mess's grouping: every row it wrote is a group
			 * here, with the same sums. */
			assert_int_equal(r.points, points_mess);
			assert_true(g->matched * 100 >= (g->rows - g->shares) * 95);
			assert_true(mx(&g->row_bw) < 1e-9);
			assert_true(mx(&g->row_lat) < 1e-9);
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
	one_tree("MN5-GPP-SPR8480-DDR5-AVX2-local", 1626);
}

static void test_grace(void **state)
{
	(void)state;
	if (!have_ref())
		skip();
	one_tree("Grace-LPDDR5-local", 1728);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_mn5),
		cmocka_unit_test(test_grace),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
