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
#include <stdlib.h>
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

static int write_csv(const struct absorb_table *t, const char *dir)
{
	FILE *f = mess_tmp_open(dir, TABLES_CSV);

	if (!f)
		return -errno;
	fprintf(f, TABLES_HEADER "\n");
	for (size_t i = 0; i < t->nrows; i++) {
		if (t->rows[i].tb)
			continue;
		for (int j = 0; j < t->nmodes; j++) {
			struct entry e;

			entry(t, i, t->modes[j], &e);
			if (!e.n)
				continue;
			fprintf(f, "%s,%s,%d,", t->rows[i].key,
				mess_noise_mode_name(t->modes[j]), e.n);
			for (int k = 0; k < e.n; k++)
				fprintf(f, "%s%g", k ? " " : "", e.k1[k]);
			fprintf(f, ",");
			for (int k = 0; k < e.n; k++)
				fprintf(f, "%s%s", k ? " " : "", e.status[k]);
			fprintf(f, ",%g,%g,%g,%.4g,%d,%s\n", e.med, e.min, e.max,
				e.med > 0 ? (e.max - e.min) / e.med : NAN, e.all_ok,
				e.within < 0 ? "nan" : e.within ? "1" : "0");
		}
	}
	return mess_tmp_commit(dir, TABLES_CSV, f);
}

int absorb_write_repeat(const struct absorb_table *t, const char *dir,
			FILE *md)
{
	unsigned judged = 0, within = 0, entries = 0;

	if (t->o.tables < 2)
		return 0;
	fprintf(md, "\n## Repeatability: %llu tables, interleaved by row\n\n"
		"| row | mode | k1 per table | statuses | median | spread (max − min) / median | within max(2, 25 %%) |\n|---|---|---|---|---:|---:|---|\n",
		(unsigned long long)t->o.tables);
	for (size_t i = 0; i < t->nrows; i++) {
		if (t->rows[i].tb)
			continue;
		for (int j = 0; j < t->nmodes; j++) {
			struct entry e;

			entry(t, i, t->modes[j], &e);
			if (!e.n)
				continue;
			entries++;
			fprintf(md, "| %s | %s | ", t->rows[i].key,
				mess_noise_mode_name(t->modes[j]));
			for (int k = 0; k < e.n; k++)
				fprintf(md, "%s%g", k ? ", " : "", e.k1[k]);
			fprintf(md, " | ");
			for (int k = 0; k < e.n; k++)
				fprintf(md, "%s%s", k ? ", " : "", e.status[k]);
			fprintf(md, " | %g | %.2f | %s |\n", e.med,
				e.med > 0 ? (e.max - e.min) / e.med : NAN,
				e.within < 0 ? "not judged (not ok or none in every table)" :
				e.within ? "yes" : "**no**");
			judged += e.within >= 0;
			within += e.within > 0;
		}
	}
	fprintf(md, "\n%u of %u entries judged (ok or none in every table); %u of them within.\n",
		judged, entries, within);
	return write_csv(t, dir);
}
