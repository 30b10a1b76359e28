// SPDX-License-Identifier: MIT
/*
 * The key figures written once (issue 44): one known summary through
 * summary.md's renderer and report.html's, row by row the same figures.
 * Unloaded 100 ns, peak 121.4 GB/s; mix 0 saturates at its maximum,
 * 60.7 GB/s (50 % of the peak) at 250 ns, and has a wave past it; mix 50
 * is loaded, never at 2x; mix 100 never loads the memory.
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
#include "core/report/html_int.h"

static void add(struct mess_curve *c, uint64_t nop, double bw, double lat)
{
	struct mess_point p = {
		.store_pct = c->store_pct, .read_pct = c->read_pct, .nop = nop,
		.bw_gbs = bw, .lat_ns = lat, .lat_ns_std = 1, .repeats = 3,
		MESS_POINT_TRUST_NAN,
	};

	assert_int_equal(mess_curve_add(c, &p), 0);
}

static void summary(struct mess_summary *s)
{
	struct mess_family f = { 0 };
	struct mess_curve *c = mess_family_curve(&f, 0, 100.0);

	add(c, 1000, 0.3, 101.0);
	add(c, 100, 30.0, 150.0);
	add(c, 10, 60.7, 250.0);
	add(c, 0, 50.0, 300.0);
	c = mess_family_curve(&f, 50, 66.7);
	add(c, 1000, 0.2, 100.0);
	add(c, 10, 40.0, 180.0);
	add(c, 0, 44.4, 190.0);
	c = mess_family_curve(&f, 100, 50.0);
	add(c, 1000, 0.2, 100.0);
	add(c, 0, 3.0, 102.0);
	assert_int_equal(mess_summarise(&f, 100.0, 121.4, 0.02, s), 0);
	mess_family_free(&f);
	s->gen_cores = 1;
}

/* Line n (0 first) of text from the first line starting with from. */
static const char *line_after(const char *text, const char *from, int n)
{
	const char *p = strstr(text, from);

	assert_non_null(p);
	while (p && n--) {
		p = strchr(p, '\n');
		p = p ? p + 1 : NULL;
	}
	assert_non_null(p);
	return p;
}

/* Whether the line at p holds what. */
static int line_has(const char *p, const char *what)
{
	const char *hit = strstr(p, what), *eol = strchr(p, '\n');

	return hit && (!eol || hit < eol);
}

static void same_rows(void **state)
{
	struct mess_summary s;
	char *md = NULL, *html = NULL, want[128];
	size_t len = 0, hlen = 0, i;
	FILE *fp, *hp;

	(void)state;
	summary(&s);
	assert_int_equal(s.curves[0].saturated, 1);
	assert_int_equal(s.curves[0].nwaves, 1);
	assert_int_equal(s.curves[2].loaded, 0);
	fp = open_memstream(&md, &len);
	assert_int_equal(mess_summary_write_md(fp, &s, "Curves"), 0);
	assert_int_equal(fclose(fp), 0);
	hp = open_memstream(&html, &hlen);
	mess_kf_family(hp, &s, &mess_h_kf_run);
	mess_kf_curves(hp, &s, &mess_h_kf_run);
	assert_int_equal(fclose(hp), 0);

	/* The family's maximum and saturation, with their % of the peak. */
	assert_non_null(strstr(md, "| max bandwidth [GB/s] | 60.7 | 50.0 |\n"));
	assert_non_null(strstr(html, "<tr><th>maximum bandwidth [GB/s]</th><td class=\"n\">60.7 (50 % of peak)</td>"));
	assert_non_null(strstr(md, "| saturated bandwidth range [GB/s] | 60.7 – 60.7 | 50.0 – 50.0 |\n"));
	assert_non_null(strstr(html, "<td class=\"n\">60.7 – 60.7</td><td>where latency first reaches 2× unloaded (200 ns): 50 – 50 % of peak</td>"));

	/* A row a curve in both, in the same order, with the same figures. */
	for (i = 0; i < s.ncurves; i++) {
		const struct mess_curve_summary *c = &s.curves[i];
		const char *m = line_after(md, "| mix (store %)", 2 + (int)i);
		const char *h = line_after(html, "<tr><th>mix (store %)</th>", 1 + (int)i);

		snprintf(want, sizeof(want), "| %u | %.1f | %zu | %.1f | %.1f | %.1f |",
			 c->store_pct, c->read_pct, c->npoints, c->max_bw_gbs,
			 100 * c->max_bw_gbs / 121.4, c->lat_at_max_bw_ns);
		assert_true(line_has(m, want));
		snprintf(want, sizeof(want), "<tr><td class=\"n\">%u</td><td class=\"n\">%.1f</td><td class=\"n\">%zu</td><td class=\"n\">%.1f (%.0f %% of peak)</td><td class=\"n\">%.1f</td>",
			 c->store_pct, c->read_pct, c->npoints, c->max_bw_gbs,
			 100 * c->max_bw_gbs / 121.4, c->lat_at_max_bw_ns);
		assert_true(line_has(h, want));
		snprintf(want, sizeof(want), "%.1f |", c->max_lat_ns);
		assert_true(line_has(m, want));
		snprintf(want, sizeof(want), "<td class=\"n\">%.1f</td><td class=\"n\">", c->max_lat_ns);
		assert_true(line_has(h, want));
	}
	/* Saturation, none and not loaded, and the waves, alike. */
	assert_true(line_has(line_after(md, "| mix (store %)", 2), "| 60.7 | 50.0 | 300.0 | 1 |"));
	assert_true(line_has(line_after(html, "<tr><th>mix", 1), "<td class=\"n\">60.7 (50 % of peak)</td><td class=\"n\">300.0</td><td class=\"n\">1</td></tr>"));
	assert_true(line_has(line_after(md, "| mix (store %)", 3), "| none | none | 190.0 | 0 |"));
	assert_true(line_has(line_after(html, "<tr><th>mix", 2), "<td class=\"n\"><i>none</i></td><td class=\"n\">190.0</td><td class=\"n\">0</td></tr>"));
	assert_true(line_has(line_after(md, "| mix (store %)", 4), "| not loaded | – | 102.0 | – |"));
	assert_true(line_has(line_after(html, "<tr><th>mix", 3), "<td class=\"n\"><i>not loaded</i></td><td class=\"n\">102.0</td><td class=\"n\">–</td></tr>"));
	/* No row more in either. */
	assert_null(strstr(line_after(md, "| mix (store %)", 5), "|"));
	assert_null(strstr(line_after(html, "<tr><th>mix", 4), "<tr>"));
	free(md);
	free(html);
	mess_summary_free(&s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(same_rows),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
