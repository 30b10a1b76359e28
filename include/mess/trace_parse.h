/* SPDX-License-Identifier: MIT */
/*
 * What the trace readers share, defined in lib/formats/trace_parse.c (used
 * by lib/formats/trace.c: perf and the entry points,
 * lib/formats/trace_likwid.c: likwid-perfctr).  Internal to them: users read
 * traces through mess/trace.h.
 */
#ifndef MESS_TRACE_PARSE_H
#define MESS_TRACE_PARSE_H

#include "mess/parse.h"
#include "mess/trace.h"

#define MESS_TP_MAXF 256	/* fields of one line */

enum { MESS_TP_RD, MESS_TP_WR, MESS_TP_NDIR };

struct mess_tp {
	const char *name;	/* the file, in errors */
	const struct mess_trace_opts *o;
	const regex_t *re[MESS_TP_NDIR];
	const char *re_text[MESS_TP_NDIR];	/* for errors */
	struct mess_trace *t;
	char *err;
	size_t errlen;
	char seen[1024];	/* every distinct event name */
	double prev_t;		/* end of the last interval */
};

/* err = "name:line: fmt..." ("name: ..." for line 0); returns -EINVAL. */
int mess_tp_fail(struct mess_tp *p, int line, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* MESS_TP_RD, MESS_TP_WR, -1 (neither) or -2 (both); records the name. */
int mess_tp_classify(struct mess_tp *p, const char *ev);
/* Split s in place at any of seps (a run of blanks counts once when seps
 * holds a blank), fields trimmed: how many. */
int mess_tp_split(char *s, const char *seps, char **f, int max);
/* The whole of s as a number: 0 or -EINVAL. */
int mess_tp_num(const char *s, double *v);
/* Append the interval ending at t (after the last one, else -EINVAL). */
int mess_tp_add_interval(struct mess_tp *p, int line, double t, double rd,
			 double wr, enum mess_trace_status st, double running,
			 const char *label);

/* The likwid-perfctr readers (lib/formats/trace_likwid.c). */
#define MESS_TP_TL_HEADER "GID|MetricsCount|CpuCount|"
int mess_tp_likwid_timeline(struct mess_tp *p, char *text);
int mess_tp_likwid_csv(struct mess_tp *p, char *text);

#endif
