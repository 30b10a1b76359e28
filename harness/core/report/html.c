// SPDX-License-Identifier: MIT
/*
 * report.html: the page.  Everything on it comes from the directory's
 * files, so a run and `mess report` write the same page; every figure is
 * the run's own SVG as an <img> of a data: URL, so that the page stays one
 * file (no network) and nothing in a figure can run: a browser runs no
 * script or handler, and fetches nothing, of an SVG shown as an image.
 * Every text read from a file goes through mess_h_esc.
 */
#include <dirent.h>
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/buildinfo.h"
#include "core/clock.h"
#include "core/report/html.h"
#include "core/report/html_int.h"
#include "core/util.h"
#include "mess/parse.h"

#define SVG_MAX (16u << 20)

/* The page 1202 px wide at most: a 1200 px figure with its border whole
 * in view (at 1100 its right 100 px, position's colour box and its
 * labels, curves' peak line, lay out of view until scrolled). */
static const char *css =
	"body{font:15px/1.45 'DejaVu Sans',sans-serif;margin:1.5em auto;max-width:1202px;padding:0 1em;color:#222}\n"
	"h1{font-size:1.5em;margin-bottom:.2em}h2{font-size:1.2em;border-bottom:1px solid #ccc;margin-top:1.6em}\n"
	".sub{color:#555;margin-top:0}\n"
	".verdict{border-left:8px solid #888;padding:.4em 1em;background:#f6f6f6}\n"
	".v-PASS{border-color:#2ca02c;background:#eef8ee}.v-WARN{border-color:#e6a000;background:#fdf6e3}\n"
	".v-INVALID{border-color:#d62728;background:#fbeaea}\n"
	".lv-INVALID{color:#b11}.lv-WARN{color:#a06b00}.lv-PASS{color:#1a7a1a}.lv-note{color:#666}\n"
	"table{border-collapse:collapse;margin:.6em 0}td,th{border:1px solid #ccc;padding:.2em .5em;text-align:left;vertical-align:top}\n"
	"td.n{text-align:right;font-variant-numeric:tabular-nums}\n"
	"figure{margin:1em 0;overflow-x:auto}figure img{max-width:none;height:auto;border:1px solid #eee}\n"
	"figcaption{color:#555;font-size:.9em}\n"
	"dl{display:grid;grid-template-columns:max-content auto;gap:.1em .8em;margin:.3em 0 .3em 1em}dt{font-weight:bold}dd{margin:0}\n"
	"td.heat{text-align:center;min-width:6em}\n"
	"footer{color:#666;font-size:.85em;margin-top:2em;border-top:1px solid #ccc}\n";

static json_t *load_json(const char *dir, const char *name)
{
	char path[PATH_MAX + 64];

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	/* ours: a link could put another file's strings in the page */
	return mess_json_load_in(path, MESS_IN_NOFOLLOW, 0, NULL);
}

static const char *jstr(const json_t *o, const char *key)
{
	const char *s = json_string_value(json_object_get(o, key));

	return s && *s ? s : NULL;
}

/* A JSON value for people: null is "unknown" (never 0). */
static void put_value(FILE *f, const json_t *v, int depth)
{
	const char *k;
	json_t *m;
	size_t i;

	switch (json_typeof(v)) {
	case JSON_STRING:
		mess_h_esc(f, json_string_value(v));
		break;
	case JSON_INTEGER:
		fprintf(f, "%lld", (long long)json_integer_value(v));
		break;
	case JSON_REAL:
		fprintf(f, "%.6g", json_real_value(v));
		break;
	case JSON_TRUE:
		fputs("yes", f);
		break;
	case JSON_FALSE:
		fputs("no", f);
		break;
	case JSON_NULL:
		fputs("<i>unknown</i>", f);
		break;
	case JSON_ARRAY:
		if (!json_array_size(v))
			fputs("<i>none</i>", f);
		json_array_foreach(v, i, m) {
			if (i)
				fputs(", ", f);
			if (json_is_object(m) || json_is_array(m)) {
				char *s = json_dumps(m, JSON_COMPACT);

				mess_h_esc(f, s);
				free(s);
			} else {
				put_value(f, m, depth + 1);
			}
		}
		break;
	case JSON_OBJECT:
		if (depth > 2) {
			char *s = json_dumps(v, JSON_COMPACT);

			mess_h_esc(f, s);
			free(s);
			break;
		}
		if (!json_object_size(v)) {
			fputs("<i>none</i>", f);
			break;
		}
		fputs("<dl>", f);
		json_object_foreach((json_t *)v, k, m) {
			mess_h_put(f, "<dt>", k, "</dt><dd>");
			put_value(f, m, depth + 1);
			fputs("</dd>", f);
		}
		fputs("</dl>", f);
		break;
	}
}

/* A command that measures nothing (position) carries the verdict of the
 * set it read, and says whose. */
static void put_inherited(FILE *f, const json_t *inh)
{
	const char *v = jstr(inh, "verdict") ? jstr(inh, "verdict") : "none";
	const char *why = jstr(inh, "reason");

	mess_h_put(f, "<section class=\"verdict v-", v, "\"><h2>Verdict: ");
	mess_h_esc(f, v);
	const json_t *from = json_object_get(inh, "inherited_from"), *e;
	size_t i;

	fputs(", inherited</h2>\n<p>Nothing was measured here: the verdict is that of the curves read, ", f);
	if (json_is_string(from))
		mess_h_put(f, "<code>", json_string_value(from), "</code>");
	json_array_foreach(from, i, e)
		mess_h_put(f, i ? ", <code>" : "<code>", json_string_value(e), "</code>");
	if (why)
		mess_h_put(f, ": ", why, "");
	fputs(".</p>\n", f);
	if (jstr(inh, "means"))
		mess_h_put(f, "<p class=\"next-step\"><b>For these figures:</b> ",
			   jstr(inh, "means"), ".</p>\n");
	fputs("</section>\n", f);
}

static void put_verdict(FILE *f, const json_t *meta)
{
	const json_t *q = json_object_get(meta, "quality");
	const char *v = jstr(q, "verdict");
	const json_t *inh;
	json_t *r;
	size_t i;

	/* An inherited none says what the plain none below says. */
	inh = json_object_get(meta, "inherited_verdict");
	if (!v && jstr(inh, "verdict") && strcmp(jstr(inh, "verdict"), "none")) {
		put_inherited(f, inh);
		return;
	}
	if (!v && meta) {
		mess_h_put(f, "<section class=\"verdict\"><h2>Verdict: none</h2><p>",
			   jstr(meta, "tool") ? jstr(meta, "tool") : "This run",
			   " gives no verdict of its own (a comparison or a fleet names each set's in its .md; a run made before verdicts has none): judge the figures by how they were measured, below.</p></section>\n");
		return;
	}
	if (!v) {
		fputs("<section class=\"verdict\"><h2>Verdict: none</h2><p>These files carry no verdict (a set another tool published): judge the figures by how they were measured, below.</p></section>\n", f);
		return;
	}
	mess_h_put(f, "<section class=\"verdict v-", v, "\"><h2>Verdict: ");
	mess_h_esc(f, v);
	fputs("</h2>\n<ul>\n", f);
	json_array_foreach(json_object_get(q, "reasons"), i, r) {
		const char *lv = jstr(r, "level"), *rule = jstr(r, "rule");

		mess_h_put(f, "<li><b class=\"lv-", lv, "\">");
		mess_h_esc(f, lv ? lv : "?");
		fputs("</b>", f);
		if (rule)
			mess_h_put(f, " (<code>", rule, "</code>)");
		mess_h_put(f, ": ", jstr(r, "text"), "</li>\n");
	}
	if (!json_array_size(json_object_get(q, "reasons")))
		fputs("<li>every rule held</li>\n", f);
	fputs("</ul>\n", f);
	/* The same sentence as summary.md's and stderr's (mess_verdict_next). */
	if (jstr(q, "next_step")) {
		mess_h_put(f, "<p class=\"next-step\"><b>Next step:</b> ", jstr(q, "next_step"),
			   ".</p>\n");
	}
	fputs("</section>\n", f);
}

static void row(FILE *f, const char *name, const char *fmt, ...)
{
	char buf[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	mess_h_put(f, "<tr><th>", name, "</th><td>");
	mess_h_esc(f, buf);
	fputs("</td></tr>\n", f);
}

#define OR_UNKNOWN(s) ((s) ? (s) : "unknown")

static void put_measured(FILE *f, const json_t *meta)
{
	const json_t *cores = json_object_get(meta, "cores");
	const json_t *gen = json_object_get(meta, "generator");
	const json_t *choice = json_object_get(meta, "memory_node_choice");
	const json_t *node = json_object_get(meta, "memory_node");
	const char *start = jstr(meta, "start_utc"), *end = jstr(meta, "end_utc");
	long secs = mess_utc_span_s(start, end);

	fputs("<section><h2>How it was measured</h2><table>\n", f);
	row(f, "host", "%s", OR_UNKNOWN(jstr(meta, "host")));
	/* A fleet's comparison ran on no node: its machines and memory are
	 * each node's, in fleet.csv ("CPU unknown" read as if not known). */
	if (jstr(meta, "fleet"))
		row(f, "CPU, memory node and kind",
		    "each node's own: fleet.csv's cpu_model, isa, memory_node and memory_node_choice.kind columns");
	else
		row(f, "CPU", "%s (%s)", OR_UNKNOWN(jstr(meta, "cpu_model")),
		    OR_UNKNOWN(jstr(meta, "isa")));
	/* A section null in meta.json is none of the run's (a replay's
	 * cores); one absent is unknown (a set from elsewhere). */
	if (jstr(meta, "fleet"))
		;
	else if (json_is_integer(node) && json_is_null(choice) &&
	    json_integer_value(node) < 0)
		;
	else if (json_is_integer(node))
		row(f, "memory node and kind", "node %lld, %s%s%s",
		    (long long)json_integer_value(node),
		    OR_UNKNOWN(jstr(choice, "kind")),
		    jstr(choice, "rule") ? "; " : "",
		    jstr(choice, "rule") ? jstr(choice, "rule") : "");
	else
		row(f, "memory node and kind", "unknown");
	if (json_is_object(cores)) {
		size_t ng = json_array_size(json_object_get(cores, "generators"));
		json_t *mc = json_object_get(cores, "machine_cores");

		row(f, "cores", "%zu generator core%s, chase core %lld, of %lld on the machine",
		    ng, ng == 1 ? "" : "s",
		    (long long)json_integer_value(json_object_get(cores, "chase")),
		    (long long)json_integer_value(mc));
	} else if (json_is_integer(cores)) {
		row(f, "cores", "%lld", (long long)json_integer_value(cores));
	} else if (!json_is_null(cores)) {
		/* Why, where it is known why. */
		row(f, "cores", "%s", jstr(meta, "tree_format") ?
		    "not recorded: a Mess benchmark tree does not say how many cores generated the traffic" :
		    "not given in the set's files");
	}
	if (!json_is_null(json_object_get(meta, "huge_pages")))
		row(f, "huge pages", "%s", OR_UNKNOWN(jstr(meta, "huge_pages")));
	if (json_is_object(gen))
		row(f, "generator variant", "%s: %s", OR_UNKNOWN(jstr(gen, "variant")),
		    OR_UNKNOWN(jstr(gen, "description")));
	if (jstr(meta, "bw_source"))
		row(f, "bandwidth source", "%s%s", jstr(meta, "bw_source"),
		    !strcmp(jstr(meta, "bw_source"), "accounted") ?
		    " (the generators' declared work, not the memory controllers' counts)" : "");
	row(f, "tool", "%s %s (git %s), %s %s", OR_UNKNOWN(jstr(meta, "tool")),
	    OR_UNKNOWN(jstr(meta, "version")), OR_UNKNOWN(jstr(meta, "git_revision")),
	    OR_UNKNOWN(jstr(meta, "compiler")), OR_UNKNOWN(jstr(meta, "cflags")));
	row(f, "kernel", "%s", OR_UNKNOWN(jstr(meta, "kernel")));
	if (secs >= 0)
		row(f, "date", "%s to %s (%ld min %02ld s)", start, end, secs / 60, secs % 60);
	else
		row(f, "date", "%s (%s)", OR_UNKNOWN(start),
		    end ? end : "not finished");
	fputs("</table></section>\n", f);
}

/* One figure, whole, as an image: a run directory may come from anyone,
 * and an SVG inlined in the page would run its <script> and on*= handlers
 * (an <img> runs none and loads nothing the SVG names). */
static void put_img(FILE *f, const char *name, const char *svg, size_t len)
{
	const char *vb = memmem(svg, len < 1024 ? len : 1024, "viewBox=\"0 0 ", 13);
	int w = vb ? atoi(vb + 13) : 0;

	mess_h_put(f, "<img alt=\"plots/", name, "\"");
	/* At its own width, the page scrolling sideways where it is wider:
	 * fitted to the page, a 1600 px figure's 12 px text read as 8. */
	if (w > 0 && w <= 4000)
		fprintf(f, " width=\"%d\"", w);
	fputs(" src=\"data:image/svg+xml;base64,", f);
	mess_h_b64(f, svg, len);
	fputs("\">\n", f);
}

static int svg_name(const struct dirent *d)
{
	size_t n = strlen(d->d_name);

	return n > 4 && !strcmp(d->d_name + n - 4, ".svg") && d->d_name[0] != '.';
}

/* Every SVG of plots/, in the order mess_h_fig_rank gives. */
static void put_figures(FILE *f, const char *outdir, const json_t *meta,
			const char *why)
{
	char dir[PATH_MAX + 16], path[2 * PATH_MAX];
	struct dirent **list = NULL;
	int n, shown = 0;

	snprintf(dir, sizeof(dir), "%s/plots", outdir);
	n = scandir(dir, &list, svg_name, alphasort);
	fputs("<section><h2>Figures</h2>\n", f);
	for (int pass = 0; pass < 3; pass++)
		for (int i = 0; i < n; i++) {
			size_t len;
			char *svg;

			if (mess_h_fig_rank(list[i]->d_name) != pass)
				continue;
			snprintf(path, sizeof(path), "%s/%s", dir, list[i]->d_name);
			svg = mess_h_slurp(path, SVG_MAX, &len);
			if (!svg || !strstr(svg, "<svg")) {
				free(svg);
				continue;
			}
			shown++;
			fputs("<figure>\n", f);
			put_img(f, list[i]->d_name, svg, len);
			mess_h_put(f, "<figcaption>plots/", list[i]->d_name,
				   " (also as .png beside it)</figcaption></figure>\n");
			free(svg);
		}
	for (int i = 0; i < n; i++)
		free(list[i]);
	free(list);
	if (!shown)
		mess_h_no_figure(f, meta, why);
	fputs("</section>\n", f);
}

/* A summary.json that is no curve family's (ladder, absorb): its numbers. */
static void put_summary_scalars(FILE *f, const json_t *s)
{
	const char *k;
	json_t *v;
	int any = 0;

	json_object_foreach((json_t *)s, k, v) {
		/* The CPU is under "how it was measured". */
		if (!strcmp(k, "schema") || !strcmp(k, "cpu_model") ||
		    json_is_object(v))
			continue;
		if (!any++)
			fputs("<section><h2>Key figures</h2><table>\n", f);
		mess_h_put(f, "<tr><th>", k, "</th><td>");
		put_value(f, v, 2);
		fputs("</td></tr>\n", f);
	}
	if (any)
		fputs("</table><p>From summary.json (results/README.md says what each key is).</p></section>\n", f);
}

static void put_counters(FILE *f, const json_t *meta)
{
	const json_t *c = json_object_get(meta, "counters");

	/* null: the run had none to read (a replay) */
	if (!c || json_is_null(c))
		return;
	fputs("<section><h2>Counters</h2>\n", f);
	put_value(f, c, 0);
	fputs("</section>\n", f);
}

/* A number of o's key in a cell: "unknown" for null or none. */
static void num_cell(FILE *f, const json_t *o, const char *key, int decimals)
{
	const json_t *v = json_object_get(o, key);
	char buf[64] = "unknown";

	if (json_is_number(v))
		snprintf(buf, sizeof(buf), "%.*f", decimals, json_number_value(v));
	mess_h_put(f, "<td class=\"n\">", buf, "</td>");
}

/*
 * The generator cores' shares of the bandwidth per mix, at the point the
 * fairness was judged at (meta.json distribution.fairness), or why it
 * cannot be judged: one generator core has no share to compare, which
 * must not read as "fair".
 */
static void put_fairness(FILE *f, const json_t *meta)
{
	const json_t *fa = json_object_get(json_object_get(meta, "distribution"), "fairness");
	const json_t *gc = json_object_get(fa, "generator_cores"), *m;
	const char *why = jstr(fa, "not_evaluable");
	char min[32];
	size_t i;

	if (!json_is_object(fa))
		return;
	fputs("<section><h2>Fairness between the generator cores</h2>\n", f);
	/* A run before not_evaluable was written: its core count says it. */
	if (!why && json_is_integer(gc) && json_integer_value(gc) < 2)
		why = "one generator core";
	if (why) {
		mess_h_put(f, "<p>Not evaluable: ", why,
			   " (meta.json <code>distribution.fairness</code>).</p></section>\n");
		return;
	}
	fputs("<table><tr><th>mix (stores %)</th><th>judged at</th><th>least share</th><th>median share</th><th>most share</th><th>Jain's index</th><th>unfair under saturation</th></tr>\n", f);
	json_array_foreach(json_object_get(fa, "mixes"), i, m) {
		const json_t *p = json_object_get(m, "judged_point");
		const json_t *u = json_object_get(m, "unfair_under_saturation");
		char at[128] = "no point";

		if (json_is_object(p))
			snprintf(at, sizeof(at), "%s point, nop %lld",
				 jstr(p, "chosen") ? jstr(p, "chosen") : "unknown",
				 (long long)json_integer_value(json_object_get(p, "nop")));
		fputs("<tr>", f);
		num_cell(f, m, "store_pct", 0);
		mess_h_put(f, "<td>", at, "</td>");
		num_cell(f, p, "fair_min", 3);
		num_cell(f, p, "fair_median", 3);
		num_cell(f, p, "fair_max", 3);
		num_cell(f, p, "fair_jain", 3);
		fputs("<td>", f);
		mess_h_esc(f, json_is_true(u) ? "yes" : json_is_false(u) ? "no" :
			   "not evaluable");
		fputs("</td></tr>\n", f);
	}
	snprintf(min, sizeof(min), "%.2f", json_number_value(json_object_get(fa, "jain_min")));
	mess_h_put(f, "</table><p>Each generator core's bandwidth over the point's distribution window against the cores' mean (1: an equal share), at the saturated point with the least Jain's index or, where none saturated, the heaviest; unfair under a Jain's index of ",
		   min, " (meta.json <code>distribution.fairness</code>).</p></section>\n");
}

/* Reports of the runs below this one (run.sh puts absorb/ in the curves
 * run). */
static void put_subreports(FILE *f, const char *dir)
{
	static const char *const sub[] = { "absorb", "ladder" };
	char path[PATH_MAX + 64];

	for (size_t i = 0; i < sizeof(sub) / sizeof(sub[0]); i++) {
		snprintf(path, sizeof(path), "%s/%s/report.html", dir, sub[i]);
		if (access(path, R_OK))
			continue;
		mess_h_put(f, "<p>Also in this directory: <a href=\"", sub[i], "/report.html\">");
		mess_h_esc(f, sub[i]);
		fputs("/report.html</a>.</p>\n", f);
	}
}

/* "CPU on host", or what the files do not give, said once ("unknown on
 * unknown" said nothing twice). */
static const char *machine(const json_t *meta, char *buf, size_t len)
{
	const char *cpu = jstr(meta, "cpu_model"), *host = jstr(meta, "host");

	if (cpu && host)
		snprintf(buf, len, "%s on %s", cpu, host);
	else if (cpu)
		snprintf(buf, len, "%s, host not given in the set", cpu);
	else if (host)
		snprintf(buf, len, "CPU not given in the set, on %s", host);
	else
		snprintf(buf, len, "machine and CPU not given in the set");
	return buf;
}

static void put_page(FILE *f, const char *dir, const char *outdir,
		     const json_t *meta, const json_t *summary, double peak,
		     const char *peak_how, const char *nofig)
{
	const char *tool = jstr(meta, "tool"), *cpu = jstr(meta, "cpu_model");
	const char *slash = strrchr(dir, '/');
	const char *label = slash && slash[1] ? slash + 1 : dir;
	/* A comparison is of its sets, measured nowhere: compare.md's title
	 * names them, where the host and a CPU would say "unknown on vm". */
	char cmp[512], words[PATH_MAX + 512], who[400], inv[PATH_MAX + 32];
	int is_cmp = tool && !strcmp(tool, "mess compare") &&
		     mess_h_compare_title(dir, cmp, sizeof(cmp));

	fputs("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n"
	      "<meta name=\"viewport\" content=\"width=device-width\">\n<title>", f);
	mess_h_esc(f, meta ? (tool ? tool : "mess") : "curve set");
	fputs(": ", f);
	machine(meta, who, sizeof(who));
	mess_h_esc(f, is_cmp ? cmp : meta ? (cpu ? cpu : "CPU not given in the set") : label);
	fprintf(f, "</title>\n<style>\n%s</style></head><body>\n<h1>", css);
	if (is_cmp) {
		mess_h_esc(f, tool);
		fputs(": ", f);
		mess_h_esc(f, cmp);
	} else if (meta) {
		mess_h_esc(f, tool ? tool : "mess");
		mess_h_put(f, ": ", who, "");
	} else {
		fputs("Curve set ", f);
		mess_h_esc(f, label);
	}
	fputs("</h1>\n<p class=\"sub\">", f);
	mess_h_esc(f, dir);
	if (jstr(meta, "start_utc")) {
		fputs(", ", f);
		mess_h_esc(f, jstr(meta, "start_utc"));
	}
	fputs("</p>\n", f);
	/* A replayed run is never to be mistaken for a measurement. */
	if (json_is_object(json_object_get(meta, "replay"))) {
		mess_h_put(f, "<p class=\"verdict v-WARN\"><strong>",
			   OR_UNKNOWN(jstr(json_object_get(meta, "replay"), "what")),
			   "</strong>: ");
		mess_h_esc(f, OR_UNKNOWN(jstr(json_object_get(meta, "replay"), "set")));
		fputs(" (meta.json <code>replay</code>). No figure on this page was measured on this machine.</p>\n", f);
	}
	put_verdict(f, meta);
	mess_h_compare(f, dir);
	put_subreports(f, dir);
	if (!mess_h_pairs(f, meta, summary) &&
	    !mess_h_keyfigs(f, dir, peak, peak_how, summary) && summary)
		put_summary_scalars(f, summary);
	mess_h_absorb(f, dir);
	put_figures(f, outdir, meta, nofig);
	put_fairness(f, meta);
	put_counters(f, meta);
	if (is_cmp)
		mess_h_compare_measured(f, meta);
	else if (meta)
		put_measured(f, meta);
	mess_h_public(f, dir);
	mess_h_put(f, "<footer>Written by mess ", mess_version, " (git ");
	mess_h_esc(f, mess_git_rev);
	/* A command the user can type: mess may not be on PATH. */
	mess_h_put(f, ") from the files beside it (meta.json, summary.json, the CSVs: results/README.md documents them); remake it with <code>",
		   mess_invocation("mess report", inv, sizeof(inv)), " ");
	mess_h_put(f, "", dir, "</code>.<br>Words on this page: ");
	mess_h_esc(f, mess_glossary(words, sizeof(words)));
	fputs(".</footer>\n</body></html>\n", f);
}

int mess_html_report(const char *dir, const char *outdir, double peak_gbs,
		     char *err, size_t errlen)
{
	return mess_html_report_why(dir, outdir, peak_gbs, NULL, err, errlen);
}

int mess_html_report_why(const char *dir, const char *outdir, double peak_gbs,
			 const char *nofig, char *err, size_t errlen)
{
	json_t *meta, *summary;
	char how[256] = "";
	double peak = peak_gbs;
	FILE *f;
	int ret;

	mess_set_err(err, errlen, "%s", "");
	if (!outdir)
		outdir = dir;
	meta = load_json(dir, "meta.json");
	summary = load_json(dir, "summary.json");
	if (peak > 0) {
		snprintf(how, sizeof(how), "given (--peak-gbs)");
	} else if (json_number_value(json_object_get(summary, "peak_gbs")) > 0) {
		peak = json_number_value(json_object_get(summary, "peak_gbs"));
		snprintf(how, sizeof(how), "given to the run (--peak-gbs)");
	} else {
		peak = mess_plotter_peak_gbs(dir, how, sizeof(how));
		if (!(peak > 0))
			peak = 0;
	}
	f = mess_tmp_open(outdir, "report.html");
	if (!f) {
		ret = -errno;
		mess_set_err(err, errlen, "cannot write %s/report.html: %s%s", outdir,
			strerror(errno), errno == ENOSPC ? " (disk full)" : "");
		goto out;
	}
	put_page(f, dir, outdir, meta, summary, peak, how, nofig);
	ret = mess_tmp_commit(outdir, "report.html", f);
	if (ret)
		mess_set_err(err, errlen, "cannot write %s/report.html: %s%s", outdir,
			strerror(-ret), ret == -ENOSPC ? " (disk full)" : "");
out:
	json_decref(meta);
	json_decref(summary);
	return ret;
}
