// SPDX-License-Identifier: MIT
/*
 * The verdict of a set (mess_set_info.verdict, .verdict_reason): read
 * from a run's meta.json "quality", none for every other set, and a
 * verdict that is not one of ours refused with a line.  Known answers on
 * small files written here.
 */
#define _XOPEN_SOURCE 700
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "mess/curve.h"
#include "mess/load.h"

#include "load_util.h"

/* Load tmp/run with meta.json holding quality (NULL: no meta.json). */
static void load_quality(const char *quality, struct mess_set_info *in)
{
	struct mess_family f;
	char err[512], meta[4096];

	write_run();
	if (quality) {
		snprintf(meta, sizeof(meta), "{\"version\": \"0.1.0\", \"complete\": true%s%s}\n",
			 quality[0] ? ", \"quality\": " : "", quality);
		put("run/meta.json", meta);
	}
	assert_int_equal(load("run", 0, &f, in, err, sizeof(err)), 0);
	mess_family_free(&f);
}

#define R(level, text) "{\"level\": \"" level "\", \"rule\": \"r\", \"text\": \"" text "\"}"

static void test_none(void **state)
{
	struct mess_set_info in;

	/* No meta.json, one without "quality" (a run made before verdicts),
	 * quality null. */
	load_quality(NULL, &in);
	assert_string_equal(in.verdict, "");
	assert_string_equal(mess_set_verdict(&in), "none");
	load_quality("", &in);
	assert_string_equal(mess_set_verdict(&in), "none");
	assert_string_equal(in.verdict_reason, "");
	assert_int_equal(in.verdict_reasons, 0);
	load_quality("null", &in);
	assert_string_equal(mess_set_verdict(&in), "none");
	assert_string_equal(mess_set_verdict(NULL), "none");

	/* Another layout never has one. */
	put("bw/bwlat_100.txt", "1000 100\n2000 110\n");
	{
		struct mess_family f;
		char err[256];

		assert_int_equal(load("bw", 0, &f, &in, err, sizeof(err)), 0);
		assert_string_equal(in.kind_name, "bwlat");
		assert_string_equal(mess_set_verdict(&in), "none");
		mess_family_free(&f);
	}
}

static void test_levels(void **state)
{
	struct mess_set_info in;

	/* PASS: its notes are no reason. */
	load_quality("{\"verdict\": \"PASS\", \"reasons\": [" R("PASS", "a note") "]}", &in);
	assert_string_equal(mess_set_verdict(&in), "PASS");
	assert_string_equal(in.verdict_reason, "");
	assert_int_equal(in.verdict_reasons, 0);

	/* WARN: the first WARN, past a PASS note; both WARNs counted. */
	load_quality("{\"verdict\": \"WARN\", \"reasons\": [" R("PASS", "a note") ", "
		     R("WARN", "first warning") ", " R("WARN", "second") "], \"reasons_dropped\": 0}",
		     &in);
	assert_string_equal(in.verdict, "WARN");
	assert_string_equal(in.verdict_reason, "first warning");
	assert_int_equal(in.verdict_reasons, 2);

	/* INVALID: the first INVALID, not the WARN before it; a line break
	 * in the text becomes a space. */
	load_quality("{\"verdict\": \"INVALID\", \"reasons\": [" R("WARN", "w") ", "
		     R("INVALID", "mix 0 % stores:\\n5 of 9 flagged") ", " R("INVALID", "x") ", "
		     R("PASS", "n") "]}", &in);
	assert_string_equal(in.verdict, "INVALID");
	assert_string_equal(in.verdict_reason, "mix 0 % stores: 5 of 9 flagged");
	assert_int_equal(in.verdict_reasons, 2);

	/* INVALID edited by hand over a WARN run's reasons: the first above
	 * PASS is still said. */
	load_quality("{\"verdict\": \"INVALID\", \"reasons\": [" R("PASS", "n") ", "
		     R("WARN", "disturbed windows") "]}", &in);
	assert_string_equal(in.verdict, "INVALID");
	assert_string_equal(in.verdict_reason, "disturbed windows");
	assert_int_equal(in.verdict_reasons, 1);

	/* No reasons at all, or malformed ones: the verdict alone. */
	load_quality("{\"verdict\": \"INVALID\", \"reasons\": [{\"level\": 3}, \"x\", "
		     "{\"level\": \"BAD\", \"text\": \"t\"}]}", &in);
	assert_string_equal(in.verdict, "INVALID");
	assert_string_equal(in.verdict_reason, "");
	assert_int_equal(in.verdict_reasons, 0);

	/* Interrupted before it was judged. */
	load_quality("{\"verdict\": \"pending\"}", &in);
	assert_string_equal(mess_set_verdict(&in), "pending");
	assert_string_equal(in.verdict_reason, "");
}

static void test_long_reason(void **state)
{
	struct mess_set_info in;
	char q[2048], text[1001];

	memset(text, 'a', 1000);
	text[1000] = '\0';
	snprintf(q, sizeof(q), "{\"verdict\": \"WARN\", \"reasons\": [" R("WARN", "%s") "]}", text);
	load_quality(q, &in);
	assert_int_equal(strlen(in.verdict_reason), sizeof(in.verdict_reason) - 1);
}

static void test_refused(void **state)
{
	static const struct {
		const char *quality, *says;
	} bad[] = {
		{ "{\"verdict\": \"MAYBE\"}", "quality.verdict 'MAYBE' is not allowed" },
		{ "{\"verdict\": \"invalid\"}", "quality.verdict 'invalid' is not allowed" },
		{ "{\"verdict\": \"\"}", "quality.verdict '' is not allowed" },
		{ "{\"verdict\": 2}", "quality.verdict is not a string" },
		{ "{\"reasons\": []}", "quality.verdict is missing" },
		{ "\"PASS\"", "quality.verdict is missing" },
	};
	char meta[512];

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		write_run();
		snprintf(meta, sizeof(meta), "{\"complete\": true, \"quality\": %s}\n",
			 bad[i].quality);
		put("run/meta.json", meta);
		expect_err("run", 0, -EINVAL, "meta.json", bad[i].says,
			   "allowed: PASS, WARN, INVALID or pending", NULL);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
#define T(t) cmocka_unit_test_setup_teardown(t, setup, teardown)
		T(test_none),
		T(test_levels),
		T(test_long_reason),
		T(test_refused),
#undef T
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
