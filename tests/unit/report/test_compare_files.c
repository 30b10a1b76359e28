// SPDX-License-Identifier: MIT
/*
 * The comparison service's files (core/compare/compare.h) from two hand-made sets
 * (the families of test_compare.c: the figures are worked out there): what
 * compare.json and compare.md say, unknowns as null, the warnings.
 */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "core/compare/compare.h"
#include "mess/json.h"
#include "near.h"

static char base[PATH_MAX];

static int setup(void **state)
{
	snprintf(base, sizeof(base), "/tmp/mess-test-compare.XXXXXX");
	return mkdtemp(base) ? 0 : -1;
}

static int teardown(void **state)
{
	char cmd[PATH_MAX + 16];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", base);
	return system(cmd);
}

static void add_curve(struct mess_family *f, double read_pct, size_t n,
		      const double *bw, const double *lat)
{
	struct mess_curve *c = mess_family_curve(f, MESS_STORE_PCT_UNKNOWN,
						 read_pct);

	assert_non_null(c);
	for (size_t i = 0; i < n; i++) {
		struct mess_point p = {
			.store_pct = MESS_STORE_PCT_UNKNOWN, .read_pct = read_pct,
			.nop = 1000 - i, .bw_gbs = bw[i], .lat_ns = lat[i],
		};
		assert_int_equal(mess_curve_add(c, &p), 0);
	}
}

/* A as in test_compare.c but with no unloaded latency at all (no chase
 * run, no near-idle point); B as there. */
static void families(struct mess_family *a, struct mess_family *b)
{
	double a100[] = { 10, 50, 100 }, a50[] = { 10, 40, 80 };
	double b100[] = { 20, 150, 300 }, b50[] = { 20, 100, 200 };
	double la[] = { 110, 150, 250 }, lb[] = { 125, 160, 300 };

	add_curve(a, 100, 3, a100, la);
	add_curve(a, 50, 3, a50, la);
	add_curve(b, 100, 3, b100, lb);
	add_curve(b, 50, 3, b50, lb);
	b->unloaded_ns = 120;
}

static void info(struct mess_set_info *i, const char *label, const char *bw)
{
	memset(i, 0, sizeof(*i));
	i->kind = MESS_SET_RUN;
	i->kind_name = "run";
	snprintf(i->path, sizeof(i->path), "/data/%s", label);
	snprintf(i->label, sizeof(i->label), "%s", label);
	i->unloaded_source = "chase-only run";
	snprintf(i->bw_source, sizeof(i->bw_source), "%s", bw);
	i->cores = 4;
	i->stride_bytes = 64;
	i->window_bytes = 0;
	i->complete = 1;
}

static json_t *load(const char *name)
{
	char path[PATH_MAX + 64];
	json_error_t e;
	json_t *j;

	snprintf(path, sizeof(path), "%s/%s", base, name);
	j = json_load_file(path, 0, &e);
	if (!j)
		fail_msg("%s: %s", path, e.text);
	return j;
}

static json_t *at(json_t *j, const char *path)
{
	char key[64];

	while (j && *path) {
		size_t n = strcspn(path, ".");

		snprintf(key, sizeof(key), "%.*s", (int)n, path);
		j = key[0] >= '0' && key[0] <= '9' ?
			    json_array_get(j, (size_t)atoi(key)) :
			    json_object_get(j, key);
		path += n + (path[n] == '.');
	}
	if (!j)
		fail_msg("no %s", path);
	return j;
}

static void test_files(void **state)
{
	struct mess_family a = { 0 }, b = { 0 };
	struct mess_set_info ia, ib;
	struct mess_compare_set sets[] = { { &a, &ia, "A" }, { &b, &ib, "B" } };
	double r[] = { 100 }, bw[] = { 80 };
	char note[128] = "", path[PATH_MAX + 32], md[8192];
	struct mess_compare_opts o = { .cmd = "test", .app_read_pct = r,
				       .app_bw_gbs = bw, .napps = 1,
				       .no_plots = 1, .plots_note = note,
				       .plots_note_len = sizeof(note) };
	json_t *j;
	FILE *f;
	size_t n;

	families(&a, &b);
	info(&ia, "A", "accounted");
	info(&ib, "B", "counters");
	/* A carries no verdict; B is INVALID, with a '|' in its reason. */
	snprintf(ib.verdict, sizeof(ib.verdict), "INVALID");
	snprintf(ib.verdict_reason, sizeof(ib.verdict_reason), "mix 0 %% stores: a|b");
	ib.verdict_reasons = 1;
	assert_int_equal(mess_compare_write(base, sets, 2, &o), 0);
	assert_string_equal(note, "skipped: --no-plots");

	j = load("compare.json");
	assert_int_equal(json_integer_value(at(j, "schema")), 1);
	/* A's unloaded latency is unknown: null, never a made-up 0. */
	assert_true(json_is_null(at(j, "sets.0.unloaded_ns")));
	assert_string_equal(json_string_value(at(j, "sets.0.unloaded_source")), "none");
	assert_true(json_is_null(at(j, "sets.0.sat_bw_min_gbs")));
	assert_true(json_is_null(at(j, "read_shares.5.sets.0.bw_at_2x_unloaded_gbs")));
	assert_string_equal(json_string_value(at(j, "read_shares.5.sets.0.bw_at_2x_unloaded_gbs_source")), "none");
	assert_string_equal(json_string_value(at(j, "sets.1.unloaded_source")), "chase-only run");
	assert_near(json_number_value(at(j, "sets.1.max_bw_gbs")), 300, 0);
	assert_int_equal(json_array_size(at(j, "read_shares")), MESS_CMP_NSHARES);
	/* 100 %: common 50 GB/s (A's maximum 100 is the lower). */
	assert_near(json_number_value(at(j, "read_shares.5.read_pct")), 100, 0);
	assert_near(json_number_value(at(j, "read_shares.5.common_bw_gbs")), 50, 0);
	assert_string_equal(json_string_value(at(j, "read_shares.5.common_bw_of")), "A");
	assert_near(json_number_value(at(j, "read_shares.5.sets.1.lat_at_common_bw_ns")),
		    133.1, 1e-9);
	assert_string_equal(json_string_value(at(j, "read_shares.5.sets.1.lat_at_common_bw_ns_source")),
			    "interpolated");
	assert_true(json_is_true(at(j, "read_shares.5.covered_by_all")));
	assert_string_equal(json_string_value(at(j, "ratios.0.set")), "B");
	assert_near(json_number_value(at(j, "ratios.0.max_bw")), 3, 0);
	assert_near(json_number_value(at(j, "ratios.0.per_read_share.0.max_bw")), 2.5, 0);
	assert_true(json_is_null(at(j, "ratios.0.unloaded_latency")));
	assert_string_equal(json_string_value(at(j, "apps.0.best")), "B");
	assert_near(json_number_value(at(j, "apps.0.sets.0.lat_ns")), 210, 0);
	assert_near(json_number_value(at(j, "apps.0.sets.0.best_lower_by_pct")), 32.8, 0);
	assert_string_equal(json_string_value(at(j, "sets.0.verdict")), "none");
	assert_true(json_is_null(at(j, "sets.0.verdict_reason")));
	assert_string_equal(json_string_value(at(j, "sets.1.verdict")), "INVALID");
	assert_string_equal(json_string_value(at(j, "sets.1.verdict_reason")), "mix 0 % stores: a|b");
	/* What stderr warns, compare.json says: the verdict first. */
	assert_int_equal(json_array_size(at(j, "warnings")), 2);
	assert_string_equal(json_string_value(at(j, "warnings.0")),
			    "B: verdict INVALID: mix 0 % stores: a|b");
	assert_non_null(strstr(json_string_value(at(j, "warnings.1")),
			       "A accounted; B counters"));
	assert_non_null(strstr(json_string_value(at(j, "apps.0.verdict")),
			       " Not a result to act on: B INVALID (its figures are not to be trusted;"));
	json_decref(j);

	snprintf(path, sizeof(path), "%s/compare.md", base);
	f = fopen(path, "r");
	assert_non_null(f);
	n = fread(md, 1, sizeof(md) - 1, f);
	md[n] = 0;
	fclose(f);
	assert_non_null(strstr(md, "| maximum bandwidth [GB/s] | 100.0 | 300.0 |"));
	assert_non_null(strstr(md, "| unloaded latency [ns] | unknown | 120.0 (chase-only run) |"));
	assert_non_null(strstr(md, "unknown (no unloaded latency)"));
	assert_non_null(strstr(md, "- **warning**: bandwidth measured differently"));
	assert_non_null(strstr(md, "B serves it at the lower latency, 141.2 ns (interpolated)"));
	/* The verdict column, the reason's '|' escaped, and the INVALID set
	 * said in bold. */
	assert_non_null(strstr(md, "| A | `/data/A` | run | unknown | unknown | not stated by the set | unknown | none (its meta.json has no quality) |"));
	assert_non_null(strstr(md, "| B | `/data/B` | run | unknown | unknown | not stated by the set | unknown | **INVALID**: mix 0 % stores: a\\|b |"));
	/* The answer in one sentence, from measured figures, the INVALID
	 * set said first; no peak in the files: no % of one. */
	assert_non_null(strstr(md, "**In one sentence:** B is INVALID, so its figures are not to be believed; B reaches 3.00x the maximum bandwidth of A (300.0 against 100.0 GB/s, measured) (an unloaded latency is unknown)."));
	assert_non_null(strstr(md, "| maximum bandwidth, % of the theoretical peak | unknown (no peak in its files) | unknown (no peak in its files) |"));
	assert_non_null(strstr(md, "**B is INVALID**"));
	mess_family_free(&a);
	mess_family_free(&b);
}

static void test_refused(void **state)
{
	struct mess_family a = { 0 }, e = { 0 };
	struct mess_set_info ia, ie;
	struct mess_compare_set sets[] = { { &a, &ia, "A" }, { &e, &ie, "E" } };
	struct mess_compare_opts o = { .cmd = "test", .no_plots = 1 };
	char dir[PATH_MAX + 32];

	families(&a, &a);
	info(&ia, "A", "");
	info(&ie, "E", "");
	snprintf(dir, sizeof(dir), "%s/refused", base);
	assert_int_equal(mess_compare_write(dir, sets, 1, &o), -EINVAL);
	/* A set with nothing usable is named and nothing is written. */
	assert_int_equal(mess_compare_write(dir, sets, 2, &o), -EINVAL);
	snprintf(dir, sizeof(dir), "%s/refused/compare.json", base);
	assert_int_equal(access(dir, F_OK), -1);
	mess_family_free(&a);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_files),
		cmocka_unit_test(test_refused),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
