// SPDX-License-Identifier: MIT
/*
 * The verdict of an absorption table (mess_absorb_table_verdict): entries
 * whose k1 status is wide or unclear warn, more than half of them make the
 * table INVALID (exactly half does not); pairs kept though disturbed warn
 * with their share; disturbed pairs all measured again are a note.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "mess/absorb.h"
#include "mess/quality.h"

static const struct mess_reason *reason(const struct mess_verdict *v,
					const char *rule)
{
	for (size_t i = 0; i < v->n; i++)
		if (!strcmp(v->r[i].rule, rule))
			return &v->r[i];
	return NULL;
}

/* entries, of them wide and unclear (the rest ok). */
static struct mess_absorb_tally table(unsigned entries, unsigned wide,
				      unsigned unclear)
{
	struct mess_absorb_tally t = { .entries = entries, .pairs = 100 };

	t.status[MESS_ABSORB_WIDE] = wide;
	t.status[MESS_ABSORB_UNCLEAR] = unclear;
	t.status[MESS_ABSORB_OK] = entries - wide - unclear;
	return t;
}

static void clean_table_passes(void **state)
{
	struct mess_absorb_tally t = table(10, 0, 0);
	struct mess_verdict v;

	t.status[MESS_ABSORB_NONE] = 4;
	t.status[MESS_ABSORB_OK] = 6;
	mess_verdict_init(&v);
	mess_absorb_table_verdict(&t, "", &v);
	assert_int_equal(v.level, MESS_PASS);
	assert_int_equal(v.n, 0);
	/* Nothing measured: nothing to say either. */
	t = (struct mess_absorb_tally){ 0 };
	mess_absorb_table_verdict(&t, NULL, &v);
	assert_int_equal(v.n, 0);
}

static void some_doubtful_warn(void **state)
{
	struct mess_absorb_tally t = table(10, 2, 1);
	struct mess_verdict v;
	const struct mess_reason *r;

	mess_verdict_init(&v);
	mess_absorb_table_verdict(&t, "stream-c1 fp_add64 (wide)", &v);
	assert_int_equal(v.level, MESS_WARN);
	r = reason(&v, "k1_doubtful");
	assert_non_null(r);
	assert_int_equal(r->level, MESS_WARN);
	assert_non_null(strstr(r->text, "3 of 10 entries (30 %)"));
	assert_non_null(strstr(r->text, "2 wide"));
	assert_non_null(strstr(r->text, "1 unclear"));
	assert_non_null(strstr(r->text, "over 50 % makes the table INVALID: stream-c1 fp_add64 (wide)"));
}

static void more_than_half_is_invalid(void **state)
{
	struct mess_absorb_tally half = table(10, 3, 2), over = table(10, 3, 3);
	struct mess_absorb_tally all = table(1, 0, 1);
	struct mess_verdict v;

	/* Exactly half: still a warning. */
	mess_verdict_init(&v);
	mess_absorb_table_verdict(&half, NULL, &v);
	assert_int_equal(v.level, MESS_WARN);
	assert_int_equal(reason(&v, "k1_doubtful")->level, MESS_WARN);
	mess_verdict_init(&v);
	mess_absorb_table_verdict(&over, NULL, &v);
	assert_int_equal(v.level, MESS_INVALID);
	assert_int_equal(reason(&v, "k1_doubtful")->level, MESS_INVALID);
	assert_non_null(strstr(reason(&v, "k1_doubtful")->text, "6 of 10 entries (60 %)"));
	mess_verdict_init(&v);
	mess_absorb_table_verdict(&all, NULL, &v);
	assert_int_equal(v.level, MESS_INVALID);
	/* The threshold is the documented one. */
	assert_true(MESS_ABSORB_DOUBTFUL_INVALID == 0.5);
}

static void kept_disturbed_warn_with_share(void **state)
{
	struct mess_absorb_tally t = table(4, 0, 0);
	struct mess_verdict v;
	const struct mess_reason *r;

	t.pairs = 200;
	t.disturbed = 30;
	t.redone = 20;
	t.kept = 10;
	mess_verdict_init(&v);
	mess_absorb_table_verdict(&t, NULL, &v);
	assert_int_equal(v.level, MESS_WARN);
	r = reason(&v, "disturbed");
	assert_non_null(r);
	assert_non_null(strstr(r->text, "30 of 200 pairs of runs (15.0 %)"));
	assert_non_null(strstr(r->text, "20 were measured again and 10 (5.0 % of the pairs) kept"));
	assert_null(reason(&v, "disturbed_replaced"));

	/* All measured again: a note, the verdict unchanged. */
	t.kept = 0;
	mess_verdict_init(&v);
	mess_absorb_table_verdict(&t, NULL, &v);
	assert_int_equal(v.level, MESS_PASS);
	r = reason(&v, "disturbed_replaced");
	assert_non_null(r);
	assert_int_equal(r->level, MESS_PASS);
	assert_null(reason(&v, "disturbed"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(clean_table_passes),
		cmocka_unit_test(some_doubtful_warn),
		cmocka_unit_test(more_than_half_is_invalid),
		cmocka_unit_test(kept_disturbed_warn_with_share),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
