// SPDX-License-Identifier: MIT
/*
 * What the trace readers share (mess/trace_parse.h): errors, event names
 * told read or write, fields, numbers and the intervals.  Below both the
 * perf reader and its entry points (trace.c) and the likwid-perfctr
 * readers (trace_likwid.c), so that neither calls back into the other.
 */
#include "mess/parse.h"
#include "mess/stats.h"
#include "mess/trace_parse.h"

#include <errno.h>
#include <math.h>
#include <regex.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define RD MESS_TP_RD
#define WR MESS_TP_WR

int mess_tp_fail(struct mess_tp *p, int line, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	mess_file_verr(p->err, p->errlen, p->name, line, fmt, ap);
	va_end(ap);
	return -EINVAL;
}

/* Add name to a ", "-separated list of distinct names, "..." when full. */
static void add_name(char *list, size_t len, const char *name)
{
	size_t l = strlen(list), nl = strlen(name);
	const char *s;

	for (s = list; (s = strstr(s, name)); s += nl)
		if ((s == list || s[-1] == ' ') && (s[nl] == ',' || !s[nl]))
			return;
	if (l >= 3 && !strcmp(list + l - 3, "..."))
		return;
	if (l + nl + 2 + 5 < len)
		snprintf(list + l, len - l, "%s%s", l ? ", " : "", name);
	else
		snprintf(list + l, len - l, "%s...", l ? ", " : "");
}

/* RD, WR, -1 (neither) or -2 (both). */
int mess_tp_classify(struct mess_tp *p, const char *ev)
{
	int r = !regexec(p->re[RD], ev, 0, NULL, 0);
	int w = !regexec(p->re[WR], ev, 0, NULL, 0);

	add_name(p->seen, sizeof(p->seen), ev);
	if (r && w)
		return -2;
	if (!r && !w) {
		add_name(p->t->ignored_events, sizeof(p->t->ignored_events), ev);
		return -1;
	}
	add_name(r ? p->t->read_events : p->t->write_events,
		 sizeof(p->t->read_events), ev);
	return r ? RD : WR;
}

/* Split s in place at any of seps (runs of blanks count once when seps
 * holds a blank); fields trimmed.  The number of fields. */
int mess_tp_split(char *s, const char *seps, char **f, int max)
{
	int n = 0, blank = !!strchr(seps, ' ');

	while (n < max) {
		size_t k;

		if (blank)
			while (*s == ' ' || *s == '\t')
				s++;
		if (blank && !*s)
			break;
		k = strcspn(s, seps);
		f[n++] = s;
		if (!s[k])
			break;
		s[k] = '\0';
		s += k + 1;
	}
	for (int i = 0; i < n; i++)
		f[i] = mess_trim(f[i]);
	return n;
}

int mess_tp_num(const char *s, double *v)
{
	char *end;

	if (!*s)
		return -EINVAL;
	*v = strtod(s, &end);
	return *end ? -EINVAL : 0;
}

int mess_tp_add_interval(struct mess_tp *p, int line, double t, double rd,
			 double wr, enum mess_trace_status st, double running,
			 const char *label)
{
	struct mess_trace *tr = p->t;
	struct mess_trace_interval *iv;

	if (!isfinite(t) || t <= p->prev_t)
		return mess_tp_fail(p, line, "time %g s is not after the previous interval's %g s; allowed: increasing times",
				    t, p->prev_t);
	iv = mess_grow(tr->iv, tr->n, &tr->cap, sizeof(*iv), 64);
	if (!iv)
		return -ENOMEM;
	tr->iv = iv;
	iv = &tr->iv[tr->n++];
	*iv = (struct mess_trace_interval){
		.t_end_s = t, .dur_s = t - p->prev_t, .status = st,
		.read_bytes = st == MESS_TRACE_MEASURED ? rd : NAN,
		.write_bytes = st == MESS_TRACE_MEASURED ? wr : NAN,
		.running_pct = running, .line = line,
	};
	snprintf(iv->label, sizeof(iv->label), "%s", label ? label : "");
	p->prev_t = t;
	return 0;
}
