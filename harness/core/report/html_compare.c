// SPDX-License-Identifier: MIT
/*
 * A comparison's page carries what its compare.md says first (issue 34):
 * the answer in one sentence, where each set comes from (CPU, memory,
 * peak, verdict: the sets table), what was measured differently, and the
 * --app answers; read back from compare.md, so that page and file never
 * disagree.
 */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "core/report/html_int.h"

#define MD_MAX (4u << 20)

/* Markdown inline text as page text: its ** and ` marks dropped, a
 * table's escaped \| a bar again. */
static void md_text(FILE *f, const char *s, size_t n)
{
	char *t = malloc(n + 1);
	size_t k = 0;

	if (!t)
		return;
	for (size_t i = 0; i < n; i++) {
		if (s[i] == '*' && i + 1 < n && s[i + 1] == '*') {
			i++;
			continue;
		}
		if (s[i] == '`' || (s[i] == '\\' && i + 1 < n && s[i + 1] == '|'))
			continue;
		t[k++] = s[i];
	}
	t[k] = '\0';
	mess_h_esc(f, t);
	free(t);
}

/* A markdown table row's cells as <th> or <td>, bars escaped as \| kept
 * inside their cell. */
static void md_row(FILE *f, const char *line, const char *cell)
{
	const char *p = line + 1, *end = line + strlen(line);

	fputs("<tr>", f);
	while (p < end) {
		const char *q = p;

		while (q < end && !(*q == '|' && q[-1] != '\\'))
			q++;
		if (q >= end)
			break;
		fprintf(f, "<%s>", cell);
		while (p < q && *p == ' ')
			p++;
		md_text(f, p, (size_t)(q - p) - (q > p && q[-1] == ' '));
		fprintf(f, "</%s>", cell);
		p = q + 1;
	}
	fputs("</tr>\n", f);
}

/* The lines of compare.md from *at: a table as one <table>, a list item
 * or a paragraph as its own, until a blank line after a table or the
 * next heading.  *at moves past them. */
static void md_block(FILE *f, char **at)
{
	int in_table = 0, in_list = 0, row = 0;
	char *line = *at;

	while (line && *line && strncmp(line, "## ", 3)) {
		char *nl = strchr(line, '\n');

		if (nl)
			*nl = '\0';
		if (line[0] == '|') {
			if (!in_table)
				fputs("<table>\n", f);
			in_table = 1;
			if (strncmp(line, "|---", 4))
				md_row(f, line, row++ ? "td" : "th");
		} else {
			if (in_table)
				fputs("</table>\n", f);
			in_table = 0;
			row = 0;
			if (!strncmp(line, "- ", 2)) {
				fputs(in_list ? "<li>" : "<ul><li>", f);
				in_list = 1;
				md_text(f, line + 2, strlen(line + 2));
				fputs("</li>\n", f);
			} else {
				if (in_list)
					fputs("</ul>\n", f);
				in_list = 0;
				if (line[0]) {
					fputs("<p>", f);
					md_text(f, line, strlen(line));
					fputs("</p>\n", f);
				}
			}
		}
		if (nl)
			*nl = '\n';	/* the next heading is looked for after */
		line = nl ? nl + 1 : NULL;
	}
	if (in_table)
		fputs("</table>\n", f);
	if (in_list)
		fputs("</ul>\n", f);
	*at = line;
}

/* Past the line that starts with head, or NULL. */
static char *after(char *md, const char *head)
{
	for (char *l = md; l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL)
		if (!strncmp(l, head, strlen(head)))
			return strchr(l, '\n') ? strchr(l, '\n') + 1 : l + strlen(l);
	return NULL;
}

int mess_h_compare_title(const char *dir, char *buf, size_t len)
{
	char path[PATH_MAX + 32], *md;
	size_t n;

	snprintf(path, sizeof(path), "%s/compare.md", dir);
	md = mess_h_slurp(path, MD_MAX, &n);
	if (!md || strncmp(md, "# ", 2)) {
		free(md);
		return 0;
	}
	snprintf(buf, len, "%.*s", (int)strcspn(md + 2, "\n"), md + 2);
	free(md);
	return 1;
}

void mess_h_compare(FILE *f, const char *dir)
{
	static const char key[] = "**In one sentence:** ";
	char path[PATH_MAX + 32], *md, *at;
	size_t n;

	snprintf(path, sizeof(path), "%s/compare.md", dir);
	md = mess_h_slurp(path, MD_MAX, &n);
	if (!md)
		return;
	at = after(md, key);
	if (at) {
		/* The sentence, then the sets it compares (the first block). */
		const char *s = at - 1;

		while (s > md && s[-1] != '\n')
			s--;
		fputs("<p><b>In one sentence:</b> ", f);
		md_text(f, s + sizeof(key) - 1, strcspn(s + sizeof(key) - 1, "\n"));
		fputs(" (compare.md has the figures and how they were computed)</p>\n", f);
		fputs("<section><h2>The sets</h2>\n", f);
		md_block(f, &at);
		fputs("</section>\n", f);
	}
	at = after(md, "## Applications (--app)");
	if (at) {
		fputs("<section><h2>Applications (--app)</h2>\n", f);
		md_block(f, &at);
		fputs("</section>\n", f);
	}
	at = after(md, "## Measured differently");
	if (at) {
		fputs("<section><h2>Measured differently</h2>\n", f);
		md_block(f, &at);
		fputs("</section>\n", f);
	}
	free(md);
}

/* A set's value, or what its files leave unsaid. */
static void set_cell(FILE *f, const json_t *set, const char *key,
		     const char *unit)
{
	const json_t *v = json_object_get(set, key);
	char num[48];

	fputs("<td>", f);
	if (json_is_string(v) && json_string_value(v)[0]) {
		mess_h_esc(f, json_string_value(v));
	} else if (json_is_number(v)) {
		snprintf(num, sizeof(num), "%.0f%s", json_number_value(v), unit);
		mess_h_esc(f, num);
	} else if (!v) {
		/* A comparison made before it recorded them. */
		fputs("<i>not recorded (mess compare again records it)</i>", f);
	} else {
		fputs("<i>not stated by the set</i>", f);
	}
	fputs("</td>", f);
}

void mess_h_compare_measured(FILE *f, const json_t *meta)
{
	static const char *const col[][3] = {
		{ "measured (start)", "start_utc", "" },
		{ "bandwidth", "bw_source", "" },
		{ "memory", "memory", "" },
		{ "generator cores", "generator_cores", "" },
		{ "huge pages", "huge_pages", "" },
		{ "chase stride", "stride_bytes", " B" },
		{ "chase window", "window_bytes", " B" },
		{ "tool", "tool", "" },
	};
	const json_t *set;
	size_t i;

	fputs("<section><h2>How each set was measured</h2><table>\n<tr><th>set</th>", f);
	for (size_t k = 0; k < sizeof(col) / sizeof(col[0]); k++)
		mess_h_put(f, "<th>", col[k][0], "</th>");
	fputs("</tr>\n", f);
	json_array_foreach(json_object_get(meta, "sets"), i, set) {
		fputs("<tr>", f);
		set_cell(f, set, "label", "");
		for (size_t k = 0; k < sizeof(col) / sizeof(col[0]); k++)
			set_cell(f, set, col[k][1], col[k][2]);
		fputs("</tr>\n", f);
	}
	fputs("</table><p>As each set's own files say it (a run's meta.json; a public set states less), recorded by mess compare in its meta.json <code>sets</code>; nothing was measured for the comparison itself.</p></section>\n", f);
}
