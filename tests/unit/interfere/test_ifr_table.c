// SPDX-License-Identifier: MIT
/*
 * mess interfere's files (harness/interfere/table.c) from known rows: two
 * mixes, 0..2 aggressors, the 50 % mix's p99 doubled at 2 aggressors, the
 * 0 % mix's never; a row with an unknown figure written empty, never 0.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "interfere/interfere.h"
#include "near.h"

static const struct mess_ifr_about about = {
	.cpu_model = "Test CPU", .place = MESS_IFR_SAME_SOCKET, .victim = 0,
	.aggressor_cores = "1-2", .max_aggressors = 2, .victim_node = 0,
	.aggressor_node = 0,
};

static int known(struct mess_ifr_row *r)
{
	static const struct {
		int mix, aggr;
		double p50, p99, bw;
	} rows[] = {
		{ 0, 0, 80, 100, 0 }, { 0, 1, 85, 120, 10 }, { 0, 2, 90, 190, 18 },
		{ 50, 0, 80, 100, 0 }, { 50, 1, 90, 150, 8 }, { 50, 2, 120, 200, 14 },
	};
	int n = (int)(sizeof(rows) / sizeof(rows[0]));

	for (int i = 0; i < n; i++)
		r[i] = (struct mess_ifr_row){
			.store_pct = rows[i].mix, .read_pct = rows[i].mix ? 200.0 / 3 : 100,
			.aggressors = rows[i].aggr,
			.lat = { .p50 = rows[i].p50, .p90 = rows[i].p50 + 5,
				 .p99 = rows[i].p99, .p999 = rows[i].p99 * 2,
				 .mean = rows[i].p50 + 2, .p99_spread = 1, .windows = 3 },
			.bw_gbs = rows[i].bw, .lost_pct = i == 1 ? NAN : 0.5,
			.disturbed = i == 4, .preempted = (uint64_t)i,
		};
	mess_ifr_ratios(r, n);
	return n;
}

static char *written(int md, const struct mess_ifr_row *r, int n)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	if (md)
		mess_ifr_md(f, &about, r, n);
	else
		assert_int_equal(mess_ifr_csv(f, &about, r, n), 0);
	fclose(f);
	return buf;
}

static void ratios_knees(void **state)
{
	struct mess_ifr_row r[6];
	int n = known(r);

	assert_near(r[0].p99_vs_none, 1, 0);
	assert_near(r[2].p99_vs_none, 1.9, 1e-12);
	assert_near(r[5].p99_vs_none, 2, 1e-12);
	assert_int_equal(mess_ifr_mix_knee(r, n, 0), MESS_IFR_KNEE_NOT_REACHED);
	assert_int_equal(mess_ifr_mix_knee(r, n, 50), 2);
	/* A mix without rows has no baseline. */
	assert_int_equal(mess_ifr_mix_knee(r, n, 100), MESS_IFR_KNEE_NO_BASE);
	/* Interrupted after the 0 % mix's first row: no 50 % rows. */
	assert_int_equal(mess_ifr_mix_knee(r, 1, 0), MESS_IFR_KNEE_NOT_REACHED);
}

static void files(void **state)
{
	struct mess_ifr_row r[6];
	int n = known(r);
	char *csv = written(0, r, n), *md = written(1, r, n);
	json_t *j = mess_ifr_json(&about, r, n), *k;

	print_message("%s\n%s", csv, md);
	assert_string_equal(csv,
		MESS_IFR_HEADER "\n"
		"same-socket,0,100.0,0,80.00,85.00,100.00,200.00,82.00,1.00,1.000,3,0.000,0,0,0.50,0,0\n"
		"same-socket,0,100.0,1,85.00,90.00,120.00,240.00,87.00,1.00,1.200,3,10.000,0,0,,1,0\n"
		"same-socket,0,100.0,2,90.00,95.00,190.00,380.00,92.00,1.00,1.900,3,18.000,0,0,0.50,2,0\n"
		"same-socket,50,66.7,0,80.00,85.00,100.00,200.00,82.00,1.00,1.000,3,0.000,0,0,0.50,3,0\n"
		"same-socket,50,66.7,1,90.00,95.00,150.00,300.00,92.00,1.00,1.500,3,8.000,1,0,0.50,4,0\n"
		"same-socket,50,66.7,2,120.00,125.00,200.00,400.00,122.00,1.00,2.000,3,14.000,0,0,0.50,5,0\n");
	assert_non_null(strstr(md, "## 0 % stores (100 % of the bytes read)"));
	assert_non_null(strstr(md, "## 50 % stores (67 % of the bytes read)"));
	assert_non_null(strstr(md, "Knee: **not reached with 2**"));
	assert_non_null(strstr(md, "Knee: **2 aggressors**"));
	assert_non_null(strstr(md, "| 2 | 120.0 | 125.0 | 200.0 | 400.0 | 122.0 | 2.00 | 14.00 | 0 (0) |"));
	assert_non_null(strstr(md, "cores 1-2 in that order"));
	assert_non_null(j);
	assert_int_equal(json_array_size(json_object_get(j, "rows")), 6);
	assert_true(json_is_null(json_object_get(json_array_get(json_object_get(j, "rows"), 1),
						 "lost_pct")));
	k = json_object_get(j, "knees");
	assert_int_equal(json_array_size(k), 2);
	assert_string_equal(json_string_value(json_object_get(json_array_get(k, 0), "knee")),
			    "not reached");
	assert_true(json_is_null(json_object_get(json_array_get(k, 0), "knee_aggressors")));
	assert_int_equal(json_integer_value(json_object_get(json_array_get(k, 1),
							    "knee_aggressors")), 2);
	assert_string_equal(json_string_value(json_object_get(j, "placement")), "same-socket");
	json_decref(j);
	free(csv);
	free(md);
	/* Nothing measured: a header alone, and said. */
	csv = written(0, r, 0);
	md = written(1, r, 0);
	assert_string_equal(csv, MESS_IFR_HEADER "\n");
	assert_non_null(strstr(md, "Nothing was measured."));
	free(csv);
	free(md);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(ratios_knees),
		cmocka_unit_test(files),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
