// SPDX-License-Identifier: MIT
/* The counter tables' sanity and the count arithmetic, with answers
 * computed by hand in the comments. */
#include <errno.h>
#include <fnmatch.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "mess/counters.h"
#include "near.h"

static void test_scale(void **state)
{
	struct mess_count ran = { 1000, 100, 100 }, mux = { 1000, 200, 50 };
	struct mess_count never = { 5, 100, 0 }, off = { 0, 0, 0 };
	struct mess_count zero = { 0, 100, 100 };
	double v, f;

	assert_int_equal(mess_count_scale(&ran, &v, &f), MESS_COUNT_OK);
	assert_near(v, 1000, 0);
	assert_near(f, 1, 0);
	/* Ran a quarter of the time: 1000 * 200 / 50 = 4000. */
	assert_int_equal(mess_count_scale(&mux, &v, &f), MESS_COUNT_SCALED);
	assert_near(v, 4000, 0);
	assert_near(f, 0.25, 0);
	/* Never scheduled: no figure, never 0. */
	assert_int_equal(mess_count_scale(&never, &v, &f), MESS_COUNT_NOT_RUN);
	assert_true(isnan(v));
	assert_near(f, 0, 0);
	assert_int_equal(mess_count_scale(&off, &v, &f), MESS_COUNT_NOT_ENABLED);
	assert_true(isnan(v) && isnan(f));
	/* A count of zero that ran is a figure: zero. */
	assert_int_equal(mess_count_scale(&zero, &v, &f), MESS_COUNT_OK);
	assert_near(v, 0, 0);
	assert_string_equal(mess_count_state_name(MESS_COUNT_SCALED), "scaled");
	assert_string_equal(mess_count_state_name(MESS_COUNT_NOT_RUN), "not-run");
	assert_string_equal(mess_count_state_name(MESS_COUNT_NOT_ENABLED), "not-enabled");
	assert_string_equal(mess_count_state_name(MESS_COUNT_OK), "ok");
}

static void test_delta(void **state)
{
	struct mess_count a = { 100, 10, 5 }, b = { 250, 30, 25 }, d;
	double v, f;

	assert_int_equal(mess_count_delta(&a, &b, &d), 0);
	assert_true(d.raw == 150 && d.enabled_ns == 20 && d.running_ns == 20);
	/* The window ran all of its 20 ns, though the counter did not
	 * before it: the window's figure is unscaled. */
	assert_int_equal(mess_count_scale(&d, &v, &f), MESS_COUNT_OK);
	assert_near(v, 150, 0);
	assert_int_equal(mess_count_delta(&b, &a, &d), -ERANGE);
	b.raw = 50;
	assert_int_equal(mess_count_delta(&a, &b, &d), -ERANGE);
}

/* 6e6 walk cycles over 1e6 loads = 6 cycles a load; at 2 GHz, 3 ns. */
static void test_walk_free(void **state)
{
	assert_near(mess_walk_free_latency(100, 6e6, 1e6, 2), 97, 1e-12);
	assert_near(mess_walk_free_latency(100, 0, 1e6, 2), 100, 0);
	/* More walk time than latency: the inputs disagree, no figure. */
	assert_true(isnan(mess_walk_free_latency(1, 6e6, 1e6, 2)));
	assert_true(isnan(mess_walk_free_latency(100, 6e6, 0, 2)));
	assert_true(isnan(mess_walk_free_latency(100, 6e6, 1e6, 0)));
	assert_true(isnan(mess_walk_free_latency(100, NAN, 1e6, 2)));
	assert_true(isnan(mess_walk_free_latency(NAN, 6e6, 1e6, 2)));
	assert_true(isnan(mess_walk_free_latency(100, -1, 1e6, 2)));
}

static void test_ratio(void **state)
{
	/* 30 GB/s measured, 40 accounted: 0.75. */
	assert_near(mess_bw_ratio(30, 40), 0.75, 1e-15);
	assert_near(mess_bw_ratio(0, 40), 0, 0);
	assert_true(isnan(mess_bw_ratio(30, 0)));
	assert_true(isnan(mess_bw_ratio(NAN, 40)));
	assert_true(isnan(mess_bw_ratio(30, NAN)));
	assert_true(isnan(mess_bw_ratio(30, INFINITY)));
	assert_true(isnan(mess_bw_ratio(-1, 40)));
}

static void test_ratio_median(void **state)
{
	/* Finite: 1.2, 0.8, 1.0 -> median 1.0. */
	double r[] = { 1.2, NAN, 0.8, 1.0, INFINITY }, even[] = { 0.5, 1.5 };
	double none[] = { NAN, NAN };
	size_t used = 99;

	assert_near(mess_bw_ratio_median(r, 5, &used), 1.0, 0);
	assert_int_equal(used, 3);
	/* The input is left as it was. */
	assert_near(r[0], 1.2, 0);
	assert_near(mess_bw_ratio_median(even, 2, &used), 1.0, 0);
	assert_int_equal(used, 2);
	assert_true(isnan(mess_bw_ratio_median(none, 2, &used)));
	assert_int_equal(used, 0);
	assert_true(isnan(mess_bw_ratio_median(NULL, 0, NULL)));
}

static void test_list_split(void **state)
{
	char ev[3][MESS_EVENT_LEN], longer[MESS_EVENT_LEN + 8];

	assert_int_equal(mess_event_list_split("a;bb;c", ev, 3), 3);
	assert_string_equal(ev[1], "bb");
	assert_int_equal(mess_event_list_split("read", ev, 3), 1);
	assert_string_equal(ev[0], "read");
	assert_int_equal(mess_event_list_split("a;b;c;d", ev, 3), -E2BIG);
	assert_int_equal(mess_event_list_split("a;;b", ev, 3), -EINVAL);
	assert_int_equal(mess_event_list_split("a;", ev, 3), -EINVAL);
	assert_int_equal(mess_event_list_split("", ev, 3), -EINVAL);
	memset(longer, 'x', sizeof(longer) - 1);
	longer[sizeof(longer) - 1] = 0;
	assert_int_equal(mess_event_list_split(longer, ev, 3), -EINVAL);
}

/* Every family can be used as the header says. */
static void test_dram_table(void **state)
{
	assert_true(mess_dram_nfamilies > 0);
	for (size_t i = 0; i < mess_dram_nfamilies; i++) {
		const struct mess_dram_family *f = &mess_dram_families[i];
		char ev[32][MESS_EVENT_LEN];
		int nr, nw = 0;

		assert_non_null(f->name);
		assert_true(f->desc && *f->desc);
		assert_true(f->pmu_glob && *f->pmu_glob);
		assert_true(f->source && strlen(f->source) > 20);
		assert_non_null(f->read_event);
		nr = mess_event_list_split(f->read_event, ev, 32);
		assert_true(nr > 0);
		if (f->write_event) {
			nw = mess_event_list_split(f->write_event, ev, 32);
			/* One write event per read event (channel). */
			assert_int_equal(nw, nr);
		}
		/* A total counts reads and writes in one event: no write
		 * event to add to it. */
		if (f->rw_combined)
			assert_null(f->write_event);
		else
			assert_non_null(f->write_event);
		/* Bytes per count: a number, or the sysfs scale (sysfs only:
		 * libpfm4 has no scale). */
		assert_true(f->bytes_per_count > 0 ||
			    (f->bytes_per_count == 0 && f->enc == MESS_ENC_SYSFS));
		assert_true(f->write_bytes_per_count >= 0);
		/* A libpfm4 row names one libpfm4 PMU per instance. */
		if (f->enc == MESS_ENC_PFM)
			assert_non_null(strstr(f->read_event, "%d::"));
		/* A PMU pattern that matches nothing is a typo. */
		assert_int_not_equal(fnmatch(f->pmu_glob, "", 0), 0);
		for (size_t j = 0; j < i; j++)
			assert_string_not_equal(f->name, mess_dram_families[j].name);
	}
}

static void test_core_table(void **state)
{
	for (size_t i = 0; i < mess_core_nsets; i++) {
		const struct mess_core_events *c = &mess_core_event_sets[i];

		assert_true(c->pfm_pmu && *c->pfm_pmu);
		assert_true(c->cycles && *c->cycles);
		assert_true(c->instructions && *c->instructions);
		assert_ptr_equal(mess_core_events_for(c->pfm_pmu), c);
	}
	/* What the issue names, at least. */
	const char *need[] = { "skx", "icx", "spr", "amd64_fam17h_zen2",
			       "amd64_fam19h_zen3", "amd64_fam19h_zen4", "arm_n1" };
	for (size_t i = 0; i < sizeof(need) / sizeof(*need); i++)
		assert_non_null(mess_core_events_for(need[i]));
	/* AMD counts walks, not walk cycles: nothing to subtract. */
	assert_null(mess_core_events_for("amd64_fam19h_zen4")->walk_cycles);
	assert_null(mess_core_events_for("nosuch"));
	assert_null(mess_core_events_for(NULL));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_scale),
		cmocka_unit_test(test_delta),
		cmocka_unit_test(test_walk_free),
		cmocka_unit_test(test_ratio),
		cmocka_unit_test(test_ratio_median),
		cmocka_unit_test(test_list_split),
		cmocka_unit_test(test_dram_table),
		cmocka_unit_test(test_core_table),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
