// SPDX-License-Identifier: MIT
/*
 * mess c2c's figures with known answers (harness/c2c/table.c): a pair's
 * median, p99 and least from its samples, the groups, the sampled pairs of
 * a large machine; and what two PUs share on a topology with SMT
 * (tests/fixtures/topo/synthetic-smt.xml: lstopo's synthetic "package:2
 * l3:2 core:2 pu:2", 16 PUs; HWLOC_XMLFILE, from the repository root).
 */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "c2c/c2c.h"
#include "core/machine/topo.h"

#define NEAR(a, b) assert_true(fabs((a) - (b)) < 1e-9)

static void pair_figures(void **state)
{
	double s[200];
	struct mess_c2c_pair p = { 0 };

	/* 1..200 shuffled: median 100.5, p99 the 198th, least 1. */
	for (int i = 0; i < 200; i++)
		s[i] = (double)((i * 37) % 200 + 1);
	mess_c2c_finish(&p, s, 200);
	NEAR(p.median_ns, 100.5);
	NEAR(p.p99_ns, 198);
	NEAR(p.min_ns, 1);
	assert_int_equal(p.samples, 200);
	/* Few samples: p99 is the largest. */
	s[0] = 30, s[1] = 10, s[2] = 20;
	mess_c2c_finish(&p, s, 3);
	NEAR(p.median_ns, 20);
	NEAR(p.p99_ns, 30);
	NEAR(p.min_ns, 10);
	/* None: unknown, never 0. */
	mess_c2c_finish(&p, s, 0);
	assert_true(isnan(p.median_ns) && isnan(p.p99_ns) && isnan(p.min_ns));
}

static void groups(void **state)
{
	static const struct mess_c2c_pair p[] = {
		{ .a = 0, .b = 1, .group = MESS_SHARE_CORE, .median_ns = 10, .p99_ns = 20 },
		{ .a = 0, .b = 2, .group = MESS_SHARE_CACHE, .median_ns = 40, .p99_ns = 60 },
		{ .a = 0, .b = 3, .group = MESS_SHARE_CACHE, .median_ns = 50, .p99_ns = 90 },
		{ .a = 1, .b = 2, .group = MESS_SHARE_CACHE, .median_ns = 44, .p99_ns = 70 },
		{ .a = 0, .b = 8, .group = MESS_SHARE_NONE, .median_ns = 150, .p99_ns = 400 },
		{ .a = 1, .b = 8, .group = MESS_SHARE_NONE, .median_ns = NAN, .p99_ns = NAN },
	};
	struct mess_c2c_sum s[MESS_NSHARES];
	char *buf = NULL;
	size_t len = 0;
	FILE *f;

	mess_c2c_group(p, 6, s);
	assert_int_equal(s[MESS_SHARE_CORE].pairs, 1);
	NEAR(s[MESS_SHARE_CORE].median_ns, 10);
	assert_int_equal(s[MESS_SHARE_CACHE].pairs, 3);
	NEAR(s[MESS_SHARE_CACHE].median_ns, 44);
	NEAR(s[MESS_SHARE_CACHE].min_ns, 40);
	NEAR(s[MESS_SHARE_CACHE].max_ns, 50);
	NEAR(s[MESS_SHARE_CACHE].p99_max_ns, 90);
	assert_int_equal(s[MESS_SHARE_PACKAGE].pairs, 0);
	assert_true(isnan(s[MESS_SHARE_PACKAGE].median_ns));
	/* The pair not measured is left out. */
	assert_int_equal(s[MESS_SHARE_NONE].pairs, 1);
	NEAR(s[MESS_SHARE_NONE].p99_max_ns, 400);

	f = open_memstream(&buf, &len);
	assert_int_equal(mess_c2c_csv(f, p, 6), 0);
	mess_c2c_md(f, p, 6);
	fclose(f);
	print_message("%s", buf);
	assert_non_null(strstr(buf, MESS_C2C_HEADER "\n0,1,0,0,smt,10.0,20.0,0.0,0\n"));
	assert_non_null(strstr(buf, "\n1,8,0,0,other socket,,,0.0,0\n"));
	assert_non_null(strstr(buf, "| same cache | 3 | 44.0 | 40.0 | 50.0 | 90.0 |\n"));
	assert_null(strstr(buf, "| same socket |"));
	free(buf);
}

static void pick(void **state)
{
	int out[64][2];

	/* 4 PUs: all 6 pairs, in order. */
	assert_int_equal(mess_c2c_pick(4, 100, out), 6);
	assert_int_equal(out[0][0], 0);
	assert_int_equal(out[0][1], 1);
	assert_int_equal(out[5][0], 2);
	assert_int_equal(out[5][1], 3);
	/* 16 PUs, 120 pairs, at most 40: every 3rd. */
	assert_int_equal(mess_c2c_pick(16, 40, out), 40);
	assert_int_equal(out[1][0], 0);
	assert_int_equal(out[1][1], 4);
	assert_int_equal(mess_c2c_pick(1, 10, out), 0);
}

static void share(void **state)
{
	struct mess_topo t;
	int pus[32];

	setenv("HWLOC_XMLFILE", "tests/fixtures/topo/synthetic-smt.xml", 1);
	setenv("HWLOC_THISSYSTEM", "0", 1);
	assert_int_equal(mess_topo_init(&t), 0);
	unsetenv("HWLOC_XMLFILE");
	unsetenv("HWLOC_THISSYSTEM");
	assert_int_equal(mess_topo_pus(&t, pus, 32), 16);
	assert_int_equal(pus[15], 15);
	assert_int_equal(mess_topo_pu_share(&t, 0, 1), MESS_SHARE_CORE);
	assert_int_equal(mess_topo_pu_share(&t, 0, 2), MESS_SHARE_CACHE);
	assert_int_equal(mess_topo_pu_share(&t, 3, 2), MESS_SHARE_CORE);
	assert_int_equal(mess_topo_pu_share(&t, 1, 3), MESS_SHARE_CACHE);
	assert_int_equal(mess_topo_pu_share(&t, 0, 4), MESS_SHARE_PACKAGE);
	assert_int_equal(mess_topo_pu_share(&t, 0, 8), MESS_SHARE_NONE);
	assert_int_equal(mess_topo_pu_share(&t, 7, 15), MESS_SHARE_NONE);
	assert_int_equal(mess_topo_pu_share(&t, 0, 99), -EINVAL);
	assert_int_equal(mess_topo_core_of_pu(&t, 5), 2);
	assert_int_equal(mess_topo_core_of_pu(&t, 99), -1);
	mess_topo_fini(&t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(pair_figures),
		cmocka_unit_test(groups),
		cmocka_unit_test(pick),
		cmocka_unit_test(share),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
