// SPDX-License-Identifier: MIT
/*
 * DRAM traffic traces: perf stat -I -x, and likwid-perfctr (timeline and
 * -O CSV).  What each format is read as is in mess/trace.h.
 */
#include "mess/parse.h"
#include "mess/trace_parse.h"

/* Read and write: indexes of the per-direction arrays. */
#define RD MESS_TP_RD
#define WR MESS_TP_WR
#define NDIR MESS_TP_NDIR

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/*
 * CAS commands of the memory controllers: Intel's kernel aliases
 * (uncore_imc_N/cas_count_read/) and perf's JSON names
 * (unc_m_cas_count.rd, unc_m_cas_count_sch0.rd), AMD Zen 4's UMC
 * (umc_cas_cmd.rd), Intel client and free-running IMC data counters.  The
 * end anchor keeps the sub-events (cas_count.rd_underfill) out.  AMD's
 * dram_channel_data_controller counts reads and writes together, so it
 * cannot give a read share: it is not a default.
 */
const char mess_trace_perf_read_re[] =
	"cas_count_read|cas_count(_sch[0-9]+)?[._]rd([/:]|$)|umc_cas_cmd[._]rd([/:]|$)|imc[^/]*/data_reads?/|^mess_dram_read_bytes$";
const char mess_trace_perf_write_re[] =
	"cas_count_write|cas_count(_sch[0-9]+)?[._]wr([/:]|$)|umc_cas_cmd[._]wr([/:]|$)|imc[^/]*/data_writes?/|^mess_dram_write_bytes$";
const char mess_trace_likwid_read_re[] = "^memory read (data volume|bandwidth) \\[";
const char mess_trace_likwid_write_re[] = "^memory write (data volume|bandwidth) \\[";

int mess_trace_regcomp(regex_t *re, const char *pattern, char *err,
		       size_t errlen)
{
	int rc = regcomp(re, pattern, REG_EXTENDED | REG_ICASE | REG_NOSUB);

	if (!rc)
		return 0;
	regerror(rc, re, err, errlen);
	return -EINVAL;
}

/* ---- perf stat -I -x, ---- */

static const struct {
	const char *unit;
	double bytes;		/* 0: a count of bytes_per_count bytes */
} perf_units[] = {
	{ "", 0 }, { "B", 1 }, { "Bytes", 1 }, { "bytes", 1 },
	{ "KiB", 1024.0 }, { "MiB", 1048576.0 }, { "GiB", 1073741824.0 },
	{ "kB", 1e3 }, { "KB", 1e3 }, { "MB", 1e6 }, { "GB", 1e9 },
};

#define NUNITS (sizeof(perf_units) / sizeof(perf_units[0]))

/* A count column: a number or perf's "<not counted>"-style marker. */
static int is_count(const char *s)
{
	double v;

	return s[0] == '<' || !mess_tp_num(s, &v);
}

struct perf_acc {
	char time[64];
	int line;
	double sum[NDIR], running;
	int rows[NDIR];
	enum mess_trace_status st;
};

static int perf_flush(struct mess_tp *p, struct perf_acc *a, int want[NDIR])
{
	double t = NAN;

	if (!a->time[0] || (!a->rows[RD] && !a->rows[WR] && !p->t->n))
		return 0;	/* nothing yet, or only other events so far */
	mess_tp_num(a->time, &t);
	for (int d = 0; d < NDIR; d++) {
		if (!a->rows[d] && !p->t->n)
			return -ENOMSG;	/* the caller lists the events */
		if (!a->rows[d])
			return mess_tp_fail(p, a->line, "the interval ending at %s s has no %s event (matching %s)",
					    a->time, d == RD ? "read" : "write", p->re_text[d]);
		if (want[d] && a->rows[d] != want[d])
			return mess_tp_fail(p, a->line, "the interval ending at %s s has %d %s rows, the first had %d: a truncated interval?",
					    a->time, a->rows[d], d == RD ? "read" : "write", want[d]);
		want[d] = a->rows[d];
	}
	return mess_tp_add_interval(p, a->line, t, a->sum[RD], a->sum[WR], a->st,
				    a->running, NULL);
}

static int perf_row(struct mess_tp *p, struct perf_acc *a, char **f, int nf,
		    int line, int want[NDIR])
{
	int k = 1, e, d, rc;
	char ev[1024];
	double v, t, unit = -1, pct;

	if (mess_tp_num(f[0], &t) || !isfinite(t))
		return mess_tp_fail(p, line, "'%s' is not an interval time in s; allowed: perf stat -I -x, rows (time,count,unit,event,...)",
				    f[0]);
	/* Aggregation columns: an id (CPU0, S0, N0, ...), and for the
	 * per-socket/die/core modes the number of CPUs aggregated. */
	if (nf > 1 && !is_count(f[1])) {
		double c;

		k = 2;
		if (nf > 3 && !mess_tp_num(f[2], &c) && is_count(f[3]))
			k = 3;
	}
	if (nf < k + 3)
		return mess_tp_fail(p, line, "%d fields; allowed: perf stat -I -x, rows (time,count,unit,event,...)", nf);
	/* An event with terms (pmu/event=0x4,umask=0x3/) was split at its
	 * commas: join until the slashes balance. */
	snprintf(ev, sizeof(ev), "%s", f[k + 2]);
	for (e = k + 3; e < nf; e++) {
		int slashes = 0;

		for (const char *s = ev; *s; s++)
			slashes += *s == '/';
		if (!(slashes & 1))
			break;
		snprintf(ev + strlen(ev), sizeof(ev) - strlen(ev), ",%s", f[e]);
	}
	if (strcmp(a->time, f[0])) {
		rc = perf_flush(p, a, want);
		if (rc)
			return rc;
		*a = (struct perf_acc){ .line = line, .running = NAN };
		snprintf(a->time, sizeof(a->time), "%s", f[0]);
	}
	d = mess_tp_classify(p, ev);
	if (d == -2)
		return mess_tp_fail(p, line, "event '%s' matches both the read (%s) and the write (%s) expression",
				    ev, p->re_text[RD], p->re_text[WR]);
	if (d < 0)
		return 0;
	a->rows[d]++;
	/* run_time, then pct_running (perf scaled a multiplexed count). */
	if (e + 1 < nf && !mess_tp_num(f[e + 1], &pct) && !(pct >= a->running))
		a->running = pct;
	if (f[k][0] == '<') {
		enum mess_trace_status st =
			!strcmp(f[k], "<not counted>") ? MESS_TRACE_NOT_COUNTED :
			!strcmp(f[k], "<not supported>") ? MESS_TRACE_NOT_SUPPORTED :
			MESS_TRACE_MEASURED;

		if (st == MESS_TRACE_MEASURED)
			return mess_tp_fail(p, line, "count '%s' of %s; allowed: a number, <not counted> or <not supported>",
					    f[k], ev);
		if (a->st == MESS_TRACE_MEASURED)
			a->st = st;
		return 0;
	}
	for (size_t i = 0; i < NUNITS; i++)
		if (!strcmp(f[k + 1], perf_units[i].unit))
			unit = perf_units[i].bytes ? perf_units[i].bytes :
						     p->o->bytes_per_count;
	if (unit < 0)
		return mess_tp_fail(p, line, "unit '%s' of %s; allowed: empty (a count of events), B, Bytes, KiB, MiB, GiB, kB, MB, GB",
				    f[k + 1], ev);
	if (mess_tp_num(f[k], &v) || !isfinite(v) || v < 0)
		return mess_tp_fail(p, line, "count '%s' of %s; allowed: a number >= 0, <not counted> or <not supported>",
				    f[k], ev);
	a->sum[d] += v * unit;
	return 0;
}

/*
 * The newline ending the line at s, or NULL on the last line: a plain
 * scan of that line only.  strchr() is the same here, but under
 * AddressSanitizer's strict string checks each call measures the whole
 * rest of the text, which made a 200k-interval file quadratic.
 */
static char *line_end(const char *s)
{
	while (*s && *s != '\n')
		s++;
	return *s ? (char *)s : NULL;
}

static int parse_perf(struct mess_tp *p, char *text)
{
	struct perf_acc a = { .running = NAN };
	int want[NDIR] = { 0 }, line = 0, rc = 0, nf;
	char *f[MESS_TP_MAXF], *s, *nl;

	for (s = text; s && !rc; s = nl) {
		nl = line_end(s);
		if (nl)
			*nl++ = '\0';
		line++;
		s = mess_trim(s);
		if (!*s || *s == '#')
			continue;
		nf = mess_tp_split(s, ",", f, MESS_TP_MAXF);
		rc = perf_row(p, &a, f, nf, line, want);
	}
	return rc ? rc : perf_flush(p, &a, want);
}

/* ---- entry points ---- */

void mess_trace_free(struct mess_trace *t)
{
	free(t->iv);
	t->iv = NULL;
	t->n = t->cap = 0;
}

static const struct {
	const char *format;
	int (*parse)(struct mess_tp *p, char *text);
	const char *re[NDIR];
} formats[] = {
	{ "likwid-timeline", mess_tp_likwid_timeline, { mess_trace_likwid_read_re, mess_trace_likwid_write_re } },
	{ "likwid-csv", mess_tp_likwid_csv, { mess_trace_likwid_read_re, mess_trace_likwid_write_re } },
	{ "perf-stat", parse_perf, { mess_trace_perf_read_re, mess_trace_perf_write_re } },
};

/* likwid's timeline header, likwid's CSV tables, else perf. */
static size_t detect(const char *text)
{
	for (const char *s = text; s; s = line_end(s)) {
		const char *e, *h;

		s += *s == '\n';
		while (*s == ' ' || *s == '\t')
			s++;
		e = line_end(s);
		/* Searched within the line only: strstr() over the rest of
		 * the text on every line was quadratic (200k intervals of
		 * perf stat -I did not finish in 90 s). */
		h = *s == '#' ? memmem(s, e ? (size_t)(e - s) : strlen(s),
				       MESS_TP_TL_HEADER,
				       sizeof(MESS_TP_TL_HEADER) - 1) : NULL;
		if (h)
			return 0;
		if (!strncmp(s, "TABLE,", 6) || !strncmp(s, "STRUCT,", 7))
			return 1;
	}
	return 2;
}

int mess_trace_parse(const char *text, const char *name,
		     const struct mess_trace_opts *o, struct mess_trace *t,
		     char *err, size_t errlen)
{
	struct mess_tp p = { .name = name, .o = o, .t = t, .err = err,
			    .errlen = errlen };
	size_t fmt = detect(text);
	regex_t def[NDIR];
	int own[NDIR] = { 0 }, rc = 0;
	char *copy = strdup(text);

	if (!copy)
		return -ENOMEM;
	t->format = formats[fmt].format;
	for (int d = 0; d < NDIR; d++) {
		p.re[d] = d == RD ? o->read_re : o->write_re;
		p.re_text[d] = p.re[d] ? "the given expression" : formats[fmt].re[d];
		if (!p.re[d]) {
			if (mess_trace_regcomp(&def[d], formats[fmt].re[d], err, errlen)) {
				rc = -EINVAL;
				break;
			}
			p.re[d] = &def[d];
			own[d] = 1;
		}
	}
	if (!rc)
		rc = formats[fmt].parse(&p, copy);
	if ((!rc && !t->n) || rc == -ENOMSG) {
		snprintf(err, errlen, "%s: no %s data: %s matches %s; the %s: %s",
			 name, t->format, !t->read_events[0] ? "no read event" :
			 !t->write_events[0] ? "no write event" : "no event",
			 !t->read_events[0] ? p.re_text[RD] : p.re_text[WR],
			 fmt == 2 ? "file's events" : "file's metrics",
			 p.seen[0] ? p.seen : "none");
		rc = -ENOMSG;
	}
	for (int d = 0; d < NDIR; d++)
		if (own[d])
			regfree(&def[d]);
	free(copy);
	return rc;
}

int mess_trace_load(const char *path, const struct mess_trace_opts *o,
		    struct mess_trace *t, char *err, size_t errlen)
{
	char why[PATH_MAX + 128];
	FILE *f = mess_fopen_regular(path, why, sizeof(why));
	char *text = NULL;
	size_t n = 0, cap = 0, r;
	int rc;

	if (!f) {
		rc = -errno;
		/* a directory as the errno a read of it gives */
		if (rc == -EISDIR)
			return mess_fail(err, errlen, rc, "cannot read %s: %s",
					 path, strerror(EISDIR));
		return mess_fail(err, errlen, rc, "cannot read %s", why);
	}
	do {
		if (cap - n < 65536) {
			char *q = realloc(text, cap = cap ? 2 * cap : 1 << 20);

			if (!q) {
				free(text);
				fclose(f);
				return -ENOMEM;
			}
			text = q;
		}
		errno = 0;
		r = fread(text + n, 1, cap - n - 1, f);
		n += r;
	} while (r);
	/* A directory opens, and says so at the first read. */
	rc = ferror(f) ? -(errno ? errno : EIO) : 0;
	fclose(f);
	if (rc) {
		free(text);
		return mess_fail(err, errlen, rc, "cannot read %s: %s", path,
				 strerror(-rc));
	}
	text[n] = '\0';
	if (strlen(text) != n) {
		free(text);
		return mess_fail(err, errlen, -EINVAL, "%s: a binary file (NUL bytes); allowed: perf stat or likwid-perfctr text output",
				 path);
	}
	rc = mess_trace_parse(text, path, o, t, err, errlen);
	free(text);
	return rc;
}
