// SPDX-License-Identifier: MIT
/*
 * mess_set_load on good input: every layout on the public sets and on
 * small files written here, the detection order, PROFET's cycles and
 * curve-sources.tsv (the malformed cases are in test_load_bad.c).
 */
#define _XOPEN_SOURCE 700
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "mess/curve.h"
#include "mess/load.h"
#include "mess/messfmt.h"

#include "near.h"
#include "load_util.h"

/* ---- the public sets ---- */

static const struct {
	const char *dir;
	size_t curves;
	double read0;		/* the lowest read share */
	double lat0;		/* its lowest-pressure row */
	double bw1;		/* the next row's bandwidth */
	double ghz;		/* CPU_FREQ of plotter.txt, NAN: none */
} sets[] = {
	{ "CTE-AMD-EPYC7742-DDR4", 46, 0.0, 120.46792502170139,
	  43.67291242666667, NAN },
	{ "Grace-LPDDR5", 45, 50.0, 176.56243500434027, 125.61801293385827,
	  3.293708 },
	{ "MN5-GPP-SPR8480-DDR5", 33, 57.0, 114.98924599967292,
	  25.719922986666663, 2.976174 },
	{ "MN5-HBM-XeonMax9480-HBM2", 28, 50.0, 128.88847913043483,
	  124.58557610666668, 2.185689 },
};

static void test_reference_sets(void **state)
{
	const char *ref = getenv("MESS_REFERENCE");
	size_t i;

	if (!ref || !*ref || access(ref, R_OK)) {
		print_message("MESS_REFERENCE unset or missing: skipped\n");
		skip();
	}
	for (i = 0; i < sizeof(sets) / sizeof(sets[0]); i++) {
		char path[2][4096], err[512];
		int k;

		snprintf(path[0], sizeof(path[0]), "%s/%s", ref, sets[i].dir);
		snprintf(path[1], sizeof(path[1]), "%s/%s/memory_curves.csv",
			 ref, sets[i].dir);
		/* The directory and the file itself. */
		for (k = 0; k < 2; k++) {
			struct mess_family f = { 0 };
			struct mess_set_info in;
			const struct mess_curve *c;

			assert_int_equal(mess_set_load(path[k], 0, &f, &in, err,
						       sizeof(err)), 0);
			assert_int_equal(in.kind, MESS_SET_MESS_RESULTS);
			assert_string_equal(in.kind_name, "mess-results");
			assert_string_equal(in.label, sets[i].dir);
			assert_string_equal(in.path, path[1]);
			assert_string_equal(in.bw_source, "counters");
			assert_int_equal(f.n, sets[i].curves);
			c = &f.curves[0];
			assert_near(c->read_pct, sets[i].read0, 0.0);
			assert_near(c->pts[0].bw_gbs, 0.0, 0.0);
			assert_near(c->pts[0].lat_ns, sets[i].lat0, 1e-9);
			assert_near(c->pts[1].bw_gbs, sets[i].bw1, 1e-9);
			/* plotter.txt's CPU_FREQ is the clock Mess
			 * measured, never a nominal one (issue 35). */
			assert_true(isnan(in.cpu_ghz));
			if (isnan(sets[i].ghz))
				assert_true(isnan(in.cpu_ghz_measured));
			else
				assert_near(in.cpu_ghz_measured, sets[i].ghz, 1e-9);
			assert_int_equal(in.latency_from_cycles, 0);
			/* No chase-only run: the near-idle points, at most
			 * the first row's latency. */
			assert_string_equal(in.unloaded_source,
					    "lowest-bandwidth points");
			assert_true(in.unloaded_ns <= sets[i].lat0);
			assert_near(f.unloaded_ns, in.unloaded_ns, 0.0);
			assert_int_equal(in.cores, -1);
			assert_int_equal(in.complete, -1);
			mess_family_free(&f);
		}
	}
}

/* ---- a run directory ---- */


static void test_run_meta(void **state)
{
	struct mess_family f;
	struct mess_set_info in;
	char err[512];

	write_run();
	put("run/meta.json",
	    "{\"version\": \"0.1.0\", \"git_revision\": \"abc123\",\n"
	    " \"cpu_model\": \"Test CPU\", \"cores\": {\"generators\": [1, 2, 3]},\n"
	    " \"huge_pages\": \"thp\", \"bw_source\": \"accounted\",\n"
	    " \"chase\": {\"stride_bytes\": 256, \"window_bytes\": 262144},\n"
	    " \"unloaded_ns\": 110.25, \"complete\": false,\n"
	    " \"cpu_frequency\": {\"nominal_ghz\": 2.1, \"measured_ghz\": null}}\n");
	put("run/summary.json", "{\"unloaded_ns\": 999.0}\n");
	assert_int_equal(load("run", 0, &f, &in, err, sizeof(err)), 0);
	assert_int_equal(in.kind, MESS_SET_RUN);
	assert_string_equal(in.kind_name, "run");
	assert_string_equal(in.label, "run");
	assert_non_null(strstr(in.path, "run/curves.csv"));
	assert_int_equal(f.n, 2);
	assert_int_equal(f.curves[0].store_pct, 0);
	assert_int_equal(f.curves[0].n, 2);
	assert_int_equal(f.curves[1].store_pct, 50);
	assert_near(f.curves[0].pts[0].lat_ns, 120.5, 0.0);
	/* meta.json wins over summary.json. */
	assert_near(in.unloaded_ns, 110.25, 0.0);
	assert_near(f.unloaded_ns, 110.25, 0.0);
	assert_string_equal(in.unloaded_source, "chase-only run");
	assert_string_equal(in.tool, "mess 0.1.0 (git abc123)");
	assert_string_equal(in.cpu_model, "Test CPU");
	assert_string_equal(in.huge_pages, "thp");
	assert_string_equal(in.bw_source, "accounted");
	assert_int_equal(in.cores, 3);
	assert_near(in.stride_bytes, 256, 0.0);
	assert_near(in.window_bytes, 262144, 0.0);
	assert_int_equal(in.complete, 0);
	assert_near(in.cpu_ghz, 2.1, 0.0);
	assert_true(isnan(in.cpu_ghz_measured));
	assert_int_equal(in.latency_from_cycles, 0);
	mess_family_free(&f);

	/* The file itself, with a trailing slash on nothing. */
	assert_int_equal(load("run/curves.csv", 0, &f, &in, err, sizeof(err)), 0);
	assert_int_equal(in.kind, MESS_SET_RUN);
	assert_string_equal(in.label, "run");
	assert_near(in.unloaded_ns, 110.25, 0.0);
	mess_family_free(&f);
}

static void test_run_fallbacks(void **state)
{
	struct mess_family f;
	struct mess_set_info in;
	char err[512];

	write_run();
	/* Without meta.json: summary.json's chase-only latency. */
	put("run/summary.json", "{\"unloaded_ns\": 115.5}\n");
	assert_int_equal(load("run/", 0, &f, &in, err, sizeof(err)), 0);
	assert_near(in.unloaded_ns, 115.5, 0.0);
	assert_string_equal(in.unloaded_source, "chase-only run");
	assert_int_equal(in.cores, -1);
	assert_int_equal(in.complete, -1);
	assert_true(isnan(in.cpu_ghz));
	assert_string_equal(in.tool, "");
	mess_family_free(&f);

	/* meta.json of a run that has no chase-only figure yet (null). */
	put("run/meta.json", "{\"unloaded_ns\": null, \"complete\": true}\n");
	assert_int_equal(load("run", 0, &f, &in, err, sizeof(err)), 0);
	assert_near(in.unloaded_ns, 115.5, 0.0);
	assert_int_equal(in.complete, 1);
	mess_family_free(&f);

	/* Neither: the near-idle points (bandwidth <= 2% of 100.25). */
	unlink(at("run/summary.json"));
	unlink(at("run/meta.json"));
	assert_int_equal(load("run", 0, &f, &in, err, sizeof(err)), 0);
	assert_near(in.unloaded_ns, 120.5, 0.0);
	assert_near(f.unloaded_ns, 120.5, 0.0);
	assert_string_equal(in.unloaded_source, "lowest-bandwidth points");
	mess_family_free(&f);
}

/* ---- bwlat directories ---- */

static void test_bwlat_dir(void **state)
{
	struct mess_family f;
	struct mess_set_info in;
	char err[512];

	/* Rows unsorted, read shares missing: both fine. */
	put("b/bwlat_50.txt", "5000 130\n100 101.5\n\n20000.5 250\n");
	put("b/bwlat_0.txt", "3000 140\n");
	put("b/notes.txt", "not a curve\n");
	assert_int_equal(load("b", 0, &f, &in, err, sizeof(err)), 0);
	assert_int_equal(in.kind, MESS_SET_BWLAT);
	assert_string_equal(in.kind_name, "bwlat");
	assert_string_equal(in.label, "b");
	assert_int_equal(in.skipped_filled, 0);
	assert_int_equal(f.n, 2);
	assert_near(f.curves[0].read_pct, 0.0, 0.0);
	assert_int_equal(f.curves[0].store_pct, MESS_STORE_PCT_UNKNOWN);
	assert_near(f.curves[1].read_pct, 50.0, 0.0);
	assert_int_equal(f.curves[1].n, 3);
	/* MB/s to GB/s, by increasing bandwidth. */
	assert_near(f.curves[1].pts[0].bw_gbs, 0.1, 1e-12);
	assert_near(f.curves[1].pts[0].lat_ns, 101.5, 0.0);
	assert_near(f.curves[1].pts[1].bw_gbs, 5.0, 1e-12);
	assert_near(f.curves[1].pts[2].bw_gbs, 20.0005, 1e-12);
	assert_near(f.curves[1].pts[2].lat_ns, 250.0, 0.0);
	assert_near(in.unloaded_ns, 101.5, 0.0);
	assert_string_equal(in.unloaded_source, "lowest-bandwidth points");
	mess_family_free(&f);

	/* One file alone. */
	assert_int_equal(load("b/bwlat_0.txt", 0, &f, &in, err, sizeof(err)), 0);
	assert_int_equal(in.kind, MESS_SET_BWLAT);
	assert_int_equal(f.n, 1);
	assert_near(f.curves[0].pts[0].bw_gbs, 3.0, 1e-12);
	mess_family_free(&f);
}

static void test_bwlat_sources(void **state)
{
	struct mess_family f;
	struct mess_set_info in;
	char err[512];

	put("b/bwlat_0.txt", "3000 140\n");
	put("b/bwlat_2.txt", "3100 141\n");
	put("b/bwlat_50.txt", "5000 130\n");
	put("b/bwlat_100.txt", "6000 131\n");
	put("b/curve-sources.tsv", "file\tread_pct\tsource\tfrom\n"
	    "bwlat_0.txt\t0\textrapolated\tbwlat_50.txt\n"
	    "bwlat_2.txt\t2\tinterpolated\tbwlat_0.txt bwlat_50.txt\n"
	    "bwlat_50.txt\t50\tmeasured\t\n"
	    "bwlat_98.txt\t98\tinterpolated\tgone\n");
	assert_int_equal(load("b", 0, &f, &in, err, sizeof(err)), 0);
	/* bwlat_100.txt is not listed: loaded as a plain bwlat file. */
	assert_int_equal(f.n, 2);
	assert_near(f.curves[0].read_pct, 50.0, 0.0);
	assert_near(f.curves[1].read_pct, 100.0, 0.0);
	assert_int_equal(in.skipped_filled, 2);
	mess_family_free(&f);

	/* Nothing measured left. */
	unlink(at("b/bwlat_50.txt"));
	unlink(at("b/bwlat_100.txt"));
	expect_err("b", 0, -EINVAL, "/b: ", "all 2 bwlat files are filled in", NULL);
	/* A source not in the list. */
	put("b/curve-sources.tsv", "file\tread_pct\tsource\tfrom\n"
	    "bwlat_0.txt\t0\tguessed\t\n");
	expect_err("b", 0, -EINVAL, "curve-sources.tsv:2: ", "guessed", NULL);
	put("b/curve-sources.tsv", "file read_pct source from\n");
	expect_err("b", 0, -EINVAL, "curve-sources.tsv:1: ", "header", NULL);
	put("b/curve-sources.tsv", "file\tread_pct\tsource\tfrom\nbwlat_0.txt\t0\n");
	expect_err("b", 0, -EINVAL, "curve-sources.tsv:2: ", "4 tab-separated", NULL);
}

/* ---- PROFET ---- */

static void test_profet(void **state)
{
	struct mess_family f;
	struct mess_set_info in;
	char err[512];
	const struct mess_curve *c;

	put("p/curves.json", "{\"100\": [[20000, 400], [1000, 200]],\n"
	    " \"0\": [[3000, 250.5]]}\n");
	assert_int_equal(load("p/curves.json", 2.0, &f, &in, err, sizeof(err)), 0);
	assert_int_equal(in.kind, MESS_SET_PROFET);
	assert_string_equal(in.kind_name, "profet");
	assert_string_equal(in.label, "p");
	assert_int_equal(in.latency_from_cycles, 1);
	assert_near(in.cpu_ghz, 2.0, 0.0);
	assert_string_equal(in.tool, "PROFET");
	assert_int_equal(f.n, 2);
	c = &f.curves[0];
	assert_near(c->read_pct, 0.0, 0.0);
	assert_near(c->pts[0].bw_gbs, 3.0, 1e-12);
	assert_near(c->pts[0].lat_ns, 250.5 / 2.0, 1e-12);
	c = &f.curves[1];
	assert_near(c->read_pct, 100.0, 0.0);
	assert_int_equal(c->n, 2);
	/* By increasing bandwidth; ns = cycles / GHz. */
	assert_near(c->pts[0].bw_gbs, 1.0, 1e-12);
	assert_near(c->pts[0].lat_ns, 100.0, 1e-12);
	assert_near(c->pts[1].bw_gbs, 20.0, 1e-12);
	assert_near(c->pts[1].lat_ns, 200.0, 1e-12);
	mess_family_free(&f);

	/* The directory: nothing says which units, --ghz settles it. */
	expect_err("p", 0, -EINVAL, "curves.json: ", "give --ghz", NULL);
	/* A Mess plotter.txt beside it: Mess-Results' processed JSON, in
	 * GB/s and ns, never PROFET's MB/s and cycles (issue 23). */
	put("p/plotter.txt", "MEM_FREQ=3200 MT/s\nCPU_FREQ=4.0\n");
	assert_int_equal(load("p", 0, &f, &in, err, sizeof(err)), 0);
	assert_int_equal(in.kind, MESS_SET_MESS_RESULTS_JSON);
	assert_string_equal(in.units, "GB/s, ns");
	assert_near(f.curves[0].pts[0].bw_gbs, 3000.0, 1e-9);
	assert_near(f.curves[0].pts[0].lat_ns, 250.5, 1e-12);
	mess_family_free(&f);
	/* ... also with --ghz, which says nothing of GB/s. */
	assert_int_equal(load("p", 2.0, &f, &in, err, sizeof(err)), 0);
	assert_int_equal(in.kind, MESS_SET_MESS_RESULTS_JSON);
	mess_family_free(&f);
	/* plotter.txt and a PROFET info.txt: the metadata contradicts itself. */
	put("p/info.txt", "FORMAT=profet\nCPU_FREQ=2.5\n");
	expect_err("p", 0, -EINVAL, "curves.json: ", "metadata contradicts itself", NULL);
	unlink(at("p/plotter.txt"));
	put("p/info.txt", "CPU_FREQ = 2.5\n");
	assert_int_equal(load("p", 0, &f, &in, err, sizeof(err)), 0);
	assert_near(in.cpu_ghz, 2.5, 0.0);
	mess_family_free(&f);
	/* The argument overrides both. */
	assert_int_equal(load("p", 1.25, &f, &in, err, sizeof(err)), 0);
	assert_near(in.cpu_ghz, 1.25, 0.0);
	assert_near(f.curves[1].pts[0].lat_ns, 160.0, 1e-12);
	mess_family_free(&f);
	put("p/info.txt", "CPU_FREQ=fast\n");
	expect_err("p", 0, -EINVAL, "info.txt:1: ", "CPU_FREQ", NULL);
	expect_err("p", -1.0, -EINVAL, "CPU frequency", NULL);
}

/* ---- detection ---- */

static void test_detection(void **state)
{
	struct mess_family f;
	struct mess_set_info in;
	char err[512];

	write_run();
	put("run/memory_curves.csv",
	    "read_pct_rounded,pause,bandwidth_mean,latency_mean\n50,100,1.0,120\n");
	put("run/bwlat_50.txt", "1000 120\n");
	put("run/x.json", "{\"50\": [[1000, 240]]}\n");
	/* curves.csv > memory_curves.csv > bwlat files > one json. */
	assert_int_equal(load("run", 0, &f, &in, err, sizeof(err)), 0);
	assert_int_equal(in.kind, MESS_SET_RUN);
	mess_family_free(&f);
	unlink(at("run/curves.csv"));
	assert_int_equal(load("run", 0, &f, &in, err, sizeof(err)), 0);
	assert_int_equal(in.kind, MESS_SET_MESS_RESULTS);
	assert_string_equal(in.tool, "Mess-Results");
	mess_family_free(&f);
	unlink(at("run/memory_curves.csv"));
	assert_int_equal(load("run", 0, &f, &in, err, sizeof(err)), 0);
	assert_int_equal(in.kind, MESS_SET_BWLAT);
	mess_family_free(&f);
	unlink(at("run/bwlat_50.txt"));
	assert_int_equal(load("run", 2.0, &f, &in, err, sizeof(err)), 0);
	assert_int_equal(in.kind, MESS_SET_PROFET);
	assert_near(f.curves[0].pts[0].lat_ns, 120.0, 0.0);
	mess_family_free(&f);
	/* Several JSON files: which is PROFET's?  Named in the error. */
	put("run/meta.json", "{}\n");
	expect_err("run", 2.0, -EINVAL, "/run: 2 .json files", "x.json",
		   "meta.json", NULL);
	/* A .csv named otherwise: by its header. */
	put("other/mine.csv", MESS_CURVES_CSV_HEADER_V1 "\n" ROW_0);
	assert_int_equal(load("other/mine.csv", 0, &f, &in, err, sizeof(err)), 0);
	assert_int_equal(in.kind, MESS_SET_RUN);
	mess_family_free(&f);
	put("other/ref.csv", "read_pct_rounded,pause,bandwidth_mean,latency_mean\n"
	    "50,100,1.0,120\n");
	assert_int_equal(load("other/ref.csv", 0, &f, &in, err, sizeof(err)), 0);
	assert_int_equal(in.kind, MESS_SET_MESS_RESULTS);
	mess_family_free(&f);
	expect_err("other/notes.txt", 0, -ENOENT, "notes.txt: No such file", NULL);
	put("other/notes.txt", "hello\n");
	expect_err("other/notes.txt", 0, -EINVAL, "notes.txt: not a curve file", NULL);
}

static void test_nothing_here(void **state)
{
	/* An empty directory, then one with only unrelated files. */
	expect_err(NULL, 0, -ENOENT, tmp, "curves.csv", "memory_curves.csv",
		   "bwlat_<R>.txt", ".json", NULL);
	put("README", "hello\n");
	put("data.txt", "1 2\n");
	put("bwlat_50.txt.orig", "1 2\n");
	mkdir(at("bwlat_60.txt"), 0777);
	expect_err(NULL, 0, -ENOENT, tmp, "looked for", NULL);
	expect_err("nope", 0, -ENOENT, "nope: ", NULL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
#define T(t) cmocka_unit_test_setup_teardown(t, setup, teardown)
		T(test_reference_sets),
		T(test_run_meta),
		T(test_run_fallbacks),
		T(test_bwlat_dir),
		T(test_bwlat_sources),
		T(test_profet),
		T(test_detection),
		T(test_nothing_here),
#undef T
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
