// SPDX-License-Identifier: MIT
/*
 * mess c2c's judging table (harness/c2c/judge.c) with constructed pairs:
 * a preempted tail, a median no cache transfer takes, each at a known
 * level.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>

#include <cmocka.h>

#include "c2c/c2c.h"

static const struct mess_reason *find(const struct mess_verdict *v, const char *rule)
{
	for (size_t i = 0; i < v->n; i++)
		if (!strcmp(v->r[i].rule, rule))
			return &v->r[i];
	return NULL;
}

/* n pairs of a 60 ns median, 90 ns p99. */
static void pairs(struct mess_c2c_pair *p, int n)
{
	memset(p, 0, sizeof(*p) * (size_t)n);
	for (int i = 0; i < n; i++)
		p[i] = (struct mess_c2c_pair){ .a = 0, .b = i + 1, .median_ns = 60,
			.p99_ns = 90, .min_ns = 55, .samples = 200 };
}

static void judged(const struct mess_c2c_pair *p, int n, struct mess_verdict *v)
{
	mess_verdict_init(v);
	mess_c2c_judge(p, n, v);
}

static void tail(void **state)
{
	struct mess_c2c_pair p[4];
	struct mess_verdict v;
	const struct mess_reason *q;

	pairs(p, 4);
	judged(p, 4, &v);
	assert_int_equal(v.level, MESS_PASS);
	assert_int_equal(v.n, 0);
	/* 1 of 4 with a p99 of 4 ms (a time slice): WARN, the median stands. */
	p[2].p99_ns = 4e6;
	judged(p, 4, &v);
	q = find(&v, "disturbed_tail");
	assert_non_null(q);
	assert_int_equal(q->level, MESS_WARN);
	assert_non_null(strstr(q->text, "1 of 4 pairs"));
	/* 3 of 4: over half, INVALID. */
	p[0].p99_ns = p[1].p99_ns = 4e6;
	judged(p, 4, &v);
	assert_int_equal(find(&v, "disturbed_tail")->level, MESS_INVALID);
	/* Exactly 10x is not over it. */
	pairs(p, 4);
	p[0].p99_ns = 600;
	judged(p, 4, &v);
	assert_null(find(&v, "disturbed_tail"));
}

static void descheduled(void **state)
{
	struct mess_c2c_pair p[3];
	struct mess_verdict v;

	/* A median of 3 us one way: 1 of 3 is not over a third, WARN. */
	pairs(p, 3);
	p[0].median_ns = 3000;
	p[0].p99_ns = 5000;
	judged(p, 3, &v);
	assert_int_equal(find(&v, "descheduled")->level, MESS_WARN);
	/* 2 of 3: INVALID. */
	p[1].median_ns = 2500;
	p[1].p99_ns = 4000;
	judged(p, 3, &v);
	assert_int_equal(find(&v, "descheduled")->level, MESS_INVALID);
	assert_int_equal(v.level, MESS_INVALID);
	/* A pair not measured (NAN) breaks nothing. */
	pairs(p, 3);
	p[0].median_ns = p[0].p99_ns = NAN;
	judged(p, 3, &v);
	assert_int_equal(v.level, MESS_PASS);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(tail),
		cmocka_unit_test(descheduled),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
