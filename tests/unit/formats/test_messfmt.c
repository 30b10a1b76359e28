// SPDX-License-Identifier: MIT
/*
 * Curve files: Mess simulator export round trip, curves.csv round trip,
 * reader error handling, and the public reference reader.
 */
#define _XOPEN_SOURCE 700
#include <dirent.h>
#include <errno.h>
#include <ftw.h>
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
#include "mess/messfmt.h"
#include "mess/quality.h"

/* Export prints 6 decimals of MB/s and of ns. */
#define BW_EPS 1e-6	/* GB/s */
#define LAT_EPS 1e-6	/* ns */

#include "near.h"

static int rm_entry(const char *path, const struct stat *sb, int flag,
		    struct FTW *ftw)
{
	return remove(path);
}

static void rm_tree(const char *dir)
{
	nftw(dir, rm_entry, 8, FTW_DEPTH | FTW_PHYS);
}

static char *make_tmpdir(void)
{
	char tmpl[] = "/tmp/test_messfmt.XXXXXX";
	char *d = mkdtemp(tmpl);

	assert_non_null(d);
	return strdup(d);
}

static void add(struct mess_curve *c, uint64_t nop, double bw, double lat)
{
	struct mess_point p = {
		.store_pct = c->store_pct,
		.read_pct = c->read_pct,
		.nop = nop,
		.bw_gbs = bw,
		.read_bw_gbs = bw * c->read_pct / 100.0,
		.write_bw_gbs = bw * (100.0 - c->read_pct) / 100.0,
		.lat_ns = lat,
		.lat_ns_std = 0.5,
		.repeats = 3,
		/* a counted point: its accounted twin 10 % lower */
		.acc_read_bw_gbs = 0.9 * bw * c->read_pct / 100.0,
		.acc_write_bw_gbs = 0.9 * bw * (100.0 - c->read_pct) / 100.0,
		.lat_nowalk_ns = lat - 7.25,
		.counter_run_frac = 0.5,
		/* the trust columns (schema 3) */
		.bw_gbs_std = 0.125 * (double)(nop % 3), .disturbed = (double)(nop % 4),
		.disturbed_kept = (double)(nop % 2), .lost_pct = 0.375,
		.steal_ms = 10, .invol_switches = 2, .migrations = 0,
		.ghz_min = 3.1, .ghz_max = 3.25, .remeasured = (uint32_t)(nop % 3),
		.flags = nop % 5 ? 0 : MESS_QF(MESS_QR_STALL) | MESS_QF(MESS_QR_SPREAD),
		/* the distribution and fairness columns (schema 4) */
		.lat_p50_ns = lat - 1.5, .lat_p90_ns = lat + 2.25,
		.lat_p99_ns = lat + 40.125, .lat_p999_ns = lat + 300.5,
		.lat_max_ns = lat + 1000.75, .dist_mean_diff_pct = -1.25,
		.fair_min = 0.875, .fair_median = 1.0, .fair_max = 1.125,
		.fair_jain = 0.9925,
		/* the window's cost and preemptions (schema 5) */
		.dist_cost_ns = 27.125, .dist_preempted = (double)(nop % 7),
		/* the window's L2 cluster (schema 6) */
		.dist_l2_share_pct = 0.0125, .dist_l2_ns = nop % 2 ? 3.375 : NAN,
	};

	assert_int_equal(mess_curve_add(c, &p), 0);
}

/*
 * Five measured curves, two of them (read 70.6% and 69.7%) on R = 70:
 * 69.7 is closer and must win.  Values carry many decimals to check the
 * printed precision; curve store 0 has a wave, so bandwidth order differs
 * from pressure order.
 */
static void make_family(struct mess_family *f)
{
	static const struct {
		uint32_t store;
		double read;
	} cv[] = { { 0, 99.2 }, { 10, 89.9 }, { 30, 70.6 }, { 40, 69.7 },
		   { 60, 50.0 } };
	size_t i;
	int k;

	memset(f, 0, sizeof(*f));
	for (i = 0; i < sizeof(cv) / sizeof(cv[0]); i++) {
		struct mess_curve *c = mess_family_curve(f, cv[i].store,
							 cv[i].read);

		assert_non_null(c);
		/* added in pressure order, so the csv test can compare 1:1 */
		for (k = 0; k < 7; k++)
			add(c, 4000 >> k, 31.123456789 * k + i + 0.5,
			    100.987654321 + 17.3 * k * k + i);
		if (i == 0) {
			/* nop 10 falls to less than nop 31's bandwidth */
			add(c, 10, 150.000001, 999.25);
		}
	}
	/* An empty curve exports nothing and says so. */
	assert_non_null(mess_family_curve(f, 100, 1.0));
}

static void write_text(const char *path, const char *text)
{
	FILE *fp = fopen(path, "w");

	assert_non_null(fp);
	fputs(text, fp);
	assert_int_equal(fclose(fp), 0);
}

static void test_export_read_rejects(void **state)
{
	static const char *const bad[] = {
		"1000.5 120.2\n123 abc\n",
		"1000.5 120.2 7\n",
		"1000.5\n",
		"1000.5,120.2\n",
		"nan 120\n",
		"-5 120\n",
	};
	char *dir = make_tmpdir();
	char path[512];
	struct mess_curve c = { .read_pct = 12.0 };
	size_t i;

	snprintf(path, sizeof(path), "%s/curve.txt", dir);
	/* Blank lines and CRLF are fine. */
	write_text(path, "2000.000001 150.5\r\n\n1000 120\n   \n");
	assert_int_equal(mess_export_read(path, &c, NULL, NULL, 0), 0);
	assert_int_equal(c.n, 2);
	assert_near(c.read_pct, 12.0, 0.0);
	assert_near(c.pts[0].bw_gbs, 2.000000001, 1e-12);
	assert_near(c.pts[1].lat_ns, 120.0, 0.0);

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		write_text(path, bad[i]);
		assert_int_equal(mess_export_read(path, &c, NULL, NULL, 0), -EINVAL);
		/* Nothing of a rejected file is kept. */
		assert_int_equal(c.n, 2);
	}
	snprintf(path, sizeof(path), "%s/missing.txt", dir);
	assert_int_equal(mess_export_read(path, &c, NULL, NULL, 0), -ENOENT);
	mess_curve_free(&c);
	rm_tree(dir);
	free(dir);
}

static void test_curves_csv_roundtrip(void **state)
{
	struct mess_family f, g = { 0 };
	char *dir = make_tmpdir();
	char path[512];
	struct mess_point odd;
	size_t i, j;
	FILE *fp;

	make_family(&f);
	snprintf(path, sizeof(path), "%s/curves.csv", dir);
	fp = fopen(path, "w");
	assert_non_null(fp);
	assert_int_equal(mess_curves_csv_write_header(fp), 0);
	/* Rows interleaved across curves, as a sweep might measure them. */
	for (j = 0; j < 8; j++)
		for (i = f.n; i-- > 0;)
			if (j < f.curves[i].n)
				assert_int_equal(mess_curves_csv_write_row(fp,
					&f.curves[i].pts[j], "counters"), 0);
	/* A point without a latency spread and with a drifting read share. */
	odd = f.curves[1].pts[0];
	odd.nop = 1;
	odd.read_pct = 95.0;
	odd.lat_ns_std = NAN;
	odd.lat_nowalk_ns = NAN;
	odd.counter_run_frac = NAN;
	odd.migrations = NAN;
	odd.ghz_min = NAN;
	odd.lat_p99_ns = NAN;
	odd.fair_jain = NAN;
	assert_int_equal(mess_curves_csv_write_row(fp, &odd, NULL), 0);
	assert_int_equal(mess_curves_csv_write_row(fp, &odd, "a,b"), -EINVAL);
	odd.store_pct = MESS_STORE_PCT_UNKNOWN;
	assert_int_equal(mess_curves_csv_write_row(fp, &odd, "x"), -EINVAL);
	assert_int_equal(fclose(fp), 0);

	assert_int_equal(mess_curves_csv_read(path, &g, NULL, 0), 0);
	/* The empty curve wrote no rows, so it does not come back. */
	assert_int_equal(g.n, 5);
	for (i = 0; i < g.n; i++) {
		const struct mess_curve *a = &f.curves[i], *b = &g.curves[i];
		size_t n = a->n;

		assert_int_equal(b->store_pct, a->store_pct);
		if (i == 1) {
			/* median of 7 x 89.9 and one 95.0 */
			assert_near(b->read_pct, 89.9, 1e-9);
			n++;
		} else {
			assert_near(b->read_pct, a->read_pct, 1e-9);
		}
		assert_int_equal(b->n, n);
		for (j = 0; j < a->n; j++) {
			const struct mess_point *p = &a->pts[j], *q = &b->pts[j];

			assert_int_equal(q->nop, p->nop);
			assert_int_equal(q->store_pct, p->store_pct);
			assert_int_equal(q->repeats, p->repeats);
			assert_near(q->read_pct, p->read_pct, 1e-4);
			assert_near(q->bw_gbs, p->bw_gbs, 1e-6);
			assert_near(q->read_bw_gbs, p->read_bw_gbs, 1e-6);
			assert_near(q->write_bw_gbs, p->write_bw_gbs, 1e-6);
			assert_near(q->lat_ns, p->lat_ns, 1e-4);
			assert_near(q->lat_ns_std, p->lat_ns_std, 1e-4);
			assert_near(q->acc_read_bw_gbs, p->acc_read_bw_gbs, 1e-6);
			assert_near(q->acc_write_bw_gbs, p->acc_write_bw_gbs, 1e-6);
			assert_near(q->lat_nowalk_ns, p->lat_nowalk_ns, 1e-4);
			assert_near(q->counter_run_frac, p->counter_run_frac, 1e-4);
			assert_near(q->bw_gbs_std, p->bw_gbs_std, 1e-6);
			assert_near(q->disturbed, p->disturbed, 0);
			assert_near(q->disturbed_kept, p->disturbed_kept, 0);
			assert_near(q->lost_pct, p->lost_pct, 1e-3);
			assert_near(q->steal_ms, p->steal_ms, 0.05);
			assert_near(q->invol_switches, p->invol_switches, 0);
			assert_near(q->migrations, p->migrations, 0);
			assert_near(q->ghz_min, p->ghz_min, 1e-4);
			assert_near(q->ghz_max, p->ghz_max, 1e-4);
			assert_int_equal(q->remeasured, p->remeasured);
			assert_int_equal(q->flags, p->flags);
			assert_near(q->lat_p50_ns, p->lat_p50_ns, 1e-4);
			assert_near(q->lat_p90_ns, p->lat_p90_ns, 1e-4);
			assert_near(q->lat_p99_ns, p->lat_p99_ns, 1e-4);
			assert_near(q->lat_p999_ns, p->lat_p999_ns, 1e-4);
			assert_near(q->lat_max_ns, p->lat_max_ns, 1e-4);
			assert_near(q->dist_mean_diff_pct, p->dist_mean_diff_pct, 1e-3);
			assert_near(q->fair_min, p->fair_min, 1e-4);
			assert_near(q->fair_median, p->fair_median, 1e-4);
			assert_near(q->fair_max, p->fair_max, 1e-4);
			assert_near(q->fair_jain, p->fair_jain, 1e-4);
			assert_near(q->dist_cost_ns, p->dist_cost_ns, 1e-3);
			assert_near(q->dist_preempted, p->dist_preempted, 0);
			assert_near(q->dist_l2_share_pct, p->dist_l2_share_pct, 1e-4);
			if (isnan(p->dist_l2_ns))
				assert_true(isnan(q->dist_l2_ns));
			else
				assert_near(q->dist_l2_ns, p->dist_l2_ns, 1e-3);
		}
		for (j = 1; j < b->n; j++)
			assert_true(b->pts[j - 1].nop >= b->pts[j].nop);
	}
	assert_int_equal(g.curves[1].pts[g.curves[1].n - 1].nop, 1);
	assert_true(isnan(g.curves[1].pts[g.curves[1].n - 1].lat_ns_std));
	/* Not measured stays not measured: empty fields, read as NAN. */
	assert_true(isnan(g.curves[1].pts[g.curves[1].n - 1].lat_nowalk_ns));
	assert_true(isnan(g.curves[1].pts[g.curves[1].n - 1].counter_run_frac));
	assert_true(isnan(g.curves[1].pts[g.curves[1].n - 1].migrations));
	assert_true(isnan(g.curves[1].pts[g.curves[1].n - 1].ghz_min));
	assert_true(isnan(g.curves[1].pts[g.curves[1].n - 1].lat_p99_ns));
	assert_true(isnan(g.curves[1].pts[g.curves[1].n - 1].fair_jain));
	mess_family_free(&g);
	mess_family_free(&f);
	rm_tree(dir);
	free(dir);
}

static void test_curves_csv_rejects(void **state)
{
	static const char *const bad[] = {
		/* a different header */
		"store_pct,read_pct,nop,bw_gbs,read_bw_gbs,write_bw_gbs,lat_ns,lat_ns_std,repeats\n",
		"read_pct,store_pct,nop,bw_gbs,read_bw_gbs,write_bw_gbs,lat_ns,lat_ns_std,repeats,bw_source\n",
		"",
		/* non-numeric fields */
		MESS_CURVES_CSV_HEADER_V1 "\n0,100.0,1000,abc,1,0,120.5,0.1,3,counters\n",
		MESS_CURVES_CSV_HEADER_V1 "\nx,100.0,1000,1.5,1,0,120.5,0.1,3,counters\n",
		MESS_CURVES_CSV_HEADER_V1 "\n0,100.0,-1000,1.5,1,0,120.5,0.1,3,counters\n",
		MESS_CURVES_CSV_HEADER_V1 "\n0,100.0,1000,1.5,1,0,nan,0.1,3,counters\n",
		MESS_CURVES_CSV_HEADER_V1 "\n0,100.0,1000,1.5,1,0,120.5 ns,0.1,3,counters\n",
		/* wrong field count */
		MESS_CURVES_CSV_HEADER_V1 "\n0,100.0,1000,1.5,1,0,120.5,0.1,3\n",
		MESS_CURVES_CSV_HEADER_V1 "\n0,100.0,1000,1.5,1,0,120.5,0.1,3,a,b\n",
		/* schema 2: its four more columns, and only with its header */
		MESS_CURVES_CSV_HEADER_V2 "\n0,100.0,1000,1.5,1,0,120.5,0.1,3,counters\n",
		MESS_CURVES_CSV_HEADER_V1 "\n0,100.0,1000,1.5,1,0,120.5,0.1,3,counters,1,0,110,1\n",
		MESS_CURVES_CSV_HEADER_V2 "\n0,100.0,1000,1.5,1,0,120.5,0.1,3,counters,-1,0,110,1\n",
		MESS_CURVES_CSV_HEADER_V2 "\n0,100.0,1000,1.5,1,0,120.5,0.1,3,counters,1,0,110 ns,1\n",
		MESS_CURVES_CSV_HEADER_V1 ",extra\n",
		/* schema 3: its eleven more, a flag it does not know, a
		 * negative count, a clock of 0 GHz */
		MESS_CURVES_CSV_HEADER_V3 "\n0,100.0,1000,1.5,1,0,120.5,0.1,3,counters,1,0,110,1\n",
		MESS_CURVES_CSV_HEADER_V3 "\n0,100.0,1000,1.5,1,0,120.5,0.1,3,counters,1,0,110,1,0.1,0,0,0.1,0,1,0,3.1,3.2,0,stalls\n",
		MESS_CURVES_CSV_HEADER_V3 "\n0,100.0,1000,1.5,1,0,120.5,0.1,3,counters,1,0,110,1,0.1,-1,0,0.1,0,1,0,3.1,3.2,0,\n",
		MESS_CURVES_CSV_HEADER_V3 "\n0,100.0,1000,1.5,1,0,120.5,0.1,3,counters,1,0,110,1,0.1,0,0,0.1,0,1,0,0,3.2,0,\n",
		MESS_CURVES_CSV_HEADER_V3 "\n0,100.0,1000,1.5,1,0,120.5,0.1,3,counters,1,0,110,1,0.1,0,0,0.1,0,1,0,3.1,3.2,x,\n",
		MESS_CURVES_CSV_HEADER_V2 ",extra\n",
		/* schema 4: its ten more, only with its header; a quantile
		 * of 0 ns, a negative share, text */
		MESS_CURVES_CSV_HEADER_V4 "\n0,100.0,1000,1.5,1,0,120.5,0.1,3,counters,1,0,110,1,0.1,0,0,0.1,0,1,0,3.1,3.2,0,\n",
		MESS_CURVES_CSV_HEADER_V3 "\n0,100.0,1000,1.5,1,0,120.5,0.1,3,counters,1,0,110,1,0.1,0,0,0.1,0,1,0,3.1,3.2,0,,100,110,150,300,900,1.5,1,1,1,1\n",
		MESS_CURVES_CSV_HEADER_V4 "\n0,100.0,1000,1.5,1,0,120.5,0.1,3,counters,1,0,110,1,0.1,0,0,0.1,0,1,0,3.1,3.2,0,,0,110,150,300,900,1.5,1,1,1,1\n",
		MESS_CURVES_CSV_HEADER_V4 "\n0,100.0,1000,1.5,1,0,120.5,0.1,3,counters,1,0,110,1,0.1,0,0,0.1,0,1,0,3.1,3.2,0,,100,110,150,300,900,1.5,-1,1,1,1\n",
		MESS_CURVES_CSV_HEADER_V4 "\n0,100.0,1000,1.5,1,0,120.5,0.1,3,counters,1,0,110,1,0.1,0,0,0.1,0,1,0,3.1,3.2,0,,100,110,150 ns,300,900,1.5,1,1,1,1\n",
		MESS_CURVES_CSV_HEADER_V3 ",extra\n",
		/* schema 5: its two more, only with its header; a negative
		 * count of preempted batches, text */
		MESS_CURVES_CSV_HEADER_V5 "\n0,100.0,1000,1.5,1,0,120.5,0.1,3,counters,1,0,110,1,0.1,0,0,0.1,0,1,0,3.1,3.2,0,,100,110,150,300,900,1.5,1,1,1,1\n",
		MESS_CURVES_CSV_HEADER_V4 "\n0,100.0,1000,1.5,1,0,120.5,0.1,3,counters,1,0,110,1,0.1,0,0,0.1,0,1,0,3.1,3.2,0,,100,110,150,300,900,1.5,1,1,1,1,27.5,0\n",
		MESS_CURVES_CSV_HEADER_V5 "\n0,100.0,1000,1.5,1,0,120.5,0.1,3,counters,1,0,110,1,0.1,0,0,0.1,0,1,0,3.1,3.2,0,,100,110,150,300,900,1.5,1,1,1,1,27.5,-1\n",
		MESS_CURVES_CSV_HEADER_V5 "\n0,100.0,1000,1.5,1,0,120.5,0.1,3,counters,1,0,110,1,0.1,0,0,0.1,0,1,0,3.1,3.2,0,,100,110,150,300,900,1.5,1,1,1,1,27.5 ns,0\n",
		MESS_CURVES_CSV_HEADER_V4 ",extra\n",
		/* schema 6: its two more, only with its header; a share over
		 * 100 %, text */
		MESS_CURVES_CSV_HEADER "\n0,100.0,1000,1.5,1,0,120.5,0.1,3,counters,1,0,110,1,0.1,0,0,0.1,0,1,0,3.1,3.2,0,,100,110,150,300,900,1.5,1,1,1,1,27.5,0\n",
		MESS_CURVES_CSV_HEADER_V5 "\n0,100.0,1000,1.5,1,0,120.5,0.1,3,counters,1,0,110,1,0.1,0,0,0.1,0,1,0,3.1,3.2,0,,100,110,150,300,900,1.5,1,1,1,1,27.5,0,0.01,3.4\n",
		MESS_CURVES_CSV_HEADER "\n0,100.0,1000,1.5,1,0,120.5,0.1,3,counters,1,0,110,1,0.1,0,0,0.1,0,1,0,3.1,3.2,0,,100,110,150,300,900,1.5,1,1,1,1,27.5,0,101,3.4\n",
		MESS_CURVES_CSV_HEADER "\n0,100.0,1000,1.5,1,0,120.5,0.1,3,counters,1,0,110,1,0.1,0,0,0.1,0,1,0,3.1,3.2,0,,100,110,150,300,900,1.5,1,1,1,1,27.5,0,0.01,3.4 ns\n",
		MESS_CURVES_CSV_HEADER_V5 ",extra\n",
	};
	char *dir = make_tmpdir();
	char path[512];
	size_t i;

	snprintf(path, sizeof(path), "%s/curves.csv", dir);
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct mess_family f = { 0 };

		write_text(path, bad[i]);
		if (mess_curves_csv_read(path, &f, NULL, 0) != -EINVAL)
			fail_msg("case %zu accepted", i);
		mess_family_free(&f);
	}
	/* Good file, CRLF line ends and an empty optional field. */
	{
		struct mess_family f = { 0 };

		write_text(path, MESS_CURVES_CSV_HEADER_V2 "\r\n"
			   "0,99.5,1000,1.5,1.4,0.1,120.5,,3,counters,1.3,0.1,,1\r\n"
			   "0,99.7,10,100.25,99,1.25,220.5,2.5,3,counters,90,2,211.25,0.5\r\n");
		assert_int_equal(mess_curves_csv_read(path, &f, NULL, 0), 0);
		assert_int_equal(f.n, 1);
		assert_int_equal(f.curves[0].n, 2);
		assert_near(f.curves[0].read_pct, 99.6, 1e-9);
		assert_true(isnan(f.curves[0].pts[0].lat_ns_std));
		/* by pressure: nop 1000, then nop 10 */
		assert_true(isnan(f.curves[0].pts[0].lat_nowalk_ns));
		assert_near(f.curves[0].pts[1].lat_nowalk_ns, 211.25, 1e-9);
		assert_near(f.curves[0].pts[1].acc_read_bw_gbs, 90, 1e-9);
		/* schema 2 says nothing of trust: unknown, not 0 */
		assert_true(isnan(f.curves[0].pts[1].disturbed));
		assert_int_equal(f.curves[0].pts[1].flags, 0);
		mess_family_free(&f);
	}
	/* Schema 3: the trust columns, empty where unknown, and flags. */
	{
		struct mess_family f = { 0 };

		write_text(path, MESS_CURVES_CSV_HEADER_V3 "\n"
			   "0,99.5,1000,1.5,1.4,0.1,120.5,,3,accounted,1.3,0.1,,,0.05,2,1,3.5,,4,,3.1,3.2,1,disturbed;non_monotone\n");
		assert_int_equal(mess_curves_csv_read(path, &f, NULL, 0), 0);
		assert_near(f.curves[0].pts[0].disturbed, 2, 0);
		assert_near(f.curves[0].pts[0].lost_pct, 3.5, 1e-9);
		assert_true(isnan(f.curves[0].pts[0].steal_ms));
		assert_true(isnan(f.curves[0].pts[0].migrations));
		assert_int_equal(f.curves[0].pts[0].remeasured, 1);
		assert_int_equal(f.curves[0].pts[0].flags,
				 MESS_QF(MESS_QR_DISTURBED) | MESS_QF(MESS_QR_NON_MONOTONE));
		/* schema 3 has no distribution: unknown, not 0 */
		assert_true(isnan(f.curves[0].pts[0].lat_p99_ns));
		assert_true(isnan(f.curves[0].pts[0].fair_jain));
		mess_family_free(&f);
	}
	/* Schema 4: the distribution and fairness, empty where unknown
	 * (one generator core: no fairness), the mean's difference signed. */
	{
		struct mess_family f = { 0 };

		write_text(path, MESS_CURVES_CSV_HEADER_V4 "\n"
			   "0,99.5,1000,1.5,1.4,0.1,120.5,,3,accounted,1.3,0.1,,,0.05,2,1,3.5,,4,,3.1,3.2,1,,118.5,131,160.25,412.5,980,-0.75,,,,\n");
		assert_int_equal(mess_curves_csv_read(path, &f, NULL, 0), 0);
		/* schema 4 has no window cost or preemptions: unknown, not 0 */
		assert_true(isnan(f.curves[0].pts[0].dist_cost_ns));
		assert_true(isnan(f.curves[0].pts[0].dist_preempted));
		assert_true(isnan(f.curves[0].pts[0].dist_l2_share_pct));
		assert_true(isnan(f.curves[0].pts[0].dist_l2_ns));
		assert_near(f.curves[0].pts[0].lat_p50_ns, 118.5, 1e-9);
		assert_near(f.curves[0].pts[0].lat_p99_ns, 160.25, 1e-9);
		assert_near(f.curves[0].pts[0].lat_max_ns, 980, 1e-9);
		assert_near(f.curves[0].pts[0].dist_mean_diff_pct, -0.75, 1e-9);
		assert_true(isnan(f.curves[0].pts[0].fair_min));
		assert_true(isnan(f.curves[0].pts[0].fair_jain));
		mess_family_free(&f);
	}
	/* Schema 1 (before the counter columns) still reads; its points
	 * have no accounted twin. */
	{
		struct mess_family f = { 0 };

		write_text(path, MESS_CURVES_CSV_HEADER_V1 "\n"
			   "0,99.5,1000,1.5,1.4,0.1,120.5,,3,accounted\n");
		assert_int_equal(mess_curves_csv_read(path, &f, NULL, 0), 0);
		assert_int_equal(f.curves[0].n, 1);
		assert_true(isnan(f.curves[0].pts[0].acc_read_bw_gbs));
		assert_true(isnan(f.curves[0].pts[0].counter_run_frac));
		mess_family_free(&f);
	}
	rm_tree(dir);
	free(dir);
}

static void test_reference_by_header_name(void **state)
{
	char *dir = make_tmpdir();
	char path[512];
	struct mess_family f = { 0 };
	const struct mess_curve *c;

	snprintf(path, sizeof(path), "%s/memory_curves.csv", dir);
	/* Columns in another order, no rd_percentage_actual_mean. */
	write_text(path,
		   "latency_mean,pause,extra,bandwidth_mean,read_pct_rounded,latency_std\n"
		   "150.5,100.0,x,80.25,60.0,\n"
		   "110.0,5000.0,y,0.0,60.0,0.5\n"
		   "300.0,0.0,z,120.0,60.0,3.0\n"
		   "105.0,5000.0,,0.0,100.0,0.1\n");
	assert_int_equal(mess_reference_read(path, &f, NULL, 0), 0);
	assert_int_equal(f.n, 2);
	c = &f.curves[0];
	assert_int_equal(c->store_pct, MESS_STORE_PCT_UNKNOWN);
	assert_near(c->read_pct, 60.0, 0.0);
	assert_int_equal(c->n, 3);
	assert_int_equal(c->pts[0].nop, 5000);
	assert_int_equal(c->pts[1].nop, 100);
	assert_int_equal(c->pts[2].nop, 0);
	assert_near(c->pts[1].bw_gbs, 80.25, 0.0);
	/* A set from elsewhere says nothing of trust: unknown, so its waves
	 * need no confirming repeat (metrics.c). */
	assert_true(isnan(c->pts[1].disturbed));
	assert_true(isnan(c->pts[1].ghz_min));
	assert_near(c->pts[1].lat_ns, 150.5, 0.0);
	assert_true(isnan(c->pts[1].lat_ns_std));
	assert_near(c->pts[0].lat_ns_std, 0.5, 0.0);
	assert_near(c->pts[1].read_pct, 60.0, 0.0);
	assert_near(f.curves[1].read_pct, 100.0, 0.0);
	mess_family_free(&f);

	/* A required column missing. */
	write_text(path, "latency_mean,pause,read_pct_rounded\n150.5,100.0,60.0\n");
	assert_int_equal(mess_reference_read(path, &f, NULL, 0), -EINVAL);
	mess_family_free(&f);
	/* A row with a missing field. */
	write_text(path, "latency_mean,pause,bandwidth_mean,read_pct_rounded\n150.5,100.0,60.0\n");
	assert_int_equal(mess_reference_read(path, &f, NULL, 0), -EINVAL);
	mess_family_free(&f);
	/* A fractional nop count. */
	write_text(path, "latency_mean,pause,bandwidth_mean,read_pct_rounded\n150.5,100.5,60.0,50\n");
	assert_int_equal(mess_reference_read(path, &f, NULL, 0), -EINVAL);
	mess_family_free(&f);
	rm_tree(dir);
	free(dir);
}

static void test_reference_grace(void **state)
{
	const char *ref = getenv("MESS_REFERENCE");
	struct mess_family f = { 0 };
	char path[4096];
	size_t i, j, npts = 0;

	if (!ref || !*ref) {
		print_message("MESS_REFERENCE unset: skipped\n");
		skip();
	}
	snprintf(path, sizeof(path), "%s/Grace-LPDDR5/memory_curves.csv", ref);
	if (access(path, R_OK)) {
		print_message("%s missing: skipped\n", path);
		skip();
	}
	assert_int_equal(mess_reference_read(path, &f, NULL, 0), 0);
	assert_true(f.n >= 10);
	for (i = 0; i < f.n; i++) {
		const struct mess_curve *c = &f.curves[i];

		assert_true(c->read_pct >= 0.0 && c->read_pct <= 100.0);
		assert_near(c->read_pct, round(c->read_pct), 0.0);
		if (i)
			assert_true(f.curves[i - 1].read_pct < c->read_pct);
		for (j = 0; j < c->n; j++) {
			const struct mess_point *p = &c->pts[j];

			assert_true(p->read_pct >= 0.0 && p->read_pct <= 100.0);
			assert_true(fabs(p->read_pct - c->read_pct) < 2.0);
			assert_true(isfinite(p->bw_gbs) && isfinite(p->lat_ns));
			assert_true(p->lat_ns > 50.0);
			assert_near(p->read_bw_gbs + p->write_bw_gbs,
					    p->bw_gbs, 1e-9);
			if (j)
				assert_true(c->pts[j - 1].nop >= p->nop);
		}
		npts += c->n;
	}
	/* 420 lines: the header and 419 points. */
	assert_int_equal(npts, 419);
	mess_family_free(&f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_export_read_rejects),
		cmocka_unit_test(test_curves_csv_roundtrip),
		cmocka_unit_test(test_curves_csv_rejects),
		cmocka_unit_test(test_reference_by_header_name),
		cmocka_unit_test(test_reference_grace),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
