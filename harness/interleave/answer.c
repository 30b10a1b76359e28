// SPDX-License-Identifier: MIT
/*
 * The splits' families compared: compare/ by the comparison service, as
 * any families are, and from the same figures (mess/compare.h) the
 * answer interleave exists for, first in interleave.json, summary.md and
 * report.html: per read share the split with the most bandwidth, and for
 * each --app the split that serves it at the lowest latency, or that
 * none sustains it.  The verdict is the worst of the splits'.
 */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/buildinfo.h"
#include "core/util.h"
#include "interleave/interleave.h"
#include "mess/json.h"
#include "mess/parse.h"

#define PROG "mess interleave"
#define ANSWER_LEN 1024

struct sets {
	struct mess_family fam[MESS_IL_MAX_SPLITS];
	struct mess_set_info info[MESS_IL_MAX_SPLITS];
	struct mess_compare_set set[MESS_IL_MAX_SPLITS];
	const struct mess_il_split *split[MESS_IL_MAX_SPLITS];
	size_t n;
	struct mess_cmp cmp;
	size_t best[MESS_CMP_NSHARES];	/* per share: the most bandwidth */
	struct mess_cmp_app app[MESS_COMPARE_MAX_APPS];
	char verdict[16];		/* the worst of the splits' */
	char why[400];			/* which split gave it, and its reason */
	char answer[MESS_COMPARE_MAX_APPS + 1][ANSWER_LEN];
	size_t nanswer;
};

/* Worse is higher: a split not to be trusted makes the answer so. */
static int rank(const char *v)
{
	static const char *const order[] = { "none", "PASS", "WARN", "pending", "INVALID" };

	for (int i = 0; i < 5; i++)
		if (!strcmp(v, order[i]))
			return i;
	return 0;
}

static int load(const struct mess_il *il, struct sets *s)
{
	char err[1024];

	for (int i = 0; i < il->nsplit; i++) {
		const struct mess_family_job *j = &il->split[i].job;
		size_t k = s->n;
		int rc;

		if (!j->complete)
			continue;
		rc = mess_set_load(j->dir, 0, &s->fam[k], &s->info[k], err, sizeof(err));
		s->n++;
		if (rc) {
			mess_say(PROG ": %s\n", err);
			return rc;
		}
		s->set[k] = (struct mess_compare_set){ &s->fam[k], &s->info[k], j->label };
		s->split[k] = &il->split[i];
	}
	return 0;
}

/* The figures of the answer, from the model as compare computes them. */
static int judge(const struct mess_il *il, struct sets *s)
{
	const struct mess_family *f[MESS_IL_MAX_SPLITS];
	int rc;

	for (size_t i = 0; i < s->n; i++)
		f[i] = &s->fam[i];
	rc = mess_compare_new(f, s->n, &s->cmp, NULL);
	if (rc)
		return rc;
	for (size_t k = 0; k < MESS_CMP_NSHARES; k++)
		for (size_t i = 1; i < s->n; i++)
			if (s->cmp.set[i].max_bw[k].v > s->cmp.set[s->best[k]].max_bw[k].v ||
			    !isfinite(s->cmp.set[s->best[k]].max_bw[k].v))
				s->best[k] = i;
	for (size_t a = 0; a < il->napps && !rc; a++)
		rc = mess_compare_app(&s->cmp, il->app_r[a], il->app_bw[a], &s->app[a]);
	snprintf(s->verdict, sizeof(s->verdict), "none");
	for (size_t i = 0; i < s->n; i++) {
		const char *v = mess_set_verdict(&s->info[i]);

		if (rank(v) <= rank(s->verdict))
			continue;
		snprintf(s->verdict, sizeof(s->verdict), "%s", v);
		/* Which split to distrust, when one is not to be. */
		if (rank(v) > rank("PASS"))
			snprintf(s->why, sizeof(s->why), "%s %s%s%.300s", s->set[i].label,
				 v, s->info[i].verdict_reason[0] ? ": " : "",
				 s->info[i].verdict_reason);
	}
	return rc;
}

static void app_sentence(const struct sets *s, const struct mess_cmp_app *a,
			 char *buf, size_t len)
{
	const char *best = s->set[a->best].label;
	size_t most = 0, nsus = 0;

	for (size_t i = 0; i < a->n; i++) {
		nsus += a->set[i].sustains;
		if (a->set[i].max_bw.v > a->set[most].max_bw.v)
			most = i;
	}
	if (a->best_sustains)
		snprintf(buf, len, "An application moving %g GB/s at %g %% reads is served at the lowest latency by %s: %.1f ns; %zu of %zu splits sustain it.",
			 a->bw_gbs, a->read_pct, best, a->set[a->best].lat.v, nsus, a->n);
	else
		snprintf(buf, len, "No split sustains an application moving %g GB/s at %g %% reads: the most any reaches there is %.1f GB/s (%s); %s would serve it at the lowest latency, %.1f ns extrapolated.",
			 a->bw_gbs, a->read_pct, a->set[most].max_bw.v,
			 s->set[most].label, best, a->set[a->best].lat.v);
}

/* The sentences that lead every file: one an application, or the
 * bandwidth answer when none was given. */
static void answers(const struct mess_il *il, struct sets *s)
{
	char *b = s->answer[0];
	size_t o, same = 1, hi = MESS_CMP_NSHARES - 1;

	for (size_t a = 0; a < il->napps; a++)
		app_sentence(s, &s->app[a], s->answer[a], ANSWER_LEN);
	s->nanswer = il->napps;
	b = s->answer[s->nanswer++];
	for (size_t k = 1; k < MESS_CMP_NSHARES; k++)
		same &= s->best[k] == s->best[0];
	if (same) {
		snprintf(b, ANSWER_LEN, "The most bandwidth at every read share from %g to %g %%: %s (%.1f GB/s at %g %% reads).",
			 mess_cmp_shares[0], mess_cmp_shares[hi], s->set[s->best[0]].label,
			 s->cmp.set[s->best[hi]].max_bw[hi].v, mess_cmp_shares[hi]);
		return;
	}
	o = (size_t)snprintf(b, ANSWER_LEN, "The split with the most bandwidth depends on the read share:");
	for (size_t k = 0; k < MESS_CMP_NSHARES && o < ANSWER_LEN; k++)
		o += (size_t)snprintf(b + o, ANSWER_LEN - o, "%s %s at %g %% (%.1f GB/s)",
				      k ? "," : "", s->set[s->best[k]].label, mess_cmp_shares[k],
				      s->cmp.set[s->best[k]].max_bw[k].v);
	if (o < ANSWER_LEN)
		snprintf(b + o, ANSWER_LEN - o, ".");
}

static json_t *build_json(const struct mess_il *il, const struct sets *s)
{
	json_t *sp = json_array(), *best = json_array(), *apps = json_array(), *ans = json_array();
	json_t *j = mess_json_pack("{s:i, s:s, s:s, s:s, s:[i,i], s:s, s:o, s:o, s:o, s:o, s:o, s:o, s:s}",
		"schema", 1, "tool", PROG, "version", mess_version,
		"git_revision", mess_git_rev, "nodes", il->a, il->b,
		"verdict", s->verdict,
		"verdict_from", s->why[0] ? json_string(s->why) : json_null(),
		"answer", ans, "splits", sp, "best_per_read_share", best, "apps", apps,
		"read_shares_pct", json_array(), "compare", "compare/compare.json");

	for (size_t i = 0; j && i < s->nanswer; i++)
		json_array_append_new(ans, json_string(s->answer[i]));
	for (size_t k = 0; j && k < MESS_CMP_NSHARES; k++) {
		json_array_append_new(json_object_get(j, "read_shares_pct"),
				      json_real(mess_cmp_shares[k]));
		json_array_append_new(best, mess_json_pack("{s:f, s:s, s:o, s:s}",
			"read_pct", mess_cmp_shares[k], "best", s->set[s->best[k]].label,
			"max_bw_gbs", mess_json_real(s->cmp.set[s->best[k]].max_bw[k].v, 2),
			"max_bw_source", mess_cmp_src(s->cmp.set[s->best[k]].max_bw[k].src)));
	}
	for (int i = 0; j && i < il->nsplit; i++) {
		const struct mess_il_split *x = &il->split[i];
		json_t *per = json_array();
		size_t at = SIZE_MAX;

		for (size_t k = 0; k < s->n; k++)
			if (s->split[k] == x)
				at = k;
		for (size_t k = 0; at != SIZE_MAX && k < MESS_CMP_NSHARES; k++)
			json_array_append_new(per, mess_json_pack("{s:f, s:o, s:s}",
				"read_pct", mess_cmp_shares[k],
				"max_bw_gbs", mess_json_real(s->cmp.set[at].max_bw[k].v, 2),
				"max_bw_source", mess_cmp_src(s->cmp.set[at].max_bw[k].src)));
		json_array_append_new(sp, mess_json_pack("{s:s, s:{s:i, s:i}, s:s, s:s, s:b, s:s, s:o, s:o}",
			"label", x->job.label, "weights", "a", x->wa, "b", x->wb,
			"mem_node", x->job.mem_node, "dir", strrchr(x->job.dir, '/') + 1,
			"complete", x->job.complete,
			"verdict", at == SIZE_MAX ? "not measured" : mess_set_verdict(&s->info[at]),
			"max_bw_gbs", mess_json_real(at == SIZE_MAX ? NAN : s->cmp.set[at].max_bw_gbs, 2),
			"per_read_share", per));
	}
	for (size_t a = 0; j && a < il->napps; a++) {
		const struct mess_cmp_app *p = &s->app[a];
		json_t *sus = json_array();

		for (size_t i = 0; i < p->n; i++)
			if (p->set[i].sustains)
				json_array_append_new(sus, json_string(s->set[i].label));
		json_array_append_new(apps, mess_json_pack("{s:f, s:f, s:s, s:b, s:b, s:o, s:o, s:s}",
			"read_pct", p->read_pct, "bw_gbs", p->bw_gbs,
			"best", s->set[p->best].label, "best_sustains", p->best_sustains,
			"any_sustains", json_array_size(sus) > 0, "sustained_by", sus,
			"lat_ns", mess_json_real(p->set[p->best].lat.v, 1),
			"answer", s->answer[a]));
	}
	return j;
}

static void title(const struct mess_il *il, const struct sets *s, char *buf, size_t len)
{
	snprintf(buf, len, "Interleave of nodes %d and %d, %d splits: %s", il->a, il->b,
		 il->nsplit, strcmp(s->verdict, "none") ? s->verdict : "no verdict");
}

static int write_md(const struct mess_il *il, const struct sets *s)
{
	FILE *f = mess_tmp_open(il->top, "summary.md");
	char t[256];

	if (!f)
		return -errno;
	title(il, s, t, sizeof(t));
	fprintf(f, "# %s\n\n", t);
	for (size_t i = 0; i < s->nanswer; i++)
		fprintf(f, "**Answer:** %s\n\n", s->answer[i]);
	fprintf(f, "Verdict: %s, the worst of the splits'%s%s%s.\n\n", s->verdict,
		s->why[0] ? " (" : "", s->why, s->why[0] ? ")" : "");
	fprintf(f, "## The most bandwidth per read share\n\n| read share %% | split | max GB/s |\n|---:|---|---:|\n");
	for (size_t k = 0; k < MESS_CMP_NSHARES; k++)
		fprintf(f, "| %g | %s | %.1f |\n", mess_cmp_shares[k], s->set[s->best[k]].label,
			s->cmp.set[s->best[k]].max_bw[k].v);
	fprintf(f, "\n## The splits\n\n| split | pages A:B | directory | verdict | max GB/s |\n|---|---|---|---|---:|\n");
	for (int i = 0; i < il->nsplit; i++) {
		const struct mess_il_split *x = &il->split[i];
		size_t at = SIZE_MAX;

		for (size_t k = 0; k < s->n; k++)
			if (s->split[k] == x)
				at = k;
		fprintf(f, "| %s | %d:%d | %s | %s | %.1f |\n", x->job.label, x->wa, x->wb,
			strrchr(x->job.dir, '/') + 1,
			at == SIZE_MAX ? "not measured" : mess_set_verdict(&s->info[at]),
			at == SIZE_MAX ? NAN : s->cmp.set[at].max_bw_gbs);
	}
	fprintf(f, "\nThe latency at common bandwidths, the ratios and how each figure is computed: compare/compare.md.  The files: results/README.md (mess interleave).\n");
	return mess_tmp_commit(il->top, "summary.md", f);
}

static void esc(FILE *f, const char *s)
{
	for (; *s; s++)
		switch (*s) {
		case '<': fputs("&lt;", f); break;
		case '>': fputs("&gt;", f); break;
		case '&': fputs("&amp;", f); break;
		case '"': fputs("&quot;", f); break;
		default: fputc(*s, f);
		}
}

/* A figure's width from its viewBox (gnuplot's 1200 unless asked
 * otherwise): an <img> of an SVG without width or height is laid out
 * at the page's width, the compare figures shrunk to 85 % (their 12 px
 * labels read as 10), where mess report shows them at their own. */
static int svg_width(const char *path)
{
	char head[1024] = "";
	FILE *f = fopen(path, "r");
	const char *vb;
	int w;

	if (f) {
		head[fread(head, 1, sizeof(head) - 1, f)] = 0;
		fclose(f);
	}
	vb = strstr(head, "viewBox=\"0 0 ");
	w = vb ? atoi(vb + 13) : 0;
	return w > 0 && w <= 4000 ? w : 1200;
}

static int write_html(const struct mess_il *il, const struct sets *s)
{
	static const char *const figs[] = { "compare/plots/compare.svg",
					    "compare/plots/compare-ratio.svg" };
	FILE *f = mess_tmp_open(il->top, "report.html");
	char t[256], p[PATH_MAX + 64];

	if (!f)
		return -errno;
	title(il, s, t, sizeof(t));
	fputs("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>", f);
	esc(f, t);
	/* As mess report's page: 1200 px figures whole in view. */
	fputs("</title>\n<style>body{font-family:sans-serif;max-width:1202px;margin:auto}"
	      "table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:2px 6px}"
	      "figure{margin:1em 0;overflow-x:auto}img{max-width:none}</style></head><body>\n<h1>", f);
	esc(f, t);
	fputs("</h1>\n", f);
	for (size_t i = 0; i < s->nanswer; i++) {
		fputs("<p class=\"answer\"><b>Answer:</b> ", f);
		esc(f, s->answer[i]);
		fputs("</p>\n", f);
	}
	fprintf(f, "<p>Verdict: %s, the worst of the splits'", s->verdict);
	if (s->why[0]) {
		fputs(" (", f);
		esc(f, s->why);
		fputs(")", f);
	}
	fputs(".</p>\n<h2>The most bandwidth per read share</h2>\n<table><tr><th>read share %</th><th>split</th><th>max GB/s</th></tr>\n", f);
	for (size_t k = 0; k < MESS_CMP_NSHARES; k++) {
		fprintf(f, "<tr><td>%g</td><td>", mess_cmp_shares[k]);
		esc(f, s->set[s->best[k]].label);
		fprintf(f, "</td><td>%.1f</td></tr>\n", s->cmp.set[s->best[k]].max_bw[k].v);
	}
	fputs("</table>\n", f);
	for (size_t i = 0; i < sizeof(figs) / sizeof(figs[0]); i++) {
		snprintf(p, sizeof(p), "%s/%s", il->top, figs[i]);
		if (!access(p, R_OK))
			fprintf(f, "<figure><img src=\"%s\" alt=\"%s\" width=\"%d\"></figure>\n",
				figs[i], figs[i], svg_width(p));
	}
	fputs("<p>Every split is a run directory of its own (its report.html); the comparison's figures and how they are computed: compare/compare.md.</p>\n</body></html>\n", f);
	return mess_tmp_commit(il->top, "report.html", f);
}

int mess_il_answer(const struct mess_il *il)
{
	static struct sets s;
	struct mess_compare_opts o = { .cmd = PROG, .app_read_pct = il->app_r,
				       .app_bw_gbs = il->app_bw, .napps = il->napps,
				       .no_plots = il->no_plots };
	char dir[PATH_MAX + 16];
	int rc;

	memset(&s, 0, sizeof(s));
	rc = load(il, &s);
	if (!rc && s.n < 2) {
		mess_say(PROG ": %zu complete split%s: nothing to compare\n", s.n,
			 s.n == 1 ? "" : "s");
		goto out;
	}
	snprintf(dir, sizeof(dir), "%s/compare", il->top);
	if (!rc)
		rc = mess_compare_write(dir, s.set, s.n, &o);
	if (!rc)
		rc = judge(il, &s);
	if (!rc) {
		answers(il, &s);
		for (size_t i = 0; i < s.nanswer; i++)
			mess_say(PROG ": %s\n", s.answer[i]);
		mess_say(PROG ": verdict %s\n", s.verdict);
		rc = mess_json_write(il->top, "interleave.json", build_json(il, &s));
	}
	if (!rc)
		rc = write_md(il, &s);
	if (!rc)
		rc = write_html(il, &s);
	mess_compare_free(&s.cmp);
out:
	for (size_t i = 0; i < s.n; i++)
		mess_family_free(&s.fam[i]);
	return rc;
}
