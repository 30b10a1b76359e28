// SPDX-License-Identifier: MIT
/*
 * Key figures honest about what loaded the memory (issue 34 item 2), with
 * known answers: one generator core at 6.7 GB/s whose latency stayed at
 * the unloaded 100 ns (a disturbed window at 210 ns at the lowest load,
 * a drop past the maximum) is "not saturated: 1 generator core reached
 * 6.7 GB/s", with no saturated bandwidth and no waves; a curve that
 * queues at its maximum keeps its saturation.
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

#include "mess/curve.h"
#include "mess/metrics.h"

static void add(struct mess_curve *c, uint64_t nop, double bw, double lat, double sd)
{
	struct mess_point p = {
		.store_pct = c->store_pct, .read_pct = c->read_pct, .nop = nop,
		.bw_gbs = bw, .lat_ns = lat, .lat_ns_std = sd, .repeats = 3,
		MESS_POINT_TRUST_NAN,
	};

	assert_int_equal(mess_curve_add(c, &p), 0);
}

/* Unloaded 100 ns.  Both mixes flat: the most, 6.7 GB/s at 104 ns (sd 2:
 * within 10 % plus two sd); a 2x window at the lowest load; a 6.7 -> 5.0
 * drop with rising latency past the maximum. */
static void flat_family(struct mess_family *f)
{
	struct mess_curve *c;

	memset(f, 0, sizeof(*f));
	c = mess_family_curve(f, 0, 100.0);
	add(c, 1000, 0.3, 210.0, 1);
	add(c, 100, 3.0, 101.0, 1);
	add(c, 10, 6.7, 104.0, 2);
	add(c, 0, 5.0, 106.0, 2);
	c = mess_family_curve(f, 100, 50.0);
	add(c, 1000, 0.2, 100.0, 1);
	add(c, 0, 4.0, 103.0, 1);
}

static void not_loaded(void **state)
{
	struct mess_family f;
	struct mess_summary s;
	char buf[96], *md = NULL;
	size_t len = 0;
	json_t *j;
	FILE *fp;

	flat_family(&f);
	assert_int_equal(mess_summarise(&f, 100.0, 0.0, 0.02, &s), 0);
	assert_int_equal(s.loaded_curves, 0);
	assert_int_equal(s.curves[0].loaded, 0);
	assert_int_equal(s.curves[0].saturated, 0);
	assert_int_equal(s.curves[0].nwaves, 0);
	assert_int_equal(s.have_sat, 0);
	assert_true(isnan(s.sat_bw_min_gbs));
	s.gen_cores = 1;
	assert_int_equal(mess_summary_not_saturated(&s, buf, sizeof(buf)), 1);
	assert_string_equal(buf, "not saturated: 1 generator core reached 6.7 GB/s");

	fp = open_memstream(&md, &len);
	assert_int_equal(mess_summary_write_md(fp, &s, "Curves"), 0);
	fclose(fp);
	/* Said before the figures, not inside their table. */
	assert_non_null(strstr(md, "**Not saturated: 1 generator core reached 6.7 GB/s**"));
	assert_true(strstr(md, "**Not saturated") < strstr(md, "| family metric"));
	assert_non_null(strstr(md, "| saturated bandwidth range [GB/s] | not saturated: 1 generator core reached 6.7 GB/s |"));
	/* Per mix: no saturated bandwidth, no wave count. */
	assert_non_null(strstr(md, "| 0 | 100.0 | 4 | 6.7 | 104.0 | not loaded | 210.0 | – |"));
	assert_null(strstr(md, "| none |"));
	free(md);

	j = mess_summary_json(&s, NULL);
	assert_string_equal(json_string_value(json_object_get(json_object_get(j, "family"), "not_saturated")),
			    "not saturated: 1 generator core reached 6.7 GB/s");
	assert_true(json_is_false(json_object_get(json_array_get(json_object_get(j, "curves"), 0), "loaded")));
	json_decref(j);

	s.gen_cores = 0;	/* a set that does not say */
	mess_summary_not_saturated(&s, buf, sizeof(buf));
	assert_string_equal(buf, "not saturated: the generators reached 6.7 GB/s");
	mess_summary_free(&s);
	mess_family_free(&f);
}

/* One mix that queues (250 ns at its maximum) loads the memory: the
 * family is saturated as before, the flat mix alone says not loaded. */
static void one_loaded(void **state)
{
	struct mess_family f;
	struct mess_summary s;
	char buf[96];
	struct mess_curve *c;

	flat_family(&f);
	c = mess_family_curve(&f, 50, 66.7);
	add(c, 1000, 1.0, 100.0, 1);
	add(c, 100, 20.0, 150.0, 1);
	add(c, 10, 30.0, 250.0, 3);
	assert_int_equal(mess_summarise(&f, 100.0, 0.0, 0.02, &s), 0);
	assert_int_equal(s.loaded_curves, 1);
	assert_int_equal(s.have_sat, 1);
	assert_true(s.sat_bw_min_gbs == 30.0 && s.sat_bw_max_gbs == 30.0);
	assert_int_equal(mess_summary_not_saturated(&s, buf, sizeof(buf)), 0);
	assert_string_equal(buf, "");
	mess_summary_free(&s);
	mess_family_free(&f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(not_loaded),
		cmocka_unit_test(one_loaded),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
