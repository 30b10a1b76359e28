// SPDX-License-Identifier: MIT
/*
 * Every file the Mess ecosystem ships (../shared/reference/, its README):
 * loaded in the units its metadata says, rows no memory has dropped with
 * one warning, and a raw Mess benchmark tree read as Mess processes it,
 * against the tree's own processed/memory_curves.csv.
 */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <ftw.h>
#include <unistd.h>

#include <cmocka.h>

#include "mess/curve.h"
#include "mess/load.h"
#include "mess/messfmt.h"
#include "mess/messraw.h"

#include "near.h"

#define RAW "mess-results-raw/MN5-GPP-SPR8480-DDR5-AVX2-local"
#define PROFET_CL "profet/data/bw_lat_curves/cascade_lake__DDR4_2666__local_socket"

static char ref[4096];

/* ../shared/reference: MESS_REFERENCE is its mess-results/. */
static int have_ref(void)
{
	const char *r = getenv("MESS_REFERENCE");

	if (!r || !*r)
		return 0;
	snprintf(ref, sizeof(ref), "%s/..", r);
	return !access(ref, R_OK);
}

#define NEED_REF() do { if (!have_ref()) { \
	print_message("MESS_REFERENCE unset or missing: skipped\n"); skip(); } } while (0)

static int load(const char *rel, double ghz, struct mess_family *f,
		struct mess_set_info *in, char *err, size_t errlen)
{
	char path[8192];

	memset(f, 0, sizeof(*f));
	snprintf(path, sizeof(path), "%s/%s", ref, rel);
	return mess_set_load(path, ghz, f, in, err, errlen);
}

static double max_bw(const struct mess_family *f)
{
	double mx = 0;

	for (size_t i = 0; i < f->n; i++)
		for (size_t k = 0; k < f->curves[i].n; k++)
			mx = fmax(mx, f->curves[i].pts[k].bw_gbs);
	return mx;
}

/* PROFET's Cascade Lake sets: every curve starts at a negative bandwidth;
 * the frequency is in info.txt's prose ("Frequency: 2.3GHz"). */
static void test_profet_cascade_lake(void **state)
{
	static const char *const sets[] = {
		PROFET_CL,
		"profet/data/bw_lat_curves/cascade_lake__DDR4_2666__upi_remote_socket",
	};
	struct mess_family f;
	struct mess_set_info in;
	char err[1024];

	NEED_REF();
	for (size_t i = 0; i < 2; i++) {
		assert_int_equal(load(sets[i], 0, &f, &in, err, sizeof(err)), 0);
		assert_int_equal(in.kind, MESS_SET_PROFET);
		assert_near(in.cpu_ghz, 2.3, 0.0);
		assert_int_equal(f.n, 51);
		/* one warning: file, line of the first, count */
		assert_non_null(strstr(in.warning, "curves.json:3: 51 rows of negative bandwidth dropped"));
		for (size_t c = 0; c < f.n; c++)
			assert_true(f.curves[c].pts[0].bw_gbs >= 0);
		mess_family_free(&f);
	}
}

/* PROFET's test sets carry no info.txt: --ghz says they are in cycles. */
static void test_profet_test_sets(void **state)
{
	struct mess_family f;
	struct mess_set_info in;
	char err[1024];

	NEED_REF();
	assert_int_equal(load("profet/tests/data/bw_lat_curves/ddr4.json", 0, &f,
			      &in, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "give --ghz"));
	mess_family_free(&f);
	assert_int_equal(load("profet/tests/data/bw_lat_curves/mcdram.json", 2.0,
			      &f, &in, err, sizeof(err)), 0);
	assert_int_equal(in.kind, MESS_SET_PROFET);
	assert_int_equal(f.n, 26);
	assert_string_equal(in.warning, "");
	mess_family_free(&f);
}

static void test_simulator_graviton3(void **state)
{
	struct mess_family f;
	struct mess_set_info in;
	char err[1024];

	NEED_REF();
	assert_int_equal(load("mess-simulator/graviton3-ddr5", 0, &f, &in, err,
			      sizeof(err)), 0);
	assert_int_equal(in.kind, MESS_SET_BWLAT);
	assert_non_null(strstr(in.warning, "bwlat_50.txt:41: 2 rows of negative bandwidth dropped (-1153.8 MB/s here)"));
	assert_true(f.curves[0].pts[0].bw_gbs >= 0);
	mess_family_free(&f);
}

/*
 * Mess-Results' processed JSON is GB/s and ns: never PROFET's MB/s and
 * cycles (it once loaded 1000x too low with --ghz).  The tree root, its
 * processed/ folder, the CSV and the JSON: one family, one scale.
 */
static void test_mess_results_layouts(void **state)
{
	static const char *const paths[] = {
		RAW, RAW "/processed", RAW "/processed/memory_curves.csv",
		RAW "/processed/memory_curves.json",
	};
	struct mess_family f;
	struct mess_set_info in;
	char err[1024];

	NEED_REF();
	for (size_t i = 0; i < 4; i++)
		for (int g = 0; g < 2; g++) {
			assert_int_equal(load(paths[i], g ? 2.0 : 0, &f, &in, err,
					      sizeof(err)), 0);
			assert_int_equal(in.kind, i == 3 ? MESS_SET_MESS_RESULTS_JSON :
					 MESS_SET_MESS_RESULTS);
			assert_string_equal(in.units, "GB/s, ns");
			assert_string_equal(in.label, "MN5-GPP-SPR8480-DDR5-AVX2-local");
			assert_int_equal(in.latency_from_cycles, 0);
			/* measured by Mess, not nominal (issue 35) */
			assert_near(in.cpu_ghz_measured, 2.983511, 1e-9);
			assert_true(isnan(in.cpu_ghz));
			assert_non_null(strstr(in.cpu_ghz_measured_source, "measured"));
			assert_string_equal(in.bw_source, "counters");
			/* 233.5 GB/s, not 0.233 */
			assert_true(max_bw(&f) > 230 && max_bw(&f) < 240);
			assert_true(in.unloaded_ns > 110 && in.unloaded_ns < 120);
			mess_family_free(&f);
		}
}

/*
 * The same JSON copied away from its tree: nothing says GB/s; --ghz would
 * make it PROFET's, and its values (233 "MB/s" at most) are no memory's
 * in MB/s: refused, saying what they look like.
 */
static void test_mess_results_json_alone(void **state)
{
	char dir[] = "/tmp/test_load_eco.XXXXXX", path[4200], cmd[8400], err[1024];
	struct mess_family f = { 0 };
	struct mess_set_info in;

	NEED_REF();
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/memory_curves.json", dir);
	snprintf(cmd, sizeof(cmd), "cp '%s/" RAW "/processed/memory_curves.json' '%s'",
		 ref, path);
	assert_int_equal(system(cmd), 0);
	assert_int_equal(mess_set_load(path, 0, &f, &in, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "nothing beside it"));
	assert_non_null(strstr(err, "give --ghz"));
	mess_family_free(&f);
	memset(&f, 0, sizeof(f));
	assert_int_equal(mess_set_load(path, 2.0, &f, &in, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "below any memory system: the values look like GB/s"));
	mess_family_free(&f);
	unlink(path);
	rmdir(dir);
}

/*
 * Every file and folder under ../shared/reference loads, or is refused
 * with one line (never a crash, never a silent misreading): the curve
 * files load, metadata and raw perf files are named as no curve file.
 */
static size_t n_loaded, n_refused;

static int every(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	struct mess_family f = { 0 };
	struct mess_set_info in;
	char err[2048];
	int rc;

	(void)st;
	(void)ftw;
	if (flag != FTW_F && flag != FTW_D)
		return 0;
	rc = mess_set_load(path, 0, &f, &in, err, sizeof(err));
	mess_family_free(&f);
	if (!rc) {
		n_loaded++;
		return 0;
	}
	if ((rc != -EINVAL && rc != -ENOENT) || !err[0] || strchr(err, '\n')) {
		print_message("%s: %d '%s'\n", path, rc, err);
		return 1;
	}
	n_refused++;
	return 0;
}

static void test_every_file(void **state)
{
	NEED_REF();
	n_loaded = n_refused = 0;
	assert_int_equal(nftw(ref, every, 16, FTW_PHYS), 0);
	print_message("under ../shared/reference: %zu paths load, %zu refused with a line\n",
		      n_loaded, n_refused);
	/* 6 sets x (folder, csv), the raw tree's root, processed/, its csv
	 * and json, 2 PROFET folders and their curves.json, the graviton3
	 * folder and file: 22 at least; PROFET's test sets need --ghz. */
	assert_true(n_loaded >= 22);
	assert_true(n_refused > 4000);
}

/* A raw tree without processed/: read as mess import reads it. */
static void test_raw_tree_alone(void **state)
{
	char dir[] = "/tmp/test_load_eco.XXXXXX", cmd[9000], err[1024];
	struct mess_family f = { 0 };
	struct mess_set_info in;

	NEED_REF();
	assert_non_null(mkdtemp(dir));
	snprintf(cmd, sizeof(cmd), "for x in bw lat plotter.txt; do ln -s '%s/" RAW "'/$x '%s'/$x; done",
		 ref, dir);
	assert_int_equal(system(cmd), 0);
	assert_int_equal(mess_set_load(dir, 0, &f, &in, err, sizeof(err)), 0);
	assert_int_equal(in.kind, MESS_SET_MESS_RAW);
	assert_string_equal(in.bw_source, "counters");
	/* Mess's processing: the 41 rounded read shares its thinning and
	 * check keep (the processed file's 38, and 50, 94 and 97 %) */
	assert_int_equal(f.n, 41);
	/* Both clocks are measured ones; the tree states no nominal. */
	assert_true(isnan(in.cpu_ghz));
	assert_true(fabs(in.cpu_ghz_measured / 2.983511 - 1) < 0.01);
	assert_non_null(strstr(in.cpu_ghz_measured_source, "plotter.txt CPU_FREQ, measured by the Mess benchmark: 2.984 GHz"));
	assert_true(max_bw(&f) > 230 && max_bw(&f) < 240);
	mess_family_free(&f);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	assert_int_equal(system(cmd), 0);
}

/* ---- the raw tree against its own processing ---- */

struct agree {
	double bw_med, bw_max, lat_med, lat_max;
	size_t rows, bw_rows, unmatched, exact;
};

static int cmp_d(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/*
 * Mess groups repetitions by rounded measured read share and pause
 * (processor.py calculate_mean_curves, "perread"): each processed row is
 * the mean of the raw points at its pause whose share rounds to its
 * read_pct_rounded, weighted by their repetitions.  Its lowest-pressure row
 * per share is written at 0.0 GB/s: compared in latency only.
 */
static void agreement(const struct mess_family *raw,
		      const struct mess_family *proc, struct agree *a)
{
	double *db = calloc(4096, sizeof(double)), *dl = calloc(4096, sizeof(double));
	size_t nb = 0, nl = 0;

	assert_non_null(db);
	assert_non_null(dl);
	for (size_t i = 0; i < proc->n; i++)
		for (size_t k = 0; k < proc->curves[i].n; k++) {
			const struct mess_point *q = &proc->curves[i].pts[k];
			double key = proc->curves[i].read_pct, w = 0, bw = 0, lat = 0;

			/* A group whose repetitions round apart from their
			 * point's mean share (near idle, where the share is
			 * noisy): the points within 3 % of it. */
			for (int pass = 0; pass < 2 && !w; pass++)
				for (size_t c = 0; c < raw->n; c++)
					for (size_t j = 0; j < raw->curves[c].n; j++) {
						const struct mess_point *p = &raw->curves[c].pts[j];

						if (p->nop != q->nop || (pass ?
						    fabs(p->read_pct - key) >= 3.0 :
						    round(p->read_pct) != key))
							continue;
						w += p->repeats;
						bw += p->repeats * p->bw_gbs;
						lat += p->repeats * p->lat_ns;
					}
			/* One repetition alone, its share far from its
			 * point's (an idle run: a few thousand CAS a second):
			 * no point stands for it. */
			if (!(w > 0)) {
				a->unmatched++;
				continue;
			}
			assert_true(nl < 4096);
			dl[nl++] = fabs(lat / w - q->lat_ns) / q->lat_ns;
			if (q->bw_gbs > 0)
				db[nb++] = fabs(bw / w - q->bw_gbs) / q->bw_gbs;
		}
	for (size_t i = 0; i < nl; i++)
		a->exact += dl[i] < 1e-9;
	qsort(db, nb, sizeof(double), cmp_d);
	qsort(dl, nl, sizeof(double), cmp_d);
	a->rows = nl;
	a->bw_rows = nb;
	a->bw_med = db[nb / 2];
	a->bw_max = db[nb - 1];
	a->lat_med = dl[nl / 2];
	a->lat_max = dl[nl - 1];
	free(db);
	free(dl);
}

static void test_raw_tree_agrees(void **state)
{
	struct mess_family raw = { 0 }, proc;
	struct mess_set_info in;
	struct mess_raw r;
	struct agree a = { 0 };
	char err[1024], path[8192];

	NEED_REF();
	snprintf(path, sizeof(path), "%s/" RAW, ref);
	/* our processing (mess import --processing per-ratio); Mess's own
	 * grouping is test_messraw.c's */
	assert_int_equal(mess_raw_read_as(path, MESS_RAW_PER_RATIO, &raw, &r, err,
					  sizeof(err)), 0);
	/* 51 read ratios x 42 pauses (13 absent), 3 repetitions each */
	assert_int_equal(raw.n, 51);
	assert_int_equal(r.points, 2129);
	assert_int_equal(r.bw_reps, 3 * 2129);
	assert_int_equal(r.reps_left_out, 0);
	assert_near(r.cpu_ghz, 2.983511, 0);
	assert_near(r.tlb_ns, 2.33921, 0);
	/* The chase's own clock is the plotter's within 1 %. */
	assert_true(fabs(r.ghz_median / r.cpu_ghz - 1) < 0.01);
	assert_int_equal(load(RAW "/processed/memory_curves.csv", 0, &proc, &in,
			      err, sizeof(err)), 0);
	agreement(&raw, &proc, &a);
	print_message("import vs processed/memory_curves.csv over %zu rows (%zu unmatched): bandwidth median %.2g, max %.2g (%zu rows); latency median %.2g, max %.2g\n",
		      a.rows, a.unmatched, a.bw_med, a.bw_max, a.bw_rows, a.lat_med,
		      a.lat_max);
	/* (79 %, pause 200000) is one repetition of bw_76_200000.txt, whose
	 * three shares are 0.69, 0.79 and 0.76. */
	assert_int_equal(a.rows + a.unmatched, 386);
	assert_true(a.unmatched <= 1);
	/* Measured: both medians 0 (the same sums: 348 of 385 rows agree in
	 * latency to 1e-9); the largest, bandwidth 1.6 % and latency 4.1 %,
	 * are groups whose repetitions Mess splits by their own rounded
	 * share while a point here keeps its repetitions together. */
	print_message("latency identical (< 1e-9) in %zu of %zu rows\n", a.exact, a.rows);
	assert_true(a.bw_med < 1e-9);
	assert_true(a.lat_med < 1e-9);
	assert_true(a.exact >= a.rows * 9 / 10);
	assert_true(a.bw_max < 0.03);
	assert_true(a.lat_max < 0.06);
	mess_family_free(&raw);
	mess_family_free(&proc);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_profet_cascade_lake),
		cmocka_unit_test(test_profet_test_sets),
		cmocka_unit_test(test_simulator_graviton3),
		cmocka_unit_test(test_mess_results_layouts),
		cmocka_unit_test(test_mess_results_json_alone),
		cmocka_unit_test(test_every_file),
		cmocka_unit_test(test_raw_tree_alone),
		cmocka_unit_test(test_raw_tree_agrees),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
