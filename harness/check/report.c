// SPDX-License-Identifier: MIT
/* mess check's outputs: one answer line, a table, JSON and JUnit XML. */
#include "check/check.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/util.h"
#include "mess/json.h"

/* The regressions the answer line names before "and N more". */
#define LINE_NAMED 3

static const char *unit(const struct mess_check_fig *g)
{
	return g->what == MESS_CHECK_MAX_BW ? "GB/s" : "ns";
}

/* "+10.1 % (beyond 3 spreads: 2.4 %)", "... (beyond 3 spreads and the
 * runs' drift: 4.1 %)" */
static void moved(const struct mess_check *c, const struct mess_check_fig *g,
		  char *buf, size_t len)
{
	snprintf(buf, len, "%+.1f %% (beyond %g spreads%s: %.1f %%)",
		 g->change_pct, c->k, g->drift > 0 ? " and the runs' drift" : "",
		 g->limit / g->base * 100);
}

void check_line(const struct check_run *r, char *buf, size_t len)
{
	const struct mess_check *c = r->c;
	const struct mess_check_fig *u = &c->fig[0];
	size_t *idx = malloc(c->n * sizeof(*idx)), nbad, judged, off;
	char run[PATH_MAX + 32] = "";

	if (r->run_newest)
		snprintf(run, sizeof(run), "; run %s (the newest under results/)",
			 r->run);
	nbad = idx ? mess_check_worst(c, idx) : c->count[MESS_CHECK_REGRESSED];
	judged = c->n - c->count[MESS_CHECK_UNJUDGED];
	if (!nbad) {
		off = (size_t)snprintf(buf, len, "mess check: PASS: %zu figure%s within %g spreads%s",
				       judged, judged == 1 ? "" : "s", c->k,
				       c->base_drift + c->run_drift > 0 ?
				       " and the runs' drift" : "");
		if (off < len && isfinite(u->base) && isfinite(u->run))
			off += (size_t)snprintf(buf + off, len - off, " (unloaded %.1f ns vs %.1f ns)",
						u->run, u->base);
		if (off < len && c->count[MESS_CHECK_IMPROVED])
			off += (size_t)snprintf(buf + off, len - off, ", %zu improved",
						c->count[MESS_CHECK_IMPROVED]);
		if (off < len && c->count[MESS_CHECK_UNJUDGED])
			off += (size_t)snprintf(buf + off, len - off, ", %zu not judged (no spread, or read from a flagged point)",
						c->count[MESS_CHECK_UNJUDGED]);
		if (off < len)
			snprintf(buf + off, len - off, "%s", run);
		free(idx);
		return;
	}
	off = (size_t)snprintf(buf, len, "mess check: REGRESSED:");
	for (size_t i = 0; idx && i < nbad && i < LINE_NAMED && off < len; i++) {
		char name[128], m[96];

		mess_check_name(&c->fig[idx[i]], name, sizeof(name));
		moved(c, &c->fig[idx[i]], m, sizeof(m));
		off += (size_t)snprintf(buf + off, len - off, "%s %s %s",
					i ? ";" : "", name, m);
	}
	if (off < len && nbad > LINE_NAMED)
		off += (size_t)snprintf(buf + off, len - off, "; and %zu more",
					nbad - LINE_NAMED);
	if (off < len)
		snprintf(buf + off, len - off, " (%zu of %zu figures judged beyond their spreads)%s",
			 nbad, judged, run);
	free(idx);
}

void check_table(const struct check_run *r, FILE *f, int all)
{
	const struct mess_check *c = r->c;

	if (!all && c->count[MESS_CHECK_WITHIN] == c->n)
		return;
	fprintf(f, "mess check: %s (run) against %s (baseline); a figure regresses beyond %g combined spreads k*sqrt(sd_base^2 + sd_run^2) and the runs' drift (baseline %.1f %%, run %.1f %% of a figure)\n",
		r->run, r->base, c->k, 100 * c->base_drift, 100 * c->run_drift);
	fprintf(f, "  %-52s %12s %12s %9s %9s  %s\n", "figure", "baseline", "run",
		"change", "limit", "state");
	for (size_t i = 0; i < c->n; i++) {
		const struct mess_check_fig *g = &c->fig[i];
		char name[128], b[32], v[32], lim[32];

		if (!all && g->state == MESS_CHECK_WITHIN)
			continue;
		mess_check_name(g, name, sizeof(name));
		snprintf(b, sizeof(b), "%.1f %s", g->base, unit(g));
		snprintf(v, sizeof(v), "%.1f %s", g->run, unit(g));
		snprintf(lim, sizeof(lim), isfinite(g->limit) ? "%.1f %%" : "-",
			 g->limit / g->base * 100);
		fprintf(f, "  %-52s %12s %12s %+7.1f %% %9s  %s%s\n", name, b, v,
			g->change_pct, lim, mess_check_state_name(g->state),
			g->flagged ? " (a flagged point)" : "");
	}
}

static const char *const what_key[] = { "unloaded_latency", "max_bandwidth",
					"latency_at_bandwidth" };

int check_json(const struct check_run *r, FILE *f)
{
	const struct mess_check *c = r->c;
	json_t *figs = json_array(), *j;
	char line[2048];
	int rc;

	for (size_t i = 0; figs && i < c->n; i++) {
		const struct mess_check_fig *g = &c->fig[i];
		char name[128];

		mess_check_name(g, name, sizeof(name));
		json_array_append_new(figs, mess_json_pack(
			"{s:s, s:s, s:o, s:o, s:o, s:o, s:s, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:s}",
			"name", name, "what", what_key[g->what],
			"store_pct", g->store_pct == MESS_STORE_PCT_UNKNOWN ||
				g->what == MESS_CHECK_UNLOADED ? json_null() :
				json_integer(g->store_pct),
			"read_pct", mess_json_real(g->read_pct, 2),
			"level", mess_json_real(g->level, 2),
			"bw_gbs", mess_json_real(g->bw_gbs, 3),
			"unit", unit(g),
			"baseline", mess_json_real(g->base, 3),
			"run", mess_json_real(g->run, 3),
			"baseline_std", mess_json_real(g->base_sd, 3),
			"run_std", mess_json_real(g->run_sd, 3),
			"baseline_shape_std", mess_json_real(g->base_shape, 3),
			"run_shape_std", mess_json_real(g->run_shape, 3),
			"flagged", json_string(g->flagged == 3 ? "both" : g->flagged == 2 ?
				"run" : g->flagged ? "baseline" : "none"),
			"drift", mess_json_real(g->drift, 3),
			"limit", mess_json_real(g->limit, 3),
			"change_pct", mess_json_real(g->change_pct, 2),
			"spreads", mess_json_real(g->sigmas, 2),
			"state", mess_check_state_name(g->state)));
	}
	check_line(r, line, sizeof(line));
	j = mess_json_pack("{s:s, s:s, s:s, s:b, s:f, s:o, s:o, s:s, s:{s:i, s:i, s:i, s:i}, s:o, s:s}",
		"verdict", c->count[MESS_CHECK_REGRESSED] ? "REGRESSED" : "PASS",
		"baseline", r->base, "run", r->run, "run_newest", r->run_newest,
		"k", c->k,
		"baseline_drift", mess_json_real(c->base_drift, 4),
		"run_drift", mess_json_real(c->run_drift, 4),
		"rule", "regressed: moved the bad way (latency up, bandwidth down) by more than k * sqrt(sd_baseline^2 + sd_run^2) + baseline_drift * baseline + run_drift * run (a run's drift: |quality.unloaded_end_ns - unloaded_ns| / unloaded_ns of its meta.json, 0 where it has none); an interpolated latency's sd is its points' lat_ns_std interpolated as the latency is, combined with the curve's shape there; a figure read from a point its run flags is not judged",
		"counts", "regressed", (int)c->count[MESS_CHECK_REGRESSED],
		"within", (int)c->count[MESS_CHECK_WITHIN],
		"improved", (int)c->count[MESS_CHECK_IMPROVED],
		"unjudged", (int)c->count[MESS_CHECK_UNJUDGED],
		"figures", figs, "line", line);
	if (!j)
		return -ENOMEM;
	rc = mess_json_dumpf(j, f);
	json_decref(j);
	return rc;
}

/* Text as an XML attribute value: the five entities, and control
 * characters (which XML 1.0 cannot carry) as spaces. */
static void xml(FILE *f, const char *s)
{
	for (; *s; s++) {
		unsigned char ch = (unsigned char)*s;

		switch (ch) {
		case '&': fputs("&amp;", f); break;
		case '<': fputs("&lt;", f); break;
		case '>': fputs("&gt;", f); break;
		case '"': fputs("&quot;", f); break;
		case '\'': fputs("&apos;", f); break;
		default: fputc(ch < 0x20 ? ' ' : ch, f);
		}
	}
}

static void junit(FILE *f, const void *arg)
{
	const struct check_run *r = arg;
	const struct mess_check *c = r->c;

	fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
		   "<testsuite name=\"mess check\" tests=\"%zu\" failures=\"%zu\" errors=\"0\" skipped=\"%zu\">\n"
		   "  <properties>\n    <property name=\"baseline\" value=\"",
		c->n, c->count[MESS_CHECK_REGRESSED], c->count[MESS_CHECK_UNJUDGED]);
	xml(f, r->base);
	fputs("\"/>\n    <property name=\"run\" value=\"", f);
	xml(f, r->run);
	fprintf(f, "\"/>\n    <property name=\"k\" value=\"%g\"/>\n  </properties>\n", c->k);
	for (size_t i = 0; i < c->n; i++) {
		const struct mess_check_fig *g = &c->fig[i];
		char name[128], msg[320], m[96];

		mess_check_name(g, name, sizeof(name));
		fputs("  <testcase classname=\"mess check\" name=\"", f);
		xml(f, name);
		fputs("\"", f);
		if (g->state == MESS_CHECK_REGRESSED) {
			moved(c, g, m, sizeof(m));
			snprintf(msg, sizeof(msg), "%s: %.1f %s to %.1f %s, %s",
				 name, g->base, unit(g), g->run, unit(g), m);
			fputs(">\n    <failure message=\"", f);
			xml(f, msg);
			fputs("\"/>\n  </testcase>\n", f);
		} else if (g->state == MESS_CHECK_UNJUDGED) {
			fprintf(f, ">\n    <skipped message=\"%s\"/>\n  </testcase>\n",
				g->flagged ? "read from a point its run flags (it still breaks a trust rule)" :
				"no spread or no value in one of the sets");
		} else {
			fputs("/>\n", f);
		}
	}
	fputs("</testsuite>\n", f);
}

int check_junit(const struct check_run *r, const char *path)
{
	char dir[PATH_MAX], name[NAME_MAX + 1];
	const char *slash = strrchr(path, '/');

	if (slash && strlen(slash + 1) > NAME_MAX)
		return -ENAMETOOLONG;
	if (!slash)
		snprintf(dir, sizeof(dir), ".");
	else if (slash == path)
		snprintf(dir, sizeof(dir), "/");
	else
		snprintf(dir, sizeof(dir), "%.*s", (int)(slash - path), path);
	snprintf(name, sizeof(name), "%s", slash ? slash + 1 : path);
	return mess_tmp_write(dir, name, junit, r);
}
