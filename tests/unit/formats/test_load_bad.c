// SPDX-License-Identifier: MIT
/*
 * mess_set_load on malformed input: one case per kind of fault, each
 * checked for its return code and for an error line naming the file, the
 * line and what is wrong.
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

/* ---- malformed input: return code, file and line ---- */

static void test_bad_bwlat(void **state)
{
	static const struct {
		const char *text, *line, *what;
	} bad[] = {
		{ "1000 120\n1000.5\n", ":2: ", "expected two numbers 'MB/s ns', got '1000.5'" },
		{ "1000 120\n\n1.0,2.0\n", ":3: ", "got '1.0,2.0'" },
		{ "1000, 120\n", ":1: ", "got '1000, 120'" },
		{ "bandwidth latency\n1000 120\n", ":1: ", "no header" },
		{ "1000 nan\n", ":1: ", "latency is NaN" },
		{ "inf 120\n", ":1: ", "bandwidth is infinite" },
		{ "1000 1e999\n", ":1: ", "latency is infinite" },
		{ "1000 0\n", ":1: ", "latency must be > 0" },
		/* finite, but no memory system's (issue 22: bwlat_100.txt
		 * began "inf") */
		{ "1e308 120\n", ":1: ", "bandwidth beyond any memory system: 1e+308 (at most 1e9 MB/s)" },
		{ "1000 120\n1000 2e9\n", ":2: ", "latency beyond any memory system: 2e+09 (at most 1e9 ns)" },
		{ "1000 120 7\n", ":1: ", "expected two numbers" },
		{ "1000 12O\n", ":1: ", "latency is not a number" },
		{ "", ": ", "empty file" },
		{ "\n  \n", ": ", "empty file" },
	};
	size_t i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		char where[64];

		put("b/bwlat_50.txt", bad[i].text);
		snprintf(where, sizeof(where), "bwlat_50.txt%s", bad[i].line);
		expect_err("b", 0, -EINVAL, where, bad[i].what, NULL);
	}
	/* A NUL byte: not a text file. */
	{
		FILE *fp = fopen(at("b/bwlat_50.txt"), "w");

		assert_non_null(fp);
		fwrite("1000 120\n10\0000 1\n", 1, 16, fp);
		fclose(fp);
		expect_err("b", 0, -EINVAL, "bwlat_50.txt:2: ", "NUL", NULL);
	}
}

static void test_bad_bwlat_names(void **state)
{
	static const char *const names[] = {
		"bwlat_50.5.txt", "bwlat_150.txt", "bwlat_-2.txt", "bwlat_.txt",
		"bwlat_ 5.txt", "bwlat_1e2.txt",
	};
	size_t i;

	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		char rel[64];

		snprintf(rel, sizeof(rel), "b%zu/%s", i, names[i]);
		put(rel, "1000 120\n");
		expect_err(rel, 0, -EINVAL, names[i], "not an integer 0..100", NULL);
		snprintf(rel, sizeof(rel), "b%zu", i);
		expect_err(rel, 0, -EINVAL, names[i], "not an integer 0..100", NULL);
	}
	/* Two files for one read share. */
	put("d/bwlat_50.txt", "1000 120\n");
	put("d/bwlat_050.txt", "1000 120\n");
	expect_err("d", 0, -EINVAL, "read share 50 is also", NULL);
}

static void test_bad_reference(void **state)
{
	static const struct {
		const char *text, *where, *what;
	} bad[] = {
		{ "", "memory_curves.csv: ", "empty file" },
		{ "read_pct_rounded,pause,bandwidth_mean\n50,1,2\n",
		  "memory_curves.csv:1: ", "no column 'latency_mean'" },
		{ "read_pct_rounded,pause,bandwidth_mean,latency_mean\n",
		  "memory_curves.csv: ", "no data row" },
		{ "read_pct_rounded,pause,bandwidth_mean,latency_mean\n50,100,1.0,120\n50,100,1.0\n",
		  "memory_curves.csv:3: ", "3 fields, the header has 4" },
		{ "read_pct_rounded,pause,bandwidth_mean,latency_mean\n50,100,-1.0,120\n",
		  "memory_curves.csv:2: ", "negative bandwidth_mean" },
		{ "read_pct_rounded,pause,bandwidth_mean,latency_mean\n50,100,1.0,nan\n",
		  "memory_curves.csv:2: ", "latency_mean is NaN" },
		{ "read_pct_rounded,pause,bandwidth_mean,latency_mean\n50,100,1e308,120\n",
		  "memory_curves.csv:2: ", "bandwidth_mean beyond any memory system: 1e+308 (at most 1e6 GB/s)" },
		{ "read_pct_rounded,pause,bandwidth_mean,latency_mean,latency_std\n50,100,1.0,120,1e10\n",
		  "memory_curves.csv:2: ", "latency_std beyond any memory system" },
		{ "read_pct_rounded,pause,bandwidth_mean,latency_mean\n150,100,1.0,120\n",
		  "memory_curves.csv:2: ", "read_pct_rounded outside 0..100" },
		{ "read_pct_rounded,pause,bandwidth_mean,latency_mean\n50,100.5,1.0,120\n",
		  "memory_curves.csv:2: ", "pause is not a whole count" },
		{ "read_pct_rounded pause bandwidth_mean latency_mean\n50 100 1.0 120\n",
		  "memory_curves.csv:1: ", "no column 'read_pct_rounded'" },
	};
	size_t i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		put("m/memory_curves.csv", bad[i].text);
		expect_err("m", 0, -EINVAL, bad[i].where, bad[i].what, NULL);
	}
	/* Unsorted rows, empty optional fields: fine. */
	put("m/memory_curves.csv", "read_pct_rounded,pause,bandwidth_mean,latency_mean,latency_std\n"
	    "50,10,9.0,180,\n50,1000,1.0,120,0.5\n");
	put("m/plotter.txt", "CPU_FREQ=\n");
	expect_err("m", 0, -EINVAL, "plotter.txt:1: ", "CPU_FREQ is empty", NULL);
	put("m/plotter.txt", "CPU_FREQ=2.0\n");
	{
		struct mess_family f;
		struct mess_set_info in;
		char err[256];

		assert_int_equal(load("m", 0, &f, &in, err, sizeof(err)), 0);
		assert_int_equal(f.curves[0].pts[0].nop, 1000);
		assert_near(in.cpu_ghz_measured, 2.0, 0.0);
		mess_family_free(&f);
	}
}

static void test_bad_run(void **state)
{
	static const struct {
		const char *text, *where, *what;
	} bad[] = {
		{ "", "curves.csv: ", "empty file" },
		{ MESS_CURVES_CSV_HEADER_V1 "\n", "curves.csv: ", "no measured point" },
		{ "store_pct,read_pct\n" ROW_0, "curves.csv:1: ", "header" },
		{ MESS_CURVES_CSV_HEADER_V1 "\n" ROW_0 "0,99.5,1000,1.5\n",
		  "curves.csv:3: ", "4 fields, expected 10" },
		{ MESS_CURVES_CSV_HEADER_V1 "\n" ROW_0 "x,99.5,1000,1.5,1.5,0,120.5,0.1,3,a\n",
		  "curves.csv:3: ", "store_pct is not an integer" },
		{ MESS_CURVES_CSV_HEADER_V1 "\n0,99.5,1000,1.5,1.5,0,inf,0.1,3,a\n",
		  "curves.csv:2: ", "lat_ns is infinite" },
		{ MESS_CURVES_CSV_HEADER_V1 "\n" ROW_0 "0,99.5,1001,1e308,1.5,0,120.5,0.1,3,a\n",
		  "curves.csv:3: ", "bw_gbs beyond any memory system: 1e+308 (at most 1e6 GB/s)" },
		{ MESS_CURVES_CSV_HEADER_V1 "\n0,99.5,1000,1.5,1.5,0,1e12,0.1,3,a\n",
		  "curves.csv:2: ", "lat_ns beyond any memory system" },
		{ MESS_CURVES_CSV_HEADER_V1 "\n0,99.5,1000,1.5,1.5,2e6,120.5,0.1,3,a\n",
		  "curves.csv:2: ", "write_bw_gbs beyond any memory system" },
	};
	size_t i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		put("run/curves.csv", bad[i].text);
		expect_err("run", 0, -EINVAL, bad[i].where, bad[i].what, NULL);
	}
	write_run();
	put("run/meta.json", "{\"version\": \"0.1.0\",\n \"unloaded_ns\": ,\n}\n");
	expect_err("run", 0, -EINVAL, "meta.json:2: ", "not valid JSON", NULL);
	put("run/meta.json", "[1, 2]\n");
	expect_err("run", 0, -EINVAL, "meta.json:1: ", "expected a JSON object", NULL);
	unlink(at("run/meta.json"));
	put("run/summary.json", "{\n\"unloaded_ns\": 1O0}\n");
	expect_err("run", 0, -EINVAL, "summary.json:2: ", "not valid JSON", NULL);
}

static void test_bad_profet(void **state)
{
	static const struct {
		const char *text, *where, *what;
	} bad[] = {
		{ "", "curves.json: ", "empty file" },
		{ "{\"50\": [[1000, 200]],\n\"60\": [[1000 200]]}\n",
		  "curves.json:2: ", "not valid JSON" },
		{ "{\"50\": [[1000, 200]],\n \"50\": [[2000, 300]]}\n",
		  "curves.json:2: ", "duplicate" },
		{ "{\"50\": [[1000, 200]],\n \"050\": [[2000, 300]]}\n",
		  "curves.json:2: ", "read share 50 appears twice" },
		{ "{\"50\": [[1000, 200]],\n \"50.5\": [[2000, 300]]}\n",
		  "curves.json:2: ", "\"50.5\" is not an integer read percentage" },
		{ "{\"101\": [[1000, 200]]}\n", "curves.json:1: ", "\"101\" is not an integer" },
		{ "{\n \"read\": [[1000, 200]]}\n", "curves.json:2: ", "\"read\" is not an integer" },
		{ "\n[[1000, 200]]\n", "curves.json:2: ", "got another JSON value" },
		{ "{}\n", "curves.json:1: ", "got an empty object" },
		{ "{\"50\":\n  {\"bw\": 1}}\n", "curves.json:1: ", "non-empty list" },
		{ "{\"50\": []}\n", "curves.json:1: ", "non-empty list" },
		{ "{\"40\": [[1, 2]],\n \"50\": [\n  [1000, 200],\n  [1000, 200, 3]\n ]}\n",
		  "curves.json:4: ", "curve \"50\", row 2: expected [MB/s, cycles]" },
		{ "{\"50\": [[1000, 200],\n [\"a\", 200]]}\n",
		  "curves.json:2: ", "row 2: expected [MB/s, cycles]" },
		{ "{\"50\": [[1000, 200], 7,\n [-1000, 200]]}\n",
		  "curves.json:1: ", "row 2: expected" },
		{ "{\"50\": [[1000, 200],\n [1000, 0]]}\n",
		  "curves.json:2: ", "latency must be > 0 cycles" },
		{ "{\"50\": [[1000, 200],\n [1e308, 200]]}\n",
		  "curves.json:2: ", "row 2: bandwidth beyond any memory system (at most 1e9 MB/s)" },
		{ "{\"50\": [[1000, 200],\n [1000, 1e300]]}\n",
		  "curves.json:2: ", "row 2: latency beyond any memory system" },
		{ "{\"50\": [[1000, 1e999]]}\n", "curves.json:1: ", "not valid JSON" },
		{ "{\"50\": [[1000, NaN]]}\n", "curves.json:1: ", "not valid JSON" },
		/* every row dropped as negative: said so, not "empty" */
		{ "{\"50\": [[1000, 200]],\n \"60\": [[-1000, 200], [-5, 210]]}\n",
		  "curves.json:2: ", "curve \"60\": every row (2) has a negative bandwidth" },
	};
	size_t i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		put("p/curves.json", bad[i].text);
		expect_err("p/curves.json", 2.0, -EINVAL, bad[i].where, bad[i].what,
			   NULL);
	}
	/* Rows of negative bandwidth (PROFET's Cascade Lake sets start every
	 * curve with one) are dropped, said once: file, line, count. */
	put("p/curves.json", "{\"50\": [[1000, 200],\n [-0.5, 200]],\n"
	    " \"60\": [[-1000, 200], [2000, 210]]}\n");
	{
		struct mess_family f;
		struct mess_set_info in;
		char err[256];

		assert_int_equal(load("p/curves.json", 2.0, &f, &in, err, sizeof(err)), 0);
		assert_int_equal(f.n, 2);
		assert_int_equal(f.curves[0].n, 1);
		assert_int_equal(f.curves[1].n, 1);
		assert_non_null(strstr(in.warning, "curves.json:2: 2 rows of negative bandwidth dropped (-0.5 MB/s here)"));
		mess_family_free(&f);
		put("b/bwlat_50.txt", "1000 120\n-5 120\n");
		assert_int_equal(load("b", 0, &f, &in, err, sizeof(err)), 0);
		assert_int_equal(f.curves[0].n, 1);
		assert_non_null(strstr(in.warning, "bwlat_50.txt:2: 1 row of negative bandwidth dropped"));
		mess_family_free(&f);
		/* Nothing but such rows: nothing to load. */
		put("b/bwlat_50.txt", "-5 120\n-7 130\n");
		expect_err("b", 0, -EINVAL, "bwlat_50.txt: ",
			   "every row (2) has a negative bandwidth", NULL);
	}
	/* Unsorted rows and missing read shares are fine. */
	put("p/curves.json", "{\"7\": [[5000, 300], [10, 200], [2000, 250]]}");
	{
		struct mess_family f;
		struct mess_set_info in;
		char err[256];

		assert_int_equal(load("p", 2.0, &f, &in, err, sizeof(err)), 0);
		assert_int_equal(f.n, 1);
		assert_near(f.curves[0].read_pct, 7.0, 0.0);
		assert_near(f.curves[0].pts[0].bw_gbs, 0.01, 1e-12);
		assert_near(f.curves[0].pts[2].lat_ns, 150.0, 1e-12);
		mess_family_free(&f);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
#define T(t) cmocka_unit_test_setup_teardown(t, setup, teardown)
		T(test_bad_bwlat),
		T(test_bad_bwlat_names),
		T(test_bad_reference),
		T(test_bad_run),
		T(test_bad_profet),
#undef T
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
