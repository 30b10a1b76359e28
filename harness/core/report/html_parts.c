// SPDX-License-Identifier: MIT
/*
 * report.html's sections that read more than JSON: the key figures of a
 * curve family (any layout the set loader reads, with the peak applied
 * now) and a public set's system.md and plotter.txt; absorption.csv's
 * heat map is html_absorb.c's.
 */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "mess/json.h"
#include "mess/load.h"
#include "mess/messraw.h"
#include "mess/metrics.h"
#include "mess/parse.h"
#include "core/report/html.h"
#include "core/report/html_int.h"
#include "core/util.h"

void mess_h_esc(FILE *f, const char *s)
{
	for (; s && *s; s++) {
		switch (*s) {
		case '&': fputs("&amp;", f); break;
		case '<': fputs("&lt;", f); break;
		case '>': fputs("&gt;", f); break;
		case '"': fputs("&quot;", f); break;
		case '\'': fputs("&#39;", f); break;
		default: fputc(*s, f);
		}
	}
}

void mess_h_put(FILE *f, const char *before, const char *s, const char *after)
{
	fputs(before, f);
	mess_h_esc(f, s);
	fputs(after, f);
}

void mess_h_b64(FILE *f, const void *buf, size_t n)
{
	static const char abc[] =
		"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
	const unsigned char *p = buf;
	size_t i;

	for (i = 0; i + 3 <= n; i += 3) {
		unsigned long v = (unsigned long)p[i] << 16 | p[i + 1] << 8 | p[i + 2];

		fputc(abc[v >> 18], f);
		fputc(abc[v >> 12 & 63], f);
		fputc(abc[v >> 6 & 63], f);
		fputc(abc[v & 63], f);
	}
	if (i < n) {
		unsigned long v = (unsigned long)p[i] << 16 |
				  (i + 1 < n ? p[i + 1] << 8 : 0);

		fputc(abc[v >> 18], f);
		fputc(abc[v >> 12 & 63], f);
		fputc(i + 1 < n ? abc[v >> 6 & 63] : '=', f);
		fputc('=', f);
	}
}

char *mess_h_slurp(const char *path, size_t max, size_t *len)
{
	FILE *f = mess_fopen_regular(path, NULL, 0);
	char *buf = NULL;
	size_t n = 0, cap = 0, got;

	if (!f)
		return NULL;
	for (;;) {
		if (n + 4096 + 1 > cap) {
			char *nb;

			cap = cap ? 2 * cap : 65536;
			nb = n < max ? realloc(buf, cap) : NULL;
			if (!nb) {
				free(buf);
				fclose(f);
				return NULL;
			}
			buf = nb;
		}
		got = fread(buf + n, 1, 4096, f);
		n += got;
		if (got < 4096)
			break;
	}
	if (ferror(f) || n > max) {
		free(buf);
		fclose(f);
		return NULL;
	}
	fclose(f);
	buf[n] = '\0';
	if (len)
		*len = n;
	return buf;
}

const struct mess_kf_fmt mess_h_kf_run = {
	.row = "<tr>", .end = "</tr>\n",
	.look = {
		[MESS_KF_FIG] = "<td class=\"n\">%s</td>",
		[MESS_KF_WORD] = "<td class=\"n\"><i>%s</i></td>",
		[MESS_KF_TEXT] = "<td>%s</td>",
		[MESS_KF_UNKNOWN] = "<td><i>%s</i></td>",
		[MESS_KF_HEAD] = "<th>%s</th>",
		[MESS_KF_NOT_SAT] = "<td><b>%s</b>: the latency at that bandwidth stayed within noise of the unloaded latency, so the generators never loaded the memory</td>",
	},
	.name = {
		[MESS_KF_NAME] = "mix (store %)",
		[MESS_KF_NOMINAL] = "read share, nominal [%]",
		[MESS_KF_MEASURED] = "read share, measured [%]",
		[MESS_KF_POINTS] = "points",
		[MESS_KF_MAX_BW] = "max bandwidth [GB/s]",
		[MESS_KF_LAT_AT_MAX] = "latency there [ns]",
		[MESS_KF_SAT_BW] = "saturation bandwidth [GB/s]",
		[MESS_KF_MAX_LAT] = "max latency [ns]", [MESS_KF_WAVES] = "waves",
		[MESS_KF_FAM_MAX_BW] = "maximum bandwidth [GB/s]",
		[MESS_KF_FAM_SAT] = "saturated bandwidth [GB/s]",
	},
	.note = {
		[MESS_KF_FAM_MAX_BW] = "the highest of any mix",
		[MESS_KF_FAM_SAT] = "where latency first reaches 2× unloaded (%.0f ns)",
	},
	.sat_pct = ": %.0f – %.0f %% of peak",
	.bw = "%.1f (%.0f %% of peak)", .unknown = "unknown", .no_bw = "none",
	.no_sat = "no curve reached 2× the unloaded latency", .skip_empty = 1,
};

const char *mess_glossary(char *buf, size_t len)
{
	char path[PATH_MAX];
	const char *what = "what store %, read share (nominal, measured), accounted and counted bandwidth, unloaded, saturated, waves, p99, disturbed, flagged and the verdicts PASS, WARN, INVALID mean";

	/* Installed: <prefix>/share/mess/../doc/mess/results.md. */
	if (!mess_data_file("../doc/mess/results.md", path, sizeof(path)))
		snprintf(buf, len, "the Glossary of %s (results/README.md in mess's source): %s",
			 path, what);
	else
		snprintf(buf, len, "the Glossary of results/README.md in mess's source (installed as share/doc/mess/results.md): %s",
			 what);
	return buf;
}

/* The run's own read share of mix store (summary.json's curves, written
 * from the mix), NAN when it has none. */
static double nominal_read(const json_t *summary, uint32_t store)
{
	const json_t *c;
	size_t i;

	json_array_foreach(json_object_get(summary, "curves"), i, c)
		if (json_integer_value(json_object_get(c, "store_pct")) == (json_int_t)store &&
		    json_is_number(json_object_get(c, "read_pct")))
			return json_number_value(json_object_get(c, "read_pct"));
	return NAN;
}

int mess_h_keyfigs(FILE *f, const char *dir, double peak, const char *how,
		   const json_t *summary)
{
	struct mess_set_info *info = calloc(1, sizeof(*info));
	struct mess_family fam = { 0 };
	struct mess_summary s = { 0 };
	struct mess_kf_fmt kf = mess_h_kf_run;
	json_t *wt = json_object_get(summary, "wave_tol_pct");
	double unloaded, tol = json_is_number(wt) ? json_number_value(wt) / 100 : 0.02;
	char err[512], inv[PATH_MAX + 32];
	int ret = 0, is_run;

	if (!info || mess_set_load(dir, 0, &fam, info, err, sizeof(err)))
		goto out;
	unloaded = info->unloaded_ns > 0 ? info->unloaded_ns : mess_unloaded_from_curves(&fam);
	if (!(tol >= 0 && tol < 1))
		tol = 0.02;
	if (!(unloaded > 0) || mess_summarise(&fam, unloaded, peak, tol, &s))
		goto out;
	s.gen_cores = info->cores > 0 ? (unsigned)info->cores : 0;
	ret = 1;
	fputs("<section><h2>Key figures</h2><table>\n", f);
	fprintf(f, "<tr><th>unloaded latency</th><td class=\"n\">%.1f ns</td><td>", unloaded);
	mess_h_esc(f, info->unloaded_source);
	fputs("</td></tr>\n", f);
	mess_kf_family(f, &s, &kf);
	fputs("<tr><th>theoretical peak</th>", f);
	if (peak > 0) {
		fprintf(f, "<td class=\"n\">%.1f GB/s</td><td>", peak);
		mess_h_esc(f, how);
		fputs("</td></tr>\n", f);
	} else {
		/* A command the user can type: mess may not be on PATH. */
		mess_h_put(f, "<td><i>unknown</i></td><td>give it: <code>",
			   mess_invocation("mess report", inv, sizeof(inv)), " ");
		mess_h_put(f, "", dir, " --peak-gbs GBS</code> (channels × MT/s × bytes per transfer)</td></tr>\n");
	}
	mess_h_put(f, "<tr><th>bandwidth source</th><td colspan=\"2\">",
		   info->bw_source[0] ? info->bw_source : "unknown",
		   "</td></tr>\n</table>\n<table>");
	/*
	 * One vocabulary with summary.md (results/README.md, Glossary): a
	 * run's curve is named by its mix, the store % asked for; the read
	 * share nominal is the run's own (summary.json, the mix's share),
	 * the measured one the counters' (curves.csv's points, the set's
	 * curve), each under its own header.  A set from elsewhere names its
	 * curves by the read share it gives, even where it numbers a store %
	 * of its own (an import's 100 - share).
	 */
	is_run = json_is_array(json_object_get(summary, "curves"));
	s.read_counted = is_run && !strcmp(info->bw_source, "counters");
	if (!is_run) {
		kf.name[MESS_KF_NAME] = "curve (read share, as the set gives it)";
		kf.name[MESS_KF_NOMINAL] = NULL;
	}
	for (size_t i = 0; i < s.ncurves; i++) {
		struct mess_curve_summary *c = &s.curves[i];

		c->read_points_pct = c->read_pct;
		if (!is_run)
			c->store_pct = MESS_STORE_PCT_UNKNOWN;
		else if (c->store_pct != MESS_STORE_PCT_UNKNOWN)
			c->read_pct = nominal_read(summary, c->store_pct);
	}
	mess_kf_curves(f, &s, &kf);
	fputs("</table>\n", f);
	if (info->bw_source[0] && !strcmp(info->bw_source, "accounted"))
		fputs("<p>Bandwidth is accounted: ordinary stores read each line before writing it (write-allocate), so a mix of 50 % stores moves 2 reads for 1 write at the memory: 66.7 % read. 100 % stores is 50 % read.</p>\n", f);
	fputs("</section>\n", f);
out:
	mess_summary_free(&s);
	mess_family_free(&fam);
	free(info);
	return ret;
}

/* The cells of a markdown table row "| a | b |", trimmed, in place. */
static int split_md(char *line, char **cell, int max)
{
	char *p = line + 1, *e;
	int n = 0;

	line[strcspn(line, "\r\n")] = '\0';
	while (n < max && (e = strchr(p, '|'))) {
		*e = '\0';
		while (*p == ' ')
			p++;
		for (char *t = e - 1; t >= p && *t == ' '; t--)
			*t = '\0';
		cell[n++] = p;
		p = e + 1;
	}
	return n;
}

/* A markdown table row "| a | b |" as <tr>; the rule row is skipped. */
static void md_row(FILE *f, char *line, int head)
{
	char *cell[32];
	int n;

	if (strspn(line, "|-: \t\r\n") == strlen(line))
		return;
	n = split_md(line, cell, 32);
	fputs("<tr>", f);
	for (int i = 0; i < n; i++) {
		fputs(head ? "<th>" : "<td>", f);
		mess_h_esc(f, cell[i]);
		fputs(head ? "</th>" : "</td>", f);
	}
	fputs("</tr>\n", f);
}

/*
 * A public set's file copied into the page as it is: a link is not
 * followed (a system.md linking to a key file put its first line in the
 * page), nor any file not regular; the page and one warning line name it.
 */
static FILE *public_open(FILE *f, const char *path, const char *name)
{
	char why[PATH_MAX + 200];
	FILE *in = mess_fopen_input(path, MESS_IN_NOFOLLOW, why, sizeof(why));

	if (in || errno == ENOENT)
		return in;
	mess_say("mess report: warning: %s; not shown in the page\n", why);
	fprintf(f, "<section><h2>The set's %s</h2><p>Not shown: %s is not a regular file of the set (a symbolic link, a pipe, a device or a kernel file).</p></section>\n",
		name, name);
	return NULL;
}

int mess_h_public(FILE *f, const char *dir)
{
	char path[PATH_MAX + 32], line[1024];
	int any = 0, intable = 0, rows = 0;
	FILE *in;

	snprintf(path, sizeof(path), "%s/system.md", dir);
	in = public_open(f, path, "system.md");
	if (in) {
		any = 1;
		fputs("<section><h2>How it was measured (the set's system.md)</h2>\n", f);
		while (fgets(line, sizeof(line), in)) {
			line[strcspn(line, "\r\n")] = '\0';
			if (line[0] == '|') {
				if (!intable)
					fputs("<table>\n", f);
				intable = 1;
				md_row(f, line, rows++ == 0);
				continue;
			}
			if (intable)
				fputs("</table>\n", f);
			intable = rows = 0;
			if (line[0])
				mess_h_put(f, "<p>", line, "</p>\n");
		}
		if (intable)
			fputs("</table>\n", f);
		fclose(in);
		fputs("</section>\n", f);
	}
	snprintf(path, sizeof(path), "%s/plotter.txt", dir);
	in = public_open(f, path, "plotter.txt");
	if (in) {
		fputs("<section><h2>The set's plotter.txt</h2><table>\n", f);
		while (fgets(line, sizeof(line), in)) {
			char *eq = strchr(line, '=');

			line[strcspn(line, "\r\n")] = '\0';
			if (!eq)
				continue;
			*eq = '\0';
			mess_h_put(f, "<tr><th>", line, "</th><td>");
			mess_h_esc(f, eq + 1);
			fputs("</td></tr>\n", f);
		}
		fputs("</table></section>\n", f);
		fclose(in);
		any = 1;
	}
	return any;
}

/* The peak dir/plotter.txt gives (mess_raw_peak_gbs), said in how as
 * from name; NAN without one. */
static double plotter_at(const char *dir, const char *name, char *how,
			 size_t howlen)
{
	char d[PATH_MAX + 8];
	struct mess_raw r;

	/* name is plotter.txt or ../plotter.txt: the folder holding it */
	snprintf(d, sizeof(d), "%s%s", dir, strncmp(name, "../", 3) ? "" : "/..");
	if (mess_raw_plotter(d, &r, NULL, 0))
		return NAN;
	return mess_raw_peak_gbs(&r, name, how, howlen);
}

/* A figure of meta.json, NAN where it is not a number. */
static double num(json_t *j)
{
	return json_is_number(j) ? json_number_value(j) : NAN;
}

/* An imported run's meta.json keeps the tree's plotter.txt values
 * (mess import: mess_plotter). */
static double meta_plotter(const char *dir, char *how, size_t howlen)
{
	char path[PATH_MAX + 32];
	struct mess_raw r;
	json_t *m, *p, *u;
	double peak = NAN;

	snprintf(path, sizeof(path), "%s/meta.json", dir);
	m = mess_json_load(path, 0, NULL);
	p = json_object_get(m, "mess_plotter");
	u = json_object_get(p, "upi");
	if (json_is_object(p)) {
		mess_raw_init(&r);
		snprintf(r.binding, sizeof(r.binding), "%s",
			 json_is_string(json_object_get(p, "memory_binding")) ?
			 json_string_value(json_object_get(p, "memory_binding")) : "");
		snprintf(r.mem_freq, sizeof(r.mem_freq), "%s",
			 json_is_string(json_object_get(p, "mem_freq")) ?
			 json_string_value(json_object_get(p, "mem_freq")) : "");
		r.channels = json_is_integer(json_object_get(p, "channels")) ?
			(int)json_integer_value(json_object_get(p, "channels")) : -1;
		r.bus_width = json_is_integer(json_object_get(p, "bus_width")) ?
			(int)json_integer_value(json_object_get(p, "bus_width")) : -1;
		r.upi.freq_gts = num(json_object_get(u, "freq_gts"));
		r.upi.data_lanes = num(json_object_get(u, "data_lanes"));
		r.upi.flit_bits = num(json_object_get(u, "flit_bits"));
		r.upi.data_flit_bits = num(json_object_get(u, "data_flit_bits"));
		r.upi.links = num(json_object_get(u, "links"));
		peak = mess_raw_peak_gbs(&r, "meta.json mess_plotter (the imported tree's plotter.txt)",
					 how, howlen);
	}
	json_decref(m);
	return peak;
}

double mess_plotter_peak_gbs(const char *dir, char *how, size_t howlen)
{
	char d[PATH_MAX];
	const char *base;
	size_t n = strlen(dir);
	double peak;

	while (n > 1 && dir[n - 1] == '/')
		n--;
	snprintf(d, sizeof(d), "%.*s", (int)n, dir);
	base = strrchr(d, '/');
	if (how && howlen)
		how[0] = '\0';
	peak = plotter_at(dir, "plotter.txt", how, howlen);
	/* A raw Mess tree's processed/ folder: the tree's own plotter.txt */
	if (!(peak > 0) && !strcmp(base ? base + 1 : d, "processed"))
		peak = plotter_at(dir, "../plotter.txt", how, howlen);
	if (!(peak > 0))
		peak = meta_plotter(dir, how, howlen);
	return peak;
}

int mess_system_md_field(const char *dir, const char *column, char *buf,
			 size_t len)
{
	char path[PATH_MAX + 32], head[1024], line[1024];
	char *hf[32], *df[32];
	int nh = 0, nd, ret = -ENOENT;
	FILE *in;

	if (len)
		buf[0] = '\0';
	snprintf(path, sizeof(path), "%s/system.md", dir);
	/* its text goes into titles: a link is not followed (public_open) */
	in = mess_fopen_input(path, MESS_IN_NOFOLLOW, NULL, 0);
	if (!in)
		return -ENOENT;
	while (fgets(line, sizeof(line), in)) {
		if (line[0] != '|')
			continue;
		if (!nh) {
			memcpy(head, line, sizeof(head));
			nh = split_md(head, hf, 32);
			continue;
		}
		if (strspn(line, "|-: \t\r\n") == strlen(line))
			continue;
		nd = split_md(line, df, 32);
		for (int i = 0; i < nh && i < nd; i++)
			if (!strcmp(hf[i], column) && df[i][0]) {
				snprintf(buf, len, "%s", df[i]);
				ret = 0;
			}
		break;
	}
	fclose(in);
	return ret;
}
