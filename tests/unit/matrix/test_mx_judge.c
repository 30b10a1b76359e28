// SPDX-License-Identifier: MIT
/*
 * mess matrix's judging table (harness/matrix/judge.c) with constructed
 * cells: repeats that disagree, memory on another node, latency runs
 * faster than an L1 hit, each at a known level.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>

#include <cmocka.h>

#include "matrix/matrix.h"

static const struct mess_reason *find(const struct mess_verdict *v, const char *rule)
{
	for (size_t i = 0; i < v->n; i++)
		if (!strcmp(v->r[i].rule, rule))
			return &v->r[i];
	return NULL;
}

/* n steady cells, all their memory on the target. */
static void cells(struct mess_mx_cell *c, int n)
{
	memset(c, 0, sizeof(*c) * (size_t)n);
	for (int i = 0; i < n; i++) {
		c[i].target = i;
		c[i].lat_ns = 100;
		c[i].lat_spread_ns = 2;
		c[i].bw_gbs = 20;
		c[i].bw_spread_gbs = 0.5;
		c[i].bw21_gbs = 25;
		c[i].bw21_spread_gbs = 0.5;
		c[i].chase_on = 64;
		c[i].gen_on = 256;
	}
}

static void judged(const struct mess_mx_cell *c, int n, struct mess_verdict *v)
{
	mess_verdict_init(v);
	mess_mx_judge(c, n, v);
}

static void spread(void **state)
{
	struct mess_mx_cell c[4];
	struct mess_verdict v;
	const struct mess_reason *q;

	cells(c, 4);
	judged(c, 4, &v);
	assert_int_equal(v.level, MESS_PASS);
	assert_int_equal(v.n, 0);
	/* 1 of 4 latencies spread 15 %: WARN. */
	c[1].lat_spread_ns = 15;
	judged(c, 4, &v);
	q = find(&v, "lat_spread");
	assert_non_null(q);
	assert_int_equal(q->level, MESS_WARN);
	assert_non_null(strstr(q->text, "1 of 4 pairs"));
	/* 2 of 4 is half, not over it: still WARN; 3 of 4 INVALID. */
	c[2].lat_spread_ns = 15;
	judged(c, 4, &v);
	assert_int_equal(find(&v, "lat_spread")->level, MESS_WARN);
	c[3].lat_spread_ns = 15;
	judged(c, 4, &v);
	assert_int_equal(find(&v, "lat_spread")->level, MESS_INVALID);
	/* The 2:1 mix's spread counts as the bandwidth's. */
	cells(c, 4);
	c[0].bw21_spread_gbs = 5;
	judged(c, 4, &v);
	assert_int_equal(find(&v, "bw_spread")->level, MESS_WARN);
	/* A cell cut short (NAN) breaks nothing. */
	cells(c, 4);
	c[3].lat_ns = c[3].lat_spread_ns = c[3].bw_gbs = c[3].bw_spread_gbs = NAN;
	judged(c, 4, &v);
	assert_int_equal(v.level, MESS_PASS);
}

static void misplaced(void **state)
{
	struct mess_mx_cell c[3];
	struct mess_verdict v;

	cells(c, 3);
	c[0].gen_off = 12.5;
	judged(c, 3, &v);
	assert_int_equal(find(&v, "misplaced")->level, MESS_WARN);
	c[1].chase_off = 2;
	judged(c, 3, &v);
	assert_int_equal(find(&v, "misplaced")->level, MESS_INVALID);
	assert_int_equal(v.level, MESS_INVALID);
	/* Placement not read (NAN): not counted. */
	cells(c, 3);
	c[0].chase_off = c[0].gen_off = NAN;
	judged(c, 3, &v);
	assert_null(find(&v, "misplaced"));
}

/* Latency runs faster than an L1 hit (issue 46): counted over all the
 * runs timed, kept and discarded, as the curves' windows: WARN from one,
 * INVALID above a third. */
static void impossible(void **state)
{
	struct mess_mx_cell c[4];
	struct mess_verdict v;
	const struct mess_reason *q;

	cells(c, 4);
	for (int i = 0; i < 4; i++)
		c[i].lat_repeats = 3;
	judged(c, 4, &v);
	assert_null(find(&v, "impossible"));
	c[2].lat_impossible = 1;
	judged(c, 4, &v);
	q = find(&v, "impossible");
	assert_non_null(q);
	assert_int_equal(q->level, MESS_WARN);
	assert_non_null(strstr(q->text, "1 of 13 latency runs"));
	assert_int_equal(v.level, MESS_WARN);
	/* 6 of 18 is a third, not above it: WARN; 7 of 19 INVALID. */
	c[0].lat_impossible = c[1].lat_impossible = 2;
	c[3].lat_impossible = 1;
	judged(c, 4, &v);
	assert_int_equal(find(&v, "impossible")->level, MESS_WARN);
	assert_non_null(strstr(find(&v, "impossible")->text, "6 of 18"));
	c[3].lat_impossible = 2;
	judged(c, 4, &v);
	assert_int_equal(find(&v, "impossible")->level, MESS_INVALID);
	assert_int_equal(v.level, MESS_INVALID);
	/* A pair whose every run was impossible: no figure, all counted. */
	cells(c, 1);
	c[0].lat_ns = c[0].lat_spread_ns = NAN;
	c[0].lat_impossible = 4;
	judged(c, 1, &v);
	assert_non_null(strstr(find(&v, "impossible")->text, "4 of 4"));
	assert_int_equal(v.level, MESS_INVALID);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(spread),
		cmocka_unit_test(misplaced),
		cmocka_unit_test(impossible),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
