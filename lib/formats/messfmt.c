// SPDX-License-Identifier: MIT
/*
 * The Mess simulator's bwlat_<R>.txt reader, the public reference reader and
 * the suite's own curves.csv reader and writer.
 */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "mess/messfmt.h"
#include "mess/quality.h"
#include "mess/parse.h"


/* "bwlat_<R>.txt" in the last path component, R in 0..100. */
static double read_pct_from_name(const char *path)
{
	const char *base = strrchr(path, '/');
	unsigned int r;
	int end = 0;

	base = base ? base + 1 : path;
	if (sscanf(base, "bwlat_%3u.txt%n", &r, &end) == 1 && end &&
	    !base[end] && r <= 100)
		return r;
	return NAN;
}

/* One "MB/s ns" row. */
static int bwlat_row(const struct mess_lines *l, char *line, double *mbs,
		     double *ns, char *err, size_t errlen)
{
	char *tok[2], *save = NULL, *t, q[64];
	size_t n = 0;
	int ret, header;

	mess_quote(q, sizeof(q), mess_trim(line));
	header = isalpha((unsigned char)q[0]) && strncasecmp(q, "nan", 3) &&
		 strncasecmp(q, "inf", 3);
	for (t = strtok_r(line, " \t\v\f\r", &save); t;
	     t = strtok_r(NULL, " \t\v\f\r", &save)) {
		if (n < 2)
			tok[n] = t;
		n++;
	}
	if (n != 2 || strchr(q, ',') || header)
		return mess_file_err(err, errlen, l->path, l->no,
				     "expected two numbers 'MB/s ns', got '%s'%s", q,
				     header ? " (bwlat files have no header)" : "");
	/* Negative is the caller's to drop; beyond any memory is damage. */
	ret = mess_field_num(l, tok[0], "bandwidth", 0, MESS_NUM_ANY, mbs, err, errlen);
	if (!ret && *mbs >= 0)
		ret = mess_field_num(l, tok[0], "bandwidth", 0, MESS_NUM_MBS, mbs,
				     err, errlen);
	if (!ret)
		ret = mess_field_num(l, tok[1], "latency", 0, MESS_NUM_NS, ns, err, errlen);
	return ret;
}

void mess_drop_note(struct mess_drop *d, const char *path, long line,
		    double mbs)
{
	if (!d)
		return;
	if (!d->n || strcmp(d->path, path))
		d->files++;
	if (!d->n++) {
		snprintf(d->path, sizeof(d->path), "%s", path);
		d->line = line;
		d->mbs = mbs;
	}
}

int mess_drop_say(const struct mess_drop *d, char *buf, size_t len)
{
	char more[64] = "";

	if (!d || !d->n)
		return len ? (buf[0] = '\0') : 0;
	if (d->files > 1)
		snprintf(more, sizeof(more), " (in %zu files, the first here)",
			 d->files);
	return snprintf(buf, len,
			"%s:%ld: %zu row%s of negative bandwidth%s dropped (%.1f MB/s here): no memory has them; the set's own consumers load them as they are",
			d->path, d->line, d->n, d->n == 1 ? "" : "s", more, d->mbs);
}

int mess_export_read(const char *path, struct mess_curve *c,
		     struct mess_drop *drop, char *err, size_t errlen)
{
	struct mess_drop mine = { 0 };
	struct mess_lines l;
	size_t n0 = c->n;
	int ret;

	ret = mess_lines_open(&l, path, err, errlen);
	if (ret)
		return ret;
	if (isnan(c->read_pct))
		c->read_pct = read_pct_from_name(path);
	while ((ret = mess_lines_next(&l, err, errlen)) > 0) {
		struct mess_point p = {
			.store_pct = c->store_pct,
			.read_pct = c->read_pct,
			.read_bw_gbs = NAN,
			.write_bw_gbs = NAN,
			.lat_ns_std = NAN,
			/* a set from elsewhere says nothing of trust */
			MESS_POINT_TRUST_NAN,
		};
		double mbs, ns;

		if (mess_blank(l.line))
			continue;
		ret = bwlat_row(&l, l.line, &mbs, &ns, err, errlen);
		if (ret)
			break;
		if (mbs < 0) {
			mess_drop_note(&mine, path, l.no, mbs);
			continue;
		}
		p.bw_gbs = mbs / 1000.0;
		p.lat_ns = ns;
		ret = mess_curve_add(c, &p);
		if (ret)
			break;
	}
	if (!ret && c->n == n0 && mine.n)
		ret = mess_file_err(err, errlen, path, 0,
				    "every row (%zu) has a negative bandwidth (line %ld: %.1f MB/s), and such rows are dropped: no 'MB/s ns' row left",
				    mine.n, mine.line, mine.mbs);
	else if (!ret && c->n == n0)
		ret = mess_file_err(err, errlen, path, 0,
				    "empty file: no 'MB/s ns' row");
	mess_lines_close(&l);
	if (ret)
		c->n = n0;
	else if (drop && mine.n) {
		if (!drop->n)
			*drop = mine;
		else {
			drop->n += mine.n;
			drop->files++;
		}
	}
	return ret;
}

/* ---- public reference memory_curves.csv ---- */

enum ref_col {
	REF_READ_ROUNDED,
	REF_PAUSE,
	REF_BW,
	REF_LAT,
	REF_LAT_STD,
	REF_RD_ACTUAL,
	REF_BW_STD,
	REF_NCOLS,
};

/* Column, whether a file must have it, what its values must be. */
static const struct {
	const char *name;
	int required;
	enum mess_num_rule rule;
} ref_cols[REF_NCOLS] = {
	[REF_READ_ROUNDED] = { "read_pct_rounded", 1, MESS_NUM_PCT },
	[REF_PAUSE] = { "pause", 1, MESS_NUM_NONNEG },
	[REF_BW] = { "bandwidth_mean", 1, MESS_NUM_GBS },
	[REF_LAT] = { "latency_mean", 1, MESS_NUM_NS },
	[REF_LAT_STD] = { "latency_std", 0, MESS_NUM_NS0 },
	/* counters may put a share a little outside 0..1 */
	[REF_RD_ACTUAL] = { "rd_percentage_actual_mean", 0, MESS_NUM_ANY },
	[REF_BW_STD] = { "bandwidth_std", 0, MESS_NUM_GBS },
};

#define REF_MAX_FIELDS 64

static int ref_header(const struct mess_lines *l, long *col, size_t *nfields,
		      char *err, size_t errlen)
{
	char *fields[REF_MAX_FIELDS];
	size_t n, i;
	int k;

	n = mess_split(l->line, ',', fields, REF_MAX_FIELDS);
	if (n > REF_MAX_FIELDS)
		return mess_file_err(err, errlen, l->path, l->no,
				     "more than %d columns", REF_MAX_FIELDS);
	for (k = 0; k < REF_NCOLS; k++)
		col[k] = -1;
	for (i = 0; i < n; i++) {
		char *name = mess_trim(fields[i]);

		for (k = 0; k < REF_NCOLS; k++)
			if (col[k] < 0 && !strcmp(name, ref_cols[k].name))
				col[k] = (long)i;
	}
	for (k = 0; k < REF_NCOLS; k++)
		if (ref_cols[k].required && col[k] < 0)
			return mess_file_err(err, errlen, l->path, l->no,
					     "no column '%s'", ref_cols[k].name);
	*nfields = n;
	return 0;
}

static int ref_row(const struct mess_lines *l, const long *col,
		   size_t nfields, struct mess_family *f, char *err,
		   size_t errlen)
{
	char *fields[REF_MAX_FIELDS];
	double v[REF_NCOLS];
	struct mess_point p = { .store_pct = MESS_STORE_PCT_UNKNOWN,
				MESS_POINT_TRUST_NAN };
	struct mess_curve *c;
	size_t n;
	int k, ret = 0;

	n = mess_split(l->line, ',', fields, REF_MAX_FIELDS);
	if (n != nfields)
		return mess_file_err(err, errlen, l->path, l->no,
				     "%zu fields, the header has %zu", n, nfields);
	for (k = 0; k < REF_NCOLS && !ret; k++) {
		v[k] = NAN;
		if (k == REF_PAUSE)
			ret = mess_field_count(l, fields[col[k]], ref_cols[k].name,
					  &p.nop, err, errlen);
		else if (col[k] >= 0)
			/* The required columns must hold a figure (the public
			 * sets always do: an empty one is damage); the optional
			 * spreads and shares may be empty. */
			ret = mess_field_num(l, fields[col[k]], ref_cols[k].name,
					!ref_cols[k].required, ref_cols[k].rule,
					&v[k], err, errlen);
	}
	if (ret)
		return ret;

	p.bw_gbs = v[REF_BW];
	p.lat_ns = v[REF_LAT];
	p.lat_ns_std = v[REF_LAT_STD];
	p.bw_gbs_std = v[REF_BW_STD];
	if (isfinite(v[REF_RD_ACTUAL])) {
		p.read_pct = 100.0 * v[REF_RD_ACTUAL];
		p.read_bw_gbs = p.bw_gbs * v[REF_RD_ACTUAL];
		p.write_bw_gbs = p.bw_gbs * (1.0 - v[REF_RD_ACTUAL]);
	} else {
		p.read_pct = v[REF_READ_ROUNDED];
		p.read_bw_gbs = NAN;
		p.write_bw_gbs = NAN;
	}
	c = mess_family_curve(f, MESS_STORE_PCT_UNKNOWN, v[REF_READ_ROUNDED]);
	if (!c)
		return -ENOMEM;
	return mess_curve_add(c, &p);
}

int mess_reference_read(const char *csv_path, struct mess_family *f,
			char *err, size_t errlen)
{
	struct mess_lines l;
	long col[REF_NCOLS];
	size_t nfields = 0, i, rows = 0;
	int ret;

	ret = mess_lines_open(&l, csv_path, err, errlen);
	if (ret)
		return ret;
	ret = mess_lines_next(&l, err, errlen);
	if (ret == 0)
		ret = mess_file_err(err, errlen, csv_path, 0, "empty file");
	else if (ret > 0)
		ret = ref_header(&l, col, &nfields, err, errlen);
	while (!ret && (ret = mess_lines_next(&l, err, errlen)) > 0) {
		if (mess_blank(l.line)) {
			ret = 0;
			continue;
		}
		ret = ref_row(&l, col, nfields, f, err, errlen);
		rows++;
	}
	if (!ret && !rows)
		ret = mess_file_err(err, errlen, csv_path, 0,
				    "no data row after the header");
	mess_lines_close(&l);

	for (i = 0; i < f->n; i++)
		mess_curve_sort_pressure(&f->curves[i]);
	mess_family_sort_read(f);
	return ret;
}

/* ---- the suite's curves.csv ---- */

#define CSV_NFIELDS_V1 10
#define CSV_NFIELDS_V2 14
#define CSV_NFIELDS_V3 25
#define CSV_NFIELDS_V4 35
#define CSV_NFIELDS_V5 37
#define CSV_NFIELDS 39

int mess_curves_csv_write_header(FILE *fp)
{
	fputs(MESS_CURVES_CSV_HEADER "\n", fp);
	if (fflush(fp) || ferror(fp))
		return -EIO;
	return 0;
}

/* Column, what its values must be, where it stands in a row and the
 * decimals it is written with; bw_source (the last) is provenance for
 * people: nothing to keep. */
static const struct {
	const char *name;
	enum mess_num_rule rule;
	int col, decimals;
	size_t off;
} point_cols[] = {
#define COL(m, rule, col, decimals) \
	{ #m, rule, col, decimals, offsetof(struct mess_point, m) }
	/* counters may put a share a little outside 0..100 */
	COL(read_pct, MESS_NUM_ANY, 1, 4),
	COL(bw_gbs, MESS_NUM_GBS, 3, 6),
	COL(read_bw_gbs, MESS_NUM_GBS, 4, 6),
	COL(write_bw_gbs, MESS_NUM_GBS, 5, 6),
	COL(lat_ns, MESS_NUM_NS, 6, 4),
	COL(lat_ns_std, MESS_NUM_NS0, 7, 4),
	/* schema 2 only */
	COL(acc_read_bw_gbs, MESS_NUM_GBS, 10, 6),
	COL(acc_write_bw_gbs, MESS_NUM_GBS, 11, 6),
	COL(lat_nowalk_ns, MESS_NUM_NS0, 12, 4),
	COL(counter_run_frac, MESS_NUM_NONNEG, 13, 4),
	/* schema 3 only */
	COL(bw_gbs_std, MESS_NUM_GBS, 14, 6),
	COL(disturbed, MESS_NUM_NONNEG, 15, 0),
	COL(disturbed_kept, MESS_NUM_NONNEG, 16, 0),
	COL(lost_pct, MESS_NUM_NONNEG, 17, 3),
	COL(steal_ms, MESS_NUM_NONNEG, 18, 1),
	COL(invol_switches, MESS_NUM_NONNEG, 19, 0),
	COL(migrations, MESS_NUM_NONNEG, 20, 0),
	COL(ghz_min, MESS_NUM_POS, 21, 4),
	COL(ghz_max, MESS_NUM_POS, 22, 4),
	/* schema 4 only (the mean's difference has a sign) */
	COL(lat_p50_ns, MESS_NUM_NS, 25, 4),
	COL(lat_p90_ns, MESS_NUM_NS, 26, 4),
	COL(lat_p99_ns, MESS_NUM_NS, 27, 4),
	COL(lat_p999_ns, MESS_NUM_NS, 28, 4),
	COL(lat_max_ns, MESS_NUM_NS, 29, 4),
	COL(dist_mean_diff_pct, MESS_NUM_ANY, 30, 3),
	COL(fair_min, MESS_NUM_NONNEG, 31, 4),
	COL(fair_median, MESS_NUM_NONNEG, 32, 4),
	COL(fair_max, MESS_NUM_NONNEG, 33, 4),
	COL(fair_jain, MESS_NUM_NONNEG, 34, 4),
	/* schema 5 only (a cost is a difference of two measurements) */
	COL(dist_cost_ns, MESS_NUM_ANY, 35, 3),
	COL(dist_preempted, MESS_NUM_NONNEG, 36, 0),
	/* schema 6 only (a cluster's place is a difference too) */
	COL(dist_l2_share_pct, MESS_NUM_PCT, 37, 4),
	COL(dist_l2_ns, MESS_NUM_ANY, 38, 3),
#undef COL
};
#define NPOINT_COLS (sizeof(point_cols) / sizeof(point_cols[0]))

/* Empty field for a value that was not measured. */
static void csv_num(char *buf, size_t len, double v, int decimals)
{
	if (isfinite(v))
		snprintf(buf, len, "%.*f", decimals, v);
	else
		buf[0] = '\0';
}

int mess_curves_csv_write_row(FILE *fp, const struct mess_point *p,
			      const char *bw_source)
{
	char cell[CSV_NFIELDS][48], flags[160];

	if (!bw_source)
		bw_source = "";
	if (strpbrk(bw_source, ",\"\r\n") || p->store_pct == MESS_STORE_PCT_UNKNOWN)
		return -EINVAL;
	snprintf(cell[0], 48, "%u", p->store_pct);
	snprintf(cell[2], 48, "%llu", (unsigned long long)p->nop);
	snprintf(cell[8], 48, "%u", p->repeats);
	snprintf(cell[23], 48, "%u", p->remeasured);
	/* GB/s to 1 kB/s and ns to 0.1 ps: beyond any measurement noise. */
	for (size_t i = 0; i < NPOINT_COLS; i++)
		csv_num(cell[point_cols[i].col], 48,
			*(const double *)((const char *)p + point_cols[i].off),
			point_cols[i].decimals);
	/* bw_source (9) may be longer than a cell. */
	for (int k = 0; k < CSV_NFIELDS; k++)
		fprintf(fp, "%s%s", k ? "," : "", k == 9 ? bw_source : k == 24 ?
			mess_qflags_str(p->flags, flags, sizeof(flags)) : cell[k]);
	fputc('\n', fp);
	if (fflush(fp) || ferror(fp))
		return -EIO;
	return 0;
}

int mess_point_check(const struct mess_point *p, const char *what, char *err,
		     size_t errlen)
{
	for (size_t i = 0; i < NPOINT_COLS; i++) {
		double v = *(const double *)((const char *)p + point_cols[i].off);
		const char *why = isnan(v) ? NULL : mess_num_problem(v, point_cols[i].rule);
		char msg[160];

		if (!why)
			continue;
		/* fmt is one of the table's, all "%s ... %g". */
		snprintf(msg, sizeof(msg), why, point_cols[i].name, v);
		return mess_file_err(err, errlen, what, 0,
				     "%s, which curves.csv never holds", msg);
	}
	return 0;
}

static int csv_row(const struct mess_lines *l, struct mess_family *f,
		   size_t nfields, char *err, size_t errlen)
{
	char *fl[CSV_NFIELDS];
	struct mess_point p = MESS_POINT_INIT;
	struct mess_curve *c;
	uint64_t v;
	size_t n, i;
	int ret;

	n = mess_split(l->line, ',', fl, CSV_NFIELDS);
	if (n != nfields)
		return mess_file_err(err, errlen, l->path, l->no,
				     "%zu fields, expected %zu", n, nfields);
	ret = mess_field_u64(l, fl[0], "store_pct", UINT32_MAX - 1, &v, err, errlen);
	if (ret)
		return ret;
	p.store_pct = (uint32_t)v;
	ret = mess_field_u64(l, fl[2], "nop", UINT64_MAX, &p.nop, err, errlen);
	if (!ret)
		ret = mess_field_u64(l, fl[8], "repeats", UINT32_MAX, &v, err, errlen);
	if (ret)
		return ret;
	p.repeats = (uint32_t)v;
	for (i = 0; i < NPOINT_COLS && !ret; i++)
		if ((size_t)point_cols[i].col < nfields)
			ret = mess_field_num(l, fl[point_cols[i].col], point_cols[i].name, 1, point_cols[i].rule,
				(double *)((char *)&p + point_cols[i].off), err, errlen);
	if (!ret && nfields >= CSV_NFIELDS_V3) {
		ret = mess_field_u64(l, fl[23], "remeasured", UINT32_MAX, &v,
				     err, errlen);
		p.remeasured = (uint32_t)v;
		if (!ret && mess_qflags_parse(fl[24], &p.flags))
			ret = mess_file_err(err, errlen, l->path, l->no,
					    "flags: '%s' is not a list of rules (names of results/README.md joined by ';')",
					    fl[24]);
	}
	if (ret)
		return ret;

	c = mess_family_curve(f, p.store_pct, NAN);
	if (!c)
		return -ENOMEM;
	return mess_curve_add(c, &p);
}

int mess_curves_csv_read(const char *path, struct mess_family *f, char *err,
			 size_t errlen)
{
	return mess_curves_csv_read_rows(path, f, NULL, NULL, err, errlen);
}

int mess_curves_csv_read_rows(const char *path, struct mess_family *f,
			      mess_bad_row_fn bad, void *ctx, char *err,
			      size_t errlen)
{
	struct mess_lines l;
	size_t i, nfields = CSV_NFIELDS;
	int ret;

	ret = mess_lines_open(&l, path, err, errlen);
	if (ret)
		return ret;
	ret = mess_lines_next(&l, err, errlen);
	if (ret == 0) {
		ret = mess_file_err(err, errlen, path, 0, "empty file");
	} else if (ret > 0) {
		nfields = !strcmp(l.line, MESS_CURVES_CSV_HEADER_V1) ?
			CSV_NFIELDS_V1 :
			!strcmp(l.line, MESS_CURVES_CSV_HEADER_V2) ?
			CSV_NFIELDS_V2 :
			!strcmp(l.line, MESS_CURVES_CSV_HEADER_V3) ?
			CSV_NFIELDS_V3 :
			!strcmp(l.line, MESS_CURVES_CSV_HEADER_V4) ?
			CSV_NFIELDS_V4 :
			!strcmp(l.line, MESS_CURVES_CSV_HEADER_V5) ?
			CSV_NFIELDS_V5 : CSV_NFIELDS;
		ret = strcmp(l.line, MESS_CURVES_CSV_HEADER) &&
		      nfields == CSV_NFIELDS ?
			mess_file_err(err, errlen, path, 1,
				      "not the header of curves.csv: expected '%s'",
				      MESS_CURVES_CSV_HEADER) : 0;
	}
	while (!ret && (ret = mess_lines_next(&l, err, errlen)) > 0) {
		if (mess_blank(l.line)) {
			ret = 0;
			continue;
		}
		ret = csv_row(&l, f, nfields, err, errlen);
		/* A row that breaks the format is the caller's to report and
		 * measure again; out of memory is not a row's fault. */
		if (ret == -EINVAL && bad) {
			bad(ctx, err);
			ret = 0;
		}
	}
	mess_lines_close(&l);

	for (i = 0; i < f->n; i++) {
		int e = mess_curve_median_read(&f->curves[i]);

		if (!ret)
			ret = e;
		mess_curve_sort_pressure(&f->curves[i]);
	}
	mess_family_sort_store(f);
	return ret;
}
