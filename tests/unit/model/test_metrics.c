// SPDX-License-Identifier: MIT
/*
 * Summary metrics: hand-computed synthetic families, edge cases, the JSON
 * and Markdown writers (the public reference curves:
 * test_metrics_reference.c).
 */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <cmocka.h>

#include "mess/curve.h"
#include "mess/messfmt.h"
#include "mess/metrics.h"
#include "mess/quality.h"

#define EPS 1e-9

#include "near.h"

static void add(struct mess_curve *c, uint64_t nop, double bw, double lat)
{
	struct mess_point p = {
		.store_pct = c->store_pct,
		.read_pct = c->read_pct,
		.nop = nop,
		.bw_gbs = bw,
		.lat_ns = lat,
		.repeats = 1,
		/* a set without trust figures, as from elsewhere */
		MESS_POINT_TRUST_NAN,
	};

	assert_int_equal(mess_curve_add(c, &p), 0);
}

/*
 * Unloaded 100 ns, so saturation is at 200 ns.  Points are added out of
 * pressure order on purpose: the summary must order them itself.
 *
 * A (store 0, read 100): max bw 160 @ 300 ns; first >= 200 ns at nop 100
 *   (150 GB/s, 210 ns); 150 -> 148.5 is a 1% drop (below the 2% tolerance,
 *   no wave); 160 -> 140 is 12.5% (one wave, nop 20 -> 10); max lat 400.
 * B (store 50, read 60): tops out at 190 ns: not saturated.
 * C (store 100, read 30): exactly 200 ns at nop 100 (60 GB/s) counts; the
 *   dip back to 190 ns afterwards does not move the first crossing.
 */
static void make_family(struct mess_family *f)
{
	struct mess_curve *c;

	memset(f, 0, sizeof(*f));
	c = mess_family_curve(f, 0, 100.0);
	assert_non_null(c);
	add(c, 20, 160.0, 300.0);
	add(c, 1000, 10.0, 105.0);
	add(c, 500, 50.0, 120.0);
	add(c, 5, 150.0, 400.0);
	add(c, 200, 100.0, 180.0);
	add(c, 100, 150.0, 210.0);
	add(c, 50, 148.5, 260.0);
	add(c, 10, 140.0, 320.0);

	c = mess_family_curve(f, 50, 60.0);
	assert_non_null(c);
	add(c, 1000, 5.0, 102.0);
	add(c, 100, 80.0, 150.0);
	add(c, 10, 120.0, 190.0);

	c = mess_family_curve(f, 100, 30.0);
	assert_non_null(c);
	add(c, 1000, 5.0, 101.0);
	add(c, 100, 60.0, 200.0);
	add(c, 50, 70.0, 190.0);
	add(c, 10, 90.0, 250.0);
}

static void test_curve_metrics(void **state)
{
	struct mess_family f;
	struct mess_summary s;
	const struct mess_curve_summary *a, *b, *c;

	make_family(&f);
	assert_int_equal(mess_summarise(&f, 100.0, 200.0, 0.02, &s), 0);
	assert_int_equal(s.ncurves, 3);
	a = &s.curves[0];
	b = &s.curves[1];
	c = &s.curves[2];

	assert_int_equal(a->store_pct, 0);
	assert_int_equal(a->npoints, 8);
	assert_near(a->max_bw_gbs, 160.0, EPS);
	assert_near(a->lat_at_max_bw_ns, 300.0, EPS);
	assert_true(a->saturated);
	assert_near(a->sat_bw_gbs, 150.0, EPS);
	assert_near(a->sat_lat_ns, 210.0, EPS);
	assert_near(a->max_lat_ns, 400.0, EPS);
	assert_int_equal(a->nwaves, 1);
	assert_int_equal(a->waves[0].nop_from, 20);
	assert_int_equal(a->waves[0].nop_to, 10);
	assert_near(a->waves[0].bw_from_gbs, 160.0, EPS);
	assert_near(a->waves[0].bw_to_gbs, 140.0, EPS);
	assert_near(a->waves[0].lat_to_ns, 320.0, EPS);

	assert_false(b->saturated);
	assert_true(isnan(b->sat_bw_gbs));
	assert_near(b->max_bw_gbs, 120.0, EPS);
	assert_near(b->max_lat_ns, 190.0, EPS);
	assert_int_equal(b->nwaves, 0);

	assert_true(c->saturated);
	assert_near(c->sat_bw_gbs, 60.0, EPS);
	assert_near(c->sat_lat_ns, 200.0, EPS);
	assert_near(c->max_bw_gbs, 90.0, EPS);
	assert_near(c->max_lat_ns, 250.0, EPS);

	assert_true(s.have_sat);
	assert_near(s.sat_bw_min_gbs, 60.0, EPS);
	assert_near(s.sat_bw_max_gbs, 150.0, EPS);
	assert_near(s.max_lat_min_ns, 190.0, EPS);
	assert_near(s.max_lat_max_ns, 400.0, EPS);
	assert_near(s.max_bw_gbs, 160.0, EPS);

	mess_summary_free(&s);
	assert_null(s.curves);

	/* A looser tolerance does not make the 1% drop a wave: it lies below
	 * the curve's maximum (nop 20), where a drop is a non-monotone point
	 * (mess/quality.h), never a wave.  The one past it stays. */
	assert_int_equal(mess_summarise(&f, 100.0, 0.0, 0.005, &s), 0);
	assert_int_equal(s.curves[0].nwaves, 1);
	assert_int_equal(s.curves[0].waves[0].nop_from, 20);
	assert_int_equal(s.curves[0].waves[0].nop_to, 10);
	mess_summary_free(&s);

	/* A higher unloaded latency moves the saturation point. */
	assert_int_equal(mess_summarise(&f, 130.0, 0.0, 0.02, &s), 0);
	assert_near(s.curves[0].sat_bw_gbs, 148.5, EPS);
	assert_false(s.curves[2].saturated);
	assert_near(s.sat_bw_min_gbs, 148.5, EPS);
	assert_near(s.sat_bw_max_gbs, 148.5, EPS);
	mess_summary_free(&s);
	mess_family_free(&f);
}

static void test_no_saturation(void **state)
{
	struct mess_family f = { 0 };
	struct mess_summary s;
	struct mess_curve *c = mess_family_curve(&f, 0, 100.0);

	assert_non_null(c);
	add(c, 100, 10.0, 100.0);
	add(c, 10, 50.0, 150.0);
	assert_int_equal(mess_summarise(&f, 100.0, 0.0, 0.02, &s), 0);
	assert_false(s.have_sat);
	assert_true(isnan(s.sat_bw_min_gbs) && isnan(s.sat_bw_max_gbs));
	assert_near(s.max_lat_min_ns, 150.0, EPS);
	assert_near(s.max_lat_max_ns, 150.0, EPS);
	mess_summary_free(&s);
	mess_family_free(&f);
}

static void test_edges(void **state)
{
	struct mess_family f = { 0 };
	struct mess_summary s;
	struct mess_curve *c;

	/* Empty family. */
	assert_int_equal(mess_summarise(&f, 100.0, 0.0, 0.02, &s), 0);
	assert_int_equal(s.ncurves, 0);
	assert_false(s.have_sat);
	assert_true(isnan(s.max_bw_gbs));
	mess_summary_free(&s);

	/* Bad arguments. */
	assert_int_equal(mess_summarise(&f, 0.0, 0.0, 0.02, &s), -EINVAL);
	assert_int_equal(mess_summarise(&f, NAN, 0.0, 0.02, &s), -EINVAL);
	assert_int_equal(mess_summarise(&f, 100.0, -1.0, 0.02, &s), -EINVAL);
	assert_int_equal(mess_summarise(&f, 100.0, 0.0, 1.0, &s), -EINVAL);
	assert_int_equal(mess_summarise(&f, 100.0, 0.0, -0.1, &s), -EINVAL);
	assert_int_equal(mess_summarise(NULL, 100.0, 0.0, 0.02, &s), -EINVAL);

	/* An empty curve, a one-point curve and a curve with a NAN point. */
	assert_non_null(mess_family_curve(&f, 10, 90.0));
	c = mess_family_curve(&f, 20, 80.0);
	assert_non_null(c);
	add(c, 5, 42.0, 250.0);
	c = mess_family_curve(&f, 30, 70.0);
	assert_non_null(c);
	add(c, 100, 10.0, 110.0);
	add(c, 50, NAN, 500.0);
	add(c, 10, 20.0, INFINITY);
	add(c, 5, 30.0, 120.0);
	assert_int_equal(f.n, 3);

	assert_int_equal(mess_summarise(&f, 100.0, 0.0, 0.02, &s), 0);
	assert_int_equal(s.curves[0].npoints, 0);
	assert_true(isnan(s.curves[0].max_bw_gbs));
	assert_true(isnan(s.curves[0].max_lat_ns));
	assert_false(s.curves[0].saturated);
	assert_int_equal(s.curves[1].npoints, 1);
	assert_near(s.curves[1].max_bw_gbs, 42.0, EPS);
	assert_true(s.curves[1].saturated);
	assert_int_equal(s.curves[2].npoints, 2);
	assert_near(s.curves[2].max_lat_ns, 120.0, EPS);
	assert_near(s.curves[2].max_bw_gbs, 30.0, EPS);
	/* The empty curve stays out of the ranges. */
	assert_near(s.max_lat_min_ns, 120.0, EPS);
	assert_near(s.max_lat_max_ns, 250.0, EPS);
	assert_near(s.max_bw_gbs, 42.0, EPS);
	mess_summary_free(&s);
	mess_family_free(&f);
	assert_int_equal(f.n, 0);
	assert_null(f.curves);
}

/* A point we measured (trust figures present) is a wave only once a
 * repeat confirmed it. */
static void test_wave_needs_a_repeat(void **state)
{
	struct mess_family f = { 0 };
	struct mess_summary s;
	struct mess_curve *c = mess_family_curve(&f, 0, 100.0);

	assert_non_null(c);
	add(c, 100, 50.0, 120.0);
	add(c, 10, 100.0, 200.0);
	add(c, 0, 80.0, 260.0);	/* -20 % past the maximum, latency up */
	for (size_t i = 0; i < c->n; i++)
		c->pts[i].disturbed = 0;
	assert_int_equal(mess_summarise(&f, 100.0, 0.0, 0.02, &s), 0);
	assert_int_equal(s.curves[0].nwaves, 0);
	mess_summary_free(&s);
	c->pts[2].remeasured = 1;
	assert_int_equal(mess_summarise(&f, 100.0, 0.0, 0.02, &s), 0);
	assert_int_equal(s.curves[0].nwaves, 1);
	mess_summary_free(&s);
	mess_family_free(&f);
}

/* A point flagged stall (25803 ns at 0.2 GB/s) is neither the curve's
 * saturation nor its maximum latency. */
static void test_stall_left_out(void **state)
{
	struct mess_family f = { 0 };
	struct mess_summary s;
	struct mess_curve *c = mess_family_curve(&f, 0, 100.0);

	assert_non_null(c);
	add(c, 1000, 0.2, 25803.0);
	add(c, 100, 20.0, 120.0);
	add(c, 10, 42.6, 250.0);
	c->pts[0].flags = MESS_QF(MESS_QR_STALL);
	assert_int_equal(mess_summarise(&f, 100.0, 0.0, 0.02, &s), 0);
	assert_int_equal(s.curves[0].saturated, 1);
	assert_near(s.curves[0].sat_bw_gbs, 42.6, 1e-9);
	assert_near(s.curves[0].max_lat_ns, 250.0, 1e-9);
	mess_summary_free(&s);
	c->pts[0].flags = 0;	/* unflagged it is the maximum latency ... */
	assert_int_equal(mess_summarise(&f, 100.0, 0.0, 0.02, &s), 0);
	assert_near(s.curves[0].max_lat_ns, 25803.0, 1e-9);
	/* ... but at 0.2 of 42.6 GB/s no saturation: not a loaded point */
	assert_near(s.curves[0].sat_bw_gbs, 42.6, 1e-9);
	mess_summary_free(&s);
	mess_family_free(&f);
}

static char *render(const struct mess_summary *s, const char *title);

/*
 * Saturation from the loaded points only (issue 46 item 3): a doubled
 * latency at a tenth of the maximum (a preempted window) or at a point
 * flagged disturbed or unsteady does not say where the curve saturates;
 * when only such points doubled, the saturation is unknown, not "none".
 */
static void test_saturation_loaded_points(void **state)
{
	struct mess_family f = { 0 };
	struct mess_summary s;
	struct mess_curve *c = mess_family_curve(&f, 0, 100.0);
	char *md;

	(void)state;
	assert_non_null(c);
	add(c, 1000, 0.4, 230.0);	/* preempted: 2x at under a tenth */
	add(c, 100, 2.0, 120.0);
	add(c, 20, 3.5, 210.0);		/* loaded, doubled: the saturation */
	add(c, 10, 4.7, 300.0);
	assert_int_equal(mess_summarise(&f, 100.0, 0.0, 0.02, &s), 0);
	assert_int_equal(s.curves[0].saturated, 1);
	assert_near(s.curves[0].sat_bw_gbs, 3.5, 1e-9);
	assert_near(s.sat_bw_min_gbs, 3.5, 1e-9);
	mess_summary_free(&s);
	/* The loaded doubled points flagged: unknown, said so. */
	c->pts[2].flags = MESS_QF(MESS_QR_DISTURBED);
	c->pts[3].flags = MESS_QF(MESS_QR_UNSTEADY);
	assert_int_equal(mess_summarise(&f, 100.0, 0.0, 0.02, &s), 0);
	assert_int_equal(s.curves[0].saturated, 0);
	assert_int_equal(s.curves[0].sat_unknown, 1);
	assert_int_equal(s.have_sat, 0);
	md = render(&s, "t");
	assert_non_null(strstr(md, " | unknown | "));
	free(md);
	mess_summary_free(&s);
	/* Another rule (spread) does not make a loaded point mute. */
	c->pts[2].flags = MESS_QF(MESS_QR_SPREAD);
	assert_int_equal(mess_summarise(&f, 100.0, 0.0, 0.02, &s), 0);
	assert_near(s.curves[0].sat_bw_gbs, 3.5, 1e-9);
	mess_summary_free(&s);
	mess_family_free(&f);
}

static void test_many_waves(void **state)
{
	struct mess_family f = { 0 };
	struct mess_summary s;
	struct mess_curve *c = mess_family_curve(&f, 0, 100.0);
	int i;

	assert_non_null(c);
	/* A saw tooth: 20 falls of 10%, more than MESS_MAX_WAVES (unloaded
	 * 50 ns: the 100 ns at the maximum is a loaded memory's). */
	for (i = 0; i < 40; i++)
		add(c, 1000 - i, i % 2 ? 90.0 : 100.0, 100.0 + i);
	assert_int_equal(mess_summarise(&f, 50.0, 0.0, 0.02, &s), 0);
	assert_int_equal(s.curves[0].nwaves, 20);
	assert_int_equal(s.curves[0].waves[MESS_MAX_WAVES - 1].nop_to,
			 1000 - (2 * MESS_MAX_WAVES - 1));
	mess_summary_free(&s);
	mess_family_free(&f);
}

static void test_family_containers(void **state)
{
	struct mess_family f = { 0 };
	struct mess_curve *c;
	int i;

	/* Known store share: one curve whatever the measured read share. */
	c = mess_family_curve(&f, 40, 61.0);
	assert_non_null(c);
	assert_ptr_equal(mess_family_curve(&f, 40, 58.3), c);
	assert_near(c->read_pct, 61.0, EPS);
	/* Reference curves: identified by read share. */
	c = mess_family_curve(&f, MESS_STORE_PCT_UNKNOWN, 70.0);
	assert_non_null(c);
	assert_ptr_equal(mess_family_curve(&f, MESS_STORE_PCT_UNKNOWN, 70.0), c);
	assert_ptr_not_equal(mess_family_curve(&f, MESS_STORE_PCT_UNKNOWN, 72.0), c);
	assert_int_equal(f.n, 3);

	/* Growth beyond the first allocation keeps every curve. */
	for (i = 0; i < 30; i++)
		assert_non_null(mess_family_curve(&f, (uint32_t)i, 100.0 - i));
	assert_int_equal(f.n, 3 + 30);

	/* Sorting by pressure is stable among equal nop counts. */
	c = mess_family_curve(&f, 0, 100.0);
	mess_curve_free(c);
	add(c, 10, 1.0, 1.0);
	add(c, 100, 2.0, 2.0);
	add(c, 10, 3.0, 3.0);
	add(c, 1000, 4.0, 4.0);
	add(c, 100, 5.0, 5.0);
	mess_curve_sort_pressure(c);
	assert_int_equal(c->pts[0].nop, 1000);
	assert_near(c->pts[1].bw_gbs, 2.0, EPS);
	assert_near(c->pts[2].bw_gbs, 5.0, EPS);
	assert_near(c->pts[3].bw_gbs, 1.0, EPS);
	assert_near(c->pts[4].bw_gbs, 3.0, EPS);

	mess_family_sort_read(&f);
	for (i = 1; i < (int)f.n; i++)
		assert_true(f.curves[i - 1].read_pct <= f.curves[i].read_pct);
	mess_family_sort_store(&f);
	for (i = 1; i < (int)f.n; i++)
		assert_true(f.curves[i - 1].store_pct <= f.curves[i].store_pct);
	mess_family_free(&f);
}

static void test_unloaded_from_curves(void **state)
{
	struct mess_family f = { 0 };
	struct mess_curve *c;

	assert_true(isnan(mess_unloaded_from_curves(&f)));
	c = mess_family_curve(&f, MESS_STORE_PCT_UNKNOWN, 100.0);
	assert_non_null(c);
	add(c, 1000, 0.0, 110.0);
	add(c, 100, 3.0, 105.0);	/* 1.5% of 200: counts */
	add(c, 50, 5.0, 90.0);		/* 2.5%: too loaded to count */
	add(c, 10, 200.0, 300.0);
	c = mess_family_curve(&f, MESS_STORE_PCT_UNKNOWN, 50.0);
	assert_non_null(c);
	add(c, 1000, 0.5, 107.0);
	add(c, 10, 150.0, 400.0);
	assert_near(mess_unloaded_from_curves(&f), 105.0, EPS);
	mess_family_free(&f);
}

/* ---- the JSON summary, read back as its consumers read it: jansson ---- */

static json_t *render_json(const struct mess_summary *s, json_t *extra)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *fp = open_memstream(&buf, &len);
	json_error_t e;
	json_t *j;

	assert_non_null(fp);
	assert_int_equal(mess_summary_write_json(fp, s, extra), 0);
	assert_int_equal(fclose(fp), 0);
	j = json_loads(buf, 0, &e);
	if (!j)
		fail_msg("not JSON: %s at line %d: %s", e.text, e.line, buf);
	free(buf);
	json_decref(extra);
	return j;
}

static char *render(const struct mess_summary *s, const char *title)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *fp = open_memstream(&buf, &len);

	assert_non_null(fp);
	assert_int_equal(mess_summary_write_md(fp, s, title), 0);
	assert_int_equal(fclose(fp), 0);
	return buf;
}

/* Number at a path of object keys and array indices ("family.max_bw_gbs",
 * "curves.1.saturation"); NAN when the member is null, fails when absent. */
static double num_at(json_t *j, const char *path)
{
	char buf[128], *save = NULL;

	snprintf(buf, sizeof(buf), "%s", path);
	for (char *t = strtok_r(buf, ".", &save); t; t = strtok_r(NULL, ".", &save)) {
		j = json_is_array(j) ? json_array_get(j, strtoul(t, NULL, 10)) :
				       json_object_get(j, t);
		if (!j)
			fail_msg("no member %s", path);
	}
	if (json_is_null(j))
		return NAN;
	if (!json_is_number(j))
		fail_msg("%s is not a number", path);
	return json_number_value(j);
}

static void count_nulls(json_t *j, const char *suffix, size_t *n)
{
	const char *key;
	json_t *v;
	size_t i;

	if (json_is_array(j))
		json_array_foreach(j, i, v)
			count_nulls(v, suffix, n);
	if (!json_is_object(j))
		return;
	json_object_foreach(j, key, v) {
		size_t kl = strlen(key), sl = strlen(suffix);

		*n += json_is_null(v) && kl >= sl && !strcmp(key + kl - sl, suffix);
		count_nulls(v, suffix, n);
	}
}

static void test_json(void **state)
{
	struct mess_family f;
	struct mess_summary s;
	json_t *js, *c;
	size_t nulls = 0, nsat = 0, nwave = 0, i;

	make_family(&f);
	assert_int_equal(mess_summarise(&f, 100.0, 200.0, 0.02, &s), 0);
	js = render_json(&s, json_pack("{s:f}", "unloaded_random_ns", 247.1));
	assert_int_equal(num_at(js, "schema"), 1);
	assert_near(num_at(js, "unloaded_random_ns"), 247.1, 1e-9);
	/* The extra members come right after the run's own parameters. */
	assert_string_equal(json_object_iter_key(json_object_iter_next(js,
		json_object_iter_at(js, "wave_tol_pct"))), "unloaded_random_ns");
	assert_near(num_at(js, "unloaded_ns"), 100.0, 1e-9);
	assert_near(num_at(js, "peak_gbs"), 200.0, 1e-9);
	/* 160 of 200 GB/s */
	assert_near(num_at(js, "family.max_bw_pct_peak"), 80.0, 1e-9);
	assert_near(num_at(js, "family.sat_bw_min_pct_peak"), 30.0, 1e-9);
	assert_near(num_at(js, "family.sat_bw_max_pct_peak"), 75.0, 1e-9);
	assert_near(num_at(js, "family.sat_bw_min_gbs"), 60.0, 1e-9);
	assert_near(num_at(js, "family.max_lat_max_ns"), 400.0, 1e-9);
	/* Curve B never saturates; one wave, from 160 to 140 GB/s. */
	json_array_foreach(json_object_get(js, "curves"), i, c) {
		nsat += json_is_null(json_object_get(c, "saturation"));
		nwave += json_array_size(json_object_get(c, "waves"));
		if (json_array_size(json_object_get(c, "waves"))) {
			assert_near(num_at(c, "waves.0.bw_from_gbs"), 160.0, 1e-9);
			assert_near(num_at(c, "waves.0.bw_to_gbs"), 140.0, 1e-9);
		}
	}
	assert_int_equal(nsat, 1);
	assert_int_equal(nwave, 1);
	json_decref(js);
	mess_summary_free(&s);

	/* Peak unknown: every % of peak is null; extra may be NULL. */
	assert_int_equal(mess_summarise(&f, 100.0, 0.0, 0.02, &s), 0);
	js = render_json(&s, NULL);
	assert_true(isnan(num_at(js, "peak_gbs")));
	/* family 3, max_bw of each curve 3, saturation of A and C 2 */
	count_nulls(js, "_pct_peak", &nulls);
	assert_int_equal(nulls, 3 + 3 + 2);
	json_decref(js);
	mess_summary_free(&s);
	mess_family_free(&f);

	/* Empty family and NAN metrics stay valid JSON, unknowns null. */
	memset(&f, 0, sizeof(f));
	assert_int_equal(mess_summarise(&f, 100.0, 0.0, 0.02, &s), 0);
	js = render_json(&s, NULL);
	assert_true(isnan(num_at(js, "family.max_bw_gbs")));
	json_decref(js);
	mess_summary_free(&s);
}

/* Bandwidth falling while latency also falls is noise, not a wave. */
static void test_drop_with_falling_latency_is_no_wave(void **state)
{
	struct mess_family f = { 0 };
	struct mess_summary s;
	struct mess_curve *c = mess_family_curve(&f, 0, 100.0);

	assert_non_null(c);
	add(c, 300, 50.0, 110.0);
	add(c, 200, 100.0, 130.0);
	add(c, 100, 80.0, 125.0);	/* -20 %, latency down: noise */
	add(c, 50, 120.0, 180.0);
	add(c, 0, 100.0, 260.0);	/* -17 %, latency up: a wave */
	assert_int_equal(mess_summarise(&f, 100.0, 0.0, 0.02, &s), 0);
	assert_int_equal(s.curves[0].nwaves, 1);
	assert_int_equal(s.curves[0].waves[0].nop_from, 50);
	assert_int_equal(s.curves[0].waves[0].nop_to, 0);
	mess_summary_free(&s);
	mess_family_free(&f);
}

static void test_json_waves_capped(void **state)
{
	struct mess_family f = { 0 };
	struct mess_summary s;
	struct mess_curve *c = mess_family_curve(&f, 0, 100.0);
	json_t *js;
	int i;

	assert_non_null(c);
	for (i = 0; i < 40; i++)
		add(c, 1000 - i, i % 2 ? 90.0 : 100.0, 100.0 + i);
	assert_int_equal(mess_summarise(&f, 50.0, 0.0, 0.02, &s), 0);
	js = render_json(&s, NULL);
	assert_int_equal(json_array_size(json_object_get(
		json_array_get(json_object_get(js, "curves"), 0), "waves")),
		MESS_MAX_WAVES);
	assert_int_equal(num_at(js, "curves.0.waves_count"), 20);
	json_decref(js);
	mess_summary_free(&s);
	mess_family_free(&f);
}

static void test_markdown(void **state)
{
	struct mess_family f;
	struct mess_summary s;
	char *md;

	make_family(&f);
	assert_int_equal(mess_summarise(&f, 100.0, 200.0, 0.02, &s), 0);
	md = render(&s, "Synthetic");
	assert_non_null(strstr(md, "## Synthetic"));
	assert_non_null(strstr(md, "max BW [GB/s]"));
	assert_non_null(strstr(md, "[% peak]"));
	assert_non_null(strstr(md, "max lat [ns]"));
	/* Row of curve B: named by its mix, 50 % stores, its read share
	 * nominal 60 under a header of its own; not saturated. */
	assert_non_null(strstr(md, "| mix (store %) | read share, nominal [%] | points |"));
	assert_null(strstr(md, "read [%]"));
	assert_null(strstr(md, "measured"));
	assert_non_null(strstr(md, "| 50 | 60.0 | 3 | 120.0 | 60.0 | 190.0 | none | none | 190.0 | 0 |"));
	assert_non_null(strstr(md, "60.0 – 150.0"));
	assert_non_null(strstr(md, "30.0 – 75.0"));
	free(md);
	mess_summary_free(&s);

	assert_int_equal(mess_summarise(&f, 100.0, 0.0, 0.02, &s), 0);
	md = render(&s, NULL);
	assert_null(strstr(md, "% peak"));
	assert_non_null(strstr(md, "| 50 | 60.0 | 3 | 120.0 | 190.0 | none | 190.0 | 0 |"));
	free(md);
	mess_summary_free(&s);

	/* Counted read shares: the points' median in a column of its own,
	 * beside the nominal one, never under its header. */
	f.curves[1].pts[0].read_pct = 58.0;
	f.curves[1].pts[1].read_pct = 62.0;
	f.curves[1].pts[2].read_pct = 70.0;
	assert_int_equal(mess_summarise(&f, 100.0, 0.0, 0.02, &s), 0);
	s.read_counted = 1;
	md = render(&s, NULL);
	assert_non_null(strstr(md, "| mix (store %) | read share, nominal [%] | read share, measured [%] | points |"));
	assert_non_null(strstr(md, "|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n"));
	assert_non_null(strstr(md, "| 50 | 60.0 | 62.0 | 3 | 120.0 | 190.0 | none | 190.0 | 0 |"));
	free(md);
	mess_summary_free(&s);
	mess_family_free(&f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_curve_metrics),
		cmocka_unit_test(test_no_saturation),
		cmocka_unit_test(test_edges),
		cmocka_unit_test(test_many_waves),
		cmocka_unit_test(test_wave_needs_a_repeat),
		cmocka_unit_test(test_stall_left_out),
		cmocka_unit_test(test_saturation_loaded_points),
		cmocka_unit_test(test_family_containers),
		cmocka_unit_test(test_unloaded_from_curves),
		cmocka_unit_test(test_json),
		cmocka_unit_test(test_json_waves_capped),
		cmocka_unit_test(test_drop_with_falling_latency_is_no_wave),
		cmocka_unit_test(test_markdown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
