// SPDX-License-Identifier: MIT
/*
 * --tables N: the spread of k1 per entry (row x mode) across the N tables,
 * in absorption_tables.csv and a section of absorption.md.  An entry is
 * "within" when every table's k1 lies within max(2, 25 %) of their median
 * (the repeatability target of issue 12); only entries ok in every table
 * are judged, the others say why not.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "absorb/absorb.h"
#include "core/util.h"
#include "mess/stats.h"

#define TABLES_CSV "absorption_tables.csv"
#define TABLES_HEADER "kernel,variant,cores,q,mode,tables,k1_values,statuses,k1_median,k1_min,k1_max,spread_rel,all_ok,within"

struct entry {
	double k1[ABSORB_MAX_TABLES];
	const char *status[ABSORB_MAX_TABLES];
	int n, all_ok;
	double med, min, max;
	int within;		/* -1: not judged */
};

/* Row i's entry in mode m over its tables (rows i, i + 1, ... share the
 * key: they were made one after the other). */
static void entry(const struct absorb_table *t, size_t i, enum mess_noise_mode m,
		  struct entry *e)
{
	double v[ABSORB_MAX_TABLES];

	e->n = 0;
	e->all_ok = 1;
	for (size_t j = i; j < t->nrows && e->n < ABSORB_MAX_TABLES &&
	     !strcmp(t->rows[j].key, t->rows[i].key); j++) {
		const struct pair *pr = &t->rows[j].pair[m];

		if (!pr->done)
			continue;
		e->k1[e->n] = pr->res.k1;
		e->status[e->n] = mess_absorb_status_name(pr->res.status);
		e->all_ok &= pr->res.status == MESS_ABSORB_OK ||
			     pr->res.status == MESS_ABSORB_NONE;
		v[e->n] = pr->res.k1;
		e->n++;
	}
	e->med = e->min = e->max = NAN;
	e->within = -1;
	if (!e->n)
		return;
	e->min = e->max = v[0];
	for (int k = 1; k < e->n; k++) {
		e->min = fmin(e->min, v[k]);
		e->max = fmax(e->max, v[k]);
	}
	e->med = mess_median(v, (unsigned)e->n);
	if (e->all_ok && e->n > 1) {
		double tol = fmax(2, 0.25 * e->med);

		e->within = e->max - e->med <= tol && e->med - e->min <= tol;
	}
}

typedef void entry_fn(const struct row *r, enum mess_noise_mode m,
		      const struct entry *e, void *arg);

/* Each entry with a table done, in row and mode order (a row's first
 * table stands for the key), to fn; the CSV and the md section list the
 * same ones. */
static void each_entry(const struct absorb_table *t, entry_fn *fn, void *arg)
{
	for (size_t i = 0; i < t->nrows; i++) {
		if (t->rows[i].tb)
			continue;
		for (int j = 0; j < t->nmodes; j++) {
			struct entry e;

			entry(t, i, t->modes[j], &e);
			if (e.n)
				fn(&t->rows[i], t->modes[j], &e, arg);
		}
	}
}

/* The k1 of each table, mid, then each table's status; sep between. */
static void lists(FILE *f, const struct entry *e, const char *sep,
		  const char *mid)
{
	for (int k = 0; k < e->n; k++)
		fprintf(f, "%s%g", k ? sep : "", e->k1[k]);
	fputs(mid, f);
	for (int k = 0; k < e->n; k++)
		fprintf(f, "%s%s", k ? sep : "", e->status[k]);
}

static void csv_entry(const struct row *r, enum mess_noise_mode m,
		      const struct entry *e, void *arg)
{
	FILE *f = arg;

	fprintf(f, "%s,%s,%d,", r->key, mess_noise_mode_name(m), e->n);
	lists(f, e, " ", ",");
	fprintf(f, ",%g,%g,%g,%.4g,%d,%s\n", e->med, e->min, e->max,
		e->med > 0 ? (e->max - e->min) / e->med : NAN, e->all_ok,
		e->within < 0 ? "nan" : e->within ? "1" : "0");
}

static int write_csv(const struct absorb_table *t, const char *dir)
{
	FILE *f = mess_tmp_open(dir, TABLES_CSV);

	if (!f)
		return -errno;
	fprintf(f, TABLES_HEADER "\n");
	each_entry(t, csv_entry, f);
	return mess_tmp_commit(dir, TABLES_CSV, f);
}

struct md_ctx {
	FILE *f;
	unsigned judged, within, entries;
};

static void md_entry(const struct row *r, enum mess_noise_mode m,
		     const struct entry *e, void *arg)
{
	struct md_ctx *c = arg;

	c->entries++;
	fprintf(c->f, "| %s | %s | ", r->key, mess_noise_mode_name(m));
	lists(c->f, e, ", ", " | ");
	fprintf(c->f, " | %g | %.2f | %s |\n", e->med,
		e->med > 0 ? (e->max - e->min) / e->med : NAN,
		e->within < 0 ? "not judged (not ok or none in every table)" :
		e->within ? "yes" : "**no**");
	c->judged += e->within >= 0;
	c->within += e->within > 0;
}

int absorb_write_repeat(const struct absorb_table *t, const char *dir,
			FILE *md)
{
	struct md_ctx c = { md, 0, 0, 0 };

	if (t->o.tables < 2)
		return 0;
	fprintf(md, "\n## Repeatability: %llu tables, interleaved by row\n\n"
		"| row | mode | k1 per table | statuses | median | spread (max − min) / median | within max(2, 25 %%) |\n|---|---|---|---|---:|---:|---|\n",
		(unsigned long long)t->o.tables);
	each_entry(t, md_entry, &c);
	fprintf(md, "\n%u of %u entries judged (ok or none in every table); %u of them within.\n",
		c.judged, c.entries, c.within);
	return write_csv(t, dir);
}
