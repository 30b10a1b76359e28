// SPDX-License-Identifier: MIT
/*
 * compare.md's interference section (harness/core/compare/compare_ifr.c)
 * with known answers: two sets with mess interfere's interference.csv
 * beside them (one in the set's folder, one in interfere/ beside the
 * set's curves file), the knee per mix side by side, a mix one set lacks
 * "not measured"; a set without one leaves the section out.
 */
#include <errno.h>
#include <limits.h>
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

#include "core/compare/compare_files.h"
#include "interfere/interfere.h"
#include "mess/load.h"

static char tmp[256];

static void put(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static char *md(const struct mess_compare_ctx *c)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	mess_compare_ifr_md(c, f);
	fclose(f);
	return buf;
}

static void side_by_side(void **state)
{
	char a[300], b[300], path[400], *out;
	struct mess_set_info info[2] = { 0 };
	struct mess_compare_set sets[2] = { { .info = &info[0] }, { .info = &info[1] } };
	struct mess_compare_ctx c = { .sets = sets, .n = 2, .labels = { "ddr", "hbm" } };

	snprintf(tmp, sizeof(tmp), "/tmp/mess-test-cmp-ifr.XXXXXX");
	assert_non_null(mkdtemp(tmp));
	snprintf(a, sizeof(a), "%s/a", tmp);
	snprintf(b, sizeof(b), "%s/b", tmp);
	assert_int_equal(mkdir(a, 0700), 0);
	assert_int_equal(mkdir(b, 0700), 0);
	snprintf(path, sizeof(path), "%s/interfere", b);
	assert_int_equal(mkdir(path, 0700), 0);
	/* Set a: its folder; p99 doubled at 2 for 0 %, never for 50 %. */
	snprintf(path, sizeof(path), "%s/interference.csv", a);
	put(path, MESS_IFR_HEADER "\n"
	    "same-socket,0,100.0,0,80.00,85.00,100.00,200.00,82.00,1.00,1.000,3,0.000,0,0,0.50,0\n"
	    "same-socket,0,100.0,1,85.00,90.00,150.00,240.00,87.00,1.00,1.500,3,10.000,0,0,,1\n"
	    "same-socket,0,100.0,2,90.00,95.00,210.00,380.00,92.00,1.00,2.100,3,18.000,0,0,0.50,2\n"
	    "same-socket,50,66.7,0,80.00,85.00,100.00,200.00,82.00,1.00,1.000,3,0.000,0,0,0.50,3\n"
	    "same-socket,50,66.7,2,120.00,125.00,190.00,400.00,122.00,1.00,1.900,3,14.000,0,0,0.50,5\n");
	/* Set b: interfere/ beside its curves file; the 0 % mix only, the
	 * knee at 1. */
	snprintf(path, sizeof(path), "%s/interfere/interference.csv", b);
	put(path, MESS_IFR_HEADER "\n"
	    "other-node,0,100.0,0,120.00,125.00,140.00,200.00,122.00,1.00,1.000,3,0.000,0,0,0.50,0\n"
	    "other-node,0,100.0,1,200.00,250.00,300.00,400.00,210.00,1.00,2.143,3,40.000,0,0,0.50,0\n");
	snprintf(info[0].path, sizeof(info[0].path), "%s", a);
	snprintf(info[1].path, sizeof(info[1].path), "%s/curves.csv", b);
	out = md(&c);
	print_message("%s", out);
	assert_non_null(strstr(out, "## Interference (mess interfere)"));
	assert_non_null(strstr(out, "| mix | ddr (same-socket) | hbm (other-node) |"));
	assert_non_null(strstr(out, "| 0 % stores | **2** (p99 100 -> 210 ns at 2) | **1** (p99 140 -> 300 ns at 1) |"));
	assert_non_null(strstr(out, "| 50 % stores | not reached with 2 (p99 100 -> 190 ns) | not measured |"));
	free(out);
	/* Set a interrupted (its meta.json): a knee not reached is unknown,
	 * one reached stands; complete, as before (issue 46 item 9). */
	snprintf(path, sizeof(path), "%s/meta.json", a);
	put(path, "{\"tool\": \"mess interfere\", \"complete\": false}\n");
	out = md(&c);
	assert_non_null(strstr(out, "| 0 % stores | **2** (p99 100 -> 210 ns at 2) |"));
	assert_non_null(strstr(out, "| 50 % stores | unknown: the run was interrupted after 2 (p99 100 -> 190 ns) | not measured |"));
	free(out);
	put(path, "{\"tool\": \"mess interfere\", \"complete\": true}\n");
	out = md(&c);
	assert_non_null(strstr(out, "| 50 % stores | not reached with 2 (p99 100 -> 190 ns) |"));
	free(out);
	snprintf(path, sizeof(path), "%s/interfere/interference.csv", b);
	/* Set b without one: nothing said. */
	unlink(path);
	out = md(&c);
	assert_string_equal(out, "");
	free(out);
	snprintf(path, sizeof(path), "rm -rf '%s'", tmp);
	assert_int_equal(system(path), 0);
}

static void not_interferes(void **state)
{
	char path[400], *out;
	struct mess_set_info info[2] = { 0 };
	struct mess_compare_set sets[2] = { { .info = &info[0] }, { .info = &info[1] } };
	struct mess_compare_ctx c = { .sets = sets, .n = 2, .labels = { "x", "y" } };

	snprintf(tmp, sizeof(tmp), "/tmp/mess-test-cmp-ifr.XXXXXX");
	assert_non_null(mkdtemp(tmp));
	/* Another tool's file of that name: no columns of interfere's. */
	snprintf(path, sizeof(path), "%s/interference.csv", tmp);
	put(path, "a,b,c\n1,2,3\n");
	snprintf(info[0].path, sizeof(info[0].path), "%s", tmp);
	snprintf(info[1].path, sizeof(info[1].path), "%s", tmp);
	out = md(&c);
	assert_string_equal(out, "");
	free(out);
	snprintf(path, sizeof(path), "rm -rf '%s'", tmp);
	assert_int_equal(system(path), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(side_by_side),
		cmocka_unit_test(not_interferes),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
