// SPDX-License-Identifier: MIT
/*
 * mess interfere's judging table (harness/interfere/judge.c) with
 * constructed rows: windows kept disturbed, windows discarded as
 * impossible, p99s that disagree, each at a known level.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>

#include <cmocka.h>

#include "interfere/interfere.h"

static const struct mess_reason *find(const struct mess_verdict *v, const char *rule)
{
	for (size_t i = 0; i < v->n; i++)
		if (!strcmp(v->r[i].rule, rule))
			return &v->r[i];
	return NULL;
}

/* n rows of 3 windows each, steady (p99 spread 1 %). */
static void rows(struct mess_ifr_row *r, int n)
{
	memset(r, 0, sizeof(*r) * (size_t)n);
	for (int i = 0; i < n; i++) {
		r[i].aggressors = i;
		r[i].lat = (struct mess_ifr_fig){ .p50 = 100, .p90 = 150, .p99 = 200,
			.p999 = 300, .mean = 110, .p99_spread = 2, .windows = 3 };
	}
}

static void judged(const struct mess_ifr_row *r, int n, struct mess_verdict *v)
{
	mess_verdict_init(v);
	mess_ifr_judge(r, n, v);
}

static void kept_disturbed(void **state)
{
	struct mess_ifr_row r[3];
	struct mess_verdict v;
	const struct mess_reason *q;

	/* Clean rows: nothing to say. */
	rows(r, 3);
	judged(r, 3, &v);
	assert_int_equal(v.level, MESS_PASS);
	assert_int_equal(v.n, 0);
	/* 3 of 9 windows kept disturbed: WARN. */
	r[0].disturbed_kept = 2;
	r[2].disturbed_kept = 1;
	judged(r, 3, &v);
	q = find(&v, "disturbed_kept");
	assert_non_null(q);
	assert_int_equal(q->level, MESS_WARN);
	assert_int_equal(v.level, MESS_WARN);
	assert_non_null(strstr(q->text, "3 of 9 windows"));
	/* 6 of 9: a kept-disturbed majority, INVALID. */
	r[1].disturbed_kept = 3;
	judged(r, 3, &v);
	assert_int_equal(find(&v, "disturbed_kept")->level, MESS_INVALID);
	assert_int_equal(v.level, MESS_INVALID);
}

static void impossible(void **state)
{
	struct mess_ifr_row r[3];
	struct mess_verdict v;
	const struct mess_reason *q;

	/* One window of 9 faster than an L1 hit (discarded: 2 windows
	 * behind the row's figures, 1 impossible): its reason, WARN. */
	rows(r, 3);
	r[1].lat.windows = 2;
	r[1].impossible = 1;
	judged(r, 3, &v);
	q = find(&v, "impossible");
	assert_non_null(q);
	assert_int_equal(q->level, MESS_WARN);
	assert_non_null(strstr(q->text, "1 of 9 windows"));
	/* 4 of 9: over a third, INVALID. */
	r[0].lat.windows = 1;
	r[0].impossible = 2;
	r[2].lat.windows = 2;
	r[2].impossible = 1;
	judged(r, 3, &v);
	assert_int_equal(find(&v, "impossible")->level, MESS_INVALID);
}

static void spread(void **state)
{
	struct mess_ifr_row r[2];
	struct mess_verdict v;

	/* Every row's p99 spread 25 %: WARN, never INVALID. */
	rows(r, 2);
	r[0].lat.p99_spread = r[1].lat.p99_spread = 50;
	judged(r, 2, &v);
	assert_int_equal(find(&v, "p99_spread")->level, MESS_WARN);
	assert_int_equal(v.level, MESS_WARN);
	/* A row with no p99 (NAN) breaks nothing. */
	rows(r, 2);
	r[0].lat.p99 = r[0].lat.p99_spread = NAN;
	judged(r, 2, &v);
	assert_int_equal(v.level, MESS_PASS);
}

static void table_json(void **state)
{
	json_t *a = mess_ifr_rules_json();

	assert_int_equal(json_array_size(a), 3);
	assert_string_equal(json_string_value(json_object_get(json_array_get(a, 0), "rule")),
			    "disturbed_kept");
	assert_true(fabs(json_real_value(json_object_get(json_array_get(a, 0),
							 "invalid_share")) - 0.5) < 1e-12);
	assert_true(json_is_null(json_object_get(json_array_get(a, 2), "invalid_share")));
	json_decref(a);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(kept_disturbed),
		cmocka_unit_test(impossible),
		cmocka_unit_test(spread),
		cmocka_unit_test(table_json),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
