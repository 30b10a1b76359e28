// SPDX-License-Identifier: MIT
/*
 * Mess simulator export (bwlat_<R>.txt), the public reference reader and
 * the suite's own curves.csv reader and writer.
 */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "mess/messfmt.h"

#define MESS_GRID_STEPS 51	/* R = 0, 2, ..., 100 */

/* ---- parsing helpers ---- */

static char *trim(char *s)
{
	char *e;

	while (isspace((unsigned char)*s))
		s++;
	e = s + strlen(s);
	while (e > s && isspace((unsigned char)e[-1]))
		*--e = '\0';
	return s;
}

/*
 * A finite number filling the whole field.  "nan" and "inf" are refused:
 * a missing value is an empty field, so a spelled-out one is corruption.
 */
static int parse_double(char *field, int allow_empty, double *out)
{
	char *s = trim(field), *end;
	double v;

	if (!*s) {
		if (!allow_empty)
			return -EINVAL;
		*out = NAN;
		return 0;
	}
	errno = 0;
	v = strtod(s, &end);
	if (end == s || *end || errno == ERANGE || !isfinite(v))
		return -EINVAL;
	*out = v;
	return 0;
}

/* Decimal digits only: strtoull() would take "-1" and " 7". */
static int parse_u64(char *field, uint64_t max, uint64_t *out)
{
	char *s = trim(field);
	uint64_t v = 0;

	if (!*s)
		return -EINVAL;
	for (; *s; s++) {
		unsigned d;

		if (*s < '0' || *s > '9')
			return -EINVAL;
		d = (unsigned)(*s - '0');
		if (v > (max - d) / 10)
			return -EINVAL;
		v = v * 10 + d;
	}
	*out = v;
	return 0;
}

/* The reference data writes nop counts as floats ("400000.0"). */
static int parse_count(char *field, uint64_t *out)
{
	double v;
	int ret = parse_double(field, 0, &v);

	if (ret)
		return ret;
	if (v < 0.0 || v != floor(v) || v >= 18446744073709551616.0)
		return -EINVAL;
	*out = (uint64_t)v;
	return 0;
}

static void chomp(char *line)
{
	size_t n = strlen(line);

	while (n && (line[n - 1] == '\n' || line[n - 1] == '\r'))
		line[--n] = '\0';
}

static int blank(const char *s)
{
	for (; *s; s++)
		if (!isspace((unsigned char)*s))
			return 0;
	return 1;
}

/*
 * Split a CSV line in place.  The files we read never quote fields, so a
 * plain split on ',' is the whole grammar.  Returns the field count, which
 * may exceed max (only the first max are stored).
 */
static size_t split_csv(char *line, char **fields, size_t max)
{
	size_t n = 0;

	for (;;) {
		char *comma = strchr(line, ',');

		if (n < max)
			fields[n] = line;
		n++;
		if (!comma)
			return n;
		*comma = '\0';
		line = comma + 1;
	}
}

/* ---- Mess simulator export ---- */

static void note_add(char *note, size_t notelen, const char *fmt, ...)
{
	size_t used;
	va_list ap;

	if (!note || !notelen)
		return;
	used = strnlen(note, notelen - 1);
	if (used && used + 2 < notelen) {
		memcpy(note + used, "; ", 3);
		used += 2;
	}
	va_start(ap, fmt);
	vsnprintf(note + used, notelen - used, fmt, ap);
	va_end(ap);
}

static void describe(char *buf, size_t len, const struct mess_curve *c)
{
	if (c->store_pct == MESS_STORE_PCT_UNKNOWN)
		snprintf(buf, len, "curve read %.2f%%", c->read_pct);
	else
		snprintf(buf, len, "curve store %u%% (read %.2f%%)",
			 c->store_pct, c->read_pct);
}

static int write_bwlat(const char *path, const struct mess_curve *c)
{
	struct mess_point *rows;
	size_t i, j, n = 0;
	FILE *fp;
	int ret = 0;

	rows = malloc((c->n ? c->n : 1) * sizeof(*rows));
	if (!rows)
		return -ENOMEM;
	/* Stable insertion by bandwidth descending. */
	for (i = 0; i < c->n; i++) {
		if (!mess_point_usable(&c->pts[i]))
			continue;
		for (j = n; j > 0 && rows[j - 1].bw_gbs < c->pts[i].bw_gbs; j--)
			rows[j] = rows[j - 1];
		rows[j] = c->pts[i];
		n++;
	}

	fp = fopen(path, "w");
	if (!fp) {
		ret = -errno;
		free(rows);
		return ret;
	}
	/* 6 decimals of MB/s: 1e-9 GB/s, far below any measurement noise. */
	for (i = 0; i < n; i++)
		fprintf(fp, "%.6f %.6f\n", rows[i].bw_gbs * 1000.0,
			rows[i].lat_ns);
	if (ferror(fp))
		ret = -EIO;
	if (fclose(fp) && !ret)
		ret = -errno;
	free(rows);
	return ret;
}

int mess_export_dir(const char *dir, const struct mess_family *f, char *note,
		    size_t notelen)
{
	long slot[MESS_GRID_STEPS];
	char a[64], b[64];
	size_t i, plen;
	char *path;
	int ret, r;

	if (note && notelen)
		note[0] = '\0';
	if (!dir || !*dir || !f || !f->n)
		return -EINVAL;
	for (r = 0; r < MESS_GRID_STEPS; r++)
		slot[r] = -1;

	for (i = 0; i < f->n; i++) {
		const struct mess_curve *c = &f->curves[i];
		const struct mess_curve *old;
		double rd = c->read_pct;

		describe(a, sizeof(a), c);
		if (!mess_curve_usable(c)) {
			note_add(note, notelen, "%s has no points, not exported", a);
			continue;
		}
		/* Counter noise may push a share a little outside 0..100. */
		if (!isfinite(rd) || rd < -1.0 || rd > 101.0) {
			note_add(note, notelen, "%s: read share outside 0..100, not exported", a);
			continue;
		}
		r = (int)lround(fmin(fmax(rd, 0.0), 100.0) / 2.0);
		if (slot[r] < 0) {
			slot[r] = (long)i;
			continue;
		}
		old = &f->curves[slot[r]];
		describe(b, sizeof(b), old);
		if (fabs(rd - 2.0 * r) < fabs(old->read_pct - 2.0 * r)) {
			note_add(note, notelen, "bwlat_%d.txt: kept %s, dropped %s",
				 2 * r, a, b);
			slot[r] = (long)i;
		} else {
			note_add(note, notelen, "bwlat_%d.txt: kept %s, dropped %s",
				 2 * r, b, a);
		}
	}

	/* One level: the run directory exists, its mess/ may not. */
	if (mkdir(dir, 0777) && errno != EEXIST)
		return -errno;
	ret = 0;
	plen = strlen(dir) + sizeof("/bwlat_100.txt");
	path = malloc(plen);
	if (!path)
		return -ENOMEM;
	for (r = 0; r < MESS_GRID_STEPS && !ret; r++) {
		if (slot[r] < 0)
			continue;
		snprintf(path, plen, "%s/bwlat_%d.txt", dir, 2 * r);
		ret = write_bwlat(path, &f->curves[slot[r]]);
	}
	free(path);
	return ret;
}

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

static int parse_bwlat_line(char *line, double *mbs, double *ns)
{
	char *s = line, *end;

	errno = 0;
	*mbs = strtod(s, &end);
	if (end == s || !isspace((unsigned char)*end))
		return -EINVAL;
	s = end;
	*ns = strtod(s, &end);
	if (end == s || !blank(end) || errno == ERANGE)
		return -EINVAL;
	if (!isfinite(*mbs) || !isfinite(*ns) || *mbs < 0.0 || *ns < 0.0)
		return -EINVAL;
	return 0;
}

int mess_export_read(const char *path, struct mess_curve *c)
{
	size_t n0 = c->n, cap = 0;
	char *line = NULL;
	FILE *fp;
	int ret = 0;

	fp = fopen(path, "r");
	if (!fp)
		return -errno;
	if (isnan(c->read_pct))
		c->read_pct = read_pct_from_name(path);
	while (getline(&line, &cap, fp) >= 0) {
		struct mess_point p = {
			.store_pct = c->store_pct,
			.read_pct = c->read_pct,
			.read_bw_gbs = NAN,
			.write_bw_gbs = NAN,
			.lat_ns_std = NAN,
		};
		double mbs, ns;

		chomp(line);
		if (blank(line))
			continue;
		ret = parse_bwlat_line(line, &mbs, &ns);
		if (ret)
			break;
		p.bw_gbs = mbs / 1000.0;
		p.lat_ns = ns;
		ret = mess_curve_add(c, &p);
		if (ret)
			break;
	}
	if (!ret && ferror(fp))
		ret = -EIO;
	free(line);
	fclose(fp);
	if (ret)
		c->n = n0;
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
	REF_NCOLS,
};

static const char *const ref_names[REF_NCOLS] = {
	[REF_READ_ROUNDED] = "read_pct_rounded",
	[REF_PAUSE] = "pause",
	[REF_BW] = "bandwidth_mean",
	[REF_LAT] = "latency_mean",
	[REF_LAT_STD] = "latency_std",
	[REF_RD_ACTUAL] = "rd_percentage_actual_mean",
};

#define REF_MAX_FIELDS 64

static int ref_header(char *line, long *col, size_t *nfields)
{
	char *fields[REF_MAX_FIELDS];
	size_t n, i;
	int k;

	/* Spreadsheet exports may start with a UTF-8 byte order mark. */
	if (!strncmp(line, "\xef\xbb\xbf", 3))
		line += 3;
	n = split_csv(line, fields, REF_MAX_FIELDS);
	if (n > REF_MAX_FIELDS)
		return -EINVAL;
	for (k = 0; k < REF_NCOLS; k++)
		col[k] = -1;
	for (i = 0; i < n; i++) {
		char *name = trim(fields[i]);

		for (k = 0; k < REF_NCOLS; k++)
			if (col[k] < 0 && !strcmp(name, ref_names[k]))
				col[k] = (long)i;
	}
	if (col[REF_READ_ROUNDED] < 0 || col[REF_PAUSE] < 0 ||
	    col[REF_BW] < 0 || col[REF_LAT] < 0)
		return -EINVAL;
	*nfields = n;
	return 0;
}

static int ref_row(char *line, const long *col, size_t nfields,
		   struct mess_family *f)
{
	char *fields[REF_MAX_FIELDS];
	double rounded, frac = NAN, std = NAN;
	struct mess_point p = { .store_pct = MESS_STORE_PCT_UNKNOWN };
	struct mess_curve *c;
	int ret;

	if (split_csv(line, fields, REF_MAX_FIELDS) != nfields)
		return -EINVAL;
	ret = parse_double(fields[col[REF_READ_ROUNDED]], 0, &rounded);
	if (!ret)
		ret = parse_count(fields[col[REF_PAUSE]], &p.nop);
	if (!ret)
		ret = parse_double(fields[col[REF_BW]], 1, &p.bw_gbs);
	if (!ret)
		ret = parse_double(fields[col[REF_LAT]], 1, &p.lat_ns);
	if (!ret && col[REF_LAT_STD] >= 0)
		ret = parse_double(fields[col[REF_LAT_STD]], 1, &std);
	if (!ret && col[REF_RD_ACTUAL] >= 0)
		ret = parse_double(fields[col[REF_RD_ACTUAL]], 1, &frac);
	if (ret)
		return ret;

	p.lat_ns_std = std;
	if (isfinite(frac)) {
		p.read_pct = 100.0 * frac;
		p.read_bw_gbs = p.bw_gbs * frac;
		p.write_bw_gbs = p.bw_gbs * (1.0 - frac);
	} else {
		p.read_pct = rounded;
		p.read_bw_gbs = NAN;
		p.write_bw_gbs = NAN;
	}
	c = mess_family_curve(f, MESS_STORE_PCT_UNKNOWN, rounded);
	if (!c)
		return -ENOMEM;
	return mess_curve_add(c, &p);
}

int mess_reference_read(const char *csv_path, struct mess_family *f)
{
	long col[REF_NCOLS];
	size_t cap = 0, nfields = 0, i;
	char *line = NULL;
	int ret = -EINVAL;	/* an empty file has no header */
	FILE *fp;

	fp = fopen(csv_path, "r");
	if (!fp)
		return -errno;
	if (getline(&line, &cap, fp) >= 0) {
		chomp(line);
		ret = ref_header(line, col, &nfields);
	}
	while (!ret && getline(&line, &cap, fp) >= 0) {
		chomp(line);
		if (!blank(line))
			ret = ref_row(line, col, nfields, f);
	}
	if (!ret && ferror(fp))
		ret = -EIO;
	free(line);
	fclose(fp);

	for (i = 0; i < f->n; i++)
		mess_curve_sort_pressure(&f->curves[i]);
	mess_family_sort_read(f);
	return ret;
}

/* ---- the suite's curves.csv ---- */

#define CSV_NFIELDS 10

int mess_curves_csv_write_header(FILE *fp)
{
	fputs(MESS_CURVES_CSV_HEADER "\n", fp);
	if (fflush(fp) || ferror(fp))
		return -EIO;
	return 0;
}

/* Empty field for a value that was not measured. */
static const char *csv_num(char *buf, size_t len, double v, int decimals)
{
	if (!isfinite(v))
		return "";
	snprintf(buf, len, "%.*f", decimals, v);
	return buf;
}

int mess_curves_csv_write_row(FILE *fp, const struct mess_point *p,
			      const char *bw_source)
{
	char rd[48], bw[48], rbw[48], wbw[48], lat[48], std[48];

	if (!bw_source)
		bw_source = "";
	if (strpbrk(bw_source, ",\"\r\n") || p->store_pct == MESS_STORE_PCT_UNKNOWN)
		return -EINVAL;
	/* GB/s to 1 kB/s and ns to 0.1 ps: beyond any measurement noise. */
	fprintf(fp, "%u,%s,%llu,%s,%s,%s,%s,%s,%u,%s\n", p->store_pct,
		csv_num(rd, sizeof(rd), p->read_pct, 4),
		(unsigned long long)p->nop,
		csv_num(bw, sizeof(bw), p->bw_gbs, 6),
		csv_num(rbw, sizeof(rbw), p->read_bw_gbs, 6),
		csv_num(wbw, sizeof(wbw), p->write_bw_gbs, 6),
		csv_num(lat, sizeof(lat), p->lat_ns, 4),
		csv_num(std, sizeof(std), p->lat_ns_std, 4),
		p->repeats, bw_source);
	if (fflush(fp) || ferror(fp))
		return -EIO;
	return 0;
}

static int csv_row(char *line, struct mess_family *f)
{
	char *fl[CSV_NFIELDS];
	struct mess_point p = { 0 };
	struct mess_curve *c;
	uint64_t v;
	int ret;

	if (split_csv(line, fl, CSV_NFIELDS) != CSV_NFIELDS)
		return -EINVAL;
	ret = parse_u64(fl[0], UINT32_MAX - 1, &v);
	if (ret)
		return ret;
	p.store_pct = (uint32_t)v;
	ret = parse_u64(fl[2], UINT64_MAX, &p.nop);
	if (!ret)
		ret = parse_u64(fl[8], UINT32_MAX, &v);
	if (ret)
		return ret;
	p.repeats = (uint32_t)v;
	if (parse_double(fl[1], 1, &p.read_pct) ||
	    parse_double(fl[3], 1, &p.bw_gbs) ||
	    parse_double(fl[4], 1, &p.read_bw_gbs) ||
	    parse_double(fl[5], 1, &p.write_bw_gbs) ||
	    parse_double(fl[6], 1, &p.lat_ns) ||
	    parse_double(fl[7], 1, &p.lat_ns_std))
		return -EINVAL;
	/* fl[9], bw_source, is provenance for people; nothing to keep. */

	c = mess_family_curve(f, p.store_pct, NAN);
	if (!c)
		return -ENOMEM;
	return mess_curve_add(c, &p);
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* Median, not mean: one point with a disturbed counter must not shift it. */
static int curve_median_read(struct mess_curve *c)
{
	double *v;
	size_t i, n = 0;

	v = malloc((c->n ? c->n : 1) * sizeof(*v));
	if (!v)
		return -ENOMEM;
	for (i = 0; i < c->n; i++)
		if (isfinite(c->pts[i].read_pct))
			v[n++] = c->pts[i].read_pct;
	qsort(v, n, sizeof(*v), cmp_double);
	if (!n)
		c->read_pct = NAN;
	else if (n % 2)
		c->read_pct = v[n / 2];
	else
		c->read_pct = 0.5 * (v[n / 2 - 1] + v[n / 2]);
	free(v);
	return 0;
}

int mess_curves_csv_read(const char *path, struct mess_family *f)
{
	size_t cap = 0, i;
	char *line = NULL;
	int ret = -EINVAL;
	FILE *fp;

	fp = fopen(path, "r");
	if (!fp)
		return -errno;
	if (getline(&line, &cap, fp) >= 0) {
		chomp(line);
		if (!strcmp(line, MESS_CURVES_CSV_HEADER))
			ret = 0;
	}
	while (!ret && getline(&line, &cap, fp) >= 0) {
		chomp(line);
		if (!blank(line))
			ret = csv_row(line, f);
	}
	if (!ret && ferror(fp))
		ret = -EIO;
	free(line);
	fclose(fp);

	for (i = 0; i < f->n; i++) {
		int err = curve_median_read(&f->curves[i]);

		if (!ret)
			ret = err;
		mess_curve_sort_pressure(&f->curves[i]);
	}
	mess_family_sort_store(f);
	return ret;
}
