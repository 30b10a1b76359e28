// SPDX-License-Identifier: MIT
/*
 * What a verdict tells the user to do (issue 34): the reasons of many
 * mixes with flagged points are one line with the counts, not one line a
 * mix; and one next step, chosen by the table from the reasons (the
 * competing tasks named; a host state to wait out; generators that never
 * loaded the memory), which every writer (md, JSON, stderr) says alike.
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

#include "mess/quality.h"

static const struct mess_quality_in quiet = {
	.unloaded_ns = 100, .unloaded_sd_ns = 2, .random_ns = 120,
	.random_sd_ns = 2, .clock_spread_pct = 0.5,
	.unloaded_end_ns = NAN, .unloaded_end_sd_ns = NAN,
};

/* n mixes of 15 rising points each, the first bad ones flagged. */
static void family(struct mess_family *f, unsigned nmix, const size_t *bad)
{
	memset(f, 0, sizeof(*f));
	for (unsigned m = 0; m < nmix; m++) {
		struct mess_curve *c = mess_family_curve(f, 10 * m, 100);

		assert_non_null(c);
		for (size_t i = 0; i < 15; i++) {
			struct mess_point p = MESS_POINT_INIT;

			p.nop = 1000 - 60 * i;
			p.bw_gbs = 1 + i;
			p.lat_ns = 100 + 5 * i;
			p.repeats = 3;
			p.flags = i < bad[m] ? MESS_QF(MESS_QR_DISTURBED) : 0;
			assert_int_equal(mess_curve_add(c, &p), 0);
		}
	}
}

/* Eleven mixes with every point flagged: one reason, with the counts. */
static void mixes_grouped(void **state)
{
	static const size_t all[11] = { 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15 };
	static const size_t some[3] = { 0, 2, 9 };
	enum mess_level mix[11];
	struct mess_family f;
	struct mess_verdict v;

	family(&f, 11, all);
	mess_verdict_init(&v);
	mess_quality_family(&f, &quiet, &v, mix);
	assert_int_equal(v.level, MESS_INVALID);
	assert_int_equal(v.n, 1);
	assert_string_equal(v.r[0].rule, "mix_flagged");
	assert_non_null(strstr(v.r[0].text, "(disturbed): 11 mixes, 165 of 165 points"));
	assert_non_null(strstr(v.r[0].text, "0, 10, 20, 30, 40, 50, 60, 70, 80, 90, 100 % stores"));
	assert_null(strstr(v.r[0].text, "a warning"));
	for (int i = 0; i < 11; i++)
		assert_int_equal(mix[i], MESS_INVALID);
	mess_family_free(&f);

	/* One mix clean, one warns, one invalid: still one line, both named. */
	family(&f, 3, some);
	mess_verdict_init(&v);
	mess_quality_family(&f, &quiet, &v, mix);
	assert_int_equal(v.n, 1);
	assert_int_equal(v.r[0].level, MESS_INVALID);
	assert_non_null(strstr(v.r[0].text, ": 2 mixes, 11 of 45 points; invalid, more than a third of the mix: 20 % stores; a warning, a third or fewer: 10 % stores"));
	assert_int_equal(mix[0], MESS_PASS);
	assert_int_equal(mix[1], MESS_WARN);
	assert_int_equal(mix[2], MESS_INVALID);
	mess_family_free(&f);
}

static const char *next(const struct mess_verdict *v)
{
	static char buf[MESS_REASON_LEN];

	return mess_verdict_next(v, buf, sizeof(buf));
}

/* The table's answers: competition first, naming the tasks. */
static void next_step_table(void **state)
{
	struct mess_verdict v;

	mess_verdict_init(&v);
	assert_non_null(strstr(next(&v), "none needed"));
	/* A note changes nothing. */
	mess_verdict_add(&v, MESS_PASS, "governor", "no cpufreq");
	assert_non_null(strstr(next(&v), "none needed"));

	mess_verdict_add(&v, MESS_WARN, "host_state", "the host's L2 moved");
	assert_string_equal(next(&v), "repeat later, or pin the run (an exclusive allocation, or cores kept free of other work)");

	/* The disturbance's cause wins over what it disturbed, whatever the
	 * order or level of the reasons. */
	mess_verdict_add(&v, MESS_INVALID, "mix_flagged", "points flagged");
	mess_verdict_add(&v, MESS_WARN, "competition", "competition before the start");
	snprintf(v.who, sizeof(v.who), "pid 4242 'stress' on PU 1");
	assert_string_equal(next(&v), "measure again on an idle node or in an exclusive allocation: pid 4242 'stress' on PU 1 competed for the run's cores");
	v.who[0] = 0;	/* busy, but no task seen */
	assert_string_equal(next(&v), "measure again on an idle node or in an exclusive allocation");

	/* An interrupted run is finished first, competition or not. */
	mess_verdict_add(&v, MESS_WARN, "partial", "interrupted");
	assert_non_null(strstr(next(&v), "--resume"));

	/* A replay cut short is made again, never resumed. */
	mess_verdict_init(&v);
	mess_verdict_add(&v, MESS_WARN, "partial_rerun", "cut short");
	assert_non_null(strstr(next(&v), "run the same command again with the same --out"));
	assert_null(strstr(next(&v), "--resume"));

	/* Generators that never loaded the memory: what was measured. */
	mess_verdict_init(&v);
	mess_verdict_add(&v, MESS_INVALID, "no_load", "never loaded");
	mess_verdict_add(&v, MESS_WARN, "disturbed", "disturbed");
	assert_non_null(strstr(next(&v), "the chase's latency at the little traffic the generators moved, not as the memory under load"));

	/* Prefix rows; a rule in no row still gets a step. */
	mess_verdict_init(&v);
	mess_verdict_add(&v, MESS_WARN, "ladder_disturbed", "x");
	assert_non_null(strstr(next(&v), "repeat later, or pin"));
	mess_verdict_init(&v);
	mess_verdict_add(&v, MESS_WARN, "something_new", "x");
	assert_non_null(strstr(next(&v), "repeat later, or pin"));
}

/* md, JSON and stderr say the same sentence. */
static void next_step_everywhere(void **state)
{
	struct mess_verdict v;
	char *buf = NULL, want[MESS_REASON_LEN + 32];
	size_t len = 0;
	json_t *j;
	FILE *f;

	mess_verdict_init(&v);
	mess_verdict_add(&v, MESS_WARN, "steal", "stolen");
	j = mess_verdict_json(&v);
	assert_string_equal(json_string_value(json_object_get(j, "next_step")), next(&v));
	json_decref(j);

	f = open_memstream(&buf, &len);
	mess_verdict_md(f, &v);
	fclose(f);
	snprintf(want, sizeof(want), "\n**Next step:** %s.\n", next(&v));
	assert_non_null(strstr(buf, want));
	free(buf);

	buf = NULL;
	f = open_memstream(&buf, &len);
	mess_verdict_print(f, "mess", &v);
	fclose(f);
	/* The last line of the verdict's block. */
	snprintf(want, sizeof(want), "mess: next step: %s\n", next(&v));
	assert_true(len >= strlen(want));
	assert_string_equal(buf + len - strlen(want), want);
	free(buf);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(mixes_grouped),
		cmocka_unit_test(next_step_table),
		cmocka_unit_test(next_step_everywhere),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
