// SPDX-License-Identifier: MIT
/*
 * mess matrix's table (harness/matrix/table.c) with known answers: the
 * labels of a pair, the medians, spreads and ratios to the firmware's
 * figures from given samples, and the files written from a known 2 x 3
 * matrix (two sockets' DRAM and a CPU-less HBM node near the first).
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "matrix/matrix.h"
#include "mess/json.h"

#define NEAR(a, b) assert_true(fabs((a) - (b)) < 1e-9)

static void labels(void **state)
{
	assert_int_equal(mess_mx_label(1, 1), MESS_MX_LOCAL);
	assert_int_equal(mess_mx_label(0, 1), MESS_MX_REMOTE);
	assert_int_equal(mess_mx_label(1, 0), MESS_MX_LOCAL_CPULESS);
	assert_int_equal(mess_mx_label(0, 0), MESS_MX_REMOTE_CPULESS);
	assert_string_equal(mess_mx_labels[MESS_MX_REMOTE_CPULESS], "remote cpu-less");
	/* 20 GiB/s (hwloc's MiB/s) in GB/s. */
	NEAR(mess_mx_mibs_gbs(20480), 21.47483648);
}

static void stats(void **state)
{
	/* One disturbed run (150): the median and the MAD ignore it. */
	static const double lat[] = { 100, 102, 98, 150, 101 };
	static const double bw[] = { 10, 12, 11 };
	struct mess_mx_cell c = { .hmat_lat_ns = 100, .hmat_bw_gbs = NAN };

	mess_mx_finish(&c, (struct mess_mx_samples){ lat, 5 }, (struct mess_mx_samples){ bw, 3 },
		       (struct mess_mx_samples){ bw, 2 });
	NEAR(c.lat_ns, 101);
	NEAR(c.lat_spread_ns, 1.4826);	/* deviations 0 1 1 3 49: MAD 1 */
	NEAR(c.lat_vs_hmat, 1.01);
	assert_int_equal(c.lat_repeats, 5);
	NEAR(c.bw_gbs, 11);
	NEAR(c.bw_spread_gbs, 1.4826);
	assert_true(isnan(c.bw_vs_hmat));	/* the firmware gives none */
	assert_int_equal(c.bw_repeats, 3);
	/* The 2:1 mix's from its own samples (10, 12): their mean. */
	NEAR(c.bw21_gbs, 11);
	NEAR(c.bw21_spread_gbs, 1.4826);
	assert_int_equal(c.bw21_repeats, 2);
	/* Nothing measured (interrupted before): unknown, never 0. */
	c = (struct mess_mx_cell){ .hmat_lat_ns = 100, .hmat_bw_gbs = 20 };
	mess_mx_finish(&c, (struct mess_mx_samples){ lat, 0 }, (struct mess_mx_samples){ bw, 0 },
		       (struct mess_mx_samples){ bw, 0 });
	assert_true(isnan(c.lat_ns) && isnan(c.lat_spread_ns) && isnan(c.lat_vs_hmat));
	assert_true(isnan(c.bw_gbs) && isnan(c.bw_vs_hmat) && isnan(c.bw21_gbs));
	assert_int_equal(c.lat_repeats, 0);
	/* A firmware figure of 0 gives no ratio. */
	c = (struct mess_mx_cell){ .hmat_lat_ns = 0, .hmat_bw_gbs = 40 };
	mess_mx_finish(&c, (struct mess_mx_samples){ lat, 1 }, (struct mess_mx_samples){ bw, 1 },
		       (struct mess_mx_samples){ bw, 1 });
	assert_true(isnan(c.lat_vs_hmat));
	NEAR(c.bw_vs_hmat, 0.25);
}

/* Two initiators (nodes 0 and 1) x targets 0, 1 and the HBM node 2. */
static int known(struct mess_mx_cell *c)
{
	static const struct {
		int init, target, local, cpus;
		double lat, hlat, bw, hbw;
	} rows[] = {
		{ 0, 0, 1, 1, 100, 100, 20, 21.47483648 },
		{ 0, 1, 0, 1, 150, 150, 10, NAN },
		{ 0, 2, 1, 0, 120, NAN, 80, 85.89934592 },
		{ 1, 0, 0, 1, 150, 150, 10, NAN },
		{ 1, 1, 1, 1, 100, 100, 20, NAN },
		{ 1, 2, 0, 0, 200, NAN, 10, NAN },
	};
	int n = (int)(sizeof(rows) / sizeof(rows[0]));

	for (int i = 0; i < n; i++) {
		double lat = rows[i].lat, bw = rows[i].bw, bw21 = rows[i].bw / 2;

		c[i] = (struct mess_mx_cell){
			.init = rows[i].init, .chase_core = 2 * rows[i].init,
			.target = rows[i].target, .bw_cores = 2,
			.label = mess_mx_label(rows[i].local, rows[i].cpus),
			.hmat_lat_ns = rows[i].hlat, .hmat_bw_gbs = rows[i].hbw,
			.bw21_read_pct = 200.0 / 3,
			/* Placed on the target; the cut short pair's arrays
			 * never read. */
			.chase_on = 32, .chase_off = 0,
			.gen_on = i == n - 1 ? NAN : 64, .gen_off = i == n - 1 ? NAN : 0,
		};
		snprintf(c[i].init_cores, sizeof(c[i].init_cores), "%d-%d",
			 2 * rows[i].init, 2 * rows[i].init + 1);
		snprintf(c[i].kind, sizeof(c[i].kind), "%s", rows[i].target == 2 ? "hbm" : "dram");
		snprintf(c[i].huge, sizeof(c[i].huge), "thp");
		/* The last pair was cut short: its bandwidth not measured. */
		mess_mx_finish(&c[i], (struct mess_mx_samples){ &lat, 1 },
			       (struct mess_mx_samples){ &bw, i == n - 1 ? 0 : 1 },
			       (struct mess_mx_samples){ &bw21, i == n - 1 ? 0 : 1 });
	}
	return n;
}

static char *written(void (*fn)(FILE *, const struct mess_mx_cell *, int),
		     const struct mess_mx_cell *c, int n)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	fn(f, c, n);
	fclose(f);
	return buf;
}

static void csv_fn(FILE *f, const struct mess_mx_cell *c, int n)
{
	assert_int_equal(mess_mx_csv(f, c, n), 0);
}

static void files(void **state)
{
	struct mess_mx_cell c[6];
	int n = known(c);
	char *csv = written(csv_fn, c, n), *md = written(mess_mx_md, c, n);
	json_t *j = mess_mx_json(c, n);

	print_message("%s\n%s", csv, md);
	assert_string_equal(csv,
		MESS_MX_HEADER "\n"
		"0,\"0-1\",0,0,dram,local,100.00,0.00,1,100,1.000,20.000,0.000,1,2,21.475,0.931,10.000,0.000,1,66.7,thp,32.0,0.0,64.0,0.0\n"
		"0,\"0-1\",0,1,dram,remote,150.00,0.00,1,150,1.000,10.000,0.000,1,2,,,5.000,0.000,1,66.7,thp,32.0,0.0,64.0,0.0\n"
		"0,\"0-1\",0,2,hbm,local cpu-less,120.00,0.00,1,,,80.000,0.000,1,2,85.899,0.931,40.000,0.000,1,66.7,thp,32.0,0.0,64.0,0.0\n"
		"1,\"2-3\",2,0,dram,remote,150.00,0.00,1,150,1.000,10.000,0.000,1,2,,,5.000,0.000,1,66.7,thp,32.0,0.0,64.0,0.0\n"
		"1,\"2-3\",2,1,dram,local,100.00,0.00,1,100,1.000,20.000,0.000,1,2,,,10.000,0.000,1,66.7,thp,32.0,0.0,64.0,0.0\n"
		"1,\"2-3\",2,2,hbm,remote cpu-less,200.00,0.00,1,,,,,0,2,,,,,0,66.7,thp,32.0,0.0,,\n");
	/* Initiators down, targets across, the HMAT beside. */
	assert_non_null(strstr(md, "| from \\ to | node 0 dram | node 1 dram | node 2 hbm |\n|---|---|---|---|\n"));
	assert_non_null(strstr(md, "| node 0 (cores 0-1) | 100.0 ns (HMAT 100, 1.00x), local | 150.0 ns (HMAT 150, 1.00x), remote | 120.0 ns, local cpu-less |\n"));
	assert_non_null(strstr(md, "| node 1 (cores 2-3) | 10.0 GB/s, remote | 20.0 GB/s, local | not measured, remote cpu-less |\n"));
	assert_non_null(strstr(md, "| node 0 (cores 0-1) | 20.0 GB/s (HMAT 21.5, 0.93x), local |"));
	assert_non_null(strstr(md, "## Peak bandwidth, 2:1 reads to writes (GB/s; 67 % of the bytes read)\n\n"));
	assert_non_null(strstr(md, "| node 0 (cores 0-1) | 10.0 GB/s, local | 5.0 GB/s, remote | 40.0 GB/s, local cpu-less |\n"));
	/* JSON: null where unknown, never 0. */
	assert_int_equal(json_array_size(j), 6);
	assert_true(json_is_null(json_object_get(json_array_get(j, 5), "bw_gbs")));
	assert_true(json_is_null(json_object_get(json_array_get(j, 2), "hmat_lat_ns")));
	assert_string_equal(json_string_value(json_object_get(json_array_get(j, 2), "label")),
			    "local cpu-less");
	assert_true(json_real_value(json_object_get(json_array_get(j, 0), "lat_vs_hmat")) == 1.0);
	json_decref(j);
	free(csv);
	free(md);
	/* Nothing measured: said, no empty table. */
	md = written(mess_mx_md, c, 0);
	assert_string_equal(md, "Nothing was measured.\n\n");
	free(md);
}

/* Where a pair's memory was: the bound mappings of a numa_maps file,
 * 4 KiB pages and hugetlb's 2 MiB ones, a mapping with no bind policy
 * (the heap) left out. */
static void placed(void **state)
{
	char path[] = "/tmp/mess-numa-maps.XXXXXX";
	int fd = mkstemp(path);
	FILE *f = fd < 0 ? NULL : fdopen(fd, "w");
	double on, off;

	assert_non_null(f);
	fputs("7f0000000000 bind:2 anon=16384 dirty=16384 active=0 N2=16384 kernelpagesize_kB=4\n"
	      "7f1000000000 bind:2 file=/anon_hugepage\\040(deleted) huge anon=10 dirty=10 N2=8 N0=2 kernelpagesize_kB=2048\n"
	      "7f2000000000 bind=static:2 anon=256 N1=256 kernelpagesize_kB=4\n"
	      "55d000000000 default heap anon=100 dirty=100 N0=100 kernelpagesize_kB=4\n", f);
	fclose(f);
	assert_int_equal(mess_mx_placed(path, 2, &on, &off), 0);
	NEAR(on, 64 + 16);	/* 16384 x 4 KiB, 8 x 2 MiB */
	NEAR(off, 4 + 1);	/* 2 x 2 MiB on node 0, 256 x 4 KiB on node 1 */
	assert_int_equal(mess_mx_placed(path, 0, &on, &off), 0);
	NEAR(on, 4);
	NEAR(off, 64 + 16 + 1);
	unlink(path);
	assert_true(mess_mx_placed(path, 0, &on, &off) < 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(labels),
		cmocka_unit_test(stats),
		cmocka_unit_test(files),
		cmocka_unit_test(placed),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
