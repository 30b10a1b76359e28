// SPDX-License-Identifier: MIT
/*
 * The trust rules on synthetic curves with known answers: a monotone curve
 * breaks nothing; a dip, a stall and a point below the unloaded chase flag
 * exactly the point that is wrong, not its neighbours; a drop past the
 * maximum is no violation (a wave); noise within the points' spread is
 * none; and the run rules (the unloaded spread, the windowed chase slower
 * than the random one, a clock that moved) give the verdict expected.
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

#include <cmocka.h>

#include "mess/quality.h"
#include "near.h"

static const struct mess_qtol tol = MESS_QTOL_DEFAULT;

/* A curve from (nop, GB/s, ns) rows, standard deviations sd_bw, sd_lat. */
static void make(struct mess_curve *c, const double (*row)[3], size_t n,
		 double sd_bw, double sd_lat)
{
	memset(c, 0, sizeof(*c));
	c->store_pct = 0;
	for (size_t i = 0; i < n; i++) {
		struct mess_point p = MESS_POINT_INIT;

		p.nop = (uint64_t)row[i][0];
		p.bw_gbs = row[i][1];
		p.lat_ns = row[i][2];
		p.bw_gbs_std = sd_bw;
		p.lat_ns_std = sd_lat;
		p.repeats = 3;
		assert_int_equal(mess_curve_add(c, &p), 0);
	}
}

static uint32_t flags_at(const struct mess_curve *c, uint64_t nop)
{
	for (size_t i = 0; i < c->n; i++)
		if (c->pts[i].nop == nop)
			return c->pts[i].flags;
	fail_msg("no point at nop %llu", (unsigned long long)nop);
	return 0;
}

/* Rising pressure, rising bandwidth and latency, then a wave: clean. */
static const double monotone[][3] = {
	{ 1024, 1.0, 100 }, { 256, 4.0, 101 }, { 64, 12.0, 104 },
	{ 32, 20.0, 110 }, { 16, 30.0, 125 }, { 8, 38.0, 160 },
	{ 4, 40.0, 220 }, { 0, 36.0, 300 },	/* past the maximum: a wave */
};

static void monotone_curve_passes(void **state)
{
	struct mess_curve c;
	unsigned char inv[8];

	make(&c, monotone, 8, 0.2, 1.0);
	assert_int_equal(mess_quality_curve(&c, 100, 1.0, &tol, inv), 0);
	for (size_t i = 0; i < c.n; i++) {
		assert_int_equal(c.pts[i].flags, 0);
		assert_int_equal(inv[i], 0);
	}
	assert_int_equal(mess_curve_flagged(&c), 0);
	mess_curve_free(&c);
}

/* One point with too little bandwidth below the maximum: it alone. */
static void dip_flags_the_dip(void **state)
{
	double row[8][3];
	struct mess_curve c;
	unsigned char inv[8];

	memcpy(row, monotone, sizeof(row));
	row[3][1] = 6.0;	/* nop 32: 6 GB/s, under nop 64's 12 */
	make(&c, (const double (*)[3])row, 8, 0.2, 1.0);
	assert_int_equal(mess_quality_curve(&c, 100, 1.0, &tol, inv), 1);
	assert_int_equal(flags_at(&c, 32), MESS_QF(MESS_QR_NON_MONOTONE));
	assert_int_equal(flags_at(&c, 64), 0);
	assert_int_equal(flags_at(&c, 256), 0);
	/* Both ends of each violation are to be measured again. */
	assert_int_equal(inv[3], 1);
	assert_int_equal(inv[2], 1);
	assert_int_equal(inv[0], 0);
	mess_curve_free(&c);
}

/* The same dip within the points' spread is noise, not a violation. */
static void dip_within_spread_is_noise(void **state)
{
	double row[8][3];
	struct mess_curve c;

	memcpy(row, monotone, sizeof(row));
	row[3][1] = 11.0;	/* 1 GB/s under nop 64, sd 1 GB/s each */
	make(&c, (const double (*)[3])row, 8, 1.0, 1.0);
	assert_int_equal(mess_quality_curve(&c, 100, 1.0, &tol, NULL), 0);
	/* With no spread at all, 1 GB/s of 12 (8 %) is past the 3 % floor. */
	mess_curve_free(&c);
	make(&c, (const double (*)[3])row, 8, 0.0, 1.0);
	assert_int_equal(mess_quality_curve(&c, 100, 1.0, &tol, NULL), 1);
	assert_int_equal(flags_at(&c, 32), MESS_QF(MESS_QR_NON_MONOTONE));
	mess_curve_free(&c);
}

/*
 * A stall: the machine stopped during one light point, so its latency
 * is far above heavier points' and its accounted bandwidth collapsed.
 * That point is flagged for both rules; no neighbour is.
 */
static void stall_flags_the_stall(void **state)
{
	double row[8][3];
	struct mess_curve c;

	memcpy(row, monotone, sizeof(row));
	row[2][1] = 2.0;	/* nop 64 */
	row[2][2] = 25803;
	make(&c, (const double (*)[3])row, 8, 0.2, 1.0);
	mess_quality_curve(&c, 100, 1.0, &tol, NULL);
	assert_int_equal(flags_at(&c, 64), MESS_QF(MESS_QR_NON_MONOTONE) |
					   MESS_QF(MESS_QR_STALL));
	for (size_t i = 0; i < c.n; i++)
		if (c.pts[i].nop != 64)
			assert_int_equal(c.pts[i].flags, 0);
	mess_curve_free(&c);
}

/* A latency 10 % up on a lighter point, inside the floor: no stall. */
static void latency_noise_is_no_stall(void **state)
{
	double row[8][3];
	struct mess_curve c;

	memcpy(row, monotone, sizeof(row));
	row[1][2] = 108;	/* nop 256 at 108 ns, nop 64 at 104: +3.8 % */
	make(&c, (const double (*)[3])row, 8, 0.2, 0.0);
	assert_int_equal(mess_quality_curve(&c, 100, 1.0, &tol, NULL), 0);
	row[1][2] = 120;	/* +15 % over nop 64, +9 % over nop 32 */
	mess_curve_free(&c);
	make(&c, (const double (*)[3])row, 8, 0.2, 0.0);
	mess_quality_curve(&c, 100, 1.0, &tol, NULL);
	assert_int_equal(flags_at(&c, 256), MESS_QF(MESS_QR_STALL));
	assert_int_equal(flags_at(&c, 64), 0);
	mess_curve_free(&c);
}

/* The 100 %-store mix: most light points stalled at 5 GB/s and
 * 320-400 ns between 16 and 64.  The stalled ones are flagged, never
 * the consistent end points alone. */
static void many_stalled_points(void **state)
{
	static const double row[][3] = {
		{ 1024, 1.2, 118 }, { 64, 11.2, 124 }, { 59, 5.0, 400 },
		{ 52, 5.2, 350 }, { 45, 4.9, 320 }, { 16, 36.5, 159 },
		{ 0, 37.0, 170 },
	};
	struct mess_curve c;

	make(&c, row, 7, 0.3, 2.0);
	mess_quality_curve(&c, 117, 3.0, &tol, NULL);
	assert_true(flags_at(&c, 59) & MESS_QF(MESS_QR_STALL));
	assert_true(flags_at(&c, 52) & MESS_QF(MESS_QR_STALL));
	assert_true(flags_at(&c, 45) & MESS_QF(MESS_QR_STALL));
	assert_int_equal(flags_at(&c, 1024), 0);
	assert_int_equal(flags_at(&c, 0), 0);
	assert_int_equal(flags_at(&c, 16) & MESS_QF(MESS_QR_STALL), 0);
	mess_curve_free(&c);
}

static void below_unloaded(void **state)
{
	double row[8][3];
	struct mess_curve c;

	memcpy(row, monotone, sizeof(row));
	row[0][2] = 90;	/* 10 % under 100 ns, spreads of 1 ns */
	make(&c, (const double (*)[3])row, 8, 0.2, 1.0);
	mess_quality_curve(&c, 100, 1.0, &tol, NULL);
	assert_true(flags_at(&c, 1024) & MESS_QF(MESS_QR_BELOW_UNLOADED));
	mess_curve_free(&c);
	/* 2 % under is within the floor; a wide unloaded spread forgives
	 * 10 %; unloaded 0 skips the rule. */
	row[0][2] = 98;
	make(&c, (const double (*)[3])row, 8, 0.2, 1.0);
	assert_int_equal(mess_quality_curve(&c, 100, 1.0, &tol, NULL), 0);
	mess_curve_free(&c);
	row[0][2] = 90;
	make(&c, (const double (*)[3])row, 8, 0.2, 1.0);
	assert_int_equal(mess_quality_curve(&c, 100, 5.0, &tol, NULL), 0);
	assert_int_equal(mess_quality_curve(&c, 0, 0, &tol, NULL), 0);
	mess_curve_free(&c);
}

/* Flags found while measuring survive the curve rules. */
static void harness_flags_kept(void **state)
{
	struct mess_curve c;

	make(&c, monotone, 8, 0.2, 1.0);
	c.pts[2].flags = MESS_QF(MESS_QR_DISTURBED) | MESS_QF(MESS_QR_STALL);
	mess_quality_curve(&c, 100, 1.0, &tol, NULL);
	assert_int_equal(c.pts[2].flags, MESS_QF(MESS_QR_DISTURBED));
	assert_int_equal(mess_curve_flagged(&c), 1);
	mess_curve_free(&c);
}

static void flag_strings(void **state)
{
	char buf[160];
	uint32_t f;

	assert_string_equal(mess_qflags_str(0, buf, sizeof(buf)), "");
	assert_string_equal(mess_qflags_str(MESS_QF(MESS_QR_DISTURBED) |
					    MESS_QF(MESS_QR_STALL), buf, sizeof(buf)),
			    "disturbed;stall");
	assert_int_equal(mess_qflags_parse("disturbed;stall", &f), 0);
	assert_int_equal(f, MESS_QF(MESS_QR_DISTURBED) | MESS_QF(MESS_QR_STALL));
	assert_int_equal(mess_qflags_parse("", &f), 0);
	assert_int_equal(f, 0);
	assert_int_equal(mess_qflags_parse("stall;", &f), -EINVAL);
	assert_int_equal(mess_qflags_parse("stalls", &f), -EINVAL);
	assert_int_equal(mess_qflags_parse("stall;;spread", &f), -EINVAL);
	/* Every name round-trips. */
	for (int r = 0; r < MESS_QR_N; r++) {
		assert_int_equal(mess_qflags_parse(mess_qflags_str(MESS_QF(r), buf,
								   sizeof(buf)), &f), 0);
		assert_int_equal(f, MESS_QF(r));
	}
}

static struct mess_family family_of(const double (*row)[3], size_t n)
{
	struct mess_family f = { 0 };
	struct mess_curve *c = mess_family_curve(&f, 0, 100);

	assert_non_null(c);
	make(c, row, n, 0.2, 1.0);
	return f;
}

static const struct mess_quality_in quiet = {
	.unloaded_ns = 100, .unloaded_sd_ns = 2, .random_ns = 120,
	.random_sd_ns = 2, .clock_spread_pct = 0.5,
	.unloaded_end_ns = NAN, .unloaded_end_sd_ns = NAN,
};

static void verdict_pass(void **state)
{
	struct mess_family f = family_of(monotone, 8);
	struct mess_verdict v;
	enum mess_level mix[1];

	mess_verdict_init(&v);
	mess_quality_family(&f, &quiet, &v, mix);
	assert_int_equal(v.level, MESS_PASS);
	assert_int_equal(v.n, 0);
	assert_int_equal(mix[0], MESS_PASS);
	mess_family_free(&f);
}

/* The impossible figures, each with the level it deserves. */
static void verdict_run_rules(void **state)
{
	struct mess_family f = family_of(monotone, 8);
	struct mess_quality_in in = quiet;
	struct mess_verdict v;
	enum mess_level mix[1];

	in.unloaded_ns = 236.7;	/* +- 369.6 ns */
	in.unloaded_sd_ns = 369.6;
	in.random_ns = 500;
	mess_verdict_init(&v);
	mess_quality_family(&f, &in, &v, mix);
	assert_int_equal(v.level, MESS_INVALID);
	assert_string_equal(v.r[0].rule, "unloaded_spread");

	in = quiet;	/* random 185 ns faster than the windowed 276 ns */
	in.unloaded_ns = 276;
	in.random_ns = 185;
	mess_verdict_init(&v);
	mess_quality_family(&f, &in, &v, mix);
	assert_int_equal(v.level, MESS_INVALID);
	assert_string_equal(v.r[0].rule, "window_slower");
	assert_int_equal(mess_quality_unloaded_ok(&in), 0);

	in = quiet;	/* 0.939 GHz +- 34.6 % */
	in.clock_spread_pct = 34.6;
	mess_verdict_init(&v);
	mess_quality_family(&f, &in, &v, mix);
	assert_int_equal(v.level, MESS_WARN);
	assert_string_equal(v.r[0].rule, "clock_unstable");

	in = quiet;	/* the same at the end, within 5 % and the spreads */
	in.unloaded_end_ns = 104;
	in.unloaded_end_sd_ns = 2;
	mess_verdict_init(&v);
	mess_quality_family(&f, &in, &v, mix);
	assert_int_equal(v.level, MESS_PASS);
	in.unloaded_end_ns = 118;	/* the host changed under the run */
	mess_verdict_init(&v);
	mess_quality_family(&f, &in, &v, mix);
	assert_int_equal(v.level, MESS_WARN);
	assert_string_equal(v.r[0].rule, "drift");
	assert_non_null(strstr(v.r[0].text, "+18.0 %"));

	in = quiet;	/* 7 % spread: a warning, measured again first */
	in.unloaded_sd_ns = 7;
	assert_int_equal(mess_quality_unloaded_ok(&in), 0);
	mess_verdict_init(&v);
	mess_quality_family(&f, &in, &v, mix);
	assert_int_equal(v.level, MESS_WARN);
	assert_int_equal(mess_quality_unloaded_ok(&quiet), 1);
	mess_family_free(&f);
}

/* A mix with one flagged point in eight warns; with three, invalid. */
static void verdict_mix_status(void **state)
{
	struct mess_family f = family_of(monotone, 8);
	struct mess_verdict v;
	enum mess_level mix[1];

	f.curves[0].pts[1].flags = MESS_QF(MESS_QR_DISTURBED);
	mess_verdict_init(&v);
	mess_quality_family(&f, &quiet, &v, mix);
	assert_int_equal(mix[0], MESS_WARN);
	assert_int_equal(v.level, MESS_WARN);
	assert_non_null(strstr(v.r[0].text, "(disturbed): 1 mix, 1 of 8 points"));
	f.curves[0].pts[2].flags = MESS_QF(MESS_QR_STALL);
	f.curves[0].pts[3].flags = MESS_QF(MESS_QR_SPREAD);
	mess_verdict_init(&v);
	mess_quality_family(&f, &quiet, &v, mix);
	assert_int_equal(mix[0], MESS_INVALID);
	assert_int_equal(v.level, MESS_INVALID);
	mess_family_free(&f);
}

/* A point with a mean and, where given (not NAN), its p99 and paired
 * difference. */
static struct mess_point tail_pt(double mean, double p99, double diff)
{
	struct mess_point p = MESS_POINT_INIT;

	p.nop = 1;
	p.bw_gbs = 10;
	p.lat_ns = mean;
	p.lat_p50_ns = p.lat_p90_ns = isnan(p99) ? NAN : mean * 0.9;
	p.lat_p99_ns = p99;
	p.dist_mean_diff_pct = diff;
	return p;
}

/* dist_disagrees: a p99 below the mean, or the paired difference beyond
 * +-3 %; boundaries included on the agreeing side, unknowns agree. */
static void dist_disagrees_rule(void **state)
{
	static const struct { double mean, p99, diff; int want; } k[] = {
		{ 100, 250, 0, 0 },		/* a loaded point: p99 2.5x */
		{ 100, 100, 0, 0 },		/* p99 at the mean: not below */
		{ 100, 99.99, 0, 1 },		/* p99 below the mean */
		{ 499, 180, 0.5, 1 },		/* issue 32: preemptions in the mean */
		{ 100, 250, 3.0, 0 },		/* at the bound */
		{ 100, 250, -3.0, 0 },
		{ 100, 250, 3.01, 1 },		/* beyond it, either way */
		{ 100, 250, -3.01, 1 },
		{ 100, 250, 17.0, 1 },
		{ 100, NAN, NAN, 0 },		/* no distribution measured */
		{ 100, NAN, 5.0, 1 },
		{ 100, 90, NAN, 1 },
		{ NAN, 250, 0, 0 },		/* no mean: nothing to disagree with */
	};
	struct mess_family f = { 0 };
	struct mess_curve *c = mess_family_curve(&f, 0, 100);
	struct mess_verdict v;
	enum mess_level mix[1];
	size_t want = 0;
	char buf[160];
	uint32_t fl;

	(void)state;
	for (size_t i = 0; i < sizeof(k) / sizeof(k[0]); i++) {
		struct mess_point p = tail_pt(k[i].mean, k[i].p99, k[i].diff);

		assert_int_equal(mess_point_dist_disagrees(&p), k[i].want);
		/* A stale flag is cleared where the rule no longer holds;
		 * the other flags are kept. */
		p.flags = MESS_QF(MESS_QR_SPREAD) | (k[i].want ? 0 : MESS_QF_TAIL);
		assert_int_equal(mess_curve_add(c, &p), 0);
		want += (size_t)k[i].want;
	}
	assert_int_equal(mess_family_dist_flag(&f), want);
	assert_int_equal(want, 7);
	for (size_t i = 0; i < c->n; i++)
		assert_int_equal(c->pts[i].flags, MESS_QF(MESS_QR_SPREAD) |
				 (k[i].want ? MESS_QF_TAIL : 0));
	/* Its name in curves.csv, and back. */
	assert_string_equal(mess_qflags_str(MESS_QF(MESS_QR_SPREAD) | MESS_QF_TAIL,
					    buf, sizeof(buf)), "spread;dist_disagrees");
	assert_int_equal(mess_qflags_parse("dist_disagrees", &fl), 0);
	assert_int_equal(fl, MESS_QF(MESS_QR_DIST_DISAGREES));
	/* About the tail alone: no mix is judged on it. */
	for (size_t i = 0; i < c->n; i++)
		c->pts[i].flags &= MESS_QF_TAIL;
	assert_int_equal(mess_curve_flagged(c), 0);
	mess_verdict_init(&v);
	mess_quality_family(&f, &quiet, &v, mix);
	assert_int_equal(mix[0], MESS_PASS);
	assert_int_equal(v.n, 0);
	mess_family_free(&f);
}

static void verdict_writers(void **state)
{
	struct mess_verdict v;
	char *buf = NULL, *js;
	size_t len = 0;
	FILE *f;
	json_t *j;

	mess_verdict_init(&v);
	mess_verdict_add(&v, MESS_PASS, "governor", "a note");
	mess_verdict_add(&v, MESS_WARN, "steal", "stolen %d %%", 5);
	mess_verdict_add(&v, MESS_INVALID, "window_slower", "slower");
	assert_int_equal(v.level, MESS_INVALID);
	j = mess_verdict_json(&v);
	js = json_dumps(j, JSON_COMPACT);
	/* Worst first; a note says so. */
	assert_string_equal(js, "{\"verdict\":\"INVALID\",\"reasons\":["
			    "{\"level\":\"INVALID\",\"rule\":\"window_slower\",\"text\":\"slower\"},"
			    "{\"level\":\"WARN\",\"rule\":\"steal\",\"text\":\"stolen 5 %\"},"
			    "{\"level\":\"note\",\"rule\":\"governor\",\"text\":\"a note\"}],"
			    "\"reasons_dropped\":0,\"next_step\":\"measure again on an idle node or in an exclusive allocation: the hypervisor ran other work on these vCPUs\"}");
	free(js);
	json_decref(j);
	f = open_memstream(&buf, &len);
	mess_verdict_md(f, &v);
	fclose(f);
	assert_true(!strncmp(buf, "## Verdict: INVALID\n", 20));
	free(buf);
	for (int i = 0; i < MESS_VERDICT_MAX + 3; i++)
		mess_verdict_add(&v, MESS_WARN, "x", "y");
	assert_int_equal(v.n, MESS_VERDICT_MAX);
	assert_int_equal(v.dropped, 6);
	enum mess_level l;
	assert_int_equal(mess_level_parse("WARN", &l), 0);
	assert_int_equal(l, MESS_WARN);
	assert_int_equal(mess_level_parse("pending", &l), -EINVAL);
}

/* Against the host's earlier runs: too few say nothing; within 10 % and
 * 5 % a note; beyond, a warning naming both medians. */
static void history(void **state)
{
	static const double bw[] = { 33.0, 34.0, NAN, 35.0, 32.0 };
	static const double unl[] = { 120.0, 121.0, 119.0, NAN, 122.0 };
	struct mess_verdict v;
	double b, u;

	mess_verdict_init(&v);
	assert_int_equal(mess_quality_history(33, 120, bw, unl, 2, &v, &b, &u), 0);
	assert_int_equal(v.n, 0);
	assert_true(isnan(b));
	/* 4 finite each: medians 33.5 GB/s and 120.5 ns */
	assert_int_equal(mess_quality_history(35, 123, bw, unl, 5, &v, &b, &u), 4);
	assert_near(b, 33.5, 1e-9);
	assert_near(u, 120.5, 1e-9);
	assert_int_equal(v.level, MESS_PASS);
	assert_string_equal(v.r[0].rule, "history");
	mess_verdict_init(&v);
	assert_int_equal(mess_quality_history(28, 121, bw, unl, 5, &v, &b, &u), 4);
	assert_int_equal(v.level, MESS_WARN);
	assert_non_null(strstr(v.r[0].text, "-16 %"));
	mess_verdict_init(&v);
	mess_quality_history(33.5, 128, bw, unl, 5, &v, &b, &u);	/* +6.2 % */
	assert_int_equal(v.level, MESS_WARN);
	mess_verdict_init(&v);	/* an unknown figure of this run: nothing */
	assert_int_equal(mess_quality_history(NAN, 120, bw, unl, 5, &v, &b, &u), 0);
	assert_int_equal(v.n, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(monotone_curve_passes),
		cmocka_unit_test(dip_flags_the_dip),
		cmocka_unit_test(dip_within_spread_is_noise),
		cmocka_unit_test(stall_flags_the_stall),
		cmocka_unit_test(latency_noise_is_no_stall),
		cmocka_unit_test(many_stalled_points),
		cmocka_unit_test(below_unloaded),
		cmocka_unit_test(harness_flags_kept),
		cmocka_unit_test(flag_strings),
		cmocka_unit_test(verdict_pass),
		cmocka_unit_test(verdict_run_rules),
		cmocka_unit_test(verdict_mix_status),
		cmocka_unit_test(dist_disagrees_rule),
		cmocka_unit_test(verdict_writers),
		cmocka_unit_test(history),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
