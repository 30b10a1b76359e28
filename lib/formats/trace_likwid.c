// SPDX-License-Identifier: MIT
/*
 * likwid-perfctr traces: the timeline mode (-t) and the -O CSV output,
 * read through the MEM groups' memory metrics (mess/trace.h says what is
 * accepted and why).
 */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mess/trace_parse.h"

/* Read and write: indexes of the per-direction arrays. */
#define RD MESS_TP_RD
#define WR MESS_TP_WR
#define NDIR MESS_TP_NDIR

/* ---- likwid-perfctr: metric columns ---- */

static const struct {
	const char *unit;
	double bytes;
	int rate;		/* per s: times the interval */
} likwid_units[] = {
	{ "Bytes", 1, 0 }, { "kBytes", 1e3, 0 }, { "MBytes", 1e6, 0 },
	{ "GBytes", 1e9, 0 }, { "TBytes", 1e12, 0 },
	{ "Bytes/s", 1, 1 }, { "kBytes/s", 1e3, 1 }, { "MBytes/s", 1e6, 1 },
	{ "GBytes/s", 1e9, 1 }, { "TBytes/s", 1e12, 1 },
};

#define NLUNITS (sizeof(likwid_units) / sizeof(likwid_units[0]))

struct lcol {
	int dir;		/* RD, WR or -1 */
	double bytes;
	int rate;
};

/* What a metric column is; 0 or -EINVAL. */
static int likwid_col(struct mess_tp *p, const char *name, int line,
		      struct lcol *c)
{
	const char *lb = strrchr(name, '['), *rb = lb ? strchr(lb, ']') : NULL;

	c->dir = mess_tp_classify(p, name);
	if (c->dir == -2)
		return mess_tp_fail(p, line, "metric '%s' matches both the read (%s) and the write (%s) expression",
				    name, p->re_text[RD], p->re_text[WR]);
	if (c->dir < 0)
		return 0;
	for (size_t i = 0; lb && rb && i < NLUNITS; i++)
		if (strlen(likwid_units[i].unit) == (size_t)(rb - lb - 1) &&
		    !strncmp(lb + 1, likwid_units[i].unit, (size_t)(rb - lb - 1))) {
			c->bytes = likwid_units[i].bytes;
			c->rate = likwid_units[i].rate;
			return 0;
		}
	return mess_tp_fail(p, line, "metric '%s' has no unit in brackets that is bytes or bytes per s; allowed: [Bytes], [MBytes], [GBytes], [MBytes/s], [GBytes/s], ...",
			    name);
}

/* One interval's metric values: volumes win over rates of a direction. */
struct lacc {
	double vol[NDIR], rate[NDIR];
	int nvol[NDIR], nrate[NDIR], nan;
};

static int lacc_add(struct mess_tp *p, struct lacc *a, const struct lcol *c,
		    const char *s, int line)
{
	double v;

	if (c->dir < 0 || !strcmp(s, "-") || !*s)
		return 0;	/* "-": not counted on this thread */
	if (mess_tp_num(s, &v) || v < 0)
		return mess_tp_fail(p, line, "value '%s'; allowed: a number >= 0, nan or -", s);
	if (!isfinite(v)) {
		a->nan = 1;
		return 0;
	}
	if (c->rate) {
		a->rate[c->dir] += v * c->bytes;
		a->nrate[c->dir]++;
	} else {
		a->vol[c->dir] += v * c->bytes;
		a->nvol[c->dir]++;
	}
	return 0;
}

static int lacc_flush(struct mess_tp *p, const struct lacc *a, double t_end,
		      int line, const char *label)
{
	double b[NDIR], dt = t_end - p->prev_t;

	for (int d = 0; d < NDIR; d++) {
		if (!a->nvol[d] && !a->nrate[d] && !a->nan && !p->t->n)
			return -ENOMSG;	/* the caller lists the metrics */
		if (!a->nvol[d] && !a->nrate[d] && !a->nan)
			return mess_tp_fail(p, line, "no %s metric (matching %s) has a value here",
					    d == RD ? "read" : "write", p->re_text[d]);
		b[d] = a->nvol[d] ? a->vol[d] : a->rate[d] * dt;
	}
	return mess_tp_add_interval(p, line, t_end, b[RD], b[WR],
				    a->nan ? MESS_TRACE_NOT_COUNTED : MESS_TRACE_MEASURED,
				    NAN, label);
}

/* ---- likwid-perfctr -t (timeline) ---- */

int mess_tp_likwid_timeline(struct mess_tp *p, char *text)
{
	struct lcol *cols = NULL;
	int line = 0, rc = 0, ncols = 0, nf, gid = -1;
	char *f[MESS_TP_MAXF], *s, *nl, *h;

	for (s = text; s && !rc; s = nl) {
		struct lacc a = { 0 };
		double g, m, c, t;

		nl = strchr(s, '\n');
		if (nl)
			*nl++ = '\0';
		line++;
		s = mess_trim(s);
		h = strstr(s, MESS_TP_TL_HEADER);
		if (*s == '#' && h) {
			if (cols)
				return mess_tp_fail(p, line, "a second header (several groups); allowed: one group per trace");
			nf = mess_tp_split(h, "|", f, MESS_TP_MAXF);
			ncols = nf - 4;
			cols = calloc(ncols > 0 ? (size_t)ncols : 1, sizeof(*cols));
			if (!cols)
				return -ENOMEM;
			for (int i = 0; i < ncols && !rc; i++)
				rc = likwid_col(p, f[i + 4], line, &cols[i]);
			continue;
		}
		/* Banner, separators, the program's own output: a row starts
		 * with three integers and a time. */
		if (!cols || !isdigit((unsigned char)*s))
			continue;
		nf = mess_tp_split(s, " \t,", f, MESS_TP_MAXF);
		if (nf < 4 || mess_tp_num(f[0], &g) || mess_tp_num(f[1], &m) || mess_tp_num(f[2], &c) ||
		    mess_tp_num(f[3], &t) || g != floor(g) || m != floor(m) || c != floor(c))
			continue;
		if (m < 1 || c < 1 || nf != 4 + (int)(m * c)) {
			rc = mess_tp_fail(p, line, "%d values; allowed: a timeline row, GID MetricsCount CpuCount time, then MetricsCount x CpuCount values",
					  nf - 4);
			break;
		}
		if (gid >= 0 && (int)g != gid) {
			rc = mess_tp_fail(p, line, "group %d after group %d; allowed: one group per trace", (int)g, gid);
			break;
		}
		gid = (int)g;
		if (ncols != (int)(m * c)) {
			rc = mess_tp_fail(p, line, "%d values, the header names %d metrics: likwid does not say in which order the values of %d CPUs come; allowed: CpuCount 1, or a header naming every value",
					  (int)(m * c), ncols, (int)c);
			break;
		}
		for (int i = 0; i < ncols && !rc; i++)
			rc = lacc_add(p, &a, &cols[i], f[i + 4], line);
		if (!rc)
			rc = lacc_flush(p, &a, t, line, NULL);
	}
	free(cols);
	return rc;
}

/* ---- likwid-perfctr -O ---- */

struct csv_table {
	int open, line;
	char label[64];
	double runtime;
	struct lacc a;
};

static int csv_close(struct mess_tp *p, struct csv_table *tb)
{
	int rc;

	if (!tb->open)
		return 0;
	tb->open = 0;
	if (!(tb->runtime > 0))
		return mess_tp_fail(p, tb->line, "metric table without a 'Runtime (RDTSC) [s]' row > 0");
	rc = lacc_flush(p, &tb->a, p->prev_t + tb->runtime, tb->line, tb->label);
	return rc;
}

int mess_tp_likwid_csv(struct mess_tp *p, char *text)
{
	struct csv_table tb = { 0 };
	int line = 0, rc = 0, nf;
	char *f[MESS_TP_MAXF], *s, *nl;

	for (s = text; s && !rc; s = nl) {
		nl = strchr(s, '\n');
		if (nl)
			*nl++ = '\0';
		line++;
		s = mess_trim(s);
		nf = mess_tp_split(s, ",", f, MESS_TP_MAXF);
		if (!strcmp(f[0], "TABLE") || !strcmp(f[0], "STRUCT")) {
			rc = csv_close(p, &tb);
			if (rc || strcmp(f[0], "TABLE") || nf < 3)
				continue;
			/* TABLE,[Region R,]Group N Metric,GROUP,... */
			for (int i = 1; i < nf && i < 3; i++)
				if (strstr(f[i], "Metric") && !strstr(f[i], "STAT"))
					tb = (struct csv_table){ .open = 1, .line = line };
			if (tb.open && !strncmp(f[1], "Region ", 7))
				snprintf(tb.label, sizeof(tb.label), "%s", f[1] + 7);
			continue;
		}
		if (!tb.open || nf < 2 || !strcmp(f[0], "Metric"))
			continue;
		if (!strcmp(f[0], "Runtime (RDTSC) [s]")) {
			for (int i = 1; i < nf; i++) {
				double v;

				if (!mess_tp_num(f[i], &v) && v > tb.runtime)
					tb.runtime = v;
			}
			continue;
		}
		struct lcol c;

		rc = likwid_col(p, f[0], line, &c);
		for (int i = 1; i < nf && !rc; i++)
			rc = lacc_add(p, &tb.a, &c, f[i], line);
	}
	return rc ? rc : csv_close(p, &tb);
}

